//! The IDU dispatcher RTL in the harness, one dispatcher cycle per [`RtlDispatcher::step`], on
//! the model's port bundles ([`DispIn`], [`DispOut`]), with short-hands for the cycles the
//! testbenches write most.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::tb::TB_PERIOD_PS;
use rtgpu_hw::idu::model::{DispIn, DispOut, TYPES};
use rtgpu_hw::idu::Dispatcher;
use rust_hdl::core::prelude::*;

/// A cycle that writes the working bit and the limit of cluster `cluster` of type `ty`.
pub fn config(ty: u8, cluster: u8, working: bool, limit: u8) -> DispIn {
    DispIn {
        cfg_we: true,
        cfg_type: ty,
        cfg_cluster: cluster,
        cfg_working: working,
        cfg_limit: limit,
        ..DispIn::default()
    }
}

/// A cycle with the IDU on that presents instruction `tag` of type `ty` while the clusters in
/// `ready` (bit k) can take it.
pub fn present(ty: u8, tag: u8, ready: u8) -> DispIn {
    DispIn {
        enable: true,
        in_valid: true,
        in_type: ty,
        in_tag: tag,
        ready,
        ..DispIn::default()
    }
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
        d.step(&DispIn {
            reset: true,
            ..DispIn::default()
        })?;
        Ok(d)
    }

    /// One cycle.
    pub fn step(&mut self, inp: &DispIn) -> Result<DispOut, HarnessError> {
        self.harness.cycle(|u| apply(u, inp), read)
    }
}

/// Drives the dispatcher's inputs (type and cluster cut to their 2 and 3 bits).
pub fn apply<const K: usize>(u: &mut Dispatcher<K>, i: &DispIn) {
    u.reset.next = i.reset;
    u.cfg_we.next = i.cfg_we;
    u.cfg_type.next = u64::from(i.cfg_type & 3).to_bits();
    u.cfg_cluster.next = u64::from(i.cfg_cluster & 7).to_bits();
    u.cfg_working.next = i.cfg_working;
    u.cfg_limit.next = u64::from(i.cfg_limit).to_bits();
    u.launch.next = i.launch;
    u.stop.next = i.stop;
    u.enable.next = i.enable;
    u.in_valid.next = i.in_valid;
    u.in_type.next = u64::from(i.in_type & 3).to_bits();
    u.in_tag.next = u64::from(i.in_tag).to_bits();
    u.ready.next = u64::from(i.ready).to_bits();
}

/// Reads the dispatcher's outputs.
pub fn read<const K: usize>(u: &Dispatcher<K>) -> DispOut {
    let n = |b: Bits<8>| b.index() as u8;
    let per_type = |a: &[Signal<Out, Bits<8>>; K],
                    b: &[Signal<Out, Bits<8>>; K],
                    c: &[Signal<Out, Bits<8>>; K]| {
        a.iter()
            .chain(b)
            .chain(c)
            .map(|s| n(s.val()))
            .collect::<Vec<u8>>()
    };
    let working = u
        .working_sp
        .iter()
        .chain(&u.working_sfu)
        .chain(&u.working_ldst)
        .enumerate()
        .fold(0u32, |m, (i, w)| m | u32::from(w.val()) << i);
    debug_assert_eq!(TYPES * K, 3 * K);
    DispOut {
        elig: n(u.elig.val()),
        all_full: u.all_full.val(),
        sel: u.sel.val().index() as u8,
        dispatch: u.dispatch.val(),
        stall: u.stall.val(),
        out_tag: n(u.out_tag.val()),
        cnt: per_type(&u.cnt_sp, &u.cnt_sfu, &u.cnt_ldst),
        limit: per_type(&u.limit_sp, &u.limit_sfu, &u.limit_ldst),
        working,
        active: u.active.val(),
    }
}
