//! What the top keeps beside each context's registers: its VGPR slot, its resident
//! work-group entry, its age and the PC of its last issued instruction, set by a dispatch,
//! copied by a split, and looked up by context.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Lookups by context the top makes each cycle ([`CtxTags::look`]).
pub const LOOKUPS: usize = 3;

/// Per context `c` of the `C`: `wf` (the VGPR slot its wavefront's registers are in:
/// `send_wf` of a dispatch into it, its parent's after a split copies the parent into it, since the halves
/// of a split share their wavefront's VGPRs), `wi` (its work-group's resident entry), `age`
/// (its wavefront's dispatch order in the launch: GTO's age; a split's child inherits it, as
/// the behavioural unit's copy does) and `last_pc` (its last issued instruction's PC, which
/// the split/merge unit's errors report). Each is written at the edge that ends the cycle of
/// the event; a dispatch and a copy never name the same context in a cycle (a split's child
/// is not free). `sent` counts the launch's dispatches (the next wavefront's age); `launch`
/// zeroes it and every age.
///
/// Lookup `i` (combinational): context `look[i]`'s `wf`, and `last_pc` of `pc_ctx`; a
/// context index ≥ `C` reads 0.
#[derive(LogicBlock)]
pub struct CtxTags<const C: usize, const I: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// A launch starts: ages and the dispatch count to 0.
    pub launch: Signal<In, Bit>,
    /// A wavefront is dispatched into context `send_ctx`.
    pub send: Signal<In, Bit>,
    /// Its context.
    pub send_ctx: Signal<In, Bits<8>>,
    /// Its wavefront's VGPR slot.
    pub send_wf: Signal<In, Bits<8>>,
    /// Its work-group's resident entry.
    pub send_wi: Signal<In, Bits<8>>,
    /// A split's child: copy context `copy_from`'s tags into `copy_to`.
    pub copy: Signal<In, Bit>,
    /// The parent.
    pub copy_from: Signal<In, Bits<8>>,
    /// The child.
    pub copy_to: Signal<In, Bits<8>>,
    /// Issue `i`: an instruction issues from context `issue_ctx[i]` at `issue_pc[i]` (the
    /// issues of a cycle name different contexts).
    pub issue: [Signal<In, Bit>; I],
    /// Its context.
    pub issue_ctx: [Signal<In, Bits<8>>; I],
    /// Its PC.
    pub issue_pc: [Signal<In, Bits<32>>; I],
    /// The contexts looked up.
    pub look: [Signal<In, Bits<8>>; LOOKUPS],
    /// Their VGPR slots.
    pub look_wf: [Signal<Out, Bits<8>>; LOOKUPS],
    /// The context whose last PC is read.
    pub pc_ctx: Signal<In, Bits<8>>,
    /// Its last issued instruction's PC.
    pub last_pc: Signal<Out, Bits<32>>,
    /// Each context's VGPR slot.
    pub wf: [Signal<Out, Bits<8>>; C],
    /// Each context's resident work-group entry.
    pub wi: [Signal<Out, Bits<8>>; C],
    /// Each context's age.
    pub age: [Signal<Out, Bits<32>>; C],
    /// The registers.
    wf_q: [DFF<Bits<8>>; C],
    wi_q: [DFF<Bits<8>>; C],
    age_q: [DFF<Bits<32>>; C],
    pc_q: [DFF<Bits<32>>; C],
    /// Wavefronts dispatched in the launch.
    sent: DFF<Bits<32>>,
    /// The copied context's tags.
    from_wf: Signal<Local, Bits<8>>,
    from_wi: Signal<Local, Bits<8>>,
    from_age: Signal<Local, Bits<32>>,
    from_pc: Signal<Local, Bits<32>>,
    kc: [Constant<Bits<8>>; C],
    one: Constant<Bits<32>>,
    z8: Constant<Bits<8>>,
    z32: Constant<Bits<32>>,
}

impl<const C: usize, const I: usize> Default for CtxTags<C, I> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            launch: Default::default(),
            send: Default::default(),
            send_ctx: Default::default(),
            send_wf: Default::default(),
            send_wi: Default::default(),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            issue: array_init::array_init(|_| Default::default()),
            issue_ctx: array_init::array_init(|_| Default::default()),
            issue_pc: array_init::array_init(|_| Default::default()),
            look: array_init::array_init(|_| Default::default()),
            look_wf: array_init::array_init(|_| Default::default()),
            pc_ctx: Default::default(),
            last_pc: Default::default(),
            wf: array_init::array_init(|_| Default::default()),
            wi: array_init::array_init(|_| Default::default()),
            age: array_init::array_init(|_| Default::default()),
            wf_q: array_init::array_init(|_| Default::default()),
            wi_q: array_init::array_init(|_| Default::default()),
            age_q: array_init::array_init(|_| Default::default()),
            pc_q: array_init::array_init(|_| Default::default()),
            sent: Default::default(),
            from_wf: Default::default(),
            from_wi: Default::default(),
            from_age: Default::default(),
            from_pc: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            one: k(1),
            z8: k(0),
            z32: k(0),
        }
    }
}

impl<const C: usize, const I: usize> Logic for CtxTags<C, I> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, sent);
        self.sent.d.next = self.sent.q.val();
        if self.send.val() {
            self.sent.d.next = self.sent.q.val() + self.one.val();
        }
        if self.launch.val() {
            self.sent.d.next = self.z32.val();
        }
        // The copied context's tags.
        self.from_wf.next = self.z8.val();
        self.from_wi.next = self.z8.val();
        self.from_age.next = self.z32.val();
        self.from_pc.next = self.z32.val();
        self.last_pc.next = self.z32.val();
        for i in 0..LOOKUPS {
            self.look_wf[i].next = self.z8.val();
        }
        for c in 0..C {
            if self.copy_from.val() == self.kc[c].val() {
                self.from_wf.next = self.wf_q[c].q.val();
                self.from_wi.next = self.wi_q[c].q.val();
                self.from_age.next = self.age_q[c].q.val();
                self.from_pc.next = self.pc_q[c].q.val();
            }
            if self.pc_ctx.val() == self.kc[c].val() {
                self.last_pc.next = self.pc_q[c].q.val();
            }
            for i in 0..LOOKUPS {
                if self.look[i].val() == self.kc[c].val() {
                    self.look_wf[i].next = self.wf_q[c].q.val();
                }
            }
        }
        for c in 0..C {
            self.wf_q[c].clock.next = self.clock.val();
            self.wi_q[c].clock.next = self.clock.val();
            self.age_q[c].clock.next = self.clock.val();
            self.pc_q[c].clock.next = self.clock.val();
            self.wf_q[c].d.next = self.wf_q[c].q.val();
            self.wi_q[c].d.next = self.wi_q[c].q.val();
            self.age_q[c].d.next = self.age_q[c].q.val();
            self.pc_q[c].d.next = self.pc_q[c].q.val();
            if self.launch.val() {
                self.age_q[c].d.next = self.z32.val();
            }
            if self.send.val() & (self.send_ctx.val() == self.kc[c].val()) {
                self.wf_q[c].d.next = self.send_wf.val();
                self.wi_q[c].d.next = self.send_wi.val();
                self.age_q[c].d.next = self.sent.q.val();
            }
            if self.copy.val() & (self.copy_to.val() == self.kc[c].val()) {
                self.wf_q[c].d.next = self.from_wf.val();
                self.wi_q[c].d.next = self.from_wi.val();
                self.age_q[c].d.next = self.from_age.val();
                self.pc_q[c].d.next = self.from_pc.val();
            }
            for i in 0..I {
                if self.issue[i].val() & (self.issue_ctx[i].val() == self.kc[c].val()) {
                    self.pc_q[c].d.next = self.issue_pc[i].val();
                }
            }
            self.wf[c].next = self.wf_q[c].q.val();
            self.wi[c].next = self.wi_q[c].q.val();
            self.age[c].next = self.age_q[c].q.val();
        }
    }
}
