//! Instruction fetch and buffer of the compute unit as a block: the instruction memory, `P`
//! fetch ports, and one instruction buffer per wavefront context holding the instruction at
//! the context's PC, predecoded (its functional unit and legality) for the issue stage's
//! eligibility checks.
//!
//! # Why a buffer per context, loaded when the PC is written
//!
//! The behavioural compute unit fetches ideally: in any cycle every context's instruction at
//! its PC is known, decoded, with no contention between contexts (docs/assumptions.md#A29).
//! The issue stage needs, every cycle, the functional unit of *every* context's next
//! instruction (a context waiting for a busy pipe is not eligible), so the RTL keeps it in a
//! buffer per context. A context's PC changes only when something writes it: its own issue
//! (the next PC or a branch target), a dispatch (the entry PC) or a split (the child gets its
//! parent's PC and buffer; a merge resumes the parent at the PC it holds). Each writer loads the buffer through a fetch port in
//! the cycle it writes the PC; the buffer holds the instruction from the next cycle on. No
//! context issues in the cycle after its PC was written without the buffer being ready: the
//! smallest latency of the behavioural model is 1 cycle (`Latencies::salu`; a branch is 2,
//! E_SPLIT and E_MERGE at least 1), and an issue unit issues one instruction per cycle, so
//! one fetch port per issue unit, one for the dispatcher and the split copy suffice, and
//! fetch stays ideal, as the
//! behavioural model times it (docs/assumptions.md#A89).
//!
//! # Timing
//!
//! Fetch port `p` with bits set in `sel[p]` in cycle *k* reads the dwords at byte address `pc[p]`
//! and `pc[p] + 4` (0 past the end of the memory), predecodes them, and loads them into the
//! buffer of every context of `sel[p]` at the edge that ends *k*: their outputs show them in
//! *k+1*. An issue unit's port names the context it issued (its scheduler's one-hot grant);
//! the dispatcher's port names every context that starts at the entry PC in the cycle (one
//! per SIMD at most). When several ports name one context, the highest port wins; a port beats `copy`. `copy` loads
//! the buffer of `copy_to` with the buffer `copy_from` holds in *k* (a split's child takes its
//! parent's instruction buffer, as the behavioural model copies it with the PC). `reset`
//! empties every buffer; the memory keeps its words (the driver's code survives a reset of
//! the launch, as the behavioural GPU keeps its memories).
//!
//! The memory has one write port (`wen`, `waddr`, `wdata`: the driver's `CODE_DATA` writes)
//! and one plain read port (`raddr` → `rdata`, combinational: `CODE_DATA` reads). A fetch in
//! the cycle of a write reads the old dword. A buffer is not reloaded when the code under it
//! is written (the behavioural model decodes the code at the doorbell and never sees a later
//! write; the driver writes code only between launches).
//!
//! # Inputs (sampled at the rising edge that ends the cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset: every buffer empty (memory kept) |
//! | `wen` | 1 | write `wdata` into instruction dword `waddr` |
//! | `waddr` | 32 | the dword written (`CODE_ADDR / 4`; ignored past the end) |
//! | `wdata` | 32 | the value written |
//! | `raddr` | 32 | the dword `rdata` shows |
//! | `sel[P]` | C each | the contexts whose buffers port `p` loads (bit `c`: context `c`) |
//! | `pc[P]` | 32 each | the byte PC port `p` reads at (bits \[1:0\] ignored) |
//! | `copy` | 1 | copy a buffer (a split) |
//! | `copy_from` | 8 | the buffer copied |
//! | `copy_to` | 8 | the buffer written |
//!
//! # Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `rdata` | 32 | instruction dword `raddr` (0 past the end) |
//! | `valid[C]` | 1 each | the buffer holds an instruction |
//! | `w0[C]` | 32 each | its first dword |
//! | `w1[C]` | 32 each | the dword after it (0 past the end) |
//! | `unit[C]` | 4 each | its functional unit ([`crate::isa::formats::unit`]; 0 when illegal) |
//! | `illegal[C]` | 1 each | not in the subset ([`crate::isa::InsnCheck`]) |
//! | `oob[C]` | 1 each | the PC is past the end of the memory: `pc_out_of_range` at issue |
//!
//! The reference model is [`model::FetchModel`]; its predecode is the decoder's reference
//! model ([`crate::isa::insn_model::decode_fields`]).

pub mod model;
pub mod rtl;

pub use rtl::fetch::Fetch;

/// Contexts of the testbench's (and synthesis') instance.
pub const TB_CONTEXTS: usize = 8;
/// Fetch ports of the testbench's instance.
pub const TB_PORTS: usize = 2;
/// Instruction dwords of the testbench's instance.
pub const TB_WORDS: usize = 64;

/// One fetch port's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct FetchPort {
    /// The contexts whose buffers the port loads (bit `c`: context `c`).
    pub sel: u128,
    /// The byte PC read.
    pub pc: u32,
}

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchIn {
    /// Synchronous reset.
    pub reset: bool,
    /// Write an instruction dword.
    pub wen: bool,
    /// The dword written.
    pub waddr: u32,
    /// Its value.
    pub wdata: u32,
    /// The dword read on `rdata`.
    pub raddr: u32,
    /// The fetch ports.
    pub ports: Vec<FetchPort>,
    /// Copy a buffer.
    pub copy: bool,
    /// The buffer copied.
    pub copy_from: u8,
    /// The buffer written.
    pub copy_to: u8,
}

/// One context's instruction buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Buffer {
    /// It holds an instruction.
    pub valid: bool,
    /// First dword.
    pub w0: u32,
    /// The dword after it.
    pub w1: u32,
    /// Predecoded functional unit (0 when illegal).
    pub unit: u8,
    /// Not in the subset.
    pub illegal: bool,
    /// The PC is past the end of the memory.
    pub oob: bool,
}

/// Outputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FetchOut {
    /// Instruction dword `raddr`.
    pub rdata: u32,
    /// Every context's buffer.
    pub buffers: Vec<Buffer>,
}
