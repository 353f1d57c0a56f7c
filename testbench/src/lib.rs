//! rtgpu-testbench: simulation, block testbenches, oracles and system runs of rtgpu, and (in
//! `cli/`) the `rtgpu` command-line program.
//!
//! - [`sim`]: the simulation infrastructure: cycle harness, clocks, waveforms, port vectors,
//!   cosimulation, the lock-step checker and the RTL blocks behind the block interface;
//! - [`tb`]: the block testbenches (registry that `rtgpu tb/cosim/synth` run, and one folder
//!   or file per block);
//! - [`oracle`]: the independent DDR4 timing checker and SM issue model;
//! - [`cu`]: runs of the whole compute unit (`rtgpu run`, sweeps, scenarios, WCET);
//! - [`aging`]: the cycle-level step model of the aging experiment (`rtgpu aging`), the IDU
//!   reference model running each step's instruction stream;
//! - [`multiphase`], [`bench`](mod@bench), [`plot`], [`paths`]: the multi-phase analysis runs,
//!   benchmarks, PNG charts, output paths.

pub mod aging;
pub mod bench;
pub mod cu;
pub mod fault;
pub mod fuzz;
pub mod multiphase;
pub mod opencl;
pub mod oracle;
pub mod paths;
pub mod plot;
pub mod sim;
pub mod tb;
