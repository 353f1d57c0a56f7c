//! The kernels of `firmware/kernels/`: each is assembled, launched from its `// @` header
//! (over several seeds and grid sizes) on the reference interpreter, and its output buffers
//! are compared with plain Rust written from the kernel's documented meaning. The split/merge
//! structure of each kernel is checked too.

use rtgpu_firmware::interp::{run, InterpConfig};
use rtgpu_firmware::isa::{assemble, Format, Op, Operand, Program};
use rtgpu_firmware::launch::{Arg, Dims, Image, KernelMeta};

const SEEDS: [u64; 4] = [1, 2, 3, 0x5eed];

/// A finished launch: the image it started from and the memory it left.
struct Ran {
    image: Image,
    mem: Vec<u32>,
    dims: Dims,
}

impl Ran {
    /// Buffer `k` before the launch.
    fn input(&self, k: usize) -> &[u32] {
        self.image.buffer(&self.image.mem, k)
    }

    /// Buffer `k` after the launch.
    fn output(&self, k: usize) -> &[u32] {
        self.image.buffer(&self.mem, k)
    }
}

fn source(name: &str) -> String {
    let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn program(name: &str) -> (Program, KernelMeta) {
    let text = source(name);
    let program = assemble(&text, name).unwrap_or_else(|e| panic!("{e}"));
    (program, KernelMeta::parse(&text).unwrap())
}

/// Launches `name` with its header's launch, the grid replaced by `grid` and the scalar
/// arguments by `scalars` (in order) when given.
fn launch(name: &str, grid: Option<u32>, seed: u64, scalars: Option<&[u32]>) -> Ran {
    let (program, meta) = program(name);
    let mut dims = meta.dims;
    dims.grid = grid.unwrap_or(dims.grid);
    let mut given = scalars.unwrap_or(&[]).iter();
    let args: Vec<Arg> = meta
        .args
        .iter()
        .map(|a| match (a, scalars) {
            (Arg::Scalar(_), Some(_)) => Arg::Scalar(*given.next().unwrap()),
            _ => *a,
        })
        .collect();
    let image = Image::build(&args, dims, seed);
    let mut mem = image.mem.clone();
    let cfg = InterpConfig::default();
    run(
        &program.words(),
        0,
        dims,
        meta.lds,
        image.kernarg,
        &mut mem,
        &cfg,
    )
    .unwrap_or_else(|e| panic!("{name} grid {} seed {seed}: {e}", dims.grid));
    Ran { image, mem, dims }
}

fn count(program: &Program, op: Op) -> usize {
    program.items.iter().filter(|l| l.insn.op == op).count()
}

/// Every split follows `v_cmp* vcc` and `s_waitcnt 0` and precedes `s_and_saveexec_b64 ..,
/// vcc` and `s_xor_b64`; every merge follows `s_or_b64 exec, exec, ..` and `s_waitcnt 0`.
fn check_canonical(name: &str, program: &Program) {
    let items = &program.items;
    let vcc = Some(Operand::Special(106));
    let exec = Some(Operand::Special(126));
    let waitcnt0 = |k: usize| items[k].insn.op == Op::SWaitcnt && items[k].insn.imm == 0;
    for (k, l) in items.iter().enumerate() {
        match l.insn.op {
            Op::Split => {
                let cmp = &items[k - 2].insn;
                assert!(
                    cmp.op.info().format == Format::Vopc && !cmp.e64,
                    "{name}: {k}"
                );
                assert!(waitcnt0(k - 1), "{name}: s_waitcnt 0 before split at {k}");
                let save = &items[k + 1].insn;
                assert_eq!((save.op, save.src[0]), (Op::SAndSaveexecB64, vcc), "{name}");
                assert_eq!(items[k + 2].insn.op, Op::SXorB64, "{name}");
                assert_eq!(items[k + 3].insn.op, Op::SCbranchExecz, "{name}");
            }
            Op::Merge => {
                assert!(waitcnt0(k - 1), "{name}: s_waitcnt 0 before merge at {k}");
                let restore = &items[k - 2].insn;
                assert_eq!(
                    (restore.op, restore.dst, restore.src[0]),
                    (Op::SOrB64, exec, exec)
                );
            }
            _ => {}
        }
    }
}

#[test]
fn split_merge_structure() {
    let expect = [
        ("vector_add.s", 0, 1),
        ("fig2_divergent.s", 2, 1),
        ("fig5_nested.s", 2, 2),
        ("loop.s", 0, 1),
        ("lds_reduce.s", 0, 1),
        ("synthetic.s", 1, 1),
    ];
    for (name, splits, min_s) in expect {
        let (program, meta) = program(name);
        assert_eq!(count(&program, Op::Split), splits, "{name} splits");
        assert_eq!(count(&program, Op::Merge), splits, "{name} merges");
        assert_eq!(meta.min_s, min_s, "{name} min-s");
        check_canonical(name, &program);
    }
}

fn f32s(words: &[u32]) -> impl Iterator<Item = f32> + '_ {
    words.iter().map(|w| f32::from_bits(*w))
}

#[test]
fn vector_add() {
    for grid in [None, Some(64), Some(512)] {
        for seed in SEEDS {
            let r = launch("vector_add.s", grid, seed, None);
            let want: Vec<u32> = f32s(r.input(0))
                .zip(f32s(r.input(1)))
                .map(|(a, b)| (a + b).to_bits())
                .collect();
            assert_eq!(r.output(2), want, "grid {} seed {seed}", r.dims.grid);
        }
    }
}

/// fig2_divergent.s's documented function.
fn fig2(x: i32) -> i32 {
    let mut r = if x > 25 {
        let t = x.wrapping_mul(3).wrapping_add(1);
        let r = if x & 1 == 1 {
            (t.wrapping_mul(x).wrapping_sub(7) ^ (x << 2)).wrapping_add(11)
        } else {
            t + 100
        };
        r + 5
    } else {
        let u = x.wrapping_mul(x).wrapping_sub(x.wrapping_mul(3)) ^ (x >> 1);
        u.wrapping_mul(5)
            .wrapping_add(17)
            .wrapping_sub(x.wrapping_mul(2))
    };
    r = if x > 50 {
        r.wrapping_mul(2).wrapping_add(x).wrapping_sub(3)
    } else {
        r.wrapping_sub(x)
    };
    r
}

#[test]
fn fig2_divergent() {
    for grid in [None, Some(64), Some(1024)] {
        for seed in SEEDS {
            let r = launch("fig2_divergent.s", grid, seed, None);
            let want: Vec<u32> = r.input(0).iter().map(|&a| fig2(a as i32) as u32).collect();
            assert_eq!(r.output(1), want, "grid {} seed {seed}", r.dims.grid);
        }
    }
}

/// fig5_nested.s's documented function.
fn fig5(x: i32) -> u32 {
    let mut f = 1u32;
    let v = if x > 0 {
        f |= 2;
        let v = if x > 50 {
            f |= 4;
            x.wrapping_mul(2)
        } else {
            f |= 8;
            x.wrapping_add(1000)
        };
        f |= 16;
        v
    } else {
        f |= 32;
        x.wrapping_neg()
    };
    f |= 64;
    (v as u32) << 8 | f
}

#[test]
fn fig5_nested() {
    for grid in [None, Some(128)] {
        for seed in SEEDS {
            let r = launch("fig5_nested.s", grid, seed, None);
            let want: Vec<u32> = r.input(0).iter().map(|&a| fig5(a as i32)).collect();
            assert_eq!(r.output(1), want, "grid {} seed {seed}", r.dims.grid);
        }
    }
    // Every arm is taken somewhere in the default launch.
    let r = launch("fig5_nested.s", None, 1, None);
    let seen = r.output(1).iter().fold(0, |a, w| a | (w & 0xff));
    assert_eq!(seen, 0x7f);
}

/// loop.s's documented function, as f32 bits.
fn loop_kernel(a: i32, n: u32) -> u32 {
    let x = a as f32;
    let mut acc = 0.0f32;
    for _ in 0..n {
        acc = acc * 0.5 + x;
    }
    let mut p = 1u32;
    for j in 0..(a & 7) as u32 {
        p = p.wrapping_mul(3).wrapping_add(j);
        acc += 0.5;
    }
    (acc + p as f32).to_bits()
}

#[test]
fn loop_kernel_matches() {
    for (grid, n) in [(None, None), (Some(128), Some(0)), (Some(512), Some(3))] {
        for seed in SEEDS {
            let scalars = n.map(|n| [n]);
            let r = launch("loop.s", grid, seed, scalars.as_ref().map(|s| &s[..]));
            let n = n.unwrap_or(10);
            let want: Vec<u32> = r
                .input(0)
                .iter()
                .map(|&a| loop_kernel(a as i32, n))
                .collect();
            assert_eq!(r.output(1), want, "grid {} seed {seed} N {n}", r.dims.grid);
        }
    }
}

#[test]
fn lds_reduce() {
    for grid in [None, Some(512), Some(256)] {
        for seed in SEEDS {
            let r = launch("lds_reduce.s", grid, seed, None);
            let wg = r.dims.wg as usize;
            let groups: Vec<&[u32]> = r.input(0).chunks(wg).collect();
            let sums: Vec<u32> = groups
                .iter()
                .map(|g| g.iter().fold(0u32, |s, &a| s.wrapping_add(a)))
                .collect();
            let positives: Vec<u32> = groups
                .iter()
                .map(|g| g.iter().filter(|&&a| (a as i32) > 0).count() as u32)
                .collect();
            assert_eq!(r.output(1), sums, "grid {} seed {seed}", r.dims.grid);
            assert_eq!(r.output(2), positives, "grid {} seed {seed}", r.dims.grid);
        }
    }
}

/// synthetic.s's documented function for work-item with local id `l` and value `a`.
fn synthetic(l: u32, a: u32, n1: u32, n2: u32, d: u32) -> u32 {
    let mut acc = a;
    for k in 0..n1 {
        acc = (acc ^ a).wrapping_mul(3).wrapping_add(k);
    }
    let c = |j: u32| if j < d { (l >> j) & 1 } else { 0 };
    let p = c(0) + 2 * c(1) + 4 * c(2);
    for _ in 0..n2 {
        acc = match p {
            0 => acc.wrapping_mul(3).wrapping_add(a),
            1 => (acc ^ a).wrapping_add(17),
            2 => (acc << 1).wrapping_sub(a),
            3 => acc.wrapping_mul(5) ^ a,
            4 => (acc >> 1).wrapping_add(a),
            5 => acc.wrapping_sub(a.wrapping_mul(2)),
            6 => (acc | 1).wrapping_mul(a),
            _ => (acc as i32).max(a as i32).wrapping_add(3) as u32,
        };
    }
    acc << 3 | p
}

#[test]
fn synthetic_kernel() {
    let settings: [Option<[u32; 3]>; 5] = [
        None,
        Some([0, 1, 0]),
        Some([2, 3, 1]),
        Some([1, 2, 2]),
        Some([3, 5, 3]),
    ];
    for grid in [None, Some(128)] {
        for s in settings {
            for seed in SEEDS {
                let r = launch("synthetic.s", grid, seed, s.as_ref().map(|s| &s[..]));
                let [n1, n2, d] = s.unwrap_or([4, 8, 3]);
                let wg = r.dims.wg;
                let want: Vec<u32> = (0..r.dims.grid)
                    .map(|i| synthetic(i % wg, r.input(0)[i as usize], n1, n2, d))
                    .collect();
                assert_eq!(r.output(1), want, "grid {} seed {seed} {s:?}", r.dims.grid);
            }
        }
    }
}

#[test]
fn synthetic_divergence_parameter_sets_the_path_count() {
    for d in 0..=3u32 {
        let r = launch("synthetic.s", None, 7, Some(&[1, 1, d]));
        let paths: std::collections::BTreeSet<u32> =
            r.output(1)[..64].iter().map(|w| w & 7).collect();
        assert_eq!(paths.len(), 1 << d, "D = {d}");
    }
}
