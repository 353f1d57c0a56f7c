//! Fuzz targets for the text and binary parsers a user's input reaches: the assembler, the
//! disassembler, the compute unit configuration (TOML and JSON) and the PTX parser. Each
//! target must return (an error is fine) on every input, never panic.
//!
//! Inputs come from proptest strategies of three kinds, mixed: the repository's own kernels,
//! configurations and PTX mutated at the token level (tokens inserted, deleted, replaced by
//! a dictionary of mnemonics, registers, huge and negative numbers, non-finite floats and
//! non-ASCII text), one line of them mutated the same way, and raw bytes. A run is
//! deterministic for its seed. `rtgpu fuzz --cases N` runs the targets in parallel;
//! `testbench/tests/integration/fuzz.rs` runs a short count of each in the test suite.

use proptest::prelude::*;
use proptest::test_runner::{Config, RngAlgorithm, TestCaseError, TestRng, TestRunner};
use rtgpu_firmware::isa::{assemble, disassemble};
use rtgpu_wcet::reorder::kernels::BUILTIN;
use rtgpu_wcet::reorder::ptx::Kernel;
use std::panic::{catch_unwind, AssertUnwindSafe};

/// A fuzz target.
#[derive(Clone, Copy, Debug, PartialEq, Eq, clap::ValueEnum)]
pub enum Target {
    /// The assembler (`.s` text → code image), with the kernel check and every message.
    Asm,
    /// The disassembler (dwords → instructions → text).
    Disasm,
    /// The compute unit configuration: TOML and JSON parsing and the range check.
    Config,
    /// The PTX parser of the reordering analysis.
    Ptx,
}

impl Target {
    /// Every target.
    pub const ALL: [Target; 4] = [Target::Asm, Target::Disasm, Target::Config, Target::Ptx];

    /// The name on the command line.
    pub fn name(self) -> &'static str {
        match self {
            Target::Asm => "asm",
            Target::Disasm => "disasm",
            Target::Config => "config",
            Target::Ptx => "ptx",
        }
    }
}

/// The kernels of firmware/kernels, the seed texts of the assembler target.
const KERNELS: [&str; 7] = [
    include_str!("../../firmware/kernels/fig2_divergent.s"),
    include_str!("../../firmware/kernels/fig5_nested.s"),
    include_str!("../../firmware/kernels/lds_reduce.s"),
    include_str!("../../firmware/kernels/loop.s"),
    include_str!("../../firmware/kernels/synthetic.s"),
    include_str!("../../firmware/kernels/vector_add.s"),
    "s_mov_b32 s0, 0x12345678\nsplit s0, s1\nv_add_f32_e64 v0, -|v1|, 0.5 clamp mul:2\n\
     ds_read2_b32 v[0:1], v2 offset0:4 offset1:8\ns_waitcnt vmcnt(0) lgkmcnt(0)\n\
     s_cbranch_scc1 end\nflat_load_dwordx4 v[0:3], v[4:5] glc slc\nend:\ns_endpgm\n",
];

/// Tokens the mutations insert: mnemonics, registers, numbers at and past every limit,
/// floats, modifiers, punctuation and non-ASCII text.
const DICTIONARY: &[&str] = &[
    "s_mov_b32",
    "v_add_f32",
    "v_add_f32_e64",
    "v_cndmask_b32",
    "s_load_dwordx4",
    "split",
    "merge",
    "s_endpgm",
    "s_waitcnt",
    "s_branch",
    "ds_write2_b32",
    "flat_store_dword",
    "v_cmp_gt_i32",
    "v_mad_u32_u24",
    "s0",
    "s101",
    "s102",
    "s200200",
    "v255",
    "v256",
    "v4294967296",
    "ttmp11",
    "ttmp12",
    "s[0:1]",
    "v[254:257]",
    "s[4:3]",
    "vcc",
    "exec",
    "m0",
    "scc",
    "src_lds_direct",
    "0",
    "-0",
    "64",
    "-16",
    "-17",
    "65",
    "0x12345678",
    "4294967295",
    "4294967296",
    "-2147483649",
    "18446744073709551615",
    "18446744073709551616",
    "-9223372036854775808",
    "-9223372036854775809",
    "0x",
    "0xg",
    "1.5",
    "0.5",
    "-4.0",
    "1e99999",
    "-1e99999",
    "1e-99999",
    "3.5e38",
    "nan",
    "inf",
    ".5",
    "1.",
    "1e",
    "1e+",
    ",",
    ":",
    "[",
    "]",
    "|",
    "-",
    "(",
    ")",
    "&",
    ";",
    "//",
    "\n",
    " ",
    "\t",
    "offset:65536",
    "offset0:256",
    "mul:3",
    "div:2",
    "clamp",
    "glc",
    "vmcnt(99)",
    "label",
    "label:",
    ".text",
    ".globl",
    "é",
    "∞",
    "\u{0}",
    "\u{feff}",
    "日本",
    "🦀",
    "=",
    "\"",
    "'",
    "{",
    "}",
    "true",
    "false",
    "null",
    "[[x]]",
    "[memory]",
    "mem_bytes",
    "n_simd",
    "n_wfc",
    "lat",
    "99999999999999999999",
    "-1",
    "1e308",
    "ld.global.u32",
    "st.shared.f32",
    "%r1",
    "%rd2",
    "%tid.x",
    "%ctaid.y",
    "@%p1",
    "bra",
    "$L__BB0_1",
    ".reg",
    ".param",
    ".u64",
    ".entry",
    "bar.sync",
    "mad.lo.s32",
    "setp.lt.s32",
    "ret;",
];

/// Splits a text into tokens that keep every character: runs of identifier characters and
/// single other characters.
fn tokens(text: &str) -> Vec<&str> {
    let word = |c: char| c.is_alphanumeric() || "_.$%".contains(c);
    let mut out = Vec::new();
    let mut start = 0;
    let mut in_word = false;
    for (i, c) in text.char_indices() {
        let w = word(c);
        if i > start && !(w && in_word) {
            out.push(&text[start..i]);
            start = i;
        }
        in_word = w;
    }
    if start < text.len() {
        out.push(&text[start..]);
    }
    out
}

/// One edit of a token list.
#[derive(Clone, Debug)]
enum Edit {
    /// Insert dictionary word `.1` before token `.0`.
    Insert(usize, usize),
    /// Delete token `.0`.
    Delete(usize),
    /// Replace token `.0` by dictionary word `.1`.
    Replace(usize, usize),
    /// Replace token `.0` by these bytes (lossy UTF-8).
    Bytes(usize, Vec<u8>),
    /// Repeat token `.0` `.1` times (long lines, long numbers).
    Repeat(usize, usize),
}

fn edit() -> impl Strategy<Value = Edit> {
    prop_oneof![
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Insert(a, b)),
        2 => any::<usize>().prop_map(Edit::Delete),
        3 => (any::<usize>(), any::<usize>()).prop_map(|(a, b)| Edit::Replace(a, b)),
        1 => (any::<usize>(), prop::collection::vec(any::<u8>(), 0..6))
            .prop_map(|(a, b)| Edit::Bytes(a, b)),
        1 => (any::<usize>(), 2usize..40).prop_map(|(a, n)| Edit::Repeat(a, n)),
    ]
}

/// Applies `edits` to the tokens of `text`.
fn mutate(text: &str, edits: &[Edit]) -> String {
    let mut toks: Vec<String> = tokens(text).into_iter().map(String::from).collect();
    let word = |i: usize| DICTIONARY[i % DICTIONARY.len()].to_string();
    for e in edits {
        let n = toks.len();
        match e {
            Edit::Insert(at, w) => toks.insert(at % (n + 1), word(*w)),
            Edit::Delete(at) if n > 0 => {
                toks.remove(at % n);
            }
            Edit::Replace(at, w) if n > 0 => toks[at % n] = word(*w),
            Edit::Bytes(at, b) if n > 0 => toks[at % n] = String::from_utf8_lossy(b).into(),
            Edit::Repeat(at, k) if n > 0 => toks[at % n] = toks[at % n].repeat(*k),
            _ => {}
        }
    }
    toks.concat()
}

/// Texts for a target: a seed text mutated whole (half), one of its lines mutated (a third
/// of the rest, cheaper and denser), or raw bytes.
fn texts(seeds: Vec<String>) -> impl Strategy<Value = String> {
    let n = seeds.len();
    let whole = seeds.clone();
    let lines = seeds;
    prop_oneof![
        5 => (0..n, prop::collection::vec(edit(), 0..8))
            .prop_map(move |(i, e)| mutate(&whole[i], &e)),
        3 => (0..n, any::<usize>(), prop::collection::vec(edit(), 0..4)).prop_map(
            move |(i, l, e)| {
                let all: Vec<&str> = lines[i].lines().collect();
                mutate(all.get(l % all.len().max(1)).copied().unwrap_or(""), &e)
            }
        ),
        2 => prop::collection::vec(any::<u8>(), 0..200)
            .prop_map(|b| String::from_utf8_lossy(&b).into_owned()),
    ]
}

/// The configuration seed texts: the default configuration as TOML and as JSON, each alone.
fn config_seeds() -> Vec<String> {
    let cfg = rtgpu_hw::cu::CuConfig::default();
    vec![
        toml::to_string(&cfg).unwrap_or_default(),
        serde_json::to_string_pretty(&cfg).unwrap_or_default(),
    ]
}

/// Code images: the assembled kernels, some of their dwords flipped or replaced, or random
/// dwords.
fn images() -> impl Strategy<Value = Vec<u32>> {
    let kernels: Vec<Vec<u32>> = KERNELS
        .iter()
        .filter_map(|k| assemble(k, "seed").ok().map(|p| p.words()))
        .collect();
    let n = kernels.len().max(1);
    prop_oneof![
        1 => prop::collection::vec(any::<u32>(), 0..64),
        2 => (
            0..n,
            prop::collection::vec((any::<usize>(), any::<u32>(), any::<bool>()), 1..6)
        )
            .prop_map(move |(i, edits)| {
                let mut w = kernels.get(i).cloned().unwrap_or_default();
                for (at, v, flip) in edits {
                    if w.is_empty() {
                        break;
                    }
                    let k = at % w.len();
                    w[k] = if flip { w[k] ^ (1 << (v % 32)) } else { v };
                }
                w
            }),
    ]
}

/// Feeds one text to the assembler: assemble, check as a kernel, print every instruction
/// and the error.
pub fn asm_one(text: &str) {
    match assemble(text, "fuzz") {
        Ok(p) => {
            let _ = p.check_kernel("fuzz").map_err(|e| e.to_string());
            for item in &p.items {
                let _ = item.insn.to_string();
            }
            disasm_one(&p.words());
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Feeds one code image to the disassembler and prints what it gives.
pub fn disasm_one(words: &[u32]) {
    match disassemble(words) {
        Ok(items) => {
            for d in &items {
                let _ = d.to_string();
            }
        }
        Err(e) => {
            let _ = e.to_string();
        }
    }
}

/// Feeds one text to the configuration parser, as TOML and as JSON.
pub fn config_one(text: &str) {
    for toml in [true, false] {
        let _ = crate::cu::parse_config(text, toml);
    }
}

/// Feeds one text to the PTX parser.
pub fn ptx_one(text: &str) {
    if let Err(e) = Kernel::parse(text) {
        let _ = e.to_string();
    }
}

/// A panic a target raised.
#[derive(Clone, Debug)]
pub struct Finding {
    /// The target.
    pub target: Target,
    /// proptest's report: the panic message and the minimal (shrunk) failing input.
    pub message: String,
}

/// Runs `body` on `input`, turning a panic into a test failure carrying its message.
fn guarded<T: std::fmt::Debug>(input: &T, body: impl FnOnce()) -> Result<(), TestCaseError> {
    catch_unwind(AssertUnwindSafe(body)).map_err(|e| {
        let msg = e
            .downcast_ref::<String>()
            .cloned()
            .or_else(|| e.downcast_ref::<&str>().map(|s| s.to_string()))
            .unwrap_or_default();
        TestCaseError::fail(format!("panic: {msg} on {input:?}"))
    })
}

/// Runs `cases` inputs of `target` from `seed`, in chunks; `tick(n)` after every chunk of `n`
/// cases. The first panic found (its input shrunk) ends the run.
pub fn run(target: Target, cases: u64, seed: u64, tick: &dyn Fn(u64)) -> Result<(), Finding> {
    const CHUNK: u64 = 10_000;
    let mut done = 0;
    let mut chunk_seed = seed;
    while done < cases {
        let n = CHUNK.min(cases - done);
        run_chunk(target, n, chunk_seed)?;
        done += n;
        chunk_seed = chunk_seed.wrapping_add(0x9e37_79b9_7f4a_7c15);
        tick(n);
    }
    Ok(())
}

/// One chunk of `cases` inputs from `seed`.
fn run_chunk(target: Target, cases: u64, seed: u64) -> Result<(), Finding> {
    let config = Config {
        cases: u32::try_from(cases).unwrap_or(u32::MAX),
        failure_persistence: None,
        max_shrink_iters: 2_000,
        ..Config::default()
    };
    let mut bytes = [0u8; 32];
    bytes[..8].copy_from_slice(&seed.to_le_bytes());
    let rng = TestRng::from_seed(RngAlgorithm::ChaCha, &bytes);
    let mut runner = TestRunner::new_with_rng(config, rng);
    let kernels = KERNELS.iter().map(|k| k.to_string()).collect();
    let ptx = BUILTIN.iter().map(|l| l.source.to_string()).collect();
    let result = match target {
        Target::Asm => runner
            .run(&texts(kernels), |t| guarded(&t, || asm_one(&t)))
            .map_err(|e| e.to_string()),
        Target::Disasm => runner
            .run(&images(), |w| guarded(&w, || disasm_one(&w)))
            .map_err(|e| e.to_string()),
        Target::Config => runner
            .run(&texts(config_seeds()), |t| guarded(&t, || config_one(&t)))
            .map_err(|e| e.to_string()),
        Target::Ptx => runner
            .run(&texts(ptx), |t| guarded(&t, || ptx_one(&t)))
            .map_err(|e| e.to_string()),
    };
    result.map_err(|message| Finding { target, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tokens_keep_every_character() {
        let t = "v_add_f32 v0, -|v1|, 0x10 // é";
        assert_eq!(tokens(t).concat(), t);
        assert_eq!(tokens("s[0:1]"), ["s", "[", "0", ":", "1", "]"]);
    }

    #[test]
    fn mutations_change_the_text() {
        let m = mutate("s_mov_b32 s0, 1", &[Edit::Replace(2, 0), Edit::Delete(0)]);
        assert_ne!(m, "s_mov_b32 s0, 1");
    }
}
