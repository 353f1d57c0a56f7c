//! The IDU with its clusters (`Idu`) in the harness, every cluster in its own clock domain:
//! the RTL counterpart of the model's `IduSystem::run`, producing the same `SystemRun`.
//!
//! Timeline (the model's): the host's reset, configuration writes and launch run on the
//! dispatcher clock alone before time 0; then every working cluster and the dispatcher start at
//! time 0 with their rising edges on whole periods (P, 2P, ...), cluster edges before the
//! dispatcher's at the same picosecond. Power-gated clusters get no clock.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::sim::waves::VcdOptions;
use rtgpu_firmware::aging::IduProgram;
use rtgpu_hw::idu::model::{Dispatch, Retire, SystemConfig, SystemRun, TYPES};
use rtgpu_hw::idu::Idu;
use rust_hdl::core::prelude::*;
use std::path::Path;

/// Pipeline depths of the RTL system (SP, SFU, LD/ST; our choice).
pub const DEPTHS: [usize; TYPES] = [4, 20, 4];

/// The RTL system for `K` clusters per type.
pub type IduRtl<const K: usize> = Idu<K, 4, 20, 4>;

/// What one rising edge showed.
enum Seen {
    /// A dispatcher edge: the dispatch (type, tag, cluster) or a stall.
    Edge(Option<(u8, u8, u8)>, bool),
    Retire(u8, u8, u8),
    Busy(usize, usize),
}

/// Which domain is which: `(type, cluster)` per cluster domain; the dispatcher is last.
struct Domains {
    clusters: Vec<(usize, usize)>,
}

/// Runs `instrs` (type, tag) on the RTL as `IduSystem::run` does on the model; `vcd` records
/// the run (after the configuration) when given.
pub fn run_rtl<const K: usize>(
    cfg: &SystemConfig,
    instrs: &[(u8, u8)],
    max_ps: u64,
    vcd: Option<&Path>,
) -> Result<SystemRun, HarnessError> {
    let writes: Vec<Write> = (0..TYPES)
        .flat_map(|t| (0..K).map(move |c| (t as u8, c as u8)))
        .map(|(t, c)| {
            (
                t,
                c,
                cfg.working[t as usize][c as usize],
                cfg.limits[t as usize][c as usize],
            )
        })
        .collect();
    run_configured::<K>(cfg, &writes, instrs, max_ps, vcd)
}

/// A configuration-port write: (type, cluster, working, limit).
pub type Write = (u8, u8, bool, u8);

/// The host's side: the clocks, pipelines and `enable` of a system whose working bits and
/// limits come from the driver's program (`IduProgram`, firmware/src/aging/). `disp_ps` is
/// the dispatcher's period.
pub fn config_of(program: &IduProgram, disp_ps: u64, enable: bool) -> Result<SystemConfig, String> {
    program.validate().map_err(|e| e.to_string())?;
    let k = program
        .types
        .iter()
        .map(|t| t.working.len())
        .max()
        .unwrap_or(0)
        .max(1);
    let mut cfg = SystemConfig::uniform(k, disp_ps);
    cfg.depth = DEPTHS;
    cfg.enable = enable;
    for (t, tp) in program.types.iter().enumerate() {
        for c in 0..tp.working.len() {
            cfg.working[t][c] = tp.working[c];
            cfg.limits[t][c] = tp.limits[c];
            cfg.cluster_ps[t][c] = tp.period_ps[c].max(1);
        }
    }
    Ok(cfg)
}

/// The driver call: loads `program` through the configuration port with exactly its
/// `register_writes()`, launches, and runs `instrs` on the RTL (clocks from the program).
pub fn run_program<const K: usize>(
    program: &IduProgram,
    disp_ps: u64,
    instrs: &[(u8, u8)],
    max_ps: u64,
) -> Result<(SystemConfig, SystemRun), HarnessError> {
    let mut cfg = config_of(program, disp_ps, true).map_err(HarnessError::Setup)?;
    cfg.k = K;
    let run = run_configured::<K>(&cfg, &program.register_writes(), instrs, max_ps, None)?;
    Ok((cfg, run))
}

fn run_configured<const K: usize>(
    cfg: &SystemConfig,
    writes: &[Write],
    instrs: &[(u8, u8)],
    max_ps: u64,
    vcd: Option<&Path>,
) -> Result<SystemRun, HarnessError> {
    check(cfg, K)?;
    let uut = configured::<K>(cfg, writes)?;
    let mut h = Harness::new(uut, "idu")?;
    let doms = add_clocks(&mut h, cfg)?;
    if let Some(p) = vcd {
        h.record_vcd(p, &VcdOptions::default())?;
    }
    h.sequential_edges(true);
    run_kernel(&mut h, &doms, instrs, max_ps)
}

fn check(cfg: &SystemConfig, k: usize) -> Result<(), HarnessError> {
    let bad = |m: String| Err(HarnessError::Setup(m));
    if cfg.k != k {
        return bad(format!(
            "the RTL has {k} clusters per type, the config {}",
            cfg.k
        ));
    }
    if cfg.depth != DEPTHS {
        return bad(format!(
            "the RTL's depths are {DEPTHS:?}, the config's {:?}",
            cfg.depth
        ));
    }
    if cfg.ii.iter().any(|&i| !(1..=15).contains(&i)) {
        return bad(format!(
            "initiation intervals must be 1..=15, got {:?}",
            cfg.ii
        ));
    }
    Ok(())
}

/// Reset, one write per (type, cluster), launch: on the dispatcher clock alone.
fn configured<const K: usize>(
    cfg: &SystemConfig,
    writes: &[Write],
) -> Result<IduRtl<K>, HarnessError> {
    let mut h = Harness::new(IduRtl::<K>::default(), "idu")?;
    h.add_clock_rising_at_period("dispatcher", period(cfg.disp_ps)?, |u| &mut u.dclock)?;
    h.cycle(|u| u.reset.next = true, |_| ())?;
    for &(t, c, w, l) in writes {
        h.cycle(
            |u| {
                u.reset.next = false;
                u.cfg_we.next = true;
                u.cfg_type.next = u64::from(t & 3).to_bits();
                u.cfg_cluster.next = u64::from(c & 7).to_bits();
                u.cfg_working.next = w;
                u.cfg_limit.next = u64::from(l).to_bits();
            },
            |_| (),
        )?;
    }
    h.cycle(
        |u| {
            u.cfg_we.next = false;
            u.launch.next = true;
        },
        |_| (),
    )?;
    let mut uut = h.finish()?.uut;
    uut.launch.next = false;
    uut.enable.next = cfg.enable;
    uut.ii_sp.next = u64::from(cfg.ii[0]).to_bits();
    uut.ii_sfu.next = u64::from(cfg.ii[1]).to_bits();
    uut.ii_ldst.next = u64::from(cfg.ii[2]).to_bits();
    Ok(uut)
}

fn period(ps: u64) -> Result<Period, HarnessError> {
    Period::ps(ps).map_err(HarnessError::Setup)
}

/// One domain per working cluster (types in order), then the dispatcher's.
fn add_clocks<const K: usize>(
    h: &mut Harness<IduRtl<K>>,
    cfg: &SystemConfig,
) -> Result<Domains, HarnessError> {
    let mut clusters = Vec::new();
    for t in 0..TYPES {
        for c in (0..K).filter(|&c| cfg.working[t][c]) {
            let name = format!("{}{c}", ["sp", "sfu", "ldst"][t]);
            let p = period(cfg.cluster_ps[t][c])?;
            h.add_clock_rising_at_period(&name, p, move |u| match t {
                0 => &mut u.clk_sp[c],
                1 => &mut u.clk_sfu[c],
                _ => &mut u.clk_ldst[c],
            })?;
            clusters.push((t, c));
        }
    }
    h.add_clock_rising_at_period("dispatcher", period(cfg.disp_ps)?, |u| &mut u.dclock)?;
    Ok(Domains { clusters })
}

/// What the block shows just before `domain`'s rising edge.
fn observe<const K: usize>(u: &IduRtl<K>, domain: usize, doms: &Domains, seen: &mut Vec<Seen>) {
    let Some(&(t, c)) = doms.clusters.get(domain) else {
        let d = &u.disp;
        let ty = u.in_type.val().index() as u8;
        let sent = (ty, d.out_tag.val().index() as u8, d.sel.val().index() as u8);
        seen.push(Seen::Edge(d.dispatch.val().then_some(sent), d.stall.val()));
        return;
    };
    let cl = match t {
        0 => (
            u.sp[c].retire.val(),
            u.sp[c].retire_tag.val(),
            u.sp[c].busy.val(),
        ),
        1 => (
            u.sfu[c].retire.val(),
            u.sfu[c].retire_tag.val(),
            u.sfu[c].busy.val(),
        ),
        _ => (
            u.ldst[c].retire.val(),
            u.ldst[c].retire_tag.val(),
            u.ldst[c].busy.val(),
        ),
    };
    if cl.0 {
        seen.push(Seen::Retire(t as u8, cl.1.index() as u8, c as u8));
    }
    if cl.2 {
        seen.push(Seen::Busy(t, c));
    }
}

/// The kernel: the queue's head presented every dispatcher cycle until dispatched.
fn run_kernel<const K: usize>(
    h: &mut Harness<IduRtl<K>>,
    doms: &Domains,
    instrs: &[(u8, u8)],
    max_ps: u64,
) -> Result<SystemRun, HarnessError> {
    let disp_domain = doms.clusters.len();
    let mut run = SystemRun::default();
    let (mut next, mut retired) = (0usize, 0usize);
    let mut seen = Vec::new();
    while next < instrs.len() || retired < instrs.len() {
        let head = instrs.get(next).copied();
        let mut on_cycle = |u: &mut IduRtl<K>, ev: crate::sim::harness::CycleStart| {
            if ev.domain == disp_domain {
                u.in_valid.next = head.is_some();
                let (ty, tag) = head.unwrap_or_default();
                u.in_type.next = u64::from(ty & 3).to_bits();
                u.in_tag.next = u64::from(tag).to_bits();
            }
        };
        let mut before = |u: &IduRtl<K>, d: usize| observe(u, d, doms, &mut seen);
        if !h.step_observed(&mut on_cycle, &mut before)? {
            break;
        }
        let now = h.now_ps();
        if now > max_ps {
            return Ok(finish(run, max_ps, false));
        }
        for s in seen.drain(..) {
            match s {
                Seen::Edge(sent, stall) => {
                    run.disp_cycles += 1;
                    run.stalls += u64::from(stall);
                    if let Some((ty, tag, cluster)) = sent {
                        let cycle = run.disp_cycles;
                        run.dispatches.push(Dispatch {
                            ps: now,
                            cycle,
                            ty,
                            tag,
                            cluster,
                        });
                        run.dispatched[usize::from(ty)][usize::from(cluster)] += 1;
                        next += 1;
                    }
                }
                Seen::Retire(ty, tag, cluster) => {
                    run.retires.push(Retire {
                        ps: now,
                        ty,
                        tag,
                        cluster,
                    });
                    retired += 1;
                }
                Seen::Busy(t, c) => run.busy_cycles[t][c] += 1,
            }
        }
    }
    let end = run.retires.last().map_or(0, |r| r.ps);
    Ok(finish(run, end, true))
}

fn finish(mut run: SystemRun, end_ps: u64, completed: bool) -> SystemRun {
    run.retires.sort_by_key(|r| (r.ps, r.ty, r.cluster));
    run.end_ps = end_ps;
    run.completed = completed;
    run
}
