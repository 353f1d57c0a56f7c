//! The dispatcher's top: the launch registers, the resident entries, the pending queue and
//! the round-robin pointer; admission (up to `G` stages, each taking the lowest free entry)
//! then the `G` sending steps, both unrolled.
//!
//! The pending wavefronts are held as a circular queue of `G` resident entries (the
//! work-groups with wavefronts to start, oldest first), the number of wavefronts of the head
//! already started, and the count of pending wavefronts: the queue never holds more than `G`
//! work-groups (docs/assumptions.md#A94).

use super::free_slots::FreeSlots;
use crate::hdl::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// The work-group dispatcher for `G` SIMD groups of `S` slots with `R` resident entries (the
/// contract: [`crate::dispatch`]).
#[derive(LogicBlock)]
pub struct Dispatch<const G: usize, const S: usize, const R: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every register cleared.
    pub reset: Signal<In, Bit>,
    /// A launch: the edge loads `wg_first`, `wg_end`, `wg_stride`, `waves`, `max_res`.
    pub start: Signal<In, Bit>,
    /// The first work-group id (with `start`).
    pub wg_first: Signal<In, Bits<32>>,
    /// One past the last work-group id (with `start`).
    pub wg_end: Signal<In, Bits<32>>,
    /// The id step (with `start`).
    pub wg_stride: Signal<In, Bits<32>>,
    /// Wavefronts per work-group (with `start`).
    pub waves: Signal<In, Bits<8>>,
    /// Resident work-groups allowed (with `start`; at least `R`: `R`).
    pub max_res: Signal<In, Bits<8>>,
    /// Work-groups below this id may be admitted (every cycle).
    pub limit: Signal<In, Bits<32>>,
    /// Bit `s` of `free[g]`: slot `s` of SIMD group `g` is free (every cycle).
    pub free: [Signal<In, Bits<S>>; G],
    /// SIMD group `g` can take a DISPATCH (every cycle).
    pub port_free: [Signal<In, Bit>; G],
    /// Wavefronts of resident entry `r` that ended this cycle.
    pub ended: [Signal<In, Bits<8>>; R],
    /// A wavefront starts in SIMD group `g` this cycle.
    pub send: [Signal<Out, Bit>; G],
    /// Its slot.
    pub send_slot: [Signal<Out, Bits<8>>; G],
    /// Its resident entry.
    pub send_wi: [Signal<Out, Bits<8>>; G],
    /// Its wave index in the work-group.
    pub send_wave: [Signal<Out, Bits<8>>; G],
    /// Its work-group id.
    pub send_wg: [Signal<Out, Bits<32>>; G],
    /// Entry `r` took a work-group this cycle.
    pub admitted: [Signal<Out, Bit>; R],
    /// Entry `r` holds a work-group.
    pub resident: [Signal<Out, Bit>; R],
    /// Entry `r`'s wavefronts not yet ended.
    pub live: [Signal<Out, Bits<8>>; R],
    /// Wavefronts admitted and not started.
    pub pending: Signal<Out, Bits<8>>,
    /// The next work-group id to admit.
    pub next_wg: Signal<Out, Bits<32>>,
    /// Every work-group admitted and every wavefront started.
    pub finished: Signal<Out, Bit>,
    /// The free-slot summary.
    slots: FreeSlots<G, S>,
    /// The next work-group id.
    next_r: DFF<Bits<32>>,
    /// The launch's end.
    end_r: DFF<Bits<32>>,
    /// The launch's stride.
    stride_r: DFF<Bits<32>>,
    /// The launch's wavefronts per work-group.
    waves_r: DFF<Bits<8>>,
    /// The launch's resident work-groups allowed.
    max_r: DFF<Bits<8>>,
    /// The SIMD group the sending starts at.
    simd_r: DFF<Bits<8>>,
    /// Entry `r` holds a work-group.
    act_r: [DFF<Bit>; R],
    /// Entry `r`'s live wavefronts.
    live_r: [DFF<Bits<8>>; R],
    /// Entry `r`'s work-group id.
    id_r: [DFF<Bits<32>>; R],
    /// The pending queue: resident entries.
    q_r: [DFF<Bits<8>>; G],
    /// The queue's head.
    qh_r: DFF<Bits<8>>,
    /// Work-groups in the queue.
    qn_r: DFF<Bits<8>>,
    /// Wavefronts of the head work-group already started.
    sent_r: DFF<Bits<8>>,
    /// Pending wavefronts.
    pend_r: DFF<Bits<8>>,
    /// Neither `start` nor `reset`: the cycle admits and sends.
    go: Signal<Local, Bit>,
    /// Admission still going (every earlier stage admitted).
    ok: Signal<Local, Bit>,
    /// A stage found a free entry below `max_res`.
    found: Signal<Local, Bit>,
    /// The entry it found.
    e: Signal<Local, Bits<8>>,
    /// The queue position a stage writes.
    tail: Signal<Local, Bits<8>>,
    /// The running next id.
    nx: Signal<Local, Bits<32>>,
    /// The running pending count.
    pd: Signal<Local, Bits<8>>,
    /// The running queue head.
    qh: Signal<Local, Bits<8>>,
    /// The running queue length.
    qn: Signal<Local, Bits<8>>,
    /// The running count of the head's started wavefronts.
    sent: Signal<Local, Bits<8>>,
    /// Entry `r` resident after admission.
    a_act: [Signal<Local, Bit>; R],
    /// Entry `r`'s live count after admission.
    a_live: [Signal<Local, Bits<8>>; R],
    /// Entry `r`'s id after admission.
    a_id: [Signal<Local, Bits<32>>; R],
    /// The queue after admission.
    a_q: [Signal<Local, Bits<8>>; G],
    /// The SIMD group of a sending step.
    gsel: Signal<Local, Bits<8>>,
    /// That group has a free slot.
    p_any: Signal<Local, Bit>,
    /// That group's port is free.
    p_port: Signal<Local, Bit>,
    /// That group's lowest free slot.
    p_slot: Signal<Local, Bits<8>>,
    /// The round-robin pointer after the edge.
    sn: Signal<Local, Bits<8>>,
    /// The head work-group's entry.
    hw: Signal<Local, Bits<8>>,
    /// The head work-group's id.
    hid: Signal<Local, Bits<32>>,
    /// Group indices.
    kg: [Constant<Bits<8>>; G],
    /// Entry indices.
    kr: [Constant<Bits<8>>; R],
    /// `G`.
    kgn: Constant<Bits<8>>,
    /// Sized zero.
    z8: Constant<Bits<8>>,
    /// Sized zero.
    z32: Constant<Bits<32>>,
    /// Sized one.
    one: Constant<Bits<8>>,
}

impl<const G: usize, const S: usize, const R: usize> Default for Dispatch<G, S, R> {
    fn default() -> Self {
        assert!((1..=8).contains(&G), "G = {G} SIMD groups is outside 1..=8");
        assert!((1..=64).contains(&R), "R = {R} entries is outside 1..=64");
        assert!(G * S <= 128, "G × S = {} slots is above 128", G * S);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            wg_first: Default::default(),
            wg_end: Default::default(),
            wg_stride: Default::default(),
            waves: Default::default(),
            max_res: Default::default(),
            limit: Default::default(),
            free: array_init(|_| Default::default()),
            port_free: array_init(|_| Default::default()),
            ended: array_init(|_| Default::default()),
            send: array_init(|_| Default::default()),
            send_slot: array_init(|_| Default::default()),
            send_wi: array_init(|_| Default::default()),
            send_wave: array_init(|_| Default::default()),
            send_wg: array_init(|_| Default::default()),
            admitted: array_init(|_| Default::default()),
            resident: array_init(|_| Default::default()),
            live: array_init(|_| Default::default()),
            pending: Default::default(),
            next_wg: Default::default(),
            finished: Default::default(),
            slots: Default::default(),
            next_r: Default::default(),
            end_r: Default::default(),
            stride_r: Default::default(),
            waves_r: Default::default(),
            max_r: Default::default(),
            simd_r: Default::default(),
            act_r: array_init(|_| Default::default()),
            live_r: array_init(|_| Default::default()),
            id_r: array_init(|_| Default::default()),
            q_r: array_init(|_| Default::default()),
            qh_r: Default::default(),
            qn_r: Default::default(),
            sent_r: Default::default(),
            pend_r: Default::default(),
            go: Default::default(),
            ok: Default::default(),
            found: Default::default(),
            e: Default::default(),
            tail: Default::default(),
            nx: Default::default(),
            pd: Default::default(),
            qh: Default::default(),
            qn: Default::default(),
            sent: Default::default(),
            a_act: array_init(|_| Default::default()),
            a_live: array_init(|_| Default::default()),
            a_id: array_init(|_| Default::default()),
            a_q: array_init(|_| Default::default()),
            gsel: Default::default(),
            p_any: Default::default(),
            p_port: Default::default(),
            p_slot: Default::default(),
            sn: Default::default(),
            hw: Default::default(),
            hid: Default::default(),
            kg: array_init(|g| k(g as u64)),
            kr: array_init(|r| k(r as u64)),
            kgn: k(G as u64),
            z8: k(0),
            z32: k(0),
            one: k(1),
        }
    }
}

impl<const G: usize, const S: usize, const R: usize> Logic for Dispatch<G, S, R> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, next_r, end_r, stride_r, waves_r, max_r, simd_r, qh_r, qn_r, sent_r,
            pend_r
        );
        for g in 0..G {
            self.slots.free[g].next = self.free[g].val();
            self.q_r[g].clock.next = self.clock.val();
            self.a_q[g].next = self.q_r[g].q.val();
            self.send[g].next = false;
            self.send_slot[g].next = self.z8.val();
            self.send_wi[g].next = self.z8.val();
            self.send_wave[g].next = self.z8.val();
            self.send_wg[g].next = self.z32.val();
        }
        for r in 0..R {
            self.act_r[r].clock.next = self.clock.val();
            self.live_r[r].clock.next = self.clock.val();
            self.id_r[r].clock.next = self.clock.val();
            self.a_act[r].next = self.act_r[r].q.val();
            self.a_live[r].next = self.live_r[r].q.val();
            self.a_id[r].next = self.id_r[r].q.val();
            self.admitted[r].next = false;
            self.resident[r].next = self.act_r[r].q.val();
            self.live[r].next = self.live_r[r].q.val();
        }
        self.go.next = !self.start.val() & !self.reset.val();
        self.nx.next = self.next_r.q.val();
        self.pd.next = self.pend_r.q.val();
        self.qh.next = self.qh_r.q.val();
        self.qn.next = self.qn_r.q.val();
        self.sent.next = self.sent_r.q.val();
        self.tail.next = self.z8.val();
        // Admission: stage after stage while every condition holds; each takes the lowest
        // free entry below `max_res` and appends it to the queue.
        self.ok.next = self.go.val() & (self.waves_r.q.val() != self.z8.val());
        for _stage in 0..G {
            self.found.next = false;
            self.e.next = self.z8.val();
            for r in 0..R {
                if !self.found.val()
                    & !self.a_act[r].val()
                    & (self.kr[r].val() < self.max_r.q.val())
                {
                    self.found.next = true;
                    self.e.next = self.kr[r].val();
                }
            }
            self.ok.next = self.ok.val()
                & self.found.val()
                & (self.nx.val() < self.end_r.q.val())
                & (self.nx.val() < self.limit.val())
                & (self.pd.val() < self.kgn.val())
                & (self.slots.total.val() >= self.pd.val())
                & ((self.slots.total.val() - self.pd.val()) >= self.waves_r.q.val());
            if self.ok.val() {
                for r in 0..R {
                    if self.e.val() == self.kr[r].val() {
                        self.a_act[r].next = true;
                        self.a_live[r].next = self.waves_r.q.val();
                        self.a_id[r].next = self.nx.val();
                        self.admitted[r].next = true;
                    }
                }
                self.tail.next = self.qh.val() + self.qn.val();
                if self.tail.val() >= self.kgn.val() {
                    self.tail.next = self.tail.val() - self.kgn.val();
                }
                for g in 0..G {
                    if self.tail.val() == self.kg[g].val() {
                        self.a_q[g].next = self.e.val();
                    }
                }
                self.qn.next = self.qn.val() + self.one.val();
                self.pd.next = self.pd.val() + self.waves_r.q.val();
                self.nx.next = self.nx.val() + self.stride_r.q.val();
            }
        }
        // Sending: group next_simd + j takes the head wavefront if it has a free slot and
        // its port is free.
        self.gsel.next = self.simd_r.q.val();
        for _step in 0..G {
            self.p_any.next = false;
            self.p_port.next = false;
            self.p_slot.next = self.z8.val();
            for g in 0..G {
                if self.gsel.val() == self.kg[g].val() {
                    self.p_any.next = self.slots.any[g].val();
                    self.p_port.next = self.port_free[g].val();
                    self.p_slot.next = self.slots.first[g].val();
                }
            }
            self.hw.next = self.z8.val();
            for g in 0..G {
                if self.qh.val() == self.kg[g].val() {
                    self.hw.next = self.a_q[g].val();
                }
            }
            self.hid.next = self.z32.val();
            for r in 0..R {
                if self.hw.val() == self.kr[r].val() {
                    self.hid.next = self.a_id[r].val();
                }
            }
            if self.go.val()
                & (self.pd.val() != self.z8.val())
                & self.p_any.val()
                & self.p_port.val()
            {
                for g in 0..G {
                    if self.gsel.val() == self.kg[g].val() {
                        self.send[g].next = true;
                        self.send_slot[g].next = self.p_slot.val();
                        self.send_wi[g].next = self.hw.val();
                        self.send_wave[g].next = self.sent.val();
                        self.send_wg[g].next = self.hid.val();
                    }
                }
                self.pd.next = self.pd.val() - self.one.val();
                self.sent.next = self.sent.val() + self.one.val();
                if self.sent.val() == self.waves_r.q.val() {
                    self.sent.next = self.z8.val();
                    self.qn.next = self.qn.val() - self.one.val();
                    self.qh.next = self.qh.val() + self.one.val();
                    if self.qh.val() == self.kgn.val() {
                        self.qh.next = self.z8.val();
                    }
                }
            }
            self.gsel.next = self.gsel.val() + self.one.val();
            if self.gsel.val() == self.kgn.val() {
                self.gsel.next = self.z8.val();
            }
        }
        // The edge: the cycle's admissions and sends, the round-robin pointer, the ends.
        self.next_r.d.next = self.nx.val();
        self.pend_r.d.next = self.pd.val();
        self.qh_r.d.next = self.qh.val();
        self.qn_r.d.next = self.qn.val();
        self.sent_r.d.next = self.sent.val();
        self.sn.next = self.simd_r.q.val() + self.one.val();
        if self.sn.val() == self.kgn.val() {
            self.sn.next = self.z8.val();
        }
        self.simd_r.d.next = self.sn.val();
        for g in 0..G {
            self.q_r[g].d.next = self.a_q[g].val();
        }
        for r in 0..R {
            self.act_r[r].d.next = self.a_act[r].val();
            self.live_r[r].d.next = self.a_live[r].val();
            self.id_r[r].d.next = self.a_id[r].val();
            if self.act_r[r].q.val() {
                self.live_r[r].d.next = self.live_r[r].q.val() - self.ended[r].val();
                if self.ended[r].val() >= self.live_r[r].q.val() {
                    self.act_r[r].d.next = false;
                    self.live_r[r].d.next = self.z8.val();
                }
            }
        }
        // A launch loads the launch registers over a cleared state; a reset clears it all.
        if !self.go.val() {
            self.next_r.d.next = self.wg_first.val();
            self.end_r.d.next = self.wg_end.val();
            self.stride_r.d.next = self.wg_stride.val();
            self.waves_r.d.next = self.waves.val();
            self.max_r.d.next = self.max_res.val();
            self.simd_r.d.next = self.z8.val();
            self.pend_r.d.next = self.z8.val();
            self.qh_r.d.next = self.z8.val();
            self.qn_r.d.next = self.z8.val();
            self.sent_r.d.next = self.z8.val();
            for g in 0..G {
                self.q_r[g].d.next = self.z8.val();
            }
            for r in 0..R {
                self.act_r[r].d.next = false;
                self.live_r[r].d.next = self.z8.val();
                self.id_r[r].d.next = self.z32.val();
            }
        }
        if self.reset.val() {
            self.next_r.d.next = self.z32.val();
            self.end_r.d.next = self.z32.val();
            self.stride_r.d.next = self.z32.val();
            self.waves_r.d.next = self.z8.val();
            self.max_r.d.next = self.z8.val();
        }
        self.pending.next = self.pend_r.q.val();
        self.next_wg.next = self.next_r.q.val();
        self.finished.next =
            (self.next_r.q.val() >= self.end_r.q.val()) & (self.pend_r.q.val() == self.z8.val());
    }
}
