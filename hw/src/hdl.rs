//! Helpers for writing RTL in rust-hdl.

use rust_hdl::prelude::*;

/// A sized constant: an integer literal in `hdl_gen` would become a 32-bit constant in the
/// Verilog, so RTL blocks hold their constants as `Constant<Bits<N>>` built with this.
pub fn k<const N: usize>(v: u64) -> Constant<Bits<N>> {
    Constant::new(v.into())
}
