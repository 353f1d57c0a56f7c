//! Scripts of the unit's ports from warp traces: an access ([`Acc`]), a warp on its slot
//! with its trace ([`Warp`]: its configuration for [`config_writes`] and its requests), idle
//! cycles and placing a request on a cycle of a script. Built on [`entry`] and [`request`];
//! the model's unit tests and the RTL tests script the unit with them.

#[cfg(doc)]
use super::config_writes;
use super::{entry, request, ReorderIn, WarpConfig};

/// One access of a test trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Acc {
    /// Index of the PC.
    pub pc_idx: u8,
    /// Barriers passed before it.
    pub epoch: u8,
    /// Earlier instances of the same PC.
    pub k: u16,
    /// A store.
    pub store: bool,
}

/// An access with its epoch and k.
pub fn acc(pc_idx: u8, epoch: u8, k: u16, store: bool) -> Acc {
    Acc {
        pc_idx,
        epoch,
        k,
        store,
    }
}

/// One static warp of a test and the slot it runs on.
#[derive(Clone, Debug)]
pub struct Warp {
    /// Runtime slot.
    pub slot: u8,
    /// Block ID.
    pub block: u8,
    /// Warp index.
    pub warp: u8,
    /// Wave.
    pub wave: u8,
    /// Trace, in program order.
    pub accs: Vec<Acc>,
}

impl Warp {
    /// Its configuration for `config_writes`.
    pub fn config(&self) -> WarpConfig {
        let entries = self
            .accs
            .iter()
            .map(|a| entry(a.pc_idx, a.epoch, a.k))
            .collect();
        (self.slot, self.block, self.warp, self.wave, entries)
    }

    /// The request of its access `index` (`seq` and `tag` = `index`).
    pub fn request(&self, index: usize) -> ReorderIn {
        let a = self.accs[index];
        request(self.slot, index as u8, a.pc_idx, a.store, index as u8)
    }
}

/// `n` idle cycles with `rel_ready` and the given rule and search mode.
pub fn idle(n: usize, rule: u8, parallel: bool) -> Vec<ReorderIn> {
    let i = ReorderIn {
        rule,
        parallel,
        rel_ready: true,
        ..ReorderIn::default()
    };
    vec![i; n]
}

/// Puts the request `r` on cycle `c` of `inputs`.
pub fn put(inputs: &mut [ReorderIn], c: usize, r: ReorderIn) {
    let i = &mut inputs[c];
    (i.req_valid, i.req_slot, i.req_seq) = (true, r.req_slot, r.req_seq);
    (i.req_pc_idx, i.req_store, i.req_tag) = (r.req_pc_idx, r.req_store, r.req_tag);
}
