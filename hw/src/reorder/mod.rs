//! The warp-based load/store reordering unit (Section III-E of the reordering paper,
//! docs/works/reorder.md): the
//! distributing unit, one channel per warp slot, and the reordering unit that releases the
//! warps' global memory instructions to the L1 in the static order of the release
//! configuration (rule R0 of the paper or our generalisation R1, which
//! orders each warp's trace heads by `(wave, epoch, k, pc_idx, block, warp)` and so handles
//! loops and barriers).
//!
//! This text is the contract of the RTL and of the reference model (`model`), cycle for
//! cycle. The release order must equal `rtgpu_wcet::reorder::release_order` for the same
//! traces and rule, whatever the arrival order and timing of the requests.
//!
//! # Parameters
//!
//! `W` warp slots = channels (1..=64; 48 in the paper), `D` entries per channel (1..=16; 10),
//! `T` trace entries per slot (the release configuration of one warp).
//!
//! # Ports (one clock)
//!
//! Inputs, sampled at the rising edge:
//! - `reset`: synchronous; every channel empty, every slot unmapped, state IDLE, no error.
//! - Configuration (only while IDLE; ignored otherwise):
//!   - `rule` (2 bits): bit 0 = use `epoch`, bit 1 = use `k` in the key (R0 = 0, R1 = 3, R1
//!     without epoch-major = 2);
//!   - `parallel` (1): channel search compares every entry in one cycle (else one entry per
//!     cycle, from the head, wrapping: the paper's "search pointer");
//!   - `bypass` (1): reordering off — requests go straight to the release port (below);
//!   - `trace_we`, `trace_slot` (6), `trace_index` (log2 T), `trace_entry` (32: `pc_idx`
//!     \[7:0\], `epoch` \[15:8\], `k` \[31:16\]): one entry of a slot's trace;
//!   - `map_we`, `map_slot` (6), `map_block` (8), `map_warp` (5), `map_wave` (8), `map_len`
//!     (log2 T + 1): the slot now runs static warp (block, warp) of wave `wave` with `len`
//!     trace entries; its head ← 0 and its expected sequence number ← 0 (block launch,
//!     the reordering paper's Table 1).
//! - `start` (1): IDLE → SELECT (the kernel's blocks are launched and mapped).
//! - Requests from the LD/ST unit: `req_valid`, `req_slot` (6, runtime warp slot),
//!   `req_seq` (8, the warp's global ld/st sequence number), `req_pc_idx` (8),
//!   `req_store` (1), `req_tag` (8, the instruction's place in the LD/ST unit's access
//!   buffer, which keeps the lane addresses, so the channel entry stays small). Taken at the edge
//!   when `req_valid & req_ready`.
//! - `rel_ready` (1): the downstream (coalescer → L1) takes the released instruction at this
//!   edge.
//! - `watchdog` (16): most cycles SEARCH may wait (0 = no limit).
//!
//! Outputs (combinational from the registers and the inputs):
//! - `free` (W bits): channel w has a free entry: the warp scheduler may issue a global
//!   ld/st of warp w only then (credit gate: a full channel would otherwise
//!   deadlock the LD/ST unit).
//! - `req_ready` = `free[req_slot]` (in bypass: `rel_ready`).
//! - `rel_valid`, `rel_slot`, `rel_tag`, `rel_store`, `rel_pc_idx`: the instruction being
//!   released (state ISSUE; in bypass the request itself).
//! - `state` (3 bits: IDLE 0, SELECT 1, SEARCH 2, ISSUE 3, DONE 4, ERROR 5), `target` (6),
//!   `expect_seq` (8), `count[w]` (per channel occupancy), `error` (2 bits: 0 none,
//!   1 the entry with the expected sequence number has another `pc_idx`, 2 watchdog,
//!   3 a request for an unmapped slot).
//!
//! # Release order
//!
//! A slot is *pending* when mapped and `head < len`. Its key is
//! `(wave, epoch·rule[0], k·rule[1], pc_idx, block, warp)` of its head trace entry, compared
//! lexicographically (most significant first). SELECT takes the pending slot with the
//! smallest key (ties cannot happen: (block, warp) is unique); with none pending the state
//! becomes DONE.
//!
//! # Cycle by cycle
//!
//! - SELECT (1 cycle): `target` ← the argmin slot, `expect_seq` ← its sequence counter,
//!   search pointer ← 0; → SEARCH (or DONE).
//! - SEARCH: the channel of `target` is searched for the entry with `seq == expect_seq`:
//!   parallel: all entries this cycle, the oldest match wins; sequential: the entry at the
//!   search pointer (which advances by one each cycle and wraps to 0 at the channel's
//!   count, entries pushed meanwhile included). On a match whose `pc_idx` equals the head's:
//!   → ISSUE with that entry latched; a different `pc_idx`: → ERROR (error 1). Waiting more
//!   than `watchdog` cycles: → ERROR (error 2).
//! - ISSUE: `rel_valid` = 1 with the latched entry. At the edge with `rel_ready`: the entry
//!   leaves its channel (entries behind it move up one place, in the same edge as any push
//!   to that channel, which lands behind them), the slot's head and sequence counter advance,
//!   → SELECT.
//! - A push lands at the tail of its channel at the edge (channels keep arrival order).
//! - ERROR holds until `reset`. DONE holds until `reset` or a `map_we` (a new launch), which
//!   returns to IDLE.
//!
//! # Bypass (reordering off)
//!
//! With `bypass`, `req_ready` = `rel_ready`, the release port shows the request itself
//! (`rel_valid` = `req_valid`, same slot, tag, store, pc_idx), the channels stay empty and the
//! state stays IDLE: the L1 sees the arrival order, as without the extension.
//!
//! # Decisions taken with the reference model
//!
//! Where this text was silent, the reference model's module doc (`model.rs`, "Decisions")
//! fixes the behaviour, and it is part of this contract: `rule`, `parallel` and `bypass` are
//! registers loaded while IDLE; reset overrides the whole edge and keeps the trace memory;
//! `trace_we` only in IDLE, `map_we` in IDLE or DONE; `free` does not depend on the state;
//! `rel_*` are 0 outside ISSUE; error 3 for a request to an unmapped slot or one ≥ W; the
//! search's error wins over error 3; the watchdog counts search cycles without a match
//! (error after `watchdog` + 1 of them); the search sees entries already in the channel and
//! matches on `seq`, then checks `pc_idx`; the sequential pointer wraps at the count after the
//! edge. Rule 0 compares trace heads only, which equals the paper's R0 when every warp's
//! trace has ascending `pc_idx` (loop-free, fall-through-first code).
//!
//! # Structure
//!
//! The RTL, [`Reorder`]`<W, D, T>`, one block per file as the paper's block diagram (its
//! Fig. 5) names them:
//! `channel.rs` ([`channel::Channel`]: one channel, a compacting FIFO of D entries with the
//! sequence-number search), `distributor.rs` ([`distributor::Distributor`]: routes a taken
//! request to its slot's channel, `req_ready`, error 3), `slot_config.rs`
//! ([`slot_config::SlotConfig`]: one slot's reordering configuration: map, head, sequence
//! counter, trace row), `select.rs` ([`select::Select`]: the argmin of SELECT) and `unit.rs`
//! ([`unit::Reorder`]: the reordering unit, top: configuration registers, state machine, search
//! pointer, watchdog, errors, bypass, release port). `model.rs` is the reference model.

pub mod rtl;
pub use rtl::channel;
pub use rtl::distributor;
pub use rtl::select;
pub use rtl::slot_config;
pub use rtl::unit;
pub mod model;

pub use rtl::unit::Reorder;
