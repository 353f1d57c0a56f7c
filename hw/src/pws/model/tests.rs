//! Unit tests of the PWS split/merge unit model: the helpers and bench, power-up, the
//! configuration ranges, the paper's figures and the basic split/merge cases. The error
//! and watchdog cases are in `errors`, the edge cases, DWS and random streams in `streams`.

use super::*;

const EMPTY: u8 = State::Empty as u8;
const READY: u8 = State::Ready as u8;
const SPLITTING: u8 = State::Splitting as u8;
const MERGE_WAIT: u8 = State::MergeWait as u8;
const MERGING: u8 = State::Merging as u8;
const DONE: u8 = State::Done as u8;

fn config(lanes: usize, half: usize, units: usize, n_wfc: usize) -> ModelConfig {
    ModelConfig {
        lanes,
        units,
        n_wfc,
        params: PwsParams {
            half,
            e_split: 4,
            e_merge: 2,
        },
    }
}

/// The toy configuration of Figs. 3b and 5: 4 lanes, H = 2, N_WFC = 1.
fn toy(units: usize) -> ModelConfig {
    config(4, 2, units, 1)
}

fn input(cmd: Cmd, unit: u8, slot: u8) -> GroupIn {
    GroupIn {
        cmd: cmd as u8,
        cmd_unit: unit,
        cmd_slot: slot,
        ..GroupIn::default()
    }
}

fn dispatch(unit: u8, slot: u8, lanes: u64) -> GroupIn {
    GroupIn {
        cmd_mask: lanes,
        ..input(Cmd::Dispatch, unit, slot)
    }
}

/// SPLIT with SSRC0 = `s0` and SSRC1 = `s1`.
fn split(unit: u8, slot: u8, s0: u32, s1: u32) -> GroupIn {
    GroupIn {
        cmd_mask: u64::from(s1) << 32 | u64::from(s0),
        ..input(Cmd::Split, unit, slot)
    }
}

fn merge(unit: u8, slot: u8, pc: u32) -> GroupIn {
    GroupIn {
        cmd_pc: pc,
        ..input(Cmd::Merge, unit, slot)
    }
}

fn end(unit: u8, slot: u8) -> GroupIn {
    input(Cmd::End, unit, slot)
}

fn idle() -> GroupIn {
    GroupIn::default()
}

/// A model, the current cycle number and the mode inputs that stay constant.
struct Bench {
    m: SimdGroupModel,
    /// The current cycle (0 = the first cycle after power-up).
    t: u32,
    dws: bool,
    watchdog: u16,
    /// S: UNITS − 1 unless a test sets it.
    s: u8,
}

impl Bench {
    fn new(cfg: ModelConfig) -> Self {
        Self {
            m: SimdGroupModel::new(cfg),
            t: 0,
            dws: false,
            watchdog: 0,
            s: (cfg.units - 1) as u8,
        }
    }

    fn dws(cfg: ModelConfig) -> Self {
        Self {
            dws: true,
            ..Self::new(cfg)
        }
    }

    /// The outputs of the current cycle, with EXEC all ones (so eff = spm).
    fn out(&self) -> GroupOut {
        self.m.outputs(&vec![u64::MAX; self.m.ctx.len()])
    }

    /// Presents `inp` (with the bench's dws and watchdog) during the current cycle, clocks,
    /// and returns the outputs of the next cycle. Every edge that says it kept the outputs
    /// is checked to have kept them.
    fn step(&mut self, inp: GroupIn) -> GroupOut {
        let inp = GroupIn {
            dws: self.dws,
            watchdog: self.watchdog,
            s: self.s,
            ..inp
        };
        let before = self.out();
        self.m.clock(&inp);
        self.t += 1;
        let after = self.out();
        if self.m.outputs_kept() {
            assert_eq!(
                after, before,
                "cycle {}: outputs_kept, yet they changed",
                self.t
            );
        }
        after
    }

    /// Idles until cycle `t` (inclusive of the clocks in between), returning its outputs.
    fn run_to(&mut self, t: u32) -> GroupOut {
        assert!(t >= self.t, "cycle {t} is in the past (now {})", self.t);
        while self.t < t {
            self.step(idle());
        }
        self.out()
    }

    fn states(&self) -> Vec<u8> {
        self.out().ctx.iter().map(|c| c.state).collect()
    }

    fn spms(&self) -> Vec<u64> {
        self.out().ctx.iter().map(|c| c.spm).collect()
    }

    /// Presents a command that must fail with `code` naming `ctx`: the error shows in the
    /// next cycle only, and the command changed nothing but the error register.
    fn reject(&mut self, inp: GroupIn, code: ErrorCode, ctx: u8) {
        let mut reference = self.m.clone();
        reference.clock(&GroupIn {
            dws: self.dws,
            watchdog: self.watchdog,
            s: self.s,
            ..idle()
        });
        let out = self.step(inp);
        assert_eq!(
            (out.error, out.error_ctx),
            (code as u8, ctx),
            "cycle {}: error of {inp:?}",
            self.t
        );
        assert_eq!(
            self.m.ctx, reference.ctx,
            "cycle {}: {inp:?} changed state",
            self.t
        );
        assert_eq!(self.m.rendezvous, reference.rendezvous);
        assert_eq!(self.m.copy, reference.copy);
        assert!(!out.split_denied);
        let after = self.step(idle());
        assert_eq!(
            (after.error, after.error_ctx),
            (0, 0),
            "error lasts one cycle"
        );
    }
}

/// Checks that nothing but the error/strobe registers differ from power-up.
fn assert_power_up(b: &Bench) {
    let fresh = Bench::new(b.m.config());
    assert_eq!(b.out(), fresh.out());
    for k in 0..b.m.ctx.len() {
        assert_eq!(b.m.stack(k), Vec::<u8>::new());
        assert_eq!((b.m.root(k), b.m.live(k), b.m.pc(k)), (0, 0, 0));
    }
    assert_eq!(b.m, fresh.m);
}

#[test]
fn power_up() {
    let b = Bench::new(config(64, 32, 8, 16));
    let out = b.out();
    assert_eq!(out.ctx.len(), 128);
    assert!(out.ctx.iter().all(|c| *c == CtxOut::default()));
    assert!(!out.copy_valid && !out.split_denied);
    assert_eq!(
        (out.copy_from, out.copy_to, out.error, out.error_ctx),
        (0, 0, 0, 0)
    );
    assert_eq!(b.m.config(), config(64, 32, 8, 16));
}

#[test]
fn config_ranges() {
    let good = config(4, 2, 3, 1);
    let bad = [
        ModelConfig { lanes: 3, ..good },
        ModelConfig { lanes: 65, ..good },
        ModelConfig { units: 1, ..good },
        ModelConfig { units: 9, ..good },
        ModelConfig { n_wfc: 0, ..good },
        ModelConfig { n_wfc: 17, ..good },
        ModelConfig {
            params: PwsParams {
                half: 0,
                ..good.params
            },
            ..good
        },
        ModelConfig {
            params: PwsParams {
                half: 33,
                ..good.params
            },
            ..good
        },
        ModelConfig {
            params: PwsParams {
                e_split: 0,
                ..good.params
            },
            ..good
        },
        ModelConfig {
            params: PwsParams {
                e_split: 16,
                ..good.params
            },
            ..good
        },
        ModelConfig {
            params: PwsParams {
                e_merge: 0,
                ..good.params
            },
            ..good
        },
        ModelConfig {
            params: PwsParams {
                e_merge: 16,
                ..good.params
            },
            ..good
        },
    ];
    for cfg in bad {
        let r = std::panic::catch_unwind(|| SimdGroupModel::new(cfg));
        assert!(r.is_err(), "{cfg:?} accepted");
    }
    for cfg in [config(4, 1, 2, 1), config(64, 32, 8, 16), good] {
        SimdGroupModel::new(cfg);
    }
}

#[test]
#[should_panic(expected = "lanes = 65 is outside")]
fn config_panic_message() {
    SimdGroupModel::new(config(65, 32, 2, 1));
}

/// The PWS paper's Fig. 5 (docs/works/pws.md#fig-5): nested split and two merges, with E_SPLIT
/// = 4 and E_MERGE = 2.
#[test]
fn fig5() {
    let mut b = Bench::new(toy(3));
    // Cycle 0: dispatch "1111".
    let o = b.step(dispatch(0, 0, 0xF));
    assert_eq!(b.t, 1);
    assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
    assert_eq!(b.spms(), [0xF, 0, 0]);
    assert_eq!(b.m.root(0), 0);
    assert!(!o.copy_valid);

    // Cycle 1: split #1, M = "1101": s0 = "11" (0b11), s1 = "01" (WI3 → 0b10).
    let o = b.step(split(0, 0, 0b11, 0b10));
    assert_eq!(assemble_mask(0b10 << 32 | 0b11, 2, 4), 0xB);
    // Cycle 2: copy strobe 0 → 1; the bookkeeping is done.
    assert!(o.copy_valid);
    assert_eq!((o.copy_from, o.copy_to), (0, 1));
    assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY]);
    assert_eq!(b.spms(), [0xB, 0x4, 0]);
    assert_eq!(o.ctx[1].parent, 0);
    assert!(o.ctx[1].parent_valid);
    assert_eq!((o.ctx[0].sp, o.ctx[0].top), (1, 1));
    assert_eq!(b.m.stack(0), [1]);
    assert_eq!(b.m.stack(1), Vec::<u8>::new());
    assert_eq!((b.m.root(1), b.m.live(0)), (0, 1));
    // The strobe lasts one cycle; both stay SPLITTING until E_SPLIT cycles after the command.
    for t in 3..5 {
        let o = b.run_to(t);
        assert!(!o.copy_valid);
        assert_eq!((o.copy_from, o.copy_to), (0, 0));
        assert_eq!(b.states(), [SPLITTING, SPLITTING, EMPTY], "cycle {t}");
    }
    b.run_to(5);
    assert_eq!(b.states(), [READY, READY, EMPTY]);

    // Cycle 5: split #2 by SWF1, M = "1100" (s0 = "11", s1 = "00").
    let o = b.step(split(0, 0, 0b11, 0b00));
    assert!(o.copy_valid);
    assert_eq!((o.copy_from, o.copy_to), (0, 2));
    assert_eq!(b.states(), [SPLITTING, READY, SPLITTING]);
    assert_eq!(b.spms(), [0x3, 0x4, 0x8]);
    assert_eq!(b.m.stack(0), [1, 2]);
    assert_eq!((o.ctx[0].sp, o.ctx[0].top), (2, 2));
    assert_eq!((o.ctx[2].parent_valid, o.ctx[2].parent), (true, 0));
    assert_eq!(b.m.live(0), 2);
    b.run_to(8);
    assert_eq!(b.states(), [SPLITTING, READY, SPLITTING]);
    b.run_to(9);
    assert_eq!(b.states(), [READY, READY, READY]);

    // Inner merge: SWF1 (top child 2) at cycle 9, SWF3 (parent 0) at cycle 12.
    b.step(merge(0, 0, 0x40));
    assert_eq!(b.states(), [MERGE_WAIT, READY, READY]);
    assert_eq!(b.m.pc(0), 0x40);
    b.run_to(12);
    assert_eq!(b.states(), [MERGE_WAIT, READY, READY]);
    b.step(merge(2, 0, 0x40));
    // Cycle 13 = r: both in MERGE_WAIT.
    assert_eq!(b.states(), [MERGE_WAIT, READY, MERGE_WAIT]);
    assert_eq!(b.spms(), [0x3, 0x4, 0x8]);
    // Cycle 14: the parent MERGING with the OR, the child EMPTY (2 cycles after its merge).
    let o = b.step(idle());
    assert_eq!(b.states(), [MERGING, READY, EMPTY]);
    assert_eq!(b.spms(), [0xB, 0x4, 0]);
    assert_eq!(b.m.stack(0), [1]);
    assert_eq!(o.ctx[2], CtxOut::default());
    assert_eq!((b.m.root(2), b.m.live(2), b.m.pc(2)), (0, 0, 0));
    assert_eq!(b.m.live(0), 1);
    // Cycle 15 = 12 + 1 + E_MERGE: the parent READY.
    b.step(idle());
    assert_eq!(b.states(), [READY, READY, EMPTY]);

    // Outer merge, child first: SWF2 at cycle 15, SWF1 (top child 1) at cycle 16.
    b.step(merge(1, 0, 0x80));
    assert_eq!(b.states(), [READY, MERGE_WAIT, EMPTY]);
    b.step(merge(0, 0, 0x80));
    assert_eq!(b.t, 17);
    assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT, EMPTY]);
    b.step(idle());
    assert_eq!(b.states(), [MERGING, EMPTY, EMPTY]);
    assert_eq!(b.spms(), [0xF, 0, 0]);
    let o = b.step(idle());
    assert_eq!(b.t, 19);
    assert_eq!(b.states(), [READY, EMPTY, EMPTY]);
    assert_eq!(
        (o.ctx[0].sp, o.ctx[0].top, o.ctx[0].parent_valid),
        (0, 0, false)
    );
    assert_eq!(b.m.stack(0), Vec::<u8>::new());
    assert_eq!(b.m.live(0), 0);
    assert_eq!(b.m.pc(0), 0x80);
    assert_eq!((o.error, o.split_denied, o.copy_valid), (0, false, false));
}

/// The PWS paper's Fig. 3b (docs/works/pws.md#fig-3): s0 = "11", s1 = "00" → SWF1 0x3, SWF2
/// 0xC; merge → 0xF.
#[test]
fn fig3b() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    let o = b.step(split(0, 0, 0b11, 0b00));
    assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 1));
    assert_eq!(b.spms(), [0x3, 0xC]);
    b.run_to(1 + 4);
    assert_eq!(b.states(), [READY, READY]);
    b.step(merge(0, 0, 0x10));
    b.step(merge(1, 0, 0x10));
    b.step(idle());
    assert_eq!(b.states(), [MERGING, EMPTY]);
    b.step(idle());
    assert_eq!(b.states(), [READY, EMPTY]);
    assert_eq!(b.spms(), [0xF, 0]);
}

/// E_SPLIT = E_MERGE = 1: no SPLITTING or MERGING cycle.
#[test]
fn one_cycle_split_and_merge() {
    let mut cfg = toy(2);
    cfg.params.e_split = 1;
    cfg.params.e_merge = 1;
    let mut b = Bench::new(cfg);
    b.step(dispatch(0, 0, 0xF));
    // Cycle 1: split; cycle 2: both READY, the copy strobe.
    let o = b.step(split(0, 0, 0b01, 0b01));
    assert_eq!(b.t, 2);
    assert_eq!(b.states(), [READY, READY]);
    assert_eq!(b.spms(), [0x5, 0xA]);
    assert_eq!((o.copy_valid, o.copy_from, o.copy_to), (true, 0, 1));
    // Cycle 2: the child merges, cycle 3: the parent; cycle 4 = r; cycle 5 = 3 + 1 + 1.
    b.step(merge(1, 0, 8));
    assert_eq!(b.states(), [READY, MERGE_WAIT]);
    b.step(merge(0, 0, 8));
    assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT]);
    b.step(idle());
    assert_eq!(b.t, 5);
    assert_eq!(b.states(), [READY, EMPTY]);
    assert_eq!(b.spms(), [0xF, 0]);
    // A split right away, then again, never shows SPLITTING/MERGING.
    let mut seen = Vec::new();
    b.step(split(0, 0, 0b10, 0));
    seen.extend(b.states());
    b.step(merge(0, 0, 4));
    seen.extend(b.states());
    b.step(merge(1, 0, 4));
    seen.extend(b.states());
    b.step(idle());
    seen.extend(b.states());
    assert!(seen.iter().all(|&s| s != SPLITTING && s != MERGING));
    assert_eq!(b.states(), [READY, EMPTY]);
    assert_eq!(b.spms(), [0xF, 0]);
}

/// 64 lanes, H = 32: {SSRC1, SSRC0} = 0xFFFF0000_0000FFFF keeps lanes 0..15 and 48..63.
#[test]
fn lanes_64_half_32() {
    let mut b = Bench::new(config(64, 32, 2, 1));
    b.step(dispatch(0, 0, u64::MAX));
    b.step(split(0, 0, 0x0000_FFFF, 0xFFFF_0000));
    assert_eq!(b.spms(), [0xFFFF_0000_0000_FFFF, 0x0000_FFFF_FFFF_0000]);
    b.run_to(5);
    b.step(merge(0, 0, 0));
    b.step(merge(1, 0, 0));
    b.run_to(b.t + 3);
    assert_eq!(b.states(), [READY, EMPTY]);
    assert_eq!(b.spms(), [u64::MAX, 0]);
}

/// Dispatch masks to LANES bits; H larger than LANES uses SSRC0 only.
#[test]
fn masks_are_lanes_wide() {
    let mut b = Bench::new(config(8, 32, 2, 1));
    b.step(dispatch(0, 0, 0xFFFF));
    assert_eq!(b.spms(), [0xFF, 0]);
    b.step(split(0, 0, 0x0F, 0xFF));
    assert_eq!(b.spms(), [0x0F, 0xF0]);
}

#[test]
fn eff_is_exec_and_spm() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b11, 0));
    // exec bits above LANES are ignored.
    let o = b.m.outputs(&[0x9 | 0xF0, 0xFFFF_FFFF_FFFF_FFF6]);
    assert_eq!((o.ctx[0].spm, o.ctx[0].eff), (0x3, 0x1));
    assert_eq!((o.ctx[1].spm, o.ctx[1].eff), (0xC, 0x4));
}

/// A uniform mask still splits (docs/assumptions.md#A8).
#[test]
fn uniform_masks_split() {
    let mut b = Bench::new(toy(3));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0, 0));
    assert_eq!(b.spms(), [0x0, 0xF, 0]);
    b.run_to(5);
    b.step(split(1, 0, 0b11, 0b11));
    assert_eq!(b.spms(), [0x0, 0xF, 0x0]);
    assert_eq!(b.states(), [READY, SPLITTING, SPLITTING]);
    assert_eq!(b.m.stack(1), [2]);
    assert_eq!(b.out().ctx[2].parent, 1);
}

/// A split by a SWF takes the lowest free SpSIMD; merged contexts are reused.
#[test]
fn nested_split_from_spsimd_and_reuse() {
    let mut b = Bench::new(toy(4));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b01, 0b01)); // ctx0 0x5, ctx1 0xA
    b.run_to(5);
    let o = b.step(split(1, 0, 0b10, 0b00)); // ctx1 0x2, ctx2 0x8
    assert_eq!((o.copy_from, o.copy_to), (1, 2));
    assert_eq!(b.spms(), [0x5, 0x2, 0x8, 0]);
    assert_eq!((o.ctx[2].parent_valid, o.ctx[2].parent), (true, 1));
    assert_eq!(b.m.root(2), 0);
    assert_eq!(b.m.live(0), 2);
    assert_eq!(b.m.live(1), 0);
    b.run_to(9);
    // Merge ctx1 with ctx2 (ctx2 first), then split ctx0 again: it takes ctx2 again.
    b.step(merge(2, 0, 0x20));
    b.step(merge(1, 0, 0x20));
    b.run_to(b.t + 3);
    assert_eq!(b.states(), [READY, READY, EMPTY, EMPTY]);
    assert_eq!(b.spms(), [0x5, 0xA, 0, 0]);
    assert_eq!(b.m.live(0), 1);
    let o = b.step(split(0, 0, 0b01, 0b00));
    assert_eq!((o.copy_from, o.copy_to), (0, 2));
    assert_eq!(b.m.stack(0), [1, 2]);
    assert_eq!(b.spms(), [0x1, 0xA, 0x4, 0]);
    assert_eq!(b.m.live(0), 2);
}

/// A root with neither children nor parent: MERGE is a NOP.
#[test]
fn merge_without_partner_is_nop() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    let before = b.m.clone();
    let o = b.step(merge(0, 0, 0x44));
    assert_eq!(b.m, before);
    assert_eq!(o.error, 0);
    assert_eq!(b.m.pc(0), 0);
}

/// Different PCs never rendezvous: both wait.
#[test]
fn mismatched_pcs_wait() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 0b01, 0));
    b.run_to(5);
    b.step(merge(0, 0, 0x10));
    b.step(merge(1, 0, 0x14));
    b.run_to(50);
    assert_eq!(b.states(), [MERGE_WAIT, MERGE_WAIT]);
    assert_eq!((b.m.pc(0), b.m.pc(1)), (0x10, 0x14));
    assert_eq!(b.out().error, 0, "watchdog off");
}

#[test]
fn end_and_redispatch() {
    let mut b = Bench::new(config(4, 2, 2, 2));
    b.step(dispatch(0, 1, 0x7));
    assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
    b.step(end(0, 1));
    assert_eq!(b.states(), [EMPTY, EMPTY, DONE, EMPTY]);
    assert_eq!(b.spms(), [0, 0, 0x7, 0]);
    b.step(dispatch(0, 1, 0xC));
    assert_eq!(b.states(), [EMPTY, EMPTY, READY, EMPTY]);
    assert_eq!(b.spms(), [0, 0, 0xC, 0]);
    assert_eq!(b.out().error, 0);
}

/// DISPATCH does not list `pc` among the registers it sets: a re-dispatched context keeps
/// the PC of its last merge (introspection only; see the report on this choice).
#[test]
fn dispatch_keeps_pc() {
    let mut b = Bench::new(toy(2));
    b.step(dispatch(0, 0, 0xF));
    b.step(split(0, 0, 1, 0));
    b.run_to(5);
    b.step(merge(0, 0, 0x80));
    b.step(merge(1, 0, 0x80));
    b.run_to(b.t + 2);
    b.step(end(0, 0));
    assert_eq!(b.states(), [DONE, EMPTY]);
    b.step(dispatch(0, 0, 0x3));
    assert_eq!(b.states(), [READY, EMPTY]);
    assert_eq!((b.m.pc(0), b.m.pc(1)), (0x80, 0));
}

mod errors;
mod streams;
