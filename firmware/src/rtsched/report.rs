//! The text forms of the Fig. 5.4 run and of the evaluation: the schedule in milliseconds,
//! the facts, and per point the deadlines met per class beside the thesis' figures.

use super::eval::{Report, Row};
use super::fig54::Fig54;
use super::policy::Policy;
use std::fmt::Write;

impl Fig54 {
    /// The event log in milliseconds (sub-kernel entries, shares and finishes), then the
    /// facts.
    pub fn text(&self) -> String {
        let mut s = format!(
            "Fig. 5.4 on {} compute units, 1 ms = {} cycles, policy {}\n",
            super::fig54::CUS,
            self.u,
            self.outcome.policy.name()
        );
        for e in self.outcome.events.iter().filter(|e| e.what != "submit") {
            let ms = e.t as f64 / self.u as f64;
            let what = match (&e.sub, e.share) {
                (Some(sub), _) => format!("{sub} size {} on {:?}", e.size.unwrap_or(0), e.cus),
                (None, Some(n)) => format!("share {n}"),
                _ => String::new(),
            };
            let _ = writeln!(s, "{ms:>7.3} ms  {:<7}{:<5} {what}", e.what, e.app);
        }
        for a in &self.outcome.apps {
            let _ = writeln!(
                s,
                "{:<5} finishes at {:.3} ms, deadline {:.3} ms: {}",
                a.name,
                a.finish as f64 / self.u as f64,
                a.deadline as f64 / self.u as f64,
                if a.met { "met" } else { "missed" }
            );
        }
        for f in &self.facts {
            let _ = writeln!(s, "[{}] {}", if f.holds { "ok" } else { "FAILED" }, f.fact);
        }
        s
    }
}

/// The row of `policy` at the same point as `r`.
fn peer<'a>(rows: &'a [Row], r: &Row, policy: Policy) -> Option<&'a Row> {
    rows.iter()
        .find(|x| x.analysis == r.analysis && x.apps == r.apps && x.policy == policy)
}

/// `a / b`, "-" when b is 0.
fn ratio(a: f64, b: f64) -> String {
    if b > 0.0 {
        format!("{:.2}", a / b)
    } else {
        "-".into()
    }
}

impl Report {
    /// Per point and scheduler the deadlines met (all, high, medium, low), the violation,
    /// and ours over each baseline; then the thesis' figures.
    pub fn text(&self) -> String {
        let c = &self.config;
        let mut s = format!(
            "{} compute units, 1 ms = {} cycles, {} random set(s) per point, seed {}\n\
             analysis     apps policy  met  high  med  low  violation(ms)  ours/this\n",
            c.cus, c.u, c.sets, c.seed
        );
        for r in &self.rows {
            let ours = peer(&self.rows, r, Policy::Ours).map_or(0, Row::total);
            let _ = writeln!(
                s,
                "{:<12} {:>4} {:<6} {:>4} {:>2}/{:<3}{:>2}/{:<3}{:>2}/{:<3}{:>13.1}  {}",
                r.analysis,
                r.apps,
                r.policy.name(),
                r.total(),
                r.met[0],
                r.injected[0],
                r.met[1],
                r.injected[1],
                r.met[2],
                r.injected[2],
                r.violation_ms,
                ratio(f64::from(ours), f64::from(r.total()))
            );
        }
        let t = &self.thesis;
        let _ = writeln!(
            s,
            "thesis: up to {:.2}x the applications meeting deadlines of TimeGraph and \
             k-exclusion; up to {:.2}x in the scalability analysis; average violation cut by \
             {:.2} / {:.2} / {:.2} % against TimeGraph / k-exclusion / GPU-EvR; saturation \
             near {} applications",
            t.met_ratio,
            t.scal_ratio,
            t.violation_cut[0],
            t.violation_cut[1],
            t.violation_cut[2],
            t.saturation
        );
        let _ = writeln!(s, "ours: {}", self.summary());
        s
    }

    /// Our counterparts of the thesis' figures: the largest met ratio per analysis against
    /// each baseline, and the violation cut over the whole sweep.
    pub fn summary(&self) -> String {
        let mut s = String::new();
        for analysis in ["deadlines", "scalability"] {
            for base in [Policy::Fifo, Policy::Edf] {
                let best = self
                    .rows
                    .iter()
                    .filter(|r| r.analysis == analysis && r.policy == base)
                    .filter_map(|r| {
                        let ours = peer(&self.rows, r, Policy::Ours)?.total();
                        (r.total() > 0).then(|| f64::from(ours) / f64::from(r.total()))
                    })
                    .fold(f64::NAN, f64::max);
                let _ = write!(s, "{analysis} up to {best:.2}x {}; ", base.name());
            }
        }
        for base in [Policy::Fifo, Policy::Edf] {
            let v = |p: Policy| -> f64 {
                self.rows
                    .iter()
                    .filter(|r| r.analysis == "deadlines" && r.policy == p)
                    .map(|r| r.violation_ms)
                    .sum()
            };
            let cut = 100.0 * (1.0 - v(Policy::Ours) / v(base));
            let _ = write!(s, "violation cut {cut:.1} % vs {}; ", base.name());
        }
        s.trim_end_matches("; ").to_string() + "\n"
    }
}
