//! The engine benchmark: one block, one recorded stimulus (its testbench's inputs, repeated),
//! run by the harness, by the Verilated model driven from Rust one call per cycle, and by the
//! same model in a pure C++ loop — VCD off and on. Every run folds every output word of every
//! cycle; the folds must agree, so no engine can skip work or compute something else.

use super::{row, timed_harness, BenchRow};
use crate::sim::harness::{ClockPin, HarnessError};
use crate::sim::ports::PortVectors;
use crate::sim::signals::Role;
use crate::sim::vl::{Bus, VlEngine, VlOptions, VlPorts};
use crate::tb::{BlockTb, TbOptions};
use rtgpu_verilator::{fold, put_bits, Layout, Trace};
use std::path::Path;
use std::time::Instant;

/// Cycles per engine (the harness is slow; Verilator needs many cycles to time).
#[derive(Clone, Copy, Debug)]
pub struct EngineCycles {
    /// Harness cycles, VCD off (the VCD-on runs take a quarter).
    pub harness: u64,
    /// Verilator cycles, VCD off (the VCD-on runs take an eighth).
    pub verilator: u64,
}

/// A block's stimulus as packed input rows.
struct Stimulus {
    layout: Layout,
    rows: Vec<u64>,
}

impl Stimulus {
    /// The input columns of `vectors`, packed as `uut`'s ports are.
    fn of<B: VlPorts>(uut: &B, vectors: &PortVectors) -> Result<Self, String> {
        let ports = uut.ports();
        let layout = Layout::of(&ports);
        let words = layout.in_words().max(1);
        let mut rows = vec![0u64; words * vectors.rows.len()];
        for (col, info) in vectors.columns(Role::Input) {
            let i = ports
                .iter()
                .position(|p| p.name == info.name)
                .ok_or_else(|| format!("input `{}` is not in the port list", info.name))?;
            for (r, values) in vectors.rows.iter().enumerate() {
                let v = values[col].as_raw_slice();
                put_bits(&mut rows[r * words..], layout.offsets[i], info.width, v);
            }
        }
        if vectors.rows.is_empty() {
            return Err("the testbench recorded no cycles".into());
        }
        Ok(Stimulus { layout, rows })
    }

    /// The rows in cycle order, repeated (no division per cycle, as in the C++ loop).
    fn cycle_rows(&self) -> impl Iterator<Item = &[u64]> {
        self.rows
            .chunks_exact(self.layout.in_words().max(1))
            .cycle()
    }
}

/// [`engines`] on the inputs testbench `tb` records in its default run.
pub fn of_tb<B: VlPorts + 'static>(
    tb: &dyn BlockTb,
    make: impl Fn() -> B,
    clock: ClockPin<B>,
    n: EngineCycles,
    dir: &Path,
) -> Option<Result<Vec<BenchRow>, String>> {
    let opts = TbOptions {
        record_ports: true,
        ..TbOptions::default()
    };
    let run = match tb.run(&opts) {
        Ok(run) => run,
        Err(e) => return Some(Err(e.to_string())),
    };
    let vectors = run.vectors?;
    Some(engines(tb.name(), make, clock, &vectors, n, dir))
}

/// Every engine row of block `name` (`make` builds it, `clock` is its clock input) on the
/// inputs `vectors` recorded by its testbench; waveforms go to `dir`.
pub fn engines<B: VlPorts + 'static>(
    name: &'static str,
    make: impl Fn() -> B,
    clock: ClockPin<B>,
    vectors: &PortVectors,
    n: EngineCycles,
    dir: &Path,
) -> Result<Vec<BenchRow>, String> {
    let stim = Stimulus::of(&make(), vectors)?;
    let (h, h_fold) = harness(name, &make, clock, &stim, n.harness, None)?;
    let vcd = dir.join(format!("{name}-harness.vcd"));
    let (hv, _) = harness(name, &make, clock, &stim, n.harness / 4, Some(&vcd))?;
    let plain = VlEngine::new(&mut make(), name, &VlOptions::default())?;
    let SideBySide {
        rows: [rust, cpp],
        folds,
        cpp_fold,
    } = side_by_side(name, &plain, &stim, n, None)?;
    let traced = VlEngine::new(&mut make(), name, &traced_opts())?;
    let short = EngineCycles {
        verilator: n.verilator / 8,
        ..n
    };
    let [rust_vcd, cpp_vcd] = side_by_side(name, &traced, &stim, short, Some(dir))?.rows;
    // Harness and Verilator agree on the first cycles; Rust and C++ drive the model alike.
    if folds.0 != h_fold || folds.1 != cpp_fold {
        return Err(format!(
            "{name}: the engines' outputs differ (harness {h_fold:#x} vs Verilator {:#x} over \
             {} cycles; Rust {:#x} vs C++ {cpp_fold:#x})",
            folds.0, n.harness, folds.1
        ));
    }
    Ok(vec![h, hv, rust, rust_vcd, cpp, cpp_vcd])
}

fn traced_opts() -> VlOptions {
    VlOptions {
        trace: true,
        ..VlOptions::default()
    }
}

/// The harness: inputs from the stimulus row, outputs packed and folded, every cycle.
fn harness<B: VlPorts + 'static>(
    name: &'static str,
    make: &impl Fn() -> B,
    clock: ClockPin<B>,
    stim: &Stimulus,
    cycles: u64,
    vcd: Option<&Path>,
) -> Result<(BenchRow, u64), String> {
    let offsets = &stim.layout.offsets;
    let mut out = vec![0u64; stim.layout.out_words()];
    let mut input_row = vec![0u64; stim.layout.in_words().max(1)];
    let (mut acc, mut rows) = (0u64, stim.cycle_rows());
    let timed = timed_harness(make(), name, clock, cycles, vcd, |h, _| {
        let next = rows
            .next()
            .ok_or(HarnessError::Setup("no stimulus".into()))?;
        input_row.copy_from_slice(next);
        let input = |u: &mut B| u.unpack_inputs(&mut Bus::new(offsets, &mut input_row));
        let output = |u: &B| {
            u.pack_outputs(&mut Bus::new(offsets, &mut out));
            fold(acc, &out)
        };
        acc = h.cycle(input, output)?;
        Ok(())
    })
    .map_err(|e| format!("{name}: {e}"))?;
    Ok((timed, acc))
}

/// What [`side_by_side`] measured.
struct SideBySide {
    /// The Rust row and the C++ row.
    rows: [BenchRow; 2],
    /// The Rust fold after `n.harness` cycles and after all of them.
    folds: (u64, u64),
    /// The C++ fold after all cycles.
    cpp_fold: u64,
}

/// Verilator driven from Rust (one foreign call per cycle, [`rtgpu_verilator::Model::cycle`], as the engine
/// drives a one-clock block) and the same model in a pure C++ loop over the same rows, each on
/// an instance of its own, in alternating hundredths of the run so that the machine's load weighs
/// on both alike. Each side's rate is that of its fastest hundredth: another process taking the
/// core for a moment slows one piece, not the estimate of what the engine costs. With `vcd`,
/// both write a waveform into that folder.
fn side_by_side(
    name: &'static str,
    built: &VlEngine,
    stim: &Stimulus,
    n: EngineCycles,
    vcd: Option<&Path>,
) -> Result<SideBySide, String> {
    let (mut rust, mut cpp) = (built.fresh_model()?, built.fresh_model()?);
    if let Some(dir) = vcd {
        for (m, engine) in [(&mut rust, "verilator"), (&mut cpp, "cpp")] {
            m.trace_to(&Trace {
                path: dir.join(format!("{name}-{engine}.vcd")),
                from: 0,
                to: u64::MAX,
                scopes: Vec::new(),
            })?;
        }
    }
    let out_words = stim.layout.out_words();
    // The fastest piece of each side, as seconds per cycle.
    let (mut rust_best, mut cpp_best) = (f64::INFINITY, f64::INFINITY);
    let (mut acc, mut cpp_acc, mut at_harness) = (0u64, 0u64, 0u64);
    let mut rows = stim.cycle_rows();
    const PIECES: u64 = 100;
    for p in 0..PIECES {
        let cycles = n.verilator * p / PIECES..n.verilator * (p + 1) / PIECES;
        let start = Instant::now();
        for (k, row) in cycles.clone().zip(&mut rows) {
            if k == n.harness {
                at_harness = acc;
            }
            rust.cycle_with(row, (0, 1), (1000 * k, 1000 * k + 500), None)
                .map_err(|e| e.to_string())?;
            acc = fold(acc, &rust.outputs()[..out_words]);
        }
        let len = (cycles.end - cycles.start).max(1) as f64;
        rust_best = rust_best.min(start.elapsed().as_secs_f64() / len);
        let ns = cpp.bench_native(&stim.rows, cycles, &mut cpp_acc);
        cpp_best = cpp_best.min(ns as f64 * 1e-9 / len);
    }
    if n.harness >= n.verilator {
        at_harness = acc;
    }
    let (r, c) = match vcd {
        Some(_) => ("verilator, Rust+vcd", "verilator, C+++vcd"),
        None => ("verilator, Rust", "verilator, C++"),
    };
    let rows = [
        row(name, r, n.verilator, rust_best * n.verilator as f64),
        row(name, c, n.verilator, cpp_best * n.verilator as f64),
    ];
    Ok(SideBySide {
        rows,
        folds: (at_harness, acc),
        cpp_fold: cpp_acc,
    })
}
