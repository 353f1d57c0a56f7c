//! Sim-D's access resource: tile transfers go, one at a time and in arrival order, through a
//! dual-clock FIFO to the Sim-D DRAM controller (its stride sequencer turns each into bursts)
//! and their completions come back through a second crossing. No cache is on this path.
//!
//! An *access phase* is the interval from the cycle a transfer enters the crossing to the core
//! cycle its completion leaves the crossing back; the next transfer enters only then, so access
//! phases never overlap (the access resource is held for the whole phase).

use std::collections::VecDeque;

use super::tile::TileDesc;
use crate::block::{BlockFault, DynBlock};
use crate::dram::model::{DramIn, DramOut};
use crate::dram::Command;
use crate::memsys::cdc::{CdcFifo, Clock};
use crate::memsys::MemConfig;

/// A transfer waiting for, or holding, the access resource.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transfer {
    /// The resident work-group (slot) it belongs to.
    pub slot: usize,
    /// The tile.
    pub desc: TileDesc,
}

/// What the access resource counted.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, serde::Serialize)]
pub struct AccessCounters {
    /// DRAM command-clock cycles.
    pub dram_cycles: u64,
    /// Tile requests completed.
    pub requests: u64,
    /// Sum of their LIDs (DRAM cycles, `done_lid`).
    pub lid_sum: u64,
    /// Largest LID.
    pub lid_max: u32,
    /// DRAM cycles with data on the bus.
    pub dq_cycles: u64,
    /// REF commands.
    pub refreshes: u64,
    /// Bytes moved.
    pub bytes: u64,
}

/// The access resource: a queue, the crossings and the DRAM controller.
pub struct AccessUnit {
    dram: DynBlock<DramIn, DramOut>,
    core: Clock,
    dram_clk: Clock,
    /// Core cycle 0 of the launch (the DRAM clock's first edge is one period after it).
    origin: u64,
    next_edge: u64,
    to_dram: CdcFifo<TileDesc>,
    from_dram: CdcFifo<()>,
    /// Transfers waiting for the resource, in arrival order.
    queue: VecDeque<Transfer>,
    /// The transfer holding the resource.
    current: Option<Transfer>,
    /// The DRAM side has accepted the current transfer's request.
    accepted: bool,
    /// Every DRAM command: (DRAM cycle, outputs), when recording.
    pub trace: Option<Vec<(u64, DramOut)>>,
    /// The counters.
    pub counters: AccessCounters,
}

impl AccessUnit {
    /// The resource for memory configuration `cfg` around controller `dram` (after reset),
    /// starting at core cycle `origin`.
    pub fn new(dram: DynBlock<DramIn, DramOut>, cfg: &MemConfig, origin: u64) -> Self {
        let core = Clock {
            period: u64::from(cfg.core_ps),
        };
        let dram_clk = Clock {
            period: u64::from(cfg.dram_part.part().tck_ps),
        };
        let stages = u64::from(cfg.cdc_stages);
        AccessUnit {
            dram,
            core,
            dram_clk,
            origin,
            next_edge: dram_clk.period,
            to_dram: CdcFifo::new(cfg.cdc_depth, stages, core, dram_clk),
            from_dram: CdcFifo::new(cfg.cdc_depth, stages, dram_clk, core),
            queue: VecDeque::new(),
            current: None,
            accepted: false,
            trace: None,
            counters: AccessCounters::default(),
        }
    }

    /// Queues a transfer for the resource.
    pub fn submit(&mut self, t: Transfer) {
        self.queue.push_back(t);
    }

    /// No transfer queued or in progress.
    pub fn idle(&self) -> bool {
        self.current.is_none() && self.queue.is_empty()
    }

    /// The slot whose transfer holds the resource.
    pub fn holder(&self) -> Option<usize> {
        self.current.map(|t| t.slot)
    }

    /// The controller's first lock-step fault.
    pub fn check(&self) -> Result<(), Box<BlockFault>> {
        self.dram.check()
    }

    /// Core cycle `now`: the DRAM edges up to its end, then the core side. Returns the
    /// transfer whose completion arrived (its access phase ends in this cycle) and whether a
    /// queued transfer took the resource (its phase starts in this cycle).
    pub fn step(&mut self, now: u64) -> Result<(Option<Transfer>, bool), &'static str> {
        let edge = (now - self.origin + 1) * self.core.period;
        while self.next_edge <= edge {
            let t = self.next_edge;
            self.dram_edge(t)?;
            self.next_edge += self.dram_clk.period;
        }
        let done = match self.from_dram.pop(edge) {
            Some(()) => self.current.take(),
            None => None,
        };
        let mut started = false;
        if self.current.is_none() && self.to_dram.can_push(edge) {
            if let Some(t) = self.queue.pop_front() {
                self.to_dram.push(edge, t.desc);
                self.current = Some(t);
                self.accepted = false;
                started = true;
            }
        }
        Ok((done, started))
    }

    /// One DRAM command-clock cycle ending at the edge at `t` (ps).
    fn dram_edge(&mut self, t: u64) -> Result<(), &'static str> {
        let ready = self.dram.outputs(&DramIn::default()).req_ready;
        let req = self.to_dram.peek(t).copied().filter(|_| ready);
        let inp = req.map_or_else(DramIn::default, |d| d.request(0));
        let out = self.dram.cycle(&inp);
        let cycle = self.counters.dram_cycles;
        self.counters.dram_cycles += 1;
        if let Some(d) = req {
            self.to_dram.pop(t);
            self.accepted = true;
            self.counters.bytes += d.bytes();
        }
        self.observe(cycle, &out);
        if out.done {
            if out.done_error {
                return Err("the DRAM controller refused a tile request");
            }
            self.counters.requests += 1;
            self.counters.lid_sum += u64::from(out.done_lid);
            self.counters.lid_max = self.counters.lid_max.max(out.done_lid);
            if !self.from_dram.can_push(t) {
                return Err("the completion crossing overflowed");
            }
            self.from_dram.push(t, ());
        }
        Ok(())
    }

    fn observe(&mut self, cycle: u64, out: &DramOut) {
        if out.dq_valid {
            self.counters.dq_cycles += 1;
        }
        if out.cmd == Command::Nop {
            return;
        }
        if out.cmd == Command::Ref {
            self.counters.refreshes += 1;
        }
        if let Some(tr) = &mut self.trace {
            tr.push((cycle, *out));
        }
    }
}
