//! rtgpu-hw: the hardware of rtgpu.
//!
//! One module per block of the block diagram (docs/architecture.md). Every synthesizable
//! block is a rust-hdl `LogicBlock` with `#[hdl_gen]` logic, documented ports, and beside it an
//! independent reference model written from the block's documented contract and the source
//! paper (`*_model.rs`).

pub mod block;
pub mod cache;
pub mod cdc;
pub mod ctx;
pub mod cu;
pub mod cu_system;
pub mod cu_top;
pub mod dispatch;
pub mod dram;
pub mod fetch;
pub mod fixed_mem;
pub mod gpu;
pub mod hdl;
pub mod idu;
pub mod isa;
pub mod issue;
pub mod lds;
pub mod ldst;
pub mod memsys;
pub mod oracle;
pub mod pws;
pub mod reorder;
pub mod salu;
pub mod sched;
pub mod simd;
pub mod valu;
