//! rtgpu-testbench: the cycle harness, waveforms, cosimulation and block testbenches of rtgpu,
//! and (in `main.rs`) the `rtgpu` command-line program.
//!
//! - [`harness`]: drives rust-hdl blocks directly, several clock domains on a ps timeline;
//! - [`waves`]: VCD recording and GTKWave save files;
//! - [`ports`]: per-cycle port vectors; [`cosim`]: Icarus/Verilator/Yosys;
//! - [`tb`]: the registry of block testbenches that `rtgpu tb/cosim/synth` run;
//! - [`ddr4`]: an independent DDR4 command-trace timing checker (test oracle for the DRAM
//!   controller; shares no code with `hw/src/dram/`);
//! - [`aging`]: the cycle-level step model of the aging experiment (`rtgpu aging`), the IDU
//!   reference model running each step's instruction stream.
//! - [`plot`]: PNG bar charts of the reproduction's results.

pub mod aging;
pub mod bench;
pub mod cache;
pub mod clock;
pub mod cosim;
pub mod cu;
pub mod ddr4;
pub mod dram;
pub mod harness;
pub mod idu;
pub mod ldst;
pub mod multiphase;
pub mod paths;
pub mod plot;
pub mod ports;
pub mod reorder;
pub mod signals;
pub mod sim;
pub mod sm;
pub mod tb;
pub mod waves;
