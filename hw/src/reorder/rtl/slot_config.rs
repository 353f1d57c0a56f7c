//! The reordering configuration of one warp slot (contract: [`super`]; the reordering
//! paper's Table 1 and Section III-E): the static→runtime map of the slot (mapped, `block`, `warp`,
//! `wave`, `len`), its trace head and sequence counter, and its row of the trace memory (`T`
//! entries of 32 bits: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\]).
//!
//! The head entry is read combinationally from the row (a mux chain over the `T` entries on
//! `head`), so the unit's SELECT sees every slot's head in the cycle after a release, as the
//! contract asks. The row is a register file here; a real design would keep the trace memory in
//! an SRAM and hold each slot's head entry in a prefetch register, refilled (from entry
//! head + 1, read ahead) when the head advances.
//!
//! Every output depends only on the block's own registers.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// One slot's map, head, sequence counter and trace row of `T` (a power of two, 1..=256)
/// entries.
#[derive(LogicBlock)]
pub struct SlotConfig<const T: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: unmapped, head 0, sequence counter 0; the trace row is kept and the
    /// cycle's trace write is not taken.
    pub reset: Signal<In, Bit>,
    /// Write `trace_entry` at `trace_index` (its bits below log2 T) at this edge.
    pub trace_we: Signal<In, Bit>,
    /// Index of the trace write.
    pub trace_index: Signal<In, Bits<8>>,
    /// The trace entry: `pc_idx` \[7:0\], `epoch` \[15:8\], `k` \[31:16\].
    pub trace_entry: Signal<In, Bits<32>>,
    /// Map the slot at this edge (block launch): head ← 0, sequence counter ← 0.
    pub map_we: Signal<In, Bit>,
    /// Static block ID.
    pub map_block: Signal<In, Bits<8>>,
    /// Warp index in the block.
    pub map_warp: Signal<In, Bits<5>>,
    /// Wave of the block.
    pub map_wave: Signal<In, Bits<8>>,
    /// Trace entries of the slot (≤ T).
    pub map_len: Signal<In, Bits<9>>,
    /// The slot's head entry is released at this edge: head and sequence counter advance.
    pub advance: Signal<In, Bit>,
    /// The slot is mapped.
    pub mapped: Signal<Out, Bit>,
    /// Mapped and head < len.
    pub pending: Signal<Out, Bit>,
    /// Static block ID.
    pub block: Signal<Out, Bits<8>>,
    /// Warp index in the block.
    pub warp: Signal<Out, Bits<5>>,
    /// Wave of the block.
    pub wave: Signal<Out, Bits<8>>,
    /// The head trace entry (meaningful while `pending`).
    pub head_entry: Signal<Out, Bits<32>>,
    /// Sequence number of the slot's next release (mod 256).
    pub seq: Signal<Out, Bits<8>>,
    mapped_r: DFF<Bit>,
    block_r: DFF<Bits<8>>,
    warp_r: DFF<Bits<5>>,
    wave_r: DFF<Bits<8>>,
    len_r: DFF<Bits<9>>,
    head_r: DFF<Bits<9>>,
    seq_r: DFF<Bits<8>>,
    trace_r: [DFF<Bits<32>>; T],
    // Read port: element `j` = the head entry when head ≤ j (mux chain over the row, on the
    // head's low 8 bits: a head of T or more belongs to a slot that is not pending).
    rd: [Signal<Local, Bits<32>>; T],
    // The write index (the bits below log2 T).
    windex: Signal<Local, Bits<8>>,
    idx8: [Constant<Bits<8>>; T],
    index_mask: Constant<Bits<8>>,
    zero8: Constant<Bits<8>>,
    one8: Constant<Bits<8>>,
    zero9: Constant<Bits<9>>,
    one9: Constant<Bits<9>>,
}

impl<const T: usize> Default for SlotConfig<T> {
    fn default() -> Self {
        assert!(
            T.is_power_of_two() && T <= 256,
            "T: a power of two, 1..=256"
        );
        Self {
            clock: Default::default(),
            reset: Default::default(),
            trace_we: Default::default(),
            trace_index: Default::default(),
            trace_entry: Default::default(),
            map_we: Default::default(),
            map_block: Default::default(),
            map_warp: Default::default(),
            map_wave: Default::default(),
            map_len: Default::default(),
            advance: Default::default(),
            mapped: Default::default(),
            pending: Default::default(),
            block: Default::default(),
            warp: Default::default(),
            wave: Default::default(),
            head_entry: Default::default(),
            seq: Default::default(),
            mapped_r: Default::default(),
            block_r: Default::default(),
            warp_r: Default::default(),
            wave_r: Default::default(),
            len_r: Default::default(),
            head_r: Default::default(),
            seq_r: Default::default(),
            trace_r: array_init::array_init(|_| Default::default()),
            rd: array_init::array_init(|_| Default::default()),
            windex: Default::default(),
            idx8: array_init::array_init(|j| k(j as u64)),
            index_mask: k(T as u64 - 1),
            zero8: k(0),
            one8: k(1),
            zero9: k(0),
            one9: k(1),
        }
    }
}

impl<const T: usize> Logic for SlotConfig<T> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, mapped_r, block_r, warp_r, wave_r, len_r, head_r, seq_r);
        // ---- Trace row: write port, and the head read port (mux chain).
        self.windex.next = self.trace_index.val() & self.index_mask.val();
        for j in 0..T {
            self.trace_r[j].clock.next = self.clock.val();
            if self.trace_we.val() & !self.reset.val() & (self.windex.val() == self.idx8[j].val()) {
                self.trace_r[j].d.next = self.trace_entry.val();
            } else {
                self.trace_r[j].d.next = self.trace_r[j].q.val();
            }
        }
        self.rd[0].next = self.trace_r[0].q.val();
        for j in 1..T {
            if self.head_r.q.val().get_bits::<8>(0) == self.idx8[j].val() {
                self.rd[j].next = self.trace_r[j].q.val();
            } else {
                self.rd[j].next = self.rd[j - 1].val();
            }
        }
        for last in (T - 1)..T {
            self.head_entry.next = self.rd[last].val();
        }
        // ---- Map, head and sequence counter.
        if self.reset.val() {
            self.mapped_r.d.next = false;
            self.head_r.d.next = self.zero9.val();
            self.seq_r.d.next = self.zero8.val();
        } else if self.map_we.val() {
            self.mapped_r.d.next = true;
            self.block_r.d.next = self.map_block.val();
            self.warp_r.d.next = self.map_warp.val();
            self.wave_r.d.next = self.map_wave.val();
            self.len_r.d.next = self.map_len.val();
            self.head_r.d.next = self.zero9.val();
            self.seq_r.d.next = self.zero8.val();
        } else if self.advance.val() {
            self.head_r.d.next = self.head_r.q.val() + self.one9.val();
            self.seq_r.d.next = self.seq_r.q.val() + self.one8.val();
        }
        // ---- Outputs.
        self.mapped.next = self.mapped_r.q.val();
        self.pending.next = self.mapped_r.q.val() & (self.head_r.q.val() < self.len_r.q.val());
        self.block.next = self.block_r.q.val();
        self.warp.next = self.warp_r.q.val();
        self.wave.next = self.wave_r.q.val();
        self.seq.next = self.seq_r.q.val();
    }
}
