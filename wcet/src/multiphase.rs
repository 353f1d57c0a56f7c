//! The multi-phase representation of a warp's isolated execution and the block-level bound GUB
//! (the multi-phase paper: Jeanmougin, Carle, Rochange, ECRTS 2025, docs/works/multiphase.md).
//!
//! - [`build_profile`] runs the paper's Algorithm 1 in our safe variant (the literal
//!   prose would let an instruction issue with pending operands): the warp
//!   issues in order, one instruction per cycle at most, and an instruction issues only once
//!   every pending write to its sources *and* its destination has completed (RAW + WAW, as a
//!   scoreboard does). It then waits for its unit in FIFO order behind the warp's earlier
//!   initiations on that unit, whatever their classes: the unit's occupancy is per unit, the
//!   initiation and latency per opcode class. The result is an alternating sequence of exec phases
//!   (some unit is initiating an instruction of the warp) and idle phases (every instruction is
//!   waiting for results), plus the isolated issue / dispatch / initiation end / completion cycle
//!   of every instruction.
//! - [`gub`] is the closed form of the paper's Section 3.2.2: `WUB(w) = Tiso(w) + Etot − E(w)`,
//!   `GUB = max_w WUB(w)`.
//! - [`sections`] and [`gub_sections`] handle barriers: every warp's path is cut after
//!   each barrier instruction, each section is analysed from a clean state (drain-release), and
//!   the section bounds are summed.
//!
//! Timing conventions (read from the paper's Examples 1 and 3): cycle 0 is the first cycle of the
//! block (or section); an instruction issued at `t` is dispatched at `t` if its unit is free,
//! otherwise when the unit's earlier initiations end; the initiation occupies `[d, d + init)`; the
//! result is usable by an instruction issuing at `d + init + lat`, which is also the instruction's
//! completion.

use std::collections::HashMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::trace::{Block, DynInst, HwDesc, OpClass, Reg};

/// Why an analysis could not be run. Every variant names the offending input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnalysisError {
    /// An instruction names an opcode class that the hardware description lacks.
    UnknownClass {
        /// Index of the instruction in the analysed path.
        inst: usize,
        /// The class it names.
        class: usize,
        /// How many classes the hardware description has.
        n_classes: usize,
    },
    /// An instruction's class is on a functional unit that the hardware description lacks.
    UnknownUnit {
        /// Index of the instruction in the analysed path.
        inst: usize,
        /// Its class.
        class: usize,
        /// The unit the class names.
        unit: usize,
        /// How many units the hardware description has.
        n_units: usize,
    },
    /// An instruction's class has `init = 0`, which the model forbids (an initiation lasts at least
    /// one cycle).
    ZeroInit {
        /// Index of the instruction in the analysed path.
        inst: usize,
        /// The class with `init = 0`.
        class: usize,
    },
    /// The warps of a block do not all execute the same number of barriers.
    BarrierMismatch {
        /// The first warp whose count differs from warp 0's.
        warp: usize,
        /// That warp's barrier count.
        count: usize,
        /// Warp 0's barrier count.
        expected: usize,
    },
    /// The block has no warp.
    EmptyBlock,
    /// An error found while analysing one warp's path in one section of a block.
    InWarp {
        /// The warp.
        warp: usize,
        /// The section (0 when the block has no barrier).
        section: usize,
        /// The error, with instruction indices relative to the section start.
        error: Box<AnalysisError>,
    },
}

impl fmt::Display for AnalysisError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::UnknownClass {
                inst,
                class,
                n_classes,
            } => write!(
                f,
                "instruction {inst}: unknown opcode class {class} (the hardware has {n_classes} \
                 classes)"
            ),
            Self::UnknownUnit {
                inst,
                class,
                unit,
                n_units,
            } => write!(
                f,
                "instruction {inst} is of opcode class {class}, on functional unit {unit}, but \
                 the hardware has {n_units} units"
            ),
            Self::ZeroInit { inst, class } => write!(
                f,
                "instruction {inst} is of opcode class {class}, whose initiation is 0 cycles \
                 (must be ≥ 1)"
            ),
            Self::BarrierMismatch {
                warp,
                count,
                expected,
            } => write!(
                f,
                "warp {warp} executes {count} barriers but warp 0 executes {expected}"
            ),
            Self::EmptyBlock => write!(f, "the block has no warp"),
            Self::InWarp {
                warp,
                section,
                error,
            } => write!(f, "warp {warp}, section {section}: {error}"),
        }
    }
}

impl std::error::Error for AnalysisError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            Self::InWarp { error, .. } => Some(error.as_ref()),
            _ => None,
        }
    }
}

/// The kind of a phase (Definition 1).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum PhaseKind {
    /// At least one functional unit is initiating an instruction of the warp.
    Exec,
    /// No initiation: every issued instruction is waiting for results.
    Idle,
}

/// One phase of a warp's isolated execution: the cycles `[start, start + dur)`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Phase {
    /// Exec or idle.
    pub kind: PhaseKind,
    /// First cycle, relative to the block (or section) start.
    pub start: u64,
    /// Length in cycles (≥ 1).
    pub dur: u64,
}

/// One instruction's cycles in isolation, relative to the block (or section) start.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct IsoTimes {
    /// The cycle it issues.
    pub issue: u64,
    /// The cycle its initiation starts on its unit (≥ `issue`).
    pub dispatch: u64,
    /// `dispatch + init`: the first cycle its unit is free again.
    pub init_end: u64,
    /// `init_end + lat`: the first cycle a consumer of its result may issue.
    pub complete: u64,
}

/// A warp's multi-phase profile in isolation (Definition 1) and its per-instruction times.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Profile {
    /// Alternating phases, contiguous from cycle 0, starting with an exec phase.
    pub phases: Vec<Phase>,
    /// `iso[k]`: the times of the path's k-th instruction.
    pub iso: Vec<IsoTimes>,
}

impl Profile {
    /// `Tiso`: the isolated execution time, the sum of all phase durations (0 for an empty path).
    pub fn t_iso(&self) -> u64 {
        self.phases.iter().map(|p| p.dur).sum()
    }

    /// `E`: the sum of the exec phase durations.
    pub fn exec(&self) -> u64 {
        self.phases
            .iter()
            .filter(|p| p.kind == PhaseKind::Exec)
            .map(|p| p.dur)
            .sum()
    }
}

/// Algorithm 1's state (our variant). Deadlines are absolute cycles rather than the paper's
/// count-down states, which avoids decrementing every state each cycle; at any cycle `t` the
/// paper's
/// `FU_state[u]` (per unit, whatever the classes queued on it) is `fu_free[u] − t`, `reg_state[r]` is `reg_ready[r] − t` and `horizon` is
/// `horizon − t`, each floored at 0.
struct Walker<'h> {
    hw: &'h HwDesc,
    /// The current cycle.
    t: u64,
    /// Per unit: the end of the warp's last initiation queued on it (any class).
    fu_free: Vec<u64>,
    /// Per register: the completion of its last writer (absent = never written).
    reg_ready: HashMap<Reg, u64>,
    /// The latest completion of any issued instruction, with or without a destination.
    horizon: u64,
    /// The start of the exec phase in progress.
    phase_start: u64,
    profile: Profile,
}

impl<'h> Walker<'h> {
    fn new(hw: &'h HwDesc) -> Self {
        Self {
            hw,
            t: 0,
            fu_free: vec![0; hw.units.len()],
            reg_ready: HashMap::new(),
            horizon: 0,
            phase_start: 0,
            profile: Profile::default(),
        }
    }

    /// The class of instruction `k`, validated (its unit exists, its `init` is ≥ 1).
    fn class(&self, k: usize, inst: &DynInst) -> Result<&'h OpClass, AnalysisError> {
        let hw = self.hw;
        let class = hw
            .classes
            .get(inst.class)
            .ok_or(AnalysisError::UnknownClass {
                inst: k,
                class: inst.class,
                n_classes: hw.classes.len(),
            })?;
        if class.unit >= hw.units.len() {
            return Err(AnalysisError::UnknownUnit {
                inst: k,
                class: inst.class,
                unit: class.unit,
                n_units: hw.units.len(),
            });
        }
        if class.init == 0 {
            return Err(AnalysisError::ZeroInit {
                inst: k,
                class: inst.class,
            });
        }
        Ok(class)
    }

    /// `wait` (line 11): cycles until every pending write to the sources and the destination
    /// has completed.
    fn wait(&self, inst: &DynInst) -> u64 {
        let ready = inst
            .srcs
            .iter()
            .chain(inst.dst.iter())
            .filter_map(|r| self.reg_ready.get(r))
            .max()
            .copied()
            .unwrap_or(0);
        ready.saturating_sub(self.t)
    }

    /// `busy = max_f FU_state[f]`: cycles until every unit ends the warp's queued initiations.
    fn busy(&self) -> u64 {
        let last = self.fu_free.iter().max().copied().unwrap_or(0);
        last.saturating_sub(self.t)
    }

    /// Records a phase unless it is empty.
    fn push(&mut self, kind: PhaseKind, start: u64, dur: u64) {
        if dur > 0 {
            self.profile.phases.push(Phase { kind, start, dur });
        }
    }

    /// Waits `wait` cycles before the next issue. If the units run dry first, the exec phase in
    /// progress ends (line 12), an idle phase of `wait − busy` cycles follows and a new exec
    /// phase starts at the issue (lines 19, 21); otherwise the stall stays inside the phase.
    fn stall(&mut self, wait: u64) {
        let busy = self.busy();
        if wait > busy {
            let t_inter = self.t + busy;
            self.push(
                PhaseKind::Exec,
                self.phase_start,
                t_inter - self.phase_start,
            );
            self.push(PhaseKind::Idle, t_inter, wait - busy);
            self.t += wait;
            self.phase_start = self.t;
        } else {
            self.t += wait;
        }
    }

    /// Issues `inst` now and queues its initiation behind its unit's backlog, with its class's
    /// costs (lines 23–25).
    fn issue(&mut self, inst: &DynInst, class: &OpClass) {
        let unit = class.unit;
        let dispatch = self.t.max(self.fu_free[unit]);
        let init_end = dispatch + u64::from(class.init);
        let complete = init_end + u64::from(class.lat);
        self.fu_free[unit] = init_end;
        if let Some(rd) = inst.dst {
            self.reg_ready.insert(rd, complete);
        }
        self.horizon = self.horizon.max(complete);
        self.profile.iso.push(IsoTimes {
            issue: self.t,
            dispatch,
            init_end,
            complete,
        });
        self.t += 1;
    }

    /// Algorithm 1's loop body for the path's `k`-th instruction.
    fn step(&mut self, k: usize, inst: &DynInst) -> Result<(), AnalysisError> {
        let class = self.class(k, inst)?;
        let wait = self.wait(inst);
        self.stall(wait);
        self.issue(inst, class);
        Ok(())
    }

    /// `ret` (lines 29–35): the last exec phase ends with the last initiation, then an idle
    /// tail lasts until every instruction has completed.
    fn finish(mut self) -> Profile {
        let exec_end = self.t + self.busy();
        self.push(
            PhaseKind::Exec,
            self.phase_start,
            exec_end - self.phase_start,
        );
        let tail = self.horizon.saturating_sub(exec_end);
        self.push(PhaseKind::Idle, exec_end, tail);
        self.profile
    }
}

/// Algorithm 1, our safe variant: the multi-phase profile of one warp's
/// `path` running alone on the SM from cycle 0, with its per-instruction isolated times.
///
/// Each instruction initiates on its class's unit for the class's `init`, queued behind the
/// warp's earlier initiations on that unit (of any class), and completes `lat` later.
/// A barrier instruction is treated like any other (issued, initiated on its unit); split a
/// block at its barriers with [`sections`] first. An empty path gives an empty profile
/// (`Tiso = 0`, no phase).
///
/// # Errors
/// [`AnalysisError::UnknownClass`], [`AnalysisError::UnknownUnit`] or
/// [`AnalysisError::ZeroInit`] for the first instruction whose class is missing from `hw`, is
/// on a unit `hw` lacks, or has `init = 0`.
pub fn build_profile(path: &[DynInst], hw: &HwDesc) -> Result<Profile, AnalysisError> {
    let mut walker = Walker::new(hw);
    for (k, inst) in path.iter().enumerate() {
        walker.step(k, inst)?;
    }
    Ok(walker.finish())
}

/// A block-level bound (the paper's Section 3.2.2).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Bound {
    /// `GUB = max_w WUB(w)` (0 for no warp).
    pub gub: u64,
    /// `wub[w] = Tiso(w) + Etot − E(w)`: warp w's response-time bound.
    pub wub: Vec<u64>,
}

/// The GUB of a block whose warps have the isolated `profiles` (closed form of Defs. 9–10:
/// `WUB(w) = Tiso(w) + Σ_{W≠w} E(W)`, `GUB = max_w WUB(w)`), safe for any work-conserving
/// warp scheduler.
pub fn gub(profiles: &[Profile]) -> Bound {
    let e_tot: u64 = profiles.iter().map(Profile::exec).sum();
    let wub: Vec<u64> = profiles
        .iter()
        .map(|p| p.t_iso() + (e_tot - p.exec()))
        .collect();
    let gub = wub.iter().max().copied().unwrap_or(0);
    Bound { gub, wub }
}

/// Splits `path` after each barrier instruction.
fn split_path(path: &[DynInst]) -> Vec<Vec<DynInst>> {
    let mut parts = Vec::new();
    let mut part = Vec::new();
    for inst in path {
        part.push(inst.clone());
        if inst.barrier {
            parts.push(std::mem::take(&mut part));
        }
    }
    parts.push(part);
    parts
}

/// Checks that every warp of `block` executes the same number of barriers; returns it.
fn barrier_count(block: &Block) -> Result<usize, AnalysisError> {
    let count = |path: &Vec<DynInst>| path.iter().filter(|i| i.barrier).count();
    let expected = block.first().map(count).ok_or(AnalysisError::EmptyBlock)?;
    match block.iter().enumerate().find(|(_, p)| count(p) != expected) {
        Some((warp, path)) => Err(AnalysisError::BarrierMismatch {
            warp,
            count: count(path),
            expected,
        }),
        None => Ok(expected),
    }
}

/// The barrier sections of `block`: section k holds, for every warp, its path from
/// just after its (k−1)-th barrier up to and including its k-th barrier. The instructions after
/// the last barrier form one more section, present when some warp has any (or when the block
/// has no barrier, so there is always at least one section). `result[k][w]` is warp w's part
/// of section k.
///
/// # Errors
/// [`AnalysisError::EmptyBlock`] for a block without warps, [`AnalysisError::BarrierMismatch`]
/// when the warps do not all execute the same number of barriers.
pub fn sections(block: &Block) -> Result<Vec<Block>, AnalysisError> {
    let n_bar = barrier_count(block)?;
    let mut out: Vec<Block> = vec![Vec::with_capacity(block.len()); n_bar + 1];
    for path in block {
        for (k, part) in split_path(path).into_iter().enumerate() {
            out[k].push(part);
        }
    }
    let tail_empty = out.last().is_some_and(|s| s.iter().all(Vec::is_empty));
    if n_bar > 0 && tail_empty {
        out.pop();
    }
    Ok(out)
}

/// The bound of a block with barriers: the sum of its sections' GUBs.
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SectionBound {
    /// `Σ_k sections[k].gub`.
    pub gub: u64,
    /// The bound of each section (see [`sections`]), its cycles relative to the section start.
    pub sections: Vec<Bound>,
}

/// The profiles of one section's warps.
fn section_profiles(section: &Block, k: usize, hw: &HwDesc) -> Result<Vec<Profile>, AnalysisError> {
    let wrap = |warp: usize| {
        move |e| AnalysisError::InWarp {
            warp,
            section: k,
            error: Box::new(e),
        }
    };
    section
        .iter()
        .enumerate()
        .map(|(w, path)| build_profile(path, hw).map_err(wrap(w)))
        .collect()
}

/// The bound of `block` on `hw` (the paper's Section 3.2.2, per barrier section): split at the
/// barriers, run Algorithm 1 on every warp's part of every section from a clean state
/// (drain-release), and sum the section GUBs. For a block without barriers this is the plain GUB.
///
/// # Errors
/// Those of [`sections`], and those of [`build_profile`] wrapped in [`AnalysisError::InWarp`].
pub fn gub_sections(block: &Block, hw: &HwDesc) -> Result<SectionBound, AnalysisError> {
    let bounds = sections(block)?
        .iter()
        .enumerate()
        .map(|(k, s)| section_profiles(s, k, hw).map(|p| gub(&p)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(SectionBound {
        gub: bounds.iter().map(|b| b.gub).sum(),
        sections: bounds,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    fn hw(fus: &[(u32, u32)]) -> HwDesc {
        HwDesc::from_costs(fus)
    }

    /// `(fu, srcs, dst)` as the anomaly vectors write instructions (class `fu` is on unit `fu` in a
    /// [`HwDesc::from_costs`] table).
    fn i(class: usize, srcs: &[Reg], dst: Option<Reg>) -> DynInst {
        DynInst::new(class, srcs, dst)
    }

    fn ph(kind: PhaseKind, start: u64, dur: u64) -> Phase {
        Phase { kind, start, dur }
    }

    fn iso(issue: u64, dispatch: u64, init_end: u64, complete: u64) -> IsoTimes {
        IsoTimes {
            issue,
            dispatch,
            init_end,
            complete,
        }
    }

    fn profiles(block: &Block, hw: &HwDesc) -> Vec<Profile> {
        block
            .iter()
            .map(|p| build_profile(p, hw).unwrap())
            .collect()
    }

    use PhaseKind::{Exec, Idle};

    /// Example 1 / Fig. 2 hardware: FU0 (2,6), FU1 (3,4), FU2 (2,4).
    fn ex1_hw() -> HwDesc {
        hw(&[(2, 6), (3, 4), (2, 4)])
    }

    /// Example 1: i0 FU0 → r0, i1 FU1 → r1, i2 FU1 → r2, i3 FU2 reads r0 → r3.
    fn ex1_path() -> Vec<DynInst> {
        vec![
            i(0, &[], Some(0)),
            i(1, &[], Some(1)),
            i(1, &[], Some(2)),
            i(2, &[0], Some(3)),
        ]
    }

    #[test]
    fn example_3_phases_and_iso_times() {
        let p = build_profile(&ex1_path(), &ex1_hw()).unwrap();
        let phases = [
            ph(Exec, 0, 7),
            ph(Idle, 7, 1),
            ph(Exec, 8, 2),
            ph(Idle, 10, 4),
        ];
        assert_eq!(p.phases, phases);
        let times = [
            iso(0, 0, 2, 8),
            iso(1, 1, 4, 8),
            iso(2, 4, 7, 11),
            iso(8, 8, 10, 14),
        ];
        assert_eq!(p.iso, times);
        assert_eq!((p.t_iso(), p.exec()), (14, 9));
    }

    #[test]
    fn example_2_two_warps_gub_23() {
        let block = vec![ex1_path(), ex1_path()];
        let b = gub(&profiles(&block, &ex1_hw()));
        assert_eq!(
            b,
            Bound {
                gub: 23,
                wub: vec![23, 23]
            }
        );
        assert_eq!(gub_sections(&block, &ex1_hw()).unwrap().gub, 23);
    }

    #[test]
    fn empty_path_and_no_warps() {
        let p = build_profile(&[], &ex1_hw()).unwrap();
        assert_eq!((p.phases.len(), p.iso.len(), p.t_iso()), (0, 0, 0));
        assert_eq!(
            gub(&[]),
            Bound {
                gub: 0,
                wub: vec![]
            }
        );
        let b = gub(&[p, build_profile(&ex1_path(), &ex1_hw()).unwrap()]);
        assert_eq!(
            b,
            Bound {
                gub: 14,
                wub: vec![9, 14]
            }
        );
    }

    /// The LRR anomaly vector.
    fn lrr_block() -> Block {
        vec![
            vec![i(0, &[], Some(0)), i(1, &[0], Some(0))],
            vec![
                i(0, &[], Some(0)),
                i(1, &[0], Some(0)),
                i(0, &[0], Some(2)),
                i(1, &[], Some(0)),
            ],
            vec![i(0, &[], Some(0)), i(0, &[], Some(0)), i(1, &[0], Some(1))],
        ]
    }

    /// The GTO anomaly vector.
    fn gto_block() -> Block {
        vec![
            vec![
                i(1, &[], Some(2)),
                i(0, &[2], Some(2)),
                i(1, &[2], Some(0)),
                i(1, &[2], Some(1)),
            ],
            vec![i(0, &[], Some(0)), i(0, &[0], Some(0)), i(1, &[0], Some(0))],
            vec![i(1, &[], Some(2)), i(1, &[2], Some(1))],
        ]
    }

    #[test]
    fn lrr_anomaly_gub() {
        let b3 = gub(&profiles(&lrr_block(), &hw(&[(4, 5), (1, 3)])));
        assert_eq!(
            b3,
            Bound {
                gub: 36,
                wub: vec![31, 36, 36]
            }
        );
        let b2 = gub(&profiles(&lrr_block(), &hw(&[(4, 5), (1, 2)])));
        assert_eq!(
            b2,
            Bound {
                gub: 35,
                wub: vec![30, 35, 35]
            }
        );
    }

    #[test]
    fn gto_anomaly_gub() {
        let b1 = gub(&profiles(&gto_block(), &hw(&[(4, 7), (1, 1)])));
        assert_eq!(
            b1,
            Bound {
                gub: 33,
                wub: vec![27, 33, 20]
            }
        );
        let b0 = gub(&profiles(&gto_block(), &hw(&[(4, 7), (1, 0)])));
        assert_eq!(b0.gub, 32);
    }

    #[test]
    fn lrr_anomaly_profiles() {
        let ps = profiles(&lrr_block(), &hw(&[(4, 5), (1, 3)]));
        let w1 = [
            ph(Exec, 0, 4),
            ph(Idle, 4, 5),
            ph(Exec, 9, 1),
            ph(Idle, 10, 3),
            ph(Exec, 13, 4),
            ph(Idle, 17, 5),
        ];
        assert_eq!(ps[1].phases, w1);
        let t: Vec<_> = ps.iter().map(|p| (p.t_iso(), p.exec())).collect();
        assert_eq!(t, [(13, 5), (22, 9), (22, 9)]);
    }

    /// `ld r1` (400-cycle memory) then `mov r1`: the mov waits for the load's write (WAW).
    #[test]
    fn waw_waits_for_the_long_write() {
        let mem_alu = hw(&[(1, 399), (1, 0)]);
        let path = [i(0, &[], Some(1)), i(1, &[], Some(1))];
        let p = build_profile(&path, &mem_alu).unwrap();
        assert_eq!(p.iso, [iso(0, 0, 1, 400), iso(400, 400, 401, 401)]);
        let phases = [ph(Exec, 0, 1), ph(Idle, 1, 399), ph(Exec, 400, 1)];
        assert_eq!(p.phases, phases);
        assert_eq!((p.t_iso(), p.exec()), (401, 2));
    }

    /// A store (no destination) issued last still completes 400 cycles later: the horizon.
    #[test]
    fn no_destination_extends_the_tail() {
        let mem_alu = hw(&[(1, 399), (1, 0)]);
        let path = [i(1, &[], Some(0)), i(0, &[0], None)];
        let p = build_profile(&path, &mem_alu).unwrap();
        assert_eq!(p.iso, [iso(0, 0, 1, 1), iso(1, 1, 2, 401)]);
        assert_eq!(p.phases, [ph(Exec, 0, 2), ph(Idle, 2, 399)]);
        assert_eq!(p.t_iso(), 401);
    }

    /// A later instruction without destination on a fast unit does not shorten the tail.
    #[test]
    fn horizon_keeps_the_longest_completion() {
        let mem_alu = hw(&[(1, 399), (1, 0)]);
        let path = [i(0, &[], None), i(1, &[], None)];
        let p = build_profile(&path, &mem_alu).unwrap();
        assert_eq!(p.phases, [ph(Exec, 0, 2), ph(Idle, 2, 398)]);
    }

    /// `slow → r0; fast → r1; other; slow r0 → r2`: `fast` queues behind `slow` on U0 (dispatch
    /// 4) and initiates for its own 1 cycle; `other` on U1 does not wait; the last `slow` waits
    /// for r0 (6) after U0 is free (5): one idle cycle.
    #[test]
    fn classes_sharing_a_unit_queue_with_their_own_costs() {
        let hw = HwDesc::shared_unit_example();
        let path = vec![
            i(0, &[], Some(0)),
            i(1, &[], Some(1)),
            i(2, &[], None),
            i(0, &[0], Some(2)),
        ];
        let p = build_profile(&path, &hw).unwrap();
        let times = [
            iso(0, 0, 4, 6),
            iso(1, 4, 5, 10),
            iso(2, 2, 4, 4),
            iso(6, 6, 10, 12),
        ];
        assert_eq!(p.iso, times);
        let phases = [
            ph(Exec, 0, 5),
            ph(Idle, 5, 1),
            ph(Exec, 6, 4),
            ph(Idle, 10, 2),
        ];
        assert_eq!(p.phases, phases);
        assert_eq!((p.t_iso(), p.exec()), (12, 9));
        let (t, sim_times) = sim::run(&vec![path.clone()], &hw, sim::Policy::Gto);
        assert_eq!((t, &sim_times[0][..]), (12, &times[..]));
        let block = vec![path.clone(), path];
        let b = gub_sections(&block, &hw).unwrap();
        assert_eq!(b.gub, 12 + 9);
        for policy in [sim::Policy::Lrr, sim::Policy::Gto] {
            assert!(sim::run(&block, &hw, policy).0 <= b.gub);
        }
    }

    /// Example 1's units plus an ALU (init 1, lat 0) for the barrier.
    fn bar_hw() -> HwDesc {
        hw(&[(2, 6), (3, 4), (2, 4), (1, 0)])
    }

    /// Two warps: Example 1 + bar, then w0 `FU0 → r0; FU2 r0 → r1`, w1 `FU1 → r5`.
    fn bar_block() -> Block {
        let mut w0 = ex1_path();
        w0.push(DynInst::barrier(3));
        let mut w1 = w0.clone();
        w0.extend([i(0, &[], Some(0)), i(2, &[0], Some(1))]);
        w1.push(i(1, &[], Some(5)));
        vec![w0, w1]
    }

    #[test]
    fn barrier_sections_are_summed() {
        let block = bar_block();
        let secs = sections(&block).unwrap();
        assert_eq!(secs.len(), 2);
        assert_eq!(secs[0][0].len(), 5);
        assert!(secs[0].iter().all(|p| p.last().is_some_and(|i| i.barrier)));
        let b = gub_sections(&block, &bar_hw()).unwrap();
        assert_eq!(
            b.sections[0],
            Bound {
                gub: 23,
                wub: vec![23, 23]
            }
        );
        assert_eq!(
            b.sections[1],
            Bound {
                gub: 17,
                wub: vec![17, 11]
            }
        );
        assert_eq!(b.gub, 40);
        let s0 = build_profile(&secs[0][0], &bar_hw()).unwrap();
        assert_eq!(s0.iso[4], iso(9, 9, 10, 10));
        assert_eq!((s0.t_iso(), s0.exec()), (14, 9));
    }

    #[test]
    fn trailing_barrier_gives_no_empty_section() {
        let block = vec![
            vec![DynInst::barrier(3)],
            vec![i(3, &[], None), DynInst::barrier(3)],
        ];
        let secs = sections(&block).unwrap();
        assert_eq!(secs.len(), 1);
        assert_eq!(gub_sections(&block, &bar_hw()).unwrap().gub, 3);
        let no_bar = vec![vec![], vec![]];
        assert_eq!(sections(&no_bar).unwrap(), vec![no_bar.clone()]);
    }

    #[test]
    fn mismatched_barriers_are_an_error() {
        let mut block = bar_block();
        block.push(ex1_path());
        let e = AnalysisError::BarrierMismatch {
            warp: 2,
            count: 0,
            expected: 1,
        };
        assert_eq!(sections(&block), Err(e.clone()));
        assert_eq!(gub_sections(&block, &bar_hw()), Err(e.clone()));
        assert!(e.to_string().contains("warp 2 executes 0 barriers"));
    }

    #[test]
    fn bad_inputs_are_errors() {
        let unknown = build_profile(&[i(0, &[], None), i(7, &[], None)], &ex1_hw());
        let e = AnalysisError::UnknownClass {
            inst: 1,
            class: 7,
            n_classes: 3,
        };
        assert!(e.to_string().contains("unknown opcode class"), "{e}");
        assert_eq!(unknown, Err(e));
        let zero = build_profile(&[i(1, &[], None)], &hw(&[(1, 0), (0, 3)]));
        assert_eq!(zero, Err(AnalysisError::ZeroInit { inst: 0, class: 1 }));
        let mut off = ex1_hw();
        off.classes[2].unit = 5;
        let e = build_profile(&ex1_path(), &off).unwrap_err();
        let want = AnalysisError::UnknownUnit {
            inst: 3,
            class: 2,
            unit: 5,
            n_units: 3,
        };
        assert_eq!(e, want);
        assert!(e.to_string().contains("on functional unit 5"), "{e}");
        assert_eq!(sections(&vec![]), Err(AnalysisError::EmptyBlock));
        assert_eq!(
            gub_sections(&vec![], &ex1_hw()),
            Err(AnalysisError::EmptyBlock)
        );
    }

    #[test]
    fn errors_in_a_section_name_the_warp() {
        let block = vec![
            vec![DynInst::barrier(3), i(9, &[], None)],
            vec![DynInst::barrier(3)],
        ];
        let e = gub_sections(&block, &bar_hw()).unwrap_err();
        let AnalysisError::InWarp { warp, section, .. } = &e else {
            panic!("{e:?}")
        };
        assert_eq!((*warp, *section), (0, 1));
        assert!(e
            .to_string()
            .starts_with("warp 0, section 1: instruction 0"));
        assert!(std::error::Error::source(&e).is_some());
    }

    /// A reference cycle model (built from the paper's Section 2 assumptions, the timing
    /// conventions above and drain-release barriers, not from the project's simulator). Per cycle:
    /// release the barrier if every warp waits at it and everything issued has completed
    /// (drain-release); issue at most one instruction, from the first eligible warp in policy order
    /// (not at a barrier, every source and the destination written), into its class's unit's FIFO;
    /// then every free unit dispatches its FIFO head, which initiates for its own class's `init`.
    mod sim {
        use super::*;
        use std::collections::VecDeque;

        #[derive(Clone, Copy)]
        pub enum Policy {
            Lrr,
            Gto,
        }

        struct Warp<'a> {
            path: &'a [DynInst],
            pc: usize,
            /// `None` while a write is issued but not dispatched.
            ready: HashMap<Reg, Option<u64>>,
            at_barrier: bool,
        }

        impl Warp<'_> {
            fn eligible(&self, t: u64) -> bool {
                let Some(inst) = self.path.get(self.pc).filter(|_| !self.at_barrier) else {
                    return false;
                };
                let ok = |r: &Reg| match self.ready.get(r) {
                    Some(Some(done)) => *done <= t,
                    Some(None) => false,
                    None => true,
                };
                inst.srcs.iter().chain(inst.dst.iter()).all(ok)
            }
        }

        fn order(policy: Policy, n: usize, last: Option<usize>) -> Vec<usize> {
            match (policy, last) {
                (Policy::Lrr, l) => {
                    let first = l.map_or(0, |l| l + 1);
                    (0..n).map(|k| (first + k) % n).collect()
                }
                (Policy::Gto, None) => (0..n).collect(),
                (Policy::Gto, Some(l)) => std::iter::once(l)
                    .chain((0..n).filter(|&w| w != l))
                    .collect(),
            }
        }

        struct Sm<'a> {
            hw: &'a HwDesc,
            policy: Policy,
            warps: Vec<Warp<'a>>,
            times: Vec<Vec<IsoTimes>>,
            fifo: Vec<VecDeque<(usize, usize)>>,
            free: Vec<u64>,
            t: u64,
            last: Option<usize>,
            end: u64,
        }

        impl<'a> Sm<'a> {
            fn new(block: &'a Block, hw: &'a HwDesc, policy: Policy) -> Self {
                let warp = |p: &'a Vec<DynInst>| Warp {
                    path: p,
                    pc: 0,
                    ready: HashMap::new(),
                    at_barrier: false,
                };
                Self {
                    hw,
                    policy,
                    warps: block.iter().map(warp).collect(),
                    times: block
                        .iter()
                        .map(|p| vec![iso(0, 0, 0, 0); p.len()])
                        .collect(),
                    fifo: vec![VecDeque::new(); hw.units.len()],
                    free: vec![0; hw.units.len()],
                    t: 0,
                    last: None,
                    end: 0,
                }
            }

            fn busy(&self) -> bool {
                let issuing = self.warps.iter().any(|w| w.pc < w.path.len());
                issuing || self.fifo.iter().any(|q| !q.is_empty())
            }

            fn release(&mut self) {
                let all = self.warps.iter().all(|w| w.at_barrier);
                let drained = self.fifo.iter().all(VecDeque::is_empty) && self.end <= self.t;
                if all && drained {
                    self.warps.iter_mut().for_each(|w| w.at_barrier = false);
                }
            }

            fn issue(&mut self) {
                let (n, t) = (self.warps.len(), self.t);
                let mut order = order(self.policy, n, self.last).into_iter();
                let Some(w) = order.find(|&w| self.warps[w].eligible(t)) else {
                    return;
                };
                let warp = &mut self.warps[w];
                let inst = &warp.path[warp.pc];
                self.fifo[self.hw.classes[inst.class].unit].push_back((w, warp.pc));
                if let Some(rd) = inst.dst {
                    warp.ready.insert(rd, None);
                }
                warp.at_barrier = inst.barrier;
                self.times[w][warp.pc].issue = t;
                warp.pc += 1;
                self.last = Some(w);
            }

            fn dispatch(&mut self, f: usize) {
                if self.free[f] > self.t {
                    return;
                }
                let Some((w, k)) = self.fifo[f].pop_front() else {
                    return;
                };
                let class = &self.hw.classes[self.warps[w].path[k].class];
                let (init, lat) = (class.init, class.lat);
                self.free[f] = self.t + u64::from(init);
                let done = self.free[f] + u64::from(lat);
                let x = &mut self.times[w][k];
                (x.dispatch, x.init_end, x.complete) = (self.t, self.free[f], done);
                if let Some(rd) = self.warps[w].path[k].dst {
                    self.warps[w].ready.insert(rd, Some(done));
                }
                self.end = self.end.max(done);
            }
        }

        /// The block time and `times[w][k]` of warp w's k-th instruction.
        pub fn run(block: &Block, hw: &HwDesc, policy: Policy) -> (u64, Vec<Vec<IsoTimes>>) {
            let mut sm = Sm::new(block, hw, policy);
            while sm.busy() {
                sm.release();
                sm.issue();
                (0..hw.units.len()).for_each(|f| sm.dispatch(f));
                sm.t += 1;
            }
            (sm.end, sm.times)
        }
    }

    /// The anomaly vectors' makespans: lowering one latency by a cycle lengthens the block, and the
    /// GUB covers both.
    #[test]
    fn anomalies_in_the_reference_model() {
        let lrr = |lat| sim::run(&lrr_block(), &hw(&[(4, 5), (1, lat)]), sim::Policy::Lrr).0;
        assert_eq!((lrr(3), lrr(2)), (30, 32));
        let gto = |lat| sim::run(&gto_block(), &hw(&[(4, 7), (1, lat)]), sim::Policy::Gto).0;
        assert_eq!((gto(1), gto(0)), (25, 28));
    }

    /// Example 2 / Fig. 3 in the reference model: GTO 17, LRR 18 (GUB 23).
    #[test]
    fn example_2_in_the_reference_model() {
        let block = vec![ex1_path(), ex1_path()];
        assert_eq!(sim::run(&block, &ex1_hw(), sim::Policy::Gto).0, 17);
        assert_eq!(sim::run(&block, &ex1_hw(), sim::Policy::Lrr).0, 18);
    }

    /// 1–4 units and 1–6 classes (init 1–8, lat 0–30), each on a random unit, so several
    /// classes with different costs often share a unit.
    fn arb_hw() -> impl Strategy<Value = HwDesc> {
        (1usize..=4)
            .prop_flat_map(|n_units| {
                let class = (0..n_units, 1u32..=8, 0u32..=30);
                (Just(n_units), prop::collection::vec(class, 1..=6))
            })
            .prop_map(|(n_units, classes)| HwDesc::numbered(n_units, &classes))
    }

    fn arb_inst(n_class: usize, n_reg: Reg) -> impl Strategy<Value = DynInst> {
        let reg = 0..n_reg;
        let srcs = prop::collection::vec(reg.clone(), 0..=3);
        (0..n_class, srcs, prop::option::of(reg)).prop_map(|(c, s, d)| i(c, &s, d))
    }

    fn arb_path(n_class: usize, n_reg: Reg) -> impl Strategy<Value = Vec<DynInst>> {
        prop::collection::vec(arb_inst(n_class, n_reg), 1..=25)
    }

    /// Hardware with 2–6 warps' paths over 2–12 registers.
    fn arb_case() -> impl Strategy<Value = (HwDesc, Block)> {
        (arb_hw(), 2u16..=12).prop_flat_map(|(hw, n_reg)| {
            let n_class = hw.classes.len();
            (
                Just(hw),
                prop::collection::vec(arb_path(n_class, n_reg), 2..=6),
            )
        })
    }

    /// 1–6 warps, each `n_bar + 1` segments of 0–8 instructions joined by barriers of class 0.
    fn arb_barrier_case() -> impl Strategy<Value = (HwDesc, Block)> {
        (arb_hw(), 2u16..=12, 0usize..=3).prop_flat_map(|(hw, n_reg, n_bar)| {
            let seg = prop::collection::vec(arb_inst(hw.classes.len(), n_reg), 0..=8);
            let warp = prop::collection::vec(seg, n_bar + 1).prop_map(|segs| {
                let bar = [DynInst::barrier(0)];
                segs.join(&bar[..])
            });
            (Just(hw), prop::collection::vec(warp, 1..=6))
        })
    }

    fn check_phases(p: &Profile) {
        let kinds = p.phases.iter().map(|x| x.kind);
        let expect = [Exec, Idle].into_iter().cycle();
        assert!(kinds.zip(expect).all(|(a, b)| a == b), "{:?}", p.phases);
        let mut at = 0;
        for x in &p.phases {
            assert_eq!(x.start, at);
            assert!(x.dur > 0);
            at += x.dur;
        }
        let last = p.iso.iter().map(|x| x.complete).max().unwrap_or(0);
        assert_eq!(p.t_iso(), last);
    }

    fn check_iso(path: &[DynInst], p: &Profile, hw: &HwDesc) {
        assert!(p.iso.windows(2).all(|w| w[0].issue < w[1].issue));
        let unit = |inst: &DynInst| hw.classes[inst.class].unit;
        for (k, (inst, x)) in path.iter().zip(&p.iso).enumerate() {
            let OpClass { init, lat, .. } = hw.classes[inst.class];
            assert!(x.dispatch >= x.issue);
            assert_eq!(x.init_end, x.dispatch + u64::from(init));
            assert_eq!(x.complete, x.init_end + u64::from(lat));
            let regs: Vec<Reg> = inst.srcs.iter().chain(inst.dst.iter()).copied().collect();
            for (j, prev) in path[..k].iter().enumerate() {
                if prev.dst.is_some_and(|d| regs.contains(&d)) {
                    assert!(x.issue >= p.iso[j].complete, "inst {k} before writer {j}");
                }
                if unit(prev) == unit(inst) {
                    assert!(x.dispatch >= p.iso[j].init_end, "inst {k} overlaps {j}");
                }
            }
        }
    }

    /// Exec cycles are exactly the cycles where some unit initiates (Definition 1).
    fn check_exec_cover(p: &Profile) {
        let busy = |c: u64| p.iso.iter().any(|x| x.dispatch <= c && c < x.init_end);
        for x in &p.phases {
            let want = x.kind == Exec;
            assert!((x.start..x.start + x.dur).all(|c| busy(c) == want), "{x:?}");
        }
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(2000))]

        #[test]
        fn profile_sanity((hw, block) in arb_case()) {
            for path in &block {
                let p = build_profile(path, &hw).unwrap();
                prop_assert_eq!(p.iso.len(), path.len());
                check_phases(&p);
                check_iso(path, &p, &hw);
                check_exec_cover(&p);
            }
        }

        /// Single-warp exactness: the isolated times equal the reference model's for a warp alone.
        #[test]
        fn single_warp_matches_reference((hw, block) in arb_case()) {
            let p = build_profile(&block[0], &hw).unwrap();
            let (t, times) = sim::run(&block[..1].to_vec(), &hw, sim::Policy::Lrr);
            prop_assert_eq!(&p.iso, &times[0]);
            prop_assert_eq!(p.t_iso(), t);
        }

        /// Safety: the reference model's block time stays within the GUB under LRR and GTO.
        #[test]
        fn gub_covers_reference((hw, block) in arb_case()) {
            let b = gub_sections(&block, &hw).unwrap();
            prop_assert_eq!(b.gub, gub(&profiles(&block, &hw)).gub);
            for policy in [sim::Policy::Lrr, sim::Policy::Gto] {
                let (t, _) = sim::run(&block, &hw, policy);
                prop_assert!(t <= b.gub, "T {} > GUB {}", t, b.gub);
            }
        }

        /// Safety with barriers: the drain-release reference model stays within Σ section GUBs,
        /// and the sections partition every warp's path.
        #[test]
        fn section_gub_covers_reference((hw, block) in arb_barrier_case()) {
            let secs = sections(&block).unwrap();
            for (w, path) in block.iter().enumerate() {
                let joined: Vec<DynInst> = secs.iter().flat_map(|s| s[w].clone()).collect();
                prop_assert_eq!(&joined, path);
            }
            let b = gub_sections(&block, &hw).unwrap();
            prop_assert_eq!(b.sections.len(), secs.len());
            for policy in [sim::Policy::Lrr, sim::Policy::Gto] {
                let (t, _) = sim::run(&block, &hw, policy);
                prop_assert!(t <= b.gub, "T {} > GUB {}", t, b.gub);
            }
        }
    }
}
