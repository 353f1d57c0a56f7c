//! The rule engine: bank state, the DDR4 timing table (Ramulator's rule set), tFAW and refresh
//! accounting.
//!
//! The checker remembers, per scope (bank, bank group, rank, channel), the most recent command
//! of each kind that a later command's rules are measured from. Commands arrive in cycle order,
//! so the most recent one is always the binding one for a minimum-distance rule; for tFAW it
//! keeps the last four ACTs of each rank.

use std::collections::VecDeque;
use std::fmt;

use super::part::Ddr4Part;
use super::trace::{format_line, Cmd, TraceCmd};

/// Refreshes that may be postponed (owed) at any time, and that may be pulled in (issued ahead
/// of their due time): 8 each, as JEDEC allows.
pub const MAX_POSTPONED: u64 = 8;
/// See [`MAX_POSTPONED`].
pub const MAX_PULLED_IN: u64 = 8;

/// A rule the checker enforces. [`Rule::id`] is the stable identifier used in messages and tests.
///
/// The variants are listed in evaluation order; when one command breaks several rules,
/// [`Checker::check`] reports the first in this order (all of them are available from
/// [`Checker::violations`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Rule {
    /// A command's cycle is earlier than the previous command's.
    OutOfOrder,
    /// Two commands in the same cycle on the one command bus.
    SameCycle,
    /// Rank, bank group, bank, row or column outside the part's organisation.
    AddressRange,
    /// ACT to a bank that already has an open row.
    ActOpenBank,
    /// RD/RDA to a bank with no open row.
    RdClosedBank,
    /// WR/WRA to a bank with no open row.
    WrClosedBank,
    /// RD/RDA naming a row other than the open one.
    RdWrongRow,
    /// WR/WRA naming a row other than the open one.
    WrWrongRow,
    /// REF while a bank of the rank is open.
    RefOpenBank,
    /// ACT → ACT, same bank: tRC.
    Rc,
    /// PRE/PREA → ACT, same bank: tRP (measured from the bank's last precharge command, even one
    /// that found the bank already closed).
    Rp,
    /// RDA → ACT, same bank: tRTP + tRP.
    RdaToAct,
    /// WRA → ACT, same bank: CWL + BL + tWR + tRP.
    WraToAct,
    /// Auto-precharge cannot start before its ACT + tRAS, so ACT → (RDA/WRA) → ACT, same bank,
    /// needs tRAS + tRP from the first ACT.
    AutoPreRas,
    /// ACT → ACT, same bank group: tRRD_L.
    RrdL,
    /// ACT → ACT, same rank: tRRD_S.
    RrdS,
    /// Fifth ACT of a rank within tFAW of the fourth previous one.
    Faw,
    /// REF → ACT, same rank: tRFC.
    Rfc,
    /// ACT → RD/RDA/WR/WRA, same bank: tRCD.
    Rcd,
    /// WR/WRA → RD/RDA, same bank group: CWL + BL + tWTR_L.
    WtrL,
    /// RD→RD or WR→WR (with or without auto-precharge), same bank group: tCCD_L.
    CcdL,
    /// WR/WRA → RD/RDA, same rank: CWL + BL + tWTR_S.
    WtrS,
    /// RD/RDA → WR/WRA, same rank: CL + BL + 2 − CWL.
    Rtw,
    /// RD→RD or WR→WR (with or without auto-precharge), same rank: tCCD_S.
    CcdS,
    /// Any CAS → any CAS on the channel: BL (the data bus holds one burst at a time).
    Bl,
    /// ACT → PRE/PREA, same bank: tRAS.
    Ras,
    /// RD/RDA → PRE/PREA, same bank: tRTP.
    Rtp,
    /// WR/WRA → PRE/PREA, same bank: CWL + BL + tWR.
    Wr,
    /// REF → PRE/PREA, same rank: tRFC (JEDEC: only DES during tRFC).
    RfcPre,
    /// ACT → REF, same rank: tRC.
    ActToRef,
    /// PRE/PREA → REF, same rank: tRP.
    PreToRef,
    /// RDA → REF, same rank: tRTP + tRP.
    RdaToRef,
    /// WRA → REF, same rank: CWL + BL + tWR + tRP.
    WraToRef,
    /// ACT → (RDA/WRA) → REF: the auto-precharge starts no earlier than ACT + tRAS, so REF needs
    /// tRAS + tRP from that ACT.
    AutoPreRasToRef,
    /// REF → REF, same rank: tRFC.
    RfcRef,
    /// More than 8 refreshes owed (postponed) at the end of some cycle.
    Postponed,
    /// More than 8 refreshes issued ahead of their due time.
    PulledIn,
}

impl Rule {
    /// Every rule, in evaluation order.
    pub const ALL: [Rule; 37] = [
        Rule::OutOfOrder,
        Rule::SameCycle,
        Rule::AddressRange,
        Rule::ActOpenBank,
        Rule::RdClosedBank,
        Rule::WrClosedBank,
        Rule::RdWrongRow,
        Rule::WrWrongRow,
        Rule::RefOpenBank,
        Rule::Rc,
        Rule::Rp,
        Rule::RdaToAct,
        Rule::WraToAct,
        Rule::AutoPreRas,
        Rule::RrdL,
        Rule::RrdS,
        Rule::Faw,
        Rule::Rfc,
        Rule::Rcd,
        Rule::WtrL,
        Rule::CcdL,
        Rule::WtrS,
        Rule::Rtw,
        Rule::CcdS,
        Rule::Bl,
        Rule::Ras,
        Rule::Rtp,
        Rule::Wr,
        Rule::RfcPre,
        Rule::ActToRef,
        Rule::PreToRef,
        Rule::RdaToRef,
        Rule::WraToRef,
        Rule::AutoPreRasToRef,
        Rule::RfcRef,
        Rule::Postponed,
        Rule::PulledIn,
    ];

    /// Stable identifier, e.g. `"tRCD"`, `"ACT to open bank"`.
    pub fn id(self) -> &'static str {
        match self {
            Rule::OutOfOrder => "commands out of order",
            Rule::SameCycle => "two commands in one cycle",
            Rule::AddressRange => "address out of range",
            Rule::ActOpenBank => "ACT to open bank",
            Rule::RdClosedBank => "RD to closed bank",
            Rule::WrClosedBank => "WR to closed bank",
            Rule::RdWrongRow => "RD wrong row",
            Rule::WrWrongRow => "WR wrong row",
            Rule::RefOpenBank => "REF with open bank",
            Rule::Rc => "tRC",
            Rule::Rp => "tRP",
            Rule::RdaToAct => "tRTP+tRP",
            Rule::WraToAct => "tWR+tRP",
            Rule::AutoPreRas => "tRAS+tRP (auto-precharge)",
            Rule::RrdL => "tRRD_L",
            Rule::RrdS => "tRRD_S",
            Rule::Faw => "tFAW",
            Rule::Rfc => "tRFC",
            Rule::Rcd => "tRCD",
            Rule::WtrL => "tWTR_L",
            Rule::CcdL => "tCCD_L",
            Rule::WtrS => "tWTR_S",
            Rule::Rtw => "tRTW",
            Rule::CcdS => "tCCD_S",
            Rule::Bl => "tBL",
            Rule::Ras => "tRAS",
            Rule::Rtp => "tRTP",
            Rule::Wr => "tWR",
            Rule::RfcPre => "tRFC (REF to PRE)",
            Rule::ActToRef => "tRC (ACT to REF)",
            Rule::PreToRef => "tRP (PRE to REF)",
            Rule::RdaToRef => "tRTP+tRP (RDA to REF)",
            Rule::WraToRef => "tWR+tRP (WRA to REF)",
            Rule::AutoPreRasToRef => "tRAS+tRP (auto-precharge to REF)",
            Rule::RfcRef => "tRFC (REF to REF)",
            Rule::Postponed => "too many postponed refreshes",
            Rule::PulledIn => "too many refreshes pulled in",
        }
    }
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.id())
    }
}

/// How far a command was from satisfying its rule.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measure {
    /// A minimum-distance rule: the offending command came `actual` cycles after the earlier
    /// one (negative when out of order) but the rule needs at least `required`.
    MinDistance {
        /// Minimum distance in cycles.
        required: i64,
        /// Actual distance in cycles.
        actual: i64,
    },
    /// Refreshes owed (due but not issued) exceed `max`.
    Postponed {
        /// Most refreshes that may be owed.
        max: u64,
        /// Refreshes owed.
        owed: u64,
    },
    /// Refreshes issued ahead of their due time exceed `max`.
    PulledIn {
        /// Most refreshes that may be pulled in.
        max: u64,
        /// Refreshes issued ahead.
        ahead: u64,
    },
    /// A bank-state or address rule: no distance involved.
    State,
}

/// A broken rule: which rule, between which commands, and by how much.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Violation {
    /// The rule.
    pub rule: Rule,
    /// The earlier command the rule is measured from (the ACT that opened the bank for state
    /// rules, the command that closed it for a CAS to a closed bank, the last REF for refresh
    /// rules), if any.
    pub earlier: Option<TraceCmd>,
    /// The offending command; `None` for a refresh violation found by [`Checker::finish`].
    pub offending: Option<TraceCmd>,
    /// Cycle of the offending command, or the cycle passed to [`Checker::finish`].
    pub cycle: u64,
    /// Required versus actual.
    pub measure: Measure,
    /// Extra explanation (which field is out of range, which row is open, ...); may be empty.
    pub detail: String,
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "DDR4 rule `{}` broken at cycle {}",
            self.rule.id(),
            self.cycle
        )?;
        if let Some(o) = &self.offending {
            write!(f, " by `{}`", format_line(o))?;
        }
        match self.measure {
            Measure::MinDistance { required, actual } => {
                if let Some(e) = &self.earlier {
                    write!(
                        f,
                        ": {} cycle(s) after `{}` at cycle {}, needs at least {}",
                        actual,
                        format_line(e),
                        e.cycle,
                        required
                    )?;
                } else {
                    write!(f, ": distance {actual}, needs at least {required}")?;
                }
            }
            Measure::Postponed { max, owed } => {
                write!(f, ": {owed} refreshes owed, at most {max} may be postponed")?;
                match &self.earlier {
                    Some(e) => write!(f, " (last REF `{}` at cycle {})", format_line(e), e.cycle)?,
                    None => write!(f, " (no REF yet)")?,
                }
            }
            Measure::PulledIn { max, ahead } => {
                write!(
                    f,
                    ": {ahead} refreshes ahead of schedule, at most {max} may be pulled in"
                )?;
            }
            Measure::State => {
                if let Some(e) = &self.earlier {
                    write!(f, ": earlier `{}` at cycle {}", format_line(e), e.cycle)?;
                }
            }
        }
        if !self.detail.is_empty() {
            write!(f, " ({})", self.detail)?;
        }
        Ok(())
    }
}

impl std::error::Error for Violation {}

/// Commands checked, per kind.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct CheckStats {
    counts: [u64; 8],
}

impl CheckStats {
    /// How many commands of kind `cmd` were checked.
    pub fn count(&self, cmd: Cmd) -> u64 {
        self.counts[cmd.index()]
    }

    /// All commands checked.
    pub fn total(&self) -> u64 {
        self.counts.iter().sum()
    }
}

impl fmt::Display for CheckStats {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, c) in Cmd::ALL.iter().enumerate() {
            if i > 0 {
                f.write_str(" ")?;
            }
            write!(f, "{}={}", c.name(), self.counts[i])?;
        }
        Ok(())
    }
}

/// An auto-precharge in a bank: the RDA/WRA and the ACT of the row it closed.
#[derive(Clone, Copy, Debug)]
struct AutoPre {
    cas: TraceCmd,
    act: TraceCmd,
}

#[derive(Clone, Debug, Default)]
struct BankState {
    /// The ACT of the open row, while the bank is open.
    open: Option<TraceCmd>,
    /// The command that last closed the bank (PRE, PREA, RDA, WRA).
    closed_by: Option<TraceCmd>,
    last_act: Option<TraceCmd>,
    /// Last PRE/PREA addressed to the bank, open or not (JEDEC: the last PRECHARGE sets the
    /// precharge period).
    last_pre: Option<TraceCmd>,
    last_rd: Option<TraceCmd>,
    last_wr: Option<TraceCmd>,
    auto_pre: Option<AutoPre>,
}

#[derive(Clone, Debug)]
struct RankState {
    banks: Vec<BankState>,
    bg_last_act: Vec<Option<TraceCmd>>,
    bg_last_rd: Vec<Option<TraceCmd>>,
    bg_last_wr: Vec<Option<TraceCmd>>,
    last_act: Option<TraceCmd>,
    last_rd: Option<TraceCmd>,
    last_wr: Option<TraceCmd>,
    last_rda: Option<TraceCmd>,
    last_wra: Option<TraceCmd>,
    last_pre: Option<TraceCmd>,
    last_ref: Option<TraceCmd>,
    /// The last (up to) four ACTs, oldest first.
    acts: VecDeque<TraceCmd>,
    refs: u64,
}

impl RankState {
    fn new(part: &Ddr4Part) -> Self {
        let groups = part.bank_groups as usize;
        RankState {
            banks: vec![BankState::default(); part.banks()],
            bg_last_act: vec![None; groups],
            bg_last_rd: vec![None; groups],
            bg_last_wr: vec![None; groups],
            last_act: None,
            last_rd: None,
            last_wr: None,
            last_rda: None,
            last_wra: None,
            last_pre: None,
            last_ref: None,
            acts: VecDeque::with_capacity(4),
            refs: 0,
        }
    }
}

/// An independent DDR4 command-trace checker (a test oracle for the DRAM controller).
///
/// Feed it every command in issue order with [`Checker::check`], then call
/// [`Checker::finish`] with the last simulated cycle.
///
/// Choices where the Sim-D paper is silent:
/// * PRE (or PREA) to a closed bank is legal, as JEDEC allows; it still counts as a precharge:
///   the next ACT to that bank and the next REF wait tRP from it, and it must itself respect
///   tRAS / tRTP / write recovery from the bank's last ACT / RD(A) / WR(A) (which also covers
///   the JEDEC "RDA/WRA → PRE to the same bank" delays).
/// * tRFC also separates REF from a following PRE/PREA (JEDEC: only DES during tRFC).
/// * The channel rule "CAS → CAS ≥ BL" applies to any two column commands, either direction.
/// * Refresh: with phase `p`, refresh `k` (k ≥ 1) falls due at cycle `k·REFI − p`. The number
///   owed is counted at the end of every cycle (after that cycle's command), so a REF in the
///   very cycle the 9th refresh falls due is legal. More than 8 owed, or more than 8 issued
///   ahead of schedule, is a violation.
/// * tRTRS (rank to rank) is not checked; every named part has one rank.
#[derive(Clone, Debug)]
pub struct Checker {
    part: Ddr4Part,
    phase: u64,
    ranks: Vec<RankState>,
    last_cmd: Option<TraceCmd>,
    last_cas: Option<TraceCmd>,
    stats: CheckStats,
}

fn clamp_i64(x: i128) -> i64 {
    x.clamp(i64::MIN as i128, i64::MAX as i128) as i64
}

impl Checker {
    /// A checker whose refresh interval counter starts at 0 (first refresh due at cycle REFI).
    pub fn new(part: Ddr4Part) -> Self {
        Self::with_refresh(part, 0)
    }

    /// A checker whose refresh interval counter starts at `phase` (taken modulo REFI), so the
    /// first refresh falls due at cycle `REFI − phase` and one more every REFI cycles after.
    pub fn with_refresh(part: Ddr4Part, phase: u64) -> Self {
        let refi = part.refi.max(1);
        Checker {
            part,
            phase: phase % refi,
            ranks: (0..part.ranks).map(|_| RankState::new(&part)).collect(),
            last_cmd: None,
            last_cas: None,
            stats: CheckStats::default(),
        }
    }

    /// The part being checked.
    pub fn part(&self) -> &Ddr4Part {
        &self.part
    }

    /// Commands checked so far, per kind.
    pub fn stats(&self) -> CheckStats {
        self.stats
    }

    /// Refreshes that have fallen due by the end of `cycle` (from cycle 0).
    pub fn refreshes_due(&self, cycle: u64) -> u64 {
        ((cycle as u128 + self.phase as u128) / self.part.refi.max(1) as u128) as u64
    }

    /// Refreshes owed by `rank` at the end of `cycle`, counting the REFs checked so far
    /// (negative when refreshes were pulled in). 0 for a rank the part does not have.
    pub fn owed_refreshes(&self, rank: u8, cycle: u64) -> i64 {
        match self.ranks.get(rank as usize) {
            Some(r) => clamp_i64(self.refreshes_due(cycle) as i128 - r.refs as i128),
            None => 0,
        }
    }

    /// Check one command and record it. Returns the first broken rule in [`Rule`] order.
    /// The command is recorded even when it breaks a rule (unless its address is out of
    /// range), so checking may continue after an error.
    pub fn check(&mut self, c: &TraceCmd) -> Result<(), Violation> {
        let mut v = self.violations(c);
        if !v.iter().any(|x| x.rule == Rule::AddressRange) {
            self.apply(c);
        }
        if v.is_empty() {
            Ok(())
        } else {
            v.sort_by_key(|x| x.rule);
            Err(v.swap_remove(0))
        }
    }

    /// Every rule `c` would break if it were issued now, without recording it.
    pub fn violations(&self, c: &TraceCmd) -> Vec<Violation> {
        let p = &self.part;
        let mut v = Vec::new();
        if let Some(last) = self.last_cmd {
            if c.cycle < last.cycle {
                min_dist(&mut v, Rule::OutOfOrder, Some(last), c, 1);
            } else if c.cycle == last.cycle {
                min_dist(&mut v, Rule::SameCycle, Some(last), c, 1);
            }
        }
        if let Some(d) = self.range_error(c) {
            v.push(state(Rule::AddressRange, None, c, d));
            return v;
        }
        let r = &self.ranks[c.rank as usize];
        let bg = c.bg as usize;
        let bi = bg * p.banks_per_group as usize + c.bank as usize;
        match c.cmd {
            Cmd::Act => {
                let b = &r.banks[bi];
                if let Some(a) = b.open {
                    v.push(state(
                        Rule::ActOpenBank,
                        Some(a),
                        c,
                        format!("row {} is still open", a.row),
                    ));
                }
                min_dist(&mut v, Rule::Rc, b.last_act, c, p.rc as i64);
                min_dist(&mut v, Rule::Rp, b.last_pre, c, p.rp as i64);
                if let Some(ap) = b.auto_pre {
                    if ap.cas.cmd == Cmd::Rda {
                        min_dist(
                            &mut v,
                            Rule::RdaToAct,
                            Some(ap.cas),
                            c,
                            (p.rtp + p.rp) as i64,
                        );
                    } else {
                        min_dist(
                            &mut v,
                            Rule::WraToAct,
                            Some(ap.cas),
                            c,
                            (p.wr_to_pre() + p.rp) as i64,
                        );
                    }
                    min_dist(
                        &mut v,
                        Rule::AutoPreRas,
                        Some(ap.act),
                        c,
                        (p.ras + p.rp) as i64,
                    );
                }
                min_dist(&mut v, Rule::RrdL, r.bg_last_act[bg], c, p.rrd_l as i64);
                min_dist(&mut v, Rule::RrdS, r.last_act, c, p.rrd_s as i64);
                if r.acts.len() == 4 {
                    min_dist(&mut v, Rule::Faw, r.acts.front().copied(), c, p.faw as i64);
                }
                min_dist(&mut v, Rule::Rfc, r.last_ref, c, p.rfc as i64);
            }
            Cmd::Rd | Cmd::Rda | Cmd::Wr | Cmd::Wra => {
                let b = &r.banks[bi];
                let read = c.cmd.is_read();
                match b.open {
                    None => {
                        let rule = if read {
                            Rule::RdClosedBank
                        } else {
                            Rule::WrClosedBank
                        };
                        let d = if b.closed_by.is_some() {
                            "bank was closed by the earlier command".to_string()
                        } else {
                            "bank was never activated".to_string()
                        };
                        v.push(state(rule, b.closed_by, c, d));
                    }
                    Some(a) if a.row != c.row => {
                        let rule = if read {
                            Rule::RdWrongRow
                        } else {
                            Rule::WrWrongRow
                        };
                        v.push(state(
                            rule,
                            Some(a),
                            c,
                            format!("row {} requested, row {} is open", c.row, a.row),
                        ));
                    }
                    Some(_) => {}
                }
                min_dist(&mut v, Rule::Rcd, b.last_act, c, p.rcd as i64);
                if read {
                    min_dist(
                        &mut v,
                        Rule::WtrL,
                        r.bg_last_wr[bg],
                        c,
                        p.wr_to_rd_l() as i64,
                    );
                    min_dist(&mut v, Rule::CcdL, r.bg_last_rd[bg], c, p.ccd_l as i64);
                    min_dist(&mut v, Rule::WtrS, r.last_wr, c, p.wr_to_rd_s() as i64);
                    min_dist(&mut v, Rule::CcdS, r.last_rd, c, p.ccd_s as i64);
                } else {
                    min_dist(&mut v, Rule::CcdL, r.bg_last_wr[bg], c, p.ccd_l as i64);
                    min_dist(&mut v, Rule::Rtw, r.last_rd, c, p.rd_to_wr());
                    min_dist(&mut v, Rule::CcdS, r.last_wr, c, p.ccd_s as i64);
                }
                min_dist(&mut v, Rule::Bl, self.last_cas, c, p.bl as i64);
            }
            Cmd::Pre => {
                self.pre_rules(&mut v, &r.banks[bi], c);
                min_dist(&mut v, Rule::RfcPre, r.last_ref, c, p.rfc as i64);
            }
            Cmd::Prea => {
                for b in &r.banks {
                    self.pre_rules(&mut v, b, c);
                }
                min_dist(&mut v, Rule::RfcPre, r.last_ref, c, p.rfc as i64);
            }
            Cmd::Ref => {
                for (i, b) in r.banks.iter().enumerate() {
                    if let Some(a) = b.open {
                        v.push(state(
                            Rule::RefOpenBank,
                            Some(a),
                            c,
                            format!(
                                "bank group {} bank {} has row {} open",
                                i / p.banks_per_group as usize,
                                i % p.banks_per_group as usize,
                                a.row
                            ),
                        ));
                    }
                }
                min_dist(&mut v, Rule::ActToRef, r.last_act, c, p.rc as i64);
                min_dist(&mut v, Rule::PreToRef, r.last_pre, c, p.rp as i64);
                min_dist(&mut v, Rule::RdaToRef, r.last_rda, c, (p.rtp + p.rp) as i64);
                min_dist(
                    &mut v,
                    Rule::WraToRef,
                    r.last_wra,
                    c,
                    (p.wr_to_pre() + p.rp) as i64,
                );
                for b in &r.banks {
                    if let Some(ap) = b.auto_pre {
                        min_dist(
                            &mut v,
                            Rule::AutoPreRasToRef,
                            Some(ap.act),
                            c,
                            (p.ras + p.rp) as i64,
                        );
                    }
                }
                min_dist(&mut v, Rule::RfcRef, r.last_ref, c, p.rfc as i64);
            }
        }
        self.refresh_rules(&mut v, c);
        v
    }

    /// End of the trace at `cycle` (the last simulated cycle): reports refreshes owed beyond
    /// the limit. A `cycle` before the last checked command counts as that command's cycle.
    pub fn finish(&self, cycle: u64) -> Result<CheckStats, Violation> {
        let cycle = match self.last_cmd {
            Some(l) => cycle.max(l.cycle),
            None => cycle,
        };
        let due = self.refreshes_due(cycle);
        for r in &self.ranks {
            let owed = due.saturating_sub(r.refs);
            if owed > MAX_POSTPONED {
                return Err(Violation {
                    rule: Rule::Postponed,
                    earlier: r.last_ref,
                    offending: None,
                    cycle,
                    measure: Measure::Postponed {
                        max: MAX_POSTPONED,
                        owed,
                    },
                    detail: String::new(),
                });
            }
        }
        Ok(self.stats)
    }

    fn range_error(&self, c: &TraceCmd) -> Option<String> {
        let p = &self.part;
        if c.rank >= p.ranks {
            return Some(format!("rank {} >= {} ranks", c.rank, p.ranks));
        }
        let bank_addressed = matches!(
            c.cmd,
            Cmd::Act | Cmd::Pre | Cmd::Rd | Cmd::Rda | Cmd::Wr | Cmd::Wra
        );
        if bank_addressed {
            if c.bg >= p.bank_groups {
                return Some(format!("bank group {} >= {}", c.bg, p.bank_groups));
            }
            if c.bank >= p.banks_per_group {
                return Some(format!(
                    "bank {} >= {} banks per group",
                    c.bank, p.banks_per_group
                ));
            }
        }
        if (c.cmd == Cmd::Act || c.cmd.is_cas()) && c.row >= p.rows {
            return Some(format!("row {} >= {} rows", c.row, p.rows));
        }
        if c.cmd.is_cas() && c.col >= p.columns {
            return Some(format!("column {} >= {} columns", c.col, p.columns));
        }
        None
    }

    fn pre_rules(&self, v: &mut Vec<Violation>, b: &BankState, c: &TraceCmd) {
        let p = &self.part;
        min_dist(v, Rule::Ras, b.last_act, c, p.ras as i64);
        min_dist(v, Rule::Rtp, b.last_rd, c, p.rtp as i64);
        min_dist(v, Rule::Wr, b.last_wr, c, p.wr_to_pre() as i64);
    }

    fn refresh_rules(&self, v: &mut Vec<Violation>, c: &TraceCmd) {
        let due_before = if c.cycle == 0 {
            0
        } else {
            self.refreshes_due(c.cycle - 1)
        };
        let due_now = self.refreshes_due(c.cycle);
        for (i, r) in self.ranks.iter().enumerate() {
            let this_ref = c.cmd == Cmd::Ref && c.rank as usize == i;
            // Owed at the end of the cycles since the previous command, then at the end of
            // this command's cycle (after this command).
            let before = due_before.saturating_sub(r.refs);
            let after = due_now.saturating_sub(r.refs + this_ref as u64);
            let owed = before.max(after);
            if owed > MAX_POSTPONED {
                v.push(Violation {
                    rule: Rule::Postponed,
                    earlier: r.last_ref,
                    offending: Some(*c),
                    cycle: c.cycle,
                    measure: Measure::Postponed {
                        max: MAX_POSTPONED,
                        owed,
                    },
                    detail: format!("rank {i}"),
                });
            }
            if this_ref {
                let ahead = (r.refs + 1).saturating_sub(due_now);
                if ahead > MAX_PULLED_IN {
                    v.push(Violation {
                        rule: Rule::PulledIn,
                        earlier: r.last_ref,
                        offending: Some(*c),
                        cycle: c.cycle,
                        measure: Measure::PulledIn {
                            max: MAX_PULLED_IN,
                            ahead,
                        },
                        detail: format!("rank {i}: {} REFs, {} due", r.refs + 1, due_now),
                    });
                }
            }
        }
    }

    fn apply(&mut self, c: &TraceCmd) {
        self.stats.counts[c.cmd.index()] += 1;
        match self.last_cmd {
            Some(l) if l.cycle > c.cycle => {}
            _ => self.last_cmd = Some(*c),
        }
        let bpg = self.part.banks_per_group as usize;
        let r = &mut self.ranks[c.rank as usize];
        let bg = c.bg as usize;
        let bi = bg * bpg + c.bank as usize;
        match c.cmd {
            Cmd::Act => {
                let b = &mut r.banks[bi];
                b.open = Some(*c);
                b.last_act = Some(*c);
                r.bg_last_act[bg] = Some(*c);
                r.last_act = Some(*c);
                if r.acts.len() == 4 {
                    r.acts.pop_front();
                }
                r.acts.push_back(*c);
            }
            Cmd::Pre => {
                precharge(&mut r.banks[bi], c);
                r.last_pre = Some(*c);
            }
            Cmd::Prea => {
                for b in &mut r.banks {
                    precharge(b, c);
                }
                r.last_pre = Some(*c);
            }
            Cmd::Rd | Cmd::Rda | Cmd::Wr | Cmd::Wra => {
                self.last_cas = Some(*c);
                let b = &mut r.banks[bi];
                if c.cmd.is_read() {
                    b.last_rd = Some(*c);
                    r.bg_last_rd[bg] = Some(*c);
                    r.last_rd = Some(*c);
                } else {
                    b.last_wr = Some(*c);
                    r.bg_last_wr[bg] = Some(*c);
                    r.last_wr = Some(*c);
                }
                match c.cmd {
                    Cmd::Rda => r.last_rda = Some(*c),
                    Cmd::Wra => r.last_wra = Some(*c),
                    _ => {}
                }
                if c.cmd.auto_precharge() {
                    if let Some(a) = b.open.take() {
                        b.auto_pre = Some(AutoPre { cas: *c, act: a });
                        b.closed_by = Some(*c);
                    }
                }
            }
            Cmd::Ref => {
                r.last_ref = Some(*c);
                r.refs += 1;
            }
        }
    }
}

fn precharge(b: &mut BankState, c: &TraceCmd) {
    if b.open.take().is_some() {
        b.closed_by = Some(*c);
    }
    b.last_pre = Some(*c);
}

fn min_dist(
    v: &mut Vec<Violation>,
    rule: Rule,
    earlier: Option<TraceCmd>,
    c: &TraceCmd,
    required: i64,
) {
    if let Some(e) = earlier {
        let actual = clamp_i64(c.cycle as i128 - e.cycle as i128);
        if actual < required {
            v.push(Violation {
                rule,
                earlier: Some(e),
                offending: Some(*c),
                cycle: c.cycle,
                measure: Measure::MinDistance { required, actual },
                detail: String::new(),
            });
        }
    }
}

fn state(rule: Rule, earlier: Option<TraceCmd>, c: &TraceCmd, detail: String) -> Violation {
    Violation {
        rule,
        earlier,
        offending: Some(*c),
        cycle: c.cycle,
        measure: Measure::State,
        detail,
    }
}

/// Check a whole trace from cycle 0 with refresh phase 0, then [`Checker::finish`] at the last
/// command's cycle. Returns the first violation or the per-kind counts.
pub fn check_all(part: Ddr4Part, cmds: &[TraceCmd]) -> Result<CheckStats, Violation> {
    let mut ch = Checker::new(part);
    for c in cmds {
        ch.check(c)?;
    }
    ch.finish(cmds.last().map_or(0, |c| c.cycle))
}
