//! The launch checks of the behavioural compute unit (`bad_launch` and its information
//! code), for the launch registers the RTL system holds.

use crate::cu::MAX_GRID;
use crate::cu_system::{CODE_BYTES, LDS_BYTES};
use crate::cu_top::CONTEXTS;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The first failed check's number on `info` (0: the launch may start), in the behavioural
/// unit's order: 1 work-group size outside 1..=1024, 2 grid not a positive multiple of it (or
/// past `MAX_GRID`), 3 more wavefronts per work-group than contexts, 4 LDS size not a multiple
/// of 4 or too large, 5 S outside 1..=7, 6 entry PC unaligned or past the code, 7 reordering
/// (the system has no memory hierarchy), 9 a sub-kernel other than the whole launch on
/// compute unit 0, 10 a setting the RTL compute unit does not have yet (PWS with S above `S`,
/// its top's SpSIMDs; a `FEATURES` bit). Combinational.
#[derive(LogicBlock)]
pub struct LaunchCheck<const S: usize> {
    /// `GRID`.
    pub grid: Signal<In, Bits<32>>,
    /// `WG`.
    pub wg: Signal<In, Bits<32>>,
    /// `GRID % WG` (the divider's remainder).
    pub rem: Signal<In, Bits<32>>,
    /// `LDS`.
    pub lds: Signal<In, Bits<32>>,
    /// `MODE`.
    pub mode: Signal<In, Bits<32>>,
    /// `FEATURES`.
    pub features: Signal<In, Bits<32>>,
    /// `ENTRY_PC`.
    pub entry_pc: Signal<In, Bits<32>>,
    /// The sub-kernel registers name the whole launch on compute unit 0.
    pub whole: Signal<In, Bit>,
    /// The failed check (0: none).
    pub info: Signal<Out, Bits<32>>,
    /// Wavefronts per work-group, `⌈WG / 64⌉`.
    pub waves: Signal<Out, Bits<32>>,
    c63: Constant<Bits<32>>,
    max_wg: Constant<Bits<32>>,
    max_grid: Constant<Bits<32>>,
    slots: Constant<Bits<32>>,
    lds_max: Constant<Bits<32>>,
    code_end: Constant<Bits<32>>,
    m3: Constant<Bits<32>>,
    z32: Constant<Bits<32>>,
    z3: Constant<Bits<3>>,
    z2: Constant<Bits<2>>,
    /// `MODE`'s DWS and PWS codes, and the largest S under PWS (`S`).
    m_dws: Constant<Bits<2>>,
    m_pws: Constant<Bits<2>>,
    s_max: Constant<Bits<3>>,
    /// The mode and S are ones the compute unit has.
    split_ok: Signal<Local, Bit>,
    checks: [Constant<Bits<32>>; 11],
}

impl<const S: usize> Default for LaunchCheck<S> {
    fn default() -> Self {
        Self {
            grid: Default::default(),
            wg: Default::default(),
            rem: Default::default(),
            lds: Default::default(),
            mode: Default::default(),
            features: Default::default(),
            entry_pc: Default::default(),
            whole: Default::default(),
            info: Default::default(),
            waves: Default::default(),
            c63: k(63),
            max_wg: k(1024),
            max_grid: k(u64::from(MAX_GRID)),
            slots: k(CONTEXTS as u64),
            lds_max: k(u64::from(LDS_BYTES)),
            code_end: k(u64::from(CODE_BYTES)),
            m3: k(3),
            z32: k(0),
            z3: k(0),
            z2: k(0),
            m_dws: k(1),
            m_pws: k(2),
            s_max: k(S as u64),
            split_ok: Default::default(),
            checks: array_init::array_init(|i| k(i as u64)),
        }
    }
}

impl<const S: usize> Logic for LaunchCheck<S> {
    #[hdl_gen]
    fn update(&mut self) {
        self.waves.next = (self.wg.val() + self.c63.val()) >> 6;
        // The last assignment wins: the checks in reverse order.
        self.info.next = self.z32.val();
        // No split or DWS (any S: check 5 refuses 0), or PWS with S up to the top's SpSIMDs.
        self.split_ok.next = (self.mode.val().get_bits::<2>(0) == self.z2.val())
            | (self.mode.val().get_bits::<2>(0) == self.m_dws.val())
            | ((self.mode.val().get_bits::<2>(0) == self.m_pws.val())
                & (self.mode.val().get_bits::<3>(4) <= self.s_max.val()));
        if !self.split_ok.val()
            | (self.features.val().get_bits::<31>(1) != bit_cast::<31, 32>(self.z32.val()))
        {
            self.info.next = self.checks[10].val();
        }
        if !self.whole.val() {
            self.info.next = self.checks[9].val();
        }
        if self.features.val().get_bit(0) {
            self.info.next = self.checks[7].val();
        }
        if ((self.entry_pc.val() & self.m3.val()) != self.z32.val())
            | (self.entry_pc.val() >= self.code_end.val())
        {
            self.info.next = self.checks[6].val();
        }
        if self.mode.val().get_bits::<3>(4) == self.z3.val() {
            self.info.next = self.checks[5].val();
        }
        if ((self.lds.val() & self.m3.val()) != self.z32.val())
            | (self.lds.val() > self.lds_max.val())
        {
            self.info.next = self.checks[4].val();
        }
        if self.waves.val() > self.slots.val() {
            self.info.next = self.checks[3].val();
        }
        if (self.grid.val() == self.z32.val())
            | (self.rem.val() != self.z32.val())
            | (self.grid.val() > self.max_grid.val())
        {
            self.info.next = self.checks[2].val();
        }
        if (self.wg.val() == self.z32.val()) | (self.wg.val() > self.max_wg.val()) {
            self.info.next = self.checks[1].val();
        }
    }
}
