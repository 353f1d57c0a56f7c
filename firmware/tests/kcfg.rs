//! kcfg: basic blocks and the structured C_conv of the kernels in `firmware/kernels/`, and the
//! PWS WCET analysis on them.

use rtgpu_firmware::isa::assemble;
use rtgpu_firmware::kcfg::{basic_blocks, if_regions, kernel_cfg, Bb, BbKind, Kcfg, KcfgError};
use rtgpu_wcet::pws::{analyze_pws, no_split_e_wf};

fn words(name: &str) -> Vec<u32> {
    let path = format!("{}/kernels/{name}", env!("CARGO_MANIFEST_DIR"));
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
    assemble(&text, name)
        .unwrap_or_else(|e| panic!("{e}"))
        .words()
}

fn count(bb: &Bb) -> u64 {
    bb.len() as u64
}

fn kcfg(name: &str) -> Kcfg {
    kernel_cfg(&words(name), 0, count).unwrap_or_else(|e| panic!("{name}: {e}"))
}

/// Every instruction is counted exactly once: in a C_conv block or in a BSB cost.
fn assert_covers_all(name: &str, k: &Kcfg) {
    let bbs = basic_blocks(&words(name), 0).unwrap();
    let total: u64 = bbs.iter().map(count).sum();
    let blocks: u64 = k.cfg.blocks().iter().map(|b| b.wcet).sum();
    let bsb: u64 = k.bsb.iter().sum();
    assert_eq!(blocks + bsb, total, "{name}");
}

#[test]
fn kcfg_vector_add_is_one_straight_path() {
    let bbs = basic_blocks(&words("vector_add.s"), 0).unwrap();
    assert_eq!(bbs.len(), 1);
    assert_eq!(bbs[0].kind, BbKind::Exit);
    let k = kcfg("vector_add.s");
    assert_eq!(k.cfg.len(), 1);
    assert!(k.divergent().is_empty());
    assert_eq!(k.cfg.blocks()[0].wcet, bbs[0].len() as u64);
    assert_eq!(k.split_depth(), 0);
    let c = k.cfg.to_bsb(|u| k.bsb_wcet(u)).unwrap();
    assert_eq!(no_split_e_wf(&c).unwrap(), bbs[0].len() as u64);
}

#[test]
fn kcfg_basic_blocks_of_fig2() {
    let bbs = basic_blocks(&words("fig2_divergent.s"), 0x100).unwrap();
    assert_eq!(bbs[0].start_pc, 0x100);
    for w in bbs.windows(2) {
        assert_eq!(w[0].end_pc, w[1].start_pc);
    }
    // Every execz skip is a two-way branch to the fall-through and a later block.
    for (b, bb) in bbs.iter().enumerate() {
        if let BbKind::Cond { opcode } = bb.kind {
            assert_eq!(opcode, 0x08);
            assert_eq!(bb.succs[0], b + 1);
            assert!(bb.succs[1] > b + 1);
        }
    }
    assert_eq!(bbs.last().unwrap().kind, BbKind::Exit);
}

#[test]
fn kcfg_fig2_two_sequential_splits() {
    let k = kcfg("fig2_divergent.s");
    assert_covers_all("fig2_divergent.s", &k);
    let d = k.divergent();
    assert_eq!(d.len(), 2);
    assert_eq!(k.split_depth(), 1);
    // In sequence: the first split's reconvergence point is the second split's node.
    let ipd = k.cfg.ipdom();
    assert_eq!(ipd[d[0]], Some(d[1]));
    for &u in &d {
        assert_eq!(k.bsb_wcet(u), 3); // s_or_saveexec; s_xor; s_cbranch_execz
    }
    let c = k.cfg.to_bsb(|u| k.bsb_wcet(u)).unwrap();
    let marked: Vec<usize> = d.iter().map(|&u| c.from_conv(u)).collect();
    let ns = no_split_e_wf(&c).unwrap();
    for (e_s, e_m) in [(0, 0), (1, 1), (4, 7)] {
        let r = analyze_pws(&c, &marked, 1, e_s, e_m).unwrap();
        assert!(r.e_wf <= ns + 2 * (e_s + e_m), "{} > {ns}", r.e_wf);
        if e_s + e_m == 0 {
            assert!(r.e_wf < ns, "{} !< {ns}", r.e_wf);
            assert_eq!(r.selection.sb.len(), 2);
        }
    }
}

#[test]
fn kcfg_fig5_nested_depth_two() {
    let k = kcfg("fig5_nested.s");
    assert_covers_all("fig5_nested.s", &k);
    let d = k.divergent();
    assert_eq!(d.len(), 2);
    assert_eq!(k.split_depth(), 2);
    let (outer, inner) = (d[0], d[1]);
    let b = k.cfg.blocks();
    // The inner split is the then-arm of the outer one.
    assert_eq!(b[outer].succs[0], inner);
    let c = k.cfg.to_bsb(|u| k.bsb_wcet(u)).unwrap();
    let marked = [c.from_conv(outer), c.from_conv(inner)];
    let ns = no_split_e_wf(&c).unwrap();
    let r = analyze_pws(&c, &marked, 2, 0, 0).unwrap();
    assert!(r.e_wf < ns);
}

#[test]
fn kcfg_loops_are_rejected() {
    for name in ["loop.s", "synthetic.s", "lds_reduce.s"] {
        let bbs = basic_blocks(&words(name), 0).unwrap();
        let e = if_regions(&bbs, count).unwrap_err();
        assert!(
            matches!(e, KcfgError::Loop { pc, target } if target <= pc),
            "{name}: {e}"
        );
    }
}

#[test]
fn kcfg_bad_code_gives_typed_errors() {
    assert_eq!(basic_blocks(&[], 0), Err(KcfgError::Empty));
    // Garbage words.
    assert!(matches!(
        basic_blocks(&[0xFFFF_FFFF, 0xBF81_0000], 0),
        Err(KcfgError::Illegal { pc: 0, .. })
    ));
    // s_branch +100 (out of the code), then s_endpgm.
    assert_eq!(
        basic_blocks(&[0xBF82_0064, 0xBF81_0000], 0),
        Err(KcfgError::TargetOutside {
            pc: 0,
            target: 4 + 400
        })
    );
    // s_branch -2 (before the code).
    assert!(matches!(
        basic_blocks(&[0xBF82_FFFE, 0xBF81_0000], 0x40),
        Err(KcfgError::TargetOutside { pc: 0x40, .. })
    ));
    // s_cbranch_scc0 +1 into the literal of s_mov_b32 s0, 0x12345678.
    let mov_lit = 0xBE80_00FF;
    assert_eq!(
        basic_blocks(&[0xBF84_0001, mov_lit, 0x1234_5678, 0xBF81_0000], 0),
        Err(KcfgError::TargetMidInstruction { pc: 0, target: 8 })
    );
    // A 2-word instruction cut off.
    assert_eq!(
        basic_blocks(&[0xBF81_0000, mov_lit], 0),
        Err(KcfgError::Truncated { pc: 4 })
    );
    // No s_endpgm at the end.
    assert_eq!(
        basic_blocks(&[0xBF80_0000], 0),
        Err(KcfgError::FallsOffEnd { pc: 0 })
    );
    // merge without split; split without its layout.
    let merge = 0xBFFF_0000;
    let split = 0xBF7F_6B6A;
    let endpgm = 0xBF81_0000;
    assert_eq!(
        kernel_cfg(&[merge, endpgm], 0, count),
        Err(KcfgError::UnmatchedMerge { pc: 0 })
    );
    assert_eq!(
        kernel_cfg(&[split, endpgm], 0, count),
        Err(KcfgError::BadSplit { pc: 0 })
    );
    // Early s_endpgm.
    assert_eq!(
        kernel_cfg(&[endpgm, endpgm], 0, count),
        Err(KcfgError::EarlyExit { pc: 0 })
    );
    // Random words never panic.
    let mut x = 0x1234_5678_9abc_def0u64;
    for _ in 0..2000 {
        let code: Vec<u32> = (0..8)
            .map(|_| {
                x ^= x << 13;
                x ^= x >> 7;
                x ^= x << 17;
                x as u32
            })
            .collect();
        let _ = kernel_cfg(&code, 0, count);
    }
}

#[test]
fn kcfg_one_armed_split_has_empty_else() {
    let src = "\
.text
    v_cmp_lt_i32 vcc, 0, v6
    split vcc_lo, vcc_hi
    s_and_saveexec_b64 s[6:7], vcc
    s_cbranch_execz join
    v_mov_b32 v8, 1
    v_mov_b32 v9, 2
join:
    s_or_b64 exec, exec, s[6:7]
    merge
    s_endpgm
";
    let words = assemble(src, "one_armed").unwrap().words();
    let k = kernel_cfg(&words, 0, count).unwrap();
    let d = k.divergent();
    assert_eq!(d.len(), 1);
    assert_eq!(k.bsb_wcet(d[0]), 0);
    let b = k.cfg.blocks();
    // then = the two moves, else = the join directly (empty arm).
    assert_eq!(b[b[d[0]].succs[0]].wcet, 2);
    assert_eq!(b[d[0]].succs[1], k.cfg.exit());
    assert!(k.cfg.to_bsb(|u| k.bsb_wcet(u)).is_ok());
}
