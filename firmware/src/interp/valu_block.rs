//! The RTL vector ALU's reference model (`rtgpu_hw::valu::model`) against this interpreter:
//! every instruction of the block's subset on random rows, EXEC, VCC and SGPR pairs; the
//! model's write-back (run quarter by quarter) leaves the destination VGPR and the SGPR it
//! writes as the interpreter does, and no other register changes. Shown to catch a model
//! whose `v_subbrev_u32` ignores the borrow in (`sub(wb, wa)`).

use super::mem::Memories;
use super::step::{self, Code};
use super::wave::{Wave, EXEC, VCC};
use crate::isa::{assemble, vector_alu_lines, ALL_OPS, WIDE_ALU_LINES as WIDE};
use proptest::prelude::*;
use rtgpu_hw::isa::insn_model::{decode_fields, format, InsnFields};
use rtgpu_hw::valu::model::{op_of, run_rows};
use rtgpu_hw::valu::ValuIn;

/// Every instruction of the block's subset: (line, code words, decoded fields).
fn subset() -> Vec<(String, Vec<u32>, InsnFields)> {
    ALL_OPS
        .iter()
        .filter_map(|&op| vector_alu_lines(op))
        .flatten()
        .chain(
            ["v_mul_u32_u24_e64 v3, v1, v2 clamp"]
                .into_iter()
                .chain(WIDE)
                .map(String::from),
        )
        .filter_map(|line| {
            let words = assemble(&line, "t.s").ok()?.words();
            let f = decode_fields(words[0], words.get(1).copied().unwrap_or(0));
            op_of(f.format, f.opcode).map(|_| (line, words, f))
        })
        .collect()
}

/// A VGPR source code's register (VOP2's 32-bit encoding holds `src1` as a VGPR number).
fn vgpr(code: u16, vsrc: bool) -> u32 {
    u32::from(if vsrc { code & 0xFF } else { code - 256 })
}

/// The VGPRs the caller reads into the block's `a`, `b`, `c` and `d` (the block's table of
/// 64-bit operands; v0 where unused): for the 32-bit operations `src0`, `src1`, and as `c`
/// the destination of `v_mac_f32` (VOP2 0x16, VOP3 0x116) or a VOP3 `src2` that is a VGPR.
fn sources(f: &InsnFields) -> [u32; 4] {
    let e64 = f.format == format::VOP3;
    let (s0, s1) = (vgpr(f.src0, false), vgpr(f.src1, !e64));
    let s2 = if f.src2 >= 256 {
        vgpr(f.src2, false)
    } else {
        0
    };
    match (f.format, f.opcode) {
        (format::VOPC, 0xE0..=0xEF) | (format::VOP3, 0xE0..=0xEF) => [s0, s1, s0 + 1, s1 + 1],
        (format::VOP3, 0x28F) => [s0, s1, 0, s1 + 1],
        (format::VOP3, 0x1E8) => [s0, s1, s2, s2 + 1],
        (format::VOP2, 0x16) | (format::VOP3, 0x116) => [s0, s1, u32::from(f.dst), 0],
        (format::VOP3, _) => [s0, s1, s2, 0],
        _ => [s0, s1, 0, 0],
    }
}

/// Checks one instruction on the wave `w` (EXEC, VCC, SGPRs and VGPRs set): the model's
/// write-back, run quarter by quarter, leaves the registers as the interpreter does.
pub(super) fn check(
    line: &str,
    words: &[u32],
    f: &InsnFields,
    w: &mut Wave,
) -> Result<(), TestCaseError> {
    let e64 = f.format == format::VOP3;
    let row = |r: u32| -> [u32; 64] { std::array::from_fn(|l| w.vgpr(r, l)) };
    let [a, b, c, d] = sources(f).map(row);
    let mask_in = if e64 { w.pair(f.src2 as u8) } else { w.vcc() };
    let issue = ValuIn {
        format: f.format,
        opcode: f.opcode,
        dst: f.dst,
        sdst: f.sdst & 0x7F,
        clamp: f.clamp,
        omod: f.omod,
        abs: f.abs,
        neg: f.neg,
        exec: w.exec(),
        mask_in,
        ..ValuIn::default()
    };
    let effect = run_rows(&issue, [&a, &b, &c, &d]);
    // The model's write-back on a copy of the registers.
    let (mut s, mut v) = (w.s, w.v.clone());
    for (row, values) in [effect.vgpr, effect.vgpr_hi].iter().enumerate() {
        for (l, x) in values.iter().enumerate() {
            if let Some(x) = x {
                v[(usize::from(f.dst) + row) * 64 + l] = *x;
            }
        }
    }
    if let Some((code, value, wide, exec_we)) = effect.sgpr {
        s[usize::from(code)] = value as u32;
        if wide {
            s[usize::from(code) + 1] = (value >> 32) as u32;
        }
        if exec_we {
            (s[usize::from(EXEC)], s[usize::from(EXEC) + 1]) = (value as u32, (value >> 32) as u32);
        }
    }
    let mut code = Code::new(words);
    let (mut mem, mut lds) = ([0u32; 4], [0u32; 4]);
    let mut m = Memories {
        mem: &mut mem,
        lds: &mut lds,
        lds_bytes: 16,
    };
    step::step(w, &mut code, &mut m).map_err(|e| TestCaseError::fail(format!("{line}: {e}")))?;
    prop_assert_eq!(&s[..], &w.s[..], "{} (SGPRs)", line);
    if let Some(at) = (0..v.len()).find(|&k| v[k] != w.v[k]) {
        let l = at % 64;
        prop_assert!(
            false,
            "{}: v{} lane {}: model {:#010x}, interpreter {:#010x} (a {:#010x}, b {:#010x}, c {:#010x})",
            line,
            at / 64,
            l,
            v[at],
            w.v[at],
            a[l],
            b[l],
            c[l]
        );
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(1000))]

    #[test]
    fn the_valu_model_equals_the_interpreter(
        pick in any::<prop::sample::Index>(),
        rows in prop::collection::vec(any::<u32>(), 256),
        equal in any::<u64>(), edge in any::<u64>(),
        exec in any::<u64>(), vcc in any::<u64>(), pair in any::<u64>(), empty in 0u8..8,
    ) {
        let ops = subset();
        let (line, words, f) = &ops[pick.index(ops.len())];
        let mut w = Wave::new(0);
        // EXEC empty now and then; lanes where v2 = v1 (compares, borrows on equal operands),
        // lanes with all ones in v1 (carries).
        w.set_pair(EXEC, if empty == 0 { 0 } else { exec });
        w.set_pair(VCC, vcc);
        w.set_pair(6, pair);
        for l in 0..64 {
            let x = if edge >> l & 1 == 1 { u32::MAX } else { rows[l] };
            w.set_vgpr(1, l, x);
            w.set_vgpr(2, l, if equal >> l & 1 == 1 { x } else { rows[64 + l] });
            w.set_vgpr(3, l, rows[128 + l]);
            w.set_vgpr(4, l, rows[192 + l]);
        }
        check(line, words, f, &mut w)?;
    }
}

/// The subset has every instruction the block lists, in both encodings (and
/// `v_mul_u32_u24` with clamp): 95 integer encodings, 46 fp32 ones (the two-source and
/// one-source fp32 operations and the twelve fp32 compares; `v_mad_f32` and `v_fma_f32`,
/// VOP3 only, are in `valu_fp_block`) and the 5 lines of the 64-bit operations.
#[test]
fn the_subset_is_complete() {
    assert_eq!(subset().len(), 95 + 46 + 5);
}
