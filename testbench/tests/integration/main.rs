//! The testbench crate's integration tests, one binary: each module below is one subject
//! (a block, the system, the CLI, the docs). One binary links the project's code once, where
//! one binary per file linked it thirty times, which dominated the suite's build time.
//!
//! Run one subject with its module name as the filter, e.g.
//! `cargo test --release -p rtgpu-testbench --test integration dram::`.
//! (`tests/alloc_per_cycle.rs` stays a binary of its own: it installs a global allocator.)

mod aging;
mod cache;
mod cdc;
mod cli;
mod cli_inputs;
mod coalescer;
mod common;
mod cosim;
mod ctx;
mod cu_system;
mod cu_top;
mod decode_rtl_vs_model;
mod dispatch;
mod docs;
mod dram;
mod fetch;
mod fixed_mem;
mod fuzz;
mod harness;
mod idu;
mod insn_decode;
mod issue;
mod lds;
mod lds_period;
mod ldst;
mod multiphase;
mod opencl;
mod outputs_in_current_dir;
mod pws;
mod pws_pass_cu;
mod regmap;
mod reorder;
mod rtl_system;
mod run;
mod salu;
mod sched;
mod simd;
mod simd_wcet;
mod standalone;
mod sweep;
mod system;
mod valu;
mod verilator;
mod vgpr;
mod waveform_views;
mod wcet;
mod wcet_cli;
mod wcet_gub;
mod wcet_memory;
mod wcet_opencl;
mod wcet_reorder;
