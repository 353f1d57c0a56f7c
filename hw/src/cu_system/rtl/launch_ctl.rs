//! A launch from the doorbell to its end: the grid's division, the launch checks, the compute
//! unit's `launch`, `STATUS` and the counters the system keeps.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The doorbell starts the divider (`div_start`); when it is done the checks' `info` decides:
/// 0 raises `launch` for one cycle, any other value ends the launch in `bad_launch` with that
/// information code. `status`: 0 idle (no doorbell since reset or stop), 1 busy (dividing or
/// the compute unit busy), 2 done, 3 error (`bad` or the compute unit's fault). `cycles` counts
/// the compute unit's busy cycles, `insts` its issues, `splits` its splits carried out (the
/// compute unit's `copy` probe, which shows a child's copy only while the unit runs); each
/// restarts at the
/// doorbell and is 0 after reset.
#[derive(LogicBlock)]
pub struct LaunchCtl {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Reset (power-on or the `CTRL` reset bit): idle, counters 0.
    pub reset: Signal<In, Bit>,
    /// The register map's doorbell.
    pub doorbell: Signal<In, Bit>,
    /// The divider is running.
    pub div_busy: Signal<In, Bit>,
    /// The launch checks' result (0: start).
    pub info: Signal<In, Bits<32>>,
    /// The compute unit runs a launch.
    pub cu_busy: Signal<In, Bit>,
    /// The compute unit's launch stopped on a fault.
    pub cu_fault: Signal<In, Bit>,
    /// The compute unit's issue unit `u` issues an instruction that counts this cycle (not an
    /// illegal word or a PC past the code; the two-unit system ties units 2 and 3 off).
    pub issue: [Signal<In, Bit>; 4],
    /// The compute unit copies a split's parent into its child this cycle, while it runs.
    pub split: Signal<In, Bit>,
    /// Start the divider.
    pub div_start: Signal<Out, Bit>,
    /// The compute unit's `launch`.
    pub launch: Signal<Out, Bit>,
    /// `STATUS`.
    pub status: Signal<Out, Bits<2>>,
    /// The last doorbell was refused by the checks.
    pub bad: Signal<Out, Bit>,
    /// Its check's number.
    pub bad_info: Signal<Out, Bits<32>>,
    /// Launch cycles (counter 0).
    pub cycles: Signal<Out, Bits<64>>,
    /// Instructions issued (counter 1).
    pub insts: Signal<Out, Bits<64>>,
    /// Splits carried out (the `splits` counter).
    pub splits: Signal<Out, Bits<64>>,
    /// A doorbell since reset.
    started: DFF<Bit>,
    /// The doorbell waits for the divider.
    pending: DFF<Bit>,
    bad_q: DFF<Bit>,
    info_q: DFF<Bits<32>>,
    cyc: DFF<Bits<64>>,
    ins: DFF<Bits<64>>,
    /// The instruction count after this cycle's first unit.
    ins_1: Signal<Local, Bits<64>>,
    /// After its second.
    ins_2: Signal<Local, Bits<64>>,
    /// After its third.
    ins_3: Signal<Local, Bits<64>>,
    spl: DFF<Bits<64>>,
    /// The divider has finished for a pending doorbell.
    decide: Signal<Local, Bit>,
    one: Constant<Bits<64>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
    st: [Constant<Bits<2>>; 4],
}

impl Default for LaunchCtl {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            doorbell: Default::default(),
            div_busy: Default::default(),
            info: Default::default(),
            cu_busy: Default::default(),
            cu_fault: Default::default(),
            issue: array_init::array_init(|_| Default::default()),
            div_start: Default::default(),
            launch: Default::default(),
            status: Default::default(),
            bad: Default::default(),
            bad_info: Default::default(),
            cycles: Default::default(),
            insts: Default::default(),
            split: Default::default(),
            splits: Default::default(),
            spl: Default::default(),
            started: Default::default(),
            pending: Default::default(),
            bad_q: Default::default(),
            info_q: Default::default(),
            cyc: Default::default(),
            ins: Default::default(),
            ins_1: Default::default(),
            ins_2: Default::default(),
            ins_3: Default::default(),
            decide: Default::default(),
            one: k(1),
            z32: k(0),
            z64: k(0),
            st: array_init::array_init(|i| k(i as u64)),
        }
    }
}

impl Logic for LaunchCtl {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, started, pending, bad_q, info_q, cyc, ins, spl);
        self.decide.next = self.pending.q.val() & !self.div_busy.val();
        self.div_start.next = self.doorbell.val();
        self.launch.next = self.decide.val() & (self.info.val() == self.z32.val());
        if self.decide.val() {
            self.pending.d.next = false;
            self.bad_q.d.next = self.info.val() != self.z32.val();
            self.info_q.d.next = self.info.val();
        }
        if self.cu_busy.val() {
            self.cyc.d.next = self.cyc.q.val() + self.one.val();
        }
        self.ins_1.next = self.ins.q.val();
        if self.issue[0].val() {
            self.ins_1.next = self.ins.q.val() + self.one.val();
        }
        self.ins_2.next = self.ins_1.val();
        if self.issue[1].val() {
            self.ins_2.next = self.ins_1.val() + self.one.val();
        }
        self.ins_3.next = self.ins_2.val();
        if self.issue[2].val() {
            self.ins_3.next = self.ins_2.val() + self.one.val();
        }
        self.ins.d.next = self.ins_3.val();
        if self.issue[3].val() {
            self.ins.d.next = self.ins_3.val() + self.one.val();
        }
        if self.split.val() {
            self.spl.d.next = self.spl.q.val() + self.one.val();
        }
        if self.doorbell.val() {
            self.started.d.next = true;
            self.pending.d.next = true;
            self.bad_q.d.next = false;
            self.cyc.d.next = self.z64.val();
            self.ins.d.next = self.z64.val();
            self.spl.d.next = self.z64.val();
        }
        if self.reset.val() {
            self.started.d.next = false;
            self.pending.d.next = false;
            self.bad_q.d.next = false;
            self.cyc.d.next = self.z64.val();
            self.ins.d.next = self.z64.val();
            self.spl.d.next = self.z64.val();
        }
        self.status.next = self.st[2].val();
        if self.bad_q.q.val() | self.cu_fault.val() {
            self.status.next = self.st[3].val();
        }
        if self.pending.q.val() | self.cu_busy.val() {
            self.status.next = self.st[1].val();
        }
        if !self.started.q.val() {
            self.status.next = self.st[0].val();
        }
        self.bad.next = self.bad_q.q.val();
        self.bad_info.next = self.info_q.q.val();
        self.cycles.next = self.cyc.q.val();
        self.insts.next = self.ins.q.val();
        self.splits.next = self.spl.q.val();
    }
}
