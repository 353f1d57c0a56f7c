//! The LDS's side of the issue stage: the VGPR rows its quarters read, and the DS
//! instructions in flight (which context issued each, whether that context still runs the
//! wavefront that issued it), so that the write-back quarters go to its slot and `done`
//! counts its lgkmcnt down.

use crate::hdl::k;
use crate::lds::LATENCY;
use rust_hdl::prelude::*;

/// Stages of the in-flight line: stage `s` holds the DS instruction issued `s + 1` cycles
/// ago, so that stage [`LATENCY`] − 1 is the one whose `done` comes this cycle, and stages
/// 12..15 those whose write-back quarter comes (*k* + 13 + *q*). The update spells the stage
/// numbers out (rust-hdl's Verilog generator does not resolve a named constant there).
pub const FLIGHT: usize = 16;

const _: () = assert!(FLIGHT == LATENCY, "the line is the LDS's latency long");

/// Operand rows and in-flight contexts of the LDS (`C` contexts).
#[derive(LogicBlock)]
pub struct LdsPort<const C: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Forget every instruction in flight (a reset or a launch).
    pub reset: Signal<In, Bit>,
    /// A DS instruction issues into the LDS this cycle.
    pub issue: Signal<In, Bit>,
    /// Its context (wavefront slot).
    pub ctx: Signal<In, Bits<8>>,
    /// Its VGPRs `ADDR`, `DATA0`, `DATA1` (issue cycle).
    pub src: [Signal<In, Bits<8>>; 3],
    /// The LDS reads quarters 1..3 of an instruction (its `busy`).
    pub busy: Signal<In, Bit>,
    /// The LDS's `done` (the instruction issued 16 cycles ago completes).
    pub done: Signal<In, Bit>,
    /// Bit `c`: a dispatch starts a wavefront in context `c` this cycle.
    pub started: Signal<In, Bits<C>>,
    /// The slot the LDS's read ports name this cycle.
    pub y_slot: Signal<Out, Bits<8>>,
    /// The VGPRs they name (`ADDR`, `DATA0`, `DATA1`).
    pub y_reg: [Signal<Out, Bits<8>>; 3],
    /// The write-back quarter on the LDS's outputs goes into the VGPRs: its context still runs
    /// the wavefront that issued it (and no dispatch clears the slot this cycle).
    pub wb_we: Signal<Out, Bit>,
    /// The slot it goes to.
    pub wb_slot: Signal<Out, Bits<8>>,
    /// Bit `c`: context `c`'s lgkmcnt counts down this cycle.
    pub ret: Signal<Out, Bits<C>>,
    /// No DS instruction is in flight after this cycle.
    pub idle_next: Signal<Out, Bit>,
    /// The held slot (quarters 1..3).
    r_slot: DFF<Bits<8>>,
    /// The held VGPRs.
    r_reg: [DFF<Bits<8>>; 3],
    /// Stage `s` holds an instruction.
    pend: [DFF<Bit>; FLIGHT],
    /// Its context still runs the wavefront that issued it.
    live: [DFF<Bit>; FLIGHT],
    /// Its context.
    ctx_s: [DFF<Bits<8>>; FLIGHT],
    /// Stage `s`'s context is started this cycle.
    gone: [Signal<Local, Bit>; FLIGHT],
    /// The contexts' numbers.
    kc: [Constant<Bits<8>>; C],
    /// One-hot context bits.
    onehot: [Constant<Bits<C>>; C],
    /// 0.
    zc: Constant<Bits<C>>,
    /// 0.
    z8: Constant<Bits<8>>,
}

impl<const C: usize> Default for LdsPort<C> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            issue: Default::default(),
            ctx: Default::default(),
            src: Default::default(),
            busy: Default::default(),
            done: Default::default(),
            started: Default::default(),
            y_slot: Default::default(),
            y_reg: Default::default(),
            wb_we: Default::default(),
            wb_slot: Default::default(),
            ret: Default::default(),
            idle_next: Default::default(),
            r_slot: Default::default(),
            r_reg: Default::default(),
            pend: Default::default(),
            live: Default::default(),
            ctx_s: Default::default(),
            gone: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            zc: k(0),
            z8: k(0),
        }
    }
}

impl<const C: usize> Logic for LdsPort<C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_slot);
        // The rows: the issuing instruction's in its issue cycle, then held for quarters 1..3.
        self.y_slot.next = self.ctx.val();
        for p in 0..3 {
            self.r_reg[p].clock.next = self.clock.val();
            self.y_reg[p].next = self.src[p].val();
            if self.busy.val() {
                self.y_reg[p].next = self.r_reg[p].q.val();
            }
            self.r_reg[p].d.next = self.y_reg[p].val();
        }
        if self.busy.val() {
            self.y_slot.next = self.r_slot.q.val();
        }
        self.r_slot.d.next = self.y_slot.val();
        // The in-flight line; a dispatch into a context forgets its instructions' results.
        for s in 0..16 {
            self.pend[s].clock.next = self.clock.val();
            self.live[s].clock.next = self.clock.val();
            self.ctx_s[s].clock.next = self.clock.val();
            self.gone[s].next = false;
            for c in 0..C {
                if self.started.val().get_bit(c) & (self.ctx_s[s].q.val() == self.kc[c].val()) {
                    self.gone[s].next = true;
                }
            }
        }
        self.pend[0].d.next = self.issue.val();
        self.live[0].d.next = self.issue.val();
        self.ctx_s[0].d.next = self.ctx.val();
        for s in 1..16 {
            self.pend[s].d.next = self.pend[s - 1].q.val();
            self.live[s].d.next = self.live[s - 1].q.val() & !self.gone[s - 1].val();
            self.ctx_s[s].d.next = self.ctx_s[s - 1].q.val();
        }
        if self.reset.val() {
            for s in 0..16 {
                self.pend[s].d.next = false;
                self.live[s].d.next = false;
            }
        }
        // The write-back quarters (k+13..k+16: one instruction at a time, the LDS's issue
        // period being 4) and `done` (k+16).
        self.wb_we.next = false;
        self.wb_slot.next = self.z8.val();
        for s in 12..16 {
            if self.pend[s].q.val() {
                self.wb_we.next = self.live[s].q.val() & !self.gone[s].val();
                self.wb_slot.next = self.ctx_s[s].q.val();
            }
        }
        self.ret.next = self.zc.val();
        for c in 0..C {
            if self.done.val()
                & self.live[15].q.val()
                & (self.ctx_s[15].q.val() == self.kc[c].val())
            {
                self.ret.next = self.onehot[c].val();
            }
        }
        self.idle_next.next = !self.issue.val();
        for s in 0..15 {
            if self.pend[s].q.val() {
                self.idle_next.next = false;
            }
        }
    }
}
