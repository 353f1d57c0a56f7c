//! The dual-clock FIFO between the compute unit's clock and the DRAM controller's: Gray-coded
//! pointers, each crossing into the other clock through a two-flop synchronizer.
//!
//! # Contract
//!
//! `2^(A1 − 1)` places (`D`) of `W` bits. The writer runs on `wclk`, the reader on `rclk`;
//! the two clocks have any periods and phases. Each side has a synchronous reset of its own
//! (`wreset`, `rreset`); a testbench resets both before the first entry (a reset of one side
//! alone while entries are in flight is outside the contract, as in any dual-clock FIFO).
//!
//! - **Writer.** In a cycle with `push` and not `full`, `wdata` enters the FIFO at the edge
//!   of `wclk` that ends the cycle (`push` while `full` is ignored). `wfree` is the number of
//!   places the writer sees free, `full` is `wfree == 0`.
//! - **Reader.** `rvalid` says the reader sees an entry, `rdata` is the oldest one (0 when
//!   there is none), `rcount` how many it sees. In a cycle with `pop` and `rvalid`, the
//!   oldest entry leaves at the edge of `rclk` that ends the cycle.
//! - **Crossing.** The write pointer (binary, and its Gray code in a register) crosses to the
//!   reader through two flip-flops on `rclk`; the reader compares the synchronized pointer,
//!   converted back to binary, with its own. An entry pushed at a `wclk` edge at time `p` is
//!   therefore seen by the reader from its second `rclk` edge strictly after `p` on, so it can
//!   be popped at the third; symmetrically, a place popped at an `rclk` edge at time `q` is
//!   seen free by the writer from its second `wclk` edge strictly after `q` on (the full flag
//!   is pessimistic, never optimistic). An edge of the other clock at exactly `p` samples the
//!   old pointer (both clocks' registers load together, as in Verilog).
//!
//! This is the timing of the behavioural model [`crate::memsys::cdc::CdcFifo`] with two
//! stages: it is this block's reference model (its `can_push`/`free_places` at a writer edge
//! are `!full`/`wfree` in the cycle that edge ends, its `peek` at a reader edge is
//! `rvalid`/`rdata`). The pointers are one bit wider than the address, so a full FIFO and an
//! empty one differ; only one bit of a Gray-coded pointer changes per push or pop, so a
//! synchronizer that samples it mid-change sees the old or the new value, never a third.
//! Every register, the memory included, starts at 0: the Verilog never reads X.

pub mod rtl;

pub use rtl::{CdcFifo, GrayToBin};
