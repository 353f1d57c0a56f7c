//! The rank-level timing bounds (tCCD_S, tRRD_S, the four-deep tFAW window, tRFC) as
//! down-counters, and refresh (the Sim-D paper's rule 6): one REF owed every tREFI, issued only
//! between requests with every bank closed and quiet, at most 8 owed.

use crate::dram::Part;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The rank timers and the refresh counter of [`crate::dram::DramCtrl`].
#[derive(LogicBlock)]
pub struct RankTimers {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: bounds 0, nothing owed, the tREFI counter at its phase.
    pub reset: Signal<In, Bit>,
    /// The arbiter issues a command in this cycle.
    pub any: Signal<In, Bit>,
    /// ... an ACT.
    pub is_act: Signal<In, Bit>,
    /// ... a CAS.
    pub is_cas: Signal<In, Bit>,
    /// A request is being served.
    pub busy: Signal<In, Bit>,
    /// Every bank FIFO is empty.
    pub all_empty: Signal<In, Bit>,
    /// Every bank is closed.
    pub all_closed: Signal<In, Bit>,
    /// No bank waits for its ACT bound.
    pub settled: Signal<In, Bit>,
    /// A CAS may issue now (tCCD_S has run out).
    pub cas_ok: Signal<Out, Bit>,
    /// An ACT may issue now (tRRD_S, tFAW and tRFC have run out).
    pub act_ok: Signal<Out, Bit>,
    /// tRFC ends within 3 cycles (a request may complete).
    pub rfc_ending: Signal<Out, Bit>,
    /// A REF issues in this cycle.
    pub ref_go: Signal<Out, Bit>,
    /// Refreshes owed.
    pub owed: Signal<Out, Bits<4>>,
    /// A ninth refresh fell due (sticky).
    pub overflow: Signal<Out, Bit>,
    /// tCCD_S bound: cycles until the next CAS.
    ccd_s: DFF<Bits<8>>,
    /// tRRD_S bound: cycles until the next ACT.
    rrd_s: DFF<Bits<8>>,
    /// The tFAW window: the bounds of the last four ACTs, newest first.
    faw: [DFF<Bits<8>>; 4],
    /// tRFC bound: cycles until the refresh ends.
    rfc: DFF<Bits<10>>,
    /// The tREFI counter.
    ref_cnt: DFF<Bits<14>>,
    /// Refreshes owed.
    owed_r: DFF<Bits<4>>,
    /// A ninth refresh fell due.
    overflow_r: DFF<Bit>,
    /// A refresh falls due at this edge.
    ref_due: Signal<Local, Bit>,
    /// `ccd_s` counted down.
    ccd_d: Signal<Local, Bits<8>>,
    /// `rrd_s` counted down.
    rrd_d: Signal<Local, Bits<8>>,
    /// The tFAW window counted down.
    faw_d: [Signal<Local, Bits<8>>; 4],
    /// `rfc` counted down.
    rfc_d: Signal<Local, Bits<10>>,
    /// tCCD_S − 1.
    ccd_s1: Constant<Bits<8>>,
    /// tRRD_S − 1.
    rrd_s1: Constant<Bits<8>>,
    /// tFAW − 1.
    faw1: Constant<Bits<8>>,
    /// tRFC − 1.
    rfc1: Constant<Bits<10>>,
    /// tREFI − 1.
    refi1: Constant<Bits<14>>,
    /// The tREFI counter's value after reset.
    phase: Constant<Bits<14>>,
    /// Sized 3, 10 bits.
    three10: Constant<Bits<10>>,
    /// Sized 1, 4 bits.
    one4: Constant<Bits<4>>,
    /// Sized 1, 8 bits.
    one8: Constant<Bits<8>>,
    /// Sized 1, 10 bits.
    one10: Constant<Bits<10>>,
    /// Sized 1, 14 bits.
    one14: Constant<Bits<14>>,
    /// Sized 8, 4 bits.
    eight4: Constant<Bits<4>>,
    /// Sized zero, 4 bits.
    zero4: Constant<Bits<4>>,
    /// Sized zero, 8 bits.
    zero8: Constant<Bits<8>>,
    /// Sized zero, 10 bits.
    zero10: Constant<Bits<10>>,
    /// Sized zero, 14 bits.
    zero14: Constant<Bits<14>>,
}

impl RankTimers {
    /// The timers of `part`, the tREFI counter starting at `refresh_phase` after reset.
    pub fn new(part: &Part, refresh_phase: u16) -> Self {
        let t = |v: u16| v as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            any: Default::default(),
            is_act: Default::default(),
            is_cas: Default::default(),
            busy: Default::default(),
            all_empty: Default::default(),
            all_closed: Default::default(),
            settled: Default::default(),
            cas_ok: Default::default(),
            act_ok: Default::default(),
            rfc_ending: Default::default(),
            ref_go: Default::default(),
            owed: Default::default(),
            overflow: Default::default(),
            ccd_s: Default::default(),
            rrd_s: Default::default(),
            faw: array_init::array_init(|_| Default::default()),
            rfc: Default::default(),
            ref_cnt: Default::default(),
            owed_r: Default::default(),
            overflow_r: Default::default(),
            ref_due: Default::default(),
            ccd_d: Default::default(),
            rrd_d: Default::default(),
            faw_d: array_init::array_init(|_| Default::default()),
            rfc_d: Default::default(),
            ccd_s1: k(t(part.ccd_s) - 1),
            rrd_s1: k(t(part.rrd_s) - 1),
            faw1: k(t(part.faw) - 1),
            rfc1: k(t(part.rfc) - 1),
            refi1: k(t(part.refi) - 1),
            phase: k(refresh_phase as u64),
            three10: k(3),
            one4: k(1),
            one8: k(1),
            one10: k(1),
            one14: k(1),
            eight4: k(8),
            zero4: k(0),
            zero8: k(0),
            zero10: k(0),
            zero14: k(0),
        }
    }
}

impl Logic for RankTimers {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, ccd_s, rrd_s, rfc, ref_cnt, owed_r, overflow_r);
        for i in 0..4 {
            self.faw[i].clock.next = self.clock.val();
            self.faw[i].d.next = self.faw[i].q.val();
        }
        self.cas_ok.next = !self.ccd_s.q.val().any();
        self.act_ok.next =
            !self.rrd_s.q.val().any() & !self.faw[3].q.val().any() & !self.rfc.q.val().any();
        self.rfc_ending.next = self.rfc.q.val() < self.three10.val();
        // ---- Refresh (rule 6): between requests, everything closed and quiet.
        self.ref_go.next = !self.any.val()
            & self.owed_r.q.val().any()
            & !self.busy.val()
            & self.all_empty.val()
            & self.all_closed.val()
            & self.settled.val()
            & !self.rfc.q.val().any();
        self.ref_due.next = self.ref_cnt.q.val() == self.refi1.val();
        self.ref_cnt.d.next = self.ref_cnt.q.val() + self.one14.val();
        if self.ref_due.val() {
            self.ref_cnt.d.next = self.zero14.val();
        }
        if self.ref_due.val() & !self.ref_go.val() {
            if self.owed_r.q.val() == self.eight4.val() {
                self.overflow_r.d.next = true;
            } else {
                self.owed_r.d.next = self.owed_r.q.val() + self.one4.val();
            }
        }
        if self.ref_go.val() & !self.ref_due.val() {
            self.owed_r.d.next = self.owed_r.q.val() - self.one4.val();
        }
        // ---- Rank-level bounds.
        self.ccd_d.next = self.ccd_s.q.val();
        if self.ccd_s.q.val().any() {
            self.ccd_d.next = self.ccd_s.q.val() - self.one8.val();
        }
        self.rrd_d.next = self.rrd_s.q.val();
        if self.rrd_s.q.val().any() {
            self.rrd_d.next = self.rrd_s.q.val() - self.one8.val();
        }
        for i in 0..4 {
            self.faw_d[i].next = self.faw[i].q.val();
            if self.faw[i].q.val().any() {
                self.faw_d[i].next = self.faw[i].q.val() - self.one8.val();
            }
            self.faw[i].d.next = self.faw_d[i].val();
        }
        self.rfc_d.next = self.rfc.q.val();
        if self.rfc.q.val().any() {
            self.rfc_d.next = self.rfc.q.val() - self.one10.val();
        }
        self.ccd_s.d.next = self.ccd_d.val();
        self.rrd_s.d.next = self.rrd_d.val();
        self.rfc.d.next = self.rfc_d.val();
        if self.is_cas.val() & (self.ccd_s1.val() > self.ccd_d.val()) {
            self.ccd_s.d.next = self.ccd_s1.val();
        }
        if self.is_act.val() {
            if self.rrd_s1.val() > self.rrd_d.val() {
                self.rrd_s.d.next = self.rrd_s1.val();
            }
            self.faw[0].d.next = self.faw1.val();
            for i in 1..4 {
                self.faw[i].d.next = self.faw_d[i - 1].val();
            }
        }
        if self.ref_go.val() {
            self.rfc.d.next = self.rfc1.val();
        }
        if self.reset.val() {
            self.ccd_s.d.next = self.zero8.val();
            self.rrd_s.d.next = self.zero8.val();
            for i in 0..4 {
                self.faw[i].d.next = self.zero8.val();
            }
            self.rfc.d.next = self.zero10.val();
            self.ref_cnt.d.next = self.phase.val();
            self.owed_r.d.next = self.zero4.val();
            self.overflow_r.d.next = false;
        }
        self.owed.next = self.owed_r.q.val();
        self.overflow.next = self.overflow_r.q.val();
    }
}
