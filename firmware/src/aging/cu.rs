//! The host side of the compute unit's IDU: the VALU lane clusters of a chip,
//! programmed for a launch by the thesis' host flow (Algorithm 3 cluster formation,
//! Algorithm 4 distribution ratio, the thesis' Section 4.3) on a fresh chip of the default
//! experiment's process-variation map.

use super::experiment::{policy_plan, step_workload, Distribution, ExperimentConfig};
use super::model::SECONDS_PER_YEAR;
use super::{AgingError, AgingState, CoreType, PvMap};
use rtgpu_hw::cu::IduLaunch;
use rtgpu_hw::idu::model::MAX_K;

/// The SP clusters' working bits, limits and clock periods for the compute unit's IDU, from
/// the host flow under `policy` on the chip of PV map `seed` (fresh): `Orig` gives the stock
/// dispatcher (`enable` = 0), `Even` and `Idu` the IDU with their limits.
pub fn valu_clusters(seed: u64, policy: Distribution) -> Result<IduLaunch, AgingError> {
    let cfg = ExperimentConfig::default();
    let pv = PvMap::generate(cfg.pv, seed)?;
    let state = AgingState::fresh(pv.params.geometry.total_cores());
    let step_s = SECONDS_PER_YEAR / f64::from(cfg.steps_per_year.max(1));
    let workload = step_workload(&cfg, step_s);
    let plan = policy_plan(&cfg, &pv, &state, &workload, policy)?;
    let sp = &plan.program.types[CoreType::Sp.index()];
    let mut l = IduLaunch {
        enable: policy != Distribution::Orig,
        ..IduLaunch::default()
    };
    for k in 0..sp.working.len().min(MAX_K) {
        let period = u32::try_from(sp.period_ps[k]).unwrap_or(u32::MAX);
        l.clusters[k] = (sp.working[k], sp.limits[k], period);
    }
    Ok(l)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_flow_gives_clocked_working_clusters_with_limits() {
        for policy in Distribution::ALL {
            let l = valu_clusters(1, policy).unwrap();
            let working: Vec<_> = l.clusters.iter().filter(|c| c.0).collect();
            assert!(!working.is_empty(), "{policy:?}");
            assert!(
                working.iter().all(|c| c.1 >= 1 && c.2 > 0),
                "{policy:?}: {l:?}"
            );
            assert_eq!(l.enable, policy != Distribution::Orig);
        }
    }
}
