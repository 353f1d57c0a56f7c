//! The exact vulnerable periods of a run on the compute unit: an [`Observer`] that follows
//! every register value from its write to its last read before the next write (or the end of
//! the run), per architectural register, per VGPR lane, per wavefront (Lee's thesis, Section
//! 3.2: "the time from the moment that the data is produced until the last moment that the
//! data is consumed").
//!
//! A value never read has a vulnerable period of 0. A register read before the run wrote it
//! (the ABI's kernel arguments, ids and EXEC, or a split half's copy of its parent's scalar
//! state) counts as written when its context started. The AVF weighting multiplies each period
//! by the register's bits (32, SCC 1): the result is in bit-cycles ([`Vulnerability`]).

use super::access::{Reg, RegAccess, SCALAR_REGS};
use crate::isa::decode;
use rtgpu_hw::cu::observe::{LoadRegs, Observer, RegEvent};
use serde::Serialize;
use std::any::Any;
use std::collections::HashMap;

/// One register value's life so far.
#[derive(Clone, Copy, Debug, Default)]
struct Life {
    /// Written at (`None`: not yet written or read in this run).
    written: Option<u64>,
    /// Last read at.
    read: Option<u64>,
}

impl Life {
    /// Its vulnerable period (0 if never read).
    fn period(self) -> u64 {
        match (self.written, self.read) {
            (Some(w), Some(r)) => r.saturating_sub(w),
            _ => 0,
        }
    }
}

/// The measured totals, in cycles × bits by register class.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Vulnerability {
    /// VGPR lanes.
    pub vgpr: u64,
    /// SGPRs.
    pub sgpr: u64,
    /// VCC.
    pub vcc: u64,
    /// EXEC.
    pub exec: u64,
    /// M0.
    pub m0: u64,
    /// SCC.
    pub scc: u64,
    /// Register values (VGPR lanes counted one each) with a nonzero period.
    pub values: u64,
}

impl Vulnerability {
    /// The sum over every class: the AVF numerator in bit-cycles.
    pub fn total(&self) -> u64 {
        self.vgpr + self.sgpr + self.vcc + self.exec + self.m0 + self.scc
    }

    /// Adds a closed value of `reg` with period `p` cycles.
    fn add(&mut self, reg: Reg, p: u64) {
        let slot = match reg {
            Reg::Vgpr(_) => &mut self.vgpr,
            Reg::Sgpr(_) => &mut self.sgpr,
            Reg::Vcc(_) => &mut self.vcc,
            Reg::Exec(_) => &mut self.exec,
            Reg::M0 => &mut self.m0,
            Reg::Scc => &mut self.scc,
        };
        *slot += p * reg.bits();
        self.values += u64::from(p > 0);
    }
}

/// The lives of one wavefront's VGPRs (rows grow to the highest register touched).
#[derive(Default)]
struct WaveLives {
    start: u64,
    rows: Vec<[Life; 64]>,
}

/// The lives of one context's scalar registers.
struct CtxLives {
    start: u64,
    regs: [Life; SCALAR_REGS],
}

/// The observer: attach with `ComputeUnit::set_observer`, read [`Tracker::finish`] after.
pub struct Tracker {
    /// Register accesses by instruction dword (`None`: not an instruction start).
    code: Vec<Option<RegAccess>>,
    waves: HashMap<u32, WaveLives>,
    ctxs: HashMap<u64, CtxLives>,
    total: Vulnerability,
}

impl Tracker {
    /// A tracker for a launch of `code` (the dwords the compute unit runs).
    pub fn new(code: &[u32]) -> Tracker {
        let mut table = vec![None; code.len()];
        let mut at = 0;
        while at < code.len() {
            match decode(&code[at..]) {
                Ok((insn, n)) => {
                    table[at] = Some(RegAccess::of(&insn));
                    at += n.max(1);
                }
                Err(_) => at += 1,
            }
        }
        Tracker {
            code: table,
            waves: HashMap::new(),
            ctxs: HashMap::new(),
            total: Vulnerability::default(),
        }
    }

    /// Closes every value still open (the run ended) and returns the totals.
    pub fn finish(mut self) -> Vulnerability {
        for w in self.waves.values() {
            for (v, row) in w.rows.iter().enumerate() {
                for l in row {
                    self.total.add(Reg::Vgpr(v as u8), l.period());
                }
            }
        }
        for c in self.ctxs.values() {
            for (i, l) in c.regs.iter().enumerate() {
                self.total.add(Reg::scalar_at(i), l.period());
            }
        }
        self.total
    }

    /// The life of a scalar register of context `occ` (started at `start` if new).
    fn scalar(&mut self, occ: u64, start: u64, i: usize) -> &mut Life {
        let c = self.ctxs.entry(occ).or_insert_with(|| CtxLives {
            start,
            regs: [Life::default(); SCALAR_REGS],
        });
        let l = &mut c.regs[i];
        l.written.get_or_insert(c.start);
        l
    }

    /// The row of VGPR `v` of wavefront `wave`.
    fn row(&mut self, wave: u32, start: u64, v: u8) -> &mut [Life; 64] {
        let w = self.waves.entry(wave).or_insert_with(|| WaveLives {
            start,
            ..WaveLives::default()
        });
        let v = usize::from(v);
        if w.rows.len() <= v {
            let fresh = [Life::default(); 64];
            w.rows.resize(v + 1, fresh);
        }
        let s = w.start;
        let row = &mut w.rows[v];
        for l in row.iter_mut() {
            l.written.get_or_insert(s);
        }
        row
    }

    /// `reg` of the context read at `cycle` (VGPRs: the lanes in `lanes`).
    fn read(&mut self, (wave, occ): (u32, u64), reg: Reg, lanes: u64, cycle: u64) {
        match reg {
            Reg::Vgpr(v) => {
                let row = self.row(wave, cycle, v);
                for l in rtgpu_hw::cu::regfile::lanes(lanes) {
                    row[l].read = Some(cycle);
                }
            }
            _ => {
                let i = reg.scalar_index().expect("a scalar register");
                self.scalar(occ, cycle, i).read = Some(cycle);
            }
        }
    }

    /// `reg` of the context written at `cycle`: the value it held is closed.
    fn write(&mut self, (wave, occ): (u32, u64), reg: Reg, lanes: u64, cycle: u64) {
        let fresh = Life {
            written: Some(cycle),
            read: None,
        };
        let mut closed = Vulnerability::default();
        match reg {
            Reg::Vgpr(v) => {
                let row = self.row(wave, cycle, v);
                for l in rtgpu_hw::cu::regfile::lanes(lanes) {
                    closed.add(reg, row[l].period());
                    row[l] = fresh;
                }
            }
            _ => {
                let i = reg.scalar_index().expect("a scalar register");
                let l = self.scalar(occ, cycle, i);
                let p = l.period();
                *l = fresh;
                closed.add(reg, p);
            }
        }
        self.total.merge(&closed);
    }

    fn issue(&mut self, ctx: (u32, u64), pc: u32, lanes: u64, cycle: u64) {
        let Some(Some(a)) = self.code.get((pc / 4) as usize).cloned() else {
            return;
        };
        for &r in &a.reads {
            self.read(ctx, r, lanes, cycle);
        }
        if !a.load {
            for &r in &a.writes {
                self.write(ctx, r, lanes, cycle);
            }
        }
    }

    fn written(&mut self, ctx: (u32, u64), regs: LoadRegs, cycle: u64) {
        match regs {
            LoadRegs::Vgpr { first, n, lanes } => {
                for d in 0..u16::from(n) {
                    self.write(ctx, Reg::Vgpr((first + d) as u8), lanes, cycle);
                }
            }
            LoadRegs::Sgpr { first, n } => {
                for d in 0..u16::from(n) {
                    if let Some(r) = Reg::of_code(first + d) {
                        self.write(ctx, r, 0, cycle);
                    }
                }
            }
        }
    }
}

impl Vulnerability {
    /// Adds `o` to these totals.
    pub fn merge(&mut self, o: &Vulnerability) {
        self.vgpr += o.vgpr;
        self.sgpr += o.sgpr;
        self.vcc += o.vcc;
        self.exec += o.exec;
        self.m0 += o.m0;
        self.scc += o.scc;
        self.values += o.values;
    }
}

impl Observer for Tracker {
    fn event(&mut self, e: &RegEvent) {
        match *e {
            RegEvent::Start { cycle, ctx } => {
                self.waves.entry(ctx.wave).or_insert_with(|| WaveLives {
                    start: cycle,
                    ..WaveLives::default()
                });
                self.ctxs.entry(ctx.occupant).or_insert_with(|| CtxLives {
                    start: cycle,
                    regs: [Life::default(); SCALAR_REGS],
                });
            }
            RegEvent::Issue {
                cycle,
                ctx,
                pc,
                lanes,
            } => self.issue((ctx.wave, ctx.occupant), pc, lanes, cycle),
            RegEvent::Written { cycle, ctx, regs } => {
                self.written((ctx.wave, ctx.occupant), regs, cycle)
            }
        }
    }

    fn into_any(self: Box<Self>) -> Box<dyn Any> {
        self
    }
}
