//! The scalar ALU: SOP2, SOPK, SOP1 (except the PC instructions) and SOPC, on a context's
//! [`Sregs`]. Results and SCC follow the GCN3 ISA manual.

use super::regfile::{BadOperand, Sregs};
use crate::isa::insn_model::{format, InsnFields};

/// SCC after an addition or subtraction of i32 values: signed overflow.
fn overflow(a: u32, b: u32, d: u32, sub: bool) -> bool {
    let (a, b, d) = (a as i32, b as i32, d as i32);
    if sub {
        (a < 0) != (b < 0) && (d < 0) != (a < 0)
    } else {
        (a < 0) == (b < 0) && (d < 0) != (a < 0)
    }
}

/// Runs one SALU instruction (format SOP2, SOPK, SOP1 or SOPC) on `r`.
pub fn execute(f: &InsnFields, r: &mut Sregs) -> Result<(), BadOperand> {
    match f.format {
        format::SOP2 => sop2(f, r),
        format::SOPK => sopk(f, r),
        format::SOP1 => sop1(f, r),
        _ => {
            let (a, b) = (r.read(f.src0, f.imm)?, r.read(f.src1, f.imm)?);
            r.scc = compare(f.opcode % 6, f.opcode < 6, a, b);
            Ok(())
        }
    }
}

/// Compare `kind` (0 eq, 1 lg, 2 gt, 3 ge, 4 lt, 5 le), signed or unsigned.
fn compare(kind: u16, signed: bool, a: u32, b: u32) -> bool {
    let ord = if signed {
        (a as i32).cmp(&(b as i32))
    } else {
        a.cmp(&b)
    };
    use std::cmp::Ordering::*;
    match kind {
        0 => ord == Equal,
        1 => ord != Equal,
        2 => ord == Greater,
        3 => ord != Less,
        4 => ord == Less,
        _ => ord != Greater,
    }
}

/// Opcodes of SOP2 that work on 64-bit operands.
fn sop2_is_64(op: u16) -> bool {
    matches!(
        op,
        0x0B | 0x0D | 0x0F | 0x11 | 0x13 | 0x15 | 0x1D | 0x1F | 0x21
    )
}

fn sop2(f: &InsnFields, r: &mut Sregs) -> Result<(), BadOperand> {
    let dst = u16::from(f.dst);
    if sop2_is_64(f.opcode) {
        let a = r.read64(f.src0, f.imm)?;
        // Shifts take a 32-bit amount.
        let b = match f.opcode {
            0x1D | 0x1F | 0x21 => u64::from(r.read(f.src1, f.imm)? & 63),
            _ => r.read64(f.src1, f.imm)?,
        };
        let d = match f.opcode {
            0x0B => return r.write64(dst, if r.scc { a } else { b }),
            0x0D => a & b,
            0x0F => a | b,
            0x11 => a ^ b,
            0x13 => a & !b,
            0x15 => a | !b,
            0x1D => a << b,
            0x1F => a >> b,
            _ => ((a as i64) >> b) as u64,
        };
        r.scc = d != 0;
        return r.write64(dst, d);
    }
    let (a, b) = (r.read(f.src0, f.imm)?, r.read(f.src1, f.imm)?);
    let (d, scc) = match f.opcode {
        0x00 => {
            let (d, c) = a.overflowing_add(b);
            (d, Some(c))
        }
        0x01 => (a.wrapping_sub(b), Some(b > a)),
        0x04 => {
            let d = u64::from(a) + u64::from(b) + u64::from(r.scc);
            (d as u32, Some(d >> 32 != 0))
        }
        0x05 => {
            let d = u64::from(a).wrapping_sub(u64::from(b) + u64::from(r.scc));
            (d as u32, Some(d >> 32 != 0))
        }
        0x02 => {
            let d = a.wrapping_add(b);
            (d, Some(overflow(a, b, d, false)))
        }
        0x03 => {
            let d = a.wrapping_sub(b);
            (d, Some(overflow(a, b, d, true)))
        }
        0x06 => pick((a as i32) < (b as i32), a, b),
        0x07 => pick(a < b, a, b),
        0x08 => pick((a as i32) > (b as i32), a, b),
        0x09 => pick(a > b, a, b),
        0x0A => (if r.scc { a } else { b }, None),
        0x24 => (a.wrapping_mul(b), None),
        op => {
            let d = sop2_logic(op, a, b);
            (d, Some(d != 0))
        }
    };
    if let Some(scc) = scc {
        r.scc = scc;
    }
    r.write(dst, d)
}

/// min/max: the chosen value, SCC = the first operand was chosen.
fn pick(first: bool, a: u32, b: u32) -> (u32, Option<bool>) {
    (if first { a } else { b }, Some(first))
}

/// The 32-bit logic, shift and bit-field SOP2 opcodes.
fn sop2_logic(op: u16, a: u32, b: u32) -> u32 {
    match op {
        0x0C => a & b,
        0x0E => a | b,
        0x10 => a ^ b,
        0x12 => a & !b,
        0x14 => a | !b,
        0x1C => a << (b & 31),
        0x1E => a >> (b & 31),
        0x20 => ((a as i32) >> (b & 31)) as u32,
        _ => {
            // s_bfe_u32: offset b[4:0], width b[22:16].
            let (off, width) = (b & 31, (b >> 16) & 0x7F);
            let field = a >> off;
            if width >= 32 {
                field
            } else {
                field & ((1u32 << width) - 1)
            }
        }
    }
}

fn sopk(f: &InsnFields, r: &mut Sregs) -> Result<(), BadOperand> {
    let dst = u16::from(f.dst);
    let simm = f.imm as u16 as i16 as i32 as u32;
    match f.opcode {
        0x00 => r.write(dst, simm),
        0x02..=0x07 => {
            r.scc = compare(f.opcode - 2, true, r.read(dst, 0)?, simm);
            Ok(())
        }
        0x08..=0x0D => {
            r.scc = compare(f.opcode - 8, false, r.read(dst, 0)?, f.imm & 0xFFFF);
            Ok(())
        }
        0x0E => {
            let a = r.read(dst, 0)?;
            let d = a.wrapping_add(simm);
            r.scc = overflow(a, simm, d, false);
            r.write(dst, d)
        }
        _ => {
            let a = r.read(dst, 0)?;
            r.write(dst, a.wrapping_mul(simm))
        }
    }
}

fn sop1(f: &InsnFields, r: &mut Sregs) -> Result<(), BadOperand> {
    let dst = u16::from(f.dst);
    match f.opcode {
        0x00 => r.write(dst, r.read(f.src0, f.imm)?),
        0x01 => r.write64(dst, r.read64(f.src0, f.imm)?),
        0x04 => {
            let d = !r.read(f.src0, f.imm)?;
            r.scc = d != 0;
            r.write(dst, d)
        }
        0x05 => {
            let d = !r.read64(f.src0, f.imm)?;
            r.scc = d != 0;
            r.write64(dst, d)
        }
        op => {
            // s_{and,or,xor}_saveexec_b64.
            let a = r.read64(f.src0, f.imm)?;
            let old = r.exec;
            r.exec = match op {
                0x20 => a & old,
                0x21 => a | old,
                _ => a ^ old,
            };
            r.scc = r.exec != 0;
            r.write64(dst, old)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::insn_model::decode_fields;

    fn run(word: u32, literal: u32, r: &mut Sregs) {
        let f = decode_fields(word, literal);
        assert!(!f.illegal, "{word:#x}");
        execute(&f, r).unwrap();
    }

    #[test]
    fn add_u32_carry_and_saveexec() {
        let mut r = Sregs::default();
        r.s[1] = 0xFFFF_FFFF;
        r.s[2] = 2;
        // s_add_u32 s0, s1, s2 = 0x80000201
        run(0x8000_0201, 0, &mut r);
        assert_eq!((r.s[0], r.scc), (1, true));
        // s_and_saveexec_b64 s[2:3], vcc = 0xBE82206A
        r.exec = 0xF0;
        r.vcc = 0x3C;
        run(0xBE82_206A, 0, &mut r);
        assert_eq!((r.exec, r.s[2], r.s[3], r.scc), (0x30, 0xF0, 0, true));
    }

    #[test]
    fn float_constants_are_doubles_in_64_bit_operands() {
        let mut r = Sregs::default();
        // s_mov_b64 s[4:5], 1.0 = 0xBE8401F2
        run(0xBE84_01F2, 0, &mut r);
        assert_eq!((r.s[4], r.s[5]), (0, 0x3FF0_0000));
    }

    #[test]
    fn cmpk_and_bfe() {
        let mut r = Sregs::default();
        r.s[5] = 0xFFFF_FFFE;
        // s_cmpk_lt_i32 s5, 1 = 0xB3050001
        run(0xB305_0001, 0, &mut r);
        assert!(r.scc);
        // s_bfe_u32 s6, s5, 0x30004 (offset 4, width 3): literal form 0x9286FF05
        run(0x9286_FF05, 0x3_0004, &mut r);
        assert_eq!(r.s[6], 0x7);
    }
}
