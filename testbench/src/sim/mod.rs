//! Simulation infrastructure:
//!
//! - [`harness`]: drives rust-hdl blocks directly, several clock domains ([`clock`]) on a ps
//!   timeline;
//! - [`waves`]: VCD recording and GTKWave save files; [`signals`]: a block's signal list;
//!   [`atom_table`]: its signals kept from one walk to the next; [`atom_value`]: a signal's
//!   value read without rust-hdl's allocated value;
//! - [`ports`]: per-cycle port vectors; [`cosim`]: Icarus replay, Verilator lint, Yosys;
//! - [`lockstep`]: two implementations of a block compared port by port every cycle;
//! - [`rtl`]: a harness block behind the block interface; [`blocks`]: the system's blocks as
//!   RTL in lock-step; [`twin`]: one launch on the models and with RTL; [`window`]: the
//!   waveform of a mismatch;
//! - [`vl`]: the Verilator engine (a block's Verilog Verilated and evaluated in the harness).

pub mod atom_table;
pub mod atom_value;
pub mod blocks;
pub mod clock;
pub mod cosim;
pub mod harness;
pub mod lockstep;
pub mod ports;
pub mod rtl;
pub mod signals;
pub mod twin;
pub mod vl;
pub mod waves;
pub mod window;
