//! One WF/SWF context of a SIMD group: its split-mask, parent, child-stack and state registers.

use crate::hdl::k;
use crate::pws::State;
use rust_hdl::prelude::*;

/// Child-stack entries held in hardware: S ≤ 7 (the group's `s` input bounds how many are
/// used; entries at depth ≥ S stay 0).
pub const STACK_ENTRIES: usize = 7;

/// The registers of one context and their own next-state rules (timers, stack shifts).
///
/// [`crate::pws::SimdGroup`] decides what happens to the context and drives the write controls;
/// they take effect at the rising edge. Controls that are low leave their registers alone.
/// `clear` (and `reset`) wins over every other control.
#[derive(LogicBlock)]
pub struct PwsContext<const LANES: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Return to the power-up values at the edge (the group's reset or a merged child).
    pub clear: Signal<In, Bit>,
    /// The context's EXEC.
    pub exec: Signal<In, Bits<LANES>>,
    /// Merge watchdog bound in cycles (0 = off).
    pub watchdog: Signal<In, Bits<16>>,
    /// Load `spm_in` into the split mask.
    pub spm_we: Signal<In, Bit>,
    /// The new split mask.
    pub spm_in: Signal<In, Bits<LANES>>,
    /// Start the context: parent from `parent_valid_in`/`parent_in`, root from `root_in`,
    /// empty child stack, live count 0.
    pub init: Signal<In, Bit>,
    /// The parent register's valid bit at `init`.
    pub parent_valid_in: Signal<In, Bit>,
    /// The parent's relative id at `init`.
    pub parent_in: Signal<In, Bits<4>>,
    /// The root's relative id at `init`.
    pub root_in: Signal<In, Bits<4>>,
    /// Push `push_rel` on the child stack.
    pub push: Signal<In, Bit>,
    /// The relative id pushed.
    pub push_rel: Signal<In, Bits<4>>,
    /// Pop the child stack.
    pub pop: Signal<In, Bit>,
    /// One more context descends from this (root) context.
    pub live_inc: Signal<In, Bit>,
    /// One context fewer descends from this (root) context.
    pub live_dec: Signal<In, Bit>,
    /// Load `state_in` and `timer_in`.
    pub state_we: Signal<In, Bit>,
    /// The new state code ([`State`]).
    pub state_in: Signal<In, Bits<3>>,
    /// The new timer value.
    pub timer_in: Signal<In, Bits<16>>,
    /// Load `pc_in` (the merge PC).
    pub pc_we: Signal<In, Bit>,
    /// The PC of the merge the context waits at.
    pub pc_in: Signal<In, Bits<32>>,
    /// The state code.
    pub state: Signal<Out, Bits<3>>,
    /// The split mask.
    pub spm: Signal<Out, Bits<LANES>>,
    /// EXEC & SpM: the lanes that execute (combinational from `exec`).
    pub eff: Signal<Out, Bits<LANES>>,
    /// The parent register is set.
    pub parent_valid: Signal<Out, Bit>,
    /// The parent's relative id (0 when not valid).
    pub parent: Signal<Out, Bits<4>>,
    /// Child-stack pointer: entries in use.
    pub sp: Signal<Out, Bits<3>>,
    /// The child-stack top (0 when empty).
    pub top: Signal<Out, Bits<4>>,
    /// The relative id of the WF's original context.
    pub root: Signal<Out, Bits<4>>,
    /// Contexts descending from this one (meaningful in a WF's original context).
    pub live: Signal<Out, Bits<3>>,
    /// The merge PC.
    pub pc: Signal<Out, Bits<32>>,
    /// EMPTY or DONE (a wavefront that ended) with no parent: a split may take this context.
    pub free: Signal<Out, Bit>,
    /// In MERGE_WAIT for at least `watchdog` cycles (watchdog on).
    pub expired: Signal<Out, Bit>,
    /// State register.
    state_r: DFF<Bits<3>>,
    /// SpM register.
    spm_r: DFF<Bits<LANES>>,
    /// Parent valid bit.
    parent_valid_r: DFF<Bit>,
    /// Parent relative id.
    parent_r: DFF<Bits<4>>,
    /// Child stack as a shift register: entry 0 is the top.
    stack: [DFF<Bits<4>>; STACK_ENTRIES],
    /// Child-stack pointer.
    sp_r: DFF<Bits<3>>,
    /// Root relative id.
    root_r: DFF<Bits<4>>,
    /// Live descendants.
    live_r: DFF<Bits<3>>,
    /// Merge PC.
    pc_r: DFF<Bits<32>>,
    /// Cycles left in SPLITTING/MERGING; cycles spent in MERGE_WAIT.
    timer: DFF<Bits<16>>,
    /// State codes.
    st_empty: Constant<Bits<3>>,
    st_done: Constant<Bits<3>>,
    st_ready: Constant<Bits<3>>,
    st_splitting: Constant<Bits<3>>,
    st_merge_wait: Constant<Bits<3>>,
    st_merging: Constant<Bits<3>>,
    /// The timer's saturation value.
    timer_max: Constant<Bits<16>>,
    /// Sized constants 0 and 1.
    zero3: Constant<Bits<3>>,
    zero4: Constant<Bits<4>>,
    zero16: Constant<Bits<16>>,
    zero32: Constant<Bits<32>>,
    zero_lanes: Constant<Bits<LANES>>,
    one3: Constant<Bits<3>>,
    one16: Constant<Bits<16>>,
}

impl<const LANES: usize> Default for PwsContext<LANES> {
    /// A context with [`STACK_ENTRIES`] stack entries.
    fn default() -> Self {
        Self {
            clock: Default::default(),
            clear: Default::default(),
            exec: Default::default(),
            watchdog: Default::default(),
            spm_we: Default::default(),
            spm_in: Default::default(),
            init: Default::default(),
            parent_valid_in: Default::default(),
            parent_in: Default::default(),
            root_in: Default::default(),
            push: Default::default(),
            push_rel: Default::default(),
            pop: Default::default(),
            live_inc: Default::default(),
            live_dec: Default::default(),
            state_we: Default::default(),
            state_in: Default::default(),
            timer_in: Default::default(),
            pc_we: Default::default(),
            pc_in: Default::default(),
            state: Default::default(),
            spm: Default::default(),
            eff: Default::default(),
            parent_valid: Default::default(),
            parent: Default::default(),
            sp: Default::default(),
            top: Default::default(),
            root: Default::default(),
            live: Default::default(),
            pc: Default::default(),
            free: Default::default(),
            expired: Default::default(),
            state_r: Default::default(),
            spm_r: Default::default(),
            parent_valid_r: Default::default(),
            parent_r: Default::default(),
            stack: array_init::array_init(|_| Default::default()),
            sp_r: Default::default(),
            root_r: Default::default(),
            live_r: Default::default(),
            pc_r: Default::default(),
            timer: Default::default(),
            st_empty: k(State::Empty as u64),
            st_done: k(State::Done as u64),
            st_ready: k(State::Ready as u64),
            st_splitting: k(State::Splitting as u64),
            st_merge_wait: k(State::MergeWait as u64),
            st_merging: k(State::Merging as u64),
            timer_max: k(0xFFFF),
            zero3: k(0),
            zero4: k(0),
            zero16: k(0),
            zero32: k(0),
            zero_lanes: k(0),
            one3: k(1),
            one16: k(1),
        }
    }
}

impl<const LANES: usize> Logic for PwsContext<LANES> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self,
            clock,
            state_r,
            spm_r,
            parent_valid_r,
            parent_r,
            sp_r,
            root_r,
            live_r,
            pc_r,
            timer
        );
        for i in 0..STACK_ENTRIES {
            self.stack[i].clock.next = self.clock.val();
            self.stack[i].d.next = self.stack[i].q.val();
        }
        // Timers: SPLITTING/MERGING count down to READY, MERGE_WAIT counts up.
        if (self.state_r.q.val() == self.st_splitting.val())
            | (self.state_r.q.val() == self.st_merging.val())
        {
            self.timer.d.next = self.timer.q.val() - self.one16.val();
            if self.timer.q.val() == self.one16.val() {
                self.state_r.d.next = self.st_ready.val();
            }
        }
        if (self.state_r.q.val() == self.st_merge_wait.val())
            & (self.timer.q.val() != self.timer_max.val())
        {
            self.timer.d.next = self.timer.q.val() + self.one16.val();
        }
        if self.spm_we.val() {
            self.spm_r.d.next = self.spm_in.val();
        }
        if self.init.val() {
            self.parent_valid_r.d.next = self.parent_valid_in.val();
            self.parent_r.d.next = self.parent_in.val();
            self.root_r.d.next = self.root_in.val();
            self.live_r.d.next = self.zero3.val();
            self.sp_r.d.next = self.zero3.val();
            for i in 0..STACK_ENTRIES {
                self.stack[i].d.next = self.zero4.val();
            }
        }
        // The stack shifts: entry 0 is the top.
        if self.push.val() {
            self.sp_r.d.next = self.sp_r.q.val() + self.one3.val();
            self.stack[0].d.next = self.push_rel.val();
            for i in 1..STACK_ENTRIES {
                self.stack[i].d.next = self.stack[i - 1].q.val();
            }
        }
        if self.pop.val() {
            self.sp_r.d.next = self.sp_r.q.val() - self.one3.val();
            for i in 0..STACK_ENTRIES {
                self.stack[i].d.next = self.zero4.val();
            }
            for i in 0..(STACK_ENTRIES - 1) {
                self.stack[i].d.next = self.stack[i + 1].q.val();
            }
        }
        if self.live_inc.val() & !self.live_dec.val() {
            self.live_r.d.next = self.live_r.q.val() + self.one3.val();
        }
        if self.live_dec.val() & !self.live_inc.val() {
            self.live_r.d.next = self.live_r.q.val() - self.one3.val();
        }
        if self.state_we.val() {
            self.state_r.d.next = self.state_in.val();
            self.timer.d.next = self.timer_in.val();
        }
        if self.pc_we.val() {
            self.pc_r.d.next = self.pc_in.val();
        }
        if self.clear.val() {
            self.state_r.d.next = self.zero3.val();
            self.spm_r.d.next = self.zero_lanes.val();
            self.parent_valid_r.d.next = false;
            self.parent_r.d.next = self.zero4.val();
            self.sp_r.d.next = self.zero3.val();
            self.root_r.d.next = self.zero4.val();
            self.live_r.d.next = self.zero3.val();
            self.pc_r.d.next = self.zero32.val();
            self.timer.d.next = self.zero16.val();
            for i in 0..STACK_ENTRIES {
                self.stack[i].d.next = self.zero4.val();
            }
        }
        self.state.next = self.state_r.q.val();
        self.spm.next = self.spm_r.q.val();
        self.eff.next = self.exec.val() & self.spm_r.q.val();
        self.parent_valid.next = self.parent_valid_r.q.val();
        self.parent.next = self.parent_r.q.val();
        self.sp.next = self.sp_r.q.val();
        self.top.next = self.stack[0].q.val();
        self.root.next = self.root_r.q.val();
        self.live.next = self.live_r.q.val();
        self.pc.next = self.pc_r.q.val();
        self.free.next = ((self.state_r.q.val() == self.st_empty.val())
            | (self.state_r.q.val() == self.st_done.val()))
            & !self.parent_valid_r.q.val();
        self.expired.next = (self.state_r.q.val() == self.st_merge_wait.val())
            & self.watchdog.val().any()
            & (self.timer.q.val() >= self.watchdog.val());
    }
}
