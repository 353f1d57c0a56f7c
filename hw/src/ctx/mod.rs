//! The wavefront contexts' architectural state as two RTL blocks: the scalar state of every
//! context of a SIMD group ([`CtxRegs`]: PC, SGPRs s0..s101, VCC, EXEC, M0, SCC) with the
//! operand read ports the SALU and the VALU consume and the write ports for what they produce,
//! and the group's vector register file ([`Vgprs`]), one set of VGPRs per wavefront slot,
//! shared by the halves of a split. The behavioural compute unit keeps the same state in
//! [`crate::cu::regfile::Sregs`] (one per context) and [`crate::cu::regfile::Vrf`] (one per
//! wavefront); these blocks are that state in synthesizable RTL (the scalar state as
//! flip-flops, each lane of the VGPR file as a memory array).
//!
//! # The scalar state ([`CtxRegs`], testbench `ctx`)
//!
//! `C` contexts, `R` operand read ports, `W` write ports; `N` = 102 · `C` is the number of
//! SGPR words (Rust cannot compute it in a type, so it is a parameter the block checks).
//! Sized for one issue of each unit per cycle (docs/assumptions.md#A95): the SALU reads two
//! operands (`a`, `b`, each 32 or 64 bits: [`crate::salu`]) and the VALU three (`src0`,
//! `src1` copied into the lanes, and the 64-bit mask source in `src2`: [`crate::valu`]); each
//! produces one write-back bundle (an SGPR or pair, EXEC, SCC), and the issue stage writes the
//! PC. The testbench's instance has 2 contexts, 3 read ports and 2 write ports.
//!
//! ## Reset value
//!
//! SGPRs, VCC, EXEC, SCC and PC 0, M0 `0xFFFF_FFFF`, as [`crate::cu::regfile::Sregs`]'s
//! default; every flip-flop powers up at it (the Verilog never reads X).
//!
//! ## Operand read (combinational)
//!
//! Read port `p` resolves source code `rcode[p]` (9 bits) of context `rctx[p]` in the current
//! cycle, as the GCN3 operand codes define it: with `rwide[p]` low, the 32-bit value
//! [`crate::cu::regfile::Sregs::read`] gives, zero-extended (s0..s101, VCC_LO/HI 106/107,
//! M0 124, EXEC_LO/HI 126/127, integers 128..=208 (0..=64, −1..=−16), the nine float
//! constants 240..=248, VCCZ 251, EXECZ 252, SCC 253, the literal `rlit[p]` 255); with
//! `rwide[p]` high, the 64-bit pair value `Sregs::read64` gives (s\[n\]:s\[n+1\] for n ≤ 100,
//! VCC 106, EXEC 126, integers sign-extended, the float constants as doubles, the literal
//! zero-extended). Any other code (VGPR codes 256..=511 included), or a context that does not
//! exist, raises `rbad[p]` with `rdata[p]` = 0.
//!
//! ## Edge (the rising edge that ends cycle *k*)
//!
//! Context `c`'s next state, in order (a later step overrides an earlier one):
//! 1. held;
//! 2. `copy` with `copy_to` = `c`: the whole state of context `copy_from` as it is in *k*
//!    (a split's child takes its parent's state; a nonexistent `copy_from` copies nothing);
//! 3. `init` with `init_ctx` = `c`: the reset value, except the dispatch's initial values:
//!    the PC `init_pc`, EXEC `init_exec` and SGPRs s0..s23 `init_s` (the kernel ABI's
//!    registers, [`crate::cu::Abi`]; a dispatch, before its first writes);
//! 4. write ports 0, 1, … with `wctx[p]` = `c`, each as the SALU's write-back orders it:
//!    EXEC (`exec_we[p]`: `exec_in[p]`), then the scalar destination (`sdst_we[p]`:
//!    `d[p][31:0]` to code `sdst[p]`, or with `wide[p]` the pair `d[p]`), then SCC
//!    (`scc_we[p]`), then the PC (`pc_we[p]`);
//! 5. `reset`: the reset value.
//!
//! A 32-bit destination is s0..s101, VCC_LO/HI, M0, EXEC_LO/HI (one half written); a pair is
//! s\[n\]:s\[n+1\] (n ≤ 100), VCC or EXEC. Any other destination code raises `wbad[p]` in the
//! cycle and writes nothing to a register (the port's EXEC, SCC and PC writes still happen;
//! the behavioural unit stops the launch on it).
//!
//! ## Inputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset: every context to the reset value |
//! | `init` | 1 | context `init_ctx` to the reset value (a dispatch) |
//! | `init_ctx` | 8 | the context initialised |
//! | `init_pc`, `init_exec` | 32, 64 | its PC and EXEC after `init` |
//! | `init_s[INIT_SGPRS]` | 32 each | its s0..s23 after `init` |
//! | `copy` | 1 | copy a context's state (a split) |
//! | `copy_from` | 8 | the context copied |
//! | `copy_to` | 8 | the context written |
//! | `rctx[R]` | 8 each | the context read port `p` reads |
//! | `rcode[R]` | 9 each | the source code |
//! | `rwide[R]` | 1 each | read a 64-bit pair (else 32 bits) |
//! | `rlit[R]` | 32 each | the literal (code 255) |
//! | `wctx[W]` | 8 each | the context write port `p` writes |
//! | `sdst_we[W]` | 1 each | write the scalar destination |
//! | `sdst[W]` | 7 each | its code |
//! | `wide[W]` | 1 each | a 64-bit pair |
//! | `d[W]` | 64 each | the value (bits \[31:0\] for a 32-bit destination) |
//! | `exec_we[W]`, `exec_in[W]` | 1, 64 each | write EXEC |
//! | `scc_we[W]`, `scc_in[W]` | 1, 1 each | write SCC |
//! | `pc_we[W]`, `pc_in[W]` | 1, 32 each | write the PC |
//!
//! ## Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `rdata[R]` | 64 each | the operand (32-bit reads zero-extended) |
//! | `rbad[R]` | 1 each | the code is not a source of that width, or the context does not exist |
//! | `wbad[W]` | 1 each | `sdst_we` with a code that is not a destination of that width |
//! | `pc[C]` | 32 each | context `c`'s PC (the fetch ports' address) |
//! | `exec[C]` | 64 each | its EXEC (the split/merge unit's and the issue stage's mask) |
//! | `vcc[C]` | 64 each | its VCC (the branches) |
//! | `scc[C]` | 1 each | its SCC (the branches) |
//!
//! # The vector register file ([`Vgprs`], testbench `vgpr`)
//!
//! `S` wavefront slots of `V` VGPRs of `L` lanes × 32 bits; `M` = `S` · `V` rows. A port
//! names a wavefront slot, not a context: the issue stage addresses it with the slot of the
//! wavefront the context runs (the behavioural `Ctx::wf`, which a split copies), so both halves
//! of a split read and write the same registers (docs/assumptions.md#A4). The product has 64
//! lanes (a wavefront); the testbench's instance 4 slots × 16 VGPRs × 4 lanes, small enough for
//! Yosys (docs/assumptions.md#A96).
//!
//! Three read ports (`a`, `b`, `c`: the VALU's `src0`, `src1`, `src2`) show the whole row of (slot, VGPR)
//! combinationally, 0 for a slot or VGPR past the end. Three more read ports (`x[0..3]`: the
//! memory unit's address pair and store data) show the row as the VALUs' writes at this edge
//! leave it (write-first: the memory unit reads, in its issue cycle, the last quarter a VALU
//! writes in that cycle). The VALUs of a SIMD group's other issue units (the SpSIMDs of PWS,
//! up to three) have port sets of their own with the same rules: `a2`, `b2`, `c2` and the
//! write `w2`, then `a3`..`w3` and `a4`..`w4`; their writes come in that order after `w` (a
//! later set's lanes win; the units' parts of a split wavefront write disjoint lanes). A top
//! with fewer units ties the spare sets off. At the edge, in order: `clear` zeroes every VGPR of slot
//! `clear_slot` except `v0`, whose lane `l` takes `clear_v0 + l` (a dispatch: the work-item
//! ids, 32-bit wrapping), then a write (`we`) stores `w_data[l]` in the lanes `l` set in
//! `w_mask` of (`w_slot`, `w_reg`) — the others keep their words, a write past the end is
//! ignored —, then the other VALUs' writes (`we2`, `we3`, `we4`), then the memory's write (`m_we`, same
//! rules, its lanes win over the VALUs'),
//! then the LDS's write (`l_we`: row (`l_slot`, `l_reg`) takes `l_data[l]` in the lanes of
//! `l_mask`, and with `l_two` row (`l_slot`, `l_reg` + 1, wrapping at 256) takes `l_data1[l]`;
//! its lanes win over all the others), then `reset` zeroes everything. Three more read ports
//! (`y_slot`, `y_reg[3]`: the LDS's `ADDR`, `DATA0`, `DATA1`, one slot for the three) show
//! their rows write-first as `x` does (the top checks a DS instruction's 64 addresses in its
//! issue cycle on `y0`, while another issue unit's FLAT instruction may use `x`). Ports `a`,
//! `b`, `c` (and every other set's) in the cycle of a write show the old row.
//! Every word powers up 0.
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock`, `reset` | 1 | core clock; zero every word |
//! | `clear`, `clear_slot`, `clear_v0` | 1, 8, 32 | zero every VGPR of a slot, `v0` to `clear_v0 + l` |
//! | `a_slot`, `a_reg` → `a_data[L]` | 8, 8 → 32 each | read port `a` |
//! | `b_slot`, `b_reg` → `b_data[L]` | 8, 8 → 32 each | read port `b` |
//! | `x_slot[3]`, `x_reg[3]` → `x0_data[L]`, `x1_data[L]`, `x2_data[L]` | 8, 8 → 32 each | write-first read ports `x[p]` |
//! | `we`, `w_slot`, `w_reg` | 1, 8, 8 | write a row (the VALU) |
//! | `w_mask` | `L` | the lanes written |
//! | `w_data[L]` | 32 each | the values |
//! | `a2_*`, `b2_*`, `c2_*`; `we2`, `w2_slot`, `w2_reg`, `w2_mask`, `w2_data[L]` | as `a`, `b`, `c`, `w` | the second VALU's read ports and write |
//! | `a3_*`..`w3_data[L]`, `a4_*`..`w4_data[L]` | as `a`, `b`, `c`, `w` | the third and fourth VALUs' |
//! | `m_we`, `m_slot`, `m_reg`, `m_mask`, `m_data[L]` | 1, 8, 8, `L`, 32 each | the memory's write (its returns), after the VALUs' |
//! | `y_slot`, `y_reg[3]` → `y0_data[L]`, `y1_data[L]`, `y2_data[L]` | 8, 8 → 32 each | the LDS's write-first read ports |
//! | `l_we`, `l_two`, `l_slot`, `l_reg`, `l_mask`, `l_data[L]`, `l_data1[L]` | 1, 1, 8, 8, `L`, 32 each | the LDS's write (its loads: a row or a pair), last |
//!
//! The reference models are [`model::CtxRegsModel`] and [`model::VgprModel`], written from
//! this contract.

pub mod model;
pub mod rtl;

pub use rtl::ctx_regs::CtxRegs;
pub use rtl::vgprs::Vgprs;

/// The float inline constants of source codes 240..=248, in code order: a 32-bit read gives
/// the f32 of the value, a 64-bit read the f64.
pub const INLINE_FLOATS: [f64; 9] = [
    0.5,
    -0.5,
    1.0,
    -1.0,
    2.0,
    -2.0,
    4.0,
    -4.0,
    0.5 / std::f64::consts::PI,
];

/// SGPRs per context (s0..s101).
pub const SGPRS: usize = crate::cu::regfile::SGPRS;
/// SGPRs a dispatch sets (`init_s`): the HSA ABI's 16 user SGPRs and its 5 system SGPRs fit.
pub const INIT_SGPRS: usize = 24;
/// Contexts of the testbench's instance.
pub const TB_CONTEXTS: usize = 2;
/// SGPR words of the testbench's instance (`SGPRS` × `TB_CONTEXTS`).
pub const TB_SGPR_WORDS: usize = SGPRS * TB_CONTEXTS;
/// Operand read ports of the testbench's instance (the VALU's three sources).
pub const TB_READS: usize = 3;
/// Write ports of the testbench's instance (the SALU's and the VALU's write-back).
pub const TB_WRITES: usize = 2;
/// Wavefront slots of the VGPR testbench's instance.
pub const TB_SLOTS: usize = 4;
/// VGPRs per slot of the VGPR testbench's instance.
pub const TB_VGPRS: usize = 16;
/// Lanes of the VGPR testbench's instance (the product has 64).
pub const TB_LANES: usize = 4;
/// Rows of the VGPR testbench's instance (`TB_SLOTS` × `TB_VGPRS`).
pub const TB_ROWS: usize = TB_SLOTS * TB_VGPRS;

/// One operand read.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadPort {
    /// The context read.
    pub ctx: u8,
    /// The source code (9 bits).
    pub code: u16,
    /// Read a 64-bit pair.
    pub wide: bool,
    /// The literal (code 255).
    pub literal: u32,
}

/// One write-back bundle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WritePort {
    /// The context written.
    pub ctx: u8,
    /// Write the scalar destination.
    pub sdst_we: bool,
    /// Its code (7 bits).
    pub sdst: u8,
    /// A 64-bit pair.
    pub wide: bool,
    /// The value (`d[63:32]` for a pair only).
    pub d: u64,
    /// Write EXEC.
    pub exec_we: bool,
    /// The new EXEC.
    pub exec: u64,
    /// Write SCC.
    pub scc_we: bool,
    /// The new SCC.
    pub scc: bool,
    /// Write the PC.
    pub pc_we: bool,
    /// The new PC.
    pub pc: u32,
}

/// Inputs of one cycle of [`CtxRegs`] (the ports of the table above, `clock` aside).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CtxIn {
    /// Synchronous reset.
    pub reset: bool,
    /// Initialise a context.
    pub init: bool,
    /// The context initialised.
    pub init_ctx: u8,
    /// Its PC after `init`.
    pub init_pc: u32,
    /// Its EXEC after `init`.
    pub init_exec: u64,
    /// Its s0..s23 after `init`.
    pub init_s: [u32; INIT_SGPRS],
    /// Copy a context.
    pub copy: bool,
    /// The context copied.
    pub copy_from: u8,
    /// The context written.
    pub copy_to: u8,
    /// The read ports.
    pub reads: Vec<ReadPort>,
    /// The write ports.
    pub writes: Vec<WritePort>,
}

/// One read port's result.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ReadOut {
    /// The operand (0 when bad).
    pub data: u64,
    /// Not a source of that width, or no such context.
    pub bad: bool,
}

/// The state a context shows on its own outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CtxView {
    /// PC.
    pub pc: u32,
    /// EXEC.
    pub exec: u64,
    /// VCC.
    pub vcc: u64,
    /// SCC.
    pub scc: bool,
}

/// Outputs of one cycle of [`CtxRegs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CtxOut {
    /// The read ports' results.
    pub reads: Vec<ReadOut>,
    /// Each write port names a bad destination.
    pub wbad: Vec<bool>,
    /// Every context's PC, EXEC, VCC and SCC.
    pub ctx: Vec<CtxView>,
}

/// A (slot, VGPR) address.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct VgprAddr {
    /// The wavefront slot.
    pub slot: u8,
    /// The VGPR.
    pub reg: u8,
}

/// VALU port sets of [`Vgprs`]: one per issue unit of a SIMD group (the SIMD and up to three
/// SpSIMDs).
pub const VALU_PORT_SETS: usize = 4;

/// One VALU's ports on [`Vgprs`] in a cycle: three reads and a masked write of a row or a
/// pair.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValuPorts {
    /// Read port `a` (the VALU's `src0`).
    pub a: VgprAddr,
    /// Read port `b` (`src1`).
    pub b: VgprAddr,
    /// Read port `c` (`src2`).
    pub c: VgprAddr,
    /// Write a row.
    pub we: bool,
    /// The row written.
    pub w: VgprAddr,
    /// The lanes written (bit `l`: lane `l`).
    pub mask: u64,
    /// The values, one per lane.
    pub data: Vec<u32>,
    /// The write is a pair: row `w.reg + 1` (wrapping) takes `data1` in the same lanes.
    pub two: bool,
    /// The pair's second row's values, one per lane.
    pub data1: Vec<u32>,
}

/// One VALU's read ports' rows.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ValuRows {
    /// Row `a`.
    pub a: Vec<u32>,
    /// Row `b`.
    pub b: Vec<u32>,
    /// Row `c`.
    pub c: Vec<u32>,
}

/// Inputs of one cycle of [`Vgprs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VgprIn {
    /// Synchronous reset: every word 0.
    pub reset: bool,
    /// Zero a slot's VGPRs.
    pub clear: bool,
    /// The slot cleared.
    pub clear_slot: u8,
    /// Lane 0's `v0` after the clear (lane `l` takes `clear_v0 + l`).
    pub clear_v0: u32,
    /// The VALUs' port sets (`a`..`w`, `a2`..`w2`, `a3`..`w3`, `a4`..`w4`: one per issue
    /// unit of a SIMD group; their writes land in this order).
    pub valu: [ValuPorts; VALU_PORT_SETS],
    /// The write-first read ports `x[p]`.
    pub x: [VgprAddr; 3],
    /// The memory's write.
    pub m_we: bool,
    /// The row it writes.
    pub m: VgprAddr,
    /// Its lanes.
    pub m_mask: u64,
    /// Its values, one per lane.
    pub m_data: Vec<u32>,
    /// The LDS's read ports `y[p]` (one slot: `y[0].slot` names it for all three).
    pub y: [VgprAddr; 3],
    /// The LDS's write.
    pub l_we: bool,
    /// It writes a pair: row `l.reg + 1` (wrapping) takes `l_data1`.
    pub l_two: bool,
    /// The (first) row it writes.
    pub l: VgprAddr,
    /// Its lanes.
    pub l_mask: u64,
    /// The first row's values, one per lane.
    pub l_data: Vec<u32>,
    /// The second row's values, one per lane.
    pub l_data1: Vec<u32>,
}

/// Outputs of one cycle of [`Vgprs`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct VgprOut {
    /// The VALUs' read ports' rows, per port set.
    pub valu: [ValuRows; VALU_PORT_SETS],
    /// Read ports `x[p]`'s rows (after the VALUs' writes).
    pub x: [Vec<u32>; 3],
    /// The LDS's read ports `y[p]`'s rows (after the VALUs' writes, as `x`).
    pub y: [Vec<u32>; 3],
}
