//! Shared by the integration tests: running the `rtgpu` program, reading a VCD, the kernel and
//! mode lists the RTL compute unit's tests walk.

use std::collections::HashMap;
use std::io::BufReader;
use std::path::Path;
use std::process::Command;

/// Runs `rtgpu ARGS` in the repository's root, as a user of the checkout does (it reads
/// firmware/kernels/ and writes waveforms/ and target/ under the current directory): exit
/// code, stdout, stderr.
pub fn rtgpu(args: &[&str]) -> (i32, String, String) {
    let out = Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .current_dir(concat!(env!("CARGO_MANIFEST_DIR"), "/.."))
        .args(args)
        .output()
        .expect("rtgpu runs");
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8_lossy(&out.stdout).into(),
        String::from_utf8_lossy(&out.stderr).into(),
    )
}

/// Reads a VCD: the changes of each `scope.name` signal as (ps, value string).
pub fn read_vcd(path: &Path) -> HashMap<String, Vec<(u64, String)>> {
    let mut parser = vcd::Parser::new(BufReader::new(std::fs::File::open(path).unwrap()));
    let header = parser.parse_header().unwrap();
    assert_eq!(header.timescale, Some((1, vcd::TimescaleUnit::PS)));
    let mut names = HashMap::new();
    collect_vars(&header.items, "", &mut names);
    let mut out: HashMap<String, Vec<(u64, String)>> = HashMap::new();
    let mut now = 0;
    for cmd in parser {
        let (id, value) = match cmd.unwrap() {
            vcd::Command::Timestamp(t) => {
                now = t;
                continue;
            }
            vcd::Command::ChangeScalar(id, v) => (id, v.to_string()),
            vcd::Command::ChangeVector(id, v) => (id, v.to_string()),
            vcd::Command::ChangeString(id, v) => (id, v),
            _ => continue,
        };
        out.entry(names[&id].clone())
            .or_default()
            .push((now, value));
    }
    out
}

fn collect_vars(items: &[vcd::ScopeItem], prefix: &str, names: &mut HashMap<vcd::IdCode, String>) {
    for item in items {
        match item {
            vcd::ScopeItem::Scope(s) => {
                collect_vars(&s.items, &format!("{prefix}{}.", s.identifier), names)
            }
            vcd::ScopeItem::Var(v) => {
                names.insert(v.code, format!("{prefix}{}", v.reference));
            }
            _ => {}
        }
    }
}

/// The integer kernels of `firmware/kernels/` (the RTL compute unit runs them all).
pub const INTEGER_KERNELS: [&str; 6] = [
    "vector_add",
    "fig2_divergent",
    "fig5_nested",
    "loop",
    "lds_reduce",
    "synthetic",
];

/// The splitting modes the RTL compute unit's top has and the tests draw: no-split, DWS at
/// S = 1 and 3, PWS at S = 1, 2 and 3.
pub const SPLIT_MODES: [(rtgpu_hw::cu::Mode, u32); 6] = {
    use rtgpu_hw::cu::Mode;
    [
        (Mode::NoSplit, 1),
        (Mode::Dws, 1),
        (Mode::Dws, 3),
        (Mode::Pws, 1),
        (Mode::Pws, 2),
        (Mode::Pws, 3),
    ]
};

/// The three warp-scheduling policies, in the order the tests turn them over.
pub const POLICIES: [rtgpu_hw::sched::model::Policy; 3] = {
    use rtgpu_hw::sched::model::Policy;
    [Policy::Lrr, Policy::Rr, Policy::Gto]
};

/// `seed`'s kernel of the compute-unit generator, sized for the top's code memory (shorter
/// sequences, two levels of ifs): its text and code, `None` if it is still too long.
pub fn random_kernel(seed: u64) -> Option<(String, Vec<u32>)> {
    use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
    let opts = GenOptions {
        max_seq: 4,
        max_depth: 2,
        ..GenOptions::default()
    };
    let text = divergent_kernel(seed, &opts);
    let code = rtgpu_firmware::isa::assemble(&text, "gen").unwrap().words();
    (code.len() <= rtgpu_hw::cu_top::CODE_WORDS).then_some((text, code))
}
