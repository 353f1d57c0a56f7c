//! The model against the GCN3 manual's numbers and the four-quarter schedule.

use super::*;

/// `v_add_u32` (VOP2 0x19) issued in cycle 0 with EXEC = lanes 0 and 63.
fn add_issue() -> ValuIn {
    ValuIn {
        valid: true,
        format: format::VOP2,
        opcode: 0x19,
        dst: 3,
        exec: 1 | 1 << 63,
        a: [u32::MAX; QUARTER],
        b: [2; QUARTER],
        ..ValuIn::default()
    }
}

/// Issue period and latency 4 from the quarters: `busy` in cycles 1..=3 with `quarter` 1..=3,
/// quarter q written back in cycle q+1, `done` and the carry mask in cycle 4; `valid` while
/// busy is ignored. Shown to catch a model that ends after quarter 2 (`f.quarter < 2`).
#[test]
fn four_quarters_then_done() {
    let mut m = ValuModel::new();
    let mut seen = Vec::new();
    for cycle in 0..6 {
        let o = m.outputs();
        seen.push((o.busy, o.quarter, o.wb_valid, o.wb_quarter, o.done));
        m.clock(&ValuIn {
            valid: true,
            ..if cycle == 0 {
                add_issue()
            } else {
                ValuIn {
                    opcode: 0x13,
                    ..add_issue()
                }
            }
        });
        if cycle == 3 {
            let o = m.outputs();
            // 0xFFFFFFFF + 2 = 1 with carry, lanes 0 and 63 only.
            assert_eq!((o.wb_lanes, o.wb_data[15]), (1 << 15, 1));
            assert_eq!(
                (o.sgpr_dst, o.sgpr_data(), o.sgpr_wide),
                (VCC, 1 | 1 << 63, true)
            );
        }
    }
    assert_eq!(
        seen,
        [
            (false, 0, false, 0, false),
            (true, 1, true, 0, false),
            (true, 2, true, 1, false),
            (true, 3, true, 2, false),
            (false, 0, true, 3, true),
            // The v_and_b32 presented in cycle 4 was taken: its quarter 0.
            (true, 1, true, 0, false),
        ]
    );
}

/// Lanes from the ISA: borrows, clamp, compares (signed and unsigned), the product's high
/// half, the arithmetic shift by `src0`.
#[test]
fn lanes_follow_the_manual() {
    let lane = |op, a, b, bit, clamp| {
        lane(
            op,
            LaneIn {
                a,
                b,
                bit,
                clamp,
                ..LaneIn::default()
            },
        )
    };
    let v2 = Op::Vop2;
    assert_eq!(lane(v2(0x1D), 5, 5, true, false), (u32::MAX, true));
    assert_eq!(lane(v2(0x1E), 5, 5, true, true), (0, true));
    assert_eq!(lane(v2(0x1C), u32::MAX, 0, true, true), (u32::MAX, true));
    assert_eq!(lane(Op::Vopc(0xC1), u32::MAX, 0, false, false), (0, true));
    assert_eq!(lane(Op::Vopc(0xC9), u32::MAX, 0, false, false), (0, false));
    assert_eq!(
        lane(Op::Vop3(0x286), u32::MAX, u32::MAX, false, false).0,
        0xFFFF_FFFE
    );
    assert_eq!(lane(v2(0x11), 4, 0x8000_0000, false, false).0, 0xF800_0000);
    assert_eq!(lane(v2(0x08), 0x100_0002, 3, false, false).0, 6);
}

/// fp32 lanes: a tie to even (1 + 2^-24 → 1), `v_fma_f32` against `v_mad_f32` on
/// (1 + 2^-12)^2 − (1 + 2^-11) (2^-24 fused, 0 when the product is rounded first), a
/// denormal 3 · 2^-149 halved by omod (a tie: 2 · 2^-149), `|x|` then `-x` on `src0`, the
/// default NaN of ∞ − ∞, a NaN operand quieted, the clamp of −0 to +0, `v_cvt_i32_f32` of
/// 2^31 saturated and an unordered compare (`neq` of two NaNs). Shown to catch a rounding
/// toward zero in `fp::round` (`half` ignored): the tie passes, the halved denormal gives 1.
#[test]
fn fp_lanes_follow_ieee() {
    let fp = |op, a, b, c, omod, abs, neg| {
        lane(
            op,
            LaneIn {
                a,
                b,
                c,
                omod,
                abs,
                neg,
                ..LaneIn::default()
            },
        )
        .0
    };
    let (v2, v3) = (Op::Vop2, Op::Vop3);
    assert_eq!(
        fp(v2(0x01), 0x3F80_0000, 0x3380_0000, 0, 0, 0, 0),
        0x3F80_0000
    );
    let sq = 0x3F80_0800;
    assert_eq!(fp(v3(0x1CB), sq, sq, 0xBF80_1000, 0, 0, 0), 0x3380_0000);
    assert_eq!(fp(v3(0x1C1), sq, sq, 0xBF80_1000, 0, 0, 0), 0);
    assert_eq!(fp(v2(0x05), 3, 0x3F80_0000, 0, 3, 0, 0), 2);
    assert_eq!(fp(v2(0x01), 0xC000_0000, 0, 0, 0, 1, 1), 0xC000_0000);
    assert_eq!(
        fp(v2(0x02), 0x7F80_0000, 0x7F80_0000, 0, 0, 0, 0),
        0xFFC0_0000
    );
    assert_eq!(
        fp(v2(0x05), 0x7F80_0001, 0xFFC0_0002, 0, 0, 0, 0),
        0x7FC0_0001
    );
    let clamped = lane(
        v2(0x05),
        LaneIn {
            a: 0x8000_0000,
            b: 0x3F80_0000,
            clamp: true,
            ..LaneIn::default()
        },
    );
    assert_eq!(clamped.0, 0);
    assert_eq!(fp(Op::Vop1(0x08), 0x4F00_0000, 0, 0, 0, 0, 0), 0x7FFF_FFFF);
    let neq = lane(
        Op::Vopc(0x4D),
        LaneIn {
            a: 0x7FC0_0000,
            b: 0x7FC0_0000,
            ..LaneIn::default()
        },
    );
    assert_eq!(neq, (0, true));
}

/// `v_readfirstlane_b32`: the lowest active lane, lane 0's value when none is active.
#[test]
fn readfirstlane_takes_the_lowest_active_lane() {
    let a: [u32; 64] = std::array::from_fn(|l| 100 + l as u32);
    let issue = ValuIn {
        format: format::VOP1,
        opcode: 0x02,
        dst: 9,
        exec: 0b1100 << 40,
        ..ValuIn::default()
    };
    let e = run_rows(&issue, &a, &a, &a);
    assert_eq!(e.sgpr, Some((9, 142, false, false)));
    assert!(e.vgpr.iter().all(Option::is_none));
    let e = run_rows(&ValuIn { exec: 0, ..issue }, &a, &a, &a);
    assert_eq!(e.sgpr, Some((9, 100, false, false)));
}
