//! The compute unit in synthesizable RTL: the blocks of the behavioural compute unit
//! ([`crate::cu`]) wired into one design, [`ComputeUnitTop`], that runs kernels cycle for
//! cycle as the behavioural model does.
//!
//! # What it holds (this stage)
//!
//! One SIMD group without splitting, with DWS at any S or with PWS at S = 1, 2 or 3 (the
//! behavioural `Mode::NoSplit`, `Mode::Dws` or `Mode::Pws` with `n_simd` = 1, `n_wfc` =
//! [`CONTEXTS`]), with [`UNITS`] issue units ([`rtl::issue_unit::IssueUnit`]: the SIMD and its
//! three SpSIMDs) over [`GROUP_CONTEXTS`] contexts (the two-unit instance
//! [`ComputeUnitTop2`], the RTL system's: [`UNITS2`] units, PWS at S = 1): the instruction memory and buffers ([`crate::fetch`]), the
//! work-group dispatcher ([`crate::dispatch`]), the contexts' scalar state
//! ([`crate::ctx::CtxRegs`]) and the VGPR file ([`crate::ctx::Vgprs`], one slot of
//! [`VGPRS`] registers per context), issue control with the warp scheduler
//! ([`crate::issue`]), the decode of the issuing instruction
//! ([`crate::isa::rtl::insn_fields::InsnFields`]), the SALU ([`crate::salu`]), the VALU
//! ([`crate::valu`]) with its operand feed ([`rtl::valu_operands::ValuOperands`]), the branch
//! unit ([`rtl::branch::BranchTarget`]), the memory port's request and returns
//! ([`rtl::mem_request::MemRequest`], [`rtl::mem_return::MemReturn`]), the LDS
//! ([`crate::lds`], with its operand rows and instructions in flight
//! [`rtl::lds_port::LdsPort`] and the issue cycle's fault check [`rtl::lds_check::LdsCheck`]),
//! the barrier release ([`rtl::barrier::BarrierRelease`]) and the split/merge unit
//! ([`crate::pws`], which keeps the contexts' states and masks) with the split stacks and
//! commands of the issue ([`rtl::split_ctl::SplitCtl`]) and each context's VGPR slot,
//! work-group entry, age and last PC ([`rtl::ctx_tags::CtxTags`]). It runs the scalar
//! instructions (SALU, branches, `s_nop`, `s_endpgm`, `s_waitcnt`, `s_barrier`), the VALU's
//! instructions (with up to three sources: `v_mac_f32`, `v_mad_f32`, `v_fma_f32` read the
//! third through the VGPR file's port `c`), `flat_load_dword`,
//! `flat_store_dword`, the SMEM loads and `s_store_dword` through its memory port, the DS instructions of the
//! LDS's subset, and `split`/`merge`: no-ops without splitting; under DWS a split whose lanes
//! diverge takes a free context of the SIMD (or is serialized), under PWS a split takes the
//! parent's slot on a SpSIMD of 1..=S, as the behavioural unit does.
//!
//! # Timing
//!
//! Every instruction executes in its issue cycle *k*: the SALU's result, the PC (the next
//! instruction or a branch target) and `s_swappc_b64`'s link are written at the edge that ends
//! *k*, and the issuing context's instruction buffer is loaded at the same edge from the new
//! PC, so the context may issue again in *k* + 1 (the SALU latency of 1) with no bypass. A
//! dispatch in cycle *k* initialises the context at the edge (PC, EXEC, the ABI's SGPRs:
//! [`rtl::wave_init::WaveInit`]) and loads its buffer; the split/merge unit makes it READY at
//! the same edge, so it may issue from *k* + 1, as in the behavioural model. `s_endpgm` in
//! *k* ends the wavefront at the edge; the dispatcher sees its slot free in *k* + 1.
//!
//! A VALU instruction issued in *k* reads quarter *q* of its sources in *k* + *q* (the VGPR
//! rows its fields name, held for quarters 1..3 with its scalar sources) and writes quarter
//! *q* of its VGPR at the edge that ends *k* + *q* + 1; its scalar result (VCC, a pair,
//! EXEC, `v_readfirstlane_b32`'s SGPR) is written from the VALU's `n_*` outputs at the edge
//! that ends *k* + 3. The wavefront's next instruction, in *k* + 4 at the earliest (the VALU
//! latency `lat_valu` must be at least 4), reads every result; in-order issue keeps the
//! wavefront's own later quarters behind the writes. A dispatch sets `v0` to the work-item
//! ids (64 · wave + lane) and every other VGPR of the slot to 0.
//!
//! A FLAT or SMEM instruction issued in *k* sends its request on the memory port in *k*
//! (docs/assumptions.md#A116): the lanes' dword indices, store data and mask, or an SMEM
//! load's first dword and count, or `s_store_dword`'s dword and value, with a tag; the memory behind the port (the RTL system's
//! fixed-latency memory, or the testbench's) accesses in *k* and answers in *k* + `flat` − 1
//! (or *k* + `smem` − 1), the cycle before the behavioural unit retires the access. The top
//! writes the loaded VGPR row or SGPRs at the edge that ends the response's cycle (the
//! behavioural "start of the retire cycle") and counts the response down in the next, the
//! retire cycle, from a register. A response in a launch cycle, or for a context a dispatch
//! starts in its cycle, is dropped. A bad address (not 4-aligned, past `mem_words`, above 4 GiB) stops the launch in
//! *k* with `fault_mem` and `fault_addr`. The launch ends when its last wavefront has ended and
//! no response is outstanding. The memory must drop the requests in flight when a launch
//! starts (a response of an earlier launch must not come).
//!
//! A DS instruction issued in *k* goes into the LDS ([`crate::lds`]: issue period 4, its
//! `busy` is the issue stage's `pipe_lds`, as the behavioural `lds_period` of 4 holds the
//! LDS), which reads quarter *q* of `ADDR`, `DATA0`, `DATA1` in *k* + *q* from the VGPR
//! file's `y` ports (the rows held for quarters 1..3) and writes the loaded quarter *q* through
//! the VGPR file's `l` port (a row, or the pair of `ds_read2_b32`) at the edge that ends
//! *k* + 13 + *q*; its `done` in *k* + 16 counts the issuing context's lgkmcnt down in that
//! cycle, as the behavioural unit retires it (docs/assumptions.md#A127). The work-group's
//! partition is its resident entry's: entry *r* holds words *r* · [`LDS_PART_WORDS`] ..
//! (*r* + 1) · [`LDS_PART_WORDS`] (docs/assumptions.md#A126), zeroed at the edge that ends the
//! cycle in which the dispatcher admits a work-group into it (the behavioural unit zeroes a
//! work-group's LDS at admission). An address of an EXEC lane that is not 4-aligned or lies
//! at or past the launch's `lds_words` (at most the partition's) stops the launch in *k* (`fault_lds`, `fault_addr` the first such
//! address in lane order, relative to the partition), checked over all 64 lanes in the issue
//! cycle through the LDS's write-first port `y0` (docs/assumptions.md#A128). A DS instruction of a
//! wavefront that has ended (its context dispatched again) neither writes nor counts. The
//! launch ends only when no DS instruction is in flight.
//!
//! `s_barrier` issued in *k* sets the context's barrier flag at the edge; in every cycle the
//! contexts of a work-group (its resident entry) waiting at a barrier are released, before
//! the cycle's issue, once every live context of the work-group waits (the live contexts as
//! they were before the cycle's dispatch): the last one's `s_barrier` in *k* releases them all
//! in *k* + 1, and each may issue in *k* + 1 (docs/assumptions.md#A129).
//!
//! `split` (DWS) issued in *k* with its memory operations done pushes a bit on the context's
//! split stack: 1 and the split command (mask {SSRC1, SSRC0}) when the effective mask
//! diverges under the split mask, else 0 (serialized). The split/merge unit either refuses it
//! (no free context, or the wavefront has S live splits: `split_denied` in *k* + 1 clears the
//! stack's top bit, so its `merge` is a no-op) or makes both contexts SPLITTING and raises
//! `copy_valid` in *k* + 1; the top copies the parent's scalar registers, PC, instruction
//! buffer and tags into the child at the edge that ends *k* + 1 (docs/assumptions.md#A130).
//! The child shares its parent's VGPR slot: every VGPR access of a context (the VALU, the
//! memory port's addresses and loads, the LDS) goes to its wavefront's slot, under its
//! effective mask EXEC & SpM. `merge` pops the stack and commands the merge unless the bit was
//! 0; a merged child's context turns EMPTY and leaves the issue stage. `split` or `merge` with
//! memory operations outstanding stops the launch in *k* (`split_pending_memory`), a split on a
//! full stack (64) too (`split_overflow`); the split/merge unit's errors (`end_live_splits`,
//! `merge_watchdog`, a protocol error) stop it in the cycle after the command, `fault_pc` the
//! context's last issued instruction. S is the `s` input: DWS at any S runs on unit 0 (its
//! children stay on the SIMD), and a context an error names (`fault_info`) is numbered
//! as the behavioural unit numbers its S + 1-unit group, slot · (S + 1) + unit
//! ([`rtl::ctx_number::CtxNumber`]).
//!
//! Under PWS at S the child of a split goes to context `k` + *u*, the parent's slot on the
//! lowest free SpSIMD *u* of 1..=S (the split/merge unit chooses it; the units above S stay
//! empty), and each unit may issue in the same cycle. The behavioural unit visits its S + 1
//! units in an order that turns every cycle (unit 1 first in the launch's first cycle): the
//! top's `rot` register, which counts 0..S and wraps (0 without PWS). The memory pipe, the LDS
//! and the split/merge unit's command port go to the first unit that takes them; a later unit
//! sees them taken (its issue control's `o_mem`, `o_lds`, `o_port`) and issues another context
//! or none; in the cycle that finds the split/merge unit's error only the first unit issues,
//! and after an earlier unit's error in the cycle a later unit's issue is dropped (the
//! behavioural unit stops visiting units once the launch has failed).
//!
//! The order has no combinational loop: each unit's issue control picks its context once per
//! position of the order, with what the units at the positions before take (computed from
//! picks at lower positions only), and issues its pick at its own position. A unit's grant
//! does not wait for the errors of the units before it either: it stands, and the top drops
//! what it would make visible (its issue probe, its memory request, its faults), so that an
//! error, which comes through the shared memory and LDS fault checks, feeds no grant. The top
//! is written once for any number of units ([`rtl::top`]'s `compute_unit_top!`).
//!
//! # Ports
//!
//! Launch inputs (held while `busy`): `launch` (one cycle), `entry_pc`, `wg_count`,
//! `waves`, `wg_size`, `kernarg`, the scheduler policy `gto`/`rr`, the latencies
//! `lat_salu`, `lat_valu`, `lat_branch`, `issue_period`, the splitting mode `split_on`,
//! `dws` and S `s` (DWS' most live splits of a wavefront; the SpSIMDs PWS uses). Code writes: `code_we`,
//! `code_addr` (dword index), `code_data`; code reads: `code_rdata` (the dword at
//! `code_addr`, combinational). The data memory's size `mem_words` and the LDS dwords per
//! work-group `lds_words` (held while `busy`).
//! Memory port requests (outputs, combinational in the issue cycle): `vreq`, `vstore`,
//! `vmask`, `vaddr[64]`, `vdata[64]`, `vtag`; `sreq`, `saddr`, `sn`, `stag`, `sstore`, `sdata`.
//! Responses (inputs, in the cycle before the retire cycle): `vresp`, `vresp_tag`,
//! `vresp_store`, `vresp_mask`, `vresp_data[64]`; `sresp`, `sresp_tag`, `sresp_n`,
//! `sresp_store`, `sresp_data[4]`. Status: `busy` (from
//! the cycle after `launch` through the cycle in which the last wavefront's `s_endpgm` issues
//! or its last access or DS instruction completes: as many cycles as the behavioural launch
//! counts), `fault` and
//! `fault_pc` (an illegal instruction, a PC past the code, a bad memory or LDS access
//! issued, an error of splitting), `fault_mem` (a memory access), `fault_lds` (an LDS access)
//! and `fault_addr` (its byte address), `fault_split` (an error of splitting: the behavioural
//! code `fault_code` and information `fault_info`). Probes for the lock-step check against
//! the behavioural compute unit, per issue unit `u`: `issue_valid[u]`, `issue_slot[u]` (the
//! context `k`), `issue_pc[u]`, `stall[u]`; `issue_counts[u]` (an issue that counts as an
//! instruction: not an illegal word or a PC past the code); `first` (the unit visited
//! first), `send`, `copy` (`copy_from`, `copy_to`: a split's child copied, while a launch
//! runs). The LDS has no port: its partition size is [`LDS_PART_WORDS`], a launch's LDS
//! per work-group (docs/assumptions.md#A126).

pub mod rtl;
pub mod supported;

pub use supported::{first_refused, first_unsupported, supported, Unsupported};

pub use rtl::top::{ComputeUnitTop, ComputeUnitTop2};

/// Wavefront contexts of the RTL top's SIMD (the behavioural `n_wfc` it equals).
pub const CONTEXTS: usize = 4;

/// Issue units of the SIMD group: the SIMD and three SpSIMDs, of which PWS at S uses S (the
/// behavioural group's `s` + 1 units: PWS at S = 1, 2 or 3).
pub const UNITS: usize = 4;

/// Contexts of the SIMD group, numbered as the split/merge unit numbers them: `k` =
/// slot · [`UNITS`] + unit.
pub const GROUP_CONTEXTS: usize = CONTEXTS * UNITS;

/// SGPR words of the contexts (102 per context).
pub const SGPR_WORDS: usize = crate::ctx::SGPRS * GROUP_CONTEXTS;

/// Issue units of the two-unit top ([`ComputeUnitTop2`], the RTL system's): the SIMD and one
/// SpSIMD (PWS at S = 1).
pub const UNITS2: usize = 2;

/// Contexts of the two-unit top (`k` = slot · [`UNITS2`] + unit).
pub const GROUP_CONTEXTS2: usize = CONTEXTS * UNITS2;

/// SGPR words of the two-unit top's contexts.
pub const SGPR_WORDS2: usize = crate::ctx::SGPRS * GROUP_CONTEXTS2;

/// VGPRs per wavefront slot (v0..v23; the behavioural file has 256).
pub const VGPRS: usize = 24;

/// Rows of the VGPR file: a slot per wavefront slot (both halves of a split share it).
pub const VGPR_ROWS: usize = VGPRS * CONTEXTS;

/// Dwords of the instruction memory.
pub const CODE_WORDS: usize = 256;

/// Words of a work-group's LDS partition: the top's LDS holds one per resident work-group
/// entry (docs/assumptions.md#A126).
pub const LDS_PART_WORDS: usize = 256;

/// Words of the top's LDS: a partition per context (at most [`CONTEXTS`] work-groups are
/// resident).
pub const LDS_WORDS: usize = LDS_PART_WORDS * CONTEXTS;
