//! Introspection of a rust-hdl block: its signals (scope path, name, width, direction, enum
//! variants) and their current values as bit vectors.
//!
//! rust-hdl exposes a block's tree only through the [`Probe`] visitor, in a fixed order. The
//! walk here numbers every leaf signal in that order, so a later walk can pick values by index
//! without hashing (see [`for_each_leaf`]).

use crate::sim::atom_table::{AtomTable, Held};
use crate::sim::atom_value::ValueRead;
use bitvec::prelude::*;
use rtgpu_hw::hdl::index_bits;
use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::core::block::Block;
use rust_hdl::core::probe::Probe;
use rust_hdl::core::synth::VCDValue;
use rust_hdl::core::type_descriptor::{TypeDescriptor, TypeKind};

/// A value as bits, bit 0 = least significant.
pub type Word = BitVec<u64, Lsb0>;

/// Role of a signal in its block.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// An input port.
    Input,
    /// An output port.
    Output,
    /// A bidirectional port.
    InOut,
    /// A constant (never changes; not recorded in VCDs).
    Constant,
    /// Anything else (locals, sub-block internals seen from this block).
    Internal,
}

/// One leaf signal of a block tree.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SignalInfo {
    /// Scopes from the root, e.g. `["decode", "src0_check"]`.
    pub scope: Vec<String>,
    /// The signal's name inside its scope (`$`-joined for struct fields and interfaces, as
    /// rust-hdl names them in Verilog).
    pub name: String,
    /// Width in bits (enums: the clog2 of their variant count, as rust-hdl encodes them).
    pub width: usize,
    /// Port direction, if it is a port of the block that owns it.
    pub role: Role,
    /// Variant names, for enum-typed signals (value = index).
    pub variants: Option<Vec<String>>,
    /// Is this a clock (rust-hdl's `Clock` type)?
    pub is_clock: bool,
    /// Index of the leaf in visiting order (stable for one block type).
    pub index: usize,
}

impl SignalInfo {
    /// `scope.name`, dot-separated, as GTKWave shows it.
    pub fn path(&self) -> String {
        format!("{}.{}", self.scope.join("."), self.name)
    }

    /// Is this signal inside `scope` (a dotted path: the scope itself or below it)?
    pub fn is_in_scope(&self, scope: &str) -> bool {
        let path = self.path();
        path == scope
            || path
                .strip_prefix(scope)
                .is_some_and(|rest| rest.starts_with('.'))
    }

    /// Is this signal a port of the root block (depth 1)?
    pub fn is_root_port(&self) -> bool {
        self.scope.len() == 1 && matches!(self.role, Role::Input | Role::Output | Role::InOut)
    }
}

/// Lists every leaf signal of `uut`, with `root` as the name of the top scope.
pub fn list_signals(uut: &dyn Block, root: &str) -> Vec<SignalInfo> {
    let mut lister = Lister::default();
    uut.accept(root, &mut lister);
    lister.out
}

/// What [`for_each_leaf`] keeps from one walk of a block to the next: every atom's type
/// descriptor (rust-hdl builds one with allocated names; a block's atoms keep their types),
/// its number of leaves, whether any of them is wanted, and whether it is read as a number;
/// where the atoms are ([`AtomTable`]: later walks and change notes visit them without
/// rust-hdl's walk); when tracking changes (see [`Atoms::track`]), whether its value may have
/// changed since the last walk read it.
#[derive(Default)]
pub struct Atoms {
    descs: Vec<TypeDescriptor>,
    leaves: Vec<usize>,
    wanted: Vec<bool>,
    /// By atom: read as a number ([`ValueRead`]), which costs less than noting its changes:
    /// read at every walk, never noted.
    polled: Vec<bool>,
    /// By atom, when tracking: its changes are noted (wanted and not polled).
    noted: Vec<bool>,
    /// Tracking, and some atom's changes are noted.
    noting: bool,
    /// By atom: read it on the next walk (empty: not tracking, every wanted atom is read).
    dirty: Vec<bool>,
    /// By atom: a bidirectional signal (its driven/undriven state, written as Z, moves
    /// without rust-hdl's `changed` flag: always read).
    inout: Vec<bool>,
    /// The atoms as the last walk found them.
    table: AtomTable,
    /// Tracking: changing updates noted since the last walk read the atoms.
    notes: u32,
    /// Tracking: more than `MAX_NOTES` updates since the last walk: it reads every atom.
    flood: bool,
}

/// Changing updates noted between two walks, at most; past them the next walk reads every
/// wanted atom instead. A note asks every atom one question (a few ns each); a read hands out
/// an allocated value (tens of ns), so notes pay while they stay few.
const MAX_NOTES: u32 = 8;

impl Atoms {
    /// From now on, a walk reads only the atoms [`Atoms::note_changes`] marked since it last
    /// read them, and the ones read as numbers (call after a walk that read every atom, which
    /// taught the atoms).
    pub fn track(&mut self) {
        self.dirty = vec![false; self.descs.len()];
        self.noted = (self.wanted.iter().zip(&self.polled))
            .map(|(&w, &p)| w && !p)
            .collect();
        self.noting = self.noted.contains(&true);
    }

    /// Changes are tracked ([`Atoms::track`]).
    pub fn tracking(&self) -> bool {
        !self.dirty.is_empty()
    }

    /// Tracking: marks the atoms of `uut` whose value the block's last `update_all` changed
    /// (the wanted ones not read as numbers). rust-hdl sets a signal's `changed` flag in every
    /// `update_all` (the value moves only there), so calling this after each `update_all` that
    /// changed something sees every change. A bidirectional signal is always marked. Past
    /// eight notes, the next walk reads every atom.
    pub fn note_changes(&mut self, uut: &dyn Block) {
        if !self.noting || self.flood {
            return;
        }
        self.notes += 1;
        if self.notes > MAX_NOTES {
            self.flood = true;
            return;
        }
        if let Some(atoms) = self.table.atoms(uut) {
            let asked = self.noted.iter().zip(&self.inout).zip(atoms);
            for (d, ((&noted, &io), held)) in self.dirty.iter_mut().zip(asked) {
                *d |= noted && (io || held.signal.changed());
            }
            return;
        }
        uut.accept(
            "",
            &mut Marker {
                atom: 0,
                atoms: self,
            },
        );
    }
}

/// The walk of [`Atoms::note_changes`] when the atoms are not known yet.
struct Marker<'a> {
    atom: usize,
    atoms: &'a mut Atoms,
}

impl Probe for Marker<'_> {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        let a = &mut *self.atoms;
        if let Some(d) = a.dirty.get_mut(self.atom) {
            *d |= a.noted[self.atom] && (a.inout[self.atom] || signal.changed());
        }
        self.atom += 1;
    }
}

/// A leaf signal's value as [`for_each_leaf`] read it.
#[derive(Clone, Copy, Debug)]
pub enum LeafValue<'a> {
    /// Read from the signal itself ([`ValueRead`]): the value, bit 0 the least significant,
    /// and the width in bits.
    Number(u64, usize),
    /// As rust-hdl hands it out (`Atom::vcd`), with the leaf's type.
    Vcd(&'a VCDValue, &'a TypeKind),
}

impl LeafValue<'_> {
    /// The value as a number (an enum as its variant index), if it has at most 64 bits (x and
    /// z bits read as 0).
    #[inline]
    pub fn small(&self) -> Option<u64> {
        match *self {
            Self::Number(v, _) => Some(v),
            Self::Vcd(value, kind) => leaf_value(value, kind),
        }
    }

    /// The value as a word (an enum as its variant index, at its width).
    pub fn to_word(&self) -> Word {
        match *self {
            Self::Number(v, width) => {
                let mut w = bitvec![u64, Lsb0; 0; width];
                w.store(v);
                w
            }
            Self::Vcd(value, kind) => to_word(value, kind),
        }
    }
}

/// Calls `f(index, value)` for every leaf signal with `want(index)`, in the order of
/// [`list_signals`]. `atoms` carries what the walk learns about the block's atoms to the next
/// walk of the same block: an atom none of whose leaves is wanted (a constant, a signal
/// outside the recorded scopes) is skipped without reading its value, `want` is asked once
/// per leaf, on the first walk, and from the second walk on a `Bit`, `Clock` or `Bits<N ≤ 64>`
/// signal is read as a number ([`LeafValue::Number`], without allocating), any other as
/// rust-hdl hands it out ([`LeafValue::Vcd`]).
pub fn for_each_leaf(
    uut: &dyn Block,
    atoms: &mut Atoms,
    want: impl Fn(usize) -> bool,
    mut f: impl FnMut(usize, LeafValue<'_>),
) {
    let flood = std::mem::take(&mut atoms.flood);
    atoms.notes = 0;
    let mut table = std::mem::take(&mut atoms.table);
    if table.knows(uut) {
        let mut reader = Reader::new(atoms, flood, &want, &mut f, None);
        for held in table.atoms(uut).into_iter().flatten() {
            reader.read(held.signal, Some(&held));
        }
    } else {
        let mut reader = Reader::new(atoms, flood, &want, &mut f, Some(&mut table));
        uut.accept("", &mut reader);
        let n = reader.atom;
        table.complete(uut, n);
    }
    atoms.table = table;
}

/// A leaf's value as a number (an enum's variant index), if it has at most 64 bits (x and z
/// bits read as 0).
fn leaf_value(value: &VCDValue, kind: &TypeKind) -> Option<u64> {
    match value {
        VCDValue::Single(v) => Some(one(v)),
        VCDValue::Vector(msb_first) if msb_first.len() <= 64 => Some(pack(msb_first)),
        VCDValue::String(s) => Some(enum_index(s, kind)),
        _ => None,
    }
}

/// 1 for a 1 bit, else 0.
fn one(v: &vcd06::Value) -> u64 {
    u64::from(*v == vcd06::Value::V1)
}

/// At most 64 bits, most significant first, as a number: eight at a time, each byte's low
/// bit gathered by one multiplication, then the rest one by one.
fn pack(msb_first: &[vcd06::Value]) -> u64 {
    let chunks = msb_first.chunks_exact(8);
    let rest = chunks.remainder();
    let mut acc = 0u64;
    for c in chunks {
        // (Byte i: 1 for a 1 bit, 0 for 0, x and z.)
        let x = u64::from_le_bytes(std::array::from_fn(|i| u8::from(c[i] == vcd06::Value::V1)));
        // Byte i's low bit lands on bit 63 - i: the first value is the most significant.
        acc = acc << 8 | x.wrapping_mul(0x8040_2010_0804_0201) >> 56;
    }
    rest.iter().fold(acc, |a, v| a << 1 | one(v))
}

/// The ports of the root block, in declaration order.
pub fn root_ports(uut: &dyn Block, root: &str) -> Vec<SignalInfo> {
    list_signals(uut, root)
        .into_iter()
        .filter(SignalInfo::is_root_port)
        .collect()
}

#[derive(Default)]
struct Lister {
    scope: Vec<String>,
    namespace: Vec<String>,
    out: Vec<SignalInfo>,
}

impl Lister {
    fn push_leaves(&mut self, name: &str, desc: &TypeDescriptor, role: Role) {
        match &desc.kind {
            TypeKind::Composite(fields) => {
                for field in fields {
                    let sub = format!("{name}${}", field.fieldname);
                    self.push_leaves(&sub, &field.kind, role);
                }
            }
            kind => {
                let (width, variants) = match kind {
                    TypeKind::Bits(w) | TypeKind::Signed(w) => (*w, None),
                    TypeKind::Enum(v) => (index_bits(v.len()), Some(variant_names(v))),
                    TypeKind::Composite(_) => unreachable!("handled above"),
                };
                let index = self.out.len();
                self.out.push(SignalInfo {
                    scope: self.scope.clone(),
                    name: name.to_string(),
                    width,
                    role,
                    variants,
                    is_clock: desc.name == "clock",
                    index,
                });
            }
        }
    }
}

impl Probe for Lister {
    fn visit_start_scope(&mut self, name: &str, _node: &dyn Block) {
        self.scope.push(name.to_string());
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.namespace.push(name.to_string());
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        let role = match signal.kind() {
            AtomKind::InputParameter => Role::Input,
            AtomKind::OutputParameter | AtomKind::OutputPassthrough => Role::Output,
            AtomKind::InOutParameter => Role::InOut,
            AtomKind::Constant => Role::Constant,
            _ => Role::Internal,
        };
        let mut full: Vec<&str> = self.namespace.iter().map(String::as_str).collect();
        full.push(name);
        self.push_leaves(&full.join("$"), &signal.descriptor(), role);
    }
    fn visit_end_namespace(&mut self, _name: &str, _node: &dyn Block) {
        self.namespace.pop();
    }
    fn visit_end_scope(&mut self, _name: &str, _node: &dyn Block) {
        self.scope.pop();
    }
}

struct Reader<'a, W: Fn(usize) -> bool, F: FnMut(usize, LeafValue<'_>)> {
    index: usize,
    /// The atom being visited, and what is known of the atoms seen so far.
    atom: usize,
    atoms: &'a mut Atoms,
    /// Read every wanted atom, tracked or not (too many changing updates were noted).
    flood: bool,
    want: &'a W,
    f: &'a mut F,
    /// Walking the block: the table that learns where its atoms are.
    learn: Option<&'a mut AtomTable>,
}

/// Leaves of a value of type `kind`.
fn leaves(kind: &TypeKind) -> usize {
    match kind {
        TypeKind::Composite(fields) => fields.iter().map(|f| leaves(&f.kind.kind)).sum(),
        _ => 1,
    }
}

/// Calls `f` with every leaf of `value` (of type `kind`), from leaf number `index` on.
fn emit<F: FnMut(usize, LeafValue<'_>)>(
    index: &mut usize,
    f: &mut F,
    value: &VCDValue,
    kind: &TypeKind,
) {
    match (value, kind) {
        (VCDValue::Composite(values), TypeKind::Composite(fields)) => {
            for (v, field) in values.iter().zip(fields) {
                emit(index, f, v, &field.kind.kind);
            }
        }
        (value, kind) => {
            f(*index, LeafValue::Vcd(value, kind));
            *index += 1;
        }
    }
}

impl<'a, W: Fn(usize) -> bool, F: FnMut(usize, LeafValue<'_>)> Reader<'a, W, F> {
    /// A reader from the first atom on.
    fn new(
        atoms: &'a mut Atoms,
        flood: bool,
        want: &'a W,
        f: &'a mut F,
        learn: Option<&'a mut AtomTable>,
    ) -> Self {
        Self {
            index: 0,
            atom: 0,
            atoms,
            flood,
            want,
            f,
            learn,
        }
    }

    /// The next atom, `signal` (`held` when the table handed it out): its wanted leaves to
    /// `f`, if it may have changed.
    fn read(&mut self, signal: &dyn Atom, held: Option<&Held>) {
        let a = &mut *self.atoms;
        // (Tracking: an atom no change marked is not read; it stands as last read.)
        let marked = a.dirty.get_mut(self.atom).is_none_or(std::mem::take);
        let read = marked || self.flood || a.polled[self.atom];
        if !(a.wanted[self.atom] && read) {
            self.index += a.leaves[self.atom];
        } else if let Some((v, width)) = held.and_then(Held::number) {
            (self.f)(self.index, LeafValue::Number(v, width));
            self.index += 1;
        } else {
            let kind = &a.descs[self.atom].kind;
            emit(&mut self.index, self.f, &signal.vcd(), kind);
        }
        self.atom += 1;
    }

    /// Learns `signal`, the next atom, the first time a walk visits it: its type, leaves,
    /// whether any is wanted, and how to read it as a number (for `learn`, the table, which
    /// notes every atom).
    fn learn(&mut self, signal: &dyn Atom) {
        let a = &mut *self.atoms;
        let mut read = None;
        if self.atom == a.descs.len() {
            let desc = signal.descriptor();
            read = ValueRead::identify(signal, &desc);
            let n = leaves(&desc.kind);
            a.wanted.push((self.index..self.index + n).any(self.want));
            a.leaves.push(n);
            a.descs.push(desc);
            a.inout.push(signal.kind() == AtomKind::InOutParameter);
            a.polled.push(read.is_some());
        }
        if let Some(t) = self.learn.as_deref_mut() {
            // SAFETY: `read` was identified on `signal` with its own descriptor, just above
            // (an atom learnt by an earlier walk is noted without a read).
            unsafe { t.note(self.atom, signal, read) };
        }
    }
}

impl<W: Fn(usize) -> bool, F: FnMut(usize, LeafValue<'_>)> Probe for Reader<'_, W, F> {
    fn visit_atom(&mut self, _name: &str, signal: &dyn Atom) {
        self.learn(signal);
        self.read(signal, None);
    }
}

/// `Type::Variant` → `Variant`.
fn variant_names(v: &[String]) -> Vec<String> {
    v.iter()
        .map(|s| s.rsplit("::").next().unwrap_or(s).to_string())
        .collect()
}

/// A leaf value as a word (an enum as its variant index, at its width).
pub fn to_word(value: &VCDValue, kind: &TypeKind) -> Word {
    match value {
        VCDValue::Single(v) => bitvec![u64, Lsb0; u64::from(*v == vcd06::Value::V1); 1],
        VCDValue::Vector(msb_first) => {
            // (One allocation of the word's size, bits set where they are 1.)
            let mut w = bitvec![u64, Lsb0; 0; msb_first.len()];
            for (i, v) in msb_first.iter().rev().enumerate() {
                if *v == vcd06::Value::V1 {
                    w.set(i, true);
                }
            }
            w
        }
        VCDValue::String(s) => enum_word(s, kind),
        VCDValue::Composite(_) => Word::new(),
    }
}

fn enum_word(variant: &str, kind: &TypeKind) -> Word {
    let TypeKind::Enum(variants) = kind else {
        return Word::new();
    };
    let mut w = bitvec![u64, Lsb0; 0; index_bits(variants.len())];
    w.store(enum_index(variant, kind));
    w
}

/// The index of enum variant `variant` (its short name) in `kind`, 0 if it is not one.
fn enum_index(variant: &str, kind: &TypeKind) -> u64 {
    let TypeKind::Enum(variants) = kind else {
        return 0;
    };
    let short = |v: &String| v.rsplit("::").next() == Some(variant);
    variants.iter().position(short).unwrap_or(0) as u64
}

/// A word as lowercase hex, `width` bits wide (at least one digit).
pub fn to_hex(w: &Word, width: usize) -> String {
    let digits = width.div_ceil(4).max(1);
    (0..digits)
        .rev()
        .map(|d| {
            let lo = d * 4;
            let hi = (lo + 4).min(w.len());
            let nib: u8 = if lo < hi { w[lo..hi].load_le() } else { 0 };
            char::from_digit(u32::from(nib), 16).unwrap_or('0')
        })
        .collect()
}

/// A word as a u64 (low 64 bits).
pub fn to_u64(w: &Word) -> u64 {
    let n = w.len().min(64);
    if n == 0 {
        0
    } else {
        w[..n].load_le()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Vectors of 1 to 64 values of every kind, packed eight at a time, read as the bit by
    /// bit fold reads them; catches a gather constant that reverses the byte's bits, chunks
    /// taken from the wrong end, or x/z read as 1.
    #[test]
    fn packed_vectors_read_as_bit_by_bit() {
        use vcd06::Value::{V0, V1, X, Z};
        let kinds = [V0, V1, X, Z];
        let mut seed = 0x9E37_79B9_7F4A_7C15u64;
        for len in 1..=64 {
            for _ in 0..20 {
                let v: Vec<vcd06::Value> = (0..len)
                    .map(|_| {
                        seed ^= seed << 13;
                        seed ^= seed >> 7;
                        seed ^= seed << 17;
                        kinds[(seed % 4) as usize]
                    })
                    .collect();
                let slow = v.iter().fold(0, |a, b| a << 1 | u64::from(*b == V1));
                assert_eq!(pack(&v), slow, "{v:?}");
            }
        }
    }

    /// The leaves of `B` after every instant of `cycles` cycles under its bench stimulus,
    /// walked with the atoms kept (from the second walk on, signals read as numbers) and
    /// afresh (every value as rust-hdl hands it out): the same values. Returns how many leaves
    /// were read as numbers.
    fn numbers_against_rust_hdl<B: crate::bench::BenchBlock>(cycles: u64) -> usize {
        use crate::sim::clock::Period;
        use crate::sim::harness::Harness;
        let mut h = Harness::new(B::default(), B::NAME).unwrap();
        h.add_clock("clock", Period::mhz(1000).unwrap(), B::clock_pin)
            .unwrap();
        let (mut kept, mut numbers) = (Atoms::default(), 0);
        for _ in 0..2 * cycles {
            h.step(&mut |u, c| u.drive(c.cycle)).unwrap();
            let mut fresh = Vec::new();
            for_each_leaf(
                h.uut(),
                &mut Atoms::default(),
                |_| true,
                |i, v| {
                    fresh.push((i, v.to_word()));
                },
            );
            let mut ours = Vec::new();
            for_each_leaf(
                h.uut(),
                &mut kept,
                |_| true,
                |i, v| {
                    numbers += usize::from(matches!(v, LeafValue::Number(..)));
                    ours.push((i, v.to_word()));
                },
            );
            assert_eq!(ours, fresh, "{} at {} ps", B::NAME, h.now_ps());
        }
        numbers
    }

    /// Blocks with 1-bit, clock, 3- to 64-bit, enum and struct signals, inputs, outputs and
    /// locals (the counter, the two decoders, the PWS unit at S = 3), cycle after cycle:
    /// every signal read as a number equals rust-hdl's own value, and numbers are read;
    /// catches a number taken from the wrong field (an output's or input's pending value, the
    /// previous one), bits reordered, or a width read as another.
    #[test]
    fn numbers_read_from_the_signals_are_rust_hdls_values() {
        use crate::bench::PwsS3;
        use crate::tb::Counter32;
        use rtgpu_hw::isa::{InsnDecode, PwsDecode};
        crate::sim::twin::on_rtl_stack_or_panic(|| {
            for (block, numbers) in [
                ("counter", numbers_against_rust_hdl::<Counter32>(40)),
                ("decode", numbers_against_rust_hdl::<PwsDecode>(100)),
                ("insn", numbers_against_rust_hdl::<InsnDecode>(100)),
                ("pws-s3", numbers_against_rust_hdl::<PwsS3>(48)),
            ] {
                assert!(numbers > 0, "{block}: no signal read as a number");
            }
        });
    }

    #[test]
    fn hex_is_msb_first_and_padded() {
        let mut w = bitvec![u64, Lsb0; 0; 32];
        w.store(0xBF7F_6B6Au32);
        assert_eq!(to_hex(&w, 32), "bf7f6b6a");
        assert_eq!(to_hex(&w[..8].to_bitvec(), 8), "6a");
        assert_eq!(to_hex(&bitvec![u64, Lsb0; 1], 1), "1");
        assert_eq!(to_hex(&w[..9].to_bitvec(), 9), "16a");
        assert_eq!(to_u64(&w), 0xBF7F_6B6A);
    }
}
