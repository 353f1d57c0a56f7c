//! Reference model of the scalar state ([`crate::ctx::CtxRegs`]): a vector of contexts, each
//! a PC and the behavioural register type's fields, updated at the edge in the contract's
//! order (copy, init, write ports, reset).

use super::operand::{dst_ok, read32, read64, write};
use crate::ctx::{CtxIn, CtxOut, CtxView, ReadOut, ReadPort, WritePort, INIT_SGPRS};
use crate::cu::regfile::Sregs;

/// One context's architectural scalar state.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CtxState {
    /// The next instruction's address.
    pub pc: u32,
    /// SGPRs, VCC, EXEC, M0, SCC (the default is the reset value: M0 all ones).
    pub r: Sregs,
}

impl CtxState {
    /// Applies one write port: EXEC, the destination, SCC, the PC.
    fn apply(&mut self, w: &WritePort) {
        if w.exec_we {
            self.r.exec = w.exec;
        }
        if w.sdst_we {
            write(&mut self.r, w.sdst, w.wide, w.d);
        }
        if w.scc_we {
            self.r.scc = w.scc;
        }
        if w.pc_we {
            self.pc = w.pc;
        }
    }
}

/// The scalar state of every context.
#[derive(Clone, Debug)]
pub struct CtxRegsModel {
    /// The contexts.
    ctx: Vec<CtxState>,
}

impl CtxRegsModel {
    /// `contexts` contexts at the reset value.
    pub fn new(contexts: usize) -> Self {
        Self {
            ctx: vec![CtxState::default(); contexts],
        }
    }

    /// Context `c`'s state.
    pub fn state(&self, c: usize) -> &CtxState {
        &self.ctx[c]
    }

    /// A read port's result in the current cycle.
    fn read(&self, p: &ReadPort) -> ReadOut {
        let value = self.ctx.get(usize::from(p.ctx)).and_then(|s| match p.wide {
            true => read64(&s.r, p.code, p.literal),
            false => read32(&s.r, p.code, p.literal).map(u64::from),
        });
        ReadOut {
            data: value.unwrap_or(0),
            bad: value.is_none(),
        }
    }

    /// The outputs in the current cycle with inputs `i` (the reads are combinational).
    pub fn outputs(&self, i: &CtxIn) -> CtxOut {
        CtxOut {
            reads: i.reads.iter().map(|p| self.read(p)).collect(),
            wbad: i
                .writes
                .iter()
                .map(|w| w.sdst_we && !dst_ok(w.sdst, w.wide))
                .collect(),
            ctx: self
                .ctx
                .iter()
                .map(|s| CtxView {
                    pc: s.pc,
                    exec: s.r.exec,
                    vcc: s.r.vcc,
                    scc: s.r.scc,
                })
                .collect(),
        }
    }

    /// The rising edge that ends a cycle with inputs `i`.
    pub fn clock(&mut self, i: &CtxIn) {
        let mut next = self.ctx.clone();
        let from = self.ctx.get(usize::from(i.copy_from));
        if let (true, Some(src), Some(dst)) = (i.copy, from, next.get_mut(usize::from(i.copy_to))) {
            *dst = src.clone();
        }
        if let (true, Some(c)) = (i.init, next.get_mut(usize::from(i.init_ctx))) {
            *c = CtxState::default();
            c.pc = i.init_pc;
            c.r.exec = i.init_exec;
            c.r.s[..INIT_SGPRS].copy_from_slice(&i.init_s);
        }
        for w in &i.writes {
            if let Some(c) = next.get_mut(usize::from(w.ctx)) {
                c.apply(w);
            }
        }
        if i.reset {
            next.fill(CtxState::default());
        }
        self.ctx = next;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sgpr_write(ctx: u8, sdst: u8, wide: bool, d: u64) -> WritePort {
        WritePort {
            ctx,
            sdst_we: true,
            sdst,
            wide,
            d,
            ..WritePort::default()
        }
    }

    fn read(ctx: u8, code: u16, wide: bool) -> ReadPort {
        ReadPort {
            ctx,
            code,
            wide,
            literal: 0x1234_5678,
        }
    }

    /// A split's child reads its parent's registers from the cycle after the copy; a write
    /// to the child in the copy's cycle lands on top; the parent keeps its own.
    #[test]
    fn a_copy_takes_the_parent_state_and_a_write_lands_on_top() {
        let mut m = CtxRegsModel::new(4);
        m.clock(&CtxIn {
            writes: vec![
                sgpr_write(1, 5, true, 0xAAAA_0000_BBBB_0001),
                sgpr_write(1, 106, true, 7),
            ],
            ..CtxIn::default()
        });
        m.clock(&CtxIn {
            copy: true,
            copy_from: 1,
            copy_to: 3,
            writes: vec![sgpr_write(3, 6, false, 9)],
            ..CtxIn::default()
        });
        let i = CtxIn {
            reads: vec![read(3, 5, true), read(1, 6, false), read(3, 251, false)],
            ..CtxIn::default()
        };
        let out = m.outputs(&i);
        assert_eq!(out.reads[0].data, 0x0000_0009_BBBB_0001);
        assert_eq!(out.reads[1].data, 0xAAAA_0000);
        assert_eq!(
            (out.reads[2].data, out.ctx[3].vcc),
            (0, 7),
            "VCCZ of a VCC of 7"
        );
    }

    /// The SALU's order inside a port: `s_and_saveexec_b64 exec, …` leaves the old EXEC in
    /// EXEC (the destination after EXEC); the later port wins; init restores M0's all ones.
    /// Mutation caught (applied, seen failing, restored): `apply` writing the destination
    /// before EXEC.
    #[test]
    fn the_destination_follows_exec_and_the_later_port_wins() {
        let mut m = CtxRegsModel::new(2);
        let mut w = sgpr_write(0, 126, true, 0xF0);
        w.exec_we = true;
        w.exec = 0x0F;
        m.clock(&CtxIn {
            writes: vec![w, sgpr_write(0, 124, false, 3)],
            ..CtxIn::default()
        });
        assert_eq!((m.state(0).r.exec, m.state(0).r.m0), (0xF0, 3));
        m.clock(&CtxIn {
            init: true,
            init_ctx: 0,
            writes: vec![sgpr_write(0, 124, false, 4), sgpr_write(0, 124, false, 5)],
            ..CtxIn::default()
        });
        assert_eq!((m.state(0).r.exec, m.state(0).r.m0), (0, 5));
    }

    /// A dispatch's init sets the PC, EXEC and the ABI's SGPRs and zeroes the rest.
    #[test]
    fn init_takes_the_dispatch_values() {
        let mut m = CtxRegsModel::new(2);
        m.clock(&CtxIn {
            writes: vec![sgpr_write(1, 30, false, 9), sgpr_write(1, 106, true, 7)],
            ..CtxIn::default()
        });
        let mut init_s = [0; INIT_SGPRS];
        init_s[0] = 0x1000;
        init_s[INIT_SGPRS - 1] = 5;
        m.clock(&CtxIn {
            init: true,
            init_ctx: 1,
            init_pc: 0x40,
            init_exec: 0xFF,
            init_s,
            ..CtxIn::default()
        });
        let s = m.state(1);
        assert_eq!(
            (s.pc, s.r.exec, s.r.vcc, s.r.m0),
            (0x40, 0xFF, 0, 0xFFFF_FFFF)
        );
        assert_eq!((s.r.s[0], s.r.s[INIT_SGPRS - 1], s.r.s[30]), (0x1000, 5, 0));
        assert_eq!(m.state(0), &CtxState::default());
    }

    /// A bad code is flagged, reads 0 and writes nothing; so is a context that does not exist.
    #[test]
    fn bad_codes_and_contexts_are_flagged() {
        let mut m = CtxRegsModel::new(2);
        let i = CtxIn {
            reads: vec![read(0, 256, false), read(0, 101, true), read(2, 0, false)],
            writes: vec![
                sgpr_write(0, 101, true, u64::MAX),
                sgpr_write(0, 125, false, 1),
            ],
            ..CtxIn::default()
        };
        let out = m.outputs(&i);
        assert!(out.reads.iter().all(|r| r.bad && r.data == 0));
        assert_eq!(out.wbad, [true, true]);
        m.clock(&i);
        assert_eq!(m.state(0), &CtxState::default());
    }
}
