//! The DRAM clock domain of the hierarchy: the Sim-D controller's reference model taking one
//! line request at a time from the crossing FIFO, and its completions going back.

use super::cdc::CdcFifo;
use super::coalesce::LineSpan;
use super::MemError;
use crate::block::{BlockFault, DynBlock};
use crate::dram::model::{DramIn, DramOut};
use crate::dram::Command;

/// A line request to DRAM: a load miss's line, or a store's words of one line.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineReq {
    /// The access it belongs to.
    pub id: u64,
    /// A write (a store).
    pub write: bool,
    /// The line and its words.
    pub span: LineSpan,
}

/// What the DRAM side counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct DramCounters {
    /// DRAM command-clock cycles.
    pub cycles: u64,
    /// Read requests accepted.
    pub reads: u64,
    /// Write requests accepted.
    pub writes: u64,
    /// Sum of the completed requests' LID (`done_lid`).
    pub lid_sum: u64,
    /// Largest LID.
    pub lid_max: u32,
    /// REF commands.
    pub refreshes: u64,
}

/// The controller and its bookkeeping.
pub struct DramSide {
    /// The DRAM controller block (model or RTL).
    model: DynBlock<DramIn, DramOut>,
    /// Requests accepted and not done, by tag.
    inflight: Vec<Option<LineReq>>,
    /// How many of them.
    n_inflight: usize,
    next_tag: u8,
    /// Every command issued: (DRAM cycle, outputs), when recording.
    pub trace: Option<Vec<(u64, DramOut)>>,
    /// The counters.
    pub counters: DramCounters,
    /// The outputs of the last DRAM cycle (for waveforms).
    pub last: DramOut,
}

impl DramSide {
    /// The side of controller `model` (after reset).
    pub fn new(model: DynBlock<DramIn, DramOut>) -> Self {
        DramSide {
            model,
            inflight: vec![None; 256],
            n_inflight: 0,
            next_tag: 0,
            trace: None,
            counters: DramCounters::default(),
            last: DramOut::default(),
        }
    }

    /// The controller's first lock-step fault.
    pub fn check(&self) -> Result<(), Box<BlockFault>> {
        self.model.check()
    }

    /// No request in the controller.
    pub fn idle(&self) -> bool {
        self.n_inflight == 0
    }

    /// One DRAM cycle ending at the edge at `t` (ps).
    pub fn edge(
        &mut self,
        t: u64,
        input: &mut CdcFifo<LineReq>,
        output: &mut CdcFifo<LineReq>,
    ) -> Result<(), MemError> {
        let ready = self.model.outputs(&DramIn::default()).req_ready;
        let tag = self.next_tag;
        // A request is taken only when its completion is sure to find a place in the crossing
        // back (a completion cannot wait).
        let room = output.free_places(t) > self.n_inflight;
        let req = input
            .peek(t)
            .copied()
            .filter(|_| ready && room && self.inflight[usize::from(tag)].is_none());
        let out = self.model.cycle(&request_inputs(req.as_ref(), tag));
        let cycle = self.counters.cycles;
        self.counters.cycles += 1;
        if let Some(r) = req {
            input.pop(t);
            self.inflight[usize::from(tag)] = Some(r);
            self.n_inflight += 1;
            self.next_tag = tag.wrapping_add(1);
            if r.write {
                self.counters.writes += 1;
            } else {
                self.counters.reads += 1;
            }
        }
        self.observe(cycle, &out);
        self.last = out;
        if out.done {
            let r = self.inflight[usize::from(out.done_tag)]
                .take()
                .ok_or(MemError::Dram("a completion with an unknown tag"))?;
            self.n_inflight -= 1;
            if out.done_error {
                return Err(MemError::Dram("the controller refused a line request"));
            }
            self.counters.lid_sum += u64::from(out.done_lid);
            self.counters.lid_max = self.counters.lid_max.max(out.done_lid);
            if !output.can_push(t) {
                return Err(MemError::Dram("the response crossing overflowed"));
            }
            output.push(t, r);
        }
        Ok(())
    }

    fn observe(&mut self, cycle: u64, out: &DramOut) {
        if out.cmd == Command::Nop {
            return;
        }
        if out.cmd == Command::Ref {
            self.counters.refreshes += 1;
        }
        if let Some(t) = &mut self.trace {
            t.push((cycle, *out));
        }
    }
}

/// The controller's inputs for request `r` (a one-row tile over the span's words).
fn request_inputs(r: Option<&LineReq>, tag: u8) -> DramIn {
    let Some(r) = r else {
        return DramIn::default();
    };
    DramIn {
        req_valid: true,
        req_write: r.write,
        req_addr: r.span.word_addr(),
        req_words: r.span.words,
        req_period: r.span.words,
        req_count: 1,
        req_tag: tag,
        ..DramIn::default()
    }
}
