//! A dispatched wavefront's initial registers: the kernel ABI's SGPRs and its lanes.

use crate::ctx::INIT_SGPRS;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The registers a wavefront starts with under rtgpu's simple ABI ([`crate::cu::Abi::Rtgpu`]):
/// `s[0:1]` the kernel argument segment, `s2` the work-group id, `s3` the work-group size,
/// `s4` the wave index; every other SGPR 0. EXEC: the lanes of work-items `64·wave ..` below
/// the work-group size (all 64 when the work-group has that many).
#[derive(LogicBlock)]
pub struct WaveInit {
    /// The kernel argument segment's byte address.
    pub kernarg: Signal<In, Bits<64>>,
    /// The work-group id.
    pub wg_id: Signal<In, Bits<32>>,
    /// Work-items per work-group.
    pub wg_size: Signal<In, Bits<32>>,
    /// The wave index within the work-group.
    pub wave: Signal<In, Bits<8>>,
    /// s0..s23.
    pub init_s: [Signal<Out, Bits<32>>; INIT_SGPRS],
    /// EXEC.
    pub lanes: Signal<Out, Bits<64>>,
    /// Work-items of the work-group from this wave's first on.
    rem: Signal<Local, Bits<32>>,
    /// `64 − rem`: the lanes past the work-group's end (32 bits, then zero-extended: casting
    /// the difference itself would make Verilog subtract at the cast's 64 bits).
    gap: Signal<Local, Bits<32>>,
    ones: Constant<Bits<64>>,
    k64: Constant<Bits<32>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
}

impl Default for WaveInit {
    fn default() -> Self {
        Self {
            kernarg: Default::default(),
            wg_id: Default::default(),
            wg_size: Default::default(),
            wave: Default::default(),
            init_s: array_init::array_init(|_| Default::default()),
            lanes: Default::default(),
            rem: Default::default(),
            gap: Default::default(),
            ones: k(u64::MAX),
            k64: k(64),
            z32: k(0),
            z64: k(0),
        }
    }
}

impl Logic for WaveInit {
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..INIT_SGPRS {
            self.init_s[i].next = self.z32.val();
        }
        self.init_s[0].next = self.kernarg.val().get_bits::<32>(0);
        self.init_s[1].next = self.kernarg.val().get_bits::<32>(32);
        self.init_s[2].next = self.wg_id.val();
        self.init_s[3].next = self.wg_size.val();
        self.init_s[4].next = bit_cast::<32, 8>(self.wave.val());
        self.rem.next = self.wg_size.val() - (bit_cast::<32, 8>(self.wave.val()) << 6);
        self.gap.next = self.k64.val() - self.rem.val();
        self.lanes.next = self.ones.val();
        if self.rem.val() < self.k64.val() {
            self.lanes.next = self.z64.val();
            if self.rem.val() != self.z32.val() {
                self.lanes.next = self.ones.val() >> bit_cast::<64, 32>(self.gap.val());
            }
        }
    }
}
