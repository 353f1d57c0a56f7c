//! What the PWS testbenches drive: the Fig. 5 sequence with its golden values, and random
//! command streams steered by the reference model's state so that most commands are legal
//! and merges find their partners.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::pws::model::{GroupIn, GroupOut, ModelConfig, SimdGroupModel};
use rtgpu_hw::pws::{lane_mask, Cmd, State};

/// A source of per-cycle inputs.
pub trait Stimulus {
    /// Cycles the stimulus needs at least.
    fn min_cycles(&self) -> u64;
    /// The inputs of cycle `k` (and each context's EXEC), given the model before the edge.
    fn next(&mut self, k: u64, model: &SimdGroupModel) -> (GroupIn, Vec<u64>);
    /// Golden checks of the outputs of cycle `k` (beyond RTL == model).
    fn check(&self, k: u64, out: &GroupOut) -> Result<(), String>;
}

/// Family and relative id of context `k` (unit = k % units, slot = k / units): PWS families
/// are slots and relatives units; DWS the other way round (`hw/src/pws/mod.rs`).
pub fn family(k: usize, units: usize, dws: bool) -> (usize, usize) {
    let (unit, slot) = (k % units, k / units);
    if dws {
        (unit, slot)
    } else {
        (slot, unit)
    }
}

/// A command in cycle form.
pub fn command(cmd: Cmd, unit: u8, slot: u8, mask: u64, pc: u32) -> GroupIn {
    GroupIn {
        cmd: cmd as u8,
        cmd_unit: unit,
        cmd_slot: slot,
        cmd_mask: mask,
        cmd_pc: pc,
        ..GroupIn::default()
    }
}

/// `split` operands in the toy configuration (H = 2): `s0` holds lanes 0-1, `s1` lanes 2-3.
fn toy_split(s0: u64, s1: u64) -> u64 {
    s0 | (s1 << 32)
}

/// PC of the inner and outer `merge` of Fig. 5.
const INNER: u32 = 0x40;
const OUTER: u32 = 0x60;

/// Cycles of the Fig. 5 sequence.
pub const FIG5_CYCLES: u64 = 28;

/// The Fig. 5 sequence of the PWS paper (docs/works/pws.md#fig-5): SWF1 = unit 0, SWF2 = unit 1,
/// SWF3 = unit 2.
fn fig5_command(k: u64) -> GroupIn {
    match k {
        0 => GroupIn {
            reset: true,
            ..GroupIn::default()
        },
        1 => command(Cmd::Dispatch, 0, 0, 0xF, 0),
        // split #1, M = "1101": s0 = "11", s1 = "01" (lane 3).
        2 => command(Cmd::Split, 0, 0, toy_split(0b11, 0b10), 0),
        // SWF2 skips the inner region and waits at the outer merge.
        8 => command(Cmd::Merge, 1, 0, 0, OUTER),
        // split #2 by SWF1, M = "1100".
        9 => command(Cmd::Split, 0, 0, toy_split(0b11, 0b00), 0),
        15 => command(Cmd::Merge, 2, 0, 0, INNER),
        16 => command(Cmd::Merge, 0, 0, 0, INNER),
        20 => command(Cmd::Merge, 0, 0, 0, OUTER),
        24 => command(Cmd::End, 0, 0, 0, 0),
        _ => GroupIn::default(),
    }
}

/// What the outputs must show in a cycle of Fig. 5, per context (units 0, 1, 2).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Fig5Row {
    /// The cycle.
    pub cycle: u64,
    /// SpM per context, bit l = lane l.
    pub spm: [u64; 3],
    /// State per context.
    pub state: [State; 3],
    /// Child-stack pointer per context.
    pub sp: [u8; 3],
    /// Child-stack top per context.
    pub top: [u8; 3],
    /// Parent valid per context (every parent is unit 0 here).
    pub parent_valid: [bool; 3],
}

/// The golden rows of Fig. 5 with E_SPLIT = 4, E_MERGE = 2 (cycle numbers as the contract in
/// `hw/src/pws/mod.rs` derives them from the command cycles above).
pub fn fig5_expected() -> Vec<Fig5Row> {
    use State::{Done as D, Empty as E, MergeWait as W, Merging as M, Ready as R, Splitting as S};
    let row = |cycle, spm, state, sp, top, parent_valid| Fig5Row {
        cycle,
        spm,
        state,
        sp,
        top,
        parent_valid,
    };
    let f = false;
    let t = true;
    // cycle, SpM (u0, u1, u2), state, sp, top, parent valid
    #[rustfmt::skip]
    let rows = vec![
        row( 2, [0xF, 0, 0],     [R, E, E], [0, 0, 0], [0, 0, 0], [f, f, f]),
        row( 3, [0xB, 0x4, 0],   [S, S, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row( 5, [0xB, 0x4, 0],   [S, S, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row( 6, [0xB, 0x4, 0],   [R, R, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row( 9, [0xB, 0x4, 0],   [R, W, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row(10, [0x3, 0x4, 0x8], [S, W, S], [2, 0, 0], [2, 0, 0], [f, t, t]),
        row(13, [0x3, 0x4, 0x8], [R, W, R], [2, 0, 0], [2, 0, 0], [f, t, t]),
        row(16, [0x3, 0x4, 0x8], [R, W, W], [2, 0, 0], [2, 0, 0], [f, t, t]),
        row(17, [0x3, 0x4, 0x8], [W, W, W], [2, 0, 0], [2, 0, 0], [f, t, t]),
        row(18, [0xB, 0x4, 0],   [M, W, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row(19, [0xB, 0x4, 0],   [R, W, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row(21, [0xB, 0x4, 0],   [W, W, E], [1, 0, 0], [1, 0, 0], [f, t, f]),
        row(22, [0xF, 0, 0],     [M, E, E], [0, 0, 0], [0, 0, 0], [f, f, f]),
        row(23, [0xF, 0, 0],     [R, E, E], [0, 0, 0], [0, 0, 0], [f, f, f]),
        row(25, [0xF, 0, 0],     [D, E, E], [0, 0, 0], [0, 0, 0], [f, f, f]),
    ];
    rows
}

/// The copy strobes of Fig. 5: (cycle, from, to).
const FIG5_COPIES: [(u64, u8, u8); 2] = [(3, 0, 1), (10, 0, 2)];

/// The Fig. 5 stimulus and its golden checks.
#[derive(Default)]
pub struct Fig5Stim;

impl Stimulus for Fig5Stim {
    fn min_cycles(&self) -> u64 {
        FIG5_CYCLES
    }

    fn next(&mut self, k: u64, model: &SimdGroupModel) -> (GroupIn, Vec<u64>) {
        // EXEC "1001" on SWF1's context (the paper's green table), all lanes elsewhere.
        (with_shape_s(fig5_command(k), model), vec![0x9, 0xF, 0xF])
    }

    fn check(&self, k: u64, out: &GroupOut) -> Result<(), String> {
        let copy = FIG5_COPIES.iter().find(|c| c.0 == k);
        let got_copy = out.copy_valid.then_some((k, out.copy_from, out.copy_to));
        if copy.copied() != got_copy || out.error != 0 {
            return Err(format!(
                "Fig. 5: copy strobe {got_copy:?} (expected {copy:?}), error {}",
                out.error
            ));
        }
        let Some(row) = fig5_expected().into_iter().find(|r| r.cycle == k) else {
            return Ok(());
        };
        let got = Fig5Row {
            cycle: k,
            spm: [0, 1, 2].map(|i| out.ctx[i].spm),
            state: [0, 1, 2].map(|i| State::from_code(out.ctx[i].state).unwrap_or(State::Empty)),
            sp: [0, 1, 2].map(|i| out.ctx[i].sp),
            top: [0, 1, 2].map(|i| out.ctx[i].top),
            parent_valid: [0, 1, 2].map(|i| out.ctx[i].parent_valid),
        };
        let parents_are_unit0 = out.ctx.iter().all(|c| c.parent == 0);
        if got != row || !parents_are_unit0 {
            return Err(format!("Fig. 5: got {got:?}, paper {row:?}"));
        }
        Ok(())
    }
}

/// `inp` with S = UNITS − 1 (the shape's PWS S) unless it sets an `s` of its own.
fn with_shape_s(inp: GroupIn, model: &SimdGroupModel) -> GroupIn {
    let s = match inp.s {
        0 => (model.config().units - 1) as u8,
        s => s,
    };
    GroupIn { s, ..inp }
}

/// A scripted stimulus: one input per cycle, EXEC = all lanes, S = UNITS − 1 on every input
/// that leaves `s` at 0.
pub struct Script(pub Vec<GroupIn>);

impl Stimulus for Script {
    fn min_cycles(&self) -> u64 {
        self.0.len() as u64
    }

    fn next(&mut self, k: u64, model: &SimdGroupModel) -> (GroupIn, Vec<u64>) {
        let cfg = model.config();
        let inp = self.0.get(k as usize).copied().unwrap_or_default();
        (
            with_shape_s(inp, model),
            vec![u64::MAX; cfg.units * cfg.n_wfc],
        )
    }

    fn check(&self, _k: u64, _out: &GroupOut) -> Result<(), String> {
        Ok(())
    }
}

/// Random commands, steered by the model's state.
pub struct RandomStim {
    rng: ChaCha8Rng,
    cfg: ModelConfig,
    dws: bool,
    watchdog: u16,
    /// The segment's S: 1..=UNITS − 1 under PWS, 1..=7 under DWS, sometimes 0.
    s: u8,
}

/// One random segment between resets lasts this long on average.
const SEGMENT: u32 = 300;

impl RandomStim {
    /// A stimulus for `cfg`, seeded.
    pub fn new(cfg: ModelConfig, seed: u64) -> Self {
        Self {
            rng: ChaCha8Rng::seed_from_u64(seed),
            cfg,
            dws: false,
            watchdog: 0,
            s: (cfg.units - 1) as u8,
        }
    }

    fn ctxs(&self) -> usize {
        self.cfg.units * self.cfg.n_wfc
    }

    /// Unit and slot of context `k`.
    fn place(&self, k: usize) -> (u8, u8) {
        ((k % self.cfg.units) as u8, (k / self.cfg.units) as u8)
    }

    /// A random context whose outputs satisfy `pred`.
    fn pick(&mut self, out: &GroupOut, pred: impl Fn(usize, &GroupOut) -> bool) -> Option<usize> {
        let candidates: Vec<usize> = (0..self.ctxs()).filter(|&k| pred(k, out)).collect();
        (!candidates.is_empty()).then(|| candidates[self.rng.gen_range(0..candidates.len())])
    }

    /// A mask: often all-ones, zero or one half, else random.
    fn mask(&mut self) -> u64 {
        match self.rng.gen_range(0..8) {
            0 => u64::MAX,
            1 => 0,
            2 => 0xFFFF_FFFF,
            3 => 0xFFFF_FFFF_0000_0000,
            _ => self.rng.gen(),
        }
    }

    /// The merge PC of X's pair: a function of the family and the child's relative id, so both
    /// members compute the same value; rarely a wrong one (mismatched merges).
    fn merge_pc(&mut self, k: usize, out: &GroupOut) -> u32 {
        let c = &out.ctx[k];
        let (fam, rel) = family(k, self.cfg.units, self.dws);
        let child = if c.sp > 0 { usize::from(c.top) } else { rel };
        let pc = 0x1000 + 0x100 * fam as u32 + 4 * child as u32;
        if self.rng.gen_ratio(1, 24) {
            pc + 0x80
        } else {
            pc
        }
    }

    fn new_segment(&mut self) -> GroupIn {
        self.dws = self.rng.gen_bool(0.5);
        // (Rarely S = 0, every split a full-stack one: overflow or refusal.)
        let s_max = if self.dws { 7 } else { self.cfg.units - 1 };
        self.s = match self.rng.gen_ratio(1, 10) {
            true => 0,
            false => self.rng.gen_range(1..=s_max) as u8,
        };
        self.watchdog = if self.rng.gen_bool(0.5) {
            0
        } else {
            self.rng.gen_range(20..80)
        };
        GroupIn {
            reset: true,
            ..self.base()
        }
    }

    fn base(&self) -> GroupIn {
        self.with_mode(GroupIn::default())
    }

    fn at(&self, cmd: Cmd, k: usize, mask: u64, pc: u32) -> GroupIn {
        let (unit, slot) = self.place(k);
        self.with_mode(command(cmd, unit, slot, mask, pc))
    }

    /// `inp` with the segment's mode, watchdog and S.
    fn with_mode(&self, inp: GroupIn) -> GroupIn {
        GroupIn {
            dws: self.dws,
            watchdog: self.watchdog,
            s: self.s,
            ..inp
        }
    }

    /// A legal-looking command (or none when nothing fits).
    fn steered(&mut self, out: &GroupOut) -> GroupIn {
        let ready = |k: usize, o: &GroupOut| o.ctx[k].state == State::Ready as u8;
        let dws = self.dws;
        let units = self.cfg.units;
        let live = out
            .ctx
            .iter()
            .filter(|c| c.state != State::Empty as u8)
            .count();
        let crowded = 2 * live >= out.ctx.len();
        match self.rng.gen_range(0..10) {
            0..=1 if !crowded => {
                let idle = |k: usize, o: &GroupOut| {
                    let s = o.ctx[k].state;
                    (s == State::Empty as u8 || s == State::Done as u8)
                        && (dws || k.is_multiple_of(units))
                };
                match self.pick(out, idle) {
                    Some(k) => {
                        let m = self.mask() | 1;
                        self.at(Cmd::Dispatch, k, m, 0)
                    }
                    None => self.base(),
                }
            }
            2..=4 => match self.pick(out, ready) {
                Some(k) => {
                    let m = self.mask();
                    self.at(Cmd::Split, k, m, 0)
                }
                None => self.base(),
            },
            5..=8 => {
                let has_partner = |k: usize, o: &GroupOut| {
                    ready(k, o) && (o.ctx[k].sp > 0 || o.ctx[k].parent_valid)
                };
                match self.pick(out, has_partner) {
                    Some(k) => {
                        let pc = self.merge_pc(k, out);
                        self.at(Cmd::Merge, k, 0, pc)
                    }
                    None => self.base(),
                }
            }
            _ => {
                let alone = |k: usize, o: &GroupOut| {
                    ready(k, o) && o.ctx[k].sp == 0 && !o.ctx[k].parent_valid
                };
                match self.pick(out, alone) {
                    Some(k) => self.at(Cmd::End, k, 0, 0),
                    None => self.base(),
                }
            }
        }
    }

    /// Any command to any context, in or out of range (errors).
    fn wild(&mut self) -> GroupIn {
        let in_range = self.rng.gen_bool(0.5);
        let (units, slots) = if in_range {
            (self.cfg.units as u8, self.cfg.n_wfc as u8)
        } else {
            (8, 16)
        };
        GroupIn {
            cmd: self.rng.gen_range(0..if in_range { 5 } else { 8 }),
            cmd_unit: self.rng.gen_range(0..units),
            cmd_slot: self.rng.gen_range(0..slots),
            cmd_mask: self.rng.gen(),
            cmd_pc: 0x1000 + 4 * self.rng.gen_range(0..64),
            ..self.base()
        }
    }
}

impl Stimulus for RandomStim {
    fn min_cycles(&self) -> u64 {
        1
    }

    fn next(&mut self, k: u64, model: &SimdGroupModel) -> (GroupIn, Vec<u64>) {
        let exec: Vec<u64> = (0..self.ctxs())
            .map(|_| self.rng.gen::<u64>() & lane_mask(self.cfg.lanes))
            .collect();
        let out = model.outputs(&exec);
        let inp = match self.rng.gen_range(0..40) {
            _ if k == 0 || self.rng.gen_ratio(1, SEGMENT) => self.new_segment(),
            0..=1 => self.wild(),
            2..=7 => self.base(),
            _ => self.steered(&out),
        };
        (inp, exec)
    }

    fn check(&self, _k: u64, _out: &GroupOut) -> Result<(), String> {
        Ok(())
    }
}
