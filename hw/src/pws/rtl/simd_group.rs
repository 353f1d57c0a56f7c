//! The SIMD group's split/merge controller: command checks, the free-context priority encoder,
//! partner lookup and rendezvous, and the per-context write controls.

use super::context::PwsContext;
use crate::hdl::k;
use crate::pws::{Cmd, ErrorCode, PwsParams, State};
use array_init::array_init;
use rust_hdl::prelude::*;

/// The split/merge unit of one SIMD group; the behaviour is the contract of [`super`].
///
/// `LANES` = N_WIWF, `UNITS` = S + 1, `CTXS` = UNITS × N_WFC (context k is slot k / UNITS of
/// unit k % UNITS). The value parameters (H, E_SPLIT, E_MERGE) are [`PwsParams`].
#[derive(LogicBlock)]
pub struct SimdGroup<const LANES: usize, const UNITS: usize, const CTXS: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every context EMPTY, no copy/denial/error.
    pub reset: Signal<In, Bit>,
    /// Mode: 0 = PWS (families are slots), 1 = DWS (families are units). Constant between resets.
    pub dws: Signal<In, Bit>,
    /// Merge watchdog bound in cycles (0 = off).
    pub watchdog: Signal<In, Bits<16>>,
    /// Command: 0 none, 1 dispatch, 2 split, 3 merge, 4 end ([`Cmd`]).
    pub cmd: Signal<In, Bits<3>>,
    /// The SpSIMDID of the commanded context (0 = the SIMD).
    pub cmd_unit: Signal<In, Bits<3>>,
    /// The slot of the commanded context (its context ID − 1).
    pub cmd_slot: Signal<In, Bits<4>>,
    /// Split: {SSRC1 value, SSRC0 value}; dispatch: the WF's lanes.
    pub cmd_mask: Signal<In, Bits<64>>,
    /// Merge: the PC of the `merge` instruction.
    pub cmd_pc: Signal<In, Bits<32>>,
    /// EXEC of each context.
    pub exec: [Signal<In, Bits<LANES>>; CTXS],
    /// State code of each context ([`State`]).
    pub state: [Signal<Out, Bits<3>>; CTXS],
    /// Split mask of each context.
    pub spm: [Signal<Out, Bits<LANES>>; CTXS],
    /// Effective mask `exec & spm` of each context (combinational).
    pub eff: [Signal<Out, Bits<LANES>>; CTXS],
    /// Each context's parent register is set.
    pub parent_valid: [Signal<Out, Bit>; CTXS],
    /// Each context's parent (relative id; 0 when not set).
    pub parent: [Signal<Out, Bits<4>>; CTXS],
    /// Each context's child-stack pointer.
    pub sp: [Signal<Out, Bits<3>>; CTXS],
    /// Each context's child-stack top (relative id; 0 when empty).
    pub top: [Signal<Out, Bits<4>>; CTXS],
    /// Strobe, the cycle after a split: copy SRF, PC and IBUF of `copy_from` into `copy_to`.
    pub copy_valid: Signal<Out, Bit>,
    /// The splitting context's index (0 without `copy_valid`).
    pub copy_from: Signal<Out, Bits<7>>,
    /// The new context's index (0 without `copy_valid`).
    pub copy_to: Signal<Out, Bits<7>>,
    /// Strobe, the cycle after a DWS split was refused.
    pub split_denied: Signal<Out, Bit>,
    /// The previous cycle's error ([`ErrorCode`]; 0 = none).
    pub error: Signal<Out, Bits<3>>,
    /// The context the error is about (0 for none and for bad commands).
    pub error_ctx: Signal<Out, Bits<7>>,
    /// The contexts.
    ctxs: [PwsContext<LANES>; CTXS],
    /// Output registers of the strobes and the error.
    copy_valid_r: DFF<Bit>,
    copy_from_r: DFF<Bits<7>>,
    copy_to_r: DFF<Bits<7>>,
    denied_r: DFF<Bit>,
    error_r: DFF<Bits<3>>,
    error_ctx_r: DFF<Bits<7>>,
    /// A rendezvous happened last cycle: merge `fire_c` into `fire_t` at this edge.
    fire: DFF<Bit>,
    fire_t: DFF<Bits<7>>,
    fire_c: DFF<Bits<7>>,
    /// Hard-wired per context: SpSIMDID (3 and 4 bits), slot, index, on the SIMD.
    unit_of: [Constant<Bits<3>>; CTXS],
    unit4_of: [Constant<Bits<4>>; CTXS],
    slot_of: [Constant<Bits<4>>; CTXS],
    index_of: [Constant<Bits<7>>; CTXS],
    on_simd: [Constant<Bit>; CTXS],
    /// Per context: family, relative id, role in this cycle's command and merge.
    fam: [Signal<Local, Bits<4>>; CTXS],
    rel: [Signal<Local, Bits<4>>; CTXS],
    is_x: [Signal<Local, Bit>; CTXS],
    is_y: [Signal<Local, Bit>; CTXS],
    is_t: [Signal<Local, Bit>; CTXS],
    is_c: [Signal<Local, Bit>; CTXS],
    /// The commanded context X.
    x_state: Signal<Local, Bits<3>>,
    x_spm: Signal<Local, Bits<LANES>>,
    x_sp: Signal<Local, Bits<3>>,
    x_top: Signal<Local, Bits<4>>,
    x_pv: Signal<Local, Bit>,
    x_parent: Signal<Local, Bits<4>>,
    x_root: Signal<Local, Bits<4>>,
    x_fam: Signal<Local, Bits<4>>,
    x_rel: Signal<Local, Bits<4>>,
    x_idx: Signal<Local, Bits<7>>,
    /// Live descendants of X's WF.
    x_live: Signal<Local, Bits<3>>,
    /// The split mask M.
    m64: Signal<Local, Bits<64>>,
    m: Signal<Local, Bits<LANES>>,
    /// The free context Y.
    y_found: Signal<Local, Bit>,
    y_idx: Signal<Local, Bits<7>>,
    y_rel: Signal<Local, Bits<4>>,
    /// X's merge partner P.
    p_exists: Signal<Local, Bit>,
    p_rel: Signal<Local, Bits<4>>,
    p_state: Signal<Local, Bits<3>>,
    p_pc: Signal<Local, Bits<32>>,
    p_sp: Signal<Local, Bits<3>>,
    p_top: Signal<Local, Bits<4>>,
    p_pv: Signal<Local, Bit>,
    p_parent: Signal<Local, Bits<4>>,
    p_idx: Signal<Local, Bits<7>>,
    /// P's partner is X.
    p_meets_x: Signal<Local, Bit>,
    /// This cycle's error and its context.
    err: Signal<Local, Bits<3>>,
    err_ctx: Signal<Local, Bits<7>>,
    /// What this cycle's command does.
    good: Signal<Local, Bit>,
    deny: Signal<Local, Bit>,
    do_dispatch: Signal<Local, Bit>,
    do_split: Signal<Local, Bit>,
    do_wait: Signal<Local, Bit>,
    do_end: Signal<Local, Bit>,
    /// The lowest expired context.
    wd_any: Signal<Local, Bit>,
    wd_idx: Signal<Local, Bits<7>>,
    /// The child and the parent of the merge carried out this cycle.
    c_spm: Signal<Local, Bits<LANES>>,
    t_fam: Signal<Local, Bits<4>>,
    t_root: Signal<Local, Bits<4>>,
    /// S; bit u (s) set when unit u (slot s) exists; H and the mask constants.
    s_max: Constant<Bits<3>>,
    unit_ok: Constant<Bits<8>>,
    slot_ok: Constant<Bits<16>>,
    half: Constant<Bits<64>>,
    word: Constant<Bits<64>>,
    low_half: Constant<Bits<64>>,
    /// State, timer value after a split and after a rendezvous (READY at once when E = 1).
    split_state: Constant<Bits<3>>,
    split_timer: Constant<Bits<16>>,
    merge_state: Constant<Bits<3>>,
    merge_timer: Constant<Bits<16>>,
    /// Command, state and error codes.
    c_none: Constant<Bits<3>>,
    c_dispatch: Constant<Bits<3>>,
    c_split: Constant<Bits<3>>,
    c_merge: Constant<Bits<3>>,
    c_end: Constant<Bits<3>>,
    st_empty: Constant<Bits<3>>,
    st_ready: Constant<Bits<3>>,
    st_merge_wait: Constant<Bits<3>>,
    st_done: Constant<Bits<3>>,
    e_none: Constant<Bits<3>>,
    e_overflow: Constant<Bits<3>>,
    e_watchdog: Constant<Bits<3>>,
    e_end_live: Constant<Bits<3>>,
    e_empty: Constant<Bits<3>>,
    e_busy: Constant<Bits<3>>,
    e_dispatch: Constant<Bits<3>>,
    e_command: Constant<Bits<3>>,
    /// Sized zeros.
    zero3: Constant<Bits<3>>,
    zero4: Constant<Bits<4>>,
    zero7: Constant<Bits<7>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    zero_lanes: Constant<Bits<LANES>>,
}

/// The state a context enters for an operation of `cycles` cycles, and its timer.
fn busy(cycles: u8, state: State) -> (Constant<Bits<3>>, Constant<Bits<16>>) {
    match cycles {
        1 => (k(State::Ready as u64), k(0)),
        n => (k(state as u64), k(u64::from(n) - 1)),
    }
}

impl<const LANES: usize, const UNITS: usize, const CTXS: usize> SimdGroup<LANES, UNITS, CTXS> {
    /// A SIMD group; panics when a parameter is outside the contract's table.
    pub fn new(p: PwsParams) -> Self {
        assert!(
            (4..=64).contains(&LANES),
            "LANES = {LANES} is outside 4..=64"
        );
        assert!((2..=8).contains(&UNITS), "UNITS = {UNITS} is outside 2..=8");
        assert!(
            CTXS.is_multiple_of(UNITS) && (1..=16).contains(&(CTXS / UNITS)),
            "CTXS = {CTXS} is not UNITS × N_WFC with N_WFC in 1..=16"
        );
        assert!(
            (1..=32).contains(&p.half),
            "half = {} is outside 1..=32",
            p.half
        );
        for (name, e) in [("e_split", p.e_split), ("e_merge", p.e_merge)] {
            assert!((1..=15).contains(&e), "{name} = {e} is outside 1..=15");
        }
        let (split_state, split_timer) = busy(p.e_split, State::Splitting);
        let (merge_state, merge_timer) = busy(p.e_merge, State::Merging);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            dws: Default::default(),
            watchdog: Default::default(),
            cmd: Default::default(),
            cmd_unit: Default::default(),
            cmd_slot: Default::default(),
            cmd_mask: Default::default(),
            cmd_pc: Default::default(),
            exec: array_init(|_| Default::default()),
            state: array_init(|_| Default::default()),
            spm: array_init(|_| Default::default()),
            eff: array_init(|_| Default::default()),
            parent_valid: array_init(|_| Default::default()),
            parent: array_init(|_| Default::default()),
            sp: array_init(|_| Default::default()),
            top: array_init(|_| Default::default()),
            copy_valid: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            split_denied: Default::default(),
            error: Default::default(),
            error_ctx: Default::default(),
            ctxs: array_init(|_| PwsContext::new(UNITS - 1)),
            copy_valid_r: Default::default(),
            copy_from_r: Default::default(),
            copy_to_r: Default::default(),
            denied_r: Default::default(),
            error_r: Default::default(),
            error_ctx_r: Default::default(),
            fire: Default::default(),
            fire_t: Default::default(),
            fire_c: Default::default(),
            unit_of: array_init(|i| k((i % UNITS) as u64)),
            unit4_of: array_init(|i| k((i % UNITS) as u64)),
            slot_of: array_init(|i| k((i / UNITS) as u64)),
            index_of: array_init(|i| k(i as u64)),
            on_simd: array_init(|i| Constant::new(i % UNITS == 0)),
            fam: array_init(|_| Default::default()),
            rel: array_init(|_| Default::default()),
            is_x: array_init(|_| Default::default()),
            is_y: array_init(|_| Default::default()),
            is_t: array_init(|_| Default::default()),
            is_c: array_init(|_| Default::default()),
            x_state: Default::default(),
            x_spm: Default::default(),
            x_sp: Default::default(),
            x_top: Default::default(),
            x_pv: Default::default(),
            x_parent: Default::default(),
            x_root: Default::default(),
            x_fam: Default::default(),
            x_rel: Default::default(),
            x_idx: Default::default(),
            x_live: Default::default(),
            m64: Default::default(),
            m: Default::default(),
            y_found: Default::default(),
            y_idx: Default::default(),
            y_rel: Default::default(),
            p_exists: Default::default(),
            p_rel: Default::default(),
            p_state: Default::default(),
            p_pc: Default::default(),
            p_sp: Default::default(),
            p_top: Default::default(),
            p_pv: Default::default(),
            p_parent: Default::default(),
            p_idx: Default::default(),
            p_meets_x: Default::default(),
            err: Default::default(),
            err_ctx: Default::default(),
            good: Default::default(),
            deny: Default::default(),
            do_dispatch: Default::default(),
            do_split: Default::default(),
            do_wait: Default::default(),
            do_end: Default::default(),
            wd_any: Default::default(),
            wd_idx: Default::default(),
            c_spm: Default::default(),
            t_fam: Default::default(),
            t_root: Default::default(),
            s_max: k((UNITS - 1) as u64),
            unit_ok: k((1 << UNITS) - 1),
            slot_ok: k((1 << (CTXS / UNITS)) - 1),
            half: k(p.half as u64),
            word: k(32),
            low_half: k((1u64 << p.half) - 1),
            split_state,
            split_timer,
            merge_state,
            merge_timer,
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
            zero3: k(0),
            zero4: k(0),
            zero7: k(0),
            zero16: k(0),
            zero32: k(0),
            zero_lanes: k(0),
        }
    }
}

impl<const LANES: usize, const UNITS: usize, const CTXS: usize> Default
    for SimdGroup<LANES, UNITS, CTXS>
{
    /// H = 32, E_SPLIT = 4, E_MERGE = 2 ([`PwsParams::default`]).
    fn default() -> Self {
        Self::new(PwsParams::default())
    }
}

impl<const LANES: usize, const UNITS: usize, const CTXS: usize> Logic
    for SimdGroup<LANES, UNITS, CTXS>
{
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
            fire,
            fire_t,
            fire_c
        );
        // ---- Per context: inputs, family and relative id, is it X?
        for i in 0..CTXS {
            self.ctxs[i].clock.next = self.clock.val();
            self.ctxs[i].exec.next = self.exec[i].val();
            self.ctxs[i].watchdog.next = self.watchdog.val();
            self.fam[i].next = self.slot_of[i].val();
            self.rel[i].next = self.unit4_of[i].val();
            if self.dws.val() {
                self.fam[i].next = self.unit4_of[i].val();
                self.rel[i].next = self.slot_of[i].val();
            }
            self.is_x[i].next = (self.unit_of[i].val() == self.cmd_unit.val())
                & (self.slot_of[i].val() == self.cmd_slot.val());
        }
        // ---- X's registers.
        self.x_state.next = self.zero3.val();
        self.x_spm.next = self.zero_lanes.val();
        self.x_sp.next = self.zero3.val();
        self.x_top.next = self.zero4.val();
        self.x_pv.next = false;
        self.x_parent.next = self.zero4.val();
        self.x_root.next = self.zero4.val();
        self.x_fam.next = self.zero4.val();
        self.x_rel.next = self.zero4.val();
        self.x_idx.next = self.zero7.val();
        for i in 0..CTXS {
            if self.is_x[i].val() {
                self.x_state.next = self.ctxs[i].state.val();
                self.x_spm.next = self.ctxs[i].spm.val();
                self.x_sp.next = self.ctxs[i].sp.val();
                self.x_top.next = self.ctxs[i].top.val();
                self.x_pv.next = self.ctxs[i].parent_valid.val();
                self.x_parent.next = self.ctxs[i].parent.val();
                self.x_root.next = self.ctxs[i].root.val();
                self.x_fam.next = self.fam[i].val();
                self.x_rel.next = self.rel[i].val();
                self.x_idx.next = self.index_of[i].val();
            }
        }
        // ---- The split mask M (lanes < H from SSRC0, lanes >= H from SSRC1).
        self.m64.next = (self.cmd_mask.val() & self.low_half.val())
            | ((self.cmd_mask.val() >> self.word.val()) << self.half.val());
        self.m.next = self.m64.val().get_bits::<LANES>(0);
        // ---- Free context Y: the lowest index of X's family that is free (and, in PWS, on a
        // SpSIMD). The outer one-pass loop names CTXS - 1 so the inner loop can walk down and
        // the last (lowest) match wins.
        self.y_found.next = false;
        self.y_idx.next = self.zero7.val();
        self.y_rel.next = self.zero4.val();
        for last in (CTXS - 1)..CTXS {
            for j in 0..CTXS {
                if self.ctxs[last - j].free.val()
                    & (self.fam[last - j].val() == self.x_fam.val())
                    & (self.dws.val() | !self.on_simd[last - j].val())
                {
                    self.y_found.next = true;
                    self.y_idx.next = self.index_of[last - j].val();
                    self.y_rel.next = self.rel[last - j].val();
                }
            }
        }
        // ---- X's partner P (top child, else parent) and X's WF's live count.
        self.p_exists.next = self.x_sp.val().any() | self.x_pv.val();
        self.p_rel.next = self.x_parent.val();
        if self.x_sp.val().any() {
            self.p_rel.next = self.x_top.val();
        }
        self.p_state.next = self.zero3.val();
        self.p_pc.next = self.zero32.val();
        self.p_sp.next = self.zero3.val();
        self.p_top.next = self.zero4.val();
        self.p_pv.next = false;
        self.p_parent.next = self.zero4.val();
        self.p_idx.next = self.zero7.val();
        self.x_live.next = self.zero3.val();
        for i in 0..CTXS {
            if (self.fam[i].val() == self.x_fam.val()) & (self.rel[i].val() == self.p_rel.val()) {
                self.p_state.next = self.ctxs[i].state.val();
                self.p_pc.next = self.ctxs[i].pc.val();
                self.p_sp.next = self.ctxs[i].sp.val();
                self.p_top.next = self.ctxs[i].top.val();
                self.p_pv.next = self.ctxs[i].parent_valid.val();
                self.p_parent.next = self.ctxs[i].parent.val();
                self.p_idx.next = self.index_of[i].val();
            }
            if (self.fam[i].val() == self.x_fam.val()) & (self.rel[i].val() == self.x_root.val()) {
                self.x_live.next = self.ctxs[i].live.val();
            }
        }
        self.p_meets_x.next = self.p_pv.val() & (self.p_parent.val() == self.x_rel.val());
        if self.p_sp.val().any() {
            self.p_meets_x.next = self.p_top.val() == self.x_rel.val();
        }
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
                & (!self.y_found.val() | (self.x_sp.val() == self.s_max.val()))
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
                | (self.x_sp.val() == self.s_max.val())
                | (self.x_live.val() >= self.s_max.val()));
        self.do_dispatch.next = self.good.val() & (self.cmd.val() == self.c_dispatch.val());
        self.do_split.next =
            self.good.val() & (self.cmd.val() == self.c_split.val()) & !self.deny.val();
        self.do_wait.next =
            self.good.val() & (self.cmd.val() == self.c_merge.val()) & self.p_exists.val();
        self.do_end.next = self.good.val() & (self.cmd.val() == self.c_end.val());
        // ---- The lowest expired context (same descending walk as the free search).
        self.wd_any.next = false;
        self.wd_idx.next = self.zero7.val();
        for last in (CTXS - 1)..CTXS {
            for j in 0..CTXS {
                if self.ctxs[last - j].expired.val() {
                    self.wd_any.next = true;
                    self.wd_idx.next = self.index_of[last - j].val();
                }
            }
        }
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
        self.fire.d.next = self.do_wait.val()
            & (self.p_state.val() == self.st_merge_wait.val())
            & (self.p_pc.val() == self.cmd_pc.val())
            & self.p_meets_x.val();
        self.fire_t.d.next = self.p_idx.val();
        self.fire_c.d.next = self.x_idx.val();
        if self.x_sp.val().any() {
            self.fire_t.d.next = self.x_idx.val();
            self.fire_c.d.next = self.p_idx.val();
        }
        if self.reset.val() {
            self.copy_valid_r.d.next = false;
            self.copy_from_r.d.next = self.zero7.val();
            self.copy_to_r.d.next = self.zero7.val();
            self.denied_r.d.next = false;
            self.error_r.d.next = self.e_none.val();
            self.error_ctx_r.d.next = self.zero7.val();
            self.fire.d.next = false;
            self.fire_t.d.next = self.zero7.val();
            self.fire_c.d.next = self.zero7.val();
        }
        // ---- The merge decided last cycle: T (parent) and C (child).
        self.c_spm.next = self.zero_lanes.val();
        self.t_fam.next = self.zero4.val();
        self.t_root.next = self.zero4.val();
        for i in 0..CTXS {
            self.is_y[i].next = self.do_split.val() & (self.index_of[i].val() == self.y_idx.val());
            self.is_t[i].next = self.fire.q.val() & (self.index_of[i].val() == self.fire_t.q.val());
            self.is_c[i].next = self.fire.q.val() & (self.index_of[i].val() == self.fire_c.q.val());
            if self.is_c[i].val() {
                self.c_spm.next = self.ctxs[i].spm.val();
            }
            if self.is_t[i].val() {
                self.t_fam.next = self.fam[i].val();
                self.t_root.next = self.ctxs[i].root.val();
            }
        }
        // ---- Per-context write controls.
        for i in 0..CTXS {
            self.ctxs[i].clear.next = self.reset.val() | self.is_c[i].val();
            self.ctxs[i].spm_we.next = false;
            self.ctxs[i].spm_in.next = self.zero_lanes.val();
            if self.do_dispatch.val() & self.is_x[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.cmd_mask.val().get_bits::<LANES>(0);
            }
            if self.do_split.val() & self.is_x[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.x_spm.val() & self.m.val();
            }
            if self.is_y[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.x_spm.val() & !self.m.val();
            }
            if self.is_t[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.ctxs[i].spm.val() | self.c_spm.val();
            }
            self.ctxs[i].init.next =
                (self.do_dispatch.val() & self.is_x[i].val()) | self.is_y[i].val();
            self.ctxs[i].parent_valid_in.next = self.is_y[i].val();
            self.ctxs[i].parent_in.next = self.zero4.val();
            self.ctxs[i].root_in.next = self.rel[i].val();
            if self.is_y[i].val() {
                self.ctxs[i].parent_in.next = self.x_rel.val();
                self.ctxs[i].root_in.next = self.x_root.val();
            }
            self.ctxs[i].push.next = self.do_split.val() & self.is_x[i].val();
            self.ctxs[i].push_rel.next = self.y_rel.val();
            self.ctxs[i].pop.next = self.is_t[i].val();
            self.ctxs[i].live_inc.next = self.do_split.val()
                & (self.fam[i].val() == self.x_fam.val())
                & (self.rel[i].val() == self.x_root.val());
            self.ctxs[i].live_dec.next = self.fire.q.val()
                & (self.fam[i].val() == self.t_fam.val())
                & (self.rel[i].val() == self.t_root.val());
            self.ctxs[i].state_we.next = false;
            self.ctxs[i].state_in.next = self.zero3.val();
            self.ctxs[i].timer_in.next = self.zero16.val();
            if self.do_dispatch.val() & self.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_ready.val();
            }
            if self.do_split.val() & (self.is_x[i].val() | self.is_y[i].val()) {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.split_state.val();
                self.ctxs[i].timer_in.next = self.split_timer.val();
            }
            if self.do_wait.val() & self.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_merge_wait.val();
            }
            if self.is_t[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.merge_state.val();
                self.ctxs[i].timer_in.next = self.merge_timer.val();
            }
            if self.do_end.val() & self.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_done.val();
            }
            self.ctxs[i].pc_we.next = self.do_wait.val() & self.is_x[i].val();
            self.ctxs[i].pc_in.next = self.cmd_pc.val();
        }
        // ---- Outputs.
        for i in 0..CTXS {
            self.state[i].next = self.ctxs[i].state.val();
            self.spm[i].next = self.ctxs[i].spm.val();
            self.eff[i].next = self.ctxs[i].eff.val();
            self.parent_valid[i].next = self.ctxs[i].parent_valid.val();
            self.parent[i].next = self.ctxs[i].parent.val();
            self.sp[i].next = self.ctxs[i].sp.val();
            self.top[i].next = self.ctxs[i].top.val();
        }
        self.copy_valid.next = self.copy_valid_r.q.val();
        self.copy_from.next = self.copy_from_r.q.val();
        self.copy_to.next = self.copy_to_r.q.val();
        self.split_denied.next = self.denied_r.q.val();
        self.error.next = self.error_r.q.val();
        self.error_ctx.next = self.error_ctx_r.q.val();
    }
}
