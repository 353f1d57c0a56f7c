//! [`RtlBlocks`]: a system's blocks as RTL in the harness, each in lock-step with its
//! reference model, for the blocks named; the others are models.
//!
//! rust-hdl blocks are sized by const generics, so the RTL exists for the shapes listed here
//! (those of the default configuration); another shape is a clear error naming the block.

use super::lockstep::LockStep;
use super::rtl::{EngineChoice, Rtl};
use super::vl::{Engine, VlOptions, VlPorts};
use super::waves::merge::Timeline;
use rtgpu_hw::block::{BlockKind, Blocks, Clocked, DynBlock, Models};
use rtgpu_hw::cache::coal_model::{CoalescerIn, CoalescerModel, CoalescerOut, WAVE_LANES};
use rtgpu_hw::cache::model::{CacheIn, CacheModel, CacheOut};
use rtgpu_hw::cache::{Coalescer, L1Cache};
use rtgpu_hw::dram::model::{DramIn, DramModel, DramOut};
use rtgpu_hw::dram::{DramCtrl, Part};
use rtgpu_hw::idu::model::{DispIn, DispOut, DispatcherModel};
use rtgpu_hw::idu::Dispatcher;
use rtgpu_hw::isa::insn_model::{InsnDecodeIn, InsnDecodeModel, InsnDecodeOut};
use rtgpu_hw::isa::InsnDecode;
use rtgpu_hw::pws::model::{GroupOut, ModelConfig, PwsIn, SimdGroupModel};
use rtgpu_hw::pws::SimdGroup;
use rtgpu_hw::reorder::model::{ReorderIn, ReorderModel, ReorderOut};
use rtgpu_hw::reorder::Reorder;
use rtgpu_hw::sched::model::{Policy, PolicyScheduler, SchedIn, SchedOut};
use rtgpu_hw::sched::WarpScheduler;
use std::sync::{Arc, Mutex};

/// The named blocks as RTL checked against their models, the rest as models.
#[derive(Clone, Debug, Default)]
pub struct RtlBlocks {
    kinds: Vec<BlockKind>,
    /// Each RTL block records its own signals in a VCD here, noting the system's time in the
    /// timeline's tracks.
    vcd_dir: Option<(std::path::PathBuf, Timeline)>,
    /// The engine evaluating the RTL.
    engine: Engine,
    /// The Verilator waveforms' window, ps.
    window: (u64, u64),
    /// The waveforms keep only these scopes (`--vcd-scope`); empty: everything.
    scopes: Vec<String>,
    /// What the blocks built so far found of `scopes`.
    seen: Arc<Mutex<ScopesSeen>>,
}

/// The `--vcd-scope` scopes the RTL blocks built so far hold, and their top-level scopes.
#[derive(Clone, Debug, Default)]
pub struct ScopesSeen {
    /// The scopes asked for that some block's waveform holds.
    pub found: Vec<String>,
    /// The top-level scopes of every block's waveform (as each names them).
    pub top_level: Vec<String>,
}

impl RtlBlocks {
    /// RTL for `kinds`.
    pub fn new(kinds: &[BlockKind]) -> Self {
        RtlBlocks {
            kinds: kinds.to_vec(),
            vcd_dir: None,
            engine: Engine::Harness,
            window: (0, u64::MAX),
            scopes: Vec::new(),
            seen: Arc::default(),
        }
    }

    /// The blocks' waveforms keep only the signals in `scopes` (either engine's form, see
    /// [`crate::sim::waves::scopes`]); a block whose waveform holds none of them writes no
    /// file. [`RtlBlocks::scopes_seen`] says which were found.
    pub fn with_vcd_scopes(mut self, scopes: &[String]) -> Self {
        self.scopes = scopes.to_vec();
        self
    }

    /// What the blocks built so far found of the scopes of [`RtlBlocks::with_vcd_scopes`].
    pub fn scopes_seen(&self) -> ScopesSeen {
        self.seen.lock().map(|s| s.clone()).unwrap_or_default()
    }

    /// The RTL evaluated by `engine`; Verilator's waveforms keep `window` (ps, inclusive).
    pub fn with_engine(mut self, engine: Engine, window: (u64, u64)) -> Self {
        self.engine = engine;
        self.window = window;
        self
    }

    /// How each adapter evaluates its block.
    fn choice(&self) -> EngineChoice {
        EngineChoice {
            engine: self.engine,
            vl: VlOptions {
                trace: self.vcd_dir.is_some(),
                window: self.window,
                ..VlOptions::default()
            },
        }
    }

    /// Every RTL block also writes its own waveform, `dir/<instance>.vcd`, and notes the
    /// system's time (from `timeline`'s clock) at each of its cycles in its track there.
    pub fn with_vcd_dir(mut self, dir: std::path::PathBuf, timeline: Timeline) -> Self {
        self.vcd_dir = Some((dir, timeline));
        self
    }

    /// `rtl`, recording its waveform when asked.
    fn traced<B: VlPorts + 'static, I, O: Default>(
        &self,
        rtl: Rtl<B, I, O>,
    ) -> Result<Rtl<B, I, O>, String> {
        let Some((dir, timeline)) = &self.vcd_dir else {
            return Ok(rtl);
        };
        if self.scopes.is_empty() {
            return rtl.record_in(dir, &[], timeline);
        }
        let mut rtl = rtl;
        let (found, top) = rtl.scopes_in(&self.scopes);
        if let Ok(mut guard) = self.seen.lock() {
            let seen = &mut *guard;
            for (list, new) in [(&mut seen.found, &found), (&mut seen.top_level, &top)] {
                for s in new {
                    if !list.contains(s) {
                        list.push(s.clone());
                    }
                }
            }
        }
        match found.is_empty() {
            true => Ok(rtl),
            false => rtl.record_in(dir, &found, timeline),
        }
    }

    fn on(&self, k: BlockKind) -> bool {
        self.kinds.contains(&k)
    }
}

/// `rtl` checked against `model` as `name`.
fn pair<M, R>(name: &str, model: M, rtl: R) -> DynBlock<M::In, M::Out>
where
    M: Clocked + Send + 'static,
    R: Clocked<In = M::In, Out = M::Out> + Send + 'static,
{
    Box::new(LockStep::new(name, model, rtl))
}

fn no_shape(block: &str, what: String, have: &str) -> String {
    format!("--rtl {block}: no RTL instance for {what}; the RTL is instantiated for {have}")
}

impl Blocks for RtlBlocks {
    fn decode(&self) -> Result<DynBlock<InsnDecodeIn, InsnDecodeOut>, String> {
        if !self.on(BlockKind::Decode) {
            return Models.decode();
        }
        let rtl = Rtl::new(
            "decode",
            InsnDecode::default(),
            |u| &mut u.clock,
            (decode_apply, crate::tb::insn::read_outputs),
            self.choice(),
        )?;
        Ok(pair("decode", InsnDecodeModel::new(), self.traced(rtl)?))
    }

    fn sched(&self, name: &str, warps: usize) -> Result<DynBlock<SchedIn, SchedOut>, String> {
        if !self.on(BlockKind::Sched) {
            return Models.sched(name, warps);
        }
        let model = PolicyScheduler::new(Policy::Gto, warps);
        macro_rules! sched {
            ($($w:literal)*) => {
                match warps {
                    $($w => pair(name, model, self.traced(sched_rtl::<$w>(name, self.choice())?)?),)*
                    w => return Err(no_shape("sched", format!("{w} warps"), "4, 8, 10 or 16")),
                }
            };
        }
        Ok(sched!(4 8 10 16))
    }

    fn pws(&self, name: &str, cfg: ModelConfig) -> Result<DynBlock<PwsIn, GroupOut>, String> {
        if !self.on(BlockKind::Pws) {
            return Models.pws(name, cfg);
        }
        let model = SimdGroupModel::new(cfg);
        Ok(match (cfg.lanes, cfg.units, cfg.n_wfc) {
            (64, 2, 10) => pair(
                name,
                model,
                self.traced(pws_rtl::<64, 2, 20>(name, self.choice())?)?,
            ),
            (64, 3, 10) => pair(
                name,
                model,
                self.traced(pws_rtl::<64, 3, 30>(name, self.choice())?)?,
            ),
            (64, 4, 10) => pair(
                name,
                model,
                self.traced(pws_rtl::<64, 4, 40>(name, self.choice())?)?,
            ),
            (l, u, n) => {
                let what = format!("{l} lanes, {u} units, {n} contexts per unit");
                return Err(no_shape("pws", what, "64 lanes, S = 1..=3, N_WFC = 10"));
            }
        })
    }

    fn coalesce(&self) -> Result<DynBlock<CoalescerIn<WAVE_LANES>, CoalescerOut>, String> {
        if !self.on(BlockKind::Coalesce) {
            return Models.coalesce();
        }
        let rtl = coalesce_rtl(self.choice())?;
        Ok(pair("coalesce", CoalescerModel::new(), self.traced(rtl)?))
    }

    fn reorder(
        &self,
        w: usize,
        d: usize,
        t: usize,
    ) -> Result<DynBlock<ReorderIn, ReorderOut>, String> {
        if !self.on(BlockKind::Reorder) {
            return Models.reorder(w, d, t);
        }
        let model = ReorderModel::new(w, d, t)?;
        let rtl = match (w, d, t) {
            (40, 10, 16) => Rtl::new(
                "reorder",
                Reorder::<40, 10, 16>::default(),
                |u| &mut u.clock,
                (
                    crate::tb::reorder::rtl::apply,
                    crate::tb::reorder::rtl::read,
                ),
                self.choice(),
            )?,
            (w, d, t) => {
                let what = format!("W = {w} slots, D = {d}, T = {t}");
                return Err(no_shape("reorder", what, "W = 40, D = 10, T = 16"));
            }
        };
        Ok(pair("reorder", model, self.traced(rtl)?))
    }

    fn l1(&self, sets: usize, ways: usize) -> Result<DynBlock<CacheIn, CacheOut>, String> {
        if !self.on(BlockKind::L1) {
            return Models.l1(sets, ways);
        }
        let model = CacheModel::new(sets, ways)?;
        let rtl = l1_rtl(sets, ways, self.choice())?;
        Ok(pair("l1", model, self.traced(rtl)?))
    }

    fn dram(&self, part: Part, refresh_phase: u16) -> Result<DynBlock<DramIn, DramOut>, String> {
        if !self.on(BlockKind::Dram) {
            return Models.dram(part, refresh_phase);
        }
        let model = DramModel::new(part, refresh_phase);
        Ok(match part.banks {
            8 => pair(
                "dram",
                model,
                self.traced(dram_rtl::<8>(part, refresh_phase, self.choice())?)?,
            ),
            16 => pair(
                "dram",
                model,
                self.traced(dram_rtl::<16>(part, refresh_phase, self.choice())?)?,
            ),
            n => return Err(no_shape("dram", format!("{n} banks"), "8 or 16 banks")),
        })
    }

    fn idu(&self, name: &str, k: usize) -> Result<DynBlock<DispIn, DispOut>, String> {
        if !self.on(BlockKind::Idu) {
            return Models.idu(name, k);
        }
        if k != 8 {
            return Err(no_shape("idu", format!("K = {k} clusters"), "K = 8"));
        }
        let rtl = Rtl::new(
            name,
            Dispatcher::<8>::default(),
            |u| &mut u.clock,
            (crate::tb::idu::rtl::apply, crate::tb::idu::rtl::read),
            self.choice(),
        )?;
        Ok(pair(name, DispatcherModel::new(k), self.traced(rtl)?))
    }

    fn checked(&self) -> bool {
        !self.kinds.is_empty()
    }
}

/// The compute unit's coalescer RTL (64 lanes, power-up state = reset state) on `engine`.
pub fn coalesce_rtl(
    engine: EngineChoice,
) -> Result<Rtl<Coalescer<WAVE_LANES>, CoalescerIn<WAVE_LANES>, CoalescerOut>, String> {
    Rtl::new(
        "coalesce",
        Coalescer::<WAVE_LANES>::default(),
        |u| &mut u.clock,
        (
            crate::tb::cache::rtl::apply_coal,
            crate::tb::cache::rtl::read_coal,
        ),
        engine,
    )
}

/// The L1 RTL of `sets` × `ways` (reset state) on `engine`.
pub fn l1_rtl(
    sets: usize,
    ways: usize,
    engine: EngineChoice,
) -> Result<Rtl<L1Cache<32, 4>, CacheIn, CacheOut>, String> {
    match (sets, ways) {
        (32, 4) => Rtl::new(
            "l1",
            L1Cache::<32, 4>::default(),
            |u| &mut u.clock,
            (
                crate::tb::cache::rtl::apply_l1,
                crate::tb::cache::rtl::read_l1,
            ),
            engine,
        ),
        (s, w) => Err(no_shape("l1", format!("{s} sets × {w} ways"), "32 × 4")),
    }
}

fn decode_apply(u: &mut InsnDecode, i: &InsnDecodeIn) {
    crate::tb::insn::apply(u, *i);
}

/// The warp scheduler RTL of `W` warps on `engine`.
pub fn sched_rtl<const W: usize>(
    name: &str,
    engine: EngineChoice,
) -> Result<Rtl<WarpScheduler<W>, SchedIn, SchedOut>, String> {
    Rtl::new(
        name,
        WarpScheduler::<W>::default(),
        |u| &mut u.clock,
        (sched_apply, sched_read),
        engine,
    )
}

fn sched_apply<const W: usize>(u: &mut WarpScheduler<W>, i: &SchedIn) {
    crate::tb::sched::apply(u, i);
}

fn sched_read<const W: usize>(u: &WarpScheduler<W>) -> SchedOut {
    SchedOut {
        grant_valid: u.grant_valid.val(),
        grant: u.grant.val().index() as u8,
        last: u.last.val().index() as u8,
        last_valid: u.last_valid.val(),
    }
}

fn pws_rtl<const L: usize, const U: usize, const C: usize>(
    name: &str,
    engine: EngineChoice,
) -> Result<Rtl<SimdGroup<L, U, C>, PwsIn, GroupOut>, String> {
    Rtl::new(
        name,
        SimdGroup::<L, U, C>::default(),
        |u| &mut u.clock,
        (pws_apply, crate::tb::pws::read_outputs),
        engine,
    )
}

fn pws_apply<const L: usize, const U: usize, const C: usize>(
    u: &mut SimdGroup<L, U, C>,
    i: &PwsIn,
) {
    crate::tb::pws::apply(u, &i.group, &i.exec);
}

fn dram_rtl<const NB: usize>(
    part: Part,
    refresh_phase: u16,
    engine: EngineChoice,
) -> Result<Rtl<DramCtrl<NB>, DramIn, DramOut>, String> {
    let block = DramCtrl::<NB>::new(&part, refresh_phase);
    let rtl = Rtl::new(
        "dram",
        block,
        |u| &mut u.clock,
        (crate::tb::dram::rtl::apply, crate::tb::dram::rtl::read),
        engine,
    )?;
    rtl.reset_cycle(&DramIn {
        reset: true,
        ..DramIn::default()
    })
}
