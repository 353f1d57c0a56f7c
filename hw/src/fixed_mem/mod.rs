//! The fixed-latency data memory, [`FixedMemory`]: the ideal memory behind the compute unit's
//! memory port (FLAT and SMEM instructions) while the compute unit's RTL has no memory
//! hierarchy. It answers every request a fixed number of cycles after it, as the behavioural
//! compute unit's memory port does (`hw/src/cu/memory.rs`: an access happens at issue, a load's
//! registers are written `Latencies::flat` or `Latencies::smem` cycles later;
//! docs/assumptions.md#A30). It is an environment of the compute unit, not a model of real
//! memory: it has a port per lane, so a 64-lane access is one cycle's work.
//!
//! # Words
//!
//! `2^A` dwords, every one 0 at power-on (initialised: the Verilog never reads X). Addresses
//! are dword indices; only their low `A` bits are used. `reset` keeps the words.
//!
//! # Requests and responses
//!
//! Two request ports, each taking at most one request per cycle, and a response port each:
//!
//! - **Vector** (`flat_load_dword`, `flat_store_dword`): a request in cycle *k* names a word
//!   per lane (`vaddr[l]`) for the lanes of `vmask`. A load reads those words as the memory
//!   holds them in cycle *k* (before the writes of the edge that ends *k*). A store writes
//!   `vdata[l]` to word `vaddr[l]` for every lane of `vmask` at the edge that ends *k*; lanes
//!   that name the same word leave the highest lane's value (the behavioural model writes the
//!   lanes in ascending order). Its response, in cycle *k* + `flat_lat` (loads and stores
//!   alike), carries the request's tag, kind and mask, and the loaded words in the mask's
//!   lanes (0 in the other lanes and for a store).
//! - **Scalar** (`s_load_dword`, `_x2`, `_x4`, `s_store_dword`): a load request in cycle *k*
//!   names the first word `saddr` and a count `sn` (1..=4); it reads words `saddr + i`
//!   (modulo `2^A`: consecutive words wrap) for `i < sn` as the memory holds them in cycle
//!   *k*. A store request (`sstore`) writes `sdata` to word `saddr` at the edge that ends *k*
//!   (one word whatever `sn`; after the driver's write and before a vector store's lanes, so
//!   a lane naming the same word stays). Its response, in cycle *k* + `smem_lat`, carries
//!   the tag, `sn`, `sresp_store`, and the words (word `i` in `sresp_data[i]`, 0 past `sn`
//!   and for a store; a count above 4 reads 4 words, 0 reads none).
//!
//! A vector and a scalar request may come in the same cycle, and so may their responses.
//! The latencies are taken at issue and clamped to 1..=[`MAX_LATENCY`] (0 counts as 1, above
//! 64 as 64); the caller holds them constant while requests are in flight. If it does not,
//! every request is still answered at its own issue cycle plus its own latency, except that
//! a request due in the same cycle as an earlier one of its port replaces it (the earlier one
//! gets no response; docs/assumptions.md#A123). With constant latencies every request is
//! answered exactly once: at most [`MAX_LATENCY`] are in flight per port.
//!
//! All response outputs are 0 in a cycle without a response.
//!
//! # The driver's port
//!
//! The port of rust-hdl's `RAM`, with its timing, so that the register map's `MEM_DATA`
//! window works on this block as it did on a `RAM`: `read_address` in cycle *k* gives
//! `read_data` in cycle *k* + 1, the word as the memory held it in cycle *k*;
//! `write_enable` writes `write_data` to `write_address` at the edge that ends the cycle. A
//! driver write and a vector store to the same word at one edge: the vector store's value
//! stays. The driver's port works in reset cycles too (as the `RAM` had no reset).
//!
//! # Reset
//!
//! `reset` (synchronous) drops the requests in flight: none of them is answered after the
//! edge. A request made in a reset cycle is ignored (a store in it writes nothing); the
//! response due in a reset cycle is still shown in that cycle (the outputs are registers).
//! The words are kept (docs/assumptions.md#A124).
//!
//! # Ports
//!
//! | port | dir | width | meaning |
//! |---|---|---|---|
//! | `clock` | in | 1 | core clock |
//! | `reset` | in | 1 | synchronous: requests in flight dropped, words kept |
//! | `flat_lat` | in | 16 | vector latency *L* (effective: clamp(*L*, 1, 64)) |
//! | `smem_lat` | in | 16 | scalar latency |
//! | `vreq` | in | 1 | a vector request this cycle |
//! | `vstore` | in | 1 | it is a store (else a load) |
//! | `vmask` | in | 64 | its lanes |
//! | `vaddr[64]` | in | 32 each | each lane's dword index (low `A` bits used) |
//! | `vdata[64]` | in | 32 each | each lane's store value |
//! | `vtag` | in | 32 | the request's tag, returned with the response |
//! | `vresp` | out | 1 | a vector response this cycle (issue + `flat_lat`) |
//! | `vresp_tag` | out | 32 | its request's tag |
//! | `vresp_store` | out | 1 | its request was a store |
//! | `vresp_mask` | out | 64 | its request's mask |
//! | `vresp_data[64]` | out | 32 each | the loaded words in the mask's lanes (0 elsewhere, 0 for a store) |
//! | `sreq` | in | 1 | a scalar request this cycle |
//! | `saddr` | in | 32 | its first dword index (low `A` bits used; wraps) |
//! | `sn` | in | 3 | dwords, 1..=4 |
//! | `stag` | in | 32 | its tag |
//! | `sstore` | in | 1 | it is a store: `sdata` to word `saddr` at the edge |
//! | `sdata` | in | 32 | the scalar store's value |
//! | `sresp` | out | 1 | a scalar response this cycle (issue + `smem_lat`) |
//! | `sresp_tag` | out | 32 | its request's tag |
//! | `sresp_n` | out | 3 | its request's `sn` |
//! | `sresp_store` | out | 1 | its request was a store |
//! | `sresp_data[4]` | out | 32 each | the words read, 0 past `sn` and for a store |
//! | `read_address` | in | `A` | driver read: the word |
//! | `read_data` | out | 32 | the word read in the cycle before |
//! | `write_address` | in | `A` | driver write: the word |
//! | `write_data` | in | 32 | its value |
//! | `write_enable` | in | 1 | write at this edge |
//!
//! # Depth
//!
//! `FixedMemory<A>` is the memory of this contract. `FixedMemory<A, D>` has response wheels
//! of `D` slots (a power of two, 2..=64): latencies are clamped to 1..=`D` instead of 1..=64,
//! and everything else is as above. The testbench's and synthesis' instance has `D` = 16
//! ([`TB_DEPTH`]; docs/assumptions.md#A125); the proptest runs both depths.
//!
//! # Structure
//!
//! The words are a small primitive with hand-written Verilog ([`rtl::words::Words`]: a
//! memory array with 64 + 4 + 1 read ports and 64 + 1 + 1 write ports, as rust-hdl's own `RAM`
//! is written). The responses wait in two timing wheels of [`MAX_LATENCY`] slots in plain
//! rust-hdl, indexed by the cycle modulo 64: a request of cycle *k* goes into slot
//! (*k* + *L*) mod 64 and the slot of the current cycle is the response
//! ([`rtl::column::Column`] per field, [`rtl::fixed_mem::FixedMemory`] around them).
//!
//! The reference model is [`model::FixedMemoryModel`], written from this contract; the
//! compute unit's tests can also use it alone to serve the RTL top's memory port.

pub mod model;
pub mod rtl;

pub use model::FixedMemoryModel;
pub use rtl::fixed_mem::FixedMemory;

/// Lanes of a vector request.
pub const LANES: usize = 64;

/// The largest latency (and the number of slots of each response wheel) of the contract's
/// memory, `FixedMemory<A>`.
pub const MAX_LATENCY: usize = 64;

/// The most dwords of a scalar request.
pub const SMEM_DWORDS: usize = 4;

/// The address width (dwords) of the testbench's and synthesis' instance: 16 dwords.
pub const TB_ADDR_BITS: usize = 4;

/// The wheel depth of the testbench's and synthesis' instance (latencies up to 16): Yosys
/// synthesizes the 64-slot wheels (131,072 bits of vector responses) in minutes
/// (docs/assumptions.md#A125).
pub const TB_DEPTH: usize = 16;

/// The effective latency of a latency input for wheels of `depth` slots: clamped to
/// 1..=`depth` ([`MAX_LATENCY`] in the contract's memory).
pub fn effective_latency(lat: u16, depth: usize) -> u64 {
    u64::from(lat).clamp(1, depth as u64)
}

/// Inputs of one cycle (the ports of the table above, `clock` aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedMemIn {
    /// Synchronous reset.
    pub reset: bool,
    /// Vector latency.
    pub flat_lat: u16,
    /// Scalar latency.
    pub smem_lat: u16,
    /// A vector request.
    pub vreq: bool,
    /// It is a store.
    pub vstore: bool,
    /// Its lanes.
    pub vmask: u64,
    /// Each lane's dword index.
    pub vaddr: [u32; LANES],
    /// Each lane's store value.
    pub vdata: [u32; LANES],
    /// Its tag.
    pub vtag: u32,
    /// A scalar request.
    pub sreq: bool,
    /// Its first dword index.
    pub saddr: u32,
    /// Its dword count.
    pub sn: u8,
    /// Its tag.
    pub stag: u32,
    /// It is a store.
    pub sstore: bool,
    /// The scalar store's value.
    pub sdata: u32,
    /// Driver read: the word.
    pub read_address: u32,
    /// Driver write: the word.
    pub write_address: u32,
    /// Driver write: the value.
    pub write_data: u32,
    /// Driver write at this edge.
    pub write_enable: bool,
}

impl Default for FixedMemIn {
    fn default() -> Self {
        Self {
            reset: false,
            flat_lat: 1,
            smem_lat: 1,
            vreq: false,
            vstore: false,
            vmask: 0,
            vaddr: [0; LANES],
            vdata: [0; LANES],
            vtag: 0,
            sreq: false,
            saddr: 0,
            sn: 0,
            stag: 0,
            sstore: false,
            sdata: 0,
            read_address: 0,
            write_address: 0,
            write_data: 0,
            write_enable: false,
        }
    }
}

/// Outputs of one cycle.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FixedMemOut {
    /// A vector response.
    pub vresp: bool,
    /// Its tag.
    pub vresp_tag: u32,
    /// It answers a store.
    pub vresp_store: bool,
    /// Its request's mask.
    pub vresp_mask: u64,
    /// The loaded words (0 outside the mask and for a store).
    pub vresp_data: [u32; LANES],
    /// A scalar response.
    pub sresp: bool,
    /// Its tag.
    pub sresp_tag: u32,
    /// Its request's count.
    pub sresp_n: u8,
    /// Its request was a store.
    pub sresp_store: bool,
    /// The words read (0 past the count, and for a store).
    pub sresp_data: [u32; SMEM_DWORDS],
    /// The driver's word read in the cycle before.
    pub read_data: u32,
}

impl Default for FixedMemOut {
    fn default() -> Self {
        Self {
            vresp: false,
            vresp_tag: 0,
            vresp_store: false,
            vresp_mask: 0,
            vresp_data: [0; LANES],
            sresp: false,
            sresp_tag: 0,
            sresp_n: 0,
            sresp_store: false,
            sresp_data: [0; SMEM_DWORDS],
            read_data: 0,
        }
    }
}

crate::ports!(FixedMemIn {
    reset,
    flat_lat,
    smem_lat,
    vreq,
    vstore,
    vmask,
    vaddr,
    vdata,
    vtag,
    sreq,
    saddr,
    sn,
    stag,
    sstore,
    sdata,
    read_address,
    write_address,
    write_data,
    write_enable
});
crate::ports!(FixedMemOut {
    vresp,
    vresp_tag,
    vresp_store,
    vresp_mask,
    vresp_data,
    sresp,
    sresp_tag,
    sresp_n,
    sresp_store,
    sresp_data,
    read_data
});
