//! Helpers for writing RTL in rust-hdl.

use rust_hdl::prelude::*;

/// A sized constant: an integer literal in `hdl_gen` would become a 32-bit constant in the
/// Verilog, so RTL blocks hold their constants as `Constant<Bits<N>>` built with this.
pub fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// The bits of an index over `n` things (at least 1), rust-hdl's `clog2`: the width of the
/// index into a memory primitive's `reg [31:0] mem [0:n - 1]` array in hand-written Verilog,
/// or of an enum of `n` variants.
pub fn index_bits(n: usize) -> usize {
    let last = n.saturating_sub(1);
    (usize::BITS - last.leading_zeros()).max(1) as usize
}

/// Non-blocking writes of 0 to the words `rows` of a hand-written memory primitive's array
/// `mem`, one statement each: Verilator 5.006 does not take a delayed assignment to an array
/// inside a `for` loop (`BLKLOOPINIT`).
pub fn zeroes(rows: std::ops::Range<usize>) -> String {
    rows.map(|i| format!("      mem[{i}] <= 32'h0;\n"))
        .collect()
}

#[cfg(test)]
mod tests {
    use super::index_bits;

    #[test]
    fn index_bits_cover_the_last_index() {
        assert_eq!(index_bits(1), 1);
        assert_eq!(index_bits(2), 1);
        assert_eq!(index_bits(3), 2);
        assert_eq!(index_bits(6), 3);
        assert_eq!(index_bits(8), 3);
        assert_eq!(index_bits(9), 4);
        assert_eq!(index_bits(256), 8);
        assert_eq!(index_bits(257), 9);
        assert_eq!(index_bits(816), 10);
    }
}
