//! The analysis input shared with the simulators: a hardware description (opcode class →
//! functional unit, initiation, latency) and per-warp dynamic instruction paths with no timing
//! (spec/001-multiphase.md §4.4, §9.6). Nothing here knows how the paths are timed.

use serde::{Deserialize, Serialize};

/// A functional unit's costs (spec §2.3 HF3): it is busy *initiating* an instruction for `init`
/// cycles (one at a time, across all warps), then the result takes `lat` more cycles in a fully
/// pipelined stage. A consumer may issue in cycle dispatch + init + lat.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct FuSpec {
    /// Initiation cycles (≥ 1).
    pub init: u32,
    /// Latency cycles after the initiation (≥ 0).
    pub lat: u32,
}

/// The hardware description: functional unit `f` has costs `fus[f]`. Instructions name their
/// unit directly (opcode class = unit, as the paper's examples do).
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct HwDesc {
    /// The functional units.
    pub fus: Vec<FuSpec>,
}

impl HwDesc {
    /// Units with these (init, lat) costs, unit f = `costs[f]`.
    pub fn from_costs(costs: &[(u32, u32)]) -> Self {
        Self {
            fus: costs
                .iter()
                .map(|&(init, lat)| FuSpec { init, lat })
                .collect(),
        }
    }
}

/// A register of one warp (registers are private to their warp).
pub type Reg = u16;

/// One dynamic instruction of one warp's path: no timing fields, ever.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct DynInst {
    /// The functional unit it executes on (index into [`HwDesc::fus`]).
    pub fu: usize,
    /// Source registers.
    pub srcs: Vec<Reg>,
    /// Destination register, if any.
    pub dst: Option<Reg>,
    /// A block-wide barrier (`s_barrier`): issued and initiated on `fu` like any instruction;
    /// the warp then waits until every warp of the block has arrived and drained.
    pub barrier: bool,
}

impl DynInst {
    /// An instruction on unit `fu` reading `srcs` and writing `dst`.
    pub fn new(fu: usize, srcs: &[Reg], dst: Option<Reg>) -> Self {
        Self {
            fu,
            srcs: srcs.to_vec(),
            dst,
            barrier: false,
        }
    }

    /// A barrier issued on unit `fu`.
    pub fn barrier(fu: usize) -> Self {
        Self {
            fu,
            srcs: Vec::new(),
            dst: None,
            barrier: true,
        }
    }
}

/// The paths of a block: `paths[w]` is warp w's dynamic instruction sequence (`ret` excluded).
pub type Block = Vec<Vec<DynInst>>;
