//! Block testbenches: each drives one block through the harness, checks it against its
//! reference model every cycle, and can write a VCD + `.gtkw` and record port vectors for
//! cosimulation. `rtgpu list/tb/cosim/synth` find them here by name.

use crate::bench::engines::EngineCycles;
use crate::bench::BenchRow;
use crate::sim::cosim::{KindWaiver, SynthScript, Waiver};
use std::path::Path;

pub mod cache;
pub mod cdc;
mod counter;
pub mod ctx;
pub mod cu_system;
pub mod cu_top;
mod decode;
pub mod dispatch;
pub mod dram;
pub mod fetch;
pub mod fixed_mem;
pub mod idu;
pub mod insn;
pub mod issue;
pub mod lds;
pub mod ldst;
pub mod pws;
pub mod regmap;
pub mod reorder;
mod runner;
pub mod salu;
pub mod sched;
pub mod valu;
pub mod vgpr;

pub use counter::{Counter32, CounterTb};
pub use decode::{read_outputs, DecodeTb, EDGE_CODES};
pub use insn::InsnTb;
pub use runner::{
    drive, mismatch, run_cycles, same, tb_finish, tb_harness, tb_harness_clocked, Ran, TbError,
    TbOptions, TbRun, TB_PERIOD_PS,
};

/// A block testbench.
pub trait BlockTb: Sync {
    /// The name used on the command line (`rtgpu tb NAME`).
    fn name(&self) -> &'static str;
    /// One line about the block and what the testbench checks.
    fn description(&self) -> &'static str;
    /// Runs the testbench.
    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError>;
    /// The block's Verilog (module `top`).
    fn verilog(&self) -> Result<String, String>;
    /// The engine benchmark on this testbench's own stimulus (`None`: not benchmarked).
    fn bench(&self, _n: EngineCycles, _dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        None
    }
    /// The testbench whose Yosys run stands for this one in CI, which synthesizes every block
    /// once: the same RTL at most a reset constant apart, or the same block at another size
    /// (its own synthesis runs with `rtgpu synth NAME`); `None`: synthesized here.
    fn synthesized_by(&self) -> Option<&'static str> {
        None
    }
    /// Why CI's cosimulation test replays and lints this block but does not synthesize it
    /// (`rtgpu cosim NAME` and `rtgpu synth NAME` do); `None`: CI synthesizes it too (every
    /// block but one whose synthesis takes minutes).
    fn not_synthesized_in_ci(&self) -> Option<&'static str> {
        None
    }
    /// Why CI does not cosimulate this block (no replay, lint or synthesis there), if it
    /// does not.
    fn not_cosimulated_in_ci(&self) -> Option<&'static str> {
        None
    }
    /// Lint findings this configuration of the block expects (none by default).
    fn lint_waivers(&self) -> &'static [Waiver] {
        &[]
    }
    /// The Yosys script that synthesizes the block ([`SynthScript::Flat`] unless the block
    /// says why not).
    fn synth_script(&self) -> SynthScript {
        SynthScript::Flat
    }
    /// Kinds of lint findings the block expects, by message shape (none by default).
    fn lint_kind_waivers(&self) -> &'static [KindWaiver] {
        &[]
    }
}

/// Every testbench, in the order `rtgpu list` shows them.
pub fn all() -> [&'static dyn BlockTb; 31] {
    [
        &InsnTb,
        &pws::FIG5,
        &pws::S1,
        &pws::S3,
        &pws::S7,
        &pws::KERNELS,
        &sched::SchedTb,
        &sched::SchedExampleTb,
        &crate::tb::dram::tb::READ_4K,
        &crate::tb::dram::tb::MIXED,
        &crate::tb::dram::tb::X8_MIXED,
        &crate::tb::dram::snoop_tb::SnoopTb,
        &crate::tb::idu::tb::IduFig43Tb,
        &crate::tb::cache::tb::L1Tb,
        &crate::tb::cache::coal_tb::CoalescerTb,
        &crate::tb::ldst::tb::ReorderExampleTb,
        &salu::SaluTb,
        &valu::ValuTb,
        &lds::LdsTb,
        &fixed_mem::FixedMemTb,
        &fetch::FetchTb,
        &dispatch::DispatchTb,
        &issue::IssueTb,
        &ctx::CtxTb,
        &vgpr::VgprTb,
        &regmap::RegMapTb,
        &cu_system::CuSystemTb,
        &cdc::CdcTb,
        &DecodeTb,
        &CounterTb,
        &cu_top::CuTopTb,
    ]
}

/// The testbench called `name`, or an error listing the known ones.
pub fn find(name: &str) -> Result<&'static dyn BlockTb, String> {
    all().into_iter().find(|t| t.name() == name).ok_or_else(|| {
        let known: Vec<&str> = all().iter().map(|t| t.name()).collect();
        format!("unknown block `{name}`; known blocks: {}", known.join(", "))
    })
}
