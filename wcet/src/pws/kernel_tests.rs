//! Tests of the kernel-level equations: Eq. 2's example, Fig. 9's G_parallel, Table 2 on the
//! Fig. 8 graph (the PWS paper, docs/works/pws.md#table-2) and the generalised round.

use super::super::tests::{fig8, fig8_p, n};
use super::*;

/// Table 2's setting: d = e_s = e_m = DS = 1, k = 1, one work-group.
fn table2_inputs() -> KernelInputs {
    let inp = KernelInputs::paper(4, 1, 64, 64, 1, 1, 1).unwrap();
    assert_eq!(inp.g_parallel(), 4);
    KernelInputs { resident: 4, ..inp }
}

/// Whole-percent rounding of a reduction.
fn pct(a: f64, b: f64) -> i64 {
    (reduction(a, b) * 100.0).round() as i64
}

#[test]
fn eq2_reprovisioning() {
    // The PWS paper's example for Eq. 2: 4 SIMDs, S = 3, swfCount = 1 → 8 SIMDs with 1 SpSIMD each
    // (16 units).
    assert_eq!(n_simd_total(4, 3, 1), 8);
    assert_eq!(
        reprovision(4, 3, 1),
        Reprovision {
            n_simd_total: 8,
            spsimds_per_simd: 1
        }
    );
    // swfCount 0: every SpSIMD becomes a SIMD (4 + 3·4 = 16).
    assert_eq!(reprovision(4, 3, 0).n_simd_total, 16);
    assert_eq!(reprovision(4, 3, 0).spsimds_per_simd, 0);
    // swfCount ≥ S: nothing to re-provision.
    assert_eq!(n_simd_total(4, 3, 3), 4);
    assert_eq!(n_simd_total(4, 2, 3), 4);
    // Total units are conserved when the division is exact.
    let r = reprovision(4, 3, 1);
    assert_eq!(r.n_simd_total * (1 + r.spsimds_per_simd), 4 * (1 + 3));
    // No overflow on huge inputs.
    assert_eq!(n_simd_total(u32::MAX, u32::MAX, 0), u32::MAX);
}

#[test]
fn eq4_eq5_fig9_shape() {
    // Fig. 9: 3 WGs of 2 WFs, G_parallel = 2 → DS = 2 rounds.
    let gp = g_parallel(1, 1, 4, 64, 128);
    assert_eq!(gp, 2);
    assert_eq!(ds(3, gp), Some(2));
    // Floor in Eq. 4, ceiling in Eq. 5.
    assert_eq!(g_parallel(1, 1, 3, 64, 128), 1);
    assert_eq!(ds(4, 2), Some(2));
    assert_eq!(ds(5, 2), Some(3));
    assert_eq!(ds(0, 2), Some(0));
    // Bad input: no panic.
    assert_eq!(ds(3, 0), None);
    assert_eq!(g_parallel(1, 4, 4, 64, 0), 0);
    assert_eq!(
        g_parallel(u32::MAX, u32::MAX, u32::MAX, u32::MAX, 1),
        u32::MAX
    );
    // The same through KernelInputs: d = 5, E_WF = 10 → 2·(5 + 10).
    let inp = KernelInputs::paper(1, 4, 3 * 128, 128, 5, 0, 0).unwrap();
    assert_eq!(inp.groups(), 3);
    let b = KernelBound::no_split(&inp, 10).unwrap();
    assert_eq!((b.g_parallel, b.resident, b.ds, b.e_kernel), (2, 2, 2, 30));
}

#[test]
fn table2_fig8() {
    let c = fig8();
    let inp = table2_inputs();
    let none = no_split_bound(&inp, &c).unwrap();
    assert_eq!((none.ds, none.e_wf, none.e_kernel), (1, 59, 60));
    let (p1, w1) = pws_bound(&inp, &c, &fig8_p(), 1).unwrap();
    assert_eq!(
        (p1.ipet, p1.n_splits, p1.e_wf, p1.e_kernel),
        (49, 1, 51, 52)
    );
    assert_eq!(w1.selection.sb, [n(1)].into());
    let (p2, w2) = pws_bound(&inp, &c, &fig8_p(), 2).unwrap();
    assert_eq!(
        (p2.ipet, p2.n_splits, p2.e_wf, p2.e_kernel),
        (42, 3, 48, 49)
    );
    assert_eq!(w2.selection.swf_count, 2);
    // Re-provisioning with swfCount (docs/assumptions.md#A24): S = 2, swfCount = 2 → nothing idle.
    assert_eq!(n_simd_total(4, 2, w2.selection.swf_count as u32), 4);
    // DWS by Eq. 8 (Table 2's DWS column is not reproducible, docs/assumptions.md#A27): 123 / 190
    // / 261.
    let dws: Vec<u64> = (1..=3)
        .map(|s| dws_bound(&inp, &c, s).unwrap().e_kernel)
        .collect();
    assert_eq!(dws, [123, 190, 261]);
}

#[test]
fn table2_percentages_from_paper_values() {
    // (No Splitting, DWS, PWS) as published → (vs no split, vs DWS) in whole percent.
    for (none, dws, pws, r_none, r_dws) in [
        (60.0, 127.0, 52.0, 13, 59),
        (60.0, 192.0, 49.0, 18, 74),
        (60.0, 245.0, 47.0, 22, 81),
    ] {
        assert_eq!(pct(pws, none), r_none);
        assert_eq!(pct(pws, dws), r_dws);
    }
}

#[test]
fn dws_linear_in_s_for_fixed_ipet() {
    // Free splits isolate the (S+1) factor: E_kernel = DS·(d + (S+1)·IPET).
    let inp = KernelInputs {
        e_s: 0,
        e_m: 0,
        ..table2_inputs()
    };
    let e: Vec<u64> = (0..6)
        .map(|s| KernelBound::dws(&inp, s, 59).unwrap().e_kernel)
        .collect();
    for w in e.windows(2) {
        assert_eq!(w[1] - w[0], 59);
    }
    // S = 0 is no splitting (Lemma 5.7).
    assert_eq!(e[0], KernelBound::no_split(&inp, 59).unwrap().e_kernel);
}

#[test]
fn pws_never_above_dws_fig8() {
    // Eq. 9 on the Fig. 8 graph, S = 1..3.
    let c = fig8();
    let inp = table2_inputs();
    for s in 1..=3 {
        let (p, _) = pws_bound(&inp, &c, &fig8_p(), s).unwrap();
        let d = dws_bound(&inp, &c, s).unwrap();
        assert!(p.e_kernel <= d.e_kernel, "S = {s}: {p:?} vs {d:?}");
        assert!(p.e_wf <= d.e_wf, "Eq. 7 at S = {s}");
    }
}

#[test]
fn generalised_round() {
    // R < G_parallel, k = 3, dispatch spread 4: DS = ⌈10/2⌉ = 5, round = (2+4) + 3·20.
    let inp = KernelInputs {
        resident: 2,
        d: 2,
        dispatch_spread: 4,
        k: 3,
        grid: 640,
        ..table2_inputs()
    };
    let b = KernelBound::pws(&inp, 1, 18, 1).unwrap();
    assert_eq!((b.ds, b.d_eff, b.e_wf, b.e_round), (5, 6, 20, 66));
    assert_eq!(b.e_kernel, 5 * 66);
    let d = KernelBound::dws(&inp, 2, 18).unwrap();
    assert_eq!(d.e_round, 6 + 3 * 3 * (18 + 2 * 2));
}

#[test]
fn typed_errors() {
    let ok = table2_inputs();
    let e = |inp: KernelInputs| KernelBound::no_split(&inp, 1).unwrap_err();
    assert_eq!(e(KernelInputs { wg: 0, ..ok }), KernelError::ZeroWorkGroup);
    assert_eq!(e(KernelInputs { k: 0, ..ok }), KernelError::ZeroK);
    assert_eq!(
        e(KernelInputs { resident: 0, ..ok }),
        KernelError::ZeroResident
    );
    assert_eq!(
        e(KernelInputs { resident: 5, ..ok }),
        KernelError::ResidentExceedsGParallel {
            resident: 5,
            g_parallel: 4
        }
    );
    assert_eq!(
        e(KernelInputs {
            d: u64::MAX,
            dispatch_spread: 1,
            ..ok
        }),
        KernelError::Overflow
    );
    assert_eq!(
        KernelBound::dws(&ok, 3, u64::MAX).unwrap_err(),
        KernelError::Overflow
    );
    assert!(KernelInputs::paper(4, 1, 64, 0, 1, 1, 1).is_none());
    assert!(!KernelError::Overflow.to_string().is_empty());
}

#[test]
fn serde_roundtrip() {
    let (b, _) = pws_bound(&table2_inputs(), &fig8(), &fig8_p(), 2).unwrap();
    let j = serde_json::to_string(&b).unwrap();
    assert_eq!(serde_json::from_str::<KernelBound>(&j).unwrap(), b);
    let i = table2_inputs();
    let j = serde_json::to_string(&i).unwrap();
    assert_eq!(serde_json::from_str::<KernelInputs>(&j).unwrap(), i);
}

/// `dws_charged` takes E_WF as given (the split costs already charged per branch) and keeps
/// Eq. 8's (S+1) serialisation; with exactly S charged splits it equals Eq. 8.
#[test]
fn dws_charged_equals_eq8_when_s_splits_are_charged() {
    let inp = table2_inputs();
    for s in 1..=3u32 {
        let eq8 = KernelBound::dws(&inp, s, 59).unwrap();
        let charged = KernelBound::dws_charged(&inp, s, 59 + u64::from(s) * 2).unwrap();
        assert_eq!(charged.e_kernel, eq8.e_kernel, "S = {s}");
        assert_eq!(charged.e_wf, eq8.e_wf);
        assert_eq!(charged.n_splits, 0);
        // More splits on a path than S: the charged form grows, Eq. 8 does not.
        let more = KernelBound::dws_charged(&inp, s, 59 + 10 * 2).unwrap();
        assert!(more.e_kernel > eq8.e_kernel || s >= 10);
    }
}
