//! Verilator as a simulation engine for Rust: a block's Verilog becomes a Verilated model
//! loaded into the running process and driven one edge at a time.
//!
//! 1. [`Design`] names the Verilog module `top` and lists its ports ([`Port`]).
//! 2. [`build`] wraps `top` in a module `vtop` whose inputs are packed into one bus `in_bus`
//!    (and outputs into `out_bus`, clocks kept as `clk_N`), splits rust-hdl's `always @(*)`
//!    blocks into independent ones of the same meaning (module `split`: Verilator would see
//!    each block with a combinational sub-block as a loop), runs `verilator --cc`, builds the
//!    model and Verilator's runtime through the generated `Vvtop.mk`, compiles a small C shim
//!    and links a shared library. The result is cached under the cache directory, keyed by a
//!    hash of the Verilog, the ports and the flags: a second build of the same design starts no
//!    tool.
//! 3. [`Model`] is one instance: [`Model::eval`] copies the packed inputs and the clock levels
//!    in, evaluates, copies the outputs out — one foreign call per edge; [`Model::cycle`] does
//!    a one-clock design's whole cycle (clock low, evaluate, read, clock high, evaluate) in
//!    one call, which is how the testbench harness drives such a block.
//!
//! Errors are values: a design that does not Verilate names the first Verilator message, a
//! missing tool says to run `scripts/setup`, a `$stop`, `$finish` or fatal error in the
//! model ends the run with its message instead of aborting the process, and so does a crash
//! (SIGSEGV, SIGBUS, SIGFPE, SIGILL) inside the model's evaluation: the process lives on, the
//! instance is dead (module `guard`).

mod builder;
mod gen;
mod guard;
mod model;
mod split;

pub use builder::{build, BuildError, BuildOptions, Built, Tools};
pub use model::{fold, Model, ModelError, Trace};

/// Direction of a port of `top`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Dir {
    /// Driven by the caller, packed into `in_bus`.
    In,
    /// Driven by the design, packed into `out_bus`.
    Out,
    /// A clock input, driven through the clock mask of [`Model::eval`].
    Clock,
}

/// One port of the module `top`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Port {
    /// Its name in the Verilog (`$` is allowed: `age$3`).
    pub name: String,
    /// Width in bits (≥ 1).
    pub width: usize,
    /// Direction.
    pub dir: Dir,
}

/// A design to verilate: the Verilog text (it must define `top`) and the ports of `top`.
#[derive(Clone, Debug)]
pub struct Design {
    /// A name for messages and the cache directory (e.g. the block's name).
    pub name: String,
    /// The Verilog source.
    pub verilog: String,
    /// The ports of `top`, in the order the buses pack them (first port at bit 0).
    pub ports: Vec<Port>,
}

/// Where each port sits in the packed buses.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Layout {
    /// Per port of the design: its bit offset in `in_bus`/`out_bus` or its clock index.
    pub offsets: Vec<usize>,
    /// Width of `in_bus` in bits.
    pub in_bits: usize,
    /// Width of `out_bus` in bits.
    pub out_bits: usize,
    /// Number of clock inputs.
    pub clocks: usize,
}

impl Layout {
    /// Packs `ports` in order: inputs from bit 0 of `in_bus`, outputs from bit 0 of `out_bus`,
    /// clocks numbered 0, 1, ...
    pub fn of(ports: &[Port]) -> Layout {
        let mut l = Layout::default();
        for p in ports {
            let slot = match p.dir {
                Dir::In => &mut l.in_bits,
                Dir::Out => &mut l.out_bits,
                Dir::Clock => &mut l.clocks,
            };
            l.offsets.push(*slot);
            *slot += if p.dir == Dir::Clock { 1 } else { p.width };
        }
        l
    }

    /// 64-bit words of `in_bus`.
    pub fn in_words(&self) -> usize {
        self.in_bits.div_ceil(64)
    }

    /// 64-bit words of `out_bus`.
    pub fn out_words(&self) -> usize {
        self.out_bits.div_ceil(64)
    }
}

/// Writes `width` bits of `value` (little-endian words) at bit `offset` of `bus`.
pub fn put_bits(bus: &mut [u64], offset: usize, width: usize, value: &[u64]) {
    for i in 0..width {
        let bit = value[i / 64] >> (i % 64) & 1;
        let (w, b) = ((offset + i) / 64, (offset + i) % 64);
        bus[w] = bus[w] & !(1 << b) | bit << b;
    }
}

/// Writes a value of at most 64 bits at bit `offset` of `bus` (`value` has no bits above
/// `width`).
pub fn put_u64(bus: &mut [u64], offset: usize, width: usize, value: u64) {
    let (w, b) = (offset / 64, offset % 64);
    let mask = if width == 64 {
        u64::MAX
    } else {
        (1u64 << width) - 1
    };
    bus[w] = bus[w] & !(mask << b) | (value & mask) << b;
    if b + width > 64 {
        let spill = b + width - 64;
        let high = (1u64 << spill) - 1;
        bus[w + 1] = bus[w + 1] & !high | (value & mask) >> (64 - b);
    }
}

/// Reads a value of at most 64 bits at bit `offset` of `bus`.
pub fn get_u64(bus: &[u64], offset: usize, width: usize) -> u64 {
    let (w, b) = (offset / 64, offset % 64);
    let mut v = bus[w] >> b;
    if b + width > 64 {
        v |= bus[w + 1] << (64 - b);
    }
    if width == 64 {
        v
    } else {
        v & ((1u64 << width) - 1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn layout_packs_inputs_outputs_and_clocks_separately() {
        let p = |name: &str, width, dir| Port {
            name: name.into(),
            width,
            dir,
        };
        let ports = [
            p("clock", 1, Dir::Clock),
            p("a", 3, Dir::In),
            p("y", 70, Dir::Out),
            p("b", 64, Dir::In),
            p("z", 1, Dir::Out),
        ];
        let l = Layout::of(&ports);
        assert_eq!(l.offsets, vec![0, 0, 0, 3, 70]);
        assert_eq!((l.in_bits, l.out_bits, l.clocks), (67, 71, 1));
        assert_eq!((l.in_words(), l.out_words()), (2, 2));
    }

    #[test]
    fn bits_round_trip_across_word_boundaries() {
        let mut bus = [u64::MAX; 3];
        put_u64(&mut bus, 60, 10, 0b10_1010_1010);
        assert_eq!(get_u64(&bus, 60, 10), 0b10_1010_1010);
        assert_eq!(bus[0] >> 60, 0b1010);
        assert_eq!(bus[1] & 0x3f, 0b10_1010);
        assert_eq!(get_u64(&bus, 70, 6), 0x3f, "neighbours untouched");
        put_u64(&mut bus, 64, 64, 7);
        assert_eq!(bus[1], 7);
        put_bits(&mut bus, 1, 66, &[u64::MAX - 1, 3]);
        assert_eq!(get_u64(&bus, 1, 64), u64::MAX - 1);
        assert_eq!(get_u64(&bus, 65, 2), 3);
    }
}
