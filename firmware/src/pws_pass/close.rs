//! [`close_at_end`]: the joins clang-14 leaves out. When an if's last arm runs into the
//! kernel's `s_endpgm`, restoring EXEC is useless, so clang writes no `s_or_b64 exec, exec, sX`
//! and the arm's skip targets the `s_endpgm` itself. The pass needs every if closed to place a
//! merge, so this step inserts the missing joins right before the `s_endpgm` (innermost first)
//! and points each such if's skip at its own join. Nothing before the `s_endpgm` moves, so every
//! other address stays the same; the inserted joins only set EXEC (and SCC) before the end.
//!
//! The ifs are followed with a stack of save pairs over the code outside loops: an
//! `s_and_saveexec_b64 sX` opens sX (unless it is an early exit, `s_cbranch_execz` to the
//! `s_endpgm` right after it: the parser's plain exit mask), `s_or_saveexec_b64 sY, sX` on the
//! innermost pair replaces it with sY, `s_or_b64 exec, exec, sY` on it closes it. A kernel
//! this reading does not fit is left as it is (the parser then says what is wrong).

use super::error::PassError;
use super::parse::decode_all;
use super::pat;
use super::structure::Insn;
use crate::isa::Operand;

/// An if still open: the pair its join restores from, and where its skips would be (right
/// after its head, with or without the `s_xor_b64`, and right after its else-head).
struct Open {
    pair: Operand,
    skips: Vec<usize>,
}

/// The code with the joins of the ifs still open at the final `s_endpgm` inserted before it.
pub(crate) fn close_at_end(code: &[u32]) -> Result<Vec<u32>, PassError> {
    let insns = decode_all(code)?;
    let Some(last) = insns.len().checked_sub(1) else {
        return Ok(code.to_vec());
    };
    let open = open_at_end(&insns, last);
    if open.is_empty() {
        return Ok(code.to_vec());
    }
    let end_pc = insns[last].pc;
    // The joins, innermost first, from end_pc on; the s_endpgm after them.
    let n = open.len() as u32;
    let mut out = Vec::with_capacity(code.len() + open.len());
    for (k, i) in insns[..last].iter().enumerate() {
        let mut insn = i.insn;
        if i.target == Some(last) {
            let to = open
                .iter()
                .position(|o| o.skips.contains(&k))
                .map_or(end_pc + 4 * n, |pos| end_pc + 4 * (n - 1 - pos as u32));
            let offset = (i64::from(to) - i64::from(i.pc) - 4) / 4;
            insn.imm = u32::from(offset as i16 as u16);
        }
        out.extend(encode(&insn, i.pc)?);
    }
    for o in open.iter().rev() {
        out.extend(encode(&pat::join(o.pair), end_pc)?);
    }
    out.extend(encode(&insns[last].insn, end_pc)?);
    Ok(out)
}

fn encode(i: &crate::isa::Instruction, pc: u32) -> Result<Vec<u32>, PassError> {
    i.encode().map_err(|e| PassError::Encode {
        pc,
        msg: e.to_string(),
    })
}

/// The ifs still open at the final `s_endpgm` (`last`), outermost first.
fn open_at_end(insns: &[Insn], last: usize) -> Vec<Open> {
    let in_loop = super::parse::loop_cover(insns);
    let mut open: Vec<Open> = Vec::new();
    for (k, i) in insns[..last].iter().enumerate() {
        if in_loop[k] {
            continue;
        }
        if let Some((save, _)) = pat::and_saveexec(&i.insn) {
            let exit = insns
                .get(k + 1)
                .is_some_and(|n| pat::is_execz(&n.insn) && n.target == Some(last));
            if !(exit && open.is_empty()) {
                let xor = insns
                    .get(k + 1)
                    .is_some_and(|n| pat::is_xor_save(&n.insn, save));
                open.push(Open {
                    pair: save,
                    skips: vec![k + 1 + xor as usize],
                });
            }
        } else if let Some(top) = open.last_mut() {
            if let Some(y) = pat::or_saveexec(&i.insn, top.pair) {
                top.pair = y;
                top.skips.push(k + 2);
            } else if pat::is_join(&i.insn, top.pair) {
                open.pop();
            }
        }
    }
    open
}
