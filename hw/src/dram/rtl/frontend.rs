//! The front-end (Section 3.2.1 of the Sim-D paper): the stride sequencer of tile requests (one
//! segment per cycle, segments of one burst merged) and the index iterator of indexed requests (one
//! burst per index). It offers one burst at a time to the command generator.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Width of a burst index (word address >> 4).
pub const BURST_BITS: usize = 26;

/// The front-end of [`crate::dram::DramCtrl`]; see the module doc of [`super`] for the contract.
#[derive(LogicBlock)]
pub struct FrontEnd {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset.
    pub reset: Signal<In, Bit>,
    /// Load the request on the `req_*` inputs at the edge (a good request was accepted).
    pub start: Signal<In, Bit>,
    /// Request: indexed (1) or tile (0).
    pub req_indexed: Signal<In, Bit>,
    /// Request: first word address.
    pub req_addr: Signal<In, Bits<30>>,
    /// Request: words per row.
    pub req_words: Signal<In, Bits<30>>,
    /// Request: words from one row's start to the next.
    pub req_period: Signal<In, Bits<30>>,
    /// Request: rows (tile) or indexes (indexed).
    pub req_count: Signal<In, Bits<16>>,
    /// Index port: an index is offered.
    pub idx_valid: Signal<In, Bit>,
    /// Index port: the index (a word address).
    pub idx_addr: Signal<In, Bits<30>>,
    /// The command generator takes the offered burst in this cycle.
    pub accept: Signal<In, Bit>,
    /// A burst is offered in this cycle.
    pub burst_valid: Signal<Out, Bit>,
    /// The offered burst's index (word address >> 4).
    pub burst: Signal<Out, Bits<BURST_BITS>>,
    /// Its word mask (bit i = word 16·burst + i).
    pub burst_words: Signal<Out, Bits<16>>,
    /// It is the request's last burst.
    pub burst_last: Signal<Out, Bit>,
    /// The burst the request emits after it (meaningless with `burst_last`).
    pub succ: Signal<Out, Bits<BURST_BITS>>,
    /// The running request is indexed.
    pub indexed: Signal<Out, Bit>,
    /// The front-end takes an index in this cycle if one is offered.
    pub idx_ready: Signal<Out, Bit>,
    /// The request's last burst has been emitted (until the next `start`).
    pub finished: Signal<Out, Bit>,
    active: DFF<Bit>,
    finished_r: DFF<Bit>,
    indexed_r: DFF<Bit>,
    // Tile walker.
    row_start: DFF<Bits<30>>,
    cur: DFF<Bits<30>>,
    rows_left: DFF<Bits<16>>,
    words: DFF<Bits<30>>,
    period: DFF<Bits<30>>,
    acc: DFF<Bits<16>>,
    // Index iterator.
    to_take: DFF<Bits<16>>,
    to_emit: DFF<Bits<16>>,
    idx_full: DFF<Bit>,
    idx_r: DFF<Bits<30>>,
    // Tile segment.
    row_end: Signal<Local, Bits<30>>,
    burst_end: Signal<Local, Bits<30>>,
    seg_end: Signal<Local, Bits<30>>,
    in_row_last: Signal<Local, Bit>,
    seg_final: Signal<Local, Bit>,
    next_row: Signal<Local, Bits<30>>,
    next_seg: Signal<Local, Bits<30>>,
    completes: Signal<Local, Bit>,
    seg_mask: Signal<Local, Bits<16>>,
    seg_last: Signal<Local, Bits<30>>,
    t_valid: Signal<Local, Bit>,
    advance: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    ones16: Constant<Bits<16>>,
    fifteen: Constant<Bits<4>>,
    one16: Constant<Bits<16>>,
    one30: Constant<Bits<30>>,
    low4: Constant<Bits<30>>,
    zero16: Constant<Bits<16>>,
    zero30: Constant<Bits<30>>,
    four: Constant<Bits<30>>,
}

impl Default for FrontEnd {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            start: Default::default(),
            req_indexed: Default::default(),
            req_addr: Default::default(),
            req_words: Default::default(),
            req_period: Default::default(),
            req_count: Default::default(),
            idx_valid: Default::default(),
            idx_addr: Default::default(),
            accept: Default::default(),
            burst_valid: Default::default(),
            burst: Default::default(),
            burst_words: Default::default(),
            burst_last: Default::default(),
            succ: Default::default(),
            indexed: Default::default(),
            idx_ready: Default::default(),
            finished: Default::default(),
            active: Default::default(),
            finished_r: Default::default(),
            indexed_r: Default::default(),
            row_start: Default::default(),
            cur: Default::default(),
            rows_left: Default::default(),
            words: Default::default(),
            period: Default::default(),
            acc: Default::default(),
            to_take: Default::default(),
            to_emit: Default::default(),
            idx_full: Default::default(),
            idx_r: Default::default(),
            row_end: Default::default(),
            burst_end: Default::default(),
            seg_end: Default::default(),
            in_row_last: Default::default(),
            seg_final: Default::default(),
            next_row: Default::default(),
            next_seg: Default::default(),
            completes: Default::default(),
            seg_mask: Default::default(),
            seg_last: Default::default(),
            t_valid: Default::default(),
            advance: Default::default(),
            take: Default::default(),
            ones16: k(0xFFFF),
            fifteen: k(15),
            one16: k(1),
            one30: k(1),
            low4: k(15),
            zero16: k(0),
            zero30: k(0),
            four: k(4),
        }
    }
}

impl Logic for FrontEnd {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, finished_r, indexed_r, row_start, cur, rows_left, words, period,
            acc, to_take, to_emit, idx_full, idx_r
        );
        // ---- Tile: the current segment [cur, seg_end) of the row [row_start, row_end).
        self.row_end.next = self.row_start.q.val() + self.words.q.val();
        self.burst_end.next = (self.cur.q.val() | self.low4.val()) + self.one30.val();
        self.in_row_last.next = self.row_end.val() <= self.burst_end.val();
        self.seg_end.next = self.burst_end.val();
        if self.in_row_last.val() {
            self.seg_end.next = self.row_end.val();
        }
        self.seg_final.next = self.in_row_last.val() & (self.rows_left.q.val() == self.one16.val());
        self.next_row.next = self.row_start.q.val() + self.period.q.val();
        self.next_seg.next = self.burst_end.val();
        if self.in_row_last.val() {
            self.next_seg.next = self.next_row.val();
        }
        self.completes.next = self.seg_final.val()
            | ((self.next_seg.val() >> self.four.val()) != (self.cur.q.val() >> self.four.val()));
        self.seg_last.next = self.seg_end.val() - self.one30.val();
        self.seg_mask.next = (self.ones16.val() << self.cur.q.val().get_bits::<4>(0))
            & (self.ones16.val() >> (self.fifteen.val() - self.seg_last.val().get_bits::<4>(0)));
        self.t_valid.next = self.active.q.val() & !self.indexed_r.q.val();
        // ---- The offered burst.
        self.burst_valid.next = false;
        self.burst.next = self.cur.q.val().get_bits::<BURST_BITS>(4);
        self.burst_words.next = self.acc.q.val() | self.seg_mask.val();
        self.burst_last.next = self.seg_final.val();
        self.succ.next = self.next_seg.val().get_bits::<BURST_BITS>(4);
        if self.t_valid.val() {
            self.burst_valid.next = self.completes.val();
        }
        if self.indexed_r.q.val() {
            self.burst_valid.next = self.active.q.val() & self.idx_full.q.val();
            self.burst.next = self.idx_r.q.val().get_bits::<BURST_BITS>(4);
            self.burst_words.next = self.one16.val() << self.idx_r.q.val().get_bits::<4>(0);
            self.burst_last.next = self.to_emit.q.val() == self.one16.val();
        }
        // ---- Tile: advance (a completing segment only when the generator takes its burst).
        self.advance.next = self.t_valid.val() & (!self.completes.val() | self.accept.val());
        if self.advance.val() {
            self.cur.d.next = self.next_seg.val();
            self.acc.d.next = self.acc.q.val() | self.seg_mask.val();
            if self.completes.val() {
                self.acc.d.next = self.zero16.val();
            }
            if self.in_row_last.val() {
                self.row_start.d.next = self.next_row.val();
                self.rows_left.d.next = self.rows_left.q.val() - self.one16.val();
            }
            if self.seg_final.val() {
                self.active.d.next = false;
                self.finished_r.d.next = true;
            }
        }
        // ---- Indexed: the one-entry index register.
        self.idx_ready.next = self.active.q.val()
            & self.indexed_r.q.val()
            & self.to_take.q.val().any()
            & (!self.idx_full.q.val() | self.accept.val());
        self.take.next = self.idx_ready.val() & self.idx_valid.val();
        if self.indexed_r.q.val() & self.active.q.val() & self.accept.val() {
            self.idx_full.d.next = false;
            self.to_emit.d.next = self.to_emit.q.val() - self.one16.val();
            if self.to_emit.q.val() == self.one16.val() {
                self.active.d.next = false;
                self.finished_r.d.next = true;
            }
        }
        if self.take.val() {
            self.idx_full.d.next = true;
            self.idx_r.d.next = self.idx_addr.val();
            self.to_take.d.next = self.to_take.q.val() - self.one16.val();
        }
        // ---- Start a request.
        if self.start.val() {
            self.active.d.next = true;
            self.finished_r.d.next = false;
            self.indexed_r.d.next = self.req_indexed.val();
            self.row_start.d.next = self.req_addr.val();
            self.cur.d.next = self.req_addr.val();
            self.rows_left.d.next = self.req_count.val();
            self.words.d.next = self.req_words.val();
            self.period.d.next = self.req_period.val();
            self.acc.d.next = self.zero16.val();
            self.to_take.d.next = self.req_count.val();
            self.to_emit.d.next = self.req_count.val();
            self.idx_full.d.next = false;
        }
        self.indexed.next = self.indexed_r.q.val();
        self.finished.next = self.finished_r.q.val();
        if self.reset.val() {
            self.active.d.next = false;
            self.finished_r.d.next = false;
            self.indexed_r.d.next = false;
            self.row_start.d.next = self.zero30.val();
            self.cur.d.next = self.zero30.val();
            self.rows_left.d.next = self.zero16.val();
            self.words.d.next = self.zero30.val();
            self.period.d.next = self.zero30.val();
            self.acc.d.next = self.zero16.val();
            self.to_take.d.next = self.zero16.val();
            self.to_emit.d.next = self.zero16.val();
            self.idx_full.d.next = false;
            self.idx_r.d.next = self.zero30.val();
        }
    }
}
