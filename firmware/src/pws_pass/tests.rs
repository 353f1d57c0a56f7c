//! Unit tests of the structure parser and the rewrite on small hand-written kernels.

use super::*;
use crate::isa::{assemble, Operand};

fn code(body: &str) -> Vec<u32> {
    assemble(&format!(".text\n{body}"), "unit")
        .unwrap_or_else(|e| panic!("{e}"))
        .words()
}

const IF_HEAD: &str = "v_cmp_lt_i32 vcc, 0, v6\ns_and_saveexec_b64 s[6:7], vcc\n";
const XOR: &str = "s_xor_b64 s[6:7], exec, s[6:7]\n";
const ELSE: &str = "s_or_saveexec_b64 s[6:7], s[6:7]\ns_xor_b64 exec, s[6:7], exec\n";
const JOIN: &str = "s_or_b64 exec, exec, s[6:7]\n";

fn pws(s: usize) -> PassOptions {
    PassOptions {
        mode: PassMode::Pws,
        s,
        marks: Marks::All,
    }
}

#[test]
fn both_arms_empty_get_a_placeholder_then_block() {
    let ks = Kstruct::parse(&code(&format!("{IF_HEAD}{XOR}{ELSE}{JOIN}s_endpgm"))).unwrap();
    assert_eq!(ks.n_ifs(), 1);
    let u = ks.ifs()[0].block;
    // entry, if, placeholder, join block.
    assert_eq!(ks.n_blocks(), 4);
    let succs = &ks.conv().blocks()[u].succs;
    assert_eq!(succs, &vec![u + 1, u + 2]);
    assert!(ks.owners().iter().all(|&(_, o)| o != Owner::Block(u + 1)));
    assert!(ks.costed(&[1; 4], &[1; 4]).is_ok());
    // Kept, the empty arms get skips but no closing wait.
    let c = compile(
        &code(&format!("{IF_HEAD}{XOR}{ELSE}{JOIN}s_endpgm")),
        &pws(1),
    )
    .unwrap();
    assert_eq!(c.report.inserted_execz, 2);
    assert_eq!(c.report.inserted_waitcnt, 2);
}

#[test]
fn empty_then_arm_points_at_the_join() {
    let ks = Kstruct::parse(&code(&format!(
        "{IF_HEAD}{XOR}{ELSE}v_mov_b32 v1, 0\n{JOIN}s_endpgm"
    )))
    .unwrap();
    let u = ks.ifs()[0].block;
    let b = &ks.conv().blocks()[u];
    // then = the reconvergence block (to_bsb swaps the arms), else = the else-arm.
    assert_eq!(b.succs, vec![u + 2, u + 1]);
    let c = ks.costed(&[0; 4], &[0; 4]).unwrap();
    assert_eq!(c.swapped(), &[c.from_conv(u)]);
}

#[test]
fn one_armed_if_with_an_else_head_is_unstructured() {
    let err = Kstruct::parse(&code(&format!(
        "{IF_HEAD}v_mov_b32 v1, 0\n{ELSE}{JOIN}s_endpgm"
    )))
    .unwrap_err();
    assert!(
        matches!(err, PassError::Unstructured { pc: 12, .. }),
        "{err}"
    );
}

#[test]
fn unclosed_if_is_unstructured() {
    let err =
        Kstruct::parse(&code(&format!("{IF_HEAD}{XOR}v_mov_b32 v1, 0\ns_endpgm"))).unwrap_err();
    assert!(
        matches!(err, PassError::Unstructured { pc: 4, .. }),
        "{err}"
    );
}

#[test]
fn nested_if_reusing_the_save_pair_is_unstructured() {
    let inner = format!("{IF_HEAD}{JOIN}");
    let err = Kstruct::parse(&code(&format!("{IF_HEAD}{inner}{JOIN}s_endpgm"))).unwrap_err();
    assert!(
        matches!(err, PassError::Unstructured { pc: 12, .. }),
        "{err}"
    );
}

#[test]
fn indirect_branch_is_rejected() {
    let err = Kstruct::parse(&code("s_setpc_b64 s[4:5]\ns_endpgm")).unwrap_err();
    assert_eq!(err, PassError::Indirect { pc: 0 });
}

#[test]
fn a_split_before_a_condition_in_an_sgpr_pair_names_it() {
    let body = "v_cmp_lt_i32_e64 s[2:3], 0, v6\ns_and_saveexec_b64 s[6:7], s[2:3]\n";
    let c = compile(
        &code(&format!(
            "{body}{XOR}v_mov_b32 v1, 0\n{ELSE}v_mov_b32 v1, 1\n{JOIN}s_endpgm"
        )),
        &pws(1),
    )
    .unwrap();
    let split = c.structure.ifs()[0].split.unwrap();
    let insn = c.structure.insns()[split].insn;
    assert_eq!(insn.src[0], Some(crate::isa::Operand::Sgpr(2)));
    assert_eq!(insn.src[1], Some(crate::isa::Operand::Sgpr(3)));
}

#[test]
fn offsets_that_no_longer_fit_are_an_error() {
    let nops = "s_nop 0\n".repeat(32_767);
    let src = format!("{IF_HEAD}{XOR}{nops}{ELSE}v_mov_b32 v1, 1\n{JOIN}s_endpgm");
    let words = code(&src);
    // Without the pass the if parses; the inserted then-skip must jump 32768 dwords.
    assert!(Kstruct::parse(&words).is_ok());
    let err = compile(&words, &pws(1)).unwrap_err();
    assert!(
        matches!(
            err,
            PassError::OffsetOverflow {
                pc: 20,
                offset: 32_768
            }
        ),
        "{err}"
    );
    assert!(err.to_string().contains("i16"));
}

/// clang-14's else-head writes `s_xor_b64 exec, exec, sX` (operands swapped).
const CLANG_ELSE: &str = "s_or_saveexec_b64 s[6:7], s[6:7]\ns_xor_b64 exec, exec, s[6:7]\n";

fn auto(mode: PassMode) -> PassOptions {
    PassOptions {
        mode,
        s: 1,
        marks: Marks::Auto,
    }
}

/// clang's if/else (no skips, swapped else-head xor) gets a split without marks. Catches: the
/// else-head accepting only `s_xor_b64 exec, sX, exec` (parse error), and [`Marks::Auto`]
/// adding no split point (`split` absent).
#[test]
fn auto_splits_clangs_if_else() {
    let src = format!("{IF_HEAD}{XOR}v_mov_b32 v1, 1\n{CLANG_ELSE}v_mov_b32 v1, 2\n{JOIN}s_endpgm");
    for mode in [PassMode::Dws, PassMode::Pws] {
        let c = compile(&code(&src), &auto(mode)).unwrap();
        assert_eq!(c.report.sb, vec![4], "{mode:?}");
        assert_eq!(c.report.kept_splits.len(), 1);
        assert!(c.report.refused.is_empty(), "{:?}", c.report.refused);
        assert_eq!(c.report.inserted_merge, 1);
    }
}

/// An if/else with a barrier in an arm, or one whose arm writes a scalar read after the join,
/// stays unsplit and is listed with the reason, and so are a one-armed if and a loop; none is
/// an error. Catches: [`Marks::Auto`] keeping an unsafe if (then `compile` fails with
/// `BarrierInSplit` / `ScalarLiveOut`), and the refusals not being reported.
#[test]
fn auto_refuses_unsafe_shapes_and_says_why() {
    let barrier = format!("{IF_HEAD}{XOR}s_barrier\n{CLANG_ELSE}v_mov_b32 v1, 2\n{JOIN}s_endpgm");
    let c = compile(&code(&barrier), &auto(PassMode::Pws)).unwrap();
    assert!(c.report.sb.is_empty());
    assert_eq!(c.report.refused.len(), 1);
    assert!(
        c.report.refused[0].1.contains("s_barrier"),
        "{:?}",
        c.report
    );
    let live = format!(
        "{IF_HEAD}{XOR}s_mov_b32 s9, 1\n{CLANG_ELSE}v_mov_b32 v1, 2\n{JOIN}v_mov_b32 v2, s9\n\
         s_endpgm"
    );
    let c = compile(&code(&live), &auto(PassMode::Dws)).unwrap();
    assert!(c.report.sb.is_empty());
    assert!(c.report.refused[0].1.contains("s9"), "{:?}", c.report);
    let shapes = format!(
        "{IF_HEAD}v_mov_b32 v1, 1\n{JOIN}s_mov_b32 s0, 3\nL:\ns_sub_u32 s0, s0, 1\n\
         s_cmp_lg_u32 s0, 0\ns_cbranch_scc1 L\ns_endpgm"
    );
    let c = compile(&code(&shapes), &auto(PassMode::Dws)).unwrap();
    let why: Vec<&str> = c.report.refused.iter().map(|(_, w)| w.as_str()).collect();
    assert_eq!(why.len(), 2, "{why:?}");
    assert!(
        why[0].contains("one-armed") && why[1].contains("loop"),
        "{why:?}"
    );
}

/// clang's early exit (`s_and_saveexec_b64; s_cbranch_execz END` with no join) is plain code,
/// and an if/else whose else-arm runs into the `s_endpgm` without a join (its else-head saving
/// into another pair, s[0:1], the exit's pair reused) gets its join inserted before the
/// `s_endpgm` and is split. Catches: the exit mask parsed as an if (no join: unstructured),
/// the else-head having to save into sX itself, and a missing join not being inserted.
#[test]
fn auto_handles_clangs_early_exit_and_missing_join() {
    let src = "v_cmp_gt_u32 vcc, 64, v0\n\
               s_and_saveexec_b64 s[0:1], vcc\n\
               s_cbranch_execz END\n\
               v_cmp_lt_i32 vcc, 0, v6\n\
               s_and_saveexec_b64 s[6:7], vcc\n\
               s_xor_b64 s[6:7], exec, s[6:7]\n\
               s_cbranch_execz ELSE\n\
               v_mov_b32 v1, 1\n\
               ELSE:\n\
               s_or_saveexec_b64 s[0:1], s[6:7]\n\
               s_xor_b64 exec, exec, s[0:1]\n\
               s_cbranch_execz END\n\
               v_mov_b32 v1, 2\n\
               END:\n\
               s_endpgm";
    let c = compile(&code(src), &auto(PassMode::Pws)).unwrap();
    assert_eq!(c.report.sb, vec![16], "{:?}", c.report);
    let f = &c.structure.ifs()[0];
    assert_eq!(f.else_save, Operand::Sgpr(0));
    let text = listing(&c);
    assert!(
        text.contains("s_or_b64 exec, exec, s[0:1]") && text.contains("merge"),
        "{text}"
    );
}

/// A rotated loop (clang's layout: `s_branch H` over the latch, which holds the if's join,
/// the if's arms ending in `s_branch J`) around an if/else whose `s_and_saveexec_b64` is at
/// pc 28; the exit test, at pc 20, becomes the back edge.
fn rotated_loop(then_arm: &str) -> String {
    format!(
        "s_mov_b32 s0, 4\ns_branch H\nJ:\n{JOIN}s_sub_u32 s0, s0, 1\ns_cmp_eq_u32 s0, 0\n\
         s_cbranch_scc1 X\nH:\n{IF_HEAD}{XOR}{then_arm}{CLANG_ELSE}v_mov_b32 v1, 2\n\
         s_branch J\nX:\ns_endpgm"
    )
}

/// An if/else in a rotated loop is split: the latch moves after the else-arm, the exit test
/// becomes the back edge (`s_cbranch_scc0` to the header), and the report names clang's
/// `s_and_saveexec_b64` (pc 28) and back edge (the exit test, pc 20). Catches: loops kept
/// opaque (no split point), the latch left before the header (unstructured: no split point),
/// and report pcs of the laid-out code (8 and 44) instead of the input's.
#[test]
fn auto_splits_an_if_else_in_a_rotated_loop() {
    let c = compile(
        &code(&rotated_loop("v_mov_b32 v1, 1\n")),
        &auto(PassMode::Dws),
    )
    .unwrap();
    assert_eq!(c.report.sb, vec![28], "{:?}", c.report);
    assert_eq!(c.report.refused.len(), 1, "{:?}", c.report);
    assert_eq!(c.report.refused[0].0, 20, "{:?}", c.report);
    let text = listing(&c);
    let order: Vec<usize> = [
        "split",
        "s_or_b64 exec",
        "merge",
        "s_cbranch_scc0",
        "s_endpgm",
    ]
    .iter()
    .map(|w| text.find(w).unwrap_or_else(|| panic!("{w}: {text}")))
    .collect();
    assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
}

/// A scalar the then-arm writes and the next iteration reads before the if (around the back
/// edge, not after the join in address order) keeps the if unsplit. Catches:
/// `check::no_live_out` scanning only from the join to the end (s9 is not read there).
#[test]
fn auto_refuses_a_scalar_live_around_the_back_edge() {
    let src = rotated_loop("s_mov_b32 s9, 1\nv_mov_b32 v1, s9\n")
        .replace("H:\n", "H:\nv_mov_b32 v3, s9\n");
    let c = compile(&code(&src), &auto(PassMode::Dws)).unwrap();
    assert!(c.report.sb.is_empty(), "{:?}", c.report);
    assert!(
        c.report.refused.iter().any(|(_, w)| w.contains("s9")),
        "{:?}",
        c.report
    );
    let ok = rotated_loop("s_mov_b32 s9, 1\nv_mov_b32 v1, s9\n");
    assert_eq!(
        compile(&code(&ok), &auto(PassMode::Dws))
            .unwrap()
            .report
            .sb
            .len(),
        1
    );
}

/// clang's bfs loop (firmware/suite/bfs.cl): a rotated loop with a divergent exit
/// (`s_or_b64 s[2:3], vcc, s[2:3]; s_andn2_b64 exec, exec, s[2:3]; s_cbranch_execz X`) around
/// a one-armed if whose skip and then-arm end both go to the latch J, which starts with the
/// if's join. The if's `s_and_saveexec_b64` is at pc 40, the exit test at pc 32.
const BFS_LOOP: &str = "s_mov_b64 s[2:3], 0\nv_mov_b32 v4, 5\ns_branch H\nJ:\n\
    s_or_b64 exec, exec, s[6:7]\nv_add_u32 v4, vcc, -1, v4\nv_cmp_eq_u32 vcc, 0, v4\n\
    s_or_b64 s[2:3], vcc, s[2:3]\ns_andn2_b64 exec, exec, s[2:3]\ns_cbranch_execz X\nH:\n\
    v_cmp_lt_i32 vcc, 0, v6\ns_and_saveexec_b64 s[6:7], vcc\ns_cbranch_execz J\n\
    v_mov_b32 v1, 1\ns_branch J\nX:\ns_endpgm";

/// The one-armed if inside bfs's loop is an automatic split point (docs/assumptions.md#A63),
/// split and merged inside the loop body, while the loop's divergent exit stays masked (listed
/// as refused) and a one-armed if outside a loop is still refused. Catches: [`Marks::Auto`]
/// leaving one-armed ifs out of P again (no split point: `sb` empty), and a split placed
/// outside the body (the merge after the back edge).
#[test]
fn auto_splits_the_one_armed_if_in_bfs_loop() {
    for mode in [PassMode::Dws, PassMode::Pws] {
        let c = compile(&code(BFS_LOOP), &auto(mode)).unwrap();
        assert_eq!(c.report.sb, vec![40], "{mode:?}: {:?}", c.report);
        assert_eq!(c.report.inserted_merge, 1, "{:?}", c.report);
        assert_eq!(c.report.refused.len(), 1, "{:?}", c.report);
        assert!(c.report.refused[0].1.contains("loop"), "{:?}", c.report);
        let text = listing(&c);
        let order: Vec<usize> = ["split", "s_or_b64 exec", "merge", "s_andn2_b64", "s_endpgm"]
            .iter()
            .map(|w| text.find(w).unwrap_or_else(|| panic!("{w}: {text}")))
            .collect();
        assert!(order.windows(2).all(|w| w[0] < w[1]), "{text}");
    }
    let outside = format!(
        "v_cmp_lt_i32 vcc, 0, v6\ns_and_saveexec_b64 s[6:7], vcc\nv_mov_b32 v1, 1\n{JOIN}s_endpgm"
    );
    let c = compile(&code(&outside), &auto(PassMode::Dws)).unwrap();
    assert!(c.report.sb.is_empty(), "{:?}", c.report);
    assert!(
        c.report.refused[0].1.contains("one-armed"),
        "{:?}",
        c.report
    );
}
