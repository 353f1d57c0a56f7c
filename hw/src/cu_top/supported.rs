//! Which instructions the RTL top ([`super::ComputeUnitTop`]) executes today: the scalar
//! units, the vector ALU's instructions (the VALU block's subset), the dword FLAT loads and
//! stores, the SMEM loads and `s_store_dword`, the DS instructions of the LDS's subset, `s_waitcnt` and
//! `s_barrier`, and `split`/`merge` as the no-op they are without splitting. A kernel is
//! checked against this list before it is loaded into the RTL system (`rtgpu run --top rtl`),
//! so a kernel the top would issue but not execute (a VALU operation outside the VALU block's
//! subset such as `v_mad_u32_u24`, a Sim-D tile transfer) is refused instead of giving wrong results.

use crate::isa::insn_model::{decode_fields, unit, InsnFields};
use std::fmt;

/// The units the top executes: the SALU, the branch unit, program control (`s_nop`,
/// `s_endpgm`, `s_sleep`), the VALU (within [`valu_supported`]), the memory port (within
/// [`memory_supported`]), the LDS (within [`lds_supported`]), the synchronisation unit
/// (`s_waitcnt`, `s_barrier`) and `split`/`merge` (no-ops: the top runs without splitting).
pub const SUPPORTED_UNITS: [u8; 9] = [
    unit::SALU,
    unit::BRANCH,
    unit::PROGRAM,
    unit::VALU,
    unit::VMEM,
    unit::SMEM,
    unit::LDS,
    unit::SYNC,
    unit::PWS,
];

/// An instruction the top does not execute yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Its unit ([`mod@unit`]).
    pub unit: u8,
    /// Why, for an instruction of a supported unit (empty for a unit the top lacks).
    pub why: &'static str,
}

impl Unsupported {
    /// The unit's name.
    pub fn unit_name(&self) -> &'static str {
        unit_name(self.unit)
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.why.is_empty() {
            return write!(
                f,
                "the RTL compute unit does not execute it yet: {}",
                self.why
            );
        }
        write!(
            f,
            "the RTL compute unit does not execute {} instructions yet (it runs SALU, branch, \
             program-control, vector ALU, FLAT, SMEM, DS and synchronisation instructions)",
            self.unit_name()
        )
    }
}

/// The name of unit `u` ([`mod@unit`]).
pub fn unit_name(u: u8) -> &'static str {
    match u {
        unit::SALU => "salu",
        unit::VALU => "valu",
        unit::VMEM => "vmem",
        unit::SMEM => "smem",
        unit::LDS => "lds",
        unit::BRANCH => "branch",
        unit::PWS => "split/merge",
        unit::SYNC => "sync",
        unit::PROGRAM => "program",
        unit::TILE => "tile",
        _ => "illegal",
    }
}

/// `Ok` if the top executes the instruction `f` as the behavioural compute unit does: a
/// SALU, branch or program-control instruction, or an illegal word (the top stops on it with
/// `illegal_instruction`, as the behavioural unit does).
pub fn supported(f: &InsnFields) -> Result<(), Unsupported> {
    if f.illegal {
        return Ok(());
    }
    if !SUPPORTED_UNITS.contains(&f.unit) {
        return Err(Unsupported {
            unit: f.unit,
            why: "",
        });
    }
    let why = match f.unit {
        unit::VALU => valu_supported(f),
        unit::VMEM | unit::SMEM => memory_supported(f),
        unit::LDS => lds_supported(f),
        _ => Ok(()),
    };
    why.map_err(|why| Unsupported { unit: f.unit, why })
}

/// `Ok` for a memory instruction the top's memory port serves: `flat_load_dword` and
/// `flat_store_dword` with their VGPRs below [`super::VGPRS`] (the address pair included),
/// `s_load_dword`, `s_load_dwordx2`, `s_load_dwordx4`, `s_store_dword`.
pub fn memory_supported(f: &InsnFields) -> Result<(), &'static str> {
    use crate::isa::insn_model::format;
    match (f.format, f.opcode) {
        // (Every SMEM instruction of the subset: the loads of 1, 2, 4 dwords, s_store_dword.)
        (format::SMEM, _) => Ok(()),
        (format::FLAT, 0x14 | 0x1C) => {
            let regs = [f.src0 + 1, f.src1, u16::from(f.dst)];
            match regs.iter().any(|&v| usize::from(v) >= super::VGPRS) {
                true => Err("a VGPR past the top's 24 per wavefront"),
                false => Ok(()),
            }
        }
        _ => Err("a FLAT access of more than one dword (the top's port moves a dword per lane)"),
    }
}

/// `Ok` for a DS instruction the top's LDS runs: one of the LDS block's subset
/// ([`crate::lds::op::ALL`]) with every VGPR it names below [`super::VGPRS`] (`ADDR`, the data
/// VGPRs it reads, the one or two it loads).
pub fn lds_supported(f: &InsnFields) -> Result<(), &'static str> {
    use crate::lds::op;
    let o = f.opcode as u8;
    if f.opcode > 0xFF || !op::ALL.contains(&o) {
        return Err("a DS operation outside the LDS block's subset");
    }
    let data = match o {
        op::WRITE2 => [f.src1, f.src2],
        op::ADD | op::WRITE => [f.src1, f.src1],
        _ => [f.src0, f.src0],
    };
    let dst = match o {
        op::READ2 => u16::from(f.dst) + 1,
        op::READ => u16::from(f.dst),
        _ => f.src0,
    };
    match [f.src0, data[0], data[1], dst]
        .iter()
        .any(|&v| usize::from(v) >= super::VGPRS)
    {
        true => Err("a VGPR past the top's 24 per wavefront"),
        false => Ok(()),
    }
}

/// `Ok` for a VALU instruction the top's vector unit runs: one of the VALU block's subset
/// ([`crate::valu::model::op_of`]), with every VGPR it names below [`super::VGPRS`] (a pair's
/// second VGPR included) and, for a 64-bit operation, at most three VGPR dwords: the top's
/// VALU reads three VGPR rows per cycle ([`super::rtl::valu_operands::ValuOperands`]), so
/// `v_mad_u64_u32` of three VGPRs and a compare of two VGPR pairs are refused.
pub fn valu_supported(f: &InsnFields) -> Result<(), &'static str> {
    use crate::valu::model::{is_wide, op_of, writes_pair, Op};
    let op = match op_of(f.format, f.opcode) {
        None => return Err("a VALU operation outside the VALU block's subset"),
        Some((op, _)) => op,
    };
    let e64 = f.format == crate::isa::insn_model::format::VOP3;
    let vgpr = |code: u16| (code >= 256).then_some(code - 256);
    // The destination is an SGPR code for v_readfirstlane_b32 and the compares.
    let dst = match op {
        Op::Vop1(0x02) | Op::Vopc(_) => None,
        _ => Some(u16::from(f.dst) + u16::from(writes_pair(op))),
    };
    let src1 = if e64 {
        vgpr(f.src1)
    } else {
        Some(f.src1 & 0xFF)
    };
    let src2 = if e64 { vgpr(f.src2) } else { None };
    // The 64-bit sources: a compare's two, the shift's `src1`, the multiply-add's `src2`.
    let [p0, p1, p2] = match op {
        Op::Vopc(_) if is_wide(op) => [1, 1, 0],
        Op::Vop3(0x28F) => [0, 1, 0],
        Op::Vop3(0x1E8) => [0, 0, 1],
        _ => [0, 0, 0],
    };
    let srcs = [vgpr(f.src0), src1, src2];
    let dwords: u16 = srcs
        .iter()
        .zip([p0, p1, p2])
        .map(|(s, p)| s.map_or(0, |_| 1 + p))
        .sum();
    if is_wide(op) && dwords > 3 {
        return Err(
            "a 64-bit operation with four VGPR dwords (the top reads three VGPR rows a cycle)",
        );
    }
    let last = [
        srcs[0].map(|v| v + p0),
        srcs[1].map(|v| v + p1),
        srcs[2].map(|v| v + p2),
        dst,
    ];
    match last
        .iter()
        .flatten()
        .any(|&v| usize::from(v) >= super::VGPRS)
    {
        true => Err("a VGPR past the top's 24 per wavefront"),
        false => Ok(()),
    }
}

/// The first instruction of `code` (walked from dword 0 by instruction length) the top does
/// not execute: its byte address and why.
pub fn first_unsupported(code: &[u32]) -> Option<(u32, Unsupported)> {
    first_refused(code, supported)
}

/// The first instruction of `code` (walked from dword 0 by instruction length) that `check`
/// refuses: its byte address and why.
pub fn first_refused(
    code: &[u32],
    check: impl Fn(&InsnFields) -> Result<(), Unsupported>,
) -> Option<(u32, Unsupported)> {
    let mut i = 0;
    while i < code.len() {
        let f = decode_fields(code[i], code.get(i + 1).copied().unwrap_or(0));
        if let Err(e) = check(&f) {
            return Some((4 * i as u32, e));
        }
        i += usize::from(f.words.max(1));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s_add_u32 s0, s0, s0` (0x80000000), `s_branch 0` (0xBF820000), `v_mov_b32 v0, v0`
    /// (0x7E000300), `s_load_dword s0, s[0:1], 0` (0xC0020000 0), `ds_write_b32 v0, v0`
    /// (0xD81A0000 0), `s_barrier` (0xBF8A0000), `s_waitcnt 0` (0xBF8C0000) and `s_endpgm`
    /// (0xBF810000) and `s_store_dword s0, s[0:1], 0` (0xC0420000 0) are supported;
    /// `flat_load_dwordx2 v[0:1], v[0:1]` (FLAT, 0xDC540000 0) is refused at its PC, `v_mov_b32 v24, v0` (0x7E300300) names a VGPR past the top's and
    /// `v_mad_u32_u24 v1, v0, 0, 1` (0xD1C30001 0x02050100) is outside the VALU block's
    /// subset, while `v_mac_f32 v1, v0, v0` (0x2C020100) and `v_bfe_u32 v1, v0, 0, 1`
    /// (0xD1C80001 0x02050100) pass; `ds_write_b32 v0, v24`
    /// (DATA0 past the top's VGPRs) and `ds_read2_b32 v[23:24], v0` (its second VGPR past
    /// them) are refused as lds; an illegal word passes (the top faults on it). Fails if the
    /// two-dword FLAT load passes, DS or `s_barrier` is refused, a DS VGPR limit (data or the pair's
    /// second) or the VALU's VGPR limit or subset check is dropped, a three-source operation
    /// is refused, or the walk skips words.
    #[test]
    fn scalar_passes_vector_is_refused() {
        let ok = [
            0x8000_0000,
            0xBF82_0000,
            0x7E00_0300,
            0xC002_0000,
            0,
            0xD81A_0000,
            0,
            0xBF8A_0000,
            0xBF8C_0000,
            0xC042_0000,
            0,
            0xBF81_0000,
        ];
        assert_eq!(first_unsupported(&ok), None);
        let bad = [0x8000_0000, 0xDC54_0000, 0, 0xBF81_0000];
        let (pc, e) = first_unsupported(&bad).expect("refused");
        assert_eq!((pc, e.unit_name()), (4, "vmem"));
        assert!(e.to_string().contains("more than one dword"), "{e}");
        for w1 in [24 << 8, 23 << 24] {
            let w0 = if w1 == 24 << 8 {
                0xD81A_0000
            } else {
                0xD86E_0000
            };
            let (pc, e) = first_unsupported(&[0xBF8A_0000, w0, w1, 0xBF81_0000]).expect("lds");
            assert_eq!((pc, e.unit_name()), (4, "lds"), "{w0:#x} {w1:#x}");
            assert!(e.to_string().contains("VGPR"), "{e}");
        }
        let passing = [0x2C02_0100, 0xD1C8_0001, 0x0205_0100, 0xBF81_0000];
        assert_eq!(first_unsupported(&passing), None);
        let mad24 = [0xD1C3_0001, 0x0205_0100];
        for (words, why) in [(&[0x7E30_0300][..], "VGPR"), (&mad24[..], "subset")] {
            let code = [words, &[0xBF81_0000]].concat();
            let (pc, e) = first_unsupported(&code).expect("refused");
            assert_eq!((pc, e.unit_name()), (0, "valu"));
            assert!(e.to_string().contains(why), "{e}");
        }
        let illegal = decode_fields(0xFFFF_FFFF, 0);
        assert!(illegal.illegal && supported(&illegal).is_ok());
    }

    /// The 64-bit operations in the shapes clang writes pass (LLVM's encodings:
    /// `v_mad_u64_u32 v[0:1], s[0:1], s0, v2, v[0:1]`, `v_lshlrev_b64 v[0:1], 2, v[0:1]`,
    /// `v_cmp_eq_u64_e32 vcc, 0, v[1:2]`); four VGPR dwords are refused
    /// (`v_cmp_eq_u64_e32 vcc, v[0:1], v[2:3]`, `v_mad_u64_u32 v[0:1], s[0:1], v3, v2,
    /// v[0:1]`), and so is a pair whose second VGPR is past the top's
    /// (`v_lshlrev_b64 v[23:24], 2, v[0:1]`). Fails if the dword count or the pair's second
    /// VGPR is dropped.
    #[test]
    fn wide_operations_pass_in_three_rows() {
        let ok = [
            0xD1E8_0000,
            0x0402_0400,
            0xD28F_0000,
            0x0002_0082,
            0x7DD4_0280,
            0xBF81_0000,
        ];
        assert_eq!(first_unsupported(&ok), None);
        let four = [&[0x7DD4_0500u32][..], &[0xD1E8_0000, 0x0402_0503]];
        for words in four {
            let (pc, e) = first_unsupported(words).expect("refused");
            assert_eq!((pc, e.unit_name()), (0, "valu"));
            assert!(e.to_string().contains("four VGPR dwords"), "{e}");
        }
        let (_, e) = first_unsupported(&[0xD28F_0017, 0x0002_0082]).expect("refused");
        assert!(e.to_string().contains("past the top's 24"), "{e}");
    }
}
