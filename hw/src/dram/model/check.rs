//! The controller's outputs in the terms of the independent DDR4 timing checker
//! ([`crate::oracle::ddr4`]): a cycle's command as a trace line, and the checker for a part
//! with the controller's refresh phase. The checker itself knows nothing of the controller;
//! this is the one place that translates.

use super::super::{Command, Part};
use super::DramOut;
use crate::oracle::ddr4::{self, Checker, TraceCmd};

/// The checker's view of the command `o` drives in cycle `cycle` (`None` for NOP).
pub fn trace_cmd(cycle: u64, o: &DramOut) -> Option<TraceCmd> {
    let cmd = match o.cmd {
        Command::Nop => return None,
        Command::Act => ddr4::Cmd::Act,
        Command::Pre => ddr4::Cmd::Pre,
        Command::Rd => ddr4::Cmd::Rd,
        Command::Rda => ddr4::Cmd::Rda,
        Command::Wr => ddr4::Cmd::Wr,
        Command::Wra => ddr4::Cmd::Wra,
        Command::Ref => ddr4::Cmd::Ref,
    };
    Some(TraceCmd {
        cycle,
        cmd,
        rank: 0,
        bg: o.cmd_bg,
        bank: o.cmd_bank,
        row: o.cmd_row,
        col: u32::from(o.cmd_col),
    })
}

/// The independent DDR4 checker for `part`, with the controller's refresh phase.
pub fn checker(part: &Part, refresh_phase: u16) -> Result<Checker, String> {
    let p = ddr4::Ddr4Part::by_name(part.name)
        .ok_or_else(|| format!("the DDR4 checker does not know the part `{}`", part.name))?;
    Ok(Checker::with_refresh(p, u64::from(refresh_phase)))
}
