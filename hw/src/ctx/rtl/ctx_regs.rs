//! The scalar state of `C` contexts: the SGPR words, the per-context registers, and one
//! operand resolution per read port; the destination check of each write port.

use super::operand::Operand;
use super::sgprs::SgprFile;
use super::specials::Specials;
use crate::ctx::INIT_SGPRS;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The contexts' scalar state with `R` operand read ports and `W` write ports; `N` = 102 ·
/// `C` (ports, timing and priorities: [`crate::ctx`]).
#[derive(LogicBlock)]
pub struct CtxRegs<const C: usize, const N: usize, const R: usize, const W: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every context to the reset value.
    pub reset: Signal<In, Bit>,
    /// Context `init_ctx` to the reset value at this edge (a dispatch).
    pub init: Signal<In, Bit>,
    /// The context initialised.
    pub init_ctx: Signal<In, Bits<8>>,
    /// Its PC after `init`.
    pub init_pc: Signal<In, Bits<32>>,
    /// Its EXEC after `init`.
    pub init_exec: Signal<In, Bits<64>>,
    /// Its s0..s23 after `init` (the kernel ABI's registers).
    pub init_s: [Signal<In, Bits<32>>; INIT_SGPRS],
    /// Copy context `copy_from`'s state to `copy_to` at this edge (a split).
    pub copy: Signal<In, Bit>,
    /// The context copied.
    pub copy_from: Signal<In, Bits<8>>,
    /// The context written (write ports naming it land on top).
    pub copy_to: Signal<In, Bits<8>>,
    /// The context read port `p` reads.
    pub rctx: [Signal<In, Bits<8>>; R],
    /// The source code read port `p` resolves.
    pub rcode: [Signal<In, Bits<9>>; R],
    /// Read port `p` reads a 64-bit pair.
    pub rwide: [Signal<In, Bit>; R],
    /// Read port `p`'s literal (code 255).
    pub rlit: [Signal<In, Bits<32>>; R],
    /// Read port `p`'s operand (32-bit reads zero-extended; 0 when bad).
    pub rdata: [Signal<Out, Bits<64>>; R],
    /// Read port `p`'s code is not a source of that width, or its context does not exist.
    pub rbad: [Signal<Out, Bit>; R],
    /// The context write port `p` writes.
    pub wctx: [Signal<In, Bits<8>>; W],
    /// Write port `p` writes its scalar destination.
    pub sdst_we: [Signal<In, Bit>; W],
    /// The destination code.
    pub sdst: [Signal<In, Bits<7>>; W],
    /// The destination is a 64-bit pair.
    pub wide: [Signal<In, Bit>; W],
    /// The value (bits \[31:0\] for a 32-bit destination).
    pub d: [Signal<In, Bits<64>>; W],
    /// Write port `p` writes EXEC (before its destination).
    pub exec_we: [Signal<In, Bit>; W],
    /// The new EXEC.
    pub exec_in: [Signal<In, Bits<64>>; W],
    /// Write port `p` writes SCC.
    pub scc_we: [Signal<In, Bit>; W],
    /// The new SCC.
    pub scc_in: [Signal<In, Bit>; W],
    /// Write port `p` writes the PC.
    pub pc_we: [Signal<In, Bit>; W],
    /// The new PC.
    pub pc_in: [Signal<In, Bits<32>>; W],
    /// Write port `p` writes a destination code that is not one of that width.
    pub wbad: [Signal<Out, Bit>; W],
    /// Context `c`'s PC.
    pub pc: [Signal<Out, Bits<32>>; C],
    /// Context `c`'s EXEC.
    pub exec: [Signal<Out, Bits<64>>; C],
    /// Context `c`'s VCC.
    pub vcc: [Signal<Out, Bits<64>>; C],
    /// Context `c`'s SCC.
    pub scc: [Signal<Out, Bit>; C],
    /// The SGPR words.
    file: SgprFile<C, N, R, W>,
    /// PC, VCC, EXEC, M0, SCC.
    sp: Specials<C, R, W>,
    /// Each read port's resolution.
    op: [Operand; R],
    /// `copy_from` is a context.
    cp_ok: Signal<Local, Bit>,
    /// Each write port's destination is one of its width.
    legal: [Signal<Local, Bit>; W],
    /// Context `c`'s index.
    kc: [Constant<Bits<8>>; C],
    /// Codes 100, 101, 106, 107, 124, 126, 127.
    c100: Constant<Bits<7>>,
    c101: Constant<Bits<7>>,
    c106: Constant<Bits<7>>,
    c107: Constant<Bits<7>>,
    c124: Constant<Bits<7>>,
    c126: Constant<Bits<7>>,
    c127: Constant<Bits<7>>,
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Default
    for CtxRegs<C, N, R, W>
{
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_ctx: Default::default(),
            init_pc: Default::default(),
            init_exec: Default::default(),
            init_s: array_init::array_init(|_| Default::default()),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            rctx: array_init::array_init(|_| Default::default()),
            rcode: array_init::array_init(|_| Default::default()),
            rwide: array_init::array_init(|_| Default::default()),
            rlit: array_init::array_init(|_| Default::default()),
            rdata: array_init::array_init(|_| Default::default()),
            rbad: array_init::array_init(|_| Default::default()),
            wctx: array_init::array_init(|_| Default::default()),
            sdst_we: array_init::array_init(|_| Default::default()),
            sdst: array_init::array_init(|_| Default::default()),
            wide: array_init::array_init(|_| Default::default()),
            d: array_init::array_init(|_| Default::default()),
            exec_we: array_init::array_init(|_| Default::default()),
            exec_in: array_init::array_init(|_| Default::default()),
            scc_we: array_init::array_init(|_| Default::default()),
            scc_in: array_init::array_init(|_| Default::default()),
            pc_we: array_init::array_init(|_| Default::default()),
            pc_in: array_init::array_init(|_| Default::default()),
            wbad: array_init::array_init(|_| Default::default()),
            pc: array_init::array_init(|_| Default::default()),
            exec: array_init::array_init(|_| Default::default()),
            vcc: array_init::array_init(|_| Default::default()),
            scc: array_init::array_init(|_| Default::default()),
            file: Default::default(),
            sp: Default::default(),
            op: array_init::array_init(|_| Default::default()),
            cp_ok: Default::default(),
            legal: array_init::array_init(|_| Default::default()),
            kc: array_init::array_init(|c| k(c as u64)),
            c100: k(100),
            c101: k(101),
            c106: k(106),
            c107: k(107),
            c124: k(124),
            c126: k(126),
            c127: k(127),
        }
    }
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Logic for CtxRegs<C, N, R, W> {
    #[hdl_gen]
    fn update(&mut self) {
        self.cp_ok.next = false;
        for c in 0..C {
            if self.copy_from.val() == self.kc[c].val() {
                self.cp_ok.next = true;
            }
        }
        self.file.clock.next = self.clock.val();
        self.file.reset.next = self.reset.val();
        self.file.init.next = self.init.val();
        self.file.init_ctx.next = self.init_ctx.val();
        self.file.copy.next = self.copy.val() & self.cp_ok.val();
        self.file.copy_from.next = self.copy_from.val();
        self.file.copy_to.next = self.copy_to.val();
        self.sp.clock.next = self.clock.val();
        self.sp.reset.next = self.reset.val();
        self.sp.init.next = self.init.val();
        self.sp.init_ctx.next = self.init_ctx.val();
        self.sp.init_pc.next = self.init_pc.val();
        self.sp.init_exec.next = self.init_exec.val();
        for i in 0..INIT_SGPRS {
            self.file.init_s[i].next = self.init_s[i].val();
        }
        self.sp.copy.next = self.copy.val() & self.cp_ok.val();
        self.sp.copy_from.next = self.copy_from.val();
        self.sp.copy_to.next = self.copy_to.val();
        for p in 0..W {
            self.file.wen[p].next = self.sdst_we[p].val();
            self.file.wctx[p].next = self.wctx[p].val();
            self.file.wcode[p].next = self.sdst[p].val();
            self.file.wwide[p].next = self.wide[p].val();
            self.file.wlo[p].next = self.d[p].val().get_bits::<32>(0);
            self.file.whi[p].next = self.d[p].val().get_bits::<32>(32);
            self.sp.wctx[p].next = self.wctx[p].val();
            self.sp.sdst_we[p].next = self.sdst_we[p].val();
            self.sp.sdst[p].next = self.sdst[p].val();
            self.sp.wide[p].next = self.wide[p].val();
            self.sp.d[p].next = self.d[p].val();
            self.sp.exec_we[p].next = self.exec_we[p].val();
            self.sp.exec_in[p].next = self.exec_in[p].val();
            self.sp.scc_we[p].next = self.scc_we[p].val();
            self.sp.scc_in[p].next = self.scc_in[p].val();
            self.sp.pc_we[p].next = self.pc_we[p].val();
            self.sp.pc_in[p].next = self.pc_in[p].val();
            self.legal[p].next =
                (self.sdst[p].val() == self.c106.val()) | (self.sdst[p].val() == self.c126.val());
            if self.wide[p].val() {
                self.legal[p].next = self.legal[p].val() | (self.sdst[p].val() <= self.c100.val());
            } else {
                self.legal[p].next = self.legal[p].val()
                    | (self.sdst[p].val() <= self.c101.val())
                    | (self.sdst[p].val() == self.c107.val())
                    | (self.sdst[p].val() == self.c124.val())
                    | (self.sdst[p].val() == self.c127.val());
            }
            self.wbad[p].next = self.sdst_we[p].val() & !self.legal[p].val();
        }
        for p in 0..R {
            self.file.rctx[p].next = self.rctx[p].val();
            self.file.rcode[p].next = self.rcode[p].val();
            self.sp.rctx[p].next = self.rctx[p].val();
            self.op[p].code.next = self.rcode[p].val();
            self.op[p].wide.next = self.rwide[p].val();
            self.op[p].lit.next = self.rlit[p].val();
            self.op[p].ok.next = self.sp.r_ok[p].val();
            self.op[p].lo.next = self.file.lo[p].val();
            self.op[p].hi.next = self.file.hi[p].val();
            self.op[p].vcc.next = self.sp.r_vcc[p].val();
            self.op[p].exec.next = self.sp.r_exec[p].val();
            self.op[p].m0.next = self.sp.r_m0[p].val();
            self.op[p].scc.next = self.sp.r_scc[p].val();
            self.rdata[p].next = self.op[p].data.val();
            self.rbad[p].next = self.op[p].bad.val();
        }
        for c in 0..C {
            self.pc[c].next = self.sp.pc[c].val();
            self.exec[c].next = self.sp.exec[c].val();
            self.vcc[c].next = self.sp.vcc[c].val();
            self.scc[c].next = self.sp.scc[c].val();
        }
    }
}
