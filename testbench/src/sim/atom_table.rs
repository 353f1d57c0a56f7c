//! The leaf signals (atoms) of a rust-hdl block, kept from one walk of the block to the next.
//!
//! rust-hdl shows a block's signals only through `Block::accept`, a walk of the whole tree
//! that also builds every array element's name with `format!` (`[B; P]` names its elements
//! `name_0`, `name_1`, ...). A waveform reads the signals at every clock edge and asks which
//! changed after every settling update, so the walk itself was a large part of its cost
//! (docs/assumptions.md#A114). [`AtomTable`] keeps where every atom was found in the last
//! walk, with the block's address, and hands the atoms out again without walking while the
//! block is the same one at the same address.
//!
//! Why that is sound: a rust-hdl block is a fixed tree of signals held in place in its
//! structs and arrays (the derive macros allow nothing else); simulating it writes the
//! signals' values (`next`, `update_all`) and never moves or replaces one. The harness keeps
//! its block in a `Box` that it neither moves nor replaces while it records. The table is
//! used only through a shared borrow of the block it was learnt from (checked by address),
//! so no signal can be written while an atom handed out is read.

use crate::sim::atom_value::ValueRead;
use rust_hdl::core::atom::Atom;
use rust_hdl::core::block::Block;

/// Where every atom of a block was found by its last walk.
#[derive(Default)]
pub struct AtomTable {
    /// The block's address when the table was completed (0: not complete).
    base: usize,
    /// The atoms in visiting order, with how to read each one's value as a number (if its
    /// type allows: [`ValueRead`]).
    atoms: Vec<(*const (dyn Atom + 'static), Option<ValueRead>)>,
}

/// An atom handed out by [`AtomTable::atoms`].
pub struct Held<'a> {
    /// The signal.
    pub signal: &'a dyn Atom,
    /// How to read it as a number (identified on this very signal).
    read: Option<ValueRead>,
}

impl Held<'_> {
    /// The signal's value as a number with its width in bits, if its type is one read
    /// without rust-hdl's allocated value ([`ValueRead`]).
    pub fn number(&self) -> Option<(u64, usize)> {
        self.read.map(|r| {
            // SAFETY: `r` was identified on this signal (`AtomTable::note`'s contract).
            (unsafe { r.read(self.signal) }, r.width())
        })
    }
}

// SAFETY: the table dereferences its pointers only through a shared borrow of the block they
// point into (`atoms`), on the thread that holds that borrow; moved to another thread with its
// block (a harness), it points into the same heap memory.
unsafe impl Send for AtomTable {}

/// The address of a block's data (its vtable left out).
fn address(uut: &dyn Block) -> usize {
    (uut as *const dyn Block).cast::<()>() as usize
}

impl AtomTable {
    /// During a walk of `uut`: atom number `n` is `signal`, read as a number by `read`.
    ///
    /// # Safety
    /// `read`, if any, was [identified](ValueRead::identify) on `signal` with `signal`'s own
    /// descriptor.
    pub unsafe fn note(&mut self, n: usize, signal: &dyn Atom, read: Option<ValueRead>) {
        // SAFETY: only the lifetime bound of the trait object is erased; the pointer is
        // dereferenced only while the block it points into is borrowed (see `atoms`).
        let p: *const (dyn Atom + 'static) = unsafe { std::mem::transmute(signal) };
        match self.atoms.get_mut(n) {
            Some(a) => *a = (p, read),
            None => self.atoms.push((p, read)),
        }
    }

    /// After a complete walk of `uut` that noted every atom.
    pub fn complete(&mut self, uut: &dyn Block, atoms: usize) {
        self.atoms.truncate(atoms);
        self.base = address(uut);
    }

    /// The table was completed on `uut`, at its current address.
    pub fn knows(&self, uut: &dyn Block) -> bool {
        self.base != 0 && self.base == address(uut)
    }

    /// The atoms of `uut` in visiting order, if the table [`knows`](AtomTable::knows) it.
    pub fn atoms<'a>(&'a self, uut: &'a dyn Block) -> Option<impl Iterator<Item = Held<'a>>> {
        self.knows(uut).then(|| {
            self.atoms.iter().map(|&(p, read)| Held {
                // SAFETY: `p` points to a signal inside `uut` (module docs: a block's signals
                // stay in place), which `uut`'s borrow keeps alive and unwritten for 'a.
                signal: unsafe { &*p },
                read,
            })
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rust_hdl::core::probe::Probe;
    use rust_hdl::prelude::*;

    /// Collects every atom's id by walking.
    struct Ids(Vec<usize>, AtomTable);
    impl Probe for Ids {
        fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
            let read = ValueRead::identify(signal, &signal.descriptor());
            // SAFETY: identified on `signal` with its own descriptor.
            unsafe { self.1.note(self.0.len(), signal, read) };
            self.0.push(signal.id());
        }
    }

    /// The table hands out the walk's atoms, in order, for the same block at the same
    /// address, and nothing for another block.
    #[test]
    fn atoms_come_back_in_walk_order_only_for_the_same_block() {
        let mut a = Box::new(DFF::<Bits<8>>::default());
        a.connect_all();
        let other = Box::new(DFF::<Bits<8>>::default());
        let mut walk = Ids(Vec::new(), AtomTable::default());
        a.accept("a", &mut walk);
        let Ids(ids, mut table) = walk;
        table.complete(&*a, ids.len());
        let again: Vec<usize> = table
            .atoms(&*a)
            .expect("same block")
            .map(|s| s.signal.id())
            .collect();
        assert_eq!(again, ids);
        assert!(table.atoms(&*other).is_none());
    }
}
