//! One lane's addresses: the byte addresses of its one or two words, their RAM words, and
//! whether each is aligned and inside the work-group's partition.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The address arithmetic of one lane, combinational.
#[derive(LogicBlock)]
pub struct LdsLane {
    /// The lane's `ADDR`.
    pub addr: Signal<In, Bits<32>>,
    /// The first address's offset in bytes.
    pub off_a: Signal<In, Bits<32>>,
    /// The second address's offset in bytes.
    pub off_b: Signal<In, Bits<32>>,
    /// The work-group's first word.
    pub base: Signal<In, Bits<16>>,
    /// The work-group's size in words.
    pub words: Signal<In, Bits<32>>,
    /// The first address's RAM word.
    pub idx0: Signal<Out, Bits<16>>,
    /// The second address's RAM word.
    pub idx1: Signal<Out, Bits<16>>,
    /// The first address is aligned and inside the partition.
    pub ok0: Signal<Out, Bit>,
    /// The second address likewise.
    pub ok1: Signal<Out, Bit>,
    /// The first byte address.
    pub e0: Signal<Out, Bits<32>>,
    /// The second byte address.
    pub e1: Signal<Out, Bits<32>>,
    /// The first address.
    a0: Signal<Local, Bits<32>>,
    /// The second address.
    a1: Signal<Local, Bits<32>>,
    /// 0.
    z2: Constant<Bits<2>>,
}

impl Default for LdsLane {
    fn default() -> Self {
        Self {
            addr: Default::default(),
            off_a: Default::default(),
            off_b: Default::default(),
            base: Default::default(),
            words: Default::default(),
            idx0: Default::default(),
            idx1: Default::default(),
            ok0: Default::default(),
            ok1: Default::default(),
            e0: Default::default(),
            e1: Default::default(),
            a0: Default::default(),
            a1: Default::default(),
            z2: k(0),
        }
    }
}

impl Logic for LdsLane {
    #[hdl_gen]
    fn update(&mut self) {
        self.a0.next = self.addr.val() + self.off_a.val();
        self.a1.next = self.addr.val() + self.off_b.val();
        self.idx0.next = self.base.val() + self.a0.val().get_bits::<16>(2);
        self.idx1.next = self.base.val() + self.a1.val().get_bits::<16>(2);
        self.ok0.next = (self.a0.val().get_bits::<2>(0) == self.z2.val())
            & ((self.a0.val() >> 2) < self.words.val());
        self.ok1.next = (self.a1.val().get_bits::<2>(0) == self.z2.val())
            & ((self.a1.val() >> 2) < self.words.val());
        self.e0.next = self.a0.val();
        self.e1.next = self.a1.val();
    }
}
