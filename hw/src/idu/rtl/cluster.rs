//! One working cluster behind the IDU (contract: [`super`], "The clusters"): a one-entry input
//! latch written in the dispatcher's clock domain and emptied in the cluster's own, and a
//! pipeline of `D` stages with an initiation interval.
//!
//! The latch crosses the two domains with a toggle pair: `put_t` flips (dispatcher clock) when
//! the dispatcher fills the latch, `got_t` flips (cluster clock) when the pipeline takes the
//! instruction; the latch is full while they differ. The model orders edges at the same
//! picosecond clusters first, which the system harness reproduces (a real design would add a
//! synchroniser and pay its latency in `ready`).

use crate::hdl::k;
use rust_hdl::prelude::*;

/// A cluster with a `D`-stage pipeline (1..=32).
#[derive(LogicBlock)]
pub struct Cluster<const D: usize> {
    /// The dispatcher's clock (the latch's write side).
    pub dclock: Signal<In, Clock>,
    /// The cluster's own clock (power-gated clusters get none).
    pub clock: Signal<In, Clock>,
    /// Dispatcher domain: fill the latch with `tag_in` at this dispatcher edge.
    pub put: Signal<In, Bit>,
    /// Dispatcher domain: the instruction's tag.
    pub tag_in: Signal<In, Bits<8>>,
    /// Initiation interval in cluster cycles (0 counts as 1); static while running.
    pub ii: Signal<In, Bits<4>>,
    /// The cluster works; a gated cluster is never ready.
    pub working: Signal<In, Bit>,
    /// The latch is empty (and the cluster works).
    pub ready: Signal<Out, Bit>,
    /// The last stage holds an instruction: it retires at the next cluster edge.
    pub retire: Signal<Out, Bit>,
    /// The retiring instruction's tag.
    pub retire_tag: Signal<Out, Bits<8>>,
    /// Some stage holds an instruction.
    pub busy: Signal<Out, Bit>,
    put_t: DFF<Bit>,
    tag_r: DFF<Bits<8>>,
    got_t: DFF<Bit>,
    hold: DFF<Bits<4>>,
    valid: [DFF<Bit>; D],
    tag: [DFF<Bits<8>>; D],
    full: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    zero4: Constant<Bits<4>>,
    one4: Constant<Bits<4>>,
}

impl<const D: usize> Default for Cluster<D> {
    fn default() -> Self {
        assert!((1..=32).contains(&D), "1 to 32 pipeline stages");
        Self {
            dclock: Default::default(),
            clock: Default::default(),
            put: Default::default(),
            tag_in: Default::default(),
            ii: Default::default(),
            working: Default::default(),
            ready: Default::default(),
            retire: Default::default(),
            retire_tag: Default::default(),
            busy: Default::default(),
            put_t: Default::default(),
            tag_r: Default::default(),
            got_t: Default::default(),
            hold: Default::default(),
            valid: array_init::array_init(|_| Default::default()),
            tag: array_init::array_init(|_| Default::default()),
            full: Default::default(),
            take: Default::default(),
            zero4: k(0),
            one4: k(1),
        }
    }
}

impl<const D: usize> Logic for Cluster<D> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Dispatcher domain: the latch's write side.
        self.put_t.clock.next = self.dclock.val();
        self.tag_r.clock.next = self.dclock.val();
        self.put_t.d.next = self.put_t.q.val() ^ self.put.val();
        self.tag_r.d.next = self.tag_r.q.val();
        if self.put.val() {
            self.tag_r.d.next = self.tag_in.val();
        }
        // ---- Cluster domain: take the instruction when the interval has passed.
        dff_setup!(self, clock, got_t, hold);
        self.full.next = self.put_t.q.val() ^ self.got_t.q.val();
        self.take.next = self.full.val() & (self.hold.q.val() == self.zero4.val());
        self.got_t.d.next = self.got_t.q.val() ^ self.take.val();
        if self.hold.q.val() != self.zero4.val() {
            self.hold.d.next = self.hold.q.val() - self.one4.val();
        }
        if self.take.val() & (self.ii.val() != self.zero4.val()) {
            self.hold.d.next = self.ii.val() - self.one4.val();
        }
        for i in 0..D {
            self.valid[i].clock.next = self.clock.val();
            self.tag[i].clock.next = self.clock.val();
        }
        self.valid[0].d.next = self.take.val();
        self.tag[0].d.next = self.tag_r.q.val();
        for i in 1..D {
            self.valid[i].d.next = self.valid[i - 1].q.val();
            self.tag[i].d.next = self.tag[i - 1].q.val();
        }
        self.busy.next = false;
        for i in 0..D {
            if self.valid[i].q.val() {
                self.busy.next = true;
            }
        }
        for last in (D - 1)..D {
            self.retire.next = self.valid[last].q.val();
            self.retire_tag.next = self.tag[last].q.val();
        }
        self.ready.next = !self.full.val() & self.working.val();
    }
}
