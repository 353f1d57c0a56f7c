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
    let max = u64::from(u32::MAX);
    assert_eq!(lane(v2(0x1D), 5, 5, true, false), (max, true));
    assert_eq!(lane(v2(0x1E), 5, 5, true, true), (0, true));
    assert_eq!(lane(v2(0x1C), u32::MAX, 0, true, true), (max, true));
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
    let e = run_rows(&issue, [&a; 4]);
    assert_eq!(e.sgpr, Some((9, 142, false, false)));
    assert!(e.vgpr.iter().all(Option::is_none));
    let e = run_rows(&ValuIn { exec: 0, ..issue }, [&a; 4]);
    assert_eq!(e.sgpr, Some((9, 100, false, false)));
}

/// The 64-bit operations, from the ISA's definitions: `v_lshlrev_b64` shifts the pair
/// (`b`, `d`) by `a[5:0]` (so 0x41 shifts by 1 and moves bit 31 into the high dword);
/// `v_mad_u64_u32` adds the pair (`c`, `d`) to the 64-bit product, the carry out of bit 63
/// as the mask bit, all ones with clamp; `v_cmp_*_i64`/`_u64` compare (`a`, `c`) with
/// (`b`, `d`): -1 is below 0 signed, above it unsigned, and the low dwords decide only when
/// the high ones are equal.
#[test]
fn wide_lanes_follow_the_manual() {
    let wide = |op, a, b, c, d, clamp| {
        lane(
            op,
            LaneIn {
                a,
                b,
                c,
                d,
                clamp,
                ..LaneIn::default()
            },
        )
    };
    let (v3, vc) = (Op::Vop3, Op::Vopc);
    assert_eq!(
        wide(v3(0x28F), 0x41, 0x8000_0001, 0, 1, false),
        (0x3_0000_0002, false)
    );
    assert_eq!(wide(v3(0x28F), 63, 1, 0, 0, false), (1 << 63, false));
    let m = u32::MAX;
    assert_eq!(
        wide(v3(0x1E8), m, m, 0, 0, false),
        (0xFFFF_FFFE_0000_0001, false)
    );
    assert_eq!(wide(v3(0x1E8), 2, 3, 7, 1, false), (0x1_0000_000D, false));
    assert_eq!(
        wide(v3(0x1E8), m, m, m, m, false),
        (0xFFFF_FFFE_0000_0000, true)
    );
    assert_eq!(wide(v3(0x1E8), m, m, m, m, true), (u64::MAX, true));
    // lt_i64 / lt_u64 of -1 (a = c = all ones) against 0; eq_u64 decided by the low dwords.
    assert_eq!(wide(vc(0xE1), m, 0, m, 0, false), (0, true));
    assert_eq!(wide(vc(0xE9), m, 0, m, 0, false), (0, false));
    assert_eq!(wide(vc(0xEA), 1, 2, 5, 5, false), (0, false));
    assert_eq!(wide(vc(0xEC), 2, 1, 5, 5, false), (0, true));
    assert_eq!(wide(vc(0xEC), 2, 1, 4, 5, false), (0, false));
}

/// A pair-writing operation leaves its high dwords on `wb_data_hi` with `wb_two`, and
/// `v_mad_u64_u32` writes its carries to `sdst` (VOP3b) at the end.
#[test]
fn a_pair_result_writes_two_rows_and_the_carry() {
    let a: [u32; 64] = std::array::from_fn(|l| (l % 2) as u32);
    let ones = [u32::MAX; 64];
    let issue = ValuIn {
        format: format::VOP3,
        opcode: 0x1E8,
        dst: 4,
        sdst: 12,
        exec: u64::MAX,
        ..ValuIn::default()
    };
    // (l mod 2) · (2^32 - 1) + (2^64 - 1): a carry in the odd lanes.
    let e = run_rows(&issue, [&a, &ones, &ones, &ones]);
    assert_eq!(e.sgpr, Some((12, 0xAAAA_AAAA_AAAA_AAAA, true, false)));
    for l in 0..64 {
        let want = ((l % 2) as u64 * 0xFFFF_FFFF).wrapping_add(u64::MAX);
        assert_eq!(e.vgpr[l], Some(want as u32), "lane {l}");
        assert_eq!(e.vgpr_hi[l], Some((want >> 32) as u32), "lane {l}");
    }
}
