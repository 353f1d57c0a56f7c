//! The SIMD group's split/merge controller: its contexts ([`super::context::PwsContext`]), the
//! selects ([`super::lookup::PwsLookup`]: families, the commanded context, the free context, the
//! merge partner, the lowest expired context), the decision ([`super::decide::PwsDecide`]: the
//! checks, the registered strobes and errors, the rendezvous), and here the split mask and the
//! per-context write controls.

use super::context::PwsContext;
use super::decide::PwsDecide;
use super::lookup::PwsLookup;
use crate::hdl::k;
use crate::pws::{PwsParams, State};
use array_init::array_init;
use rust_hdl::prelude::*;

/// The split/merge unit of one SIMD group; the behaviour is the contract of [`super`].
///
/// `LANES` = N_WIWF, `UNITS` the SIMD and its SpSIMDs (at least S + 1 under PWS; S is the
/// input `s`, and a PWS child takes a SpSIMD of 1..=S),
/// `CTXS` = UNITS × N_WFC (context k is slot k / UNITS of
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
    /// S: the deepest child stack and, under DWS, the most live splits of a wavefront (1..=7;
    /// at most UNITS − 1 under PWS, where a child takes a SpSIMD of 1..=S). Constant between
    /// resets.
    pub s: Signal<In, Bits<3>>,
    /// Command: 0 none, 1 dispatch, 2 split, 3 merge, 4 end ([`Cmd`](crate::pws::Cmd)).
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
    /// The previous cycle's error ([`ErrorCode`](crate::pws::ErrorCode); 0 = none).
    pub error: Signal<Out, Bits<3>>,
    /// The context the error is about (0 for none and for bad commands).
    pub error_ctx: Signal<Out, Bits<7>>,
    /// The contexts.
    ctxs: [PwsContext<LANES>; CTXS],
    /// The selects: families, X, the free context Y, X's partner P, the lowest expired context.
    look: PwsLookup<LANES, UNITS, CTXS>,
    /// The command's checks and effect, the registered strobes and errors, the rendezvous.
    decide: PwsDecide,
    /// Hard-wired per context: its index.
    index_of: [Constant<Bits<7>>; CTXS],
    /// Per context: it is the free context Y of this cycle's split.
    is_y: [Signal<Local, Bit>; CTXS],
    /// Per context: it is the parent T of the merge carried out this cycle.
    is_t: [Signal<Local, Bit>; CTXS],
    /// Per context: it is the child C of the merge carried out this cycle.
    is_c: [Signal<Local, Bit>; CTXS],
    /// The split mask M assembled on 64 bits (lanes < H from SSRC0, lanes >= H from SSRC1).
    m64: Signal<Local, Bits<64>>,
    /// The split mask M on the lanes.
    m: Signal<Local, Bits<LANES>>,
    /// The split mask of the child C of the merge carried out this cycle.
    c_spm: Signal<Local, Bits<LANES>>,
    /// The family of the parent T of the merge carried out this cycle.
    t_fam: Signal<Local, Bits<4>>,
    /// T's WF's original context (relative id).
    t_root: Signal<Local, Bits<4>>,
    /// H.
    half: Constant<Bits<64>>,
    /// 32, the shift from SSRC1's half of the command mask.
    word: Constant<Bits<64>>,
    /// The H low bits set.
    low_half: Constant<Bits<64>>,
    /// State after a split (READY at once when E_SPLIT = 1).
    split_state: Constant<Bits<3>>,
    /// Timer value after a split.
    split_timer: Constant<Bits<16>>,
    /// State after a rendezvous (READY at once when E_MERGE = 1).
    merge_state: Constant<Bits<3>>,
    /// Timer value after a rendezvous.
    merge_timer: Constant<Bits<16>>,
    /// State code READY.
    st_ready: Constant<Bits<3>>,
    /// State code MERGE_WAIT.
    st_merge_wait: Constant<Bits<3>>,
    /// State code DONE.
    st_done: Constant<Bits<3>>,
    /// Sized zero, 3 bits.
    zero3: Constant<Bits<3>>,
    /// Sized zero, 4 bits.
    zero4: Constant<Bits<4>>,
    /// Sized zero, 16 bits.
    zero16: Constant<Bits<16>>,
    /// Sized zero, LANES bits.
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
            s: Default::default(),
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
            ctxs: array_init(|_| Default::default()),
            look: Default::default(),
            decide: PwsDecide::new(UNITS, CTXS / UNITS),
            index_of: array_init(|i| k(i as u64)),
            is_y: array_init(|_| Default::default()),
            is_t: array_init(|_| Default::default()),
            is_c: array_init(|_| Default::default()),
            m64: Default::default(),
            m: Default::default(),
            c_spm: Default::default(),
            t_fam: Default::default(),
            t_root: Default::default(),
            half: k(p.half as u64),
            word: k(32),
            low_half: k((1u64 << p.half) - 1),
            split_state,
            split_timer,
            merge_state,
            merge_timer,
            st_ready: k(State::Ready as u64),
            st_merge_wait: k(State::MergeWait as u64),
            st_done: k(State::Done as u64),
            zero3: k(0),
            zero4: k(0),
            zero16: k(0),
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
        // ---- The contexts' registers go to the selects; the selects to the decision.
        self.look.dws.next = self.dws.val();
        self.look.s.next = self.s.val();
        self.look.cmd_unit.next = self.cmd_unit.val();
        self.look.cmd_slot.next = self.cmd_slot.val();
        for i in 0..CTXS {
            self.ctxs[i].clock.next = self.clock.val();
            self.ctxs[i].exec.next = self.exec[i].val();
            self.ctxs[i].watchdog.next = self.watchdog.val();
            self.look.state[i].next = self.ctxs[i].state.val();
            self.look.spm[i].next = self.ctxs[i].spm.val();
            self.look.sp[i].next = self.ctxs[i].sp.val();
            self.look.top[i].next = self.ctxs[i].top.val();
            self.look.parent_valid[i].next = self.ctxs[i].parent_valid.val();
            self.look.parent[i].next = self.ctxs[i].parent.val();
            self.look.root[i].next = self.ctxs[i].root.val();
            self.look.pc[i].next = self.ctxs[i].pc.val();
            self.look.live[i].next = self.ctxs[i].live.val();
            self.look.free[i].next = self.ctxs[i].free.val();
            self.look.expired[i].next = self.ctxs[i].expired.val();
        }
        self.decide.clock.next = self.clock.val();
        self.decide.reset.next = self.reset.val();
        self.decide.dws.next = self.dws.val();
        self.decide.s.next = self.s.val();
        self.decide.cmd.next = self.cmd.val();
        self.decide.cmd_unit.next = self.cmd_unit.val();
        self.decide.cmd_slot.next = self.cmd_slot.val();
        self.decide.cmd_pc.next = self.cmd_pc.val();
        self.decide.x_state.next = self.look.x_state.val();
        self.decide.x_sp.next = self.look.x_sp.val();
        self.decide.x_pv.next = self.look.x_pv.val();
        self.decide.x_idx.next = self.look.x_idx.val();
        self.decide.x_live.next = self.look.x_live.val();
        self.decide.y_found.next = self.look.y_found.val();
        self.decide.y_idx.next = self.look.y_idx.val();
        self.decide.p_exists.next = self.look.p_exists.val();
        self.decide.p_state.next = self.look.p_state.val();
        self.decide.p_pc.next = self.look.p_pc.val();
        self.decide.p_idx.next = self.look.p_idx.val();
        self.decide.p_meets_x.next = self.look.p_meets_x.val();
        self.decide.wd_any.next = self.look.wd_any.val();
        self.decide.wd_idx.next = self.look.wd_idx.val();
        // ---- The split mask M (lanes < H from SSRC0, lanes >= H from SSRC1).
        self.m64.next = (self.cmd_mask.val() & self.low_half.val())
            | ((self.cmd_mask.val() >> self.word.val()) << self.half.val());
        self.m.next = self.m64.val().get_bits::<LANES>(0);
        // ---- Y of this cycle's split; the merge decided last cycle: T (parent) and C (child).
        self.c_spm.next = self.zero_lanes.val();
        self.t_fam.next = self.zero4.val();
        self.t_root.next = self.zero4.val();
        for i in 0..CTXS {
            self.is_y[i].next =
                self.decide.do_split.val() & (self.index_of[i].val() == self.look.y_idx.val());
            self.is_t[i].next =
                self.decide.fire.val() & (self.index_of[i].val() == self.decide.fire_t.val());
            self.is_c[i].next =
                self.decide.fire.val() & (self.index_of[i].val() == self.decide.fire_c.val());
            if self.is_c[i].val() {
                self.c_spm.next = self.ctxs[i].spm.val();
            }
            if self.is_t[i].val() {
                self.t_fam.next = self.look.fam[i].val();
                self.t_root.next = self.ctxs[i].root.val();
            }
        }
        // ---- Per-context write controls.
        for i in 0..CTXS {
            self.ctxs[i].clear.next = self.reset.val() | self.is_c[i].val();
            self.ctxs[i].spm_we.next = false;
            self.ctxs[i].spm_in.next = self.zero_lanes.val();
            if self.decide.do_dispatch.val() & self.look.is_x[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.cmd_mask.val().get_bits::<LANES>(0);
            }
            if self.decide.do_split.val() & self.look.is_x[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.look.x_spm.val() & self.m.val();
            }
            if self.is_y[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.look.x_spm.val() & !self.m.val();
            }
            if self.is_t[i].val() {
                self.ctxs[i].spm_we.next = true;
                self.ctxs[i].spm_in.next = self.ctxs[i].spm.val() | self.c_spm.val();
            }
            self.ctxs[i].init.next =
                (self.decide.do_dispatch.val() & self.look.is_x[i].val()) | self.is_y[i].val();
            self.ctxs[i].parent_valid_in.next = self.is_y[i].val();
            self.ctxs[i].parent_in.next = self.zero4.val();
            self.ctxs[i].root_in.next = self.look.rel[i].val();
            if self.is_y[i].val() {
                self.ctxs[i].parent_in.next = self.look.x_rel.val();
                self.ctxs[i].root_in.next = self.look.x_root.val();
            }
            self.ctxs[i].push.next = self.decide.do_split.val() & self.look.is_x[i].val();
            self.ctxs[i].push_rel.next = self.look.y_rel.val();
            self.ctxs[i].pop.next = self.is_t[i].val();
            self.ctxs[i].live_inc.next = self.decide.do_split.val()
                & (self.look.fam[i].val() == self.look.x_fam.val())
                & (self.look.rel[i].val() == self.look.x_root.val());
            self.ctxs[i].live_dec.next = self.decide.fire.val()
                & (self.look.fam[i].val() == self.t_fam.val())
                & (self.look.rel[i].val() == self.t_root.val());
            self.ctxs[i].state_we.next = false;
            self.ctxs[i].state_in.next = self.zero3.val();
            self.ctxs[i].timer_in.next = self.zero16.val();
            if self.decide.do_dispatch.val() & self.look.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_ready.val();
            }
            if self.decide.do_split.val() & (self.look.is_x[i].val() | self.is_y[i].val()) {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.split_state.val();
                self.ctxs[i].timer_in.next = self.split_timer.val();
            }
            if self.decide.do_wait.val() & self.look.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_merge_wait.val();
            }
            if self.is_t[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.merge_state.val();
                self.ctxs[i].timer_in.next = self.merge_timer.val();
            }
            if self.decide.do_end.val() & self.look.is_x[i].val() {
                self.ctxs[i].state_we.next = true;
                self.ctxs[i].state_in.next = self.st_done.val();
            }
            self.ctxs[i].pc_we.next = self.decide.do_wait.val() & self.look.is_x[i].val();
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
        self.copy_valid.next = self.decide.copy_valid.val();
        self.copy_from.next = self.decide.copy_from.val();
        self.copy_to.next = self.decide.copy_to.val();
        self.split_denied.next = self.decide.split_denied.val();
        self.error.next = self.decide.error.val();
        self.error_ctx.next = self.decide.error_ctx.val();
    }
}
