//! The SELECT stage of the reordering unit (contract: [`super`], "Release order";
//! rule R0 of Section III-E of the reordering paper and our generalisation R1): the pending slot
//! with the smallest key `(wave, epoch·rule[0], k·rule[1], pc_idx, block, warp)` of its head trace
//! entry, compared lexicographically, most significant first.
//!
//! Combinational: a linear chain over the slots (element `c` = the best of slots 0..c, with
//! its key, slot number, sequence counter and `pc_idx`; the last slot's step gives the
//! result, so every element of the chain is read). A slot replaces the best so far only
//! with a strictly smaller key, so equal keys (two slots mapped to one (block, warp), which a
//! correct launch never does) go to the lower slot number, as in the reference model. A real
//! design with W = 48 would use a comparison tree (log2 W levels) instead of the chain.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The argmin over `W` (1..=64) slots' keys.
#[derive(LogicBlock)]
pub struct Select<const W: usize> {
    /// Key fields: bit 0 = use `epoch`, bit 1 = use `k` (the unit's `rule` register).
    pub rule: Signal<In, Bits<2>>,
    /// Slot c is pending (mapped, head < len).
    pub pending: [Signal<In, Bit>; W],
    /// Slot c's wave.
    pub wave: [Signal<In, Bits<8>>; W],
    /// Slot c's head trace entry: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\].
    pub head_entry: [Signal<In, Bits<32>>; W],
    /// Slot c's static block ID.
    pub block: [Signal<In, Bits<8>>; W],
    /// Slot c's warp index in the block.
    pub warp: [Signal<In, Bits<5>>; W],
    /// Slot c's sequence counter.
    pub seq: [Signal<In, Bits<8>>; W],
    /// Some slot is pending.
    pub any: Signal<Out, Bit>,
    /// The pending slot with the smallest key (0 when none).
    pub slot: Signal<Out, Bits<6>>,
    /// Its sequence counter.
    pub seq_out: Signal<Out, Bits<8>>,
    /// Its head's `pc_idx`.
    pub pc_idx: Signal<Out, Bits<8>>,
    // Per slot: the key fields (epoch and k masked by the rule).
    epoch: [Signal<Local, Bits<8>>; W],
    kk: [Signal<Local, Bits<16>>; W],
    pc: [Signal<Local, Bits<8>>; W],
    // Per slot: it is pending and its key is smaller than the best among the slots before it
    // (or none of them is pending).
    take: [Signal<Local, Bit>; W],
    // Per slot: its key from field f down is smaller than the best's (the cascade of `take`).
    lt_warp: [Signal<Local, Bit>; W],
    lt_block: [Signal<Local, Bit>; W],
    lt_pc: [Signal<Local, Bit>; W],
    lt_k: [Signal<Local, Bit>; W],
    lt_epoch: [Signal<Local, Bit>; W],
    // The chain: the best of slots 0..c (exclusive; element 0 holds none).
    b_valid: [Signal<Local, Bit>; W],
    b_wave: [Signal<Local, Bits<8>>; W],
    b_epoch: [Signal<Local, Bits<8>>; W],
    b_k: [Signal<Local, Bits<16>>; W],
    b_pc: [Signal<Local, Bits<8>>; W],
    b_block: [Signal<Local, Bits<8>>; W],
    b_warp: [Signal<Local, Bits<5>>; W],
    b_slot: [Signal<Local, Bits<6>>; W],
    b_seq: [Signal<Local, Bits<8>>; W],
    slot_idx: [Constant<Bits<6>>; W],
    zero5: Constant<Bits<5>>,
    zero6: Constant<Bits<6>>,
    zero8: Constant<Bits<8>>,
    zero16: Constant<Bits<16>>,
}

impl<const W: usize> Default for Select<W> {
    fn default() -> Self {
        assert!((1..=64).contains(&W), "W: 1..=64");
        Self {
            rule: Default::default(),
            pending: array_init::array_init(|_| Default::default()),
            wave: array_init::array_init(|_| Default::default()),
            head_entry: array_init::array_init(|_| Default::default()),
            block: array_init::array_init(|_| Default::default()),
            warp: array_init::array_init(|_| Default::default()),
            seq: array_init::array_init(|_| Default::default()),
            any: Default::default(),
            slot: Default::default(),
            seq_out: Default::default(),
            pc_idx: Default::default(),
            epoch: array_init::array_init(|_| Default::default()),
            kk: array_init::array_init(|_| Default::default()),
            pc: array_init::array_init(|_| Default::default()),
            take: array_init::array_init(|_| Default::default()),
            lt_warp: array_init::array_init(|_| Default::default()),
            lt_block: array_init::array_init(|_| Default::default()),
            lt_pc: array_init::array_init(|_| Default::default()),
            lt_k: array_init::array_init(|_| Default::default()),
            lt_epoch: array_init::array_init(|_| Default::default()),
            b_valid: array_init::array_init(|_| Default::default()),
            b_wave: array_init::array_init(|_| Default::default()),
            b_epoch: array_init::array_init(|_| Default::default()),
            b_k: array_init::array_init(|_| Default::default()),
            b_pc: array_init::array_init(|_| Default::default()),
            b_block: array_init::array_init(|_| Default::default()),
            b_warp: array_init::array_init(|_| Default::default()),
            b_slot: array_init::array_init(|_| Default::default()),
            b_seq: array_init::array_init(|_| Default::default()),
            slot_idx: array_init::array_init(|c| k(c as u64)),
            zero5: k(0),
            zero6: k(0),
            zero8: k(0),
            zero16: k(0),
        }
    }
}

impl<const W: usize> Logic for Select<W> {
    #[hdl_gen]
    fn update(&mut self) {
        // ---- The key fields of each slot's head.
        for c in 0..W {
            self.pc[c].next = self.head_entry[c].val().get_bits::<8>(0);
            if self.rule.val().get_bit(0) {
                self.epoch[c].next = self.head_entry[c].val().get_bits::<8>(8);
            } else {
                self.epoch[c].next = self.zero8.val();
            }
            if self.rule.val().get_bit(1) {
                self.kk[c].next = self.head_entry[c].val().get_bits::<16>(16);
            } else {
                self.kk[c].next = self.zero16.val();
            }
        }
        // ---- The chain. Element c holds the best of slots 0..c (none for c = 0); slot c
        // takes over when it is pending and its key is smaller (or nothing is held). Each
        // element is written before it is read (no circular evaluation order).
        self.b_valid[0].next = false;
        self.b_wave[0].next = self.zero8.val();
        self.b_epoch[0].next = self.zero8.val();
        self.b_k[0].next = self.zero16.val();
        self.b_pc[0].next = self.zero8.val();
        self.b_block[0].next = self.zero8.val();
        self.b_warp[0].next = self.zero5.val();
        self.b_slot[0].next = self.zero6.val();
        self.b_seq[0].next = self.zero8.val();
        // Slot c against the best of 0..c (the key compared from its least significant field
        // up), then element c + 1; the last slot's step gives the result.
        for c in 0..(W - 1) {
            self.lt_warp[c].next = self.warp[c].val() < self.b_warp[c].val();
            self.lt_block[c].next = (self.block[c].val() < self.b_block[c].val())
                | ((self.block[c].val() == self.b_block[c].val()) & self.lt_warp[c].val());
            self.lt_pc[c].next = (self.pc[c].val() < self.b_pc[c].val())
                | ((self.pc[c].val() == self.b_pc[c].val()) & self.lt_block[c].val());
            self.lt_k[c].next = (self.kk[c].val() < self.b_k[c].val())
                | ((self.kk[c].val() == self.b_k[c].val()) & self.lt_pc[c].val());
            self.lt_epoch[c].next = (self.epoch[c].val() < self.b_epoch[c].val())
                | ((self.epoch[c].val() == self.b_epoch[c].val()) & self.lt_k[c].val());
            self.take[c].next = self.pending[c].val()
                & (!self.b_valid[c].val()
                    | (self.wave[c].val() < self.b_wave[c].val())
                    | ((self.wave[c].val() == self.b_wave[c].val()) & self.lt_epoch[c].val()));
            self.b_valid[c + 1].next = self.b_valid[c].val() | self.pending[c].val();
            if self.take[c].val() {
                self.b_wave[c + 1].next = self.wave[c].val();
                self.b_epoch[c + 1].next = self.epoch[c].val();
                self.b_k[c + 1].next = self.kk[c].val();
                self.b_pc[c + 1].next = self.pc[c].val();
                self.b_block[c + 1].next = self.block[c].val();
                self.b_warp[c + 1].next = self.warp[c].val();
                self.b_slot[c + 1].next = self.slot_idx[c].val();
                self.b_seq[c + 1].next = self.seq[c].val();
            } else {
                self.b_wave[c + 1].next = self.b_wave[c].val();
                self.b_epoch[c + 1].next = self.b_epoch[c].val();
                self.b_k[c + 1].next = self.b_k[c].val();
                self.b_pc[c + 1].next = self.b_pc[c].val();
                self.b_block[c + 1].next = self.b_block[c].val();
                self.b_warp[c + 1].next = self.b_warp[c].val();
                self.b_slot[c + 1].next = self.b_slot[c].val();
                self.b_seq[c + 1].next = self.b_seq[c].val();
            }
        }
        for last in (W - 1)..W {
            self.lt_warp[last].next = self.warp[last].val() < self.b_warp[last].val();
            self.lt_block[last].next = (self.block[last].val() < self.b_block[last].val())
                | ((self.block[last].val() == self.b_block[last].val()) & self.lt_warp[last].val());
            self.lt_pc[last].next = (self.pc[last].val() < self.b_pc[last].val())
                | ((self.pc[last].val() == self.b_pc[last].val()) & self.lt_block[last].val());
            self.lt_k[last].next = (self.kk[last].val() < self.b_k[last].val())
                | ((self.kk[last].val() == self.b_k[last].val()) & self.lt_pc[last].val());
            self.lt_epoch[last].next = (self.epoch[last].val() < self.b_epoch[last].val())
                | ((self.epoch[last].val() == self.b_epoch[last].val()) & self.lt_k[last].val());
            self.take[last].next = self.pending[last].val()
                & (!self.b_valid[last].val()
                    | (self.wave[last].val() < self.b_wave[last].val())
                    | ((self.wave[last].val() == self.b_wave[last].val())
                        & self.lt_epoch[last].val()));
            self.any.next = self.b_valid[last].val() | self.pending[last].val();
            if self.take[last].val() {
                self.slot.next = self.slot_idx[last].val();
                self.seq_out.next = self.seq[last].val();
                self.pc_idx.next = self.pc[last].val();
            } else {
                self.slot.next = self.b_slot[last].val();
                self.seq_out.next = self.b_seq[last].val();
                self.pc_idx.next = self.b_pc[last].val();
            }
        }
    }
}
