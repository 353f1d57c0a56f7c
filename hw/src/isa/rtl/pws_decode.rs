//! The split/merge decode stage (the foundation's pilot block).

use crate::isa::MaskSourceCheck;
use rust_hdl::prelude::*;

/// Decode stage for the PWS instructions: one registered stage, outputs valid one cycle after
/// the word is presented.
///
/// Timing: the word on `insn` with `valid` high at rising edge *k* is decoded on the outputs
/// during cycle *k+1*. While `out_valid` is low every output is 0. `reset` (synchronous) empties
/// the stage.
///
/// `illegal` is raised only for a `split` whose `ssrc0` or `ssrc1` cannot be a mask source
/// ([`MaskSourceCheck`]); other words of the SOPC/SOPP spaces are left to the full GCN3
/// decoder. `merge` ignores bits \[15:0\] (docs/assumptions.md#A2).
#[derive(LogicBlock)]
pub struct PwsDecode {
    /// Core clock; the stage register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: clears the stage (outputs read 0 in the next cycle).
    pub reset: Signal<In, Bit>,
    /// The 32-bit instruction word from fetch.
    pub insn: Signal<In, Bits<32>>,
    /// `insn` holds an instruction this cycle.
    pub valid: Signal<In, Bit>,
    /// The stage holds a decoded instruction.
    pub out_valid: Signal<Out, Bit>,
    /// The word is in the SOPC format (bits \[31:23\] = 0b101111110).
    pub is_sopc: Signal<Out, Bit>,
    /// The word is in the SOPP format (bits \[31:23\] = 0b101111111).
    pub is_sopp: Signal<Out, Bit>,
    /// The word is `split` (bits \[31:16\] = 0xBF7F).
    pub is_split: Signal<Out, Bit>,
    /// The word is `merge` (bits \[31:16\] = 0xBFFF).
    pub is_merge: Signal<Out, Bit>,
    /// Scalar source 0 (bits \[7:0\]): the mask bits of lanes 0..H-1 for `split`.
    pub ssrc0: Signal<Out, Bits<8>>,
    /// Scalar source 1 (bits \[15:8\]): the mask bits of lanes H..2H-1 for `split`.
    pub ssrc1: Signal<Out, Bits<8>>,
    /// A `split` whose `ssrc0` or `ssrc1` is not a legal mask source (e.g. the literal 255).
    pub illegal: Signal<Out, Bit>,
    /// The stage register: the instruction word.
    word: DFF<Bits<32>>,
    /// The stage register: the word is valid.
    full: DFF<Bit>,
    /// Legality of `ssrc0` as a mask source.
    src0_check: MaskSourceCheck,
    /// Legality of `ssrc1` as a mask source.
    src1_check: MaskSourceCheck,
    /// Bits [31:23] of SOPC words.
    sopc_prefix: Constant<Bits<9>>,
    /// Bits [31:23] of SOPP words.
    sopp_prefix: Constant<Bits<9>>,
    /// Bits [31:16] of `split`.
    split_opc16: Constant<Bits<16>>,
    /// Bits [31:16] of `merge`.
    merge_opc16: Constant<Bits<16>>,
    /// The empty word.
    zero: Constant<Bits<32>>,
}

impl Default for PwsDecode {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            insn: Default::default(),
            valid: Default::default(),
            out_valid: Default::default(),
            is_sopc: Default::default(),
            is_sopp: Default::default(),
            is_split: Default::default(),
            is_merge: Default::default(),
            ssrc0: Default::default(),
            ssrc1: Default::default(),
            illegal: Default::default(),
            word: Default::default(),
            full: Default::default(),
            src0_check: Default::default(),
            src1_check: Default::default(),
            sopc_prefix: Constant::new(0x17E.into()),
            sopp_prefix: Constant::new(0x17F.into()),
            split_opc16: Constant::new(0xBF7F.into()),
            merge_opc16: Constant::new(0xBFFF.into()),
            zero: Constant::new(0.into()),
        }
    }
}

impl Logic for PwsDecode {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, word, full);
        // Load the stage; an idle cycle clears the word so idle outputs stay 0.
        self.word.d.next = self.zero.val();
        if self.valid.val() {
            self.word.d.next = self.insn.val();
        }
        self.full.d.next = self.valid.val() & !self.reset.val();
        if self.reset.val() {
            self.word.d.next = self.zero.val();
        }
        self.src0_check.code.next = self.word.q.val().get_bits::<8>(0);
        self.src1_check.code.next = self.word.q.val().get_bits::<8>(8);
        self.out_valid.next = self.full.q.val();
        self.ssrc0.next = self.word.q.val().get_bits::<8>(0);
        self.ssrc1.next = self.word.q.val().get_bits::<8>(8);
        self.is_sopc.next =
            self.full.q.val() & (self.word.q.val().get_bits::<9>(23) == self.sopc_prefix.val());
        self.is_sopp.next =
            self.full.q.val() & (self.word.q.val().get_bits::<9>(23) == self.sopp_prefix.val());
        self.is_split.next =
            self.full.q.val() & (self.word.q.val().get_bits::<16>(16) == self.split_opc16.val());
        self.is_merge.next =
            self.full.q.val() & (self.word.q.val().get_bits::<16>(16) == self.merge_opc16.val());
        self.illegal.next = self.full.q.val()
            & (self.word.q.val().get_bits::<16>(16) == self.split_opc16.val())
            & !(self.src0_check.ok.val() & self.src1_check.ok.val());
    }
}
