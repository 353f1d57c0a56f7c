//! Issue control of one SIMD/SpSIMD: `C` contexts ([`super::issue_ctx::IssueCtx`]), the
//! VALU's busy down-counter, the stall reason (the smallest code over the contexts, a
//! linear chain) and the warp scheduler that grants among the eligible contexts.

use super::issue_ctx::IssueCtx;
use super::position_pick::PositionPick;
use crate::hdl::k;
use crate::sched::WarpScheduler;
use array_init::array_init;
use rust_hdl::prelude::*;

/// Issue control for `C` contexts (1..=64); ports and behaviour: [`crate::issue`].
#[derive(LogicBlock)]
pub struct Issue<const C: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every context empty, the VALU free, the scheduler's last grant
    /// forgotten.
    pub reset: Signal<In, Bit>,
    /// Scheduler policy when `rr` is 0: 0 = LRR, 1 = GTO.
    pub gto: Signal<In, Bit>,
    /// Scheduler policy: pure round-robin.
    pub rr: Signal<In, Bit>,
    /// SALU (and default) latency.
    pub lat_salu: Signal<In, Bits<16>>,
    /// VALU result latency.
    pub lat_valu: Signal<In, Bits<16>>,
    /// Branch latency.
    pub lat_branch: Signal<In, Bits<16>>,
    /// VALU issue period.
    pub issue_period: Signal<In, Bits<8>>,
    /// The launch splits (`split`/`merge` need the split/merge port).
    pub split_on: Signal<In, Bit>,
    /// The memory pipe was taken this cycle by another unit.
    pub pipe_mem: Signal<In, Bit>,
    /// The LDS cannot take a DS instruction this cycle: another unit issued one earlier in
    /// the cycle, or one issued in the last `lds_period` − 1 cycles still holds it.
    pub pipe_lds: Signal<In, Bit>,
    /// The group's split/merge port is free.
    pub port_free: Signal<In, Bit>,
    /// The IDU is in front of the VALU.
    pub idu_on: Signal<In, Bit>,
    /// The IDU can dispatch this cycle.
    pub idu_ok: Signal<In, Bit>,
    /// With the IDU: cycles until a context that issues a VALU instruction is ready again.
    pub idu_wait: Signal<In, Bits<16>>,
    /// Bit c: a wavefront starts in context c.
    pub start: Signal<In, Bits<C>>,
    /// Bit c: context c's wavefront left (a merged child).
    pub stop: Signal<In, Bits<C>>,
    /// Bit c: context c's barrier is released.
    pub bar_release: Signal<In, Bits<C>>,
    /// Bit c: Sim-D holds context c.
    pub hold: Signal<In, Bits<C>>,
    /// Bit c: the global port takes context c's access.
    pub gport_free: Signal<In, Bits<C>>,
    /// An issue unit visited earlier in the cycle took the memory pipe: a context whose next
    /// instruction needs it stalls (structural, unless the instruction is illegal). The other
    /// inputs give what is taken before any unit's issue; `o_mem`, `o_lds` and `o_port` add
    /// what the units visited earlier took, so that the grant of the unit visited first
    /// (`f_grant`) does not depend on them.
    pub o_mem: Signal<In, Bit>,
    /// It took the LDS.
    pub o_lds: Signal<In, Bit>,
    /// It took the split/merge port.
    pub o_port: Signal<In, Bit>,
    /// What the unit at position 0 of the cycle's order took, the memory pipe (for the pick
    /// at position 1, `p1_*`; with more than two units).
    pub t1_mem: Signal<In, Bit>,
    /// It took the LDS.
    pub t1_lds: Signal<In, Bit>,
    /// It took the split/merge port.
    pub t1_port: Signal<In, Bit>,
    /// What the units at positions 0 and 1 took, the memory pipe (for the pick at position
    /// 2, `p2_*`).
    pub t2_mem: Signal<In, Bit>,
    /// They took the LDS.
    pub t2_lds: Signal<In, Bit>,
    /// They took the split/merge port.
    pub t2_port: Signal<In, Bit>,
    /// Context c's FLAT returns this cycle.
    pub vm_ret: [Signal<In, Bits<8>>; C],
    /// Context c's SMEM/LDS returns this cycle.
    pub lgkm_ret: [Signal<In, Bits<8>>; C],
    /// Context c's next instruction's unit.
    pub unit: [Signal<In, Bits<4>>; C],
    /// Its opcode.
    pub opcode: [Signal<In, Bits<8>>; C],
    /// Its immediate.
    pub imm: [Signal<In, Bits<16>>; C],
    /// It is illegal or past the code.
    pub illegal: [Signal<In, Bit>; C],
    /// Context c's split/merge state.
    pub state: [Signal<In, Bits<3>>; C],
    /// Context c's age rank (GTO).
    pub age: [Signal<In, Bits<6>>; C],
    /// A context is granted.
    pub grant_valid: Signal<Out, Bit>,
    /// The granted context (0 when none).
    pub grant: Signal<Out, Bits<6>>,
    /// A context would be granted with `o_*` low (the unit visited first).
    pub f_valid: Signal<Out, Bit>,
    /// That context (0 when none).
    pub f_grant: Signal<Out, Bits<6>>,
    /// Its instruction (not illegal) needs the memory pipe: what the unit takes when it is
    /// visited first.
    pub f_mem: Signal<Out, Bit>,
    /// It needs the LDS.
    pub f_lds: Signal<Out, Bit>,
    /// It needs the split/merge port.
    pub f_port: Signal<Out, Bit>,
    /// A context would be granted at position 1 (with `t1_*` taken).
    pub p1_valid: Signal<Out, Bit>,
    /// That context (0 when none).
    pub p1_grant: Signal<Out, Bits<6>>,
    /// What its instruction (not illegal) needs: the memory pipe.
    pub p1_mem: Signal<Out, Bit>,
    /// The LDS.
    pub p1_lds: Signal<Out, Bit>,
    /// The split/merge port.
    pub p1_port: Signal<Out, Bit>,
    /// A context would be granted at position 2 (with `t2_*` taken).
    pub p2_valid: Signal<Out, Bit>,
    /// That context (0 when none).
    pub p2_grant: Signal<Out, Bits<6>>,
    /// What its instruction (not illegal) needs: the memory pipe.
    pub p2_mem: Signal<Out, Bit>,
    /// The LDS.
    pub p2_lds: Signal<Out, Bit>,
    /// The split/merge port.
    pub p2_port: Signal<Out, Bit>,
    /// The cycle's stall reason (counted when nothing is granted).
    pub stall: Signal<Out, Bits<3>>,
    /// Bit c: context c is eligible.
    pub eligible: Signal<Out, Bits<C>>,
    /// Bit c: context c is present (pure RR's rotation).
    pub present: Signal<Out, Bits<C>>,
    /// Bit c: context c is eligible with `o_*` low.
    eligible_free: Signal<Local, Bits<C>>,
    /// The VALU busy counter.
    pub valu_busy: Signal<Out, Bits<8>>,
    /// Bit c: context c is live.
    pub live: Signal<Out, Bits<C>>,
    /// Bit c: context c waits at a barrier.
    pub barrier: Signal<Out, Bits<C>>,
    /// Context c's dependency counter.
    pub dep: [Signal<Out, Bits<16>>; C],
    /// Context c's vmcnt.
    pub vmcnt: [Signal<Out, Bits<8>>; C],
    /// Context c's lgkmcnt.
    pub lgkmcnt: [Signal<Out, Bits<8>>; C],
    /// The contexts.
    ctx: [IssueCtx; C],
    /// The scheduler.
    sched: WarpScheduler<C>,
    /// The picks at positions 0 (nothing taken: `f_*`), 1 (`t1_*` taken) and 2 (`t2_*`),
    /// over the scheduler's last grant.
    pick0: PositionPick<C>,
    pick1: PositionPick<C>,
    pick2: PositionPick<C>,
    /// Bit c: context c's next instruction is legal and needs the memory pipe.
    need_mem: Signal<Local, Bits<C>>,
    /// It needs the LDS.
    need_lds: Signal<Local, Bits<C>>,
    /// It needs the split/merge port.
    need_port: Signal<Local, Bits<C>>,
    /// VALU busy counter.
    busy_r: DFF<Bits<8>>,
    /// Stall chain: element c is the smallest reason of contexts 0..=c.
    r_min: [Signal<Local, Bits<3>>; C],
    /// Some context issues a VALU instruction.
    any_valu: Signal<Local, Bit>,
    /// Context indices.
    kc: [Constant<Bits<6>>; C],
    /// Context c's bit of a mask.
    bit_of: [Constant<Bits<C>>; C],
    zc: Constant<Bits<C>>,
    z8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
}

impl<const C: usize> Default for Issue<C> {
    fn default() -> Self {
        assert!((1..=64).contains(&C), "C = {C} contexts is outside 1..=64");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            gto: Default::default(),
            rr: Default::default(),
            lat_salu: Default::default(),
            lat_valu: Default::default(),
            lat_branch: Default::default(),
            issue_period: Default::default(),
            split_on: Default::default(),
            pipe_mem: Default::default(),
            pipe_lds: Default::default(),
            port_free: Default::default(),
            idu_on: Default::default(),
            idu_ok: Default::default(),
            idu_wait: Default::default(),
            start: Default::default(),
            stop: Default::default(),
            bar_release: Default::default(),
            hold: Default::default(),
            o_mem: Default::default(),
            o_lds: Default::default(),
            o_port: Default::default(),
            t1_mem: Default::default(),
            t1_lds: Default::default(),
            t1_port: Default::default(),
            t2_mem: Default::default(),
            t2_lds: Default::default(),
            t2_port: Default::default(),
            gport_free: Default::default(),
            vm_ret: array_init(|_| Default::default()),
            lgkm_ret: array_init(|_| Default::default()),
            unit: array_init(|_| Default::default()),
            opcode: array_init(|_| Default::default()),
            imm: array_init(|_| Default::default()),
            illegal: array_init(|_| Default::default()),
            state: array_init(|_| Default::default()),
            age: array_init(|_| Default::default()),
            grant_valid: Default::default(),
            grant: Default::default(),
            f_valid: Default::default(),
            f_grant: Default::default(),
            f_mem: Default::default(),
            f_lds: Default::default(),
            f_port: Default::default(),
            p1_valid: Default::default(),
            p1_grant: Default::default(),
            p1_mem: Default::default(),
            p1_lds: Default::default(),
            p1_port: Default::default(),
            p2_valid: Default::default(),
            p2_grant: Default::default(),
            p2_mem: Default::default(),
            p2_lds: Default::default(),
            p2_port: Default::default(),
            stall: Default::default(),
            eligible: Default::default(),
            present: Default::default(),
            eligible_free: Default::default(),
            valu_busy: Default::default(),
            live: Default::default(),
            barrier: Default::default(),
            dep: array_init(|_| Default::default()),
            vmcnt: array_init(|_| Default::default()),
            lgkmcnt: array_init(|_| Default::default()),
            ctx: array_init(|_| Default::default()),
            sched: Default::default(),
            pick0: Default::default(),
            pick1: Default::default(),
            pick2: Default::default(),
            need_mem: Default::default(),
            need_lds: Default::default(),
            need_port: Default::default(),
            busy_r: Default::default(),
            r_min: array_init(|_| Default::default()),
            any_valu: Default::default(),
            kc: array_init(|c| k(c as u64)),
            bit_of: array_init(|c| k(1 << c)),
            zc: k(0),
            z8: k(0),
            one8: k(1),
        }
    }
}

impl<const C: usize> Logic for Issue<C> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy_r);
        self.sched.clock.next = self.clock.val();
        self.sched.reset.next = self.reset.val();
        self.sched.gto.next = self.gto.val();
        self.sched.rr.next = self.rr.val();
        self.eligible.next = self.zc.val();
        self.eligible_free.next = self.zc.val();
        self.present.next = self.zc.val();
        self.live.next = self.zc.val();
        self.barrier.next = self.zc.val();
        self.any_valu.next = false;
        self.need_mem.next = self.zc.val();
        self.need_lds.next = self.zc.val();
        self.need_port.next = self.zc.val();
        for c in 0..C {
            self.ctx[c].clock.next = self.clock.val();
            self.ctx[c].reset.next = self.reset.val();
            self.ctx[c].start.next = self.start.val().get_bit(c);
            self.ctx[c].stop.next = self.stop.val().get_bit(c);
            self.ctx[c].bar_release.next = self.bar_release.val().get_bit(c);
            self.ctx[c].hold.next = self.hold.val().get_bit(c);
            self.ctx[c].gport_free.next = self.gport_free.val().get_bit(c);
            self.ctx[c].o_mem.next = self.o_mem.val();
            self.ctx[c].o_lds.next = self.o_lds.val();
            self.ctx[c].o_port.next = self.o_port.val();
            self.ctx[c].vm_ret.next = self.vm_ret[c].val();
            self.ctx[c].lgkm_ret.next = self.lgkm_ret[c].val();
            self.ctx[c].unit.next = self.unit[c].val();
            self.ctx[c].opcode.next = self.opcode[c].val();
            self.ctx[c].imm.next = self.imm[c].val();
            self.ctx[c].illegal.next = self.illegal[c].val();
            self.ctx[c].state.next = self.state[c].val();
            self.ctx[c].lat_salu.next = self.lat_salu.val();
            self.ctx[c].lat_valu.next = self.lat_valu.val();
            self.ctx[c].lat_branch.next = self.lat_branch.val();
            self.ctx[c].split_on.next = self.split_on.val();
            self.ctx[c].pipe_mem.next = self.pipe_mem.val();
            self.ctx[c].pipe_lds.next = self.pipe_lds.val();
            self.ctx[c].port_free.next = self.port_free.val();
            self.ctx[c].idu_on.next = self.idu_on.val();
            self.ctx[c].idu_ok.next = self.idu_ok.val();
            self.ctx[c].idu_wait.next = self.idu_wait.val();
            self.ctx[c].valu_busy.next = self.busy_r.q.val() != self.z8.val();
            self.ctx[c].granted.next =
                self.sched.grant_valid.val() & (self.sched.grant.val() == self.kc[c].val());
            self.sched.age[c].next = self.age[c].val();
            self.pick0.age[c].next = self.age[c].val();
            self.pick1.age[c].next = self.age[c].val();
            self.pick2.age[c].next = self.age[c].val();
            if !self.illegal[c].val() {
                if self.ctx[c].n_mem.val() {
                    self.need_mem.next = self.need_mem.val() | self.bit_of[c].val();
                }
                if self.ctx[c].n_lds.val() {
                    self.need_lds.next = self.need_lds.val() | self.bit_of[c].val();
                }
                if self.ctx[c].n_port.val() {
                    self.need_port.next = self.need_port.val() | self.bit_of[c].val();
                }
            }
            if self.ctx[c].eligible.val() {
                self.eligible.next = self.eligible.val() | self.bit_of[c].val();
            }
            if self.ctx[c].eligible_free.val() {
                self.eligible_free.next = self.eligible_free.val() | self.bit_of[c].val();
            }
            if self.ctx[c].present.val() {
                self.present.next = self.present.val() | self.bit_of[c].val();
            }
            if self.ctx[c].live.val() {
                self.live.next = self.live.val() | self.bit_of[c].val();
            }
            if self.ctx[c].barrier.val() {
                self.barrier.next = self.barrier.val() | self.bit_of[c].val();
            }
            self.any_valu.next = self.any_valu.val() | self.ctx[c].valu_issue.val();
            self.dep[c].next = self.ctx[c].dep.val();
            self.vmcnt[c].next = self.ctx[c].vmcnt.val();
            self.lgkmcnt[c].next = self.ctx[c].lgkmcnt.val();
        }
        self.sched.eligible.next = self.eligible.val();
        self.sched.present.next = self.present.val();
        self.grant_valid.next = self.sched.grant_valid.val();
        self.grant.next = self.sched.grant.val();
        // The picks per position: nothing taken at position 0, `t1_*` at 1, `t2_*` at 2.
        self.pick0.taken_mem.next = false;
        self.pick0.taken_lds.next = false;
        self.pick0.taken_port.next = false;
        self.pick1.taken_mem.next = self.t1_mem.val();
        self.pick1.taken_lds.next = self.t1_lds.val();
        self.pick1.taken_port.next = self.t1_port.val();
        self.pick2.taken_mem.next = self.t2_mem.val();
        self.pick2.taken_lds.next = self.t2_lds.val();
        self.pick2.taken_port.next = self.t2_port.val();
        self.pick0.gto.next = self.gto.val();
        self.pick1.gto.next = self.gto.val();
        self.pick2.gto.next = self.gto.val();
        self.pick0.rr.next = self.rr.val();
        self.pick1.rr.next = self.rr.val();
        self.pick2.rr.next = self.rr.val();
        self.pick0.eligible.next = self.eligible_free.val();
        self.pick1.eligible.next = self.eligible_free.val();
        self.pick2.eligible.next = self.eligible_free.val();
        self.pick0.present.next = self.present.val();
        self.pick1.present.next = self.present.val();
        self.pick2.present.next = self.present.val();
        self.pick0.last.next = self.sched.last.val();
        self.pick1.last.next = self.sched.last.val();
        self.pick2.last.next = self.sched.last.val();
        self.pick0.last_valid.next = self.sched.last_valid.val();
        self.pick1.last_valid.next = self.sched.last_valid.val();
        self.pick2.last_valid.next = self.sched.last_valid.val();
        self.pick0.need_mem.next = self.need_mem.val();
        self.pick1.need_mem.next = self.need_mem.val();
        self.pick2.need_mem.next = self.need_mem.val();
        self.pick0.need_lds.next = self.need_lds.val();
        self.pick1.need_lds.next = self.need_lds.val();
        self.pick2.need_lds.next = self.need_lds.val();
        self.pick0.need_port.next = self.need_port.val();
        self.pick1.need_port.next = self.need_port.val();
        self.pick2.need_port.next = self.need_port.val();
        self.f_valid.next = self.pick0.valid.val();
        self.f_grant.next = self.pick0.grant.val();
        self.f_mem.next = self.pick0.mem.val();
        self.f_lds.next = self.pick0.lds.val();
        self.f_port.next = self.pick0.port.val();
        self.p1_valid.next = self.pick1.valid.val();
        self.p1_grant.next = self.pick1.grant.val();
        self.p1_mem.next = self.pick1.mem.val();
        self.p1_lds.next = self.pick1.lds.val();
        self.p1_port.next = self.pick1.port.val();
        self.p2_valid.next = self.pick2.valid.val();
        self.p2_grant.next = self.pick2.grant.val();
        self.p2_mem.next = self.pick2.mem.val();
        self.p2_lds.next = self.pick2.lds.val();
        self.p2_port.next = self.pick2.port.val();
        // The stall reason: the smallest code, up the contexts.
        self.r_min[0].next = self.ctx[0].reason.val();
        for c in 0..(C - 1) {
            self.r_min[c + 1].next = self.r_min[c].val();
            if self.ctx[c + 1].reason.val() < self.r_min[c].val() {
                self.r_min[c + 1].next = self.ctx[c + 1].reason.val();
            }
        }
        // (The one-pass loop names C - 1 for the index expression.)
        for top in (C - 1)..C {
            self.stall.next = self.r_min[top].val();
        }
        // The VALU: busy for the issue period after a VALU issue.
        self.valu_busy.next = self.busy_r.q.val();
        self.busy_r.d.next = self.z8.val();
        if self.busy_r.q.val() != self.z8.val() {
            self.busy_r.d.next = self.busy_r.q.val() - self.one8.val();
        }
        if self.any_valu.val() & (self.issue_period.val() != self.z8.val()) {
            self.busy_r.d.next = self.issue_period.val() - self.one8.val();
        }
        if self.any_valu.val() & (self.issue_period.val() == self.z8.val()) {
            self.busy_r.d.next = self.z8.val();
        }
        if self.reset.val() {
            self.busy_r.d.next = self.z8.val();
        }
    }
}
