//! The system part of the compute unit's waveform: the reordering unit, the L1, the
//! miss queue and the two clock-domain crossings, the DRAM command bus in its own clock
//! (sampled at every DRAM cycle, 625 ps at 3200), and per SIMD/SpSIMD the IDU's dispatches.

use crate::sim::waves::{named, Format, Gtkw};
use rtgpu_hw::cu::ComputeUnit;
use rtgpu_hw::dram::model::DramOut;
use rtgpu_hw::dram::Command;

/// Core-clock variables: (scope, name, width).
const CORE_VARS: [(&str, &str, usize); 14] = [
    ("reorder", "state", 3),
    ("reorder", "target", 6),
    ("reorder", "rel", 1),
    ("reorder", "rel_slot", 6),
    ("reorder", "rel_tag", 8),
    ("l1", "take", 1),
    ("l1", "line", 25),
    ("l1", "store", 1),
    ("l1", "hit", 1),
    ("l1", "fill", 1),
    ("l1", "fill_line", 25),
    ("queues", "miss_queue", 8),
    ("queues", "to_dram", 8),
    ("queues", "from_dram", 8),
];

/// DRAM-clock variables.
const DRAM_VARS: [(&str, usize); 8] = [
    ("cmd", 3),
    ("bg", 2),
    ("bank", 4),
    ("row", 17),
    ("col", 10),
    ("dq_valid", 1),
    ("done", 1),
    ("ref_owed", 4),
];

/// Where the system variables sit in the probe's value vector.
#[derive(Clone, Debug)]
pub struct SysProbe {
    /// Index of the first core-clock variable.
    base: usize,
    /// SIMD/SpSIMD units (group, unit) with an IDU variable each.
    units: Vec<(usize, usize)>,
    /// Record the memory hierarchy's variables.
    mem: bool,
}

impl SysProbe {
    /// The variables for a compute unit with these units, from index `base` on: the
    /// hierarchy's (when `mem`) and one IDU variable per unit (when `idu`).
    pub fn new(
        base: usize,
        units: &[(usize, usize)],
        mem: bool,
        idu: bool,
    ) -> (Self, Vec<(Vec<String>, String, usize)>) {
        let mut vars = Vec::new();
        if mem {
            for (scope, name, w) in CORE_VARS {
                vars.push((
                    vec!["cu".into(), "mem".into(), scope.into()],
                    name.into(),
                    w,
                ));
            }
            for (name, w) in DRAM_VARS {
                vars.push((vec!["cu".into(), "dram".into()], name.into(), w));
            }
        }
        let units = if idu { units.to_vec() } else { Vec::new() };
        for &(g, u) in &units {
            vars.push((
                vec!["cu".into(), "idu".into(), format!("g{g}")],
                unit_name(u),
                4,
            ));
        }
        (Self { base, units, mem }, vars)
    }

    /// Appends the core-clock values of the cycle just stepped (`cycle`) and the DRAM bus
    /// as it stood at the end of it.
    pub fn core_values(&self, cu: &ComputeUnit, cycle: u64, out: &mut Vec<u64>) {
        if self.mem {
            match cu.mem_sys() {
                Some(m) => {
                    let s = &m.last;
                    let (rel, slot, tag) = s.reorder.2.map_or((0, 0, 0), |(a, b)| (1, a, b));
                    let (take, line, store, hit) = s.l1.map_or((0, 0, 0, 0), |(l, st, h)| {
                        (1, l, u64::from(st), u64::from(h))
                    });
                    out.extend([
                        u64::from(s.reorder.0),
                        u64::from(s.reorder.1),
                        rel,
                        u64::from(slot),
                        u64::from(tag),
                        take,
                        u64::from(line),
                        store,
                        hit,
                        u64::from(s.fill.is_some()),
                        u64::from(s.fill.unwrap_or(0)),
                        s.queues.0 as u64,
                        s.queues.1 as u64,
                        s.queues.2 as u64,
                    ]);
                    out.extend(dram_values(&s.dram));
                }
                None => out.extend([0; CORE_VARS.len() + DRAM_VARS.len()]),
            }
        }
        for &(g, u) in &self.units {
            let last = cu
                .groups()
                .get(g)
                .and_then(|grp| grp.units.get(u))
                .and_then(|x| x.idu.as_ref())
                .and_then(|i| i.last);
            out.push(last.filter(|l| l.0 == cycle).map_or(0, |l| l.1 as u64 + 1));
        }
    }

    /// The DRAM cycles of the last core cycle into `out`: (start time in ps, values); where
    /// the DRAM variables sit.
    pub fn dram_cycles(&self, cu: &ComputeUnit, out: &mut Vec<(u64, [u64; 8])>) -> usize {
        out.clear();
        let at = self.base + CORE_VARS.len();
        if let Some(m) = cu.mem_sys().filter(|_| self.mem) {
            let tck = m.dram_ps();
            out.extend(
                m.last
                    .dram_edges
                    .iter()
                    .map(|(t, o)| (t - tck, dram_values(o))),
            );
        }
        at
    }

    /// The `.gtkw` groups: reorder, cache, queues, DRAM command bus, IDU.
    pub fn gtkw(&self, mut save: Gtkw) -> Gtkw {
        if self.mem {
            save = save
                .names("reorder_state", &reorder_states())
                .names("dram_cmd", &named(&Command::ALL.map(Command::name)));
            for scope in ["reorder", "l1", "queues"] {
                let traces: Vec<(String, Option<Format>)> = CORE_VARS
                    .iter()
                    .filter(|v| v.0 == scope)
                    .map(|v| (format!("cu.mem.{scope}.{}", v.1), Some(core_format(v.1))))
                    .collect();
                save = save.group(scope, &crate::sim::waves::as_refs(&traces));
            }
            let dram: Vec<(String, Option<Format>)> = DRAM_VARS
                .iter()
                .map(|v| (format!("cu.dram.{}", v.0), Some(dram_format(v.0))))
                .collect();
            save = save.group("dram command bus", &crate::sim::waves::as_refs(&dram));
        }
        if !self.units.is_empty() {
            let idu: Vec<(String, Option<Format>)> = self
                .units
                .iter()
                .map(|&(g, u)| (format!("cu.idu.g{g}.{}", unit_name(u)), Some(Format::Dec)))
                .collect();
            save = save.group("idu (cluster + 1)", &crate::sim::waves::as_refs(&idu));
        }
        save
    }
}

fn unit_name(u: usize) -> String {
    if u == 0 {
        "simd".into()
    } else {
        format!("spsimd{u}")
    }
}

fn dram_values(o: &DramOut) -> [u64; 8] {
    [
        o.cmd as u64,
        u64::from(o.cmd_bg),
        u64::from(o.cmd_bank),
        u64::from(o.cmd_row),
        u64::from(o.cmd_col),
        u64::from(o.dq_valid),
        u64::from(o.done),
        u64::from(o.ref_owed),
    ]
}

fn reorder_states() -> Vec<(u64, String)> {
    named(&["IDLE", "SELECT", "SEARCH", "ISSUE", "DONE", "ERROR"])
}

fn core_format(name: &str) -> Format {
    match name {
        "state" => Format::Named("reorder_state"),
        "line" | "fill_line" => Format::Hex,
        _ => Format::Dec,
    }
}

fn dram_format(name: &str) -> Format {
    match name {
        "cmd" => Format::Named("dram_cmd"),
        "row" | "col" => Format::Hex,
        _ => Format::Dec,
    }
}
