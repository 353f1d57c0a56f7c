//! The system scenarios: `rtgpu run` launches whose waveform shows one mechanism of
//! the full system each, written to `waveforms/NAME.vcd` with a `.gtkw` beside it (the `.gtkw`
//! files are committed; `rtgpu scenario` rewrites them).

use super::run::{run, RunOpts, RunReport};
use clap::Parser;
use std::path::Path;

/// Every scenario: name, what it shows, its `rtgpu run` arguments.
pub const SCENARIOS: [(&str, &str, &[&str]); 3] = [
    (
        "system-reorder",
        "vector_add, 4 work-groups of 4 wavefronts, reordering on: the unit's SELECT/SEARCH/ISSUE \
         over the slots, L1 misses, fills, the crossings and the DRAM command bus",
        &[
            "firmware/kernels/vector_add.s",
            "--reorder",
            "--grid",
            "1024",
            "--wg",
            "256",
            "--mode",
            "nosplit",
        ],
    ),
    (
        "system-pws",
        "fig2_divergent under PWS S=1 on the memory hierarchy (reordering off): split halves on \
         the SpSIMDs while their loads wait for DRAM",
        &[
            "firmware/kernels/fig2_divergent.s",
            "--memory",
            "hierarchy",
            "--mode",
            "pws",
            "--s",
            "1",
        ],
    ),
    (
        "system-idu",
        "synthetic under PWS S=3 with the IDU distributing VALU instructions over the lane \
         clusters by the host flow's limits",
        &[
            "firmware/kernels/synthetic.s",
            "--memory",
            "hierarchy",
            "--idu",
            "idu",
            "--mode",
            "pws",
            "--s",
            "3",
        ],
    ),
];

#[derive(Parser)]
struct Args {
    #[command(flatten)]
    opts: RunOpts,
}

/// Runs scenario `name` on the kernels in `kernels` (the repository's `firmware/kernels`),
/// writing `dir/NAME.vcd` and its `.gtkw`.
pub fn run_scenario(kernels: &Path, name: &str, dir: &Path) -> Result<RunReport, (u8, String)> {
    let (_, _, args) = SCENARIOS.iter().find(|s| s.0 == name).ok_or_else(|| {
        let known: Vec<&str> = SCENARIOS.iter().map(|s| s.0).collect();
        (
            2,
            format!("unknown scenario `{name}`; known: {}", known.join(", ")),
        )
    })?;
    let vcd = dir.join(format!("{name}.vcd"));
    let parsed = Args::try_parse_from(std::iter::once("run").chain(args.iter().copied()).chain([
        "--vcd",
        vcd.to_str().ok_or((2, "a non-UTF-8 path".to_string()))?,
    ]))
    .map_err(|e| (2, e.to_string()))?;
    let mut opts = parsed.opts;
    let file = opts
        .kernel
        .file_name()
        .map(Path::new)
        .unwrap_or(&opts.kernel);
    opts.kernel = kernels.join(file);
    run(&opts)
}
