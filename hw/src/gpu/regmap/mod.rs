//! The GPU's MMIO register map ([`super::regs`]) as a block: a synchronous register bus in
//! front of the launch registers, the code and data windows onto the instruction and data
//! memories' RAM ports, and the read paths of the compute unit's status, error and counter
//! outputs. The block diagram (docs/architecture.md) calls it the GPU register map; its
//! contract is the table of [`super::regs`] and the behaviour of [`super::Gpu::read`] and
//! [`super::Gpu::write`] for the registers it holds.
//!
//! It is the map of a GPU with one compute unit and no hardware queue: the registers of
//! several compute units and of the queue (`WG_FIRST`, `WG_COUNT`, `CU_MASK`, `N_CU` ..
//! `ERROR_CU`) are unmapped here and `CTRL`'s enqueue bit is ignored; they come with the
//! RTL GPU of several compute units.
//!
//! # Bus
//!
//! One access per cycle: `wr` (a write of `wdata`) or `rd` (a read) at byte offset `addr`,
//! sampled at the rising edge that ends the cycle (`rd` with `wr` is a write). The response
//! is on the outputs the cycle after, for every access: `ack` high, `err` high for the bus
//! error response with its kind on `err_code` (the order of [`super::regs::BusError`]:
//! 0 unmapped, 1 read-only, 2 busy, 3 out of range), `rdata` the value read (0 for a write
//! or an error). The refusals are the behavioural map's: an unknown or unaligned offset, a
//! write to a read-only register or a read of `CTRL`, a launch register (`0x040..0x100`,
//! any offset in that range) written while `status` is busy, a doorbell while busy (without
//! the reset bit), a `CODE_DATA`/`MEM_DATA` access outside its memory.
//!
//! # Windows
//!
//! `CODE_DATA` and `MEM_DATA` are windows onto two single-port RAMs with one cycle of read
//! latency (docs/assumptions.md#A85): in the access cycle the block drives the RAM port
//! (`*_req`, `*_we`, `*_addr`, `*_wdata`, combinationally from the bus), the RAM writes at
//! the edge or puts the word on `*_rdata` in the next cycle, where the block passes it on
//! as `rdata`. An access in range adds 4 to the window's address; one out of range leaves
//! it and drives no RAM request.
//!
//! # Compute-unit side
//!
//! `doorbell` and `stop` are the `CTRL` write's bits, combinational in the access cycle,
//! so the compute unit starts (or abandons) the launch at the same edge that ends the write
//! and a read in the next cycle sees its new `status`, as a [`super::Gpu::read`] after a
//! [`super::Gpu::write`] does. The launch registers are outputs, held while the launch runs
//! (they cannot be written then). Counters are muxed outside (docs/assumptions.md#A86): the
//! block names the counter a read addresses on `cnt_idx` (0..=29 the first bank, 32..=41 the
//! second) and takes its 64-bit value from `counter` in the same cycle; `wf_sel` selects the
//! wavefront whose `wf_start` and `wf_finish` the compute unit presents.
//!
//! # Inputs (sampled at the rising edge that ends the cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | power-on reset: launch registers to their defaults, windows and `WF_SEL` 0, no response |
//! | `rd` | 1 | a read at `addr` |
//! | `wr` | 1 | a write of `wdata` at `addr` |
//! | `addr` | 32 | byte offset |
//! | `wdata` | 32 | write data |
//! | `status` | 2 | the compute unit's `STATUS` (0 idle, 1 busy, 2 done, 3 error) |
//! | `error`, `error_pc`, `error_info` | 32 each | the compute unit's fault (read as 0 unless `status` = 3) |
//! | `code_bytes` | 32 | instruction memory bytes (`CODE_SIZE`) |
//! | `mem_bytes` | 64 | data memory bytes (`MEM_SIZE`) |
//! | `code_rdata`, `mem_rdata` | 32 each | the RAMs' read words, a cycle after the request |
//! | `counter` | 64 | the value of counter `cnt_idx` |
//! | `wf_count`, `wf_start`, `wf_finish` | 32 each | wavefronts in the launch; the selected one's start and finish cycles |
//!
//! # Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `ack` | 1 | the response to the previous cycle's access |
//! | `err` | 1 | it is the bus error response |
//! | `err_code` | 2 | the error's kind |
//! | `rdata` | 32 | the word read |
//! | `doorbell` | 1 | start the launch (this cycle's `CTRL` write, not refused) |
//! | `stop` | 1 | abandon the launch, status idle, counters 0 (`CTRL` bit 1) |
//! | `code_req`, `code_we`, `code_addr`, `code_wdata` | 1, 1, 32, 32 | the instruction RAM's port (byte address) |
//! | `mem_req`, `mem_we`, `mem_addr_lo`/`_hi`, `mem_wdata` | 1, 1, 32 + 32, 32 | the data RAM's port (byte address in two halves) |
//! | `cnt_idx` | 6 | the counter a read at `addr` addresses |
//! | `wf_sel` | 32 | `WF_SEL` |
//! | `entry_pc`, `grid`, `wg`, `lds`, `mode`, `sched`, `features`, `rsrc2` | 32 each | the launch registers |
//! | `kernarg_lo`/`_hi`, `trace_lo`/`_hi` | 32 each | the two-half launch registers |
//! | `abi` | 1 | `ABI` bit 0 |
//! | `user[16]` | 32 each | `USER_DATA[i]` |
//! | `idu_ctl[8]`, `idu_ps[8]` | 32 each | `IDU_CLUSTER[k]` +0 (limit, working; bits 31:9 0) and +4 (period) |
//!
//! The 64-bit registers are kept and output as 32-bit halves: the block never widens a
//! signal (Verilator's width lint), and the bus writes them by halves anyway.
//!
//! The reference model is [`model::RegMapModel`], written from the table of [`super::regs`].

pub mod model;
pub mod rtl;
pub mod traffic;

pub use rtl::regmap::RegMap;

/// `err_code` of an unknown or unaligned offset ([`super::regs::BusError::Unmapped`]).
pub const ERR_UNMAPPED: u8 = 0;
/// `err_code` of a write to a read-only register or a read of `CTRL`.
pub const ERR_READ_ONLY: u8 = 1;
/// `err_code` of a launch register written, or a doorbell, while busy.
pub const ERR_BUSY: u8 = 2;
/// `err_code` of a window access outside its memory.
pub const ERR_RANGE: u8 = 3;

/// The bus error of an `err_code`.
pub fn bus_error(code: u8) -> super::regs::BusError {
    use super::regs::BusError;
    [
        BusError::Unmapped,
        BusError::ReadOnly,
        BusError::Busy,
        BusError::OutOfRange,
    ][usize::from(code & 3)]
}

/// The first counter index of the second bank on `cnt_idx`.
pub const BANK2: u8 = 32;

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegMapIn {
    /// Power-on reset.
    pub reset: bool,
    /// A read.
    pub rd: bool,
    /// A write.
    pub wr: bool,
    /// Byte offset.
    pub addr: u32,
    /// Write data.
    pub wdata: u32,
    /// The compute unit's status code.
    pub status: u8,
    /// Its error code.
    pub error: u32,
    /// Its error PC.
    pub error_pc: u32,
    /// Its error information.
    pub error_info: u32,
    /// Instruction memory bytes.
    pub code_bytes: u32,
    /// Data memory bytes.
    pub mem_bytes: u64,
    /// The instruction RAM's read word.
    pub code_rdata: u32,
    /// The data RAM's read word.
    pub mem_rdata: u32,
    /// Counter `cnt_idx`.
    pub counter: u64,
    /// Wavefronts in the launch.
    pub wf_count: u32,
    /// The selected wavefront's start cycle.
    pub wf_start: u32,
    /// Its finish cycle.
    pub wf_finish: u32,
}

/// The launch registers, as the block outputs them.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchOut {
    /// `ENTRY_PC`.
    pub entry_pc: u32,
    /// `KERNARG`.
    pub kernarg: u64,
    /// `GRID`.
    pub grid: u32,
    /// `WG`.
    pub wg: u32,
    /// `LDS`.
    pub lds: u32,
    /// `MODE`.
    pub mode: u32,
    /// `SCHED`.
    pub sched: u32,
    /// `FEATURES`.
    pub features: u32,
    /// `TRACE_ADDR`.
    pub trace_addr: u64,
    /// `ABI` bit 0.
    pub abi: bool,
    /// `PGM_RSRC2`.
    pub rsrc2: u32,
    /// `USER_DATA[i]`.
    pub user: [u32; 16],
    /// `IDU_CLUSTER[k]` +0 (9 bits).
    pub idu_ctl: [u16; 8],
    /// `IDU_CLUSTER[k]` +4.
    pub idu_ps: [u32; 8],
}

impl Default for LaunchOut {
    /// The registers after reset: the behavioural GPU's (64 work-items, one work-group of
    /// 64, PWS with S = 1, GTO).
    fn default() -> Self {
        Self {
            entry_pc: 0,
            kernarg: 0,
            grid: 64,
            wg: 64,
            lds: 0,
            mode: crate::cu::Mode::Pws.code() | 1 << 4,
            sched: 1,
            features: 0,
            trace_addr: 0,
            abi: false,
            rsrc2: 0,
            user: [0; 16],
            idu_ctl: [0; 8],
            idu_ps: [0; 8],
        }
    }
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct RegMapOut {
    /// A response.
    pub ack: bool,
    /// The bus error response.
    pub err: bool,
    /// Its kind.
    pub err_code: u8,
    /// The word read.
    pub rdata: u32,
    /// Start the launch.
    pub doorbell: bool,
    /// Abandon the launch.
    pub stop: bool,
    /// Instruction RAM request.
    pub code_req: bool,
    /// It writes.
    pub code_we: bool,
    /// Its byte address.
    pub code_addr: u32,
    /// Its write word.
    pub code_wdata: u32,
    /// Data RAM request.
    pub mem_req: bool,
    /// It writes.
    pub mem_we: bool,
    /// Its byte address.
    pub mem_addr: u64,
    /// Its write word.
    pub mem_wdata: u32,
    /// The counter addressed.
    pub cnt_idx: u8,
    /// `WF_SEL`.
    pub wf_sel: u32,
    /// The launch registers.
    pub launch: LaunchOut,
}
