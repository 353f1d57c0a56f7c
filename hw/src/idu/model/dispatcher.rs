//! The IDU's dispatcher model, cycle-accurate on its own clock: its port bundles
//! ([`DispIn`], [`DispOut`]) and [`DispatcherModel`].

use super::{CLUSTER_BITS, MAX_K, TYPES, TYPE_BITS};

/// Inputs of one dispatcher cycle, sampled at the rising edge that ends it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DispIn {
    /// Synchronous reset: every counter, limit and working bit 0, not active.
    pub reset: bool,
    /// Configuration write enable.
    pub cfg_we: bool,
    /// Type of the configuration write (2 bits; 3 is ignored).
    pub cfg_type: u8,
    /// Cluster of the configuration write (3 bits; K and above are ignored).
    pub cfg_cluster: u8,
    /// Working bit written by the configuration write.
    pub cfg_working: bool,
    /// Limit written by the configuration write.
    pub cfg_limit: u8,
    /// The kernel starts: every counter 0, active 1.
    pub launch: bool,
    /// The kernel ended: active 0 (counters keep their values).
    pub stop: bool,
    /// 1 = IDU distribution, 0 = stock dispatcher (first available working, ready cluster).
    pub enable: bool,
    /// The warp scheduler presents an instruction.
    pub in_valid: bool,
    /// Type of the presented instruction (2 bits; 3 dispatches nothing).
    pub in_type: u8,
    /// Tag of the presented instruction.
    pub in_tag: u8,
    /// Bit k: cluster k (of type `in_type`) has an empty input latch.
    pub ready: u8,
}

/// Outputs of one dispatcher cycle (combinational from the registers and the inputs).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispOut {
    /// Bit k: cluster k is eligible for the presented instruction.
    pub elig: u8,
    /// Every cluster of type `in_type` is full (not working or at its limit); 0 for type 3.
    pub all_full: bool,
    /// The lowest eligible cluster (0 when none).
    pub sel: u8,
    /// The instruction is latched into cluster `sel` at the edge.
    pub dispatch: bool,
    /// The instruction is presented but not dispatched.
    pub stall: bool,
    /// `in_tag`: the instruction to latch into cluster `sel` when `dispatch`.
    pub out_tag: u8,
    /// Counter of (type t, cluster k) at index t·K + k.
    pub cnt: Vec<u8>,
    /// Limit of (type t, cluster k) at index t·K + k.
    pub limit: Vec<u8>,
    /// Bit t·K + k: (type t, cluster k) is working.
    pub working: u32,
    /// A kernel is running.
    pub active: bool,
}

/// The dispatcher of the contract: K clusters per type, [`TYPES`] types.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DispatcherModel {
    /// Clusters per type (1..=8).
    k: usize,
    /// Distribution counters, `[type][cluster]`.
    cnt: [[u8; MAX_K]; TYPES],
    /// Limits, `[type][cluster]`.
    limit: [[u8; MAX_K]; TYPES],
    /// Working bits, `[type][cluster]`.
    working: [[bool; MAX_K]; TYPES],
    /// A kernel is running.
    active: bool,
}

impl DispatcherModel {
    /// A dispatcher with `k` clusters per type (1..=8), in its reset state.
    pub fn new(k: usize) -> Self {
        assert!((1..=MAX_K).contains(&k), "K must be 1..=8, got {k}");
        DispatcherModel {
            k,
            cnt: [[0; MAX_K]; TYPES],
            limit: [[0; MAX_K]; TYPES],
            working: [[false; MAX_K]; TYPES],
            active: false,
        }
    }

    /// Clusters per type.
    pub fn k(&self) -> usize {
        self.k
    }

    /// The outputs during the current cycle, for the cycle's inputs `i`.
    pub fn outputs(&self, i: &DispIn) -> DispOut {
        let t = usize::from(i.in_type & TYPE_BITS);
        let (elig, all_full) = if t < TYPES {
            self.eligibility(t, i.ready, i.enable)
        } else {
            (0, false)
        };
        let sel = if elig == 0 {
            0
        } else {
            elig.trailing_zeros() as u8
        };
        let dispatch = i.in_valid && self.active && elig != 0;
        let (cnt, limit, working) = self.registers();
        DispOut {
            elig,
            all_full,
            sel,
            dispatch,
            stall: i.in_valid && !dispatch,
            out_tag: i.in_tag,
            cnt,
            limit,
            working,
            active: self.active,
        }
    }

    /// The outputs of the current cycle, then the rising edge that ends it.
    pub fn step(&mut self, i: &DispIn) -> DispOut {
        let out = self.outputs(i);
        self.edge(i, &out);
        out
    }

    /// `(elig, all_full)` of the contract's equations for type `t` (< [`TYPES`]).
    fn eligibility(&self, t: usize, ready: u8, enable: bool) -> (u8, bool) {
        let (cnt, limit, working) = (&self.cnt[t], &self.limit[t], &self.working[t]);
        let all_full = (0..self.k).all(|k| !working[k] || cnt[k] >= limit[k]);
        let elig = (0..self.k)
            .filter(|&k| {
                let quota_ok = all_full || cnt[k] < limit[k];
                working[k] && (ready >> k) & 1 == 1 && (quota_ok || !enable)
            })
            .fold(0u8, |m, k| m | (1 << k));
        (elig, all_full)
    }

    /// The register outputs `cnt`, `limit` (index t·K + k) and `working` (bit t·K + k).
    fn registers(&self) -> (Vec<u8>, Vec<u8>, u32) {
        let mut cnt = Vec::with_capacity(TYPES * self.k);
        let mut limit = Vec::with_capacity(TYPES * self.k);
        let mut working = 0u32;
        for t in 0..TYPES {
            for k in 0..self.k {
                cnt.push(self.cnt[t][k]);
                limit.push(self.limit[t][k]);
                working |= u32::from(self.working[t][k]) << (t * self.k + k);
            }
        }
        (cnt, limit, working)
    }

    /// The rising edge that ends the cycle with inputs `i` and outputs `out`.
    fn edge(&mut self, i: &DispIn, out: &DispOut) {
        if i.reset {
            *self = DispatcherModel::new(self.k);
            return;
        }
        if i.launch {
            self.cnt = [[0; MAX_K]; TYPES];
            self.active = true;
            return;
        }
        self.config_write(i);
        if out.dispatch && i.enable {
            self.count(usize::from(i.in_type & TYPE_BITS), out);
        }
        if i.stop {
            self.active = false;
        }
    }

    /// The configuration write of the cycle, if any and allowed.
    fn config_write(&mut self, i: &DispIn) {
        let t = usize::from(i.cfg_type & TYPE_BITS);
        let k = usize::from(i.cfg_cluster & CLUSTER_BITS);
        if i.cfg_we && !self.active && t < TYPES && k < self.k {
            self.working[t][k] = i.cfg_working;
            self.limit[t][k] = i.cfg_limit;
        }
    }

    /// The counter update of an IDU dispatch of type `t` (lazy reset when `all_full`).
    fn count(&mut self, t: usize, out: &DispOut) {
        for k in 0..self.k {
            let base = if out.all_full { 0 } else { self.cnt[t][k] };
            self.cnt[t][k] = base.wrapping_add(u8::from(k == usize::from(out.sel)));
        }
    }
}

crate::ports!(DispIn {
    reset,
    cfg_we,
    cfg_type,
    cfg_cluster,
    cfg_working,
    cfg_limit,
    launch,
    stop,
    enable,
    in_valid,
    in_type,
    in_tag,
    ready
});
crate::ports!(DispOut {
    elig,
    all_full,
    sel,
    dispatch,
    stall,
    out_tag,
    cnt,
    limit,
    working,
    active
});

impl crate::block::Clocked for DispatcherModel {
    type In = DispIn;
    type Out = DispOut;

    fn outputs(&self, input: &DispIn) -> DispOut {
        DispatcherModel::outputs(self, input)
    }

    fn step(&mut self, input: &DispIn) {
        DispatcherModel::step(self, input);
    }

    fn cycle(&mut self, input: &DispIn) -> DispOut {
        DispatcherModel::step(self, input)
    }
}
