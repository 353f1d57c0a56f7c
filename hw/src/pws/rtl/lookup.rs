//! The SIMD group's selects: every context's family and relative id, the commanded context X,
//! the free context Y a split takes, X's merge partner P, and the lowest expired context.
//! Pure combinational logic over the contexts' registers; [`super::decide::PwsDecide`] decides
//! from what it finds.

use crate::hdl::k;
use array_init::array_init;
use rust_hdl::prelude::*;

/// The selects of a SIMD group of `CTXS` contexts (`UNITS` units, `LANES` lanes).
///
/// Context k is slot k / UNITS of unit k % UNITS ([`super::simd_group::SimdGroup`]).
#[derive(LogicBlock)]
pub struct PwsLookup<const LANES: usize, const UNITS: usize, const CTXS: usize> {
    /// Mode: 0 = PWS (families are slots), 1 = DWS (families are units).
    pub dws: Signal<In, Bit>,
    /// S: under PWS a split's child takes SpSIMD 1..=S only.
    pub s: Signal<In, Bits<3>>,
    /// The SpSIMDID of the commanded context X.
    pub cmd_unit: Signal<In, Bits<3>>,
    /// The slot of the commanded context X.
    pub cmd_slot: Signal<In, Bits<4>>,
    /// Each context's state code.
    pub state: [Signal<In, Bits<3>>; CTXS],
    /// Each context's split mask.
    pub spm: [Signal<In, Bits<LANES>>; CTXS],
    /// Each context's child-stack pointer.
    pub sp: [Signal<In, Bits<3>>; CTXS],
    /// Each context's child-stack top (relative id).
    pub top: [Signal<In, Bits<4>>; CTXS],
    /// Each context's parent register is set.
    pub parent_valid: [Signal<In, Bit>; CTXS],
    /// Each context's parent (relative id).
    pub parent: [Signal<In, Bits<4>>; CTXS],
    /// Each context's WF's original context (relative id).
    pub root: [Signal<In, Bits<4>>; CTXS],
    /// Each context's merge PC.
    pub pc: [Signal<In, Bits<32>>; CTXS],
    /// Each context's count of live descendants (meaningful in a WF's original context).
    pub live: [Signal<In, Bits<3>>; CTXS],
    /// Each context may be taken by a split (EMPTY or DONE, no parent).
    pub free: [Signal<In, Bit>; CTXS],
    /// Each context has waited at a merge for the watchdog bound.
    pub expired: [Signal<In, Bit>; CTXS],
    /// Each context's family: its slot in PWS, its unit in DWS.
    pub fam: [Signal<Out, Bits<4>>; CTXS],
    /// Each context's relative id: its unit in PWS, its slot in DWS.
    pub rel: [Signal<Out, Bits<4>>; CTXS],
    /// Each context is X (its unit and slot are the command's).
    pub is_x: [Signal<Out, Bit>; CTXS],
    /// X's state code (0 when X does not exist).
    pub x_state: Signal<Out, Bits<3>>,
    /// X's split mask.
    pub x_spm: Signal<Out, Bits<LANES>>,
    /// X's child-stack pointer.
    pub x_sp: Signal<Out, Bits<3>>,
    /// X's parent register is set.
    pub x_pv: Signal<Out, Bit>,
    /// X's WF's original context (relative id).
    pub x_root: Signal<Out, Bits<4>>,
    /// X's family.
    pub x_fam: Signal<Out, Bits<4>>,
    /// X's relative id.
    pub x_rel: Signal<Out, Bits<4>>,
    /// X's context index.
    pub x_idx: Signal<Out, Bits<7>>,
    /// Live descendants of X's WF (the `live` of its original context).
    pub x_live: Signal<Out, Bits<3>>,
    /// A free context Y exists in X's family (in PWS: on a SpSIMD of 1..=S).
    pub y_found: Signal<Out, Bit>,
    /// Y's context index: the lowest that qualifies (0 when none).
    pub y_idx: Signal<Out, Bits<7>>,
    /// Y's relative id.
    pub y_rel: Signal<Out, Bits<4>>,
    /// X has a merge partner P: its top child, else its parent.
    pub p_exists: Signal<Out, Bit>,
    /// P's state code.
    pub p_state: Signal<Out, Bits<3>>,
    /// P's merge PC.
    pub p_pc: Signal<Out, Bits<32>>,
    /// P's context index.
    pub p_idx: Signal<Out, Bits<7>>,
    /// P's partner is X (P's top child, else P's parent, is X).
    pub p_meets_x: Signal<Out, Bit>,
    /// Some context has expired.
    pub wd_any: Signal<Out, Bit>,
    /// The lowest expired context's index (0 when none).
    pub wd_idx: Signal<Out, Bits<7>>,
    /// X's child-stack top.
    x_top: Signal<Local, Bits<4>>,
    /// X's parent.
    x_parent: Signal<Local, Bits<4>>,
    /// P's relative id.
    p_rel: Signal<Local, Bits<4>>,
    /// P's child-stack pointer.
    p_sp: Signal<Local, Bits<3>>,
    /// P's child-stack top.
    p_top: Signal<Local, Bits<4>>,
    /// P's parent register is set.
    p_pv: Signal<Local, Bit>,
    /// P's parent.
    p_parent: Signal<Local, Bits<4>>,
    /// Hard-wired per context: its SpSIMDID.
    unit_of: [Constant<Bits<3>>; CTXS],
    /// Hard-wired per context: its SpSIMDID on 4 bits (a family or a relative id).
    unit4_of: [Constant<Bits<4>>; CTXS],
    /// Hard-wired per context: its slot.
    slot_of: [Constant<Bits<4>>; CTXS],
    /// Hard-wired per context: its index.
    index_of: [Constant<Bits<7>>; CTXS],
    /// Hard-wired per context: it is on the SIMD (unit 0).
    on_simd: [Constant<Bit>; CTXS],
    /// Hard-wired per context: its unit as a one-hot bit.
    unit_bit: [Constant<Bits<8>>; CTXS],
    /// The units a PWS child may take: 0..=S (one-hot bits).
    s_units: Signal<Local, Bits<8>>,
    /// Sized two, 8 bits.
    two8: Constant<Bits<8>>,
    /// Sized one, 8 bits.
    one8: Constant<Bits<8>>,
    /// Sized zero, 3 bits.
    zero3: Constant<Bits<3>>,
    /// Sized zero, 4 bits.
    zero4: Constant<Bits<4>>,
    /// Sized zero, 7 bits.
    zero7: Constant<Bits<7>>,
    /// Sized zero, 32 bits.
    zero32: Constant<Bits<32>>,
    /// Sized zero, LANES bits.
    zero_lanes: Constant<Bits<LANES>>,
}

impl<const LANES: usize, const UNITS: usize, const CTXS: usize> Default
    for PwsLookup<LANES, UNITS, CTXS>
{
    fn default() -> Self {
        Self {
            dws: Default::default(),
            s: Default::default(),
            cmd_unit: Default::default(),
            cmd_slot: Default::default(),
            state: array_init(|_| Default::default()),
            spm: array_init(|_| Default::default()),
            sp: array_init(|_| Default::default()),
            top: array_init(|_| Default::default()),
            parent_valid: array_init(|_| Default::default()),
            parent: array_init(|_| Default::default()),
            root: array_init(|_| Default::default()),
            pc: array_init(|_| Default::default()),
            live: array_init(|_| Default::default()),
            free: array_init(|_| Default::default()),
            expired: array_init(|_| Default::default()),
            fam: array_init(|_| Default::default()),
            rel: array_init(|_| Default::default()),
            is_x: array_init(|_| Default::default()),
            x_state: Default::default(),
            x_spm: Default::default(),
            x_sp: Default::default(),
            x_pv: Default::default(),
            x_root: Default::default(),
            x_fam: Default::default(),
            x_rel: Default::default(),
            x_idx: Default::default(),
            x_live: Default::default(),
            y_found: Default::default(),
            y_idx: Default::default(),
            y_rel: Default::default(),
            p_exists: Default::default(),
            p_state: Default::default(),
            p_pc: Default::default(),
            p_idx: Default::default(),
            p_meets_x: Default::default(),
            wd_any: Default::default(),
            wd_idx: Default::default(),
            x_top: Default::default(),
            x_parent: Default::default(),
            p_rel: Default::default(),
            p_sp: Default::default(),
            p_top: Default::default(),
            p_pv: Default::default(),
            p_parent: Default::default(),
            unit_of: array_init(|i| k((i % UNITS) as u64)),
            unit4_of: array_init(|i| k((i % UNITS) as u64)),
            unit_bit: array_init(|i| k(1 << (i % UNITS))),
            s_units: Default::default(),
            two8: k(2),
            one8: k(1),
            slot_of: array_init(|i| k((i / UNITS) as u64)),
            index_of: array_init(|i| k(i as u64)),
            on_simd: array_init(|i| Constant::new(i % UNITS == 0)),
            zero3: k(0),
            zero4: k(0),
            zero7: k(0),
            zero32: k(0),
            zero_lanes: k(0),
        }
    }
}

impl<const LANES: usize, const UNITS: usize, const CTXS: usize> Logic
    for PwsLookup<LANES, UNITS, CTXS>
{
    #[hdl_gen]
    fn update(&mut self) {
        // ---- Per context: family and relative id, is it X?
        for i in 0..CTXS {
            self.fam[i].next = self.slot_of[i].val();
            self.rel[i].next = self.unit4_of[i].val();
            if self.dws.val() {
                self.fam[i].next = self.unit4_of[i].val();
                self.rel[i].next = self.slot_of[i].val();
            }
            self.is_x[i].next = (self.unit_of[i].val() == self.cmd_unit.val())
                & (self.slot_of[i].val() == self.cmd_slot.val());
        }
        // ---- X's registers.
        self.x_state.next = self.zero3.val();
        self.x_spm.next = self.zero_lanes.val();
        self.x_sp.next = self.zero3.val();
        self.x_top.next = self.zero4.val();
        self.x_pv.next = false;
        self.x_parent.next = self.zero4.val();
        self.x_root.next = self.zero4.val();
        self.x_fam.next = self.zero4.val();
        self.x_rel.next = self.zero4.val();
        self.x_idx.next = self.zero7.val();
        for i in 0..CTXS {
            if self.is_x[i].val() {
                self.x_state.next = self.state[i].val();
                self.x_spm.next = self.spm[i].val();
                self.x_sp.next = self.sp[i].val();
                self.x_top.next = self.top[i].val();
                self.x_pv.next = self.parent_valid[i].val();
                self.x_parent.next = self.parent[i].val();
                self.x_root.next = self.root[i].val();
                self.x_fam.next = self.fam[i].val();
                self.x_rel.next = self.rel[i].val();
                self.x_idx.next = self.index_of[i].val();
            }
        }
        // ---- Free context Y: the lowest index of X's family that is free (and, in PWS, on a
        // SpSIMD of 1..=S: a group runs PWS at S on its first S + 1 units); the lowest expired
        // context. The outer one-pass loop names CTXS - 1 so the
        // inner loop can walk down and the last (lowest) match wins.
        // (A mask, not `unit <= s`: unit 0's comparison would be constant.)
        self.s_units.next = (self.two8.val() << self.s.val()) - self.one8.val();
        self.y_found.next = false;
        self.y_idx.next = self.zero7.val();
        self.y_rel.next = self.zero4.val();
        self.wd_any.next = false;
        self.wd_idx.next = self.zero7.val();
        for last in (CTXS - 1)..CTXS {
            for j in 0..CTXS {
                if self.free[last - j].val()
                    & (self.fam[last - j].val() == self.x_fam.val())
                    & (self.dws.val()
                        | (!self.on_simd[last - j].val()
                            & (self.s_units.val() & self.unit_bit[last - j].val()).any()))
                {
                    self.y_found.next = true;
                    self.y_idx.next = self.index_of[last - j].val();
                    self.y_rel.next = self.rel[last - j].val();
                }
                if self.expired[last - j].val() {
                    self.wd_any.next = true;
                    self.wd_idx.next = self.index_of[last - j].val();
                }
            }
        }
        // ---- X's partner P (top child, else parent) and X's WF's live count.
        self.p_exists.next = self.x_sp.val().any() | self.x_pv.val();
        self.p_rel.next = self.x_parent.val();
        if self.x_sp.val().any() {
            self.p_rel.next = self.x_top.val();
        }
        self.p_state.next = self.zero3.val();
        self.p_pc.next = self.zero32.val();
        self.p_sp.next = self.zero3.val();
        self.p_top.next = self.zero4.val();
        self.p_pv.next = false;
        self.p_parent.next = self.zero4.val();
        self.p_idx.next = self.zero7.val();
        self.x_live.next = self.zero3.val();
        for i in 0..CTXS {
            if (self.fam[i].val() == self.x_fam.val()) & (self.rel[i].val() == self.p_rel.val()) {
                self.p_state.next = self.state[i].val();
                self.p_pc.next = self.pc[i].val();
                self.p_sp.next = self.sp[i].val();
                self.p_top.next = self.top[i].val();
                self.p_pv.next = self.parent_valid[i].val();
                self.p_parent.next = self.parent[i].val();
                self.p_idx.next = self.index_of[i].val();
            }
            if (self.fam[i].val() == self.x_fam.val()) & (self.rel[i].val() == self.x_root.val()) {
                self.x_live.next = self.live[i].val();
            }
        }
        self.p_meets_x.next = self.p_pv.val() & (self.p_parent.val() == self.x_rel.val());
        if self.p_sp.val().any() {
            self.p_meets_x.next = self.p_top.val() == self.x_rel.val();
        }
    }
}
