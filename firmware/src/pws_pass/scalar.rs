//! The scalar registers an instruction reads and writes, for the A13 check
//! (docs/assumptions.md#A13: at a merge the parent keeps its own SRF, so no scalar value computed
//! inside a split region may be live after the join).
//!
//! The model, per [`Instruction`]:
//! - **explicit operands** by the slots of the op's signature ([`crate::isa::slots`]), with
//!   their widths in dwords (`s[8:11]` in a 4-dword slot is s8..s11, `vcc` in a 2-dword slot is
//!   vcc_lo and vcc_hi). `SDst`, `SgprDst` and `CarryOut` are written, `SSrc`, `Src`, `SBase`
//!   and `SOffset` read. Exceptions: `s_store_dword`'s data (its `SDst` slot) is read; the SOPK
//!   register of `s_cmpk_*` is read, of `s_addk_i32`/`s_mulk_i32` read and written, of
//!   `s_movk_i32` written.
//! - **VCC implicit** (e32 forms only; e64 forms name the pair explicitly): written by VOPC
//!   (`v_cmp*`, `v_cmpx*`) and by the carry-out ops (`v_add_u32`, `v_sub_u32`, `v_subrev_u32`,
//!   `v_addc_u32`, ...: signatures [`Sig::Carry`], [`Sig::CarryIn`]); read by the carry-in ops
//!   ([`Sig::CarryIn`]: `v_addc`, `v_subb`, `v_subbrev`) and `v_cndmask_b32` ([`Sig::Cndmask`]);
//!   read by `s_cbranch_vccz`/`s_cbranch_vccnz` and the `src_vccz` source.
//! - **SCC**: written by the SALU ops that set it in gfx8, by name prefix (`s_add*`, `s_sub*`,
//!   `s_and*`, `s_or*`, `s_xor*`, `s_andn2*`, `s_orn2*`, `s_nand*`, `s_nor*`, `s_xnor*`,
//!   `s_lshl*`, `s_lshr*`, `s_ashr*`, `s_bfe*`, `s_min*`, `s_max*`, `s_abs*`, `s_not*`,
//!   `s_cmp*`, `s_bitcmp*`, every `*saveexec*`); not by `s_mov*`, `s_cselect*`, `s_mul*`,
//!   `s_getpc`/`s_setpc`/`s_swappc`. Read by exactly `s_cbranch_scc0/1`, `s_cselect_*`,
//!   `s_addc_u32`, `s_subb_u32`, `s_cmov_*`, `s_cmovk_*` and the `src_scc` source.
//! - **M0**: read by every `ds_*` (gfx8 LDS instructions clamp with M0), `s_movrel*` and the
//!   `src_lds_direct` source; written only as an explicit destination.
//! - **EXEC** (exec_lo/hi, `src_execz`) is left out: the join restores it from the save pair.
//!
//! Conservative choices: treating an op as writing a register it does not write could only
//! hide a violation (it kills liveness), so the SCC writers are the ops documented to set it;
//! treating an op as reading a register could only add false positives, so the SCC readers are
//! exactly the list above. A partial write (`s_mov_b32 vcc_lo, ..`) writes only that dword.
//! The `split` operands are read (the mask), `merge`, `s_barrier`, `s_waitcnt`, `s_endpgm`,
//! `s_nop`, `s_sleep` and FLAT touch no scalar register.

use std::collections::BTreeSet;
use std::fmt;

use crate::isa::{Instruction, Op, Operand, Sig, Slot};

/// Special register codes (gfx8).
const VCC_LO: u8 = 106;
const VCC_HI: u8 = 107;
const M0: u8 = 124;
const EXEC_LO: u8 = 126;
const EXEC_HI: u8 = 127;
const SRC_VCCZ: u8 = 251;
const SRC_EXECZ: u8 = 252;
const SRC_SCC: u8 = 253;
const SRC_LDS_DIRECT: u8 = 254;

/// One 32-bit scalar register (or SCC) as the A13 check tracks it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Sreg {
    /// `sN`.
    Sgpr(u8),
    /// A special scalar register by its code (vcc_lo = 106, vcc_hi = 107, m0 = 124, ttmpN).
    Special(u8),
    /// The scalar condition code.
    Scc,
}

impl Sreg {
    /// The name reported in [`super::PassError::ScalarLiveOut`]: `s20`, `vcc` (either half),
    /// `m0`, `scc`, `ttmp3`, ...
    pub fn name(self) -> String {
        match self {
            Sreg::Sgpr(n) => format!("s{n}"),
            Sreg::Special(VCC_LO | VCC_HI) => "vcc".to_string(),
            Sreg::Special(c) => Operand::Special(c).show(1).to_string(),
            Sreg::Scc => "scc".to_string(),
        }
    }
}

impl fmt::Display for Sreg {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.name())
    }
}

/// The scalar registers one instruction reads and writes (see the module documentation).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ScalarAccess {
    /// Registers read.
    pub reads: BTreeSet<Sreg>,
    /// Registers written.
    pub writes: BTreeSet<Sreg>,
}

/// SALU mnemonic prefixes of the ops that set SCC (gfx8).
const SCC_WRITERS: &[&str] = &[
    "s_add", "s_sub", "s_and", "s_or", "s_xor", "s_nand", "s_nor", "s_xnor", "s_lshl", "s_lshr",
    "s_ashr", "s_bfe", "s_min", "s_max", "s_abs", "s_not", "s_cmp", "s_bitcmp",
];

/// Mnemonic prefixes of the ops that read SCC.
const SCC_READERS: &[&str] = &[
    "s_cbranch_scc",
    "s_cselect_",
    "s_addc_u32",
    "s_subb_u32",
    "s_cmov_",
    "s_cmovk_",
];

impl ScalarAccess {
    /// The scalar registers `insn` reads and writes.
    pub fn of(insn: &Instruction) -> ScalarAccess {
        let mut a = ScalarAccess::default();
        a.explicit(insn);
        a.implicit_vcc(insn);
        a.implicit_scc_m0(insn);
        a
    }

    fn read(&mut self, op: Option<Operand>, width: u8) {
        self.reads.extend(regs(op, width));
    }

    fn write(&mut self, op: Option<Operand>, width: u8) {
        self.writes.extend(regs(op, width));
    }

    /// The operands the op's slots name.
    fn explicit(&mut self, insn: &Instruction) {
        for slot in insn.slots() {
            match slot {
                Slot::SDst(w) => self.sdst(insn, w),
                Slot::SgprDst => self.write(insn.dst, 1),
                Slot::CarryOut => self.write(insn.sdst, 2),
                Slot::SSrc(i, w) | Slot::Src(i, w) => self.read(insn.src[i], w),
                Slot::SBase => self.read(insn.src[0], 2),
                Slot::SOffset => self.read(insn.src[1], 1),
                _ => {}
            }
        }
    }

    /// The `SDst` slot: written, but read for `s_store_dword` and the SOPK compares, both for
    /// `s_addk_i32`/`s_mulk_i32`.
    fn sdst(&mut self, insn: &Instruction, w: u8) {
        let name = insn.op.name();
        let reads = insn.op == Op::SStoreDword
            || name.starts_with("s_cmpk_")
            || matches!(insn.op, Op::SAddkI32 | Op::SMulkI32);
        let writes = insn.op != Op::SStoreDword && !name.starts_with("s_cmpk_");
        if reads {
            self.read(insn.dst, w);
        }
        if writes {
            self.write(insn.dst, w);
        }
    }

    /// The implicit VCC of e32 VOPC, carry and cndmask forms and of the vccz branches.
    fn implicit_vcc(&mut self, insn: &Instruction) {
        let vcc = [Sreg::Special(VCC_LO), Sreg::Special(VCC_HI)];
        let (read, write) = match (insn.op.info().sig, insn.e64) {
            (Sig::Vopc | Sig::Vopc64 | Sig::Carry, false) => (false, true),
            (Sig::CarryIn, false) => (true, true),
            (Sig::Cndmask, false) => (true, false),
            _ => (
                matches!(insn.op, Op::SCbranchVccz | Op::SCbranchVccnz),
                false,
            ),
        };
        if read {
            self.reads.extend(vcc);
        }
        if write {
            self.writes.extend(vcc);
        }
    }

    /// SCC set or read by name, M0 read by LDS and `s_movrel*`.
    fn implicit_scc_m0(&mut self, insn: &Instruction) {
        let name = insn.op.name();
        if SCC_WRITERS.iter().any(|p| name.starts_with(p)) || name.contains("saveexec") {
            self.writes.insert(Sreg::Scc);
        }
        if SCC_READERS.iter().any(|p| name.starts_with(p)) {
            self.reads.insert(Sreg::Scc);
        }
        if name.starts_with("ds_") || name.starts_with("s_movrel") {
            self.reads.insert(Sreg::Special(M0));
        }
    }
}

/// The tracked registers an operand of `width` dwords covers (none for constants, VGPRs and
/// EXEC); the special sources `src_vccz`, `src_scc` and `src_lds_direct` stand for VCC, SCC
/// and M0.
fn regs(op: Option<Operand>, width: u8) -> Vec<Sreg> {
    let w = width.max(1);
    match op {
        Some(Operand::Sgpr(n)) => (0..w).map(|d| Sreg::Sgpr(n.saturating_add(d))).collect(),
        Some(Operand::Special(SRC_VCCZ)) => vec![Sreg::Special(VCC_LO), Sreg::Special(VCC_HI)],
        Some(Operand::Special(SRC_SCC)) => vec![Sreg::Scc],
        Some(Operand::Special(SRC_LDS_DIRECT)) => vec![Sreg::Special(M0)],
        Some(Operand::Special(c)) => (0..w)
            .map(|d| c.saturating_add(d))
            .filter(|c| !matches!(*c, EXEC_LO | EXEC_HI | SRC_EXECZ))
            .map(Sreg::Special)
            .collect(),
        _ => Vec::new(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::isa::assemble_line;

    fn access(text: &str) -> ScalarAccess {
        ScalarAccess::of(&assemble_line(text).unwrap_or_else(|e| panic!("{text}: {e}")))
    }

    fn names(set: &BTreeSet<Sreg>) -> Vec<String> {
        let mut v: Vec<String> = set.iter().map(|r| r.name()).collect();
        v.dedup();
        v
    }

    fn check(text: &str, reads: &[&str], writes: &[&str]) {
        let a = access(text);
        assert_eq!(names(&a.reads), reads, "{text}: reads");
        assert_eq!(names(&a.writes), writes, "{text}: writes");
    }

    #[test]
    fn smem_widths() {
        check(
            "s_load_dwordx4 s[8:11], s[0:1], 0x0",
            &["s0", "s1"],
            &["s8", "s9", "s10", "s11"],
        );
        check(
            "s_load_dword s20, s[4:5], s6",
            &["s4", "s5", "s6"],
            &["s20"],
        );
        check("s_store_dword s3, s[4:5], 0x8", &["s3", "s4", "s5"], &[]);
    }

    #[test]
    fn saveexec_reads_vcc_writes_pair_and_scc() {
        let a = access("s_and_saveexec_b64 s[20:21], vcc");
        assert_eq!(
            a.reads,
            BTreeSet::from([Sreg::Special(VCC_LO), Sreg::Special(VCC_HI)])
        );
        assert_eq!(
            a.writes,
            BTreeSet::from([Sreg::Sgpr(20), Sreg::Sgpr(21), Sreg::Scc])
        );
        check("s_or_b64 exec, exec, s[6:7]", &["s6", "s7"], &["scc"]);
    }

    #[test]
    fn vector_carries_and_compares() {
        check("v_add_u32 v1, vcc, s5, v0", &["s5"], &["vcc"]);
        check("v_addc_u32 v3, vcc, 0, v3, vcc", &["vcc"], &["vcc"]);
        check("v_add_u32_e64 v1, s[8:9], s5, v0", &["s5"], &["s8", "s9"]);
        check("v_cmp_lt_i32 vcc, 0, v6", &[], &["vcc"]);
        check("v_cmp_lt_i32_e64 s[2:3], s4, v6", &["s4"], &["s2", "s3"]);
        check("v_cndmask_b32 v1, 0, v2, vcc", &["vcc"], &[]);
        check(
            "v_cndmask_b32_e64 v1, 0, v2, s[10:11]",
            &["s10", "s11"],
            &[],
        );
        check("v_readfirstlane_b32 s7, v1", &[], &["s7"]);
    }

    #[test]
    fn scc_readers_and_writers() {
        check("s_cselect_b32 s1, s2, s3", &["s2", "s3", "scc"], &["s1"]);
        check("s_cbranch_scc1 0", &["scc"], &[]);
        check("s_cmp_lt_u32 s1, 4", &["s1"], &["scc"]);
        check("s_cmpk_eq_i32 s1, 4", &["s1"], &["scc"]);
        check("s_addk_i32 s1, 4", &["s1"], &["s1", "scc"]);
        check("s_mul_i32 s5, s2, s3", &["s2", "s3"], &["s5"]);
        check("s_movk_i32 s5, 0x10", &[], &["s5"]);
        check("s_cbranch_vccz 0", &["vcc"], &[]);
        check("s_cbranch_execz 0", &[], &[]);
    }

    #[test]
    fn m0_and_memory() {
        check("ds_write_b32 v1, v2", &["m0"], &[]);
        check("ds_read_b32 v1, v2", &["m0"], &[]);
        check("s_mov_b32 m0, -1", &[], &["m0"]);
        check("flat_load_dword v6, v[2:3]", &[], &[]);
        check("flat_store_dword v[4:5], v8", &[], &[]);
        check("s_barrier", &[], &[]);
    }
}
