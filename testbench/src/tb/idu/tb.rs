//! `idu-fig43`: the IDU dispatcher on the thesis' Fig. 4.3 (clusters 1, 2, 4 with limits
//! 4 : 3 : 3, cluster 3 power-gated, the ready pattern of that figure), then random
//! configurations, types, ready patterns, launches and stops. Every cycle: RTL == reference
//! model; the Fig. 4.3 dispatches and counters are checked against the thesis.

use super::rtl::{apply, config, present, read};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{as_refs, Format, Gtkw};
use crate::tb::{drive, mismatch, BlockTb, TbError, TbOptions, TbRun};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::idu::model::{DispIn, DispOut, DispatcherModel};
use rtgpu_hw::idu::Dispatcher;
use std::path::Path;

/// Clusters per type in the testbench (the thesis' Fig. 4.3 has four).
pub const K: usize = 4;

/// The `idu-fig43` testbench.
pub struct IduFig43Tb;

/// Thesis numbering of cluster index k.
const THESIS: [u8; 4] = [1, 2, 3, 4];

/// (cluster, counters C1 C2 C4 after the dispatch) per Fig. 4.3 row.
const FIG43: [(u8, [u8; 3]); 11] = [
    (1, [1, 0, 0]),
    (2, [1, 1, 0]),
    (2, [1, 2, 0]),
    (1, [2, 2, 0]),
    (4, [2, 2, 1]),
    (2, [2, 3, 1]),
    (1, [3, 3, 1]),
    (4, [3, 3, 2]),
    (4, [3, 3, 3]),
    (1, [4, 3, 3]),
    (2, [0, 1, 0]),
];

/// The directed part: configuration, launch, the 11 slots of Fig. 4.3 (a dispatch cycle
/// then an idle cycle that shows the counters), stop.
pub fn fig43_script() -> Vec<DispIn> {
    let mut s = vec![DispIn {
        reset: true,
        ..DispIn::default()
    }];
    for (k, w, l) in [(0, true, 4), (1, true, 3), (2, false, 0), (3, true, 3)] {
        s.push(config(0, k, w, l));
    }
    s.push(DispIn {
        launch: true,
        ..DispIn::default()
    });
    let c1 = [1, 0, 0, 1, 0, 0, 1, 0, 0, 1, 0];
    let c2 = [1, 1, 1, 1, 0, 1, 1, 1, 1, 1, 1];
    for slot in 0..11 {
        s.push(present(
            0,
            slot as u8 + 1,
            c1[slot] | c2[slot] << 1 | 1 << 3,
        ));
        s.push(DispIn {
            enable: true,
            ..DispIn::default()
        });
    }
    s.push(DispIn {
        stop: true,
        ..DispIn::default()
    });
    s
}

/// One random episode after the directed part: sometimes a reset, a configuration of every
/// (type, cluster), a launch, a run of instructions (all four types, random ready patterns,
/// enable mostly on, stray configuration writes and launches that must be ignored or restart
/// the counters), a stop.
fn episode(rng: &mut ChaCha8Rng) -> Vec<DispIn> {
    let mut s = Vec::new();
    if rng.gen_bool(0.2) {
        s.push(DispIn {
            reset: true,
            ..DispIn::default()
        });
    }
    for t in 0..3 {
        for c in 0..K as u8 {
            let limit = if rng.gen_bool(0.05) {
                255
            } else {
                rng.gen_range(0..6)
            };
            s.push(config(t, c, rng.gen_bool(0.75), limit));
        }
    }
    s.push(DispIn {
        launch: true,
        ..DispIn::default()
    });
    for _ in 0..rng.gen_range(20..80) {
        s.push(running(rng));
    }
    s.push(DispIn {
        stop: true,
        ..DispIn::default()
    });
    s
}

/// A cycle of a running kernel.
fn running(rng: &mut ChaCha8Rng) -> DispIn {
    let mut i = DispIn {
        enable: rng.gen_bool(0.9),
        ready: rng.gen::<u8>() | rng.gen::<u8>(),
        ..DispIn::default()
    };
    match rng.gen_range(0..60) {
        0 => i.launch = true,
        1 => {
            i = DispIn {
                enable: i.enable,
                ready: i.ready,
                ..config(
                    rng.gen_range(0..4),
                    rng.gen_range(0..8),
                    rng.gen(),
                    rng.gen(),
                )
            }
        }
        _ => {}
    }
    if rng.gen_bool(0.85) {
        let ty = if rng.gen_bool(0.03) {
            3
        } else {
            rng.gen_range(0..3)
        };
        (i.in_valid, i.in_type, i.in_tag) = (true, ty, rng.gen());
    }
    i
}

/// The RTL's outputs against the model's.
fn compare(
    k: u64,
    got: &DispOut,
    inp: &DispIn,
    model: &mut DispatcherModel,
) -> Result<(), TbError> {
    let want = model.step(inp);
    if *got != want {
        return Err(mismatch(k, format!("RTL {got:?}, model {want:?}")));
    }
    Ok(())
}

impl BlockTb for IduFig43Tb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, Dispatcher::<K>::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "idu-fig43"
    }

    fn description(&self) -> &'static str {
        "IDU dispatcher, 4 clusters x 3 types: the thesis' Fig. 4.3 trace (4:3:3, cluster 3 gated), then random configurations and ready patterns; RTL == model"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let fig = fig43_script();
        let cycles = opts.cycles.max(fig.len() as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let mut model = DispatcherModel::new(K);
        let mut row = 0usize;
        let mut dispatches = 0u64;
        let mut pending: Vec<DispIn> = Vec::new();
        let mut run = drive(
            Dispatcher::<K>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                if k as usize >= fig.len() && pending.is_empty() {
                    pending = episode(&mut rng);
                    pending.reverse();
                }
                let inp = fig
                    .get(k as usize)
                    .copied()
                    .or_else(|| pending.pop())
                    .unwrap_or_default();
                let got = h.cycle(|u| apply(u, &inp), read)?;
                compare(k, &got, &inp, &mut model)?;
                dispatches += u64::from(got.dispatch);
                if (k as usize) < fig.len() && inp.in_valid {
                    return fig43_row(k, row, &got).map(|label| {
                        row += 1;
                        Some(label)
                    });
                }
                if (k as usize) < fig.len() && row > 0 && !inp.in_valid && inp.enable {
                    let want = FIG43[row - 1].1;
                    let cnt = [got.cnt[0], got.cnt[1], got.cnt[3]];
                    if cnt != want {
                        return Err(mismatch(
                            k,
                            format!("Fig. 4.3 row {row}: counters {cnt:?}, thesis {want:?}"),
                        ));
                    }
                }
                Ok(None)
            },
            || layout(self.name()),
        )?;
        run.summary = format!(
            "{cycles} cycles, {dispatches} dispatches, Fig. 4.3 reproduced (11 rows), RTL == model every cycle"
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Dispatcher::<K>::default())
    }
}

/// Checks a Fig. 4.3 dispatch slot; returns its marker.
fn fig43_row(k: u64, row: usize, got: &DispOut) -> Result<String, TbError> {
    let (cluster, _) = FIG43[row];
    let seen = THESIS[got.sel as usize];
    if !got.dispatch || seen != cluster {
        return Err(mismatch(
            k,
            format!(
                "Fig. 4.3 row {}: dispatch {} to C{seen}, thesis C{cluster}",
                row + 1,
                got.dispatch
            ),
        ));
    }
    Ok(format!("#{} -> C{cluster}", row + 1))
}

fn layout(n: &str) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let dispatch = [
        ("launch", None),
        ("enable", None),
        ("in_valid", None),
        ("in_type", Some(Format::Dec)),
        ("in_tag", Some(Format::Dec)),
        ("ready", Some(Format::Bin)),
        ("elig", Some(Format::Bin)),
        ("all_full", None),
        ("sel", Some(Format::Dec)),
        ("dispatch", None),
        ("stall", None),
    ]
    .map(|(s, f)| (p(s), f));
    let fig_ps = fig43_script().len() as u64 * crate::tb::TB_PERIOD_PS;
    let mut g = Gtkw::new(&format!(
        "rtgpu {n}: the IDU dispatcher (hw/src/idu/), Fig. 4.3"
    ))
    .window(fig_ps)
    .group("dispatch", &as_refs(&dispatch));
    for (k, name) in THESIS.iter().enumerate() {
        let traces = [
            (format!("{n}.cnt_sp${k}"), Some(Format::Dec)),
            (format!("{n}.limit_sp${k}"), Some(Format::Dec)),
            (format!("{n}.working_sp${k}"), None),
        ];
        g = g.group(&format!("SP cluster {name} (index {k})"), &as_refs(&traces));
    }
    g
}
