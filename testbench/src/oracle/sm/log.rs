//! The per-instruction event log (docs/architecture.md), as text:
//! one line per instruction.

use std::fmt::Write;

use rtgpu_wcet::trace::{Block, HwDesc};

use super::SmRun;

/// The log's header line (without the newline).
pub const EVENT_LOG_HEADER: &str = "# warp pc opcode issue dispatch ready";

/// The event log of `run`: [`EVENT_LOG_HEADER`], then one line
/// `warp pc opcode issue dispatch ready` per instruction in issue order, where `pc = 4 · seq`,
/// `opcode` is `barrier` for a barrier and otherwise the name of the instruction's opcode class
/// in `hw` (`class{N}` if `hw` lacks class N), and `ready` is the completion
/// `dispatch + init + lat`. `block` and `hw` are the block and the hardware description the run
/// simulated (the block tells barriers apart).
pub fn event_log(run: &SmRun, block: &Block, hw: &HwDesc) -> String {
    let mut s = String::with_capacity(32 * (run.events.len() + 1));
    s.push_str(EVENT_LOG_HEADER);
    s.push('\n');
    for e in &run.events {
        let barrier = block
            .get(e.warp)
            .and_then(|p| p.get(e.seq))
            .is_some_and(|i| i.barrier);
        let pc = 4 * e.seq as u64;
        let opcode = match hw.class(e.class) {
            _ if barrier => "barrier".to_string(),
            Some(c) => c.name.clone(),
            None => format!("class{}", e.class),
        };
        // Writing to a String cannot fail.
        let _ = writeln!(
            s,
            "{} {pc} {opcode} {} {} {}",
            e.warp, e.issue, e.dispatch, e.complete
        );
    }
    s
}
