//! One term of `ds_add_u32`'s per-lane sums: lane *j* writes its word with the word's old
//! value plus the `DATA0` of every lane *i* ≤ *j* that adds to the same word, so that the
//! highest such lane, whose write the RAM keeps, leaves every lane's addend in the word, as
//! lanes run one after the other in the behavioural model.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// `out = acc + (en & idx == me ? d : 0)`, combinational.
#[derive(LogicBlock)]
pub struct LdsSumStep {
    /// The word of the lane whose sum this is.
    pub me: Signal<In, Bits<16>>,
    /// The word of the term's lane.
    pub idx: Signal<In, Bits<16>>,
    /// The term's lane adds (active, before any fault, at or below the summing lane).
    pub en: Signal<In, Bit>,
    /// The term's `DATA0`.
    pub d: Signal<In, Bits<32>>,
    /// The sum of the terms before.
    pub acc: Signal<In, Bits<32>>,
    /// The sum with this term.
    pub out: Signal<Out, Bits<32>>,
    /// The addend (0 when the term does not count).
    add: Signal<Local, Bits<32>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl Default for LdsSumStep {
    fn default() -> Self {
        Self {
            me: Default::default(),
            idx: Default::default(),
            en: Default::default(),
            d: Default::default(),
            acc: Default::default(),
            out: Default::default(),
            add: Default::default(),
            z32: k(0),
        }
    }
}

impl Logic for LdsSumStep {
    #[hdl_gen]
    fn update(&mut self) {
        self.add.next = self.z32.val();
        if self.en.val() & (self.idx.val() == self.me.val()) {
            self.add.next = self.d.val();
        }
        self.out.next = self.acc.val() + self.add.val();
    }
}

/// The sums of a quarter's 16 lanes: a grid of 256 [`LdsSumStep`]s, term `i` of lane `j`'s
/// sum in `step[16·j + i]`, lane `j` counting the lanes `i ≤ j` of `en`.
#[derive(LogicBlock)]
pub struct LdsSums {
    /// Each lane's word.
    pub idx: [Signal<In, Bits<16>>; 16],
    /// Each lane's `DATA0`.
    pub d: [Signal<In, Bits<32>>; 16],
    /// The lanes that add.
    pub en: Signal<In, Bits<16>>,
    /// Each lane's word's value before the quarter.
    pub old: [Signal<In, Bits<32>>; 16],
    /// Each lane's sum.
    pub sum: [Signal<Out, Bits<32>>; 16],
    /// The grid.
    step: [LdsSumStep; 256],
    /// Lanes `0..=j`.
    upto: [Constant<Bits<16>>; 16],
}

impl Default for LdsSums {
    fn default() -> Self {
        Self {
            idx: Default::default(),
            d: Default::default(),
            en: Default::default(),
            old: Default::default(),
            sum: Default::default(),
            step: array_init::array_init(|_| Default::default()),
            upto: array_init::array_init(|j| k((2 << j) - 1)),
        }
    }
}

impl Logic for LdsSums {
    #[hdl_gen]
    fn update(&mut self) {
        for j in 0..16 {
            for i in 0..16 {
                self.step[16 * j + i].me.next = self.idx[j].val();
                self.step[16 * j + i].idx.next = self.idx[i].val();
                self.step[16 * j + i].d.next = self.d[i].val();
                self.step[16 * j + i].en.next =
                    self.en.val().get_bit(i) & self.upto[j].val().get_bit(i);
            }
            self.step[16 * j].acc.next = self.old[j].val();
            for i in 1..16 {
                self.step[16 * j + i].acc.next = self.step[16 * j + i - 1].out.val();
            }
            self.sum[j].next = self.step[16 * j + 15].out.val();
        }
    }
}
