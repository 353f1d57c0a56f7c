//! The PWS pass (the compiler flow of the PWS paper's Fig. 6 on GCN's masked-if lowering): the
//! structure of every kernel in `firmware/kernels/`, the split/merge layout `compile` produces in
//! each mode, that the compiled code leaves the same buffers in the reference interpreter, and the
//! errors.

use std::collections::BTreeMap;

use rtgpu_firmware::interp::{self, InterpConfig};
use rtgpu_firmware::isa::{assemble, Op};
use rtgpu_firmware::launch::{Image, KernelMeta};
use rtgpu_firmware::pws_pass::{
    compile, listing, Compiled, Kstruct, Marks, Owner, PassError, PassMode, PassOptions,
};
use rtgpu_wcet::pws::{analyze_pws, no_split_e_wf};

const KERNELS: [&str; 6] = [
    "vector_add.s",
    "fig2_divergent.s",
    "fig5_nested.s",
    "synthetic.s",
    "loop.s",
    "lds_reduce.s",
];

fn source(name: &str) -> String {
    let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"))
}

fn words_of(text: &str) -> Vec<u32> {
    assemble(text, "test")
        .unwrap_or_else(|e| panic!("{e}"))
        .words()
}

fn words(name: &str) -> Vec<u32> {
    words_of(&source(name))
}

fn parse(name: &str) -> Kstruct {
    Kstruct::parse(&words(name)).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn opts(mode: PassMode, s: usize, mark_all: bool) -> PassOptions {
    let marks = if mark_all { Marks::All } else { Marks::Source };
    PassOptions { mode, s, marks }
}

fn run(code: &[u32], opts: &PassOptions) -> Compiled {
    compile(code, opts).unwrap_or_else(|e| panic!("{opts:?}: {e}"))
}

/// The buffers the interpreter leaves (default launch of `meta`, seed `seed`).
fn buffers(code: &[u32], meta: &KernelMeta, seed: u64) -> Vec<Vec<u32>> {
    let image = Image::build(&meta.args, meta.dims, seed);
    interp::buffers(code, meta.dims, meta.lds, &image, &InterpConfig::default())
        .unwrap_or_else(|e| panic!("interpreter: {e}"))
}

/// Every instruction has exactly one owner, and each owner's instructions are contiguous.
fn check_owners(what: &str, ks: &Kstruct) {
    assert_eq!(ks.owners().len(), ks.insns().len(), "{what}");
    let mut seen: BTreeMap<Owner, usize> = BTreeMap::new();
    for (k, (pc, o)) in ks.owners().iter().enumerate() {
        assert_eq!(*pc, ks.insns()[k].pc, "{what}");
        assert_eq!(ks.owner_of(*pc), Some(*o), "{what}");
        if let Some(&prev) = seen.get(o) {
            assert_eq!(prev + 1, k, "{what}: owner {o:?} not contiguous at {pc:#x}");
        }
        seen.insert(*o, k);
        match *o {
            Owner::Block(u) => assert!(u < ks.n_blocks(), "{what}"),
            Owner::Bsb(u) => assert!(ks.is_if(u) && !ks.is_one_armed(u), "{what}"),
        }
    }
    assert_eq!(ks.owner_of(1), None, "{what}");
}

/// Instructions owned per block and per BSB (as costs for [`Kstruct::costed`]).
fn counts(ks: &Kstruct) -> (Vec<u64>, Vec<u64>) {
    let mut block = vec![0; ks.n_blocks()];
    let mut bsb = vec![0; ks.n_blocks()];
    for &(_, o) in ks.owners() {
        match o {
            Owner::Block(u) => block[u] += 1,
            Owner::Bsb(u) => bsb[u] += 1,
        }
    }
    (block, bsb)
}

fn op_at(ks: &Kstruct, pc: u32) -> Op {
    ks.insns()[ks.index_of(pc).unwrap()].insn.op
}

#[test]
fn every_kernel_parses_with_one_owner_per_instruction() {
    for name in KERNELS {
        let ks = parse(name);
        check_owners(name, &ks);
        let last = ks.insns().last().unwrap();
        assert_eq!(last.insn.op, Op::SEndpgm, "{name}");
        assert_eq!(ks.owner_of(last.pc), Some(Owner::Block(ks.conv().exit())));
        // Opaque branches lie in plain blocks.
        for pc in ks.opaque_branches() {
            match ks.owner_of(pc) {
                Some(Owner::Block(u)) => assert!(!ks.is_if(u), "{name} {pc:#x}"),
                o => panic!("{name} {pc:#x}: {o:?}"),
            }
        }
    }
}

#[test]
fn vector_add_is_one_plain_block() {
    let ks = parse("vector_add.s");
    assert_eq!(ks.n_blocks(), 1);
    assert_eq!(ks.n_ifs(), 0);
    assert!(ks.marked().is_empty());
    assert!(ks.opaque_branches().is_empty());
}

#[test]
fn fig2_has_three_ifs_two_marked() {
    let ks = parse("fig2_divergent.s");
    assert_eq!(ks.n_ifs(), 3);
    let ifs = ks.ifs();
    let marked = ks.marked();
    assert_eq!(marked, vec![ifs[0].block, ifs[2].block]);
    assert_eq!(ifs[1].parent, Some(0));
    assert_eq!(ifs[2].parent, None);
    assert!(ifs.iter().all(|f| !f.one_armed() && f.then_skip.is_some()));
    assert!(ifs.iter().all(|f| f.else_skip.is_some()));
    for &u in &marked {
        let pc = ks.split_pc(u).unwrap();
        assert_eq!(op_at(&ks, pc), Op::Split);
        let f = ks.if_of(u).unwrap();
        assert!(f.split_wait.is_some() && f.merge.is_some() && f.merge_wait.is_some());
    }
    // The merge, its wait and the join start the reconvergence block: the next if's v_cmp
    // follows in the same block.
    let join = ks.insns()[ifs[0].join].pc;
    let Some(Owner::Block(r)) = ks.owner_of(join) else {
        panic!()
    };
    assert!(!ks.is_if(r));
    assert_eq!(ks.conv().blocks()[r].succs, vec![ifs[2].block]);
    // The head of the first if: wait, split, and_saveexec, xor, skip.
    assert_eq!(ifs[0].head().len(), 5);
    assert_eq!(ifs[0].else_head_insns().len(), 3);
    // 3 divergent blocks, 4 arms' worth of plain blocks, 3 joins, the entry.
    let divergent = ks.conv().blocks().iter().filter(|b| b.divergent).count();
    assert_eq!(divergent, 3);
}

#[test]
fn fig2_costs_compose_into_the_wcet() {
    let ks = parse("fig2_divergent.s");
    let (block, bsb) = counts(&ks);
    let c = ks.costed(&block, &bsb).unwrap();
    // Loop-free: the no-split WCET (every arm serialized) runs every instruction once.
    assert_eq!(no_split_e_wf(&c).unwrap(), ks.insns().len() as u64);
    let marked: Vec<usize> = ks.marked().iter().map(|&u| c.from_conv(u)).collect();
    let r = analyze_pws(&c, &marked, 1, 0, 0).unwrap();
    assert_eq!(r.selection.sb.len(), 2);
    assert!(r.ipet < ks.insns().len() as u64);
    let err = ks.costed(&block[1..], &bsb).unwrap_err();
    assert!(
        matches!(err, PassError::CostLength { what: "block", .. }),
        "{err}"
    );
}

#[test]
fn fig5_nests_the_second_split() {
    let ks = parse("fig5_nested.s");
    assert_eq!(ks.n_ifs(), 2);
    assert_eq!(ks.marked().len(), 2);
    let ifs = ks.ifs();
    assert_eq!(ifs[1].parent, Some(0));
    assert!(ifs[0].then_range().contains(&ifs[1].and));
}

#[test]
fn synthetic_has_seven_ifs_and_opaque_loops() {
    let ks = parse("synthetic.s");
    assert_eq!(ks.n_ifs(), 7);
    assert!(ks.ifs().iter().all(|f| !f.one_armed()));
    assert_eq!(ks.marked(), vec![ks.ifs()[0].block]);
    // part (1)'s loop and the eight leaf loops: two branches each.
    assert_eq!(ks.opaque_branches().len(), 18);
    // Each leaf loop lies inside the then- or else-arm of a level-2 if.
    let leaves: Vec<_> = ks.ifs().iter().filter(|f| f.parent.is_some()).collect();
    for pc in ks.opaque_branches().into_iter().skip(2) {
        let k = ks.index_of(pc).unwrap();
        let inside = leaves
            .iter()
            .any(|f| f.then_range().contains(&k) || f.else_range().is_some_and(|r| r.contains(&k)));
        assert!(inside, "{pc:#x}");
    }
}

#[test]
fn loop_kernels_are_opaque() {
    let ks = parse("loop.s");
    assert_eq!(ks.n_ifs(), 0);
    assert_eq!(ks.n_blocks(), 1);
    assert_eq!(ks.opaque_branches().len(), 4);
    let ks = parse("lds_reduce.s");
    assert_eq!(ks.n_ifs(), 0);
    assert_eq!(ks.n_blocks(), 1);
    assert_eq!(ks.opaque_branches().len(), 5);
}

/// The layout of the kept splits in a compiled kernel (assumptions A11, A14–A16 of
/// docs/assumptions.md).
fn check_layout(what: &str, c: &Compiled) {
    let ks = &c.structure;
    check_owners(what, ks);
    let marked = ks.marked();
    let split_pcs: Vec<u32> = marked.iter().map(|&u| ks.split_pc(u).unwrap()).collect();
    assert_eq!(c.report.kept_splits, split_pcs, "{what}");
    assert_eq!(marked.len(), c.report.n_sb, "{what}");
    let all_splits = ks.insns().iter().filter(|i| i.insn.op == Op::Split).count();
    let all_merges = ks.insns().iter().filter(|i| i.insn.op == Op::Merge).count();
    assert_eq!(all_splits, c.report.n_sb, "{what}");
    assert_eq!(all_merges, c.report.n_sb, "{what}");
    assert!(
        ks.stray_splits().is_empty() && ks.stray_merges().is_empty(),
        "{what}"
    );
    let wait0 = |k: usize| {
        let i = &ks.insns()[k].insn;
        i.op == Op::SWaitcnt && i.imm == 0
    };
    for &u in &marked {
        let f = ks.if_of(u).unwrap();
        let split = f.split.unwrap();
        assert!(
            wait0(split - 1) && f.split_wait == Some(split - 1),
            "{what}"
        );
        assert_eq!(f.merge, Some(f.join + 2), "{what}");
        assert!(wait0(f.join + 1), "{what}");
        assert!(f.then_skip.is_some(), "{what}");
        assert_eq!(f.else_head.is_some(), f.else_skip.is_some(), "{what}");
        let mut arms = vec![f.then_range()];
        arms.extend(f.else_range());
        for r in arms.into_iter().filter(|r| !r.is_empty()) {
            assert!(
                wait0(r.end - 1),
                "{what}: arm {r:?} does not end in s_waitcnt 0"
            );
        }
        // Every if inside the split's arms has its skips too (docs/assumptions.md#A16).
        for g in ks.ifs().iter().filter(|g| g.and > f.and && g.join < f.join) {
            assert!(g.then_skip.is_some(), "{what}");
            assert_eq!(g.else_head.is_some(), g.else_skip.is_some(), "{what}");
        }
    }
}

/// The compiled code leaves the original's buffers.
fn check_semantics(name: &str, c: &Compiled) {
    let meta = KernelMeta::parse(&source(name)).unwrap();
    for seed in [1, 7] {
        let want = buffers(&words(name), &meta, seed);
        assert_eq!(buffers(&c.code, &meta, seed), want, "{name} seed {seed}");
    }
}

#[test]
fn every_kernel_every_mode_keeps_semantics_and_layout() {
    let modes = [
        opts(PassMode::NoSplit, 1, false),
        opts(PassMode::Dws, 1, false),
        opts(PassMode::Pws, 1, false),
        opts(PassMode::Pws, 2, false),
        opts(PassMode::Pws, 2, true),
    ];
    for name in KERNELS {
        for o in &modes {
            let c = run(&words(name), o);
            let what = format!("{name} {o:?}");
            check_layout(&what, &c);
            check_semantics(name, &c);
            // Compiling again is a fixed point.
            let again = run(&c.code, &opts(PassMode::Dws, 0, false));
            assert_eq!(again.code, c.code, "{what}\n{}", listing(&c));
        }
    }
}

#[test]
fn the_semantics_check_can_fail() {
    let text =
        source("fig2_divergent.s").replace("v_add_u32 v8, vcc, 5, v8", "v_add_u32 v8, vcc, 6, v8");
    let meta = KernelMeta::parse(&text).unwrap();
    assert_ne!(
        buffers(&words_of(&text), &meta, 1),
        buffers(&words("fig2_divergent.s"), &meta, 1)
    );
}

#[test]
fn modes_keep_the_right_splits() {
    for name in ["fig2_divergent.s", "fig5_nested.s", "synthetic.s"] {
        let input = parse(name);
        let p = input.marked().len();
        let c = run(&words(name), &opts(PassMode::NoSplit, 1, false));
        assert_eq!(c.report.n_sb, 0);
        assert_eq!(c.report.removed_splits.len(), p, "{name}");
        assert_eq!(c.report.removed_merges.len(), p, "{name}");
        let c = run(&words(name), &opts(PassMode::Dws, 1, false));
        assert_eq!(c.report.n_sb, p, "{name}");
        assert_eq!(c.report.sb, c.report.p, "{name}");
        // The input is in the PWS layout but for the waits closing the arms (every arm is
        // non-empty); its merges are replaced one for one.
        assert_eq!(c.report.inserted_execz, 0, "{name}");
        assert_eq!(c.report.inserted_merge, p, "{name}");
        assert_eq!(c.report.inserted_waitcnt, 3 * p, "{name}");
        assert_eq!(c.code.len(), words(name).len() + 2 * p, "{name}");
    }
    // PWS: fig2's splits are sequential siblings (one context), fig5's nested (two).
    let c = run(&words("fig2_divergent.s"), &opts(PassMode::Pws, 1, false));
    assert_eq!((c.report.n_sb, c.report.swf_count), (2, 1));
    let c = run(&words("fig5_nested.s"), &opts(PassMode::Pws, 1, false));
    assert_eq!((c.report.n_sb, c.report.swf_count), (1, 1));
    assert_eq!(c.report.rejected.len(), 1);
    assert_eq!(c.report.removed_splits.len(), 1);
    let c = run(&words("fig5_nested.s"), &opts(PassMode::Pws, 2, false));
    assert_eq!((c.report.n_sb, c.report.swf_count), (2, 2));
}

#[test]
fn synthetic_mark_all_selects_by_parents() {
    let input = parse("synthetic.s");
    let pc = |id: usize| input.insns()[input.ifs()[id].and].pc;
    // Pre-order: root 0; then-arm: level-1 1 (level-2 2, 3); else-arm: level-1 4 (5, 6).
    let expect: [(usize, Vec<usize>); 3] = [
        (1, vec![0]),
        // SELECT in topological order: 0, 1 and 2 each open a context (no sibling in SB);
        // 4 (PARENT = BSB of 0) is not a sibling of 1 (PARENT = 0): rejected.
        (3, vec![0, 1, 2]),
        (7, (0..7).collect()),
    ];
    for (s, ids) in expect {
        let o = opts(PassMode::Pws, s, true);
        let c = run(&words("synthetic.s"), &o);
        assert_eq!(c.report.p.len(), 7);
        assert_eq!(c.report.n_sb, s, "S = {s}");
        assert_eq!(c.report.swf_count, s, "S = {s}");
        let want: Vec<u32> = ids.iter().map(|&i| pc(i)).collect();
        assert_eq!(c.report.sb, want, "S = {s}");
        check_layout(&format!("synthetic mark_all S = {s}"), &c);
        check_semantics("synthetic.s", &c);
    }
}

/// The paper's marking for its synthetic kernel, "as many split points as there are SpSIMD
/// units": the S shallowest ifs, so S = 3 is the root and both level-1 ifs, all selected.
#[test]
fn synthetic_shallowest_marks_fill_the_tree_by_levels() {
    let input = parse("synthetic.s");
    let pc = |id: usize| input.insns()[input.ifs()[id].and].pc;
    for (s, ids) in [(1, vec![0]), (3, vec![0, 1, 4]), (7, (0..7).collect())] {
        let o = PassOptions {
            mode: PassMode::Pws,
            s,
            marks: Marks::Shallowest(s),
        };
        let c = run(&words("synthetic.s"), &o);
        let want: Vec<u32> = ids.iter().map(|&i| pc(i)).collect();
        assert_eq!(c.report.p, want, "S = {s}");
        assert_eq!(c.report.sb, want, "S = {s}");
        assert_eq!(c.report.swf_count, s, "S = {s}");
        check_semantics("synthetic.s", &c);
    }
}

/// A kernel with a two-armed if (no skips, no split) whose then-arm holds a one-armed if.
const NO_SKIPS: &str = "
// @grid 128
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_load_dword v6, v[2:3]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc
    s_waitcnt vmcnt(0)
    v_mov_b32 v8, 7
    v_cmp_lt_i32 vcc, 0, v6
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    v_mul_lo_u32 v8, v6, 3
    v_cmp_lt_i32 vcc, 50, v6
    s_and_saveexec_b64 s[14:15], vcc
    v_add_u32 v8, vcc, 9, v8
    s_or_b64 exec, exec, s[14:15]
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    v_sub_u32 v8, vcc, 0, v6
    s_or_b64 exec, exec, s[6:7]
    flat_store_dword v[4:5], v8
    s_endpgm
";

fn buffers_of(text: &str, code: &[u32]) -> Vec<Vec<u32>> {
    buffers(code, &KernelMeta::parse(text).unwrap(), 3)
}

#[test]
fn missing_skips_are_inserted() {
    let code = words_of(NO_SKIPS);
    let ks = Kstruct::parse(&code).unwrap();
    assert_eq!(ks.n_ifs(), 2);
    assert!(ks.is_one_armed(ks.ifs()[1].block));
    assert!(ks
        .ifs()
        .iter()
        .all(|f| f.then_skip.is_none() && f.else_skip.is_none()));
    // docs/assumptions.md#A17: the one-armed if's else successor is its reconvergence block.
    let inner = &ks.ifs()[1];
    let Some(Owner::Block(r)) = ks.owner_of(ks.insns()[inner.join].pc) else {
        panic!()
    };
    assert_eq!(ks.conv().blocks()[inner.block].succs[1], r);
    check_owners("no_skips", &ks);
    // mark_all: P = the two-armed outer if only.
    let c = run(&code, &opts(PassMode::Pws, 1, true));
    assert_eq!(c.report.p, vec![ks.insns()[ks.ifs()[0].and].pc]);
    assert_eq!(c.report.inserted_execz, 3, "{}", listing(&c));
    // wait + split, the two arm ends, the wait before the merge.
    assert_eq!(c.report.inserted_waitcnt, 4, "{}", listing(&c));
    check_layout("no_skips", &c);
    assert_eq!(buffers_of(NO_SKIPS, &c.code), buffers_of(NO_SKIPS, &code));
    // Branch offsets: the skips land on the else-heads and joins, and the listing says so.
    let out = &c.structure;
    for f in out.ifs() {
        let then_end = f.else_head.unwrap_or(f.join);
        assert_eq!(out.insns()[f.then_skip.unwrap()].target, Some(then_end));
        if let Some(s) = f.else_skip {
            assert_eq!(out.insns()[s].target, Some(f.join));
        }
    }
    let text = listing(&c);
    assert!(text.contains("split vcc_lo, vcc_hi"), "{text}");
    assert!(
        text.contains(&format!("L{}:", out.ifs()[0].else_head.unwrap())),
        "{text}"
    );
    // Without splitting, nothing is inserted.
    let c = run(&code, &opts(PassMode::NoSplit, 1, true));
    assert_eq!(c.code, code);
}

#[test]
fn split_on_one_armed_if_warns() {
    let text = NO_SKIPS.replace(
        "    s_and_saveexec_b64 s[14:15], vcc",
        "    split vcc_lo, vcc_hi\n    s_and_saveexec_b64 s[14:15], vcc",
    );
    let code = words_of(&text);
    let c = run(&code, &opts(PassMode::Dws, 1, false));
    assert_eq!(c.report.warnings.len(), 1, "{:?}", c.report);
    assert!(c.report.warnings[0].contains("docs/assumptions.md#A17"));
    assert_eq!(c.report.n_sb, 1);
    check_layout("one-armed split", &c);
    assert_eq!(buffers_of(&text, &c.code), buffers_of(&text, &code));
}

#[test]
fn stray_split_and_merge_are_removed() {
    let text = NO_SKIPS.replace(
        "    v_mov_b32 v8, 7",
        "    v_mov_b32 v8, 7\n    split vcc_lo, vcc_hi\n    merge",
    );
    let code = words_of(&text);
    let ks = Kstruct::parse(&code).unwrap();
    let (split, merge) = (ks.stray_splits(), ks.stray_merges());
    assert_eq!((split.len(), merge.len()), (1, 1));
    let c = run(&code, &opts(PassMode::Pws, 1, false));
    assert_eq!(
        c.report.removed_splits,
        vec![(split[0], "not before a branch".to_string())]
    );
    assert_eq!(c.report.removed_merges, merge);
    assert_eq!(c.code, words_of(NO_SKIPS));
}

#[test]
fn split_in_loop_is_rejected() {
    let text = source("loop.s").replace("lane_loop:\n", "lane_loop:\n    split vcc_lo, vcc_hi\n");
    let err = Kstruct::parse(&words_of(&text)).unwrap_err();
    let PassError::SplitInLoop { pc } = err else {
        panic!("{err}")
    };
    assert!(err.to_string().contains("loop"), "{err}");
    let code = words_of(&text);
    assert_eq!(op_at_code(&code, pc), Op::Split);
    // A split before an if nested in a loop is inside the loop too.
    let text = source("synthetic.s").replace(
        "    s_add_u32 s26, s26, 1\n    s_branch leaf7",
        "    s_add_u32 s26, s26, 1\n    v_cmp_eq_u32 vcc, 1, v16\n    split vcc_lo, vcc_hi\n    s_and_saveexec_b64 s[28:29], vcc\n    s_or_b64 exec, exec, s[28:29]\n    s_branch leaf7",
    );
    assert!(matches!(
        Kstruct::parse(&words_of(&text)),
        Err(PassError::SplitInLoop { .. })
    ));
}

fn op_at_code(code: &[u32], pc: u32) -> Op {
    rtgpu_firmware::isa::decode(&code[pc as usize / 4..])
        .unwrap()
        .0
        .op
}

#[test]
fn skip_to_the_wrong_label_is_unstructured() {
    let text = source("fig2_divergent.s").replacen("s_cbranch_execz bb6", "s_cbranch_execz bb5", 1);
    let code = words_of(&text);
    let err = Kstruct::parse(&code).unwrap_err();
    let PassError::Unstructured { pc, .. } = err else {
        panic!("{err}")
    };
    assert_eq!(op_at_code(&code, pc), Op::SCbranchExecz);
    assert!(err.to_string().contains("unstructured"), "{err}");
    assert!(compile(&code, &opts(PassMode::Pws, 1, false)).is_err());
}

#[test]
fn branches_leaving_their_arm_are_unstructured() {
    // A loop exit inside the root's then-arm jumping to the root's join.
    let text =
        source("synthetic.s").replacen("s_cbranch_scc1 leaf7_done", "s_cbranch_scc1 n0_0_join", 1);
    let err = Kstruct::parse(&words_of(&text)).unwrap_err();
    assert!(matches!(err, PassError::Unstructured { .. }), "{err}");
}

#[test]
fn loop_branch_targets_survive_insertions() {
    let input = parse("synthetic.s");
    let c = run(&words("synthetic.s"), &opts(PassMode::Pws, 7, true));
    let out = &c.structure;
    let (bi, bo) = (input.opaque_branches(), out.opaque_branches());
    assert_eq!(bi.len(), bo.len());
    for (&pi, &po) in bi.iter().zip(&bo) {
        let ti = &input.insns()[input.insns()[input.index_of(pi).unwrap()].target.unwrap()];
        let k = out.insns()[out.index_of(po).unwrap()].target.unwrap();
        let mut to = &out.insns()[k];
        // A loop exit to an arm's end lands on the arm's closing s_waitcnt 0.
        if to.insn.op == Op::SWaitcnt && ti.insn.op != Op::SWaitcnt {
            to = &out.insns()[k + 1];
        }
        assert_eq!(to.insn, ti.insn, "{pi:#x} -> {po:#x}");
    }
}

#[test]
fn bad_input_is_a_typed_error() {
    assert_eq!(Kstruct::parse(&[]).unwrap_err(), PassError::Empty);
    let code = words_of("s_nop 0\ns_nop 0\n");
    assert_eq!(
        Kstruct::parse(&code).unwrap_err(),
        PassError::FallsOffEnd { pc: 4 }
    );
    let code = words_of("s_endpgm\ns_endpgm\n");
    assert_eq!(
        Kstruct::parse(&code).unwrap_err(),
        PassError::EarlyExit { pc: 0 }
    );
    let code = words_of("s_branch 5\ns_endpgm\n");
    assert!(matches!(
        Kstruct::parse(&code).unwrap_err(),
        PassError::TargetOutside { pc: 0, .. }
    ));
    let err = Kstruct::parse(&[0xFFFF_FFFF, 0xBF81_0000]).unwrap_err();
    assert!(matches!(err, PassError::Decode { pc: 0, .. }), "{err}");
}

/// A two-armed if with placeholders: `MARK` (a `split` or nothing), `THEN`, `ELSE` (arm
/// bodies) and `AFTER` (code between the join and the store of v8).
const A13_BASE: &str = "
// @grid 128
// @wg 64
// @args int:grid zero:grid
.text
    s_load_dwordx4 s[8:11], s[0:1], 0x0
    s_mul_i32 s5, s2, s3
    v_add_u32 v1, vcc, s5, v0
    v_lshlrev_b32 v1, 2, v1
    s_waitcnt lgkmcnt(0)
    v_mov_b32 v3, s9
    v_add_u32 v2, vcc, s8, v1
    v_addc_u32 v3, vcc, 0, v3, vcc
    flat_load_dword v6, v[2:3]
    v_mov_b32 v5, s11
    v_add_u32 v4, vcc, s10, v1
    v_addc_u32 v5, vcc, 0, v5, vcc
    s_waitcnt vmcnt(0)
    v_mov_b32 v8, 7
    s_mov_b32 s20, 1
    v_cmp_lt_i32 vcc, 0, v6
    MARK
    s_and_saveexec_b64 s[6:7], vcc
    s_xor_b64 s[6:7], exec, s[6:7]
    THEN
    s_or_saveexec_b64 s[6:7], s[6:7]
    s_xor_b64 exec, s[6:7], exec
    ELSE
    s_or_b64 exec, exec, s[6:7]
    AFTER
    flat_store_dword v[4:5], v8
    s_endpgm
";

const SPLIT: &str = "split vcc_lo, vcc_hi";

fn a13_kernel(mark: &str, then: &str, els: &str, after: &str) -> Vec<u32> {
    let text = A13_BASE
        .replace("MARK", mark)
        .replace("THEN", then)
        .replace("ELSE", els)
        .replace("AFTER", after);
    words_of(&text)
}

/// The address of the `n`-th instruction with opcode `op`.
fn pc_of(code: &[u32], op: Op, n: usize) -> u32 {
    let ks = Kstruct::parse(code).unwrap();
    let found = ks.insns().iter().filter(|i| i.insn.op == op).nth(n);
    found.unwrap_or_else(|| panic!("no {op:?} #{n}")).pc
}

#[test]
fn barrier_in_a_kept_split_is_rejected() {
    let then = "v_mul_lo_u32 v8, v6, 3\n    s_barrier";
    let code = a13_kernel(SPLIT, then, "v_mul_lo_u32 v8, v6, 5", "");
    let barrier = pc_of(&code, Op::SBarrier, 0);
    for o in [opts(PassMode::Dws, 1, false), opts(PassMode::Pws, 1, false)] {
        let err = compile(&code, &o).unwrap_err();
        assert_eq!(err, PassError::BarrierInSplit { pc: barrier }, "{o:?}");
        assert!(err.to_string().contains("docs/assumptions.md#A22"), "{err}");
    }
    // Without splitting the barrier is in an ordinary if: fine.
    run(&code, &opts(PassMode::NoSplit, 1, false));
    // Unmarked, it is rejected only when every two-armed if is a split point.
    let code = a13_kernel("", then, "v_mul_lo_u32 v8, v6, 5", "");
    run(&code, &opts(PassMode::Dws, 1, false));
    assert!(matches!(
        compile(&code, &opts(PassMode::Dws, 1, true)),
        Err(PassError::BarrierInSplit { .. })
    ));
}

#[test]
fn scalar_written_in_an_arm_and_read_after_the_join_is_rejected() {
    let els = "s_mov_b32 s20, 5\n    v_mul_lo_u32 v8, v6, 5";
    let after = "v_add_u32 v8, vcc, s20, v8";
    for (mark, all) in [(SPLIT, false), ("", true)] {
        let code = a13_kernel(mark, "v_mul_lo_u32 v8, v6, 3", els, after);
        let want = PassError::ScalarLiveOut {
            pc: pc_of(&code, Op::SAndSaveexecB64, 0),
            reg: "s20".to_string(),
            write_pc: pc_of(&code, Op::SMovB32, 1),
            read_pc: pc_of(&code, Op::VAddU32, 3),
        };
        for o in [opts(PassMode::Dws, 1, all), opts(PassMode::Pws, 1, all)] {
            let err = compile(&code, &o).unwrap_err();
            assert_eq!(err, want, "{o:?}");
            assert!(err.to_string().contains("docs/assumptions.md#A13"), "{err}");
        }
        run(&code, &opts(PassMode::NoSplit, 1, all));
    }
}

#[test]
fn scalar_passed_from_the_then_arm_to_the_else_arm_is_rejected() {
    // The second review's kernel: the then-arm sets the else-arm's loop count. Serialised, the
    // else-arm sees 1; split, the else half sees the value from before the if.
    let then = "s_mov_b32 s20, 1\n    v_mul_lo_u32 v8, v6, 3";
    let els = "s_add_u32 s21, s20, 4\n    v_mul_lo_u32 v8, v6, s21";
    let code = a13_kernel(SPLIT, then, els, "");
    let want = PassError::ScalarAcrossArms {
        pc: pc_of(&code, Op::SAndSaveexecB64, 0),
        reg: "s20".to_string(),
        // (The base kernel has an s_mov_b32 of its own before the if.)
        write_pc: pc_of(&code, Op::SMovB32, 1),
        read_pc: pc_of(&code, Op::SAddU32, 0),
    };
    for o in [opts(PassMode::Dws, 1, false), opts(PassMode::Pws, 1, false)] {
        let err = compile(&code, &o).unwrap_err();
        assert_eq!(err, want, "{o:?}");
        assert!(err.to_string().contains("docs/assumptions.md#A13"), "{err}");
    }
    run(&code, &opts(PassMode::NoSplit, 1, false));
    // The else path writing the register first is fine.
    let els = "s_mov_b32 s20, 7\n    s_add_u32 s21, s20, 4\n    v_mul_lo_u32 v8, v6, s21";
    run(
        &a13_kernel(SPLIT, then, els, ""),
        &opts(PassMode::Pws, 1, false),
    );
}

#[test]
fn scalar_rewritten_after_the_join_before_a_read_is_fine() {
    let els = "s_mov_b32 s20, 5\n    v_mul_lo_u32 v8, v6, 5";
    let after = "s_mov_b32 s20, 2\n    v_add_u32 v8, vcc, s20, v8";
    let code = a13_kernel(SPLIT, "v_mul_lo_u32 v8, v6, 3", els, after);
    let c = run(&code, &opts(PassMode::Dws, 1, false));
    assert_eq!(c.report.n_sb, 1);
    check_layout("s20 rewritten", &c);
}

#[test]
fn vcc_written_in_an_arm_and_read_after_the_join_is_rejected() {
    let then = "v_cmp_lt_i32 vcc, 10, v6\n    v_mul_lo_u32 v8, v6, 3";
    let after = "v_cndmask_b32 v8, 0, v8, vcc";
    let code = a13_kernel(SPLIT, then, "v_mul_lo_u32 v8, v6, 5", after);
    let err = compile(&code, &opts(PassMode::Pws, 1, false)).unwrap_err();
    let PassError::ScalarLiveOut {
        reg,
        write_pc,
        read_pc,
        ..
    } = &err
    else {
        panic!("{err}")
    };
    assert_eq!(reg, "vcc");
    assert_eq!(*write_pc, pc_of(&code, Op::VCmpLtI32, 1));
    assert_eq!(*read_pc, pc_of(&code, Op::VCndmaskB32, 0));
}

#[test]
fn generated_kernels_compile_in_every_mode() {
    use rtgpu_firmware::gen_kernel::{divergent_kernel, GenOptions};
    let modes = [
        opts(PassMode::Dws, 1, false),
        opts(PassMode::Dws, 1, true),
        opts(PassMode::Pws, 1, false),
        opts(PassMode::Pws, 3, true),
    ];
    for seed in 0..64 {
        let text = divergent_kernel(seed, &GenOptions::default());
        let code = words_of(&text);
        for o in &modes {
            if let Err(e) = compile(&code, o) {
                panic!("seed {seed} {o:?}: {e}\n{text}");
            }
        }
    }
}
