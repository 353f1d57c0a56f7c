//! Independent oracles the tests hold the hardware to, each written without seeing the code it
//! checks:
//!
//! - [`ddr4`]: a DDR4 command-trace timing checker (for the DRAM controller; shares no code
//!   with `rtgpu_hw::dram`). It lives in `rtgpu_hw::oracle` so that the controller model's
//!   unit tests can use it too, and is re-exported here;
//! - [`sm`]: the SM issue model of the multi-phase warp-scheduling analysis (for the WCET
//!   bound and the warp scheduler).
//!
//! The third oracle, the reference interpreter of the instruction set, lives with the ISA in
//! `rtgpu_firmware::interp` (the firmware's load/store trace analysis runs it too).

pub use rtgpu_hw::oracle::ddr4;
pub mod sm;
