//! Helpers for writing RTL in rust-hdl.

use rust_hdl::prelude::*;

/// A sized constant: an integer literal in `hdl_gen` would become a 32-bit constant in the
/// Verilog, so RTL blocks hold their constants as `Constant<Bits<N>>` built with this.
pub fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}

/// The address bits of a memory primitive's `words` (at least 1): the width of the index
/// into its `reg [31:0] mem [0:words - 1]` array in hand-written Verilog.
pub fn mem_index_bits(words: usize) -> usize {
    let last = words.saturating_sub(1);
    (usize::BITS - last.leading_zeros()).max(1) as usize
}

#[cfg(test)]
mod tests {
    use super::mem_index_bits;

    #[test]
    fn index_bits_cover_the_last_word() {
        assert_eq!(mem_index_bits(1), 1);
        assert_eq!(mem_index_bits(2), 1);
        assert_eq!(mem_index_bits(3), 2);
        assert_eq!(mem_index_bits(256), 8);
        assert_eq!(mem_index_bits(257), 9);
        assert_eq!(mem_index_bits(816), 10);
    }
}
