//! Program control: SOPP (branches, `s_endpgm`, `s_barrier`, the timing-only instructions,
//! `merge`) and the PC instructions `s_getpc_b64`, `s_setpc_b64`, `s_swappc_b64`.

use super::error::Trap;
use super::wave::Wave;
use crate::isa::{Instruction, Op};

/// What the scheduler does with a wavefront after one instruction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Flow {
    /// Continue at `Wave::pc` (already the next instruction or a branch target).
    Continue,
    /// Wait at the work-group barrier, then continue at `Wave::pc`.
    Barrier,
    /// The wavefront ended (`s_endpgm`).
    End,
    /// Wait at a Sim-D tile transfer of the whole work-group, then continue at `Wave::pc`.
    Tile(super::tile::Tile),
}

/// The instruction is handled here.
pub(crate) fn is_control(op: Op) -> bool {
    use crate::isa::Format;
    op.info().format == Format::Sopp || matches!(op, Op::SGetpcB64 | Op::SSetpcB64 | Op::SSwappcB64)
}

/// Executes a control instruction; `w.pc` already holds the address of the next one.
pub(crate) fn exec(w: &mut Wave, i: &Instruction) -> Result<Flow, Trap> {
    use Op::*;
    let next = w.pc;
    let taken = match i.op {
        SEndpgm => return Ok(Flow::End),
        SBarrier => return Ok(Flow::Barrier),
        SNop | SWaitcnt | SSleep | Merge => false,
        SBranch => true,
        SCbranchScc0 => !w.scc,
        SCbranchScc1 => w.scc,
        SCbranchVccz => w.vcc() == 0,
        SCbranchVccnz => w.vcc() != 0,
        SCbranchExecz => w.exec() == 0,
        SCbranchExecnz => w.exec() != 0,
        SGetpcB64 => {
            w.write64(i.dst.ok_or(Trap::Illegal)?, next)?;
            false
        }
        SSetpcB64 => {
            w.pc = w.read64(i.src[0].ok_or(Trap::Illegal)?)?;
            false
        }
        SSwappcB64 => {
            let target = w.read64(i.src[0].ok_or(Trap::Illegal)?)?;
            w.write64(i.dst.ok_or(Trap::Illegal)?, next)?;
            w.pc = target;
            false
        }
        _ => return Err(Trap::Illegal),
    };
    if taken {
        // Target = PC of the next instruction + 4 * signed SIMM16.
        let delta = i64::from(i.imm as u16 as i16) * 4;
        w.pc = next.wrapping_add(delta as u64);
    }
    Ok(Flow::Continue)
}
