//! Reference model of the path: [`PathModel`] steps the reordering unit's, the coalescer's and
//! the L1's reference models in the order the wiring of the contract (`super`) implies.

use crate::block::ports::join;
use crate::block::{Clocked, Ports, Visit};
use crate::cache::model::{
    CacheIn, CacheModel, CacheOut, CoalescerIn, CoalescerModel, CoalescerOut, LANES,
};
use crate::reorder::model::{ReorderIn, ReorderModel, ReorderOut};

/// Inputs of one cycle of the path.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PathIn {
    /// The reordering unit's inputs (`reset` resets the whole path; `rel_ready` is ignored,
    /// the coalescer drives it).
    pub reorder: ReorderIn,
    /// The access buffer's lane addresses for the released instruction.
    pub rel_addr: [u32; LANES],
    /// Its active lanes.
    pub rel_mask: u32,
    /// A fill from memory: its line.
    pub fill: Option<u32>,
}

/// Outputs of one cycle of the path.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PathOut {
    /// The reordering unit's outputs.
    pub reorder: ReorderOut,
    /// The coalescer's outputs.
    pub coal: CoalescerOut,
    /// The L1's outputs.
    pub l1: CacheOut,
    /// The L1 access is a store (the store register).
    pub l1_store: bool,
}

impl PathOut {
    /// The L1 takes the coalescer's line at this edge.
    pub fn line_taken(&self) -> bool {
        self.coal.line_valid && self.l1.req_ready
    }

    /// The coalescer takes the released instruction at this edge.
    pub fn released(&self) -> bool {
        self.reorder.rel_valid && !self.coal.busy
    }
}

/// The three reference models wired as the contract says.
#[derive(Clone, Debug)]
pub struct PathModel {
    /// The reordering unit.
    pub reorder: ReorderModel,
    /// The coalescer.
    pub coal: CoalescerModel<LANES>,
    /// The L1.
    pub l1: CacheModel,
    /// The store register.
    store: bool,
}

impl PathModel {
    /// A path of `w` slots, `d` entries per channel, `t` trace entries per slot, an L1 of
    /// `sets` × `ways`, in its reset state.
    pub fn new(w: usize, d: usize, t: usize, sets: usize, ways: usize) -> Result<Self, String> {
        Ok(PathModel {
            reorder: ReorderModel::new(w, d, t)?,
            coal: CoalescerModel::new(),
            l1: CacheModel::new(sets, ways)?,
            store: false,
        })
    }

    /// The outputs during the current cycle, then the edge (the [`Clocked::cycle`] of the
    /// path, each unit stepped once).
    pub fn step(&mut self, i: &PathIn) -> PathOut {
        let reset = i.reorder.reset;
        let coal = self.coal.outputs(&CoalescerIn::default());
        let l1 = self.l1.step(&self.l1_in(i, &coal));
        let rel_ready = !coal.busy;
        let reorder = self.reorder.step(&ReorderIn {
            rel_ready,
            ..i.reorder
        });
        let load = reorder.rel_valid && rel_ready;
        self.coal.step(&CoalescerIn {
            reset,
            load,
            addr: i.rel_addr,
            mask: u64::from(i.rel_mask),
            size: 0,
            next: l1.req_ready,
        });
        let l1_store = self.store;
        if reset {
            self.store = false;
        } else if load {
            self.store = reorder.rel_store;
        }
        PathOut {
            reorder,
            coal,
            l1,
            l1_store,
        }
    }

    /// The L1's inputs: the coalescer's current line with the store register, and the fill.
    fn l1_in(&self, i: &PathIn, coal: &CoalescerOut) -> CacheIn {
        CacheIn {
            reset: i.reorder.reset,
            req_valid: coal.line_valid,
            req_line: coal.line,
            req_store: self.store,
            mem_fill: i.fill.is_some(),
            mem_fill_line: i.fill.unwrap_or(0),
        }
    }
}

impl Clocked for PathModel {
    type In = PathIn;
    type Out = PathOut;

    fn outputs(&self, i: &PathIn) -> PathOut {
        let coal = self.coal.outputs(&CoalescerIn::default());
        let l1 = self.l1.outputs(&self.l1_in(i, &coal));
        let reorder = self.reorder.outputs(&ReorderIn {
            rel_ready: !coal.busy,
            ..i.reorder
        });
        PathOut {
            reorder,
            coal,
            l1,
            l1_store: self.store,
        }
    }

    fn step(&mut self, i: &PathIn) {
        PathModel::step(self, i);
    }

    fn cycle(&mut self, i: &PathIn) -> PathOut {
        PathModel::step(self, i)
    }
}

/// The ports as the RTL names them: the fill is `mem_fill` and `mem_fill_line`.
impl Ports for PathIn {
    fn visit(&self, prefix: &str, v: Visit) {
        self.reorder.visit(&join(prefix, "reorder"), v);
        self.rel_addr.visit(&join(prefix, "rel_addr"), v);
        self.rel_mask.visit(&join(prefix, "rel_mask"), v);
        self.fill.is_some().visit(&join(prefix, "mem_fill"), v);
        self.fill
            .unwrap_or(0)
            .visit(&join(prefix, "mem_fill_line"), v);
    }
}

crate::ports!(PathOut {
    reorder,
    coal,
    l1,
    l1_store
});
