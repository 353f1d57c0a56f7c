//! The L1 data cache of the reordering paper (Table 2, Section III-F) and the per-warp
//! coalescer of its Algorithm 3.
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
//! # Coalescer
//!
//! One warp-level memory instruction: 32 lanes' byte addresses (32 bits) and an active mask.
//! It emits the distinct line numbers of the active lanes, **ascending**, one per cycle.
//!
//! Inputs: `reset`; `load` (1): take `addr[0..32]`, `mask` (32) at the edge (ignored while
//! `busy`); `advance` (1): the consumer takes the current line at the edge (`next` in the
//! model's `CoalescerIn`; a port cannot be called `next` in rust-hdl).
//! Outputs: `busy` (an instruction is loaded and lines remain), `line_valid` (= `busy`),
//! `line` (25): the smallest line among the remaining lanes; `last`: it is the last line.
//! While not `busy`, `line` = 0 and `last` = 0.
//! At the edge with `line_valid & advance`: every remaining lane whose line equals `line` is
//! removed; when none remains, `busy` drops. An instruction with an empty mask loads nothing
//! (`busy` stays 0).

pub mod model;
pub mod rtl;

pub use rtl::coalescer::Coalescer;
pub use rtl::l1::L1Cache;
