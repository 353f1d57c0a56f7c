//! The front-end (Section 3.2.1 of the Sim-D paper): the stride sequencer of tile requests (one
//! burst per cycle: every row segment of the burst merged in the same cycle) and the index
//! iterator of indexed requests (one burst per index). It offers one burst at a time to the
//! command generator.
//!
//! The stride sequencer walks the burst in [`STAGES`] combinational stages: stage 0 is the
//! current row from the current word, stage j ≥ 1 the row j rows further, which starts at
//! `row_start + j · period`. Stage j takes part when every earlier row ends inside the burst,
//! the request has that row and the row starts inside the burst; the walk resumes at the
//! burst after (the last row taking part continues past the burst) or at the first row that
//! does not start in it. Since `period ≥ words ≥ 1`, row j starts at least j words after the
//! burst's first word, so 16 rows take part at most and stage 16 only says where to resume.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// Width of a burst index (word address >> 4).
pub const BURST_BITS: usize = 26;

/// Stages of the stride sequencer's walk: the current row and the next 16.
pub const STAGES: usize = 17;

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
    // Index iterator.
    to_take: DFF<Bits<16>>,
    to_emit: DFF<Bits<16>>,
    idx_full: DFF<Bit>,
    idx_r: DFF<Bits<30>>,
    // Tile walk, per stage j (0 = the current row from `cur`, j = the row j rows on).
    /// The burst's first word.
    base: Signal<Local, Bits<30>>,
    /// Row j's start − `base` (wrapping).
    rel: [Signal<Local, Bits<30>>; STAGES],
    /// Row j's end − `base`.
    rel_end: [Signal<Local, Bits<30>>; STAGES],
    /// Row j ends inside the burst.
    fits: [Signal<Local, Bit>; STAGES],
    /// Every row before j ends inside the burst (the walk reaches stage j).
    go: [Signal<Local, Bit>; STAGES],
    /// Row j has words in the burst.
    here: [Signal<Local, Bit>; STAGES],
    /// Row j's first and last word in the burst (when `here`).
    lo: [Signal<Local, Bits<4>>; STAGES],
    hi: [Signal<Local, Bits<4>>; STAGES],
    /// The burst's mask merged over stages 0..=j.
    merged: [Signal<Local, Bits<16>>; STAGES],
    /// Where the walk resumes, − `base`, decided by stages 0..=j.
    resume: [Signal<Local, Bits<30>>; STAGES],
    /// The resumed row's start − `base`, decided by stages 0..=j.
    resume_row: [Signal<Local, Bits<30>>; STAGES],
    /// Rows finished by the burst, decided by stages 0..=j.
    rows_done: [Signal<Local, Bits<16>>; STAGES],
    /// The burst is the request's last, decided by stages 0..=j.
    last: [Signal<Local, Bit>; STAGES],
    next_cur: Signal<Local, Bits<30>>,
    t_valid: Signal<Local, Bit>,
    advance: Signal<Local, Bit>,
    take: Signal<Local, Bit>,
    jk: [Constant<Bits<16>>; STAGES],
    ones16: Constant<Bits<16>>,
    fifteen: Constant<Bits<4>>,
    one16: Constant<Bits<16>>,
    one4: Constant<Bits<4>>,
    sixteen: Constant<Bits<30>>,
    high26: Constant<Bits<30>>,
    zero16: Constant<Bits<16>>,
    zero30: Constant<Bits<30>>,
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
            to_take: Default::default(),
            to_emit: Default::default(),
            idx_full: Default::default(),
            idx_r: Default::default(),
            base: Default::default(),
            rel: array_init::array_init(|_| Default::default()),
            rel_end: array_init::array_init(|_| Default::default()),
            fits: array_init::array_init(|_| Default::default()),
            go: array_init::array_init(|_| Default::default()),
            here: array_init::array_init(|_| Default::default()),
            lo: array_init::array_init(|_| Default::default()),
            hi: array_init::array_init(|_| Default::default()),
            merged: array_init::array_init(|_| Default::default()),
            resume: array_init::array_init(|_| Default::default()),
            resume_row: array_init::array_init(|_| Default::default()),
            rows_done: array_init::array_init(|_| Default::default()),
            last: array_init::array_init(|_| Default::default()),
            next_cur: Default::default(),
            t_valid: Default::default(),
            advance: Default::default(),
            take: Default::default(),
            jk: array_init::array_init(|j| k(j as u64)),
            ones16: k(0xFFFF),
            fifteen: k(15),
            one16: k(1),
            one4: k(1),
            sixteen: k(16),
            high26: k(((1 << 30) - 1) & !15),
            zero16: k(0),
            zero30: k(0),
        }
    }
}

impl Logic for FrontEnd {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(
            self, clock, active, finished_r, indexed_r, row_start, cur, rows_left, words, period,
            to_take, to_emit, idx_full, idx_r
        );
        // ---- Tile: the walk over the rows with words in the burst of `cur`.
        self.base.next = self.cur.q.val() & self.high26.val();
        self.rel[0].next = self.row_start.q.val() - self.base.val();
        self.go[0].next = true;
        self.here[0].next = self.go[0].val();
        self.lo[0].next = self.cur.q.val().get_bits::<4>(0);
        for j in 1..STAGES {
            self.rel[j].next = self.rel[j - 1].val() + self.period.q.val();
            self.lo[j].next = self.rel[j].val().get_bits::<4>(0);
        }
        for j in 0..STAGES {
            self.rel_end[j].next = self.rel[j].val() + self.words.q.val();
            self.fits[j].next = self.rel_end[j].val() <= self.sixteen.val();
            self.hi[j].next = self.fifteen.val();
            if self.fits[j].val() {
                self.hi[j].next = self.rel_end[j].val().get_bits::<4>(0) - self.one4.val();
            }
        }
        for j in 1..STAGES {
            self.go[j].next = self.here[j - 1].val() & self.fits[j - 1].val();
            self.here[j].next = self.go[j].val()
                & (self.rows_left.q.val() > self.jk[j].val())
                & (self.rel[j].val() < self.sixteen.val());
        }
        self.merged[0].next = (self.ones16.val() << self.lo[0].val())
            & (self.ones16.val() >> (self.fifteen.val() - self.hi[0].val()));
        self.resume[0].next = self.sixteen.val();
        self.resume_row[0].next = self.rel[0].val();
        self.rows_done[0].next = self.jk[0].val();
        self.last[0].next = false;
        for j in 1..STAGES {
            self.merged[j].next = self.merged[j - 1].val();
            if self.here[j].val() {
                self.merged[j].next = self.merged[j - 1].val()
                    | ((self.ones16.val() << self.lo[j].val())
                        & (self.ones16.val() >> (self.fifteen.val() - self.hi[j].val())));
            }
            self.resume[j].next = self.resume[j - 1].val();
            self.resume_row[j].next = self.resume_row[j - 1].val();
            self.rows_done[j].next = self.rows_done[j - 1].val();
            self.last[j].next = self.last[j - 1].val();
            if self.go[j].val() {
                self.resume[j].next = self.rel[j].val();
                if self.here[j].val() {
                    self.resume[j].next = self.sixteen.val();
                }
                self.resume_row[j].next = self.rel[j].val();
                self.rows_done[j].next = self.jk[j].val();
                self.last[j].next = self.rows_left.q.val() == self.jk[j].val();
            }
        }
        self.t_valid.next = self.active.q.val() & !self.indexed_r.q.val();
        // ---- The offered burst.
        for j in (STAGES - 1)..STAGES {
            self.next_cur.next = self.base.val() + self.resume[j].val();
            self.burst_words.next = self.merged[j].val();
            self.burst_last.next = self.last[j].val();
        }
        self.burst_valid.next = self.t_valid.val();
        self.burst.next = self.cur.q.val().get_bits::<BURST_BITS>(4);
        self.succ.next = self.next_cur.val().get_bits::<BURST_BITS>(4);
        if self.indexed_r.q.val() {
            self.burst_valid.next = self.active.q.val() & self.idx_full.q.val();
            self.burst.next = self.idx_r.q.val().get_bits::<BURST_BITS>(4);
            self.burst_words.next = self.one16.val() << self.idx_r.q.val().get_bits::<4>(0);
            self.burst_last.next = self.to_emit.q.val() == self.one16.val();
        }
        // ---- Tile: advance to the next burst when the generator takes this one.
        self.advance.next = self.t_valid.val() & self.accept.val();
        if self.advance.val() {
            self.cur.d.next = self.next_cur.val();
            for j in (STAGES - 1)..STAGES {
                self.row_start.d.next = self.base.val() + self.resume_row[j].val();
                self.rows_left.d.next = self.rows_left.q.val() - self.rows_done[j].val();
                if self.last[j].val() {
                    self.active.d.next = false;
                    self.finished_r.d.next = true;
                }
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
            self.to_take.d.next = self.zero16.val();
            self.to_emit.d.next = self.zero16.val();
            self.idx_full.d.next = false;
            self.idx_r.d.next = self.zero30.val();
        }
    }
}
