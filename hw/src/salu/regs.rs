//! The SALU's caller on a context's scalar registers ([`Sregs`]): the operand read before
//! the block and the write-back after it, as the contract in [`super`] divides the work.

use super::{wide_sources, SaluIn, SaluOut};
use crate::cu::regfile::{BadOperand, Sregs};
use crate::isa::insn_model::{format, InsnFields};

/// The block's inputs for SALU instruction `f` of a context with registers `r`, `next_pc`
/// the address of the instruction after it (`s_getpc_b64`), with `valid` set.
pub fn operands(f: &InsnFields, r: &Sregs, next_pc: u32) -> Result<SaluIn, BadOperand> {
    let opcode = f.opcode as u8;
    let (wide_a, wide_b) = wide_sources(f.format, opcode);
    let read = |code: u16, wide: bool| match wide {
        true => r.read64(code, f.imm),
        false => r.read(code, f.imm).map(u64::from),
    };
    let a = match (f.format, opcode) {
        (format::SOPK, _) => u64::from(r.read(u16::from(f.dst), 0)?),
        (format::SOP1, 0x1C) => u64::from(next_pc),
        _ => read(f.src0, wide_a)?,
    };
    let b = match f.format {
        format::SOP2 | format::SOPC => read(f.src1, wide_b)?,
        format::SOPK => u64::from(f.imm & 0xFFFF),
        _ => 0,
    };
    Ok(SaluIn {
        reset: false,
        valid: true,
        format: f.format,
        opcode,
        dst: f.dst & 0x7F,
        a,
        b,
        scc: r.scc,
        exec: r.exec,
    })
}

/// Writes the block's outputs back into `r`: EXEC, then `out_dst`, then SCC.
pub fn write_back(o: &SaluOut, r: &mut Sregs) -> Result<(), BadOperand> {
    if !o.out_valid {
        return Ok(());
    }
    if o.exec_we {
        r.exec = o.exec_out;
    }
    if o.sdst_we {
        let dst = u16::from(o.out_dst);
        match o.wide {
            true => r.write64(dst, o.d())?,
            false => r.write(dst, o.d_lo)?,
        }
    }
    if o.scc_we {
        r.scc = o.scc_out;
    }
    Ok(())
}
