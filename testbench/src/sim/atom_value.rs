//! A rust-hdl signal's value read as a number, without rust-hdl's allocated `VCDValue`.
//!
//! rust-hdl hands a signal's value out only through `Atom::vcd` (a vector of bit values,
//! allocated and grown one bit at a time) or `Atom::verilog` (a big integer). For the signal
//! types most waveform samples read — `Bit`, `Clock` and `Bits<N>` up to 64 bits —
//! [`ValueRead`] reads the value from the signal itself, as a number
//! (docs/assumptions.md#A120).
//!
//! Why the type is known: in rust-hdl 0.46 only `Signal<D, T>` and `Constant<T>` implement
//! `Atom`, the directions D are `In`, `Out`, `Local` and `InOut`, and a signal tells its
//! direction (`Atom::kind`) and its value type (`Atom::descriptor`: rust-hdl's own `Bit`,
//! `clock` and `Bits::<N>`; a derived enum or struct describes itself as an enum or a
//! composite). The pair names the concrete `Signal<D, T>`, which the size and alignment of the
//! atom confirm.
//!
//! Which field: `Atom::vcd` shows a signal's `val`. An input's `val()` reads it; an output's
//! or a local's `val()` reads `next` (rust-hdl keeps their `val` private), which equals `val`
//! whenever the block has settled: `update_all` copies `next` into `val` and a settle ends
//! when an update changed nothing. The harness samples only settled blocks (a test compares
//! the numbers with `Atom::vcd` on real blocks cycle after cycle, in [`super::signals`]).
//! Bidirectional signals (their undriven state is written as z bits) and every other type are
//! read through `Atom::vcd`.

use rust_hdl::core::atom::{Atom, AtomKind};
use rust_hdl::core::direction::Direction;
use rust_hdl::core::prelude::{Bits, Clock, In, Local, Out, Signal, Synth};
use rust_hdl::core::type_descriptor::{TypeDescriptor, TypeKind};

/// How to read one concrete signal type's value as a number.
#[derive(Clone, Copy)]
pub struct ValueRead {
    /// Reads the value of the `Signal<D, T>` at the address.
    read: unsafe fn(*const ()) -> u64,
    /// The width of T, bits.
    width: usize,
}

impl ValueRead {
    /// The read for `signal`, whose descriptor is `desc`, if its type is one read as a
    /// number (an input, output or local signal of type `Bit`, `Clock` or `Bits<N ≤ 64>`).
    pub fn identify(signal: &dyn Atom, desc: &TypeDescriptor) -> Option<Self> {
        let TypeKind::Bits(width) = desc.kind else {
            return None;
        };
        let typed = match signal.kind() {
            AtomKind::InputParameter => of_direction::<In>(&desc.name, width),
            AtomKind::OutputParameter => of_direction::<Out>(&desc.name, width),
            AtomKind::LocalSignal => of_direction::<Local>(&desc.name, width),
            _ => None,
        }?;
        let fits = std::mem::size_of_val(signal) == typed.size
            && std::mem::align_of_val(signal) == typed.align;
        fits.then_some(Self {
            read: typed.read,
            width,
        })
    }

    /// The value of `signal` as a number.
    ///
    /// # Safety
    /// `signal` is the atom this read was [identified](ValueRead::identify) on, with its own
    /// descriptor (or an atom of the same concrete type).
    pub unsafe fn read(&self, signal: &dyn Atom) -> u64 {
        let p = (signal as *const dyn Atom).cast::<()>();
        // SAFETY: `p` points to the `Signal<D, T>` this read was made for (the caller's
        // contract), which `signal`'s borrow keeps alive.
        unsafe { (self.read)(p) }
    }

    /// The width of the value, bits.
    pub fn width(&self) -> usize {
        self.width
    }
}

/// A value type read as a number.
trait Number: Synth {
    /// The value as a number (bit 0 the least significant).
    fn number(self) -> u64;
}

impl Number for bool {
    fn number(self) -> u64 {
        u64::from(self)
    }
}

impl Number for Clock {
    fn number(self) -> u64 {
        u64::from(self.clk)
    }
}

impl<const N: usize> Number for Bits<N> {
    fn number(self) -> u64 {
        // (Instantiated for N ≤ 64 only, where the conversion holds.)
        u64::from(self)
    }
}

/// A direction whose signals' `val` can be read without allocating.
trait Side: Direction + 'static {
    /// The `val` of the signal (settled, for an output or a local: see the module docs).
    fn val<T: Number>(s: &Signal<Self, T>) -> u64;
}

impl Side for In {
    fn val<T: Number>(s: &Signal<Self, T>) -> u64 {
        s.val().number()
    }
}

impl Side for Out {
    fn val<T: Number>(s: &Signal<Self, T>) -> u64 {
        s.next.number()
    }
}

impl Side for Local {
    fn val<T: Number>(s: &Signal<Self, T>) -> u64 {
        s.next.number()
    }
}

/// The read of `Signal<D, T>` with its size and alignment.
struct Typed {
    read: unsafe fn(*const ()) -> u64,
    size: usize,
    align: usize,
}

/// Reads the `Signal<D, T>` at `p`.
///
/// # Safety
/// `p` points to a live `Signal<D, T>`.
unsafe fn read_signal<D: Side, T: Number>(p: *const ()) -> u64 {
    // SAFETY: the caller's contract.
    D::val(unsafe { &*p.cast::<Signal<D, T>>() })
}

/// The read of `Signal<D, T>`.
fn typed<D: Side, T: Number>() -> Typed {
    Typed {
        read: read_signal::<D, T>,
        size: std::mem::size_of::<Signal<D, T>>(),
        align: std::mem::align_of::<Signal<D, T>>(),
    }
}

/// The read of a direction-`D` signal of the type named `name`, `width` bits wide.
fn of_direction<D: Side>(name: &str, width: usize) -> Option<Typed> {
    match name {
        "Bit" => Some(typed::<D, bool>()),
        "clock" => Some(typed::<D, Clock>()),
        _ if name.starts_with("Bits::<") => of_bits::<D>(width),
        _ => None,
    }
}

/// `of_bits::<D>(n)`: the read of `Signal<D, Bits<n>>`, for the widths listed.
macro_rules! of_bits {
    ($($n:literal)*) => {
        /// The read of `Signal<D, Bits<width>>`, up to 64 bits.
        fn of_bits<D: Side>(width: usize) -> Option<Typed> {
            match width {
                $($n => Some(typed::<D, Bits<$n>>()),)*
                _ => None,
            }
        }
    };
}

of_bits!(
    1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
    33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62
    63 64
);

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::signals::LeafValue;
    use rust_hdl::core::block::Block;
    use rust_hdl::core::prelude::InOut;

    /// The number `atom`'s descriptor identifies, if any.
    fn number(atom: &dyn Atom) -> Option<u64> {
        let read = ValueRead::identify(atom, &atom.descriptor())?;
        // SAFETY: identified on `atom` with its own descriptor.
        Some(unsafe { read.read(atom) })
    }

    /// What rust-hdl's `Atom::vcd` shows, as a number.
    fn shown(atom: &dyn Atom) -> Option<u64> {
        LeafValue::Vcd(&atom.vcd(), &atom.descriptor().kind).small()
    }

    /// A settled signal of every direction read as a number equals what `Atom::vcd` shows,
    /// for every width from 1 to 64 (Bits<1> is a single bit to rust-hdl, wider ones vectors)
    /// and for `Bit` and `Clock`; catches a bit order reversed, a width dispatched to the
    /// wrong `Bits<N>`, or a value read from `prev`.
    #[test]
    fn numbers_read_as_rust_hdl_shows_them() {
        fn check<T: Synth>(v: T, n: usize) {
            let mut i = Signal::<In, T>::default();
            let mut o = Signal::<Out, T>::default();
            let mut l = Signal::<Local, T>::default();
            for pass in 0..2 {
                // (Two updates: `prev` holds the first value, `val` and `next` the second.)
                let value = if pass == 0 { T::default() } else { v };
                (i.next, o.next, l.next) = (value, value, value);
                i.update_all();
                o.update_all();
                l.update_all();
            }
            for atom in [&i as &dyn Atom, &o, &l] {
                assert!(number(atom).is_some(), "{n}-bit {:?} not read", atom.kind());
                assert_eq!(number(atom), shown(atom), "{n}-bit {:?}", atom.kind());
            }
        }
        macro_rules! widths {
            ($($n:literal)*) => {$(
                let v = 0xB7E1_5162_8AED_2A6Bu64 & (u64::MAX >> (64 - $n));
                check::<Bits<$n>>(Bits::<$n>::from(v), $n);
            )*};
        }
        widths!(
            1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31
            32 33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59
            60 61 62 63 64
        );
        check::<bool>(true, 1);
        check::<Clock>(Clock::from(true), 1);
    }

    /// An input's number is its settled value even when a new `next` is pending (what
    /// `Atom::vcd` shows: `val`, not `next`).
    #[test]
    fn an_input_reads_its_value_not_its_pending_next() {
        let mut s = Signal::<In, Bits<12>>::default();
        s.next = 0xABC.into();
        s.update_all();
        s.next = 0x123.into();
        assert_eq!(number(&s), Some(0xABC));
        assert_eq!(number(&s), shown(&s));
    }

    /// Types outside the list go through `Atom::vcd`: wide vectors, bidirectional signals
    /// (undriven ones are z bits) and constants.
    #[test]
    fn other_types_are_not_read_as_numbers() {
        assert!(number(&Signal::<In, Bits<65>>::default()).is_none());
        assert!(number(&Signal::<InOut, Bits<8>>::default()).is_none());
        let c = rust_hdl::core::prelude::Constant::<Bits<8>>::new(5.into());
        assert!(number(&c).is_none());
    }
}
