//! Reference model of the SALU, written from the contract in [`super`]: the result of an
//! instruction from its operands, and the one-register stage around it.

use super::{SaluIn, SaluOut};
use crate::isa::insn_model::format;

/// Cycle-level model of the SALU stage.
#[derive(Clone, Debug, Default)]
pub struct SaluModel {
    /// The stage register.
    held: SaluOut,
}

impl SaluModel {
    /// An empty stage.
    pub fn new() -> Self {
        Self::default()
    }

    /// The outputs during the current cycle.
    pub fn outputs(&self) -> SaluOut {
        self.held
    }

    /// The rising edge with these inputs.
    pub fn clock(&mut self, i: &SaluIn) {
        self.held = if i.valid && !i.reset {
            execute(i)
        } else {
            SaluOut::default()
        };
    }
}

impl crate::block::Clocked for SaluModel {
    type In = SaluIn;
    type Out = SaluOut;

    /// The outputs are the stage register: they do not depend on the cycle's inputs.
    fn outputs(&self, _input: &SaluIn) -> SaluOut {
        SaluModel::outputs(self)
    }

    fn step(&mut self, input: &SaluIn) {
        self.clock(input);
    }
}

/// The outputs an instruction produces (as held by the stage in the next cycle).
pub fn execute(i: &SaluIn) -> SaluOut {
    let mut o = match i.format {
        format::SOP2 => sop2(i),
        format::SOPK => sopk(i),
        format::SOP1 => sop1(i),
        _ => scc_only(compare(i.opcode % 6, i.opcode < 6, i.a as u32, i.b as u32)),
    };
    o.out_valid = true;
    o.out_dst = i.dst & 0x7F;
    o
}

/// A 32-bit result written to `dst`, with SCC when given.
fn write32(d: u32, scc: Option<bool>) -> SaluOut {
    SaluOut {
        sdst_we: true,
        d_lo: d,
        scc_we: scc.is_some(),
        scc_out: scc.unwrap_or(false),
        ..SaluOut::default()
    }
}

/// A 64-bit result written to the pair `dst`, with SCC when given.
fn write64(d: u64, scc: Option<bool>) -> SaluOut {
    SaluOut {
        wide: true,
        d_hi: (d >> 32) as u32,
        ..write32(d as u32, scc)
    }
}

/// Only SCC changes.
fn scc_only(scc: bool) -> SaluOut {
    SaluOut {
        scc_we: true,
        scc_out: scc,
        ..SaluOut::default()
    }
}

/// Compare kind 0 eq, 1 lg, 2 gt, 3 ge, 4 lt, 5 le.
fn compare(kind: u8, signed: bool, a: u32, b: u32) -> bool {
    let (lt, eq) = if signed {
        ((a as i32) < (b as i32), a == b)
    } else {
        (a < b, a == b)
    };
    let gt = !lt && !eq;
    match kind {
        0 => eq,
        1 => !eq,
        2 => gt,
        3 => !lt,
        4 => lt,
        _ => !gt,
    }
}

/// Signed overflow of `d = a + b` (or of `d = a - b` when `sub`).
fn overflow(a: u32, b: u32, d: u32, sub: bool) -> bool {
    let (sa, sb, sd) = (a >> 31, b >> 31, d >> 31);
    if sub {
        sa != sb && sd != sa
    } else {
        sa == sb && sd != sa
    }
}

fn sop2(i: &SaluIn) -> SaluOut {
    let (a64, b64) = (i.a, i.b);
    let (a, b) = (i.a as u32, i.b as u32);
    let sh = (b & 63) as u64;
    let nz64 = |d: u64| write64(d, Some(d != 0));
    let nz32 = |d: u32| write32(d, Some(d != 0));
    match i.opcode {
        0x00 => {
            let (d, c) = a.overflowing_add(b);
            write32(d, Some(c))
        }
        0x01 => write32(a.wrapping_sub(b), Some(b > a)),
        0x02 => {
            let d = a.wrapping_add(b);
            write32(d, Some(overflow(a, b, d, false)))
        }
        0x03 => {
            let d = a.wrapping_sub(b);
            write32(d, Some(overflow(a, b, d, true)))
        }
        0x04 => {
            let s = u64::from(a) + u64::from(b) + u64::from(i.scc);
            write32(s as u32, Some(s > u64::from(u32::MAX)))
        }
        0x05 => {
            let need = u64::from(b) + u64::from(i.scc);
            write32(
                a.wrapping_sub(b).wrapping_sub(u32::from(i.scc)),
                Some(need > u64::from(a)),
            )
        }
        0x06 => minmax((a as i32) < (b as i32), a, b),
        0x07 => minmax(a < b, a, b),
        0x08 => minmax((a as i32) > (b as i32), a, b),
        0x09 => minmax(a > b, a, b),
        0x0A => write32(if i.scc { a } else { b }, None),
        0x0B => write64(if i.scc { a64 } else { b64 }, None),
        0x0C => nz32(a & b),
        0x0D => nz64(a64 & b64),
        0x0E => nz32(a | b),
        0x0F => nz64(a64 | b64),
        0x10 => nz32(a ^ b),
        0x11 => nz64(a64 ^ b64),
        0x12 => nz32(a & !b),
        0x13 => nz64(a64 & !b64),
        0x14 => nz32(a | !b),
        0x15 => nz64(a64 | !b64),
        0x1C => nz32(a << (b & 31)),
        0x1D => nz64(a64 << sh),
        0x1E => nz32(a >> (b & 31)),
        0x1F => nz64(a64 >> sh),
        0x20 => nz32(((a as i32) >> (b & 31)) as u32),
        0x21 => nz64(((a64 as i64) >> sh) as u64),
        0x24 => write32(a.wrapping_mul(b), None),
        _ => nz32(bfe(a, b)),
    }
}

/// min/max: the first operand when `first`, SCC = `first`.
fn minmax(first: bool, a: u32, b: u32) -> SaluOut {
    write32(if first { a } else { b }, Some(first))
}

/// `s_bfe_u32`: the field of `a` at offset `b[4:0]`, width `b[22:16]` (32 or more: all).
fn bfe(a: u32, b: u32) -> u32 {
    let field = a >> (b & 31);
    match (b >> 16) & 0x7F {
        w if w >= 32 => field,
        w => field & ((1u32 << w) - 1),
    }
}

fn sopk(i: &SaluIn) -> SaluOut {
    let a = i.a as u32;
    let imm = i.b as u16;
    let simm = imm as i16 as i32 as u32;
    match i.opcode {
        0x00 => write32(simm, None),
        0x02..=0x07 => scc_only(compare(i.opcode - 2, true, a, simm)),
        0x08..=0x0D => scc_only(compare(i.opcode - 8, false, a, u32::from(imm))),
        0x0E => {
            let d = a.wrapping_add(simm);
            write32(d, Some(overflow(a, simm, d, false)))
        }
        _ => write32(a.wrapping_mul(simm), None),
    }
}

fn sop1(i: &SaluIn) -> SaluOut {
    let a = i.a as u32;
    match i.opcode {
        0x00 => write32(a, None),
        0x01 | 0x1C => write64(i.a, None),
        0x04 => write32(!a, Some(!a != 0)),
        0x05 => write64(!i.a, Some(!i.a != 0)),
        op => {
            let exec = match op {
                0x20 => i.a & i.exec,
                0x21 => i.a | i.exec,
                _ => i.a ^ i.exec,
            };
            SaluOut {
                exec_we: true,
                exec_out: exec,
                ..write64(i.exec, Some(exec != 0))
            }
        }
    }
}

#[cfg(test)]
mod tests;
