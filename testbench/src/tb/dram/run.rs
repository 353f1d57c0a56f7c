//! Drives request sequences through a controller (any implementation of the block interface:
//! the reference model, or its RTL in lock-step), collects the command trace (`cycle CMD rank bg
//! bank row col` lines) and checks every command with the independent
//! DDR4 timing checker.

use crate::oracle::ddr4::{self, TraceCmd};
use rtgpu_hw::block::Clocked;
use rtgpu_hw::dram::model::{checker, trace_cmd, DramIn, DramOut, Request};
use rtgpu_hw::dram::Part;

/// One completed request.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Completion {
    /// Its tag.
    pub tag: u8,
    /// Accepted in this cycle.
    pub accepted: u64,
    /// `done` in this cycle.
    pub done: u64,
    /// The LID the controller reported (from the trigger).
    pub lid: u32,
    /// Rejected as bad.
    pub error: bool,
}

/// What a run left.
#[derive(Clone, Debug, Default)]
pub struct Run {
    /// Completions in order.
    pub completions: Vec<Completion>,
    /// Every command, in trace form.
    pub trace: Vec<TraceCmd>,
    /// Cycles with data on the bus.
    pub dq_cycles: u64,
    /// Cycles simulated.
    pub cycles: u64,
}

impl Run {
    /// Commands of kind `c`.
    pub fn count(&self, c: ddr4::Cmd) -> usize {
        self.trace.iter().filter(|t| t.cmd == c).count()
    }

    /// The trace as text, one `cycle CMD rank bg bank row col` line per command.
    pub fn trace_text(&self) -> String {
        self.trace
            .iter()
            .map(|t| ddr4::format_line(t) + "\n")
            .collect()
    }
}

/// Feeds a request sequence to a controller cycle by cycle: each request as soon as the
/// controller is ready, the running request's indexes when asked; collects the completions.
pub struct Feeder<'a> {
    reqs: &'a [Request],
    next: usize,
    idx_sent: usize,
    accepted_at: Vec<u64>,
    /// Completions so far.
    pub completions: Vec<Completion>,
}

impl<'a> Feeder<'a> {
    /// A feeder of `reqs`, in order.
    pub fn new(reqs: &'a [Request]) -> Self {
        Self {
            reqs,
            next: 0,
            idx_sent: 0,
            accepted_at: Vec::new(),
            completions: Vec::new(),
        }
    }

    /// The inputs of this cycle: the next request (if any) and the running request's next
    /// index.
    pub fn input(&self) -> DramIn {
        let mut inp = DramIn::default();
        if let Some(r) = self.reqs.get(self.next) {
            inp.req_valid = true;
            inp.req_write = r.write;
            inp.req_indexed = r.indexed;
            inp.req_addr = r.addr;
            inp.req_words = r.words;
            inp.req_period = r.period;
            inp.req_count = r.count;
            inp.req_tag = r.tag;
        }
        let cur = self.next.checked_sub(1).and_then(|i| self.reqs.get(i));
        if let Some(&i) = cur
            .filter(|c| c.indexed)
            .and_then(|c| c.indexes.get(self.idx_sent))
        {
            inp.idx_valid = true;
            inp.idx_addr = i;
        }
        inp
    }

    /// Takes note of cycle `t`'s handshakes and completion.
    pub fn observe(&mut self, t: u64, inp: &DramIn, o: &DramOut) {
        if o.done {
            let i = self.completions.len();
            self.completions.push(Completion {
                tag: o.done_tag,
                accepted: self.accepted_at.get(i).copied().unwrap_or(0),
                done: t,
                lid: o.done_lid,
                error: o.done_error,
            });
        }
        if inp.idx_valid && o.idx_ready {
            self.idx_sent += 1;
        }
        if inp.req_valid && o.req_ready {
            self.accepted_at.push(t);
            self.next += 1;
            self.idx_sent = 0;
        }
    }

    /// Every request completed.
    pub fn finished(&self) -> bool {
        self.completions.len() == self.reqs.len()
    }
}

/// Presents `reqs` back to back (each as soon as the controller is ready), feeds indexes
/// when asked, and runs until every request completed and `tail` more cycles passed (or
/// `limit` cycles). Every command goes through the DDR4 checker of `part` (with the
/// controller's refresh phase); a violation or a hang is an error naming the cycle.
pub fn run(
    ctrl: &mut dyn Clocked<In = DramIn, Out = DramOut>,
    part: &Part,
    refresh_phase: u16,
    reqs: &[Request],
    tail: u64,
    limit: u64,
) -> Result<Run, String> {
    let mut checker = checker(part, refresh_phase)?;
    let mut feeder = Feeder::new(reqs);
    let mut out = Run::default();
    let mut end = None;
    for t in 0..limit {
        let inp = feeder.input();
        let o = ctrl.cycle(&inp);
        ctrl.check().map_err(|f| f.to_string())?;
        if let Some(tc) = trace_cmd(t, &o) {
            checker
                .check(&tc)
                .map_err(|v| format!("DDR4 timing violation: {v}"))?;
            out.trace.push(tc);
        }
        out.dq_cycles += u64::from(o.dq_valid);
        feeder.observe(t, &inp, &o);
        if feeder.finished() && end.is_none() {
            end = Some(t + tail);
        }
        out.cycles = t + 1;
        if end.is_some_and(|e| t >= e) {
            out.completions = feeder.completions;
            return Ok(out);
        }
    }
    Err(format!(
        "no completion of request {} of {} within {limit} cycles",
        feeder.completions.len() + 1,
        reqs.len()
    ))
}
