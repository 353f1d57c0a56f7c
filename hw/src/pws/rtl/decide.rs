//! The SIMD group's decision: the command's checks in the contract's order, what the command
//! does, the output strobes and errors (registered), and the rendezvous registers that carry a
//! merge into the next cycle. It decides from what [`super::lookup::PwsLookup`] found.

use crate::hdl::k;
use crate::pws::{Cmd, ErrorCode, State};
use rust_hdl::prelude::*;

/// The command decision and the registered outputs of a SIMD group.
#[derive(LogicBlock)]
pub struct PwsDecide {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: no copy, denial, error or pending merge.
    pub reset: Signal<In, Bit>,
    /// Mode: 0 = PWS, 1 = DWS.
    pub dws: Signal<In, Bit>,
    /// S: the deepest child stack; under DWS the most live splits of a wavefront.
    pub s: Signal<In, Bits<3>>,
    /// Command ([`Cmd`]).
    pub cmd: Signal<In, Bits<3>>,
    /// The SpSIMDID of the commanded context X.
    pub cmd_unit: Signal<In, Bits<3>>,
    /// The slot of the commanded context X.
    pub cmd_slot: Signal<In, Bits<4>>,
    /// Merge: the PC of the `merge` instruction.
    pub cmd_pc: Signal<In, Bits<32>>,
    /// X's state code.
    pub x_state: Signal<In, Bits<3>>,
    /// X's child-stack pointer.
    pub x_sp: Signal<In, Bits<3>>,
    /// X's parent register is set.
    pub x_pv: Signal<In, Bit>,
    /// X's context index.
    pub x_idx: Signal<In, Bits<7>>,
    /// Live descendants of X's WF.
    pub x_live: Signal<In, Bits<3>>,
    /// A free context Y exists for a split of X.
    pub y_found: Signal<In, Bit>,
    /// Y's context index.
    pub y_idx: Signal<In, Bits<7>>,
    /// X has a merge partner P.
    pub p_exists: Signal<In, Bit>,
    /// P's state code.
    pub p_state: Signal<In, Bits<3>>,
    /// P's merge PC.
    pub p_pc: Signal<In, Bits<32>>,
    /// P's context index.
    pub p_idx: Signal<In, Bits<7>>,
    /// P's partner is X.
    pub p_meets_x: Signal<In, Bit>,
    /// Some context has expired.
    pub wd_any: Signal<In, Bit>,
    /// The lowest expired context's index.
    pub wd_idx: Signal<In, Bits<7>>,
    /// This cycle's dispatch is carried out.
    pub do_dispatch: Signal<Out, Bit>,
    /// This cycle's split is carried out (X into X and Y).
    pub do_split: Signal<Out, Bit>,
    /// This cycle's merge puts X in MERGE_WAIT.
    pub do_wait: Signal<Out, Bit>,
    /// This cycle's end is carried out.
    pub do_end: Signal<Out, Bit>,
    /// A rendezvous happened last cycle: merge `fire_c` into `fire_t` at this edge.
    pub fire: Signal<Out, Bit>,
    /// The parent T of last cycle's rendezvous.
    pub fire_t: Signal<Out, Bits<7>>,
    /// The child C of last cycle's rendezvous.
    pub fire_c: Signal<Out, Bits<7>>,
    /// Strobe, the cycle after a split: copy `copy_from` into `copy_to`.
    pub copy_valid: Signal<Out, Bit>,
    /// The splitting context's index (0 without `copy_valid`).
    pub copy_from: Signal<Out, Bits<7>>,
    /// The new context's index (0 without `copy_valid`).
    pub copy_to: Signal<Out, Bits<7>>,
    /// Strobe, the cycle after a DWS split was refused.
    pub split_denied: Signal<Out, Bit>,
    /// The previous cycle's error ([`ErrorCode`]).
    pub error: Signal<Out, Bits<3>>,
    /// The context the error is about.
    pub error_ctx: Signal<Out, Bits<7>>,
    /// Register of `copy_valid`.
    copy_valid_r: DFF<Bit>,
    /// Register of `copy_from`.
    copy_from_r: DFF<Bits<7>>,
    /// Register of `copy_to`.
    copy_to_r: DFF<Bits<7>>,
    /// Register of `split_denied`.
    denied_r: DFF<Bit>,
    /// Register of `error`.
    error_r: DFF<Bits<3>>,
    /// Register of `error_ctx`.
    error_ctx_r: DFF<Bits<7>>,
    /// Register of `fire`.
    fire_r: DFF<Bit>,
    /// Register of `fire_t`.
    fire_t_r: DFF<Bits<7>>,
    /// Register of `fire_c`.
    fire_c_r: DFF<Bits<7>>,
    /// This cycle's error (checks in the contract's order).
    err: Signal<Local, Bits<3>>,
    /// The context this cycle's error is about.
    err_ctx: Signal<Local, Bits<7>>,
    /// A command without error.
    good: Signal<Local, Bit>,
    /// DWS refuses a split of X (no free context, X's stack full, or the WF's limit).
    deny: Signal<Local, Bit>,
    /// Bit u set when unit u exists.
    unit_ok: Constant<Bits<8>>,
    /// Bit s set when slot s exists.
    slot_ok: Constant<Bits<16>>,
    /// Command code NONE.
    c_none: Constant<Bits<3>>,
    /// Command code DISPATCH.
    c_dispatch: Constant<Bits<3>>,
    /// Command code SPLIT.
    c_split: Constant<Bits<3>>,
    /// Command code MERGE.
    c_merge: Constant<Bits<3>>,
    /// Command code END.
    c_end: Constant<Bits<3>>,
    /// State code EMPTY.
    st_empty: Constant<Bits<3>>,
    /// State code READY.
    st_ready: Constant<Bits<3>>,
    /// State code MERGE_WAIT.
    st_merge_wait: Constant<Bits<3>>,
    /// State code DONE.
    st_done: Constant<Bits<3>>,
    /// Error code: none.
    e_none: Constant<Bits<3>>,
    /// Error code: split overflow.
    e_overflow: Constant<Bits<3>>,
    /// Error code: merge watchdog.
    e_watchdog: Constant<Bits<3>>,
    /// Error code: end with live splits.
    e_end_live: Constant<Bits<3>>,
    /// Error code: command for an empty context.
    e_empty: Constant<Bits<3>>,
    /// Error code: command for a busy context.
    e_busy: Constant<Bits<3>>,
    /// Error code: bad dispatch.
    e_dispatch: Constant<Bits<3>>,
    /// Error code: bad command.
    e_command: Constant<Bits<3>>,
    /// Sized zero, 7 bits.
    zero7: Constant<Bits<7>>,
}

impl PwsDecide {
    /// The decision of a group of `units` units and `slots` slots per unit.
    pub fn new(units: usize, slots: usize) -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            dws: Default::default(),
            s: Default::default(),
            cmd: Default::default(),
            cmd_unit: Default::default(),
            cmd_slot: Default::default(),
            cmd_pc: Default::default(),
            x_state: Default::default(),
            x_sp: Default::default(),
            x_pv: Default::default(),
            x_idx: Default::default(),
            x_live: Default::default(),
            y_found: Default::default(),
            y_idx: Default::default(),
            p_exists: Default::default(),
            p_state: Default::default(),
            p_pc: Default::default(),
            p_idx: Default::default(),
            p_meets_x: Default::default(),
            wd_any: Default::default(),
            wd_idx: Default::default(),
            do_dispatch: Default::default(),
            do_split: Default::default(),
            do_wait: Default::default(),
            do_end: Default::default(),
            fire: Default::default(),
            fire_t: Default::default(),
            fire_c: Default::default(),
            copy_valid: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            split_denied: Default::default(),
            error: Default::default(),
            error_ctx: Default::default(),
            copy_valid_r: Default::default(),
            copy_from_r: Default::default(),
            copy_to_r: Default::default(),
            denied_r: Default::default(),
            error_r: Default::default(),
            error_ctx_r: Default::default(),
            fire_r: Default::default(),
            fire_t_r: Default::default(),
            fire_c_r: Default::default(),
            err: Default::default(),
            err_ctx: Default::default(),
            good: Default::default(),
            deny: Default::default(),
            unit_ok: k((1 << units) - 1),
            slot_ok: k((1 << slots) - 1),
            c_none: k(Cmd::None as u64),
            c_dispatch: k(Cmd::Dispatch as u64),
            c_split: k(Cmd::Split as u64),
            c_merge: k(Cmd::Merge as u64),
            c_end: k(Cmd::End as u64),
            st_empty: k(State::Empty as u64),
            st_ready: k(State::Ready as u64),
            st_merge_wait: k(State::MergeWait as u64),
            st_done: k(State::Done as u64),
            e_none: k(ErrorCode::None as u64),
            e_overflow: k(ErrorCode::SplitOverflow as u64),
            e_watchdog: k(ErrorCode::MergeWatchdog as u64),
            e_end_live: k(ErrorCode::EndLiveSplits as u64),
            e_empty: k(ErrorCode::EmptyContext as u64),
            e_busy: k(ErrorCode::BusyContext as u64),
            e_dispatch: k(ErrorCode::BadDispatch as u64),
            e_command: k(ErrorCode::BadCommand as u64),
            zero7: k(0),
        }
    }
}

impl Logic for PwsDecide {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            copy_valid_r,
            copy_from_r,
            copy_to_r,
            denied_r,
            error_r,
            error_ctx_r,
            fire_r,
            fire_t_r,
            fire_c_r
        );
        // ---- Checks, in the contract's order.
        self.err.next = self.e_none.val();
        if self.cmd.val() != self.c_none.val() {
            if (self.cmd.val() > self.c_end.val())
                | !self.unit_ok.val().get_bit(self.cmd_unit.val().index())
                | !self.slot_ok.val().get_bit(self.cmd_slot.val().index())
            {
                self.err.next = self.e_command.val();
            } else if self.cmd.val() == self.c_dispatch.val() {
                if !((self.x_state.val() == self.st_empty.val())
                    | (self.x_state.val() == self.st_done.val()))
                    | !(self.dws.val() | !self.cmd_unit.val().any())
                {
                    self.err.next = self.e_dispatch.val();
                }
            } else if (self.x_state.val() == self.st_empty.val())
                | (self.x_state.val() == self.st_done.val())
            {
                self.err.next = self.e_empty.val();
            } else if self.x_state.val() != self.st_ready.val() {
                self.err.next = self.e_busy.val();
            } else if (self.cmd.val() == self.c_end.val())
                & (self.x_sp.val().any() | self.x_pv.val())
            {
                self.err.next = self.e_end_live.val();
            } else if (self.cmd.val() == self.c_split.val())
                & !self.dws.val()
                & (!self.y_found.val() | (self.x_sp.val() >= self.s.val()))
            {
                self.err.next = self.e_overflow.val();
            }
        }
        self.err_ctx.next = self.x_idx.val();
        if (self.err.val() == self.e_none.val()) | (self.err.val() == self.e_command.val()) {
            self.err_ctx.next = self.zero7.val();
        }
        // ---- What the command does.
        self.good.next =
            (self.cmd.val() != self.c_none.val()) & (self.err.val() == self.e_none.val());
        self.deny.next = self.dws.val()
            & (!self.y_found.val()
                | (self.x_sp.val() >= self.s.val())
                | (self.x_live.val() >= self.s.val()));
        self.do_dispatch.next = self.good.val() & (self.cmd.val() == self.c_dispatch.val());
        self.do_split.next =
            self.good.val() & (self.cmd.val() == self.c_split.val()) & !self.deny.val();
        self.do_wait.next =
            self.good.val() & (self.cmd.val() == self.c_merge.val()) & self.p_exists.val();
        self.do_end.next = self.good.val() & (self.cmd.val() == self.c_end.val());
        // ---- Output and merge registers.
        self.copy_valid_r.d.next = self.do_split.val();
        self.copy_from_r.d.next = self.zero7.val();
        self.copy_to_r.d.next = self.zero7.val();
        if self.do_split.val() {
            self.copy_from_r.d.next = self.x_idx.val();
            self.copy_to_r.d.next = self.y_idx.val();
        }
        self.denied_r.d.next =
            self.good.val() & (self.cmd.val() == self.c_split.val()) & self.deny.val();
        self.error_r.d.next = self.err.val();
        self.error_ctx_r.d.next = self.err_ctx.val();
        if (self.err.val() == self.e_none.val()) & self.wd_any.val() {
            self.error_r.d.next = self.e_watchdog.val();
            self.error_ctx_r.d.next = self.wd_idx.val();
        }
        self.fire_r.d.next = self.do_wait.val()
            & (self.p_state.val() == self.st_merge_wait.val())
            & (self.p_pc.val() == self.cmd_pc.val())
            & self.p_meets_x.val();
        self.fire_t_r.d.next = self.p_idx.val();
        self.fire_c_r.d.next = self.x_idx.val();
        if self.x_sp.val().any() {
            self.fire_t_r.d.next = self.x_idx.val();
            self.fire_c_r.d.next = self.p_idx.val();
        }
        if self.reset.val() {
            self.copy_valid_r.d.next = false;
            self.copy_from_r.d.next = self.zero7.val();
            self.copy_to_r.d.next = self.zero7.val();
            self.denied_r.d.next = false;
            self.error_r.d.next = self.e_none.val();
            self.error_ctx_r.d.next = self.zero7.val();
            self.fire_r.d.next = false;
            self.fire_t_r.d.next = self.zero7.val();
            self.fire_c_r.d.next = self.zero7.val();
        }
        // ---- Outputs.
        self.fire.next = self.fire_r.q.val();
        self.fire_t.next = self.fire_t_r.q.val();
        self.fire_c.next = self.fire_c_r.q.val();
        self.copy_valid.next = self.copy_valid_r.q.val();
        self.copy_from.next = self.copy_from_r.q.val();
        self.copy_to.next = self.copy_to_r.q.val();
        self.split_denied.next = self.denied_r.q.val();
        self.error.next = self.error_r.q.val();
        self.error_ctx.next = self.error_ctx_r.q.val();
    }
}
