//! The command generator (Section 3.2.2 of the Sim-D paper): address mapping, the shadow open-row
//! table, the LINEAR (tile) and ALAP (indexed) precharge policies; it turns the offered burst into
//! a compound entry for its bank's FIFO plus the stand-alone PREs that close other banks.

use super::frontend::BURST_BITS;
use crate::dram::Part;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The command generator of [`crate::dram::DramCtrl`] with `NB` banks.
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
    /// Push an entry into bank b's FIFO at the edge.
    pub push: [Signal<Out, Bit>; NB],
    /// The entry pushed into bank b is a stand-alone PRE (else the compound entry below).
    pub push_close: [Signal<Out, Bit>; NB],
    /// The compound entry: precharge before the ACT.
    pub e_pre_pre: Signal<Out, Bit>,
    /// The compound entry: activate.
    pub e_act: Signal<Out, Bit>,
    /// The compound entry: auto-precharge.
    pub e_ap: Signal<Out, Bit>,
    /// The compound entry: write.
    pub e_write: Signal<Out, Bit>,
    /// The compound entry: row.
    pub e_row: Signal<Out, Bits<16>>,
    /// The compound entry: DDR4 column (burst · 8).
    pub e_col: Signal<Out, Bits<10>>,
    /// The compound entry: word mask.
    pub e_words: Signal<Out, Bits<16>>,
    open: [DFF<Bit>; NB],
    open_row: [DFF<Bits<16>>; NB],
    bank: Signal<Local, Bits<4>>,
    row: Signal<Local, Bits<16>>,
    pair_b: Signal<Local, Bits<BURST_BITS>>,
    row_b: Signal<Local, Bits<BURST_BITS>>,
    col_b: Signal<Local, Bits<BURST_BITS>>,
    s_pair_b: Signal<Local, Bits<BURST_BITS>>,
    s_row_b: Signal<Local, Bits<BURST_BITS>>,
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
    ok: Signal<Local, Bit>,
    idx: [Constant<Bits<4>>; NB],
    partner: [Constant<Bits<4>>; NB],
    pair_mask: Constant<Bits<BURST_BITS>>,
    row_shift: Constant<Bits<BURST_BITS>>,
    eight: Constant<Bits<BURST_BITS>>,
    one4: Constant<Bits<4>>,
    two_b: Constant<Bits<BURST_BITS>>,
    col_mask: Constant<Bits<10>>,
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
            push_close: array_init::array_init(|_| Default::default()),
            e_pre_pre: Default::default(),
            e_act: Default::default(),
            e_ap: Default::default(),
            e_write: Default::default(),
            e_row: Default::default(),
            e_col: Default::default(),
            e_words: Default::default(),
            open: array_init::array_init(|_| Default::default()),
            open_row: array_init::array_init(|_| Default::default()),
            bank: Default::default(),
            row: Default::default(),
            pair_b: Default::default(),
            row_b: Default::default(),
            col_b: Default::default(),
            s_pair_b: Default::default(),
            s_row_b: Default::default(),
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
            ok: Default::default(),
            idx: array_init::array_init(|i| k(i as u64)),
            partner: array_init::array_init(|i| k(i as u64 ^ 1)),
            pair_mask: k((1 << p) - 1),
            row_shift: k(8 + p),
            eight: k(8),
            one4: k(1),
            two_b: k(2),
            col_mask: k(0x3F8),
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
        self.pair_b.next = (self.burst.val() >> self.eight.val()) & self.pair_mask.val();
        self.bank.next = (self.pair_b.val().get_bits::<4>(0) << self.one4.val())
            | (self.burst.val().get_bits::<4>(0) & self.one4.val());
        self.col_b.next = self.burst.val() << self.two_b.val();
        self.row_b.next = self.burst.val() >> self.row_shift.val();
        self.row.next = self.row_b.val().get_bits::<16>(0);
        self.s_pair_b.next = (self.succ.val() >> self.eight.val()) & self.pair_mask.val();
        self.s_pair.next = self.s_pair_b.val().get_bits::<4>(0);
        self.s_row_b.next = self.succ.val() >> self.row_shift.val();
        self.s_row.next = self.s_row_b.val().get_bits::<16>(0);
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
        self.e_pre_pre.next = self.pre_pre.val();
        self.e_act.next = self.act.val();
        self.e_ap.next = self.ap.val();
        self.e_write.next = self.write.val();
        self.e_row.next = self.row.val();
        self.e_col.next = self.col_b.val().get_bits::<10>(0) & self.col_mask.val();
        self.e_words.next = self.burst_words.val();
        for i in 0..NB {
            self.push[i].next = self.ok.val() & self.close[i].val();
            self.push_close[i].next = true;
            if self.bank.val() == self.idx[i].val() {
                self.push[i].next = self.ok.val();
                self.push_close[i].next = false;
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
