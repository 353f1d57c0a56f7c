//! The L1 data cache of the reordering paper (Table 2, Section III-F) and the coalescer of its
//! Algorithm 3 (per warp, and per wavefront for the compute unit).
//!
//! This text is the contract of the RTL ([`L1Cache`], [`Coalescer`]) and of the reference
//! models (`model`), cycle for cycle. The miss count of a release sequence must equal the
//! static estimator's (`rtgpu_wcet::reorder::estimate`) exactly, whatever the memory latency:
//! tag and LRU state change only at access time (allocate on miss), never at fill time.
//!
//! # L1Cache<SETS, WAYS>
//!
//! 128-byte lines, `SETS` sets (a power of two, 1..=32), `WAYS` ways (1, 2, 4, 8 or 16).
//! Addresses are line numbers `line = byte_addr >> 7` (25 bits); set = `line mod SETS`;
//! tag = the whole line number (simple, and the same whatever `SETS`).
//!
//! Per (set, way): `valid`, `pending` (allocated, fill not yet returned), `tag`, `age`
//! (log2 WAYS bits). The ages of one set are always a permutation of 0..WAYS−1 (0 = most
//! recently used); invalid ways hold the oldest ages.
//!
//! ## Ports (one clock)
//!
//! Inputs, sampled at the rising edge:
//! - `reset`: synchronous; every way invalid, not pending, age\[w\] = w; counters 0. The block
//!   needs one reset cycle before use (DFFs power up 0).
//! - `req_valid`, `req_line` (25), `req_store` (1): an access. It is *taken* at the edge when
//!   `req_valid & req_ready`.
//! - `mem_fill` (1), `mem_fill_line` (25): the memory returns the line of an earlier load
//!   miss; at the edge the way holding that tag with `pending` clears `pending` (a fill that
//!   matches no pending way is ignored).
//!
//! Outputs, combinational from the registers and the inputs:
//! - `req_ready` = !reset & !(the access is a load miss & its set has no invalid way & the LRU
//!   way (age WAYS−1) is pending). (Stall rather than evict a line whose fill is outstanding, so
//!   that the LRU state follows the release order exactly and the miss-rate estimate equals
//!   the simulation; a store never stalls.)
//! - `hit` = some valid way of the set has tag == `req_line` (pending ways count: a hit on a
//!   line being filled is a hit, as the miss-rate estimate counts it); `way` = that way, else the
//!   victim.
//! - `victim` (log2 WAYS bits) = the lowest-numbered invalid way of the set, else the way of
//!   age WAYS−1; `victim_valid` = that way is valid (a line is evicted), `victim_line` its tag
//!   register (tags are never cleared, by reset or invalidation: 0 from power-up).
//! - These outputs and `req_ready` are defined every cycle from `req_line`/`req_store`,
//!   whatever `req_valid`.
//! - `mem_req_valid` = an access is taken and it is a load miss or a store (write-evict: every
//!   store goes to memory); `mem_req_line` = `req_line`; `mem_req_store` = `req_store`.
//! - `accesses`, `misses` (32 bits each): accesses taken and misses among them since reset.
//!
//! ## At the edge, for a taken access to set s
//!
//! - load hit on way w: LRU touch of w (ages below age\[w\] + 1, age\[w\] ← 0). `pending`
//!   unchanged.
//! - load miss: the victim v gets tag, valid, pending, and is touched; misses + 1.
//! - store hit on way w (write-evict): w becomes invalid (pending cleared): ages above age\[w\]
//!   − 1, age\[w\] ← WAYS−1. Not a miss.
//! - store miss (no-write-allocate): no state change; misses + 1.
//! - accesses + 1 in every case.
//!
//! A fill in the same edge applies first (to its own way), then the access.
//!
//! # `Coalescer<LANES>`
//!
//! One memory instruction: `LANES` lanes (a power of two; 32 for the LD/ST path's warps,
//! Algorithm 3; 64 for the compute unit's wavefronts, whose FLAT instructions it coalesces),
//! each active lane touching `size + 1` consecutive dwords (1..=4) from its byte address. It
//! emits the 128-byte lines touched, **ascending**, one per cycle, each with the span of dwords
//! touched in it. (The function `crate::memsys::coalesce::coalesce` states the same result
//! without timing; the block's model is checked against it.)
//!
//! Addresses are 32-bit byte addresses; bits 1:0 are ignored (the word address is
//! `addr >> 2`): line = `addr >> 7` (25 bits, as the L1's), offset = `addr[6:2]` (the dword
//! within the line). A lane with offset `o` touches offsets `o..=min(o + size, 31)` of its
//! line and, when `o + size ≥ 32`, offsets `0..=o + size − 32` of the next line (line + 1,
//! modulo 2^25: a lane crossing the top of the 4 GiB space wraps to line 0; the compute unit
//! never does so, its data memory being at most 1 GiB and every dword it coalesces inside it).
//! A lane's touched dwords in one line are its *segment*; a lane has one or two segments, the
//! second on the next line.
//!
//! Inputs, sampled at the rising edge: `reset`; `load` (1): take `addr[0..LANES]` (32 each),
//! `mask` (LANES) and `size` (2) at the edge (ignored while `busy`); `advance` (1): the
//! consumer takes the current line at the edge (`next` in the model's `CoalescerIn`; a port
//! cannot be called `next` in rust-hdl).
//!
//! Outputs, from the registers only:
//! - `busy` (an instruction is loaded and lines remain), `line_valid` (= `busy`);
//! - `line` (25): the smallest line among the current segments of the remaining lanes;
//! - `first` (5), `words` (6): the span of those segments on `line`: `first` = the smallest
//!   first offset, `words` = the largest last offset − `first` + 1 (1..=32; dwords inside the
//!   span need not all be touched);
//! - `last`: `line` is the last line: every remaining lane's current segment is on `line` and
//!   none of them has a second segment left.
//!
//! While not `busy`: `line` = `first` = `words` = 0, `last` = 0. An instruction with an empty
//! mask loads nothing (`busy` stays 0: no line at all).
//!
//! At the edge, in priority order: `reset` drops every lane; else with `busy & advance` every
//! remaining lane whose current segment is on `line` moves to its second segment, or is
//! removed if it has none (when no lane remains, `busy` drops); else with `!busy & load` the
//! instruction is taken. The registers power up as after a reset.
//!
//! ## In the compute unit
//!
//! For each FLAT instruction with the memory hierarchy on, the compute unit loads the
//! wavefront's effective mask, the lanes' addresses and `size` = dwords − 1, then advances
//! every cycle until `last`, collecting the spans (an empty mask gives no line: the access
//! completes in the next cycle). These block cycles are hidden within the instruction's issue
//! cycle (the hierarchy receives the access's lines in that cycle, as before the block
//! existed), so the compute unit's cycle counts do not depend on the coalescer's timing.

pub mod coal_model;
pub mod model;
pub mod rtl;

pub use rtl::coalescer::Coalescer;
pub use rtl::l1::L1Cache;
