//! The IDU dispatcher RTL in the harness, one dispatcher cycle per [`RtlDispatcher::step`].

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::idu::Dispatcher;
use rust_hdl::core::prelude::*;

/// The inputs of one dispatcher cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct In {
    /// Synchronous reset.
    pub reset: bool,
    /// A configuration write: (type, cluster, working, limit).
    pub cfg: Option<(u8, u8, bool, u8)>,
    /// Kernel start.
    pub launch: bool,
    /// Kernel end.
    pub stop: bool,
    /// Distribution on.
    pub enable: bool,
    /// The presented instruction: (type, tag).
    pub instr: Option<(u8, u8)>,
    /// Ready clusters (bit k).
    pub ready: u8,
}

/// The outputs of one dispatcher cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Out {
    /// Eligible clusters.
    pub elig: u8,
    /// All clusters of the type at their limits.
    pub all_full: bool,
    /// The chosen cluster.
    pub sel: u8,
    /// Dispatched this cycle.
    pub dispatch: bool,
    /// Stalled this cycle.
    pub stall: bool,
    /// Counters, index t·K + k.
    pub cnt: Vec<u8>,
}

/// `Dispatcher<K>` in a harness.
pub struct RtlDispatcher<const K: usize> {
    harness: Harness<Dispatcher<K>>,
}

impl<const K: usize> RtlDispatcher<K> {
    /// A dispatcher after one reset cycle.
    pub fn new() -> Result<Self, HarnessError> {
        let mut harness = Harness::new(Dispatcher::<K>::default(), "idu")?;
        let period = Period::ps(TB_PERIOD_PS).map_err(HarnessError::Setup)?;
        harness.add_clock("clock", period, |u| &mut u.clock)?;
        let mut d = Self { harness };
        d.step(&In {
            reset: true,
            ..In::default()
        })?;
        Ok(d)
    }

    /// One cycle.
    pub fn step(&mut self, inp: &In) -> Result<Out, HarnessError> {
        self.harness.cycle(|u| apply(u, inp), read)
    }
}

/// Drives the inputs.
pub fn apply<const K: usize>(u: &mut Dispatcher<K>, inp: &In) {
    u.reset.next = inp.reset;
    let (t, c, w, l) = inp.cfg.unwrap_or_default();
    u.cfg_we.next = inp.cfg.is_some();
    u.cfg_type.next = u64::from(t & 3).to_bits();
    u.cfg_cluster.next = u64::from(c & 7).to_bits();
    u.cfg_working.next = w;
    u.cfg_limit.next = u64::from(l).to_bits();
    u.launch.next = inp.launch;
    u.stop.next = inp.stop;
    u.enable.next = inp.enable;
    let (ty, tag) = inp.instr.unwrap_or_default();
    u.in_valid.next = inp.instr.is_some();
    u.in_type.next = u64::from(ty & 3).to_bits();
    u.in_tag.next = u64::from(tag).to_bits();
    u.ready.next = u64::from(inp.ready).to_bits();
}

/// Reads the outputs.
pub fn read<const K: usize>(u: &Dispatcher<K>) -> Out {
    let n = |b: Bits<8>| b.index() as u8;
    let cnt = u
        .cnt_sp
        .iter()
        .chain(&u.cnt_sfu)
        .chain(&u.cnt_ldst)
        .map(|c| n(c.val()))
        .collect();
    Out {
        elig: n(u.elig.val()),
        all_full: u.all_full.val(),
        sel: u.sel.val().index() as u8,
        dispatch: u.dispatch.val(),
        stall: u.stall.val(),
        cnt,
    }
}
