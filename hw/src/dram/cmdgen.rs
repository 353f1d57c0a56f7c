//! The command generator (spec §1.5.2): address mapping, the shadow open-row table, the
//! LINEAR (tile) and ALAP (indexed) precharge policies; it turns the offered burst into a
//! compound entry for its bank's FIFO plus the stand-alone PREs that close other banks.

use super::entry::ENTRY_BITS;
use super::frontend::BURST_BITS;
use super::Part;
use crate::isa::formats::k;
use rust_hdl::prelude::*;

/// The command generator of [`super::DramCtrl`] with `NB` banks.
#[derive(LogicBlock)]
pub struct CmdGen<const NB: usize> {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset (all banks closed in the shadow table).
    pub reset: Signal<In, Bit>,
    /// A burst is offered.
    pub burst_valid: Signal<In, Bit>,
    /// The burst index (word address >> 4).
    pub burst: Signal<In, Bits<BURST_BITS>>,
    /// Its word mask.
    pub burst_words: Signal<In, Bits<16>>,
    /// It is the request's last burst.
    pub burst_last: Signal<In, Bit>,
    /// The next burst of the request.
    pub succ: Signal<In, Bits<BURST_BITS>>,
    /// Indexed request (ALAP policy) rather than a tile (LINEAR).
    pub indexed: Signal<In, Bit>,
    /// The request writes.
    pub write: Signal<In, Bit>,
    /// Bank FIFO b holds 8 entries.
    pub full: [Signal<In, Bit>; NB],
    /// The burst is taken in this cycle.
    pub accept: Signal<Out, Bit>,
    /// Push `push_entry[b]` into bank b's FIFO at the edge.
    pub push: [Signal<Out, Bit>; NB],
    /// The entry pushed into bank b.
    pub push_entry: [Signal<Out, Bits<ENTRY_BITS>>; NB],
    open: [DFF<Bit>; NB],
    open_row: [DFF<Bits<16>>; NB],
    bank: Signal<Local, Bits<4>>,
    row: Signal<Local, Bits<16>>,
    col: Signal<Local, Bits<7>>,
    s_pair: Signal<Local, Bits<4>>,
    s_row: Signal<Local, Bits<16>>,
    hit_open: Signal<Local, Bit>,
    hit_row: Signal<Local, Bit>,
    partner_open: Signal<Local, Bit>,
    act: Signal<Local, Bit>,
    pre_pre: Signal<Local, Bit>,
    ap: Signal<Local, Bit>,
    close: [Signal<Local, Bit>; NB],
    blocked: Signal<Local, Bit>,
    entry: Signal<Local, Bits<ENTRY_BITS>>,
    f_pre_pre: Signal<Local, Bits<ENTRY_BITS>>,
    f_act: Signal<Local, Bits<ENTRY_BITS>>,
    f_ap: Signal<Local, Bits<ENTRY_BITS>>,
    f_write: Signal<Local, Bits<ENTRY_BITS>>,
    ok: Signal<Local, Bit>,
    idx: [Constant<Bits<4>>; NB],
    partner: [Constant<Bits<4>>; NB],
    pair_mask: Constant<Bits<BURST_BITS>>,
    row_shift: Constant<Bits<BURST_BITS>>,
    eight: Constant<Bits<BURST_BITS>>,
    one_b: Constant<Bits<BURST_BITS>>,
    one4: Constant<Bits<4>>,
    k_pre_pre: Constant<Bits<ENTRY_BITS>>,
    k_act: Constant<Bits<ENTRY_BITS>>,
    k_ap: Constant<Bits<ENTRY_BITS>>,
    k_write: Constant<Bits<ENTRY_BITS>>,
    k_close: Constant<Bits<ENTRY_BITS>>,
    zero_e: Constant<Bits<ENTRY_BITS>>,
    five: Constant<Bits<ENTRY_BITS>>,
    col_at: Constant<Bits<ENTRY_BITS>>,
    words_at: Constant<Bits<ENTRY_BITS>>,
    zero16: Constant<Bits<16>>,
}

impl<const NB: usize> CmdGen<NB> {
    /// The generator for `part` (NB must be `part.banks`).
    pub fn new(part: &Part) -> Self {
        assert_eq!(
            NB, part.banks as usize,
            "NB must equal the part's bank count"
        );
        let p = part.pair_bits() as u64;
        Self {
            clock: Default::default(),
            reset: Default::default(),
            burst_valid: Default::default(),
            burst: Default::default(),
            burst_words: Default::default(),
            burst_last: Default::default(),
            succ: Default::default(),
            indexed: Default::default(),
            write: Default::default(),
            full: array_init::array_init(|_| Default::default()),
            accept: Default::default(),
            push: array_init::array_init(|_| Default::default()),
            push_entry: array_init::array_init(|_| Default::default()),
            open: array_init::array_init(|_| Default::default()),
            open_row: array_init::array_init(|_| Default::default()),
            bank: Default::default(),
            row: Default::default(),
            col: Default::default(),
            s_pair: Default::default(),
            s_row: Default::default(),
            hit_open: Default::default(),
            hit_row: Default::default(),
            partner_open: Default::default(),
            act: Default::default(),
            pre_pre: Default::default(),
            ap: Default::default(),
            close: array_init::array_init(|_| Default::default()),
            blocked: Default::default(),
            entry: Default::default(),
            f_pre_pre: Default::default(),
            f_act: Default::default(),
            f_ap: Default::default(),
            f_write: Default::default(),
            ok: Default::default(),
            idx: array_init::array_init(|i| k(i as u64)),
            partner: array_init::array_init(|i| k(i as u64 ^ 1)),
            pair_mask: k((1 << p) - 1),
            row_shift: k(8 + p),
            eight: k(8),
            one_b: k(1),
            one4: k(1),
            k_pre_pre: k(1 << super::entry::PRE_PRE),
            k_act: k(1 << super::entry::ACT),
            k_ap: k(1 << super::entry::AP),
            k_write: k(1 << super::entry::WRITE),
            k_close: k(1 << super::entry::CLOSE),
            zero_e: k(0),
            five: k(super::entry::ROW as u64),
            col_at: k(super::entry::COL as u64),
            words_at: k(super::entry::WORDS as u64),
            zero16: k(0),
        }
    }
}

impl<const NB: usize> Logic for CmdGen<NB> {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..NB {
            self.open[i].clock.next = self.clock.val();
            self.open[i].d.next = self.open[i].q.val();
            self.open_row[i].clock.next = self.clock.val();
            self.open_row[i].d.next = self.open_row[i].q.val();
        }
        // ---- Address mapping: bank[0] = k[0], col = k[7:1], pair = k[7+p:8], row above.
        self.bank.next = (bit_cast::<4, BURST_BITS>(
            (self.burst.val() >> self.eight.val()) & self.pair_mask.val(),
        ) << self.one4.val())
            | bit_cast::<4, BURST_BITS>(self.burst.val() & self.one_b.val());
        self.col.next = bit_cast::<7, BURST_BITS>(self.burst.val() >> self.one_b.val());
        self.row.next = bit_cast::<16, BURST_BITS>(self.burst.val() >> self.row_shift.val());
        self.s_pair.next =
            bit_cast::<4, BURST_BITS>((self.succ.val() >> self.eight.val()) & self.pair_mask.val());
        self.s_row.next = bit_cast::<16, BURST_BITS>(self.succ.val() >> self.row_shift.val());
        // ---- The shadow table for this bank and its partner.
        self.hit_open.next = false;
        self.hit_row.next = false;
        self.partner_open.next = false;
        for i in 0..NB {
            if self.bank.val() == self.idx[i].val() {
                self.hit_open.next = self.open[i].q.val();
                self.hit_row.next = self.open_row[i].q.val() == self.row.val();
            }
            if self.bank.val() == self.partner[i].val() {
                self.partner_open.next = self.open[i].q.val();
            }
        }
        self.act.next = !(self.hit_open.val() & self.hit_row.val());
        // ---- LINEAR: close the pair when the next burst leaves its pair or row; ALAP: close
        // everything with the last burst, precharge before a row miss.
        self.pre_pre.next = false;
        self.ap.next = self.burst_last.val()
            | (self.s_pair.val() != (self.bank.val() >> self.one4.val()))
            | (self.s_row.val() != self.row.val());
        if self.indexed.val() {
            self.pre_pre.next = self.hit_open.val() & !self.hit_row.val();
            self.ap.next = self.burst_last.val();
        }
        for i in 0..NB {
            self.close[i].next = false;
            if self.indexed.val() {
                self.close[i].next = self.burst_last.val()
                    & self.open[i].q.val()
                    & (self.bank.val() != self.idx[i].val());
            } else {
                self.close[i].next = self.ap.val()
                    & self.partner_open.val()
                    & (self.bank.val() == self.partner[i].val());
            }
        }
        // ---- Accept when every FIFO pushed into has room.
        self.blocked.next = false;
        for i in 0..NB {
            if self.full[i].val() & (self.close[i].val() | (self.bank.val() == self.idx[i].val())) {
                self.blocked.next = true;
            }
        }
        self.ok.next = self.burst_valid.val() & !self.blocked.val();
        self.accept.next = self.ok.val();
        // ---- The compound entry.
        self.f_pre_pre.next = self.zero_e.val();
        if self.pre_pre.val() {
            self.f_pre_pre.next = self.k_pre_pre.val();
        }
        self.f_act.next = self.zero_e.val();
        if self.act.val() {
            self.f_act.next = self.k_act.val();
        }
        self.f_ap.next = self.zero_e.val();
        if self.ap.val() {
            self.f_ap.next = self.k_ap.val();
        }
        self.f_write.next = self.zero_e.val();
        if self.write.val() {
            self.f_write.next = self.k_write.val();
        }
        self.entry.next = self.f_pre_pre.val()
            | self.f_act.val()
            | self.f_ap.val()
            | self.f_write.val()
            | (bit_cast::<ENTRY_BITS, 16>(self.row.val()) << self.five.val())
            | (bit_cast::<ENTRY_BITS, 7>(self.col.val()) << self.col_at.val())
            | (bit_cast::<ENTRY_BITS, 16>(self.burst_words.val()) << self.words_at.val());
        for i in 0..NB {
            self.push[i].next = self.ok.val() & self.close[i].val();
            self.push_entry[i].next = self.k_close.val();
            if self.bank.val() == self.idx[i].val() {
                self.push[i].next = self.ok.val();
                self.push_entry[i].next = self.entry.val();
            }
            if self.ok.val() & self.close[i].val() {
                self.open[i].d.next = false;
            }
            if self.ok.val() & (self.bank.val() == self.idx[i].val()) {
                self.open[i].d.next = !self.ap.val();
                self.open_row[i].d.next = self.row.val();
            }
            if self.reset.val() {
                self.open[i].d.next = false;
                self.open_row[i].d.next = self.zero16.val();
            }
        }
    }
}
