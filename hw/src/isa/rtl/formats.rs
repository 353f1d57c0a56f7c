//! Format and unit codes of the instruction decoder's outputs.

/// Format codes (the decoder's `format` output).
pub mod format {
    /// Not an instruction of the subset.
    pub const NONE: u64 = 0;
    /// SOP2.
    pub const SOP2: u64 = 1;
    /// SOPK.
    pub const SOPK: u64 = 2;
    /// SOP1.
    pub const SOP1: u64 = 3;
    /// SOPC.
    pub const SOPC: u64 = 4;
    /// SOPP.
    pub const SOPP: u64 = 5;
    /// SMEM.
    pub const SMEM: u64 = 6;
    /// VOP1.
    pub const VOP1: u64 = 7;
    /// VOP2.
    pub const VOP2: u64 = 8;
    /// VOPC.
    pub const VOPC: u64 = 9;
    /// VOP3.
    pub const VOP3: u64 = 10;
    /// FLAT.
    pub const FLAT: u64 = 11;
    /// DS.
    pub const DS: u64 = 12;
}

/// Functional-unit codes (the decoder's `unit` output).
pub mod unit {
    /// Not an instruction of the subset.
    pub const NONE: u64 = 0;
    /// Scalar ALU.
    pub const SALU: u64 = 1;
    /// Vector ALU.
    pub const VALU: u64 = 2;
    /// Vector memory (FLAT).
    pub const VMEM: u64 = 3;
    /// Scalar memory.
    pub const SMEM: u64 = 4;
    /// Local data share.
    pub const LDS: u64 = 5;
    /// Branches (`s_branch`, `s_cbranch_*`, `s_setpc_b64`, `s_swappc_b64`).
    pub const BRANCH: u64 = 6;
    /// `split` and `merge`.
    pub const PWS: u64 = 7;
    /// `s_waitcnt`, `s_barrier`.
    pub const SYNC: u64 = 8;
    /// `s_nop`, `s_endpgm`, `s_sleep`.
    pub const PROGRAM: u64 = 9;
    /// Sim-D `tile_ld`, `tile_st`.
    pub const TILE: u64 = 10;
}
