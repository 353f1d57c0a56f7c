//! Which implementation each block of a system gets: [`Blocks`], and [`Models`], the
//! reference models of every block.

use super::DynBlock;
use crate::cache::coal_model::{CoalescerIn, CoalescerModel, CoalescerOut, WAVE_LANES};
use crate::cache::model::{CacheIn, CacheModel, CacheOut};
use crate::dram::model::{DramIn, DramModel, DramOut};
use crate::dram::Part;
use crate::idu::model::{DispIn, DispOut, DispatcherModel};
use crate::isa::insn_model::{InsnDecodeIn, InsnDecodeModel, InsnDecodeOut};
use crate::pws::model::{GroupOut, ModelConfig, PwsIn, SimdGroupModel};
use crate::reorder::model::{ReorderIn, ReorderModel, ReorderOut};
use crate::sched::model::{Policy, PolicyScheduler, SchedIn, SchedOut};

/// The blocks of the compute unit and its memory hierarchy that can be swapped.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum BlockKind {
    /// The instruction decode stage.
    Decode,
    /// The warp scheduler of every SIMD/SpSIMD.
    Sched,
    /// The split/merge unit of every SIMD group.
    Pws,
    /// The coalescer of the compute unit's FLAT instructions.
    Coalesce,
    /// The load/store reordering unit.
    Reorder,
    /// The L1 data cache.
    L1,
    /// The Sim-D DRAM controller.
    Dram,
    /// The IDU's dispatcher of every SIMD/SpSIMD.
    Idu,
}

impl BlockKind {
    /// Every kind, in pipeline order.
    pub const ALL: [BlockKind; 8] = [
        BlockKind::Decode,
        BlockKind::Sched,
        BlockKind::Pws,
        BlockKind::Coalesce,
        BlockKind::Reorder,
        BlockKind::L1,
        BlockKind::Dram,
        BlockKind::Idu,
    ];

    /// The name on the command line (`decode sched pws coalesce reorder l1 dram idu`).
    pub fn name(self) -> &'static str {
        match self {
            BlockKind::Decode => "decode",
            BlockKind::Sched => "sched",
            BlockKind::Pws => "pws",
            BlockKind::Coalesce => "coalesce",
            BlockKind::Reorder => "reorder",
            BlockKind::L1 => "l1",
            BlockKind::Dram => "dram",
            BlockKind::Idu => "idu",
        }
    }

    /// A comma-separated list of names, or `all`.
    pub fn parse_list(s: &str) -> Result<Vec<BlockKind>, String> {
        if s.trim() == "all" {
            return Ok(Self::ALL.to_vec());
        }
        let mut out = Vec::new();
        for name in s.split(',').map(str::trim).filter(|n| !n.is_empty()) {
            let k = Self::ALL
                .into_iter()
                .find(|k| k.name() == name)
                .ok_or_else(|| {
                    let names: Vec<&str> = Self::ALL.iter().map(|k| k.name()).collect();
                    format!(
                        "unknown block `{name}`; use all or some of {}",
                        names.join(",")
                    )
                })?;
            if !out.contains(&k) {
                out.push(k);
            }
        }
        if out.is_empty() {
            return Err("empty block list; use all or names such as pws,l1".into());
        }
        Ok(out)
    }
}

/// Where a system gets each block's implementation. `name` arguments name the instance
/// (`pws[g0]`), for messages.
pub trait Blocks: Send + Sync {
    /// The instruction decode stage.
    fn decode(&self) -> Result<DynBlock<InsnDecodeIn, InsnDecodeOut>, String>;
    /// A warp scheduler over `warps` warps.
    fn sched(&self, name: &str, warps: usize) -> Result<DynBlock<SchedIn, SchedOut>, String>;
    /// A split/merge unit.
    fn pws(&self, name: &str, cfg: ModelConfig) -> Result<DynBlock<PwsIn, GroupOut>, String>;
    /// The compute unit's coalescer (a wavefront's lanes, contract in `crate::cache`).
    fn coalesce(&self) -> Result<DynBlock<CoalescerIn<WAVE_LANES>, CoalescerOut>, String>;
    /// A reordering unit of `w` slots, `d` entries per channel, `t` trace entries per slot.
    fn reorder(
        &self,
        w: usize,
        d: usize,
        t: usize,
    ) -> Result<DynBlock<ReorderIn, ReorderOut>, String>;
    /// An L1 of `sets` × `ways`.
    fn l1(&self, sets: usize, ways: usize) -> Result<DynBlock<CacheIn, CacheOut>, String>;
    /// A DRAM controller for `part`.
    fn dram(&self, part: Part, refresh_phase: u16) -> Result<DynBlock<DramIn, DramOut>, String>;
    /// An IDU dispatcher over `k` lane clusters.
    fn idu(&self, name: &str, k: usize) -> Result<DynBlock<DispIn, DispOut>, String>;
    /// Some block is checked against another implementation: its owner polls
    /// [`super::Clocked::check`] every cycle.
    fn checked(&self) -> bool {
        false
    }
}

/// Every block as its reference model (the behavioural system).
#[derive(Clone, Copy, Debug, Default)]
pub struct Models;

impl Blocks for Models {
    fn decode(&self) -> Result<DynBlock<InsnDecodeIn, InsnDecodeOut>, String> {
        Ok(Box::new(InsnDecodeModel::new()))
    }

    fn sched(&self, _name: &str, warps: usize) -> Result<DynBlock<SchedIn, SchedOut>, String> {
        Ok(Box::new(PolicyScheduler::new(Policy::Gto, warps)))
    }

    fn pws(&self, _name: &str, cfg: ModelConfig) -> Result<DynBlock<PwsIn, GroupOut>, String> {
        Ok(Box::new(SimdGroupModel::new(cfg)))
    }

    fn coalesce(&self) -> Result<DynBlock<CoalescerIn<WAVE_LANES>, CoalescerOut>, String> {
        Ok(Box::new(CoalescerModel::<WAVE_LANES>::new()))
    }

    fn reorder(
        &self,
        w: usize,
        d: usize,
        t: usize,
    ) -> Result<DynBlock<ReorderIn, ReorderOut>, String> {
        Ok(Box::new(ReorderModel::new(w, d, t)?))
    }

    fn l1(&self, sets: usize, ways: usize) -> Result<DynBlock<CacheIn, CacheOut>, String> {
        Ok(Box::new(CacheModel::new(sets, ways)?))
    }

    fn dram(&self, part: Part, refresh_phase: u16) -> Result<DynBlock<DramIn, DramOut>, String> {
        Ok(Box::new(DramModel::new(part, refresh_phase)))
    }

    fn idu(&self, _name: &str, k: usize) -> Result<DynBlock<DispIn, DispOut>, String> {
        Ok(Box::new(DispatcherModel::new(k)))
    }
}
