//! Instruction patterns of the masked-if lowering (LLVM's GCN if/else lowering) and the PWS
//! instructions.

use crate::isa::{Instruction, Op, Operand, Sig};

/// `exec` (code 126) as a 64-bit operand.
pub const EXEC: Operand = Operand::Special(126);

/// `s_waitcnt 0`: every counter zero.
pub fn is_waitcnt0(i: &Instruction) -> bool {
    i.op == Op::SWaitcnt && i.imm == 0
}

/// `split`.
pub fn is_split(i: &Instruction) -> bool {
    i.op == Op::Split
}

/// `merge`.
pub fn is_merge(i: &Instruction) -> bool {
    i.op == Op::Merge
}

/// A SOPP branch (`s_branch`, `s_cbranch_*`).
pub fn is_branch(i: &Instruction) -> bool {
    i.op.info().sig == Sig::Branch
}

/// `s_cbranch_execz`.
pub fn is_execz(i: &Instruction) -> bool {
    i.op == Op::SCbranchExecz
}

/// `s_setpc_b64` / `s_swappc_b64`: a branch to a computed address.
pub fn is_indirect(i: &Instruction) -> bool {
    matches!(i.op, Op::SSetpcB64 | Op::SSwappcB64)
}

/// `s_and_saveexec_b64 sX, cond` with an SGPR pair sX and a condition other than exec:
/// returns (sX, cond).
pub fn and_saveexec(i: &Instruction) -> Option<(Operand, Operand)> {
    match (i.op, i.dst, i.src[0]) {
        (Op::SAndSaveexecB64, Some(save @ Operand::Sgpr(_)), Some(cond)) if cond != EXEC => {
            Some((save, cond))
        }
        _ => None,
    }
}

/// `s_xor_b64 sX, exec, sX` (the else mask, after `s_and_saveexec_b64`).
pub fn is_xor_save(i: &Instruction, save: Operand) -> bool {
    i.op == Op::SXorB64 && i.dst == Some(save) && i.src[0] == Some(EXEC) && i.src[1] == Some(save)
}

/// `s_or_saveexec_b64 sY, sX` (the first instruction of an else-head): returns sY, the pair
/// the else-arm's join restores EXEC from (sX itself in hand-written kernels; clang-14 may
/// take another free pair).
pub fn or_saveexec(i: &Instruction, save: Operand) -> Option<Operand> {
    match (i.op, i.dst, i.src[0]) {
        (Op::SOrSaveexecB64, Some(y @ Operand::Sgpr(_)), Some(x)) if x == save => Some(y),
        _ => None,
    }
}

/// `s_or_b64 exec, exec, sX` for an SGPR pair sX (a join).
pub fn join_pair(i: &Instruction) -> Option<Operand> {
    match (i.op, i.dst, i.src[0], i.src[1]) {
        (Op::SOrB64, Some(EXEC), Some(EXEC), Some(x @ Operand::Sgpr(_))) => Some(x),
        _ => None,
    }
}

/// `s_or_b64 exec, exec, sX` (a join) as an instruction.
pub fn join(save: Operand) -> Instruction {
    let mut i = Instruction::new(Op::SOrB64);
    i.dst = Some(EXEC);
    i.src[0] = Some(EXEC);
    i.src[1] = Some(save);
    i
}

/// `s_xor_b64 exec, sX, exec` or `s_xor_b64 exec, exec, sX` (the second instruction of an
/// else-head; clang-14 writes the second form).
pub fn is_xor_exec(i: &Instruction, save: Operand) -> bool {
    let srcs = (i.src[0], i.src[1]);
    i.op == Op::SXorB64
        && i.dst == Some(EXEC)
        && (srcs == (Some(save), Some(EXEC)) || srcs == (Some(EXEC), Some(save)))
}

/// `s_or_b64 exec, exec, sX` (the join: EXEC restored).
pub fn is_join(i: &Instruction, save: Operand) -> bool {
    i.op == Op::SOrB64 && i.dst == Some(EXEC) && i.src[0] == Some(EXEC) && i.src[1] == Some(save)
}

/// `s_waitcnt 0`.
pub fn waitcnt0() -> Instruction {
    Instruction::new(Op::SWaitcnt)
}

/// `merge`.
pub fn merge() -> Instruction {
    Instruction::new(Op::Merge)
}

/// `s_cbranch_execz` (its offset is set when the code is laid out).
pub fn execz() -> Instruction {
    Instruction::new(Op::SCbranchExecz)
}

/// `split lo, hi` over the 64-bit condition `cond` of an `s_and_saveexec_b64`: `vcc_lo,
/// vcc_hi` for vcc, `sN, sN+1` for `s[N:N+1]`; `None` for a condition that is not a mask
/// source pair.
pub fn split_of(cond: Operand) -> Option<Instruction> {
    let (lo, hi) = match cond {
        Operand::Sgpr(n) if n < 101 => (Operand::Sgpr(n), Operand::Sgpr(n + 1)),
        Operand::Special(c @ (106 | 126)) => (Operand::Special(c), Operand::Special(c + 1)),
        _ => return None,
    };
    let mut s = Instruction::new(Op::Split);
    s.src[0] = Some(lo);
    s.src[1] = Some(hi);
    Some(s)
}
