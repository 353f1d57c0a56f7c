//! One context of the issue control: its registers (live, barrier, dependency down-counter,
//! vmcnt, lgkmcnt), this cycle's events applied to them, the eligibility rules in priority
//! order, and the update when it issues ([`crate::issue`]).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// One context's issue state and eligibility.
#[derive(LogicBlock)]
pub struct IssueCtx {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: not live, every counter 0.
    pub reset: Signal<In, Bit>,
    /// A wavefront starts here this cycle (live, counters 0, no barrier).
    pub start: Signal<In, Bit>,
    /// The wavefront left (a merged child).
    pub stop: Signal<In, Bit>,
    /// The barrier is released.
    pub bar_release: Signal<In, Bit>,
    /// Sim-D holds the context (a barrier stall).
    pub hold: Signal<In, Bit>,
    /// The global port takes this context's access.
    pub gport_free: Signal<In, Bit>,
    /// FLAT returns this cycle.
    pub vm_ret: Signal<In, Bits<8>>,
    /// SMEM/LDS returns this cycle.
    pub lgkm_ret: Signal<In, Bits<8>>,
    /// The next instruction's unit.
    pub unit: Signal<In, Bits<4>>,
    /// Its opcode.
    pub opcode: Signal<In, Bits<8>>,
    /// Its immediate.
    pub imm: Signal<In, Bits<16>>,
    /// Illegal or past the code.
    pub illegal: Signal<In, Bit>,
    /// The split/merge state code.
    pub state: Signal<In, Bits<3>>,
    /// This context issues at this edge (the scheduler's grant).
    pub granted: Signal<In, Bit>,
    /// SALU (default) latency.
    pub lat_salu: Signal<In, Bits<16>>,
    /// VALU latency.
    pub lat_valu: Signal<In, Bits<16>>,
    /// Branch latency.
    pub lat_branch: Signal<In, Bits<16>>,
    /// Splitting is on.
    pub split_on: Signal<In, Bit>,
    /// The memory pipe is taken.
    pub pipe_mem: Signal<In, Bit>,
    /// The LDS cannot take a DS instruction this cycle.
    pub pipe_lds: Signal<In, Bit>,
    /// The split/merge port is free.
    pub port_free: Signal<In, Bit>,
    /// The IDU is on.
    pub idu_on: Signal<In, Bit>,
    /// The IDU can dispatch.
    pub idu_ok: Signal<In, Bit>,
    /// With the IDU: the wait after a VALU issue.
    pub idu_wait: Signal<In, Bits<16>>,
    /// The unit's VALU is busy.
    pub valu_busy: Signal<In, Bit>,
    /// An issue unit visited earlier in the cycle took the memory pipe (a structural stall of
    /// an instruction that needs it, unless it is illegal).
    pub o_mem: Signal<In, Bit>,
    /// It took the LDS.
    pub o_lds: Signal<In, Bit>,
    /// It took the split/merge port.
    pub o_port: Signal<In, Bit>,
    /// Eligible.
    pub eligible: Signal<Out, Bit>,
    /// Eligible if nothing were taken earlier in the cycle (`o_*` low): the context as the
    /// unit visited first sees it.
    pub eligible_free: Signal<Out, Bit>,
    /// The next instruction needs the memory pipe (FLAT, SMEM).
    pub n_mem: Signal<Out, Bit>,
    /// It needs the LDS (DS).
    pub n_lds: Signal<Out, Bit>,
    /// It needs the split/merge port (`split`/`merge` with splitting on, `s_endpgm`).
    pub n_port: Signal<Out, Bit>,
    /// Present (eligible, or stalled by itself).
    pub present: Signal<Out, Bit>,
    /// Stall reason (idle when eligible or absent).
    pub reason: Signal<Out, Bits<3>>,
    /// It issues a VALU instruction at this edge.
    pub valu_issue: Signal<Out, Bit>,
    /// Live, after the events.
    pub live: Signal<Out, Bit>,
    /// At a barrier, after the events.
    pub barrier: Signal<Out, Bit>,
    /// Dependency counter.
    pub dep: Signal<Out, Bits<16>>,
    /// vmcnt, after the returns.
    pub vmcnt: Signal<Out, Bits<8>>,
    /// lgkmcnt, after the returns.
    pub lgkmcnt: Signal<Out, Bits<8>>,
    live_r: DFF<Bit>,
    barrier_r: DFF<Bit>,
    dep_r: DFF<Bits<16>>,
    vm_r: DFF<Bits<8>>,
    lgkm_r: DFF<Bits<8>>,
    /// The next instruction's structural hazard.
    structural: Signal<Local, Bit>,
    /// `s_waitcnt` whose counts are not reached.
    wc_wait: Signal<Local, Bit>,
    /// The stall reason with `o_*` low.
    reason_free: Signal<Local, Bits<3>>,
    /// The instruction's latency.
    lat: Signal<Local, Bits<16>>,
    /// `s_sleep`'s count, at least 1.
    sleep: Signal<Local, Bits<16>>,
    /// Unit codes.
    u_valu: Constant<Bits<4>>,
    u_vmem: Constant<Bits<4>>,
    u_smem: Constant<Bits<4>>,
    u_lds: Constant<Bits<4>>,
    u_branch: Constant<Bits<4>>,
    u_pws: Constant<Bits<4>>,
    u_sync: Constant<Bits<4>>,
    u_program: Constant<Bits<4>>,
    /// Opcodes: `s_nop`, `s_endpgm`, `s_barrier`, `s_waitcnt`, `s_sleep`.
    op_nop: Constant<Bits<8>>,
    op_end: Constant<Bits<8>>,
    op_barrier: Constant<Bits<8>>,
    op_waitcnt: Constant<Bits<8>>,
    op_sleep: Constant<Bits<8>>,
    /// Splitting, merging or waiting for the merge partner.
    split: Signal<Local, Bit>,
    /// States: READY, SPLITTING, MERGE_WAIT, MERGING (every other code is absent).
    st_ready: Constant<Bits<3>>,
    st_splitting: Constant<Bits<3>>,
    st_merge_wait: Constant<Bits<3>>,
    st_merging: Constant<Bits<3>>,
    /// Stall reasons.
    r_struct: Constant<Bits<3>>,
    r_dep: Constant<Bits<3>>,
    r_waitcnt: Constant<Bits<3>>,
    r_barrier: Constant<Bits<3>>,
    r_split: Constant<Bits<3>>,
    r_idle: Constant<Bits<3>>,
    z4: Constant<Bits<4>>,
    /// `s_nop`'s and `s_sleep`'s immediate fields; `s_sleep 0`'s 64 cycles.
    mf: Constant<Bits<16>>,
    m7f: Constant<Bits<16>>,
    k64: Constant<Bits<16>>,
    z8: Constant<Bits<8>>,
    z16: Constant<Bits<16>>,
    one8: Constant<Bits<8>>,
    one16: Constant<Bits<16>>,
}

impl Default for IssueCtx {
    fn default() -> Self {
        use crate::isa::insn_model::unit;
        use crate::pws::State;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            stop: Default::default(),
            bar_release: Default::default(),
            hold: Default::default(),
            gport_free: Default::default(),
            vm_ret: Default::default(),
            lgkm_ret: Default::default(),
            unit: Default::default(),
            opcode: Default::default(),
            imm: Default::default(),
            illegal: Default::default(),
            state: Default::default(),
            granted: Default::default(),
            lat_salu: Default::default(),
            lat_valu: Default::default(),
            lat_branch: Default::default(),
            split_on: Default::default(),
            pipe_mem: Default::default(),
            pipe_lds: Default::default(),
            port_free: Default::default(),
            idu_on: Default::default(),
            idu_ok: Default::default(),
            idu_wait: Default::default(),
            valu_busy: Default::default(),
            o_mem: Default::default(),
            o_lds: Default::default(),
            o_port: Default::default(),
            eligible: Default::default(),
            eligible_free: Default::default(),
            n_mem: Default::default(),
            n_lds: Default::default(),
            n_port: Default::default(),
            present: Default::default(),
            reason: Default::default(),
            valu_issue: Default::default(),
            live: Default::default(),
            barrier: Default::default(),
            dep: Default::default(),
            vmcnt: Default::default(),
            lgkmcnt: Default::default(),
            live_r: Default::default(),
            barrier_r: Default::default(),
            dep_r: Default::default(),
            vm_r: Default::default(),
            lgkm_r: Default::default(),
            structural: Default::default(),
            wc_wait: Default::default(),
            reason_free: Default::default(),
            lat: Default::default(),
            sleep: Default::default(),
            u_valu: k(unit::VALU.into()),
            u_vmem: k(unit::VMEM.into()),
            u_smem: k(unit::SMEM.into()),
            u_lds: k(unit::LDS.into()),
            u_branch: k(unit::BRANCH.into()),
            u_pws: k(unit::PWS.into()),
            u_sync: k(unit::SYNC.into()),
            u_program: k(unit::PROGRAM.into()),
            op_nop: k(0x00),
            op_end: k(0x01),
            op_barrier: k(0x0A),
            op_waitcnt: k(0x0C),
            op_sleep: k(0x0E),
            split: Default::default(),
            st_ready: k(State::Ready as u64),
            st_splitting: k(State::Splitting as u64),
            st_merge_wait: k(State::MergeWait as u64),
            st_merging: k(State::Merging as u64),
            r_struct: k(super::super::stall::STRUCTURAL.into()),
            r_dep: k(super::super::stall::DEPENDENCY.into()),
            r_waitcnt: k(super::super::stall::WAITCNT.into()),
            r_barrier: k(super::super::stall::BARRIER.into()),
            r_split: k(super::super::stall::SPLIT_MERGE.into()),
            r_idle: k(super::super::stall::IDLE.into()),
            z4: k(0),
            mf: k(0xF),
            m7f: k(0x7F),
            k64: k(64),
            z8: k(0),
            z16: k(0),
            one8: k(1),
            one16: k(1),
        }
    }
}

impl Logic for IssueCtx {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, live_r, barrier_r, dep_r, vm_r, lgkm_r);
        // This cycle's events on the registers: a start beats the rest; returns saturate.
        self.live.next = self.live_r.q.val() & !self.stop.val();
        self.barrier.next = self.barrier_r.q.val() & !self.bar_release.val();
        self.dep.next = self.dep_r.q.val();
        self.vmcnt.next = self.z8.val();
        if self.vm_r.q.val() > self.vm_ret.val() {
            self.vmcnt.next = self.vm_r.q.val() - self.vm_ret.val();
        }
        self.lgkmcnt.next = self.z8.val();
        if self.lgkm_r.q.val() > self.lgkm_ret.val() {
            self.lgkmcnt.next = self.lgkm_r.q.val() - self.lgkm_ret.val();
        }
        if self.start.val() {
            self.live.next = true;
            self.barrier.next = false;
            self.dep.next = self.z16.val();
            self.vmcnt.next = self.z8.val();
            self.lgkmcnt.next = self.z8.val();
        }
        // The shared resources the next instruction needs, and its hazards by its unit.
        self.n_mem.next =
            (self.unit.val() == self.u_vmem.val()) | (self.unit.val() == self.u_smem.val());
        self.n_lds.next = self.unit.val() == self.u_lds.val();
        self.n_port.next = ((self.unit.val() == self.u_pws.val()) & self.split_on.val())
            | ((self.unit.val() == self.u_program.val())
                & (self.opcode.val() == self.op_end.val()));
        self.structural.next = (self.n_mem.val() & self.pipe_mem.val())
            | ((self.unit.val() == self.u_vmem.val()) & !self.gport_free.val())
            | (self.n_lds.val() & self.pipe_lds.val())
            | (self.n_port.val() & !self.port_free.val());
        if self.unit.val() == self.u_valu.val() {
            self.structural.next = self.valu_busy.val();
            if self.idu_on.val() {
                self.structural.next = !self.idu_ok.val();
            }
        }
        self.wc_wait.next = (self.unit.val() == self.u_sync.val())
            & (self.opcode.val() == self.op_waitcnt.val())
            & ((self.vmcnt.val().get_bits::<4>(4) != self.z4.val())
                | (self.vmcnt.val().get_bits::<4>(0) > self.imm.val().get_bits::<4>(0))
                | (self.lgkmcnt.val().get_bits::<4>(4) != self.z4.val())
                | (self.lgkmcnt.val().get_bits::<4>(0) > self.imm.val().get_bits::<4>(8)));
        // The rules, lowest priority first (a later one overrides).
        self.eligible_free.next = true;
        self.reason_free.next = self.r_idle.val();
        if self.structural.val() {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_struct.val();
        }
        if self.wc_wait.val() {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_waitcnt.val();
        }
        if self.illegal.val() {
            self.eligible_free.next = true;
            self.reason_free.next = self.r_idle.val();
        }
        if self.dep.val() != self.z16.val() {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_dep.val();
        }
        if self.barrier.val() | self.hold.val() {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_barrier.val();
        }
        self.split.next = (self.state.val() == self.st_splitting.val())
            | (self.state.val() == self.st_merge_wait.val())
            | (self.state.val() == self.st_merging.val());
        if self.split.val() {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_split.val();
        }
        if !self.live.val() | ((self.state.val() != self.st_ready.val()) & !self.split.val()) {
            self.eligible_free.next = false;
            self.reason_free.next = self.r_idle.val();
        }
        self.present.next =
            self.eligible_free.val() | (self.reason_free.val() < self.r_barrier.val());
        // What an earlier unit took stalls an eligible, legal instruction (a structural
        // stall, the lowest rule: `present` stays as it is).
        self.eligible.next = self.eligible_free.val();
        self.reason.next = self.reason_free.val();
        if self.eligible_free.val()
            & ((self.n_mem.val() & self.o_mem.val())
                | (self.n_lds.val() & self.o_lds.val())
                | (self.n_port.val() & self.o_port.val()))
            & !self.illegal.val()
        {
            self.eligible.next = false;
            self.reason.next = self.r_struct.val();
        }
        // The latency of the next instruction.
        self.sleep.next = (self.imm.val() & self.m7f.val()) << 6;
        if (self.imm.val() & self.m7f.val()) == self.z16.val() {
            self.sleep.next = self.k64.val();
        }
        self.lat.next = self.lat_salu.val();
        if self.unit.val() == self.u_valu.val() {
            self.lat.next = self.lat_valu.val();
            if self.idu_on.val() {
                self.lat.next = self.idu_wait.val();
            }
        }
        if (self.unit.val() == self.u_vmem.val())
            | (self.unit.val() == self.u_smem.val())
            | (self.unit.val() == self.u_lds.val())
        {
            self.lat.next = self.one16.val();
        }
        if self.unit.val() == self.u_branch.val() {
            self.lat.next = self.lat_branch.val();
        }
        if self.unit.val() == self.u_program.val() {
            if self.opcode.val() == self.op_nop.val() {
                self.lat.next = self.one16.val() + (self.imm.val() & self.mf.val());
            }
            if self.opcode.val() == self.op_sleep.val() {
                self.lat.next = self.sleep.val();
            }
        }
        // The edge: count down, or the issue's latency and counters.
        self.live_r.d.next = self.live.val();
        self.barrier_r.d.next = self.barrier.val();
        self.vm_r.d.next = self.vmcnt.val();
        self.lgkm_r.d.next = self.lgkmcnt.val();
        self.dep_r.d.next = self.z16.val();
        if self.dep.val() != self.z16.val() {
            self.dep_r.d.next = self.dep.val() - self.one16.val();
        }
        self.valu_issue.next = false;
        if self.granted.val() & !self.illegal.val() {
            self.valu_issue.next = self.unit.val() == self.u_valu.val();
            self.dep_r.d.next = self.z16.val();
            if self.lat.val() != self.z16.val() {
                self.dep_r.d.next = self.lat.val() - self.one16.val();
            }
            if self.unit.val() == self.u_vmem.val() {
                self.vm_r.d.next = self.vmcnt.val() + self.one8.val();
            }
            if (self.unit.val() == self.u_smem.val()) | (self.unit.val() == self.u_lds.val()) {
                self.lgkm_r.d.next = self.lgkmcnt.val() + self.one8.val();
            }
            if (self.unit.val() == self.u_sync.val()) & (self.opcode.val() == self.op_barrier.val())
            {
                self.barrier_r.d.next = true;
            }
            if (self.unit.val() == self.u_program.val())
                & (self.opcode.val() != self.op_nop.val())
                & (self.opcode.val() != self.op_sleep.val())
            {
                self.live_r.d.next = false;
            }
        }
        if self.reset.val() {
            self.live_r.d.next = false;
            self.barrier_r.d.next = false;
            self.dep_r.d.next = self.z16.val();
            self.vm_r.d.next = self.z8.val();
            self.lgkm_r.d.next = self.z8.val();
        }
    }
}
