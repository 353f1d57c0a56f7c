//! Random, structured, divergent GCN kernels for compute-unit tests (ABI of
//! `firmware/kernels/README.md`).
//!
//! [`divergent_kernel`] writes a kernel that loads `a = A[i]`, runs a random sequence of items
//! and stores one result to `out[i]`. The items are:
//! - straight VALU/SALU arithmetic on v7..v10 (scalar temporaries are written and read within
//!   the item, so no scalar value crosses a merge, docs/assumptions.md#A13);
//! - a load-use: `flat_load_dword` of `A[i]`, `s_waitcnt vmcnt(0)`, a use;
//! - a uniform scalar loop with a constant trip count 1..=4 (counter s12, no ifs inside;
//!   [`GenOptions::loops`] turns them off);
//! - a masked if/else in LLVM's canonical GCN if/else lowering, or a one-armed if, nested up to
//!   [`GenOptions::max_depth`]; nesting level d saves EXEC in `s[16+2d:17+2d]`. The condition is
//!   a lane-id bit not tested by an enclosing if (so the lanes surely diverge) or depends on
//!   `a` (so they most likely do). A two-armed if carries `split`/`merge` with probability
//!   [`GenOptions::p_split`].
//!
//! With [`GenOptions::inputs`] the kernel also takes two ranged scalar arguments, and its
//! timing depends on the input beyond the lanes' data:
//! - `levels` (argument 2, `// @range 2 0..4`, in s14): about half the uniform loops run
//!   `levels` times instead of a constant (a data-dependent trip count the WCET analysis
//!   bounds by the range);
//! - `thresh` (argument 3, `// @range 3 0..120`, in s15): about a third of the ifs test
//!   `thresh < a` and carry a heavy then-arm (two to four extra load-uses): an input whose
//!   buffer or threshold puts no lane above it never runs that arm.
//!
//! Every kernel has at least one top-level two-armed if on a lane bit, and its header gives
//! `// @min-s N`: the most split ifs live at once along any path (at least 1).
//!
//! ```
//! use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
//!
//! let src = divergent_kernel(7, &GenOptions::default());
//! assert!(rtgpu_firmware::isa::assemble(&src, "gen").is_ok());
//! assert_eq!(src, divergent_kernel(7, &GenOptions::default()));
//! ```

use std::fmt::Write;

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;

/// Deepest if nesting the generator emits, whatever [`GenOptions::max_depth`] asks (each level
/// needs its own EXEC save pair).
pub const MAX_DEPTH: usize = 8;

/// Largest grid the generator writes into `// @grid`.
pub const MAX_GRID: u32 = 1 << 16;

/// Lane-id bits usable as divergent conditions (a wavefront has 64 lanes).
const LANE_BITS: u32 = 6;

/// The working VGPRs the items compute on.
const WORK: [u32; 4] = [7, 8, 9, 10];

/// Knobs of [`divergent_kernel`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GenOptions {
    /// Longest item sequence at the top level (at least 1 is used); nested arms get at most
    /// half as many.
    pub max_seq: usize,
    /// Deepest if nesting (capped at [`MAX_DEPTH`]); 0 still emits the one top-level if.
    pub max_depth: usize,
    /// Probability that a two-armed if carries `split`/`merge` (clamped to [0, 1]; NaN is 0).
    pub p_split: f64,
    /// Whether uniform loops may appear (without them the kernel is loop-free, as
    /// the `kcfg`-style analyses without opaque regions want, docs/assumptions.md#A26).
    pub loops: bool,
    /// Work-items in the launch (`// @grid`), clamped to 1..=[`MAX_GRID`] and rounded up to a
    /// multiple of 64.
    pub grid: u32,
    /// Input-dependent timing: loops whose trip count is a ranged argument and heavy arms
    /// behind a ranged threshold (see the module docs).
    pub inputs: bool,
}

impl Default for GenOptions {
    fn default() -> Self {
        GenOptions {
            max_seq: 6,
            max_depth: 3,
            p_split: 0.5,
            loops: true,
            grid: 128,
            inputs: false,
        }
    }
}

/// One item of a generated sequence.
#[derive(Clone, Debug)]
enum Item {
    /// Straight-line instructions.
    Straight(Vec<String>),
    /// A uniform loop of `trips` iterations (`None`: the `levels` argument) over
    /// straight-line instructions.
    Loop {
        trips: Option<u32>,
        body: Vec<String>,
    },
    /// A masked if: `cond` ends with a VOPC writing VCC; `els` is `None` for a one-armed if.
    If {
        cond: Vec<String>,
        split: bool,
        then: Vec<Item>,
        els: Option<Vec<Item>>,
    },
}

/// The generator's state: the random stream and the options.
struct Gen {
    rng: ChaCha8Rng,
    max_seq: usize,
    max_depth: usize,
    p_split: f64,
    loops: bool,
    inputs: bool,
}

/// A random structured divergent kernel, deterministic in `seed` (see the module docs).
pub fn divergent_kernel(seed: u64, opts: &GenOptions) -> String {
    let p_split = if opts.p_split.is_nan() {
        0.0
    } else {
        opts.p_split.clamp(0.0, 1.0)
    };
    let mut g = Gen {
        rng: ChaCha8Rng::seed_from_u64(seed),
        max_seq: opts.max_seq.max(1),
        max_depth: opts.max_depth.min(MAX_DEPTH),
        p_split,
        loops: opts.loops,
        inputs: opts.inputs,
    };
    let mut items = g.seq(0, 0, g.max_seq);
    g.ensure_top_if(&mut items);
    let grid = opts.grid.clamp(1, MAX_GRID).div_ceil(64) * 64;
    emit(seed, grid, opts.inputs, &items)
}

impl Gen {
    /// A random working VGPR.
    fn work(&mut self) -> u32 {
        WORK[self.rng.gen_range(0..WORK.len())]
    }

    /// A random source VGPR: a working one, `a` (v6) or the local id (v0).
    fn src(&mut self) -> u32 {
        match self.rng.gen_range(0..6) {
            0 => 6,
            1 => 0,
            _ => self.work(),
        }
    }

    /// A sequence at if-nesting `depth`; `used` holds the lane bits tested by enclosing ifs.
    fn seq(&mut self, depth: usize, used: u32, max_len: usize) -> Vec<Item> {
        let len = self.rng.gen_range(1..=max_len.max(1));
        (0..len).map(|_| self.item(depth, used)).collect()
    }

    /// One random item.
    fn item(&mut self, depth: usize, used: u32) -> Item {
        let kinds = if depth < self.max_depth { 10 } else { 7 };
        match self.rng.gen_range(0..kinds) {
            0..=2 => Item::Straight(self.straight()),
            3 | 4 => Item::Straight(self.load_use()),
            5 | 6 if self.loops => self.uniform_loop(),
            5 | 6 => Item::Straight(self.straight()),
            _ => self.masked_if(depth, used),
        }
    }

    /// 1..=3 VALU ops, or a SALU op feeding a VALU op.
    fn straight(&mut self) -> Vec<String> {
        if self.rng.gen_bool(0.25) {
            return self.salu();
        }
        let n = self.rng.gen_range(1..=3);
        (0..n).map(|_| self.valu()).collect()
    }

    /// One VALU op on the working registers.
    fn valu(&mut self) -> String {
        let (d, a, b) = (self.work(), self.src(), self.src());
        let k = self.rng.gen_range(1..=31);
        match self.rng.gen_range(0..10) {
            0 => format!("    v_add_u32 v{d}, vcc, v{a}, v{b}"),
            1 => format!("    v_sub_u32 v{d}, vcc, v{a}, v{b}"),
            2 => format!("    v_xor_b32 v{d}, v{a}, v{b}"),
            3 => format!("    v_or_b32 v{d}, v{a}, v{b}"),
            4 => format!("    v_mul_lo_u32 v{d}, v{a}, {}", k % 7 + 2),
            5 => format!("    v_lshlrev_b32 v{d}, {}, v{a}", k % 5 + 1),
            6 => format!("    v_ashrrev_i32 v{d}, {}, v{a}", k % 5 + 1),
            7 => format!("    v_add_u32 v{d}, vcc, {k}, v{a}"),
            8 => format!("    v_max_i32 v{d}, v{a}, v{b}"),
            _ => format!("    v_bfe_u32 v{d}, v{a}, {}, 8", k % 24),
        }
    }

    /// A scalar temporary (s13) computed from the launch registers and used at once.
    fn salu(&mut self) -> Vec<String> {
        let k = self.rng.gen_range(1..=60);
        let d = self.work();
        let def = match self.rng.gen_range(0..3) {
            0 => format!("    s_mul_i32 s13, s2, {k}"),
            1 => format!("    s_lshl_b32 s13, s4, {}", k % 8),
            _ => format!("    s_add_u32 s13, s3, {k}"),
        };
        let add = self.rng.gen_bool(0.5);
        let usage = if add {
            format!("    v_add_u32 v{d}, vcc, s13, v{d}")
        } else {
            format!("    v_xor_b32 v{d}, s13, v{d}")
        };
        vec![def, usage]
    }

    /// A load of A[i] into v11, waited for, then used.
    fn load_use(&mut self) -> Vec<String> {
        let d = self.work();
        let usage = match self.rng.gen_range(0..3) {
            0 => format!("    v_add_u32 v{d}, vcc, v11, v{d}"),
            1 => format!("    v_xor_b32 v{d}, v11, v{d}"),
            _ => format!("    v_mul_lo_u32 v{d}, v11, v{d}"),
        };
        vec![
            "    flat_load_dword v11, v[2:3]".into(),
            "    s_waitcnt vmcnt(0)".into(),
            usage,
        ]
    }

    /// A uniform loop with a constant trip count 1..=4 (or, with [`GenOptions::inputs`], half
    /// the time `levels`); the body may use the counter s12.
    fn uniform_loop(&mut self) -> Item {
        let trips = match self.inputs && self.rng.gen_bool(0.5) {
            true => None,
            false => Some(self.rng.gen_range(1..=4)),
        };
        let mut body = if self.rng.gen_bool(0.3) {
            self.load_use()
        } else {
            self.straight()
        };
        let d = self.work();
        body.push(format!("    v_add_u32 v{d}, vcc, s12, v{d}"));
        Item::Loop { trips, body }
    }

    /// A lane-dependent VCC condition; returns it and the lane bits now used.
    fn condition(&mut self, used: u32) -> (Vec<String>, u32) {
        let free: Vec<u32> = (0..LANE_BITS).filter(|b| used & (1 << b) == 0).collect();
        if !free.is_empty() && self.rng.gen_bool(0.6) {
            let b = free[self.rng.gen_range(0..free.len())];
            return (self.lane_bit(b), used | (1 << b));
        }
        let t = self.rng.gen_range(-16..=40);
        let b = self.rng.gen_range(0..LANE_BITS);
        let cond = match self.rng.gen_range(0..2) {
            0 => vec![format!("    v_cmp_lt_i32 vcc, {t}, v6")],
            _ => vec![
                "    v_xor_b32 v12, v6, v0".into(),
                format!("    v_bfe_u32 v12, v12, {b}, 1"),
                "    v_cmp_eq_u32 vcc, 1, v12".into(),
            ],
        };
        (cond, used)
    }

    /// VCC = bit `b` of the local id (or its complement).
    fn lane_bit(&mut self, b: u32) -> Vec<String> {
        let want = u32::from(self.rng.gen_bool(0.5));
        vec![
            format!("    v_bfe_u32 v12, v0, {b}, 1"),
            format!("    v_cmp_eq_u32 vcc, {want}, v12"),
        ]
    }

    /// Whether a two-armed if carries split/merge.
    fn roll_split(&mut self) -> bool {
        self.rng.gen_bool(self.p_split)
    }

    /// A one- or two-armed masked if at nesting `depth`.
    fn masked_if(&mut self, depth: usize, used: u32) -> Item {
        let heavy = self.inputs && self.rng.gen_bool(0.35);
        let (cond, inner) = match heavy {
            true => (vec!["    v_cmp_lt_i32 vcc, s15, v6".to_string()], used),
            false => self.condition(used),
        };
        let arm_len = self.max_seq / 2;
        let mut then = self.seq(depth + 1, inner, arm_len);
        if heavy {
            for _ in 0..self.rng.gen_range(2..=4) {
                then.push(Item::Straight(self.load_use()));
            }
        }
        if self.rng.gen_bool(0.25) {
            return Item::If {
                cond,
                split: false,
                then,
                els: None,
            };
        }
        let els = Some(self.seq(depth + 1, inner, arm_len));
        let split = self.roll_split();
        Item::If {
            cond,
            split,
            then,
            els,
        }
    }

    /// Inserts a two-armed lane-bit if at the top level when there is none, so the lanes of
    /// every generated kernel diverge.
    fn ensure_top_if(&mut self, items: &mut Vec<Item>) {
        let has = items
            .iter()
            .any(|i| matches!(i, Item::If { els: Some(_), .. }));
        if has {
            return;
        }
        let b = self.rng.gen_range(0..LANE_BITS);
        let cond = self.lane_bit(b);
        let then = vec![Item::Straight(self.straight())];
        let els = Some(vec![Item::Straight(self.load_use())]);
        let split = self.roll_split();
        let at = self.rng.gen_range(0..=items.len());
        items.insert(
            at,
            Item::If {
                cond,
                split,
                then,
                els,
            },
        );
    }
}

/// The most split ifs live at once along any path through `items`.
fn live_splits(items: &[Item]) -> u32 {
    items
        .iter()
        .map(|item| match item {
            Item::If {
                split, then, els, ..
            } => {
                let arms = live_splits(then).max(els.as_deref().map_or(0, live_splits));
                u32::from(*split) + arms
            }
            _ => 0,
        })
        .max()
        .unwrap_or(0)
}

/// Writes the kernel text: header, prologue, items, epilogue.
fn emit(seed: u64, grid: u32, inputs: bool, items: &[Item]) -> String {
    let mut e = Emitter {
        out: String::new(),
        labels: 0,
    };
    let min_s = live_splits(items).max(1);
    e.line(&format!(
        "// gen_kernel: random structured divergent kernel, seed {seed:#x}."
    ));
    e.line("// out[i] = f(A[i], i); EXEC save pair of if-nesting level d: s[16+2d:17+2d].");
    e.line(&format!("// @grid {grid}"));
    e.line("// @wg 64");
    match inputs {
        true => {
            e.line("// levels (argument 2, s14): trip count of some loops; thresh (argument 3,");
            e.line("// s15): the heavy arms run for the lanes with a > thresh.");
            e.line("// @args int:grid zero:grid 2 60");
            e.line("// @range 2 0..4");
            e.line("// @range 3 0..120");
        }
        false => e.line("// @args int:grid zero:grid"),
    }
    e.line(&format!("// @min-s {min_s}"));
    e.line(".text");
    if inputs {
        e.line("    s_load_dwordx2 s[14:15], s[0:1], 0x10    // levels, thresh");
    }
    PROLOGUE.iter().for_each(|l| e.line(l));
    e.items(items, 0);
    EPILOGUE.iter().for_each(|l| e.line(l));
    e.out
}

/// Loads a = A[i] into v6, computes &A[i] (v[2:3]) and &out[i] (v[4:5]), seeds v7..v10.
const PROLOGUE: [&str; 17] = [
    "    s_load_dwordx4 s[8:11], s[0:1], 0x0      // s[8:9] = A, s[10:11] = out",
    "    s_mul_i32 s5, s2, s3",
    "    v_add_u32 v1, vcc, s5, v0                // i",
    "    v_lshlrev_b32 v1, 2, v1                  // 4i",
    "    s_waitcnt lgkmcnt(0)",
    "    v_mov_b32 v3, s9",
    "    v_add_u32 v2, vcc, s8, v1",
    "    v_addc_u32 v3, vcc, 0, v3, vcc           // v[2:3] = &A[i]",
    "    flat_load_dword v6, v[2:3]               // a",
    "    v_mov_b32 v5, s11",
    "    v_add_u32 v4, vcc, s10, v1",
    "    v_addc_u32 v5, vcc, 0, v5, vcc           // v[4:5] = &out[i]",
    "    s_waitcnt vmcnt(0)",
    "    v_mov_b32 v7, v6",
    "    v_mov_b32 v8, v0",
    "    v_xor_b32 v9, v6, v0",
    "    v_mov_b32 v10, s2",
];

/// Folds v7..v10 into out[i] and ends.
const EPILOGUE: [&str; 5] = [
    "    v_xor_b32 v7, v7, v8",
    "    v_add_u32 v7, vcc, v7, v9",
    "    v_xor_b32 v7, v7, v10",
    "    flat_store_dword v[4:5], v7",
    "    s_endpgm",
];

/// Text output with a label counter.
struct Emitter {
    out: String,
    labels: u32,
}

impl Emitter {
    /// Appends one line.
    fn line(&mut self, l: &str) {
        let _ = writeln!(self.out, "{l}");
    }

    /// A fresh label stem `gN`.
    fn label(&mut self) -> String {
        self.labels += 1;
        format!("g{}", self.labels)
    }

    /// Emits `items` at if-nesting `depth`.
    fn items(&mut self, items: &[Item], depth: usize) {
        for item in items {
            match item {
                Item::Straight(lines) => lines.iter().for_each(|l| self.line(l)),
                Item::Loop { trips, body } => self.uniform_loop(*trips, body),
                Item::If {
                    cond,
                    split,
                    then,
                    els,
                } => {
                    cond.iter().for_each(|l| self.line(l));
                    match els {
                        Some(els) => self.if_else(*split, then, els, depth),
                        None => self.if_then(then, depth),
                    }
                }
            }
        }
    }

    /// `s_mov_b32 s12, 0; L: s_cmp_ge_u32 s12, N; s_cbranch_scc1 L_done; body; …` (N: the
    /// count, or s14 for `levels`).
    fn uniform_loop(&mut self, trips: Option<u32>, body: &[String]) {
        let l = self.label();
        let n = trips.map_or("s14".to_string(), |t| t.to_string());
        self.line("    s_mov_b32 s12, 0");
        self.line(&format!("{l}_loop:"));
        self.line(&format!("    s_cmp_ge_u32 s12, {n}"));
        self.line(&format!("    s_cbranch_scc1 {l}_done"));
        body.iter().for_each(|b| self.line(b));
        self.line("    s_add_u32 s12, s12, 1");
        self.line(&format!("    s_branch {l}_loop"));
        self.line(&format!("{l}_done:"));
    }

    /// The EXEC save pair of nesting level `depth`.
    fn save(depth: usize) -> String {
        format!("s[{}:{}]", 16 + 2 * depth, 17 + 2 * depth)
    }

    /// LLVM's canonical two-armed GCN if/else (VCC already set).
    fn if_else(&mut self, split: bool, then: &[Item], els: &[Item], depth: usize) {
        let (l, s) = (self.label(), Self::save(depth));
        if split {
            self.line("    s_waitcnt 0");
            self.line("    split vcc_lo, vcc_hi");
        }
        self.line(&format!("    s_and_saveexec_b64 {s}, vcc"));
        self.line(&format!("    s_xor_b64 {s}, exec, {s}"));
        self.line(&format!("    s_cbranch_execz {l}_else"));
        self.items(then, depth + 1);
        self.line(&format!("{l}_else:"));
        self.line(&format!("    s_or_saveexec_b64 {s}, {s}"));
        self.line(&format!("    s_xor_b64 exec, {s}, exec"));
        self.line(&format!("    s_cbranch_execz {l}_join"));
        self.items(els, depth + 1);
        self.line(&format!("{l}_join:"));
        self.line(&format!("    s_or_b64 exec, exec, {s}"));
        if split {
            self.line("    s_waitcnt 0");
            self.line("    merge");
        }
    }

    /// A one-armed if (VCC already set), never split.
    fn if_then(&mut self, then: &[Item], depth: usize) {
        let (l, s) = (self.label(), Self::save(depth));
        self.line(&format!("    s_and_saveexec_b64 {s}, vcc"));
        self.line(&format!("    s_cbranch_execz {l}_join"));
        self.items(then, depth + 1);
        self.line(&format!("{l}_join:"));
        self.line(&format!("    s_or_b64 exec, exec, {s}"));
    }
}
