//! A rust-hdl block's root ports as the Verilator engine's packed buses.
//!
//! rust-hdl gives read-only access to a block's signals (its `Probe` visitor), but a Verilated
//! block's outputs must be written back into the Rust block that testbenches read. So each
//! block lists its port fields once, with [`vl_ports!`](crate::vl_ports), and [`PortField`]
//! (implemented for `Signal<In|Out, Bit|Bits<N>|Clock>` and arrays of them) moves each field's
//! value between the block and the buses, in the listed order.

use rtgpu_verilator::{get_u64, put_u64, Dir, Port};
use rust_hdl::core::prelude::*;

/// A block the Verilator engine can drive: its root ports, in the order they are packed.
pub trait VlPorts: Block {
    /// The root ports (names as in the emitted Verilog: array element `i` of `age` is
    /// `age$i`), in packing order.
    fn ports(&self) -> Vec<Port>;
    /// Packs the inputs' pending values (`.next`, what the testbench wrote) into `bus`, the
    /// clock levels into `bus.clocks`, and makes them the inputs' current values.
    fn pack_inputs(&mut self, bus: &mut Bus);
    /// Writes the outputs from `bus` into the block's output signals.
    fn unpack_outputs(&mut self, bus: &mut Bus);
    /// Writes the inputs from `bus` (a recorded stimulus row) into the input signals.
    fn unpack_inputs(&mut self, bus: &mut Bus);
    /// Packs the outputs' current values into `bus`.
    fn pack_outputs(&self, bus: &mut Bus);
}

/// One pass over a block's ports: the bus words, the per-port offsets ([`rtgpu_verilator::Layout`])
/// and the clock levels. Each [`PortField`] takes the next port.
pub struct Bus<'a> {
    offsets: &'a [usize],
    next: usize,
    words: &'a mut [u64],
    /// Clock levels, bit i = clock i.
    pub clocks: u64,
}

impl<'a> Bus<'a> {
    /// A pass from the first port.
    pub fn new(offsets: &'a [usize], words: &'a mut [u64]) -> Self {
        Bus {
            offsets,
            next: 0,
            words,
            clocks: 0,
        }
    }

    fn take(&mut self) -> usize {
        self.next += 1;
        self.offsets[self.next - 1]
    }

    /// Skips a port this pass does not move.
    fn skip(&mut self) {
        self.next += 1;
    }
}

/// A port field of a block.
pub trait PortField {
    /// Its ports, named from `name`.
    fn describe(&self, name: &str, out: &mut Vec<Port>);
    /// Input: pack its value (clock: its level); others skip.
    fn pack_in(&mut self, bus: &mut Bus);
    /// Output: take its value; others skip.
    fn unpack_out(&mut self, bus: &mut Bus);
    /// Input: take its value; others skip.
    fn unpack_in(&mut self, bus: &mut Bus);
    /// Output: pack its value; others skip.
    fn pack_out(&self, bus: &mut Bus);
}

/// Values of at most 64 bits, or wider ones bit by bit.
trait Word: Synth {
    fn to_word(self, bus: &mut [u64], at: usize);
    fn from_word(bus: &[u64], at: usize) -> Self;
}

impl Word for bool {
    fn to_word(self, bus: &mut [u64], at: usize) {
        put_u64(bus, at, 1, u64::from(self));
    }
    fn from_word(bus: &[u64], at: usize) -> Self {
        get_u64(bus, at, 1) != 0
    }
}

impl<const N: usize> Word for Bits<N> {
    fn to_word(self, bus: &mut [u64], at: usize) {
        if N <= 64 {
            put_u64(bus, at, N, self.to_u64());
        } else {
            for i in 0..N {
                put_u64(bus, at + i, 1, u64::from(self.get_bit(i)));
            }
        }
    }
    fn from_word(bus: &[u64], at: usize) -> Self {
        if N <= 64 {
            Bits::from(get_u64(bus, at, N))
        } else {
            // Built in place: folding `replace_bit` copied the whole N-byte value per bit.
            let bits: [bool; N] = std::array::from_fn(|i| get_u64(bus, at + i, 1) != 0);
            Bits::Long(rust_hdl::core::bitvec::BitVec::from(bits))
        }
    }
}

impl<T: Word> PortField for Signal<In, T> {
    fn describe(&self, name: &str, out: &mut Vec<Port>) {
        out.push(Port {
            name: name.into(),
            width: T::BITS,
            dir: Dir::In,
        });
    }
    fn pack_in(&mut self, bus: &mut Bus) {
        let at = bus.take();
        self.next.to_word(bus.words, at);
        self.update_all();
    }
    fn unpack_out(&mut self, bus: &mut Bus) {
        bus.skip();
    }
    fn unpack_in(&mut self, bus: &mut Bus) {
        let at = bus.take();
        self.next = T::from_word(bus.words, at);
    }
    fn pack_out(&self, bus: &mut Bus) {
        bus.skip();
    }
}

impl<T: Word> PortField for Signal<Out, T> {
    fn describe(&self, name: &str, out: &mut Vec<Port>) {
        out.push(Port {
            name: name.into(),
            width: T::BITS,
            dir: Dir::Out,
        });
    }
    fn pack_in(&mut self, bus: &mut Bus) {
        bus.skip();
    }
    fn unpack_out(&mut self, bus: &mut Bus) {
        let at = bus.take();
        self.next = T::from_word(bus.words, at);
        self.update_all();
    }
    fn unpack_in(&mut self, bus: &mut Bus) {
        bus.skip();
    }
    fn pack_out(&self, bus: &mut Bus) {
        let at = bus.take();
        self.val().to_word(bus.words, at);
    }
}

impl PortField for Signal<In, Clock> {
    fn describe(&self, name: &str, out: &mut Vec<Port>) {
        out.push(Port {
            name: name.into(),
            width: 1,
            dir: Dir::Clock,
        });
    }
    fn pack_in(&mut self, bus: &mut Bus) {
        let i = bus.take();
        bus.clocks |= u64::from(self.next.clk) << i;
        self.update_all();
    }
    fn unpack_out(&mut self, bus: &mut Bus) {
        bus.skip();
    }
    fn unpack_in(&mut self, bus: &mut Bus) {
        bus.skip();
    }
    fn pack_out(&self, bus: &mut Bus) {
        bus.skip();
    }
}

impl<T: PortField, const K: usize> PortField for [T; K] {
    fn describe(&self, name: &str, out: &mut Vec<Port>) {
        for (i, f) in self.iter().enumerate() {
            f.describe(&format!("{name}${i}"), out);
        }
    }
    fn pack_in(&mut self, bus: &mut Bus) {
        self.iter_mut().for_each(|f| f.pack_in(bus));
    }
    fn unpack_out(&mut self, bus: &mut Bus) {
        self.iter_mut().for_each(|f| f.unpack_out(bus));
    }
    fn unpack_in(&mut self, bus: &mut Bus) {
        self.iter_mut().for_each(|f| f.unpack_in(bus));
    }
    fn pack_out(&self, bus: &mut Bus) {
        self.iter().for_each(|f| f.pack_out(bus));
    }
}

/// Implements [`VlPorts`] for a block from its port fields:
/// `vl_ports!([const W: usize] WarpScheduler<W> { clock, reset, gto, eligible, age, ... });`
/// lists every root port field once (any order; the engine checks the list against the
/// emitted Verilog).
#[macro_export]
macro_rules! vl_ports {
    ([$($gen:tt)*] $ty:ty { $($f:ident),* $(,)? }) => {
        impl<$($gen)*> $crate::sim::vl::VlPorts for $ty {
            fn ports(&self) -> Vec<rtgpu_verilator::Port> {
                let mut v = Vec::new();
                $( $crate::sim::vl::PortField::describe(&self.$f, stringify!($f), &mut v); )*
                v
            }
            fn pack_inputs(&mut self, bus: &mut $crate::sim::vl::Bus) {
                $( $crate::sim::vl::PortField::pack_in(&mut self.$f, bus); )*
            }
            fn unpack_outputs(&mut self, bus: &mut $crate::sim::vl::Bus) {
                $( $crate::sim::vl::PortField::unpack_out(&mut self.$f, bus); )*
            }
            fn unpack_inputs(&mut self, bus: &mut $crate::sim::vl::Bus) {
                $( $crate::sim::vl::PortField::unpack_in(&mut self.$f, bus); )*
            }
            fn pack_outputs(&self, bus: &mut $crate::sim::vl::Bus) {
                $( $crate::sim::vl::PortField::pack_out(&self.$f, bus); )*
            }
        }
    };
}
