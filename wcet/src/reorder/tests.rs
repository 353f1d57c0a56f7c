//! Cross-module tests: the paper's worked example (Fig. 7, Table 1), order sensitivity, the
//! loop + barrier kernel, R1 ≡ R0 on random loop-free kernels, R1 on
//! random loop kernels, the SIMT analyzer against single-thread runs, and typed errors.

use std::collections::BTreeSet;

use proptest::prelude::*;

use super::analyzer::{analyze, analyze_with, Access, Analysis, AnalyzeError, Options, WarpTrace};
use super::estimator::{estimate, CacheConfig, WritePolicy};
use super::interp::{run_thread, unflatten, ExecError, ThreadCtx};
use super::kernels::{EXAMPLE, LOOP_BARRIER};
use super::order::{
    check_barrier_safe, in_program_order, release_order, OrderError, Released, Rule,
};
use super::ptx::{Kernel, PtxError};
use super::wcet_eq::{safe_latency, worst_per_pc, Worst};

/// The analyzer output of the paper's worked example, verbatim.
const EXAMPLE_OUTPUT: &str = "\
-num_pcs 2
-pc_addrs [ 64 , 80 ]
-grid [ 1 , 2 , 1 ]
-block [ 16 , 4 , 1 ]
Block [ 0 , 0 , 0 ]
Warp0 [ 1 , 0 ]
Warp0 [ [ [ 0 , 128 , 256 , 384 ] , L ] , None ]
Warp1 [ 1 , 0 ]
Warp1 [ [ [ 0 , 128 , 256 , 384 ] , L ] , None ]
Block [ 0 , 1 , 0 ]
Warp0 [ 0 , 1 ]
Warp0 [ None , [ [ 2048 , 2176 , 2304 , 2432 ] , S ] ]
Warp1 [ 0 , 1 ]
Warp1 [ None , [ [ 2048 , 2176 , 2304 , 2432 ] , S ] ]
";

fn example() -> Analysis {
    let k = Kernel::parse(EXAMPLE).unwrap();
    analyze(&k, &[0], [1, 2, 1], [16, 4, 1]).unwrap()
}

fn rel(block: u32, warp: u32, index: usize) -> Released {
    Released { block, warp, index }
}

#[test]
fn paper_example_analyzer_output_is_verbatim() {
    let a = example();
    assert_eq!(a.paper_format(), EXAMPLE_OUTPUT);
    assert_eq!(a.warps[0].accesses[0].mask, u32::MAX);
    assert_eq!(a.warps[2].accesses[0].lines, vec![16, 17, 18, 19]);
}

#[test]
fn paper_example_r0_order_is_fig7() {
    let a = example();
    let want = vec![rel(0, 0, 0), rel(0, 1, 0), rel(1, 0, 0), rel(1, 1, 0)];
    assert_eq!(release_order(&a, Rule::R0, 8).unwrap(), want);
    assert_eq!(release_order(&a, Rule::R0, 2).unwrap(), want);
    assert_eq!(
        release_order(&a, Rule::R1 { epoch_major: true }, 8).unwrap(),
        want
    );
}

#[test]
fn paper_example_miss_counts() {
    let a = example();
    let order = release_order(&a, Rule::R0, 8).unwrap();
    let cold = CacheConfig::l1_16k();
    let e = estimate(&a, &order, cold).unwrap();
    assert_eq!((e.accesses, e.misses), (16, 12));
    assert_eq!((e.load_accesses, e.load_misses), (8, 4));
    assert_eq!(e.per_access, vec![4, 0, 4, 4]);
    assert_eq!(e.miss_rate(), 0.75);
    let sets: BTreeSet<u32> = e.events.iter().map(|ev| ev.set).collect();
    assert_eq!(sets, BTreeSet::from([0, 1, 2, 3, 16, 17, 18, 19]));
    assert!(e.events.iter().all(|ev| ev.victim.is_none()));
    let wb = estimate(&a, &order, cold.with_write(WritePolicy::WriteBackAllocate)).unwrap();
    assert_eq!((wb.accesses, wb.misses), (16, 8));
    assert_eq!(wb.per_access, vec![4, 0, 4, 0]);
    // The same counts under the other sizes: nothing conflicts.
    for cfg in [CacheConfig::l1_32k(), CacheConfig::l1_64k()] {
        assert_eq!(estimate(&a, &order, cfg).unwrap().misses, 12);
    }
}

#[test]
fn paper_example_safe_latency() {
    let a = example();
    let order = release_order(&a, Rule::R0, 8).unwrap();
    let e = estimate(&a, &order, CacheConfig::l1_16k()).unwrap();
    let worst = worst_per_pc(&a, &order, &e).unwrap();
    assert_eq!(worst, vec![Worst { coal: 4, misses: 4 }; 2]);
    assert_eq!(
        safe_latency(worst[0].coal, worst[0].misses, 200, 15),
        Ok(4 + 200 + 60)
    );
}

fn ld(pc: u32, pc_idx: u8, line: u32) -> Access {
    Access {
        pc,
        pc_idx,
        k: 0,
        epoch: 0,
        is_store: false,
        lines: vec![line],
        mask: 1,
    }
}

#[test]
fn order_sensitivity_section_7_2() {
    let (a_, b_, c_) = (0, 1, 2);
    let trace = |warp, l1, l2| WarpTrace {
        block: 0,
        warp,
        accesses: vec![ld(0x10, 0, l1), ld(0x20, 1, l2)],
    };
    let a = Analysis {
        ldst_pcs: vec![0x10, 0x20],
        grid: [1, 1, 1],
        block: [64, 1, 1],
        warps: vec![trace(0, a_, a_), trace(1, b_, c_)],
    };
    let cfg = CacheConfig {
        sets: 1,
        ways: 2,
        line_bytes: 128,
        write: WritePolicy::EvictNoAllocate,
    };
    let r0 = release_order(&a, Rule::R0, 1).unwrap();
    assert_eq!(
        r0,
        vec![rel(0, 0, 0), rel(0, 1, 0), rel(0, 0, 1), rel(0, 1, 1)]
    );
    let e = estimate(&a, &r0, cfg).unwrap();
    assert_eq!((e.misses, e.accesses), (3, 4));
    // Default scheduling with W1.p2 first: A, B, C, A.
    let abca = [rel(0, 0, 0), rel(0, 1, 0), rel(0, 1, 1), rel(0, 0, 1)];
    let e = estimate(&a, &abca, cfg).unwrap();
    assert_eq!((e.misses, e.accesses), (4, 4));
    assert!(estimate(&a, &abca[..3], cfg).is_err());
}

#[test]
fn loop_barrier_kernel_r1_is_program_ordered_and_epoch_major() {
    let k = Kernel::parse(LOOP_BARRIER).unwrap();
    let a = analyze(&k, &[0], [3, 1, 1], [64, 1, 1]).unwrap();
    assert_eq!(a.ldst_pcs, vec![40, 96]);
    for t in &a.warps {
        let d: Vec<(u32, u16, u8, Vec<u32>)> = t
            .accesses
            .iter()
            .map(|x| (x.pc, x.k, x.epoch, x.lines.clone()))
            .collect();
        let w = t.warp;
        let mut want: Vec<_> = (0..4u32)
            .map(|i| (40, i as u16, i as u8, vec![8 * i + w]))
            .collect();
        want.push((96, 0, 4, vec![64]));
        assert_eq!(d, want);
    }
    let order = release_order(&a, Rule::R1 { epoch_major: true }, 2).unwrap();
    // wave 0 = blocks 0, 1; wave 1 = block 2; inside a wave epoch by epoch, warps in static order.
    let mut want = Vec::new();
    for wave in [&[0u32, 1][..], &[2][..]] {
        for e in 0..5 {
            for &b in wave {
                want.extend([rel(b, 0, e), rel(b, 1, e)]);
            }
        }
    }
    assert_eq!(order, want);
    assert!(in_program_order(&order));
    check_barrier_safe(&a, &order).unwrap();
    let e = estimate(&a, &order, CacheConfig::l1_16k()).unwrap();
    assert_eq!((e.accesses, e.misses), (30, 9));
    let r0 = release_order(&a, Rule::R0, 2);
    assert_eq!(
        r0,
        Err(OrderError::LoopInR0 {
            block: 0,
            warp: 0,
            pc: 40
        })
    );
    assert!(r0
        .unwrap_err()
        .to_string()
        .contains("R0 is undefined for loops"));
}

#[test]
fn errors_are_typed_with_clear_messages() {
    let bad = Kernel::parse(".entry k ( .param .u64 p )\n{\n  mov.u32 %r1, 0;\n}").unwrap_err();
    assert_eq!(
        bad,
        PtxError::UnknownRegister {
            line: 3,
            name: "%r1".into()
        }
    );
    assert!(bad.to_string().contains("unknown register `%r1`"));
    let e = Kernel::parse(".entry k ( .param .u64 p )\n{\n  .reg .u32 %r<2>;\n  frob %r1;\n}")
        .unwrap_err();
    assert_eq!(e.to_string(), "line 4: unknown instruction `frob`");
    let e = Kernel::parse(".entry k ( .param .u64 p \n{ exit; }").unwrap_err();
    assert!(matches!(e, PtxError::Syntax { line: 1, .. }), "{e}");

    let spin = Kernel::parse(".entry k ( ) { $S: bra.uni $S; }").unwrap();
    let e = analyze_with(
        &spin,
        &[],
        [1, 1, 1],
        [1, 1, 1],
        Options { step_limit: 1000 },
    )
    .unwrap_err();
    assert_eq!(
        e,
        AnalyzeError::StepLimit {
            block: 0,
            warp: 0,
            limit: 1000
        }
    );
    assert!(e.to_string().contains("more than 1000 instructions"));

    let k = Kernel::parse(EXAMPLE).unwrap();
    let e = analyze(&k, &[1 << 40], [1, 2, 1], [16, 4, 1]).unwrap_err();
    assert!(
        matches!(
            e,
            AnalyzeError::Exec {
                lane: Some(0),
                error: ExecError::AddressRange { line: 13, .. },
                ..
            }
        ),
        "{e}"
    );
}

// ---- random structured kernels ----------------------------------------------------------------

/// A source of a condition or an address term.
#[derive(Clone, Copy, Debug)]
enum Src {
    TidX,
    TidY,
    CtaX,
    CtaY,
}

impl Src {
    fn reg(self) -> &'static str {
        match self {
            Src::TidX => "%r1",
            Src::TidY => "%r2",
            Src::CtaX => "%r3",
            Src::CtaY => "%r4",
        }
    }
}

#[derive(Clone, Debug)]
struct Cond {
    src: Src,
    cmp: &'static str,
    imm: u32,
}

#[derive(Clone, Debug)]
enum Item {
    /// `[@p] ld/st.global.u32 [base + 4·(a·tid.x + b·tid.y + c·ctaid.x + d) + off]`.
    Mem {
        store: bool,
        coef: [u32; 4],
        off: u32,
        guard: Option<Cond>,
    },
    /// `if cond { then } else { els }`.
    If {
        cond: Cond,
        then: Vec<Item>,
        els: Option<Vec<Item>>,
    },
    /// `bar.sync 0` (anywhere, also in divergent code: the analyzer just counts it).
    Bar,
    /// `for i < trips + (tid.x % spread) { body [bar.sync] }` (`spread > 1` only without barrier).
    Loop {
        trips: u32,
        spread: u32,
        barrier: bool,
        body: Vec<Item>,
    },
}

#[derive(Default)]
struct Emit {
    text: String,
    preds: usize,
    labels: usize,
    counters: usize,
}

impl Emit {
    fn line(&mut self, s: &str) {
        self.text += "  ";
        self.text += s;
        self.text += "\n";
    }

    fn setp(&mut self, c: &Cond) -> String {
        let p = format!("%p{}", self.preds);
        self.preds += 1;
        self.line(&format!(
            "setp.{}.u32 {p}, {}, {};",
            c.cmp,
            c.src.reg(),
            c.imm
        ));
        p
    }

    fn items(&mut self, items: &[Item]) {
        for it in items {
            match it {
                Item::Mem {
                    store,
                    coef,
                    off,
                    guard,
                } => self.mem(*store, coef, *off, guard.as_ref()),
                Item::If { cond, then, els } => self.if_(cond, then, els.as_deref()),
                Item::Bar => self.line("bar.sync 0;"),
                Item::Loop {
                    trips,
                    spread,
                    barrier,
                    body,
                } => self.loop_(*trips, *spread, *barrier, body),
            }
        }
    }

    fn mem(&mut self, store: bool, coef: &[u32; 4], off: u32, guard: Option<&Cond>) {
        self.line(&format!("mul.lo.u32 %r10, %r1, {};", coef[0]));
        self.line(&format!("mad.lo.u32 %r10, %r2, {}, %r10;", coef[1]));
        self.line(&format!("mad.lo.u32 %r10, %r3, {}, %r10;", coef[2]));
        self.line(&format!("add.u32 %r10, %r10, {};", coef[3]));
        self.line("mul.wide.u32 %rd2, %r10, 4;");
        self.line("add.u64 %rd3, %rd1, %rd2;");
        let g = guard
            .map(|c| format!("@{} ", self.setp(c)))
            .unwrap_or_default();
        if store {
            self.line(&format!("{g}st.global.u32 [%rd3+{off}], %r11;"));
        } else {
            self.line(&format!("{g}ld.global.u32 %r11, [%rd3+{off}];"));
        }
    }

    fn if_(&mut self, cond: &Cond, then: &[Item], els: Option<&[Item]>) {
        let n = self.labels;
        self.labels += 1;
        let p = self.setp(cond);
        let skip = if els.is_some() {
            format!("$ELSE{n}")
        } else {
            format!("$END{n}")
        };
        self.line(&format!("@{p} bra {skip};"));
        self.items(then);
        if let Some(els) = els {
            self.line(&format!("bra $END{n};"));
            self.text += &format!("$ELSE{n}:\n");
            self.items(els);
        }
        self.text += &format!("$END{n}:\n");
    }

    fn loop_(&mut self, trips: u32, spread: u32, barrier: bool, body: &[Item]) {
        let (n, c) = (self.labels, self.counters);
        self.labels += 1;
        self.counters += 1;
        let (ctr, lim) = (format!("%r{}", 20 + 2 * c), format!("%r{}", 21 + 2 * c));
        self.line(&format!("rem.u32 {lim}, %r1, {spread};"));
        self.line(&format!("add.u32 {lim}, {lim}, {trips};"));
        self.line(&format!("mov.u32 {ctr}, 0;"));
        self.text += &format!("$LOOP{n}:\n");
        self.items(body);
        if barrier {
            self.line("bar.sync 0;");
        }
        self.line(&format!("add.u32 {ctr}, {ctr}, 1;"));
        let p = format!("%p{}", self.preds);
        self.preds += 1;
        self.line(&format!("setp.lt.u32 {p}, {ctr}, {lim};"));
        self.line(&format!("@{p} bra $LOOP{n};"));
    }
}

fn program(items: &[Item]) -> String {
    let mut e = Emit::default();
    e.items(items);
    format!(
        ".entry rnd ( .param .u64 base )\n{{\n  .reg .u32 %r<128>; .reg .u64 %rd<8>; .reg .pred %p<256>;\n\
         ld.param.u64 %rd1, [base];\n mov.u32 %r1, %tid.x;\n mov.u32 %r2, %tid.y;\n\
         mov.u32 %r3, %ctaid.x;\n mov.u32 %r4, %ctaid.y;\n{}  exit;\n}}\n",
        e.text
    )
}

fn arb_src() -> impl Strategy<Value = Src> {
    prop_oneof![
        Just(Src::TidX),
        Just(Src::TidY),
        Just(Src::CtaX),
        Just(Src::CtaY)
    ]
}

fn arb_cond() -> impl Strategy<Value = Cond> {
    let cmp = prop_oneof![
        Just("eq"),
        Just("ne"),
        Just("lt"),
        Just("le"),
        Just("gt"),
        Just("ge")
    ];
    (arb_src(), cmp, 0u32..40).prop_map(|(src, cmp, imm)| Cond { src, cmp, imm })
}

fn arb_mem() -> impl Strategy<Value = Item> {
    (
        any::<bool>(),
        [0u32..40, 0u32..80, 0u32..600, 0u32..2000],
        0u32..256,
        proptest::option::weighted(0.3, arb_cond()),
    )
        .prop_map(|(store, coef, off, guard)| Item::Mem {
            store,
            coef,
            off: off * 4,
            guard,
        })
}

fn arb_items(loops: bool) -> impl Strategy<Value = Vec<Item>> {
    let leaf = prop_oneof![8 => arb_mem(), 1 => Just(Item::Bar)];
    let tree = leaf.prop_recursive(3, 24, 4, move |inner| {
        let body = prop::collection::vec(inner, 1..4);
        let iff = (arb_cond(), body.clone(), prop::option::of(body.clone()))
            .prop_map(|(cond, then, els)| Item::If { cond, then, els });
        let lp =
            (1u32..4, 1u32..4, any::<bool>(), body).prop_map(|(trips, spread, barrier, body)| {
                Item::Loop {
                    trips,
                    spread: if barrier { 1 } else { spread },
                    barrier,
                    body,
                }
            });
        if loops {
            prop_oneof![2 => iff, 1 => lp].boxed()
        } else {
            iff.boxed()
        }
    });
    prop::collection::vec(tree, 1..5)
}

/// (grid, block, resident blocks, base address).
fn arb_launch() -> impl Strategy<Value = ([u32; 3], [u32; 3], usize, u64)> {
    (
        (1u32..4, 1u32..3),
        (1u32..41, 1u32..4),
        1usize..5,
        0u64..4096,
    )
        .prop_map(|((gx, gy), (bx, by), r, base)| ([gx, gy, 1], [bx, by, 1], r, base * 128))
}

/// Each thread run alone performs exactly the accesses its lane takes part in, in the same
/// order, and every access's lines are the union of its lanes' lines.
fn check_against_threads(k: &Kernel, a: &Analysis, params: &[u64]) {
    let threads = a.block.iter().product::<u32>();
    for t in &a.warps {
        let mut lines: Vec<BTreeSet<u32>> = vec![BTreeSet::new(); t.accesses.len()];
        for lane in 0..32u32 {
            let tl = t.warp * 32 + lane;
            if tl >= threads {
                break;
            }
            let ctx = ThreadCtx {
                tid: unflatten(tl, a.block),
                ntid: a.block,
                ctaid: unflatten(t.block, a.grid),
                nctaid: a.grid,
            };
            let alone = run_thread(k, params, ctx, 1_000_000).unwrap();
            let mine: Vec<usize> = (0..t.accesses.len())
                .filter(|&i| (t.accesses[i].mask >> lane) & 1 == 1)
                .collect();
            assert_eq!(alone.len(), mine.len(), "block {} thread {tl}", t.block);
            for (x, &i) in alone.iter().zip(&mine) {
                assert_eq!(x.index as u32 * 8, t.accesses[i].pc);
                assert_eq!(x.access.is_store, t.accesses[i].is_store);
                lines[i].insert(x.access.addr >> 7);
            }
        }
        for (acc, want) in t.accesses.iter().zip(lines) {
            assert_eq!(acc.lines, want.into_iter().collect::<Vec<_>>());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    /// On loop-free kernels R1 without the epoch is R0; with the epoch too when there is
    /// no barrier.
    #[test]
    fn r1_equals_r0_on_loop_free_kernels(
        items in arb_items(false),
        (grid, block, r, base) in arb_launch(),
    ) {
        let k = Kernel::parse(&program(&items)).unwrap();
        let a = analyze(&k, &[base], grid, block).unwrap();
        a.validate().unwrap();
        check_against_threads(&k, &a, &[base]);
        let r0 = release_order(&a, Rule::R0, r).unwrap();
        prop_assert!(in_program_order(&r0));
        let naive = release_order(&a, Rule::R1 { epoch_major: false }, r).unwrap();
        prop_assert_eq!(&naive, &r0);
        let em = release_order(&a, Rule::R1 { epoch_major: true }, r).unwrap();
        check_barrier_safe(&a, &em).unwrap();
        let barrier_free = a.warps.iter().flat_map(|t| &t.accesses).all(|x| x.epoch == 0);
        if barrier_free {
            prop_assert_eq!(&em, &r0);
        }
        // The paper's format shows every instance (one per PC here).
        let text = a.paper_format();
        prop_assert_eq!(text.matches("L ]").count() + text.matches("S ]").count(), a.instance_count());
    }

    /// With loops: R1 releases each warp in program order, wave- then epoch-major, and
    /// never lets an epoch overtake a block-mate's earlier epoch.
    #[test]
    fn r1_on_loop_kernels_is_program_ordered_epoch_major_and_barrier_safe(
        items in arb_items(true),
        (grid, block, r, base) in arb_launch(),
    ) {
        let k = Kernel::parse(&program(&items)).unwrap();
        let a = analyze(&k, &[base], grid, block).unwrap();
        check_against_threads(&k, &a, &[base]);
        let order = release_order(&a, Rule::R1 { epoch_major: true }, r).unwrap();
        prop_assert!(in_program_order(&order));
        check_barrier_safe(&a, &order).unwrap();
        let epoch = |x: &Released| a.warp(x.block, x.warp).unwrap().accesses[x.index].epoch;
        let keys: Vec<(u32, u8)> = order.iter().map(|x| (x.block / r as u32, epoch(x))).collect();
        prop_assert!(keys.windows(2).all(|w| w[0] <= w[1]), "not wave/epoch-major: {:?}", keys);
        let e = estimate(&a, &order, CacheConfig::l1_16k()).unwrap();
        let per_access: u64 = e.per_access.iter().map(|&m| u64::from(m)).sum();
        prop_assert_eq!(per_access, e.misses);
    }
}
