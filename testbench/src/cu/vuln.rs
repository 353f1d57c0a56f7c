//! `rtgpu run --vulnerability`: the vulnerable periods of a run, measured on the compute unit
//! by the register observer and estimated by Algorithm 1 (docs/works/thesis.md#ch3).

use rtgpu_firmware::launch::Dims;
use rtgpu_firmware::vuln::estimate::{estimate, Model};
use rtgpu_firmware::vuln::{Tracker, Vulnerability};
use rtgpu_hw::cu::{ComputeUnit, CuConfig};
use serde::Serialize;
use std::collections::BTreeMap;

/// Measured and estimated vulnerable periods of one run, in bit-cycles.
#[derive(Clone, Debug, Serialize)]
pub struct VulnReport {
    /// Measured on the compute unit (exact).
    pub measured: Vulnerability,
    /// Algorithm 1's estimate on the same wavefront paths.
    pub estimated: Vulnerability,
    /// The run's cycles.
    pub cycles: u64,
}

impl VulnReport {
    /// The human-readable lines.
    pub fn text(&self) -> String {
        let (m, e) = (&self.measured, &self.estimated);
        let mut out =
            "vulnerable period (bit-cycles)      measured     estimated (Alg. 1)\n".to_string();
        let rows = [
            ("vgpr", m.vgpr, e.vgpr),
            ("sgpr", m.sgpr, e.sgpr),
            ("vcc", m.vcc, e.vcc),
            ("exec", m.exec, e.exec),
            ("m0", m.m0, e.m0),
            ("scc", m.scc, e.scc),
            ("total", m.total(), e.total()),
        ];
        for (name, a, b) in rows {
            out += &format!("{name:>30} {a:>13} {b:>13}\n");
        }
        let ratio = e.total() as f64 / m.total().max(1) as f64;
        out += &format!("{:>30} {:>27.3}\n", "estimate / measured", ratio);
        out
    }
}

/// Attaches a tracker for `code` and turns the issue log on (Algorithm 1 reads the paths).
pub fn attach(cu: &mut ComputeUnit, code: &[u32]) {
    cu.set_observer(Some(Box::new(Tracker::new(code))));
    cu.issue_log = Some(Vec::new());
}

/// Detaches the tracker and estimates: the report (`None` if none was attached).
pub fn collect(cu: &mut ComputeUnit, code: &[u32], dims: Dims) -> Option<VulnReport> {
    let tracker = cu
        .set_observer(None)?
        .into_any()
        .downcast::<Tracker>()
        .ok()?;
    let log = cu.issue_log.take().unwrap_or_default();
    let mut paths: BTreeMap<u32, Vec<u32>> = BTreeMap::new();
    for r in &log {
        paths.entry(r.wave).or_default().push(r.pc);
    }
    let paths: Vec<Vec<u32>> = paths.into_values().collect();
    let lanes = u64::from(dims.wg.min(64));
    let m = model(cu.config(), dims);
    Some(VulnReport {
        measured: tracker.finish(),
        estimated: estimate(code, &paths, lanes, &m),
        cycles: cu.counters().cycles,
    })
}

/// The latency model of configuration `cfg` for a launch of `dims` (A73).
pub fn model(cfg: &CuConfig, dims: Dims) -> Model {
    let waves = u64::from(dims.grid.div_ceil(64));
    let slots_total = (cfg.n_simd * cfg.n_wfc) as u64;
    let per_simd = waves.min(slots_total).div_ceil(cfg.n_simd as u64).max(1);
    let l = cfg.lat;
    Model {
        n_warp: per_simd,
        issue_period: u64::from(l.issue_period),
        salu: u64::from(l.salu),
        valu: u64::from(l.valu),
        branch: u64::from(l.branch),
        flat: u64::from(l.flat),
        smem: u64::from(l.smem),
        lds: u64::from(l.lds),
        slots: l.flat.max(1) as usize,
    }
}
