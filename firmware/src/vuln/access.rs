//! Every architectural register an instruction reads and writes: VGPRs, SGPRs, VCC, EXEC,
//! M0 and SCC (the scalar part is the PWS pass's [`ScalarAccess`] model, with EXEC added).
//!
//! - **VGPRs**: the op's `VDst` slot is written, `VReg` slots and VGPR operands in `Src`
//!   slots are read, each over its width in dwords.
//! - **EXEC** (two 32-bit halves): read by every vector instruction (VALU, FLAT, DS: it
//!   selects their lanes), by `s_cbranch_execz/execnz`, by the `*saveexec*` ops and wherever
//!   it is an explicit source; written by the `*saveexec*` ops and as an explicit destination.
//! - a **load** (FLAT, DS and SMEM loads) writes its destination when its data arrives, not
//!   at issue ([`RegAccess::load`]).

use crate::isa::{Format, Instruction, Op, Operand, Sig, Slot};
use crate::pws_pass::{ScalarAccess, Sreg};

/// One 32-bit architectural register (SCC: one bit); VGPRs per lane are tracked by whoever
/// uses this.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Reg {
    /// `vN`.
    Vgpr(u8),
    /// `sN`.
    Sgpr(u8),
    /// VCC's low (0) or high (1) half.
    Vcc(u8),
    /// EXEC's low (0) or high (1) half.
    Exec(u8),
    /// M0.
    M0,
    /// SCC.
    Scc,
}

impl Reg {
    /// Bits the register holds (per lane for a VGPR).
    pub fn bits(self) -> u64 {
        match self {
            Reg::Scc => 1,
            _ => 32,
        }
    }

    /// The register a scalar operand code names (`None` for constants and unmodelled codes).
    pub fn of_code(code: u16) -> Option<Reg> {
        Some(match code {
            0..=101 => Reg::Sgpr(code as u8),
            106 | 107 => Reg::Vcc((code - 106) as u8),
            124 => Reg::M0,
            126 | 127 => Reg::Exec((code - 126) as u8),
            253 => Reg::Scc,
            _ => return None,
        })
    }

    /// Index of a scalar register in a context's table of [`SCALAR_REGS`] entries.
    pub fn scalar_index(self) -> Option<usize> {
        Some(match self {
            Reg::Vgpr(_) => return None,
            Reg::Sgpr(n) => usize::from(n),
            Reg::Vcc(h) => 102 + usize::from(h),
            Reg::Exec(h) => 104 + usize::from(h),
            Reg::M0 => 106,
            Reg::Scc => 107,
        })
    }

    /// The scalar register at `index` of a context's table (the inverse of
    /// [`Reg::scalar_index`]).
    pub fn scalar_at(index: usize) -> Reg {
        match index {
            0..=101 => Reg::Sgpr(index as u8),
            102 | 103 => Reg::Vcc((index - 102) as u8),
            104 | 105 => Reg::Exec((index - 104) as u8),
            106 => Reg::M0,
            _ => Reg::Scc,
        }
    }
}

/// Entries of a context's scalar table: s0..s101, VCC (2), EXEC (2), M0, SCC.
pub const SCALAR_REGS: usize = 108;

/// The registers one instruction reads and writes.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RegAccess {
    /// Read at issue.
    pub reads: Vec<Reg>,
    /// Written (at issue, or when the data arrives for a load).
    pub writes: Vec<Reg>,
    /// A memory load: its writes happen when the data arrives.
    pub load: bool,
    /// A vector instruction (its VGPR accesses cover its active lanes).
    pub vector: bool,
}

impl RegAccess {
    /// The registers `insn` reads and writes.
    pub fn of(insn: &Instruction) -> RegAccess {
        let s = ScalarAccess::of(insn);
        let mut a = RegAccess {
            reads: s.reads.iter().filter_map(|&r| scalar(r)).collect(),
            writes: s.writes.iter().filter_map(|&r| scalar(r)).collect(),
            load: is_load(insn),
            vector: is_vector(insn),
        };
        a.vgprs(insn);
        a.exec(insn);
        a.reads.sort_unstable();
        a.reads.dedup();
        a.writes.sort_unstable();
        a.writes.dedup();
        a
    }

    /// The VGPR operands of the op's slots.
    fn vgprs(&mut self, insn: &Instruction) {
        let span = |op: Option<Operand>, w: u8| match op {
            Some(Operand::Vgpr(n)) => (0..w.max(1))
                .map(|d| Reg::Vgpr(n.wrapping_add(d)))
                .collect(),
            _ => Vec::new(),
        };
        for slot in insn.slots() {
            match slot {
                Slot::VDst(w) => self.writes.extend(span(insn.dst, w)),
                Slot::VReg(i, w) | Slot::Src(i, w) => self.reads.extend(span(insn.src[i], w)),
                _ => {}
            }
        }
    }

    /// EXEC: read by vector instructions, execz branches and saveexec; explicit operands.
    fn exec(&mut self, insn: &Instruction) {
        let both = [Reg::Exec(0), Reg::Exec(1)];
        let saveexec = insn.op.name().contains("saveexec");
        if self.vector || saveexec || matches!(insn.op, Op::SCbranchExecz | Op::SCbranchExecnz) {
            self.reads.extend(both);
        }
        if saveexec {
            self.writes.extend(both);
        }
        for slot in insn.slots() {
            match slot {
                Slot::SDst(w) if !matches!(insn.op, Op::SStoreDword) => {
                    self.writes.extend(exec_halves(insn.dst, w))
                }
                Slot::SSrc(i, w) | Slot::Src(i, w) => {
                    self.reads.extend(exec_halves(insn.src[i], w))
                }
                _ => {}
            }
        }
    }
}

/// The EXEC halves an explicit operand of `w` dwords covers (`src_execz` reads both).
fn exec_halves(op: Option<Operand>, w: u8) -> Vec<Reg> {
    match op {
        Some(Operand::Special(126)) if w >= 2 => vec![Reg::Exec(0), Reg::Exec(1)],
        Some(Operand::Special(c @ (126 | 127))) => vec![Reg::Exec(c - 126)],
        Some(Operand::Special(252)) => vec![Reg::Exec(0), Reg::Exec(1)],
        _ => Vec::new(),
    }
}

/// The [`Reg`] of a scalar register of the PWS pass's model (`None`: ttmp and others).
fn scalar(r: Sreg) -> Option<Reg> {
    match r {
        Sreg::Sgpr(n) => Some(Reg::Sgpr(n)),
        Sreg::Special(c) => Reg::of_code(u16::from(c)),
        Sreg::Scc => Some(Reg::Scc),
    }
}

/// The registers `code` names: (SGPRs, VGPRs), each one past the highest numbered (at least
/// the four SGPRs and one VGPR the ABI initialises). Undecodable dwords are skipped.
pub fn used_regs(code: &[u32]) -> (u8, u16) {
    let (mut s, mut v) = (4u8, 1u16);
    let mut at = 0;
    while at < code.len() {
        let Ok((insn, n)) = crate::isa::decode(&code[at..]) else {
            at += 1;
            continue;
        };
        let a = RegAccess::of(&insn);
        for r in a.reads.iter().chain(&a.writes) {
            match *r {
                Reg::Sgpr(n) => s = s.max(n + 1),
                Reg::Vgpr(n) => v = v.max(u16::from(n) + 1),
                _ => {}
            }
        }
        at += n.max(1);
    }
    (s, v)
}

/// A load: its destination is written when the data arrives.
pub fn is_load(insn: &Instruction) -> bool {
    match insn.op.info().sig {
        Sig::FlatLoad(_) | Sig::DsRead | Sig::DsRead2 => true,
        Sig::Smem(_) => insn.op != Op::SStoreDword,
        _ => false,
    }
}

/// A vector instruction: VALU, FLAT or DS.
pub fn is_vector(insn: &Instruction) -> bool {
    matches!(
        insn.op.info().format,
        Format::Vop1 | Format::Vop2 | Format::Vopc | Format::Vop3 | Format::Flat | Format::Ds
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::assemble_line;

    fn access(text: &str) -> RegAccess {
        RegAccess::of(&assemble_line(text).unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    /// A FLAT load reads its address pair and EXEC and writes its data late; a store reads
    /// address and data. Catches the VReg slots read as writes and a load not marked late.
    #[test]
    fn flat_operands() {
        let l = access("flat_load_dwordx2 v[4:5], v[2:3]");
        assert_eq!(
            l.reads,
            vec![Reg::Vgpr(2), Reg::Vgpr(3), Reg::Exec(0), Reg::Exec(1)]
        );
        assert_eq!(l.writes, vec![Reg::Vgpr(4), Reg::Vgpr(5)]);
        assert!(l.load && l.vector);
        let s = access("flat_store_dword v[4:5], v8");
        assert!(s.writes.is_empty() && !s.load);
        assert!(s.reads.contains(&Reg::Vgpr(8)) && s.reads.contains(&Reg::Vgpr(5)));
    }

    /// Saveexec reads and writes EXEC and SCC; an explicit `exec` destination writes it;
    /// SALU ops without EXEC operands leave it alone. Catches EXEC read by every instruction.
    #[test]
    fn exec_accesses() {
        let a = access("s_and_saveexec_b64 s[20:21], vcc");
        assert!(a.reads.contains(&Reg::Exec(0)) && a.writes.contains(&Reg::Exec(1)));
        assert!(a.writes.contains(&Reg::Scc) && a.writes.contains(&Reg::Sgpr(20)));
        let m = access("s_mov_b64 exec, s[4:5]");
        assert_eq!(m.writes, vec![Reg::Exec(0), Reg::Exec(1)]);
        assert_eq!(m.reads, vec![Reg::Sgpr(4), Reg::Sgpr(5)]);
        assert!(access("s_add_u32 s1, s2, s3")
            .reads
            .iter()
            .all(|r| !matches!(r, Reg::Exec(_))));
    }
}
