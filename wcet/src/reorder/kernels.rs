//! The PTX kernels of the reordering work (files under `wcet/kernels/reorder/`) with their
//! launches.

/// The kernel of the paper's worked example, cleaned of extraction artefacts.
pub const EXAMPLE: &str = include_str!("../../kernels/reorder/example.ptx");

/// Loop + barrier (a deadlock guard for rule R1): `for i < 4 { ld.global; st.shared; bar.sync };
/// ld.global`.
pub const LOOP_BARRIER: &str = include_str!("../../kernels/reorder/loop_barrier.ptx");

/// A kernel and the launch it is analysed with.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Launch {
    /// Name on the command line.
    pub name: &'static str,
    /// PTX source.
    pub source: &'static str,
    /// Parameter values, in declaration order.
    pub params: &'static [u64],
    /// Grid dimensions.
    pub grid: [u32; 3],
    /// Block dimensions.
    pub block: [u32; 3],
}

/// The built-in kernels: the paper's example (grid 1×2×1, block 16×4×1) and the loop +
/// barrier kernel (3 blocks of 64 threads).
pub const BUILTIN: [Launch; 2] = [
    Launch {
        name: "example",
        source: EXAMPLE,
        params: &[0],
        grid: [1, 2, 1],
        block: [16, 4, 1],
    },
    Launch {
        name: "loop-barrier",
        source: LOOP_BARRIER,
        params: &[0],
        grid: [3, 1, 1],
        block: [64, 1, 1],
    },
];
