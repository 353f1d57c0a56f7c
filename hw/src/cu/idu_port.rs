//! The instruction distribution unit between a SIMD/SpSIMD's issue and its VALU (the
//! thesis' Section 4.3.2, docs/works/thesis.md): the unit's VALU is K lane clusters, each in its
//! own clock domain (period from the launch registers, programmed by the driver from the host
//! algorithms), each with a one-entry input latch and a pipeline of `depth` stages with initiation
//! interval `ii` (cluster cycles). The dispatcher is the IDU block's reference model
//! ([`crate::idu::model::DispatcherModel`], checked against the RTL `Dispatcher` in its own
//! tests), clocked by the core clock, all instructions of type SP (0).
//!
//! Timing, as the IDU contract's "clusters" section says: the dispatcher's edge at the end of
//! core cycle c (time `T = (c + 1) · core_ps`) latches the instruction into cluster `sel`; it
//! enters stage 0 at the cluster's first rising edge strictly after T at which `ii` edges have
//! passed since the previous accept (the latch empties then); it retires `depth` cluster
//! edges later, and its result may be used from the first core cycle starting at or after
//! the retirement. `ready[k]` at a dispatcher edge: the latch is empty at that time (cluster
//! edges at the same picosecond come first). A cluster that is not working is never ready.

use crate::block::{BlockFault, DynBlock};
use crate::idu::model::{DispIn, DispOut, MAX_K};

/// The IDU of a launch (from the launch registers).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct IduLaunch {
    /// IDU distribution (`enable` = 1) or the stock dispatcher (first ready cluster).
    pub enable: bool,
    /// Per cluster: working, limit, clock period (ps).
    pub clusters: [(bool, u8, u32); MAX_K],
}

/// The clusters' pipeline shape (hardware, from the configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct IduShape {
    /// VALU pipeline stages of a cluster (≥ 1).
    pub depth: u32,
    /// Initiation interval in cluster cycles (≥ 1).
    pub ii: u32,
}

impl Default for IduShape {
    /// Two stages, a new instruction every cluster cycle: at 1 GHz a result is ready 4 core
    /// cycles after issue, as with the fixed `lat.valu`.
    fn default() -> Self {
        IduShape { depth: 2, ii: 1 }
    }
}

/// One cluster's clock and state.
#[derive(Clone, Copy, Debug, Default)]
struct Cluster {
    working: bool,
    period: u64,
    /// The edge number of the last accept.
    last_accept: Option<u64>,
    /// Time (ps) at which the latch empties.
    latch_free_at: u64,
}

/// One unit's IDU and clusters.
pub struct ValuIdu {
    /// The dispatcher (the IDU block, core clock), over [`MAX_K`] clusters.
    disp: DynBlock<DispIn, DispOut>,
    clusters: [Cluster; MAX_K],
    enable: bool,
    shape: IduShape,
    core_ps: u64,
    /// Instructions latched into each cluster.
    pub dispatched: [u64; MAX_K],
    /// The last dispatch: (core cycle, cluster), for waveforms.
    pub last: Option<(u64, usize)>,
}

impl ValuIdu {
    /// The IDU programmed for launch `l` (reset, one configuration write per cluster,
    /// `launch`), with clusters of `shape` against a core clock of `core_ps`.
    pub fn new(
        mut disp: DynBlock<DispIn, DispOut>,
        l: &IduLaunch,
        shape: IduShape,
        core_ps: u64,
    ) -> Self {
        disp.step(&DispIn {
            reset: true,
            ..DispIn::default()
        });
        let mut clusters = [Cluster::default(); MAX_K];
        for (k, &(working, limit, period)) in l.clusters.iter().enumerate() {
            let working = working && period > 0;
            disp.step(&DispIn {
                cfg_we: true,
                cfg_cluster: k as u8,
                cfg_working: working,
                cfg_limit: limit,
                ..DispIn::default()
            });
            clusters[k] = Cluster {
                working,
                period: u64::from(period.max(1)),
                ..Cluster::default()
            };
        }
        disp.step(&DispIn {
            launch: true,
            ..DispIn::default()
        });
        ValuIdu {
            disp,
            clusters,
            enable: l.enable,
            shape,
            core_ps,
            dispatched: [0; MAX_K],
            last: None,
        }
    }

    /// The dispatcher's inputs in core cycle `now` with an instruction presented.
    fn inputs(&self, now: u64) -> DispIn {
        let t = (now + 1) * self.core_ps;
        let ready = (0..MAX_K)
            .filter(|&k| self.clusters[k].working && self.clusters[k].latch_free_at <= t)
            .fold(0u8, |m, k| m | 1 << k);
        DispIn {
            enable: self.enable,
            in_valid: true,
            ready,
            ..DispIn::default()
        }
    }

    /// The dispatcher's first lock-step fault.
    pub fn check(&self) -> Result<(), Box<BlockFault>> {
        self.disp.check()
    }

    /// A VALU instruction presented in cycle `now` would be dispatched.
    pub fn can_dispatch(&self, now: u64) -> bool {
        self.disp.outputs(&self.inputs(now)).dispatch
    }

    /// Dispatches the instruction presented in cycle `now`; returns the cluster and the first
    /// core cycle its result may be used (`None`: nothing was dispatched).
    pub fn dispatch(&mut self, now: u64) -> Option<(usize, u64)> {
        let o = self.disp.cycle(&self.inputs(now));
        if !o.dispatch {
            return None;
        }
        let k = usize::from(o.sel);
        self.dispatched[k] += 1;
        self.last = Some((now, k));
        let c = &mut self.clusters[k];
        let t = (now + 1) * self.core_ps;
        let mut edge = t / c.period + 1;
        if let Some(a) = c.last_accept {
            edge = edge.max(a + u64::from(self.shape.ii));
        }
        c.last_accept = Some(edge);
        c.latch_free_at = edge * c.period;
        let retire = (edge + u64::from(self.shape.depth)) * c.period;
        Some((k, retire.div_ceil(self.core_ps)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn launch(enable: bool, clusters: &[(bool, u8, u32)]) -> IduLaunch {
        let mut l = IduLaunch {
            enable,
            ..IduLaunch::default()
        };
        l.clusters[..clusters.len()].copy_from_slice(clusters);
        l
    }

    #[test]
    fn at_the_core_clock_a_result_takes_four_cycles_and_the_ratio_holds() {
        let l = launch(true, &[(true, 2, 1000), (true, 1, 1000)]);
        let mut idu = ValuIdu::new(
            Box::new(crate::idu::model::DispatcherModel::new(MAX_K)),
            &l,
            IduShape::default(),
            1000,
        );
        // Cycle 0: latched at 1000 ps, enters at 2000, retires at 4000: usable in cycle 4.
        assert_eq!(idu.dispatch(0), Some((0, 4)));
        // The ratio 2:1 over three dispatches in consecutive cycles: 0, 0, 1 would need
        // cluster 0's latch free; it frees at 2000, so cycle 1 (edge 2000) may use it.
        assert!(idu.can_dispatch(1));
        idu.dispatch(1);
        idu.dispatch(2);
        assert_eq!(idu.dispatched[..2], [2, 1]);
    }

    #[test]
    fn a_slow_cluster_retires_later_and_gated_clusters_get_nothing() {
        let l = launch(true, &[(false, 0, 0), (true, 1, 2500)]);
        let mut idu = ValuIdu::new(
            Box::new(crate::idu::model::DispatcherModel::new(MAX_K)),
            &l,
            IduShape::default(),
            1000,
        );
        // Latched at 1000; cluster edges at 2500, 5000, …: enters 2500, retires 7500 → 8.
        assert_eq!(idu.dispatch(0), Some((1, 8)));
        // Its latch frees at 2500: not ready for the edge at 2000 (cycle 1), ready at 3000.
        assert!(!idu.can_dispatch(1));
        assert!(idu.can_dispatch(2));
        assert_eq!(idu.dispatched[0], 0);
    }

    #[test]
    fn the_stock_dispatcher_ignores_limits_and_takes_the_first_ready_cluster() {
        let l = launch(false, &[(true, 1, 1000), (true, 1, 1000)]);
        let mut idu = ValuIdu::new(
            Box::new(crate::idu::model::DispatcherModel::new(MAX_K)),
            &l,
            IduShape { depth: 2, ii: 2 },
            1000,
        );
        for now in 0..6 {
            idu.dispatch(now);
        }
        // ii = 2: cluster 0 accepts every other edge, so cluster 1 takes the rest.
        assert!(
            idu.dispatched[0] >= 3 && idu.dispatched[1] >= 1,
            "{:?}",
            idu.dispatched
        );
    }
}
