//! A dispatched wavefront's initial registers: the kernel ABI's SGPRs and its lanes.

use crate::ctx::INIT_SGPRS;
use crate::cu::abi::MAX_USER_SGPRS;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The registers a wavefront starts with ([`crate::cu::Abi`]); every SGPR not named is 0.
///
/// - rtgpu's simple ABI: `s[0:1]` the kernel argument segment, `s2` the work-group id, `s3`
///   the work-group size, `s4` the wave index.
/// - The HSA ABI: the first `n = min(PGM_RSRC2[5:1], 16)` SGPRs the user data, then, each
///   when its `PGM_RSRC2` bit is set, the work-group id x, y and z (y and z are 0 in a
///   one-dimensional launch), the work-group info (bit 31: the group's first wave; bits 5:0:
///   its wavefronts) and the scratch wave offset (0). Only x and the info are not 0, at `n`
///   and at `n` plus the count of x, y and z.
///
/// EXEC: the lanes of work-items `64·wave ..` below the work-group size (all 64 when the
/// work-group has that many). Combinational.
#[derive(LogicBlock)]
pub struct WaveInit {
    /// The kernel argument segment's byte address (simple ABI).
    pub kernarg: Signal<In, Bits<64>>,
    /// The work-group id.
    pub wg_id: Signal<In, Bits<32>>,
    /// Work-items per work-group.
    pub wg_size: Signal<In, Bits<32>>,
    /// Wavefronts per work-group (`⌈wg_size / 64⌉`).
    pub waves: Signal<In, Bits<8>>,
    /// The wave index within the work-group.
    pub wave: Signal<In, Bits<8>>,
    /// The HSA ABI (else rtgpu's simple ABI).
    pub hsa: Signal<In, Bit>,
    /// HSA: `COMPUTE_PGM_RSRC2` (the `RSRC2_*` fields of [`crate::cu::abi`]).
    pub rsrc2: Signal<In, Bits<32>>,
    /// HSA: the user SGPRs' values (`USER_DATA[i]`).
    pub user: [Signal<In, Bits<32>>; MAX_USER_SGPRS],
    /// s0..s23.
    pub init_s: [Signal<Out, Bits<32>>; INIT_SGPRS],
    /// EXEC.
    pub lanes: Signal<Out, Bits<64>>,
    /// Work-items of the work-group from this wave's first on.
    rem: Signal<Local, Bits<32>>,
    /// `64 − rem`: the lanes past the work-group's end (32 bits, then zero-extended: casting
    /// the difference itself would make Verilog subtract at the cast's 64 bits).
    gap: Signal<Local, Bits<32>>,
    /// HSA: the user SGPRs, `PGM_RSRC2[5:1]` up to 16.
    n_user: Signal<Local, Bits<5>>,
    /// HSA: where the work-group info SGPR goes (`n_user` + the enabled ids x, y, z).
    at_info: Signal<Local, Bits<5>>,
    /// HSA: the work-group info SGPR's value.
    info: Signal<Local, Bits<32>>,
    /// Each SGPR's number.
    pos: [Constant<Bits<5>>; INIT_SGPRS],
    max_user: Constant<Bits<5>>,
    first_wave: Constant<Bits<32>>,
    ones: Constant<Bits<64>>,
    k64: Constant<Bits<32>>,
    z8: Constant<Bits<8>>,
    z32: Constant<Bits<32>>,
    z64: Constant<Bits<64>>,
}

impl Default for WaveInit {
    fn default() -> Self {
        Self {
            kernarg: Default::default(),
            wg_id: Default::default(),
            wg_size: Default::default(),
            waves: Default::default(),
            wave: Default::default(),
            hsa: Default::default(),
            rsrc2: Default::default(),
            user: array_init::array_init(|_| Default::default()),
            init_s: array_init::array_init(|_| Default::default()),
            lanes: Default::default(),
            rem: Default::default(),
            gap: Default::default(),
            n_user: Default::default(),
            at_info: Default::default(),
            info: Default::default(),
            pos: array_init::array_init(|i| k(i as u64)),
            max_user: k(MAX_USER_SGPRS as u64),
            first_wave: k(1 << 31),
            ones: k(u64::MAX),
            k64: k(64),
            z8: k(0),
            z32: k(0),
            z64: k(0),
        }
    }
}

impl Logic for WaveInit {
    #[hdl_gen]
    fn update(&mut self) {
        self.n_user.next = self.rsrc2.val().get_bits::<5>(1);
        if self.n_user.val() > self.max_user.val() {
            self.n_user.next = self.max_user.val();
        }
        self.at_info.next = self.n_user.val()
            + bit_cast::<5, 1>(self.rsrc2.val().get_bits::<1>(7))
            + bit_cast::<5, 1>(self.rsrc2.val().get_bits::<1>(8))
            + bit_cast::<5, 1>(self.rsrc2.val().get_bits::<1>(9));
        self.info.next = bit_cast::<32, 8>(self.waves.val());
        if self.wave.val() == self.z8.val() {
            self.info.next = bit_cast::<32, 8>(self.waves.val()) | self.first_wave.val();
        }
        for i in 0..INIT_SGPRS {
            self.init_s[i].next = self.z32.val();
            if self.hsa.val() {
                if self.rsrc2.val().get_bit(7) & (self.pos[i].val() == self.n_user.val()) {
                    self.init_s[i].next = self.wg_id.val();
                }
                if self.rsrc2.val().get_bit(10) & (self.pos[i].val() == self.at_info.val()) {
                    self.init_s[i].next = self.info.val();
                }
            }
        }
        for i in 0..MAX_USER_SGPRS {
            if self.hsa.val() & (self.pos[i].val() < self.n_user.val()) {
                self.init_s[i].next = self.user[i].val();
            }
        }
        if !self.hsa.val() {
            self.init_s[0].next = self.kernarg.val().get_bits::<32>(0);
            self.init_s[1].next = self.kernarg.val().get_bits::<32>(32);
            self.init_s[2].next = self.wg_id.val();
            self.init_s[3].next = self.wg_size.val();
            self.init_s[4].next = bit_cast::<32, 8>(self.wave.val());
        }
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cu::{Abi, WavePlace};

    /// The block's SGPRs and EXEC for one wave.
    fn block(b: &mut WaveInit, abi: &Abi, at: WavePlace) -> ([u32; INIT_SGPRS], u64) {
        let waves = at.wg.div_ceil(64) as u64;
        b.wg_id.next = u64::from(at.group).to_bits();
        b.wg_size.next = u64::from(at.wg).to_bits();
        b.waves.next = waves.to_bits();
        b.wave.next = u64::from(at.wave).to_bits();
        match *abi {
            Abi::Rtgpu { kernarg } => {
                b.hsa.next = false;
                b.kernarg.next = kernarg.to_bits();
            }
            Abi::Hsa { rsrc2, user } => {
                b.hsa.next = true;
                b.rsrc2.next = u64::from(rsrc2).to_bits();
                for (i, u) in user.iter().enumerate() {
                    b.user[i].next = u64::from(*u).to_bits();
                }
            }
        }
        assert!(simulate(b, 10));
        let s = std::array::from_fn(|i| b.init_s[i].val().index() as u32);
        (s, b.lanes.val().to_u64())
    }

    proptest::proptest! {
        #![proptest_config(proptest::prelude::ProptestConfig::with_cases(2000))]

        /// Random `PGM_RSRC2` values (all 32 bits, so counts above 16 too), user data, places
        /// and both ABIs: the SGPRs equal [`Abi::init_sgprs`]'s and EXEC the work-group's
        /// lanes. Caught: the info SGPR placed without the z id, the count not capped at 16,
        /// the first-wave bit on every wave.
        #[test]
        fn the_sgprs_are_the_abis(
            hsa: bool,
            rsrc2: u32,
            kernarg: u64,
            user: [u32; MAX_USER_SGPRS],
            group: u32,
            wg in 1u32..=1024,
            wave_pick: u32,
        ) {
            let at = WavePlace { group, wg, wave: wave_pick % wg.div_ceil(64) };
            let abi = match hsa {
                false => Abi::from(kernarg),
                true => Abi::Hsa { rsrc2, user },
            };
            let mut want = [0u32; INIT_SGPRS];
            abi.init_sgprs(at, &mut want);
            let rem = wg - 64 * at.wave;
            let lanes = if rem >= 64 { u64::MAX } else { (1 << rem) - 1 };
            let mut b = WaveInit::default();
            b.connect_all();
            proptest::prop_assert_eq!(block(&mut b, &abi, at), (want, lanes), "{:?} {:?}", abi, at);
        }
    }
}
