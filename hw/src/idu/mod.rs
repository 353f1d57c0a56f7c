//! The aging-aware instruction distribution unit (IDU) of the thesis' Section 4.3.2
//! (Algorithm 5, Fig. 4.3, docs/works/thesis.md#alg-5): per instruction type and working cluster an
//! 8-bit counter, an 8-bit limit and a working bit; each instruction goes to the lowest-index
//! cluster that is working, ready and under its limit; when every working cluster of the type
//! is at its limit the counters reset lazily with the next dispatch; without an eligible
//! cluster the instruction stalls (the ratio is never broken).
//!
//! This text is the contract of the RTL (`Dispatcher`) and of the reference model
//! (`model`), cycle for cycle. (The RTL keeps the per-type registers as `*_sp`, `*_sfu`,
//! `*_ldst` arrays; its outputs map one to one onto `cnt[t·K + k]` and friends.)
//!
//! # Parameters
//!
//! `K` clusters per type (1..=8), `TYPES` = 3 instruction types: 0 SP, 1 SFU, 2 LD/ST. A type
//! with fewer physical clusters has the others not working.
//!
//! # Ports (dispatcher clock)
//!
//! Inputs, sampled at the rising edge that ends the cycle:
//! - `reset`: synchronous; every counter 0, every limit 0, every working bit 0, not active.
//! - `cfg_we`, `cfg_type` (2 bits), `cfg_cluster` (3 bits), `cfg_working` (1), `cfg_limit`
//!   (8): a configuration write of (working, limit) for (type, cluster); ignored while active
//!   and when type ≥ 3 or cluster ≥ K.
//! - `launch`: the kernel starts: every counter ← 0, active ← 1 (a write in the same cycle is
//!   ignored).
//! - `stop`: the kernel ended: active ← 0 (counters keep their values).
//! - `enable`: 1 = IDU distribution; 0 = the stock dispatcher (first available working, ready
//!   cluster; counters ignored and unchanged).
//! - `in_valid`, `in_type` (2 bits), `in_tag` (8 bits): the instruction the warp scheduler
//!   presents (it keeps presenting it until dispatched).
//! - `ready[k]`: cluster k's input latch is empty.
//!
//! Outputs (combinational in the cycle, from the registers and the inputs):
//! - `elig` (K bits), `all_full`, `sel` (3 bits), `dispatch`, `stall`, per the equations below;
//!   `out_tag` = `in_tag` (the instruction to latch into cluster `sel` when `dispatch`);
//! - `cnt[t·K + k]`, `limit[t·K + k]` (8 bits each), `working` (3·K bits, bit t·K + k), `active`.
//!
//! # Equations, for t = `in_type` (an `in_type` of 3 dispatches nothing: `stall` = `in_valid`)
//!
//! ```text
//! full[k]     = !working[t][k] | cnt[t][k] >= limit[t][k]
//! all_full    = AND_k full[k]
//! quota_ok[k] = all_full | cnt[t][k] < limit[t][k]
//! elig[k]     = working[t][k] & ready[k] & (quota_ok[k] | !enable)
//! sel         = the lowest k with elig[k] (0 when none)
//! dispatch    = in_valid & active & elig != 0
//! stall       = in_valid & !dispatch
//! ```
//! At the edge, when `dispatch` and `enable`: for every cluster k of type t,
//! `cnt[t][k] ← (all_full ? 0 : cnt[t][k]) + (k == sel)`. Counters of other types are
//! unchanged. (Fig. 4.3: row 10 shows 4/3/3 after the dispatch that filled them; row 11, 0/1/0.)
//! `all_full` is 0 when `in_type` is 3; with every cluster of the type not working it is 1
//! but nothing is eligible.
//!
//! # The clusters (each in its own clock domain; model and system harness)
//!
//! Cluster k runs at its own period P_k (ps) and has a one-entry input latch and a pipeline of
//! `depth` stages with initiation interval `ii` (SP 1, SFU 4, LD/ST 1 cluster cycles):
//! - the dispatcher's edge with `dispatch` and `sel = k` fills the latch (tag, type);
//! - at the cluster's rising edge, if the latch is full and at least `ii` cluster cycles have
//!   passed since the pipeline last accepted, the instruction enters stage 0 and the latch
//!   empties; every stage advances each cluster edge; the last stage retires;
//! - `ready[k]` = latch empty, as it stands at the dispatcher's edge; edges at the same
//!   picosecond: clusters first, then the dispatcher;
//! - a cluster that is not working has no clock: its latch stays empty but `ready` is 0.
//! - `busy_cycles[k]`: cluster cycles in which some stage holds an instruction.
//!
//! All domains start at time 0 with their first rising edge at one period.

pub mod rtl;
pub use rtl::cluster::Cluster;
pub use rtl::dispatcher::Dispatcher;
pub use rtl::top::Idu;
pub mod model;
