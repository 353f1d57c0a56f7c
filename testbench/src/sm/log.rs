//! The per-instruction event log (spec §9.2), as text: one line per instruction.

use std::fmt::Write;

use rtgpu_wcet::trace::Block;

use super::SmRun;

/// The log's header line (without the newline).
pub const EVENT_LOG_HEADER: &str = "# warp pc opcode issue dispatch ready";

/// The event log of `run`: [`EVENT_LOG_HEADER`], then one line
/// `warp pc opcode issue dispatch ready` per instruction in issue order, where `pc = 4 · seq`,
/// `opcode` is `barrier` for a barrier and `fu{N}` otherwise, and `ready` is the completion
/// `dispatch + init + lat`. `block` is the block the run simulated (it tells barriers apart).
pub fn event_log(run: &SmRun, block: &Block) -> String {
    let mut s = String::with_capacity(32 * (run.events.len() + 1));
    s.push_str(EVENT_LOG_HEADER);
    s.push('\n');
    for e in &run.events {
        let barrier = block
            .get(e.warp)
            .and_then(|p| p.get(e.seq))
            .is_some_and(|i| i.barrier);
        let pc = 4 * e.seq as u64;
        // Writing to a String cannot fail.
        let _ = if barrier {
            writeln!(
                s,
                "{} {pc} barrier {} {} {}",
                e.warp, e.issue, e.dispatch, e.complete
            )
        } else {
            writeln!(
                s,
                "{} {pc} fu{} {} {} {}",
                e.warp, e.fu, e.issue, e.dispatch, e.complete
            )
        };
    }
    s
}
