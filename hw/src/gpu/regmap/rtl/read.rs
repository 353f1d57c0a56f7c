//! The read multiplexer of the register map: the value of the register at a dword index,
//! from the constants, the block's own registers and the compute unit's inputs. Only the
//! value of a read the decode accepts is used; other indices give 0.

use crate::gpu::regs::{self, addr, status};
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The read value of a register.
#[derive(LogicBlock)]
pub struct RegRead {
    /// Dword index (offset bits 9:2; bit 0 selects a counter's half).
    pub word: Signal<In, Bits<8>>,
    /// The decode names a launch register.
    pub launch: Signal<In, Bit>,
    /// Its value (the bank's read word).
    pub launch_value: Signal<In, Bits<32>>,
    /// The decode names a counter half.
    pub counter: Signal<In, Bit>,
    /// The counter's value.
    pub counter_value: Signal<In, Bits<64>>,
    /// `STATUS`.
    pub status: Signal<In, Bits<2>>,
    /// The compute unit's error code.
    pub error: Signal<In, Bits<32>>,
    /// Its error PC.
    pub error_pc: Signal<In, Bits<32>>,
    /// Its error information.
    pub error_info: Signal<In, Bits<32>>,
    /// `CODE_ADDR`.
    pub code_addr: Signal<In, Bits<32>>,
    /// `MEM_ADDR`, low half.
    pub mem_lo: Signal<In, Bits<32>>,
    /// High half.
    pub mem_hi: Signal<In, Bits<32>>,
    /// `CODE_SIZE`.
    pub code_bytes: Signal<In, Bits<32>>,
    /// `MEM_SIZE`.
    pub mem_bytes: Signal<In, Bits<64>>,
    /// `WF_COUNT`.
    pub wf_count: Signal<In, Bits<32>>,
    /// `WF_SEL`.
    pub wf_sel: Signal<In, Bits<32>>,
    /// `WF_START`.
    pub wf_start: Signal<In, Bits<32>>,
    /// `WF_FINISH`.
    pub wf_finish: Signal<In, Bits<32>>,
    /// The value.
    pub value: Signal<Out, Bits<32>>,
    /// The value being selected.
    v: Signal<Local, Bits<32>>,
    /// The error registers read as themselves (`STATUS` = error).
    faulted: Signal<Local, Bit>,
    /// Dword indices: `ID`, `VERSION`, `STATUS`, `ERROR`, `ERROR_PC`, `ERROR_INFO`,
    /// `CODE_ADDR`, `MEM_ADDR_LO`, `MEM_ADDR_HI`, `CODE_SIZE`, `MEM_SIZE_LO`, `MEM_SIZE_HI`,
    /// `WF_COUNT`, `WF_SEL`, `WF_START`, `WF_FINISH`.
    kw: [Constant<Bits<8>>; 16],
    /// `ID`'s value.
    k_id: Constant<Bits<32>>,
    /// `VERSION`'s value.
    k_version: Constant<Bits<32>>,
    /// The status codes.
    k_st: [Constant<Bits<2>>; 4],
    /// The status codes, 32 bits.
    k_st32: [Constant<Bits<32>>; 4],
    /// `STATUS` = error.
    k_error: Constant<Bits<2>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

/// The byte offsets of the words the multiplexer reads, in order: first the [`READ_ONLY`] registers
/// (besides the counters, the ones software may only read; the decode refuses writes to
/// them), then the writable ones this multiplexer reads back.
pub const WORDS: [u32; 16] = [
    addr::ID,
    addr::VERSION,
    addr::STATUS,
    addr::ERROR,
    addr::ERROR_PC,
    addr::ERROR_INFO,
    addr::CODE_SIZE,
    addr::MEM_SIZE_LO,
    addr::MEM_SIZE_HI,
    addr::WF_COUNT,
    addr::WF_START,
    addr::WF_FINISH,
    addr::CODE_ADDR,
    addr::MEM_ADDR_LO,
    addr::MEM_ADDR_HI,
    addr::WF_SEL,
];

/// How many of [`WORDS`] (the first) are read-only.
pub const READ_ONLY: usize = 12;

impl Default for RegRead {
    fn default() -> Self {
        Self {
            word: Default::default(),
            launch: Default::default(),
            launch_value: Default::default(),
            counter: Default::default(),
            counter_value: Default::default(),
            status: Default::default(),
            error: Default::default(),
            error_pc: Default::default(),
            error_info: Default::default(),
            code_addr: Default::default(),
            mem_lo: Default::default(),
            mem_hi: Default::default(),
            code_bytes: Default::default(),
            mem_bytes: Default::default(),
            wf_count: Default::default(),
            wf_sel: Default::default(),
            wf_start: Default::default(),
            wf_finish: Default::default(),
            value: Default::default(),
            v: Default::default(),
            faulted: Default::default(),
            kw: WORDS.map(|a| k(u64::from(a / 4))),
            k_id: k(u64::from(regs::ID_VALUE)),
            k_version: k(u64::from(regs::VERSION)),
            k_st: array_init::array_init(|j| k(j as u64)),
            k_st32: array_init::array_init(|j| k(j as u64)),
            k_error: k(u64::from(status::ERROR)),
            z32: k(0),
        }
    }
}

impl Logic for RegRead {
    #[hdl_gen]
    fn update(&mut self) {
        self.faulted.next = self.status.val() == self.k_error.val();
        self.v.next = self.z32.val();
        if self.word.val() == self.kw[0].val() {
            self.v.next = self.k_id.val();
        }
        if self.word.val() == self.kw[1].val() {
            self.v.next = self.k_version.val();
        }
        for j in 0..4 {
            if (self.word.val() == self.kw[2].val()) & (self.status.val() == self.k_st[j].val()) {
                self.v.next = self.k_st32[j].val();
            }
        }
        if self.faulted.val() & (self.word.val() == self.kw[3].val()) {
            self.v.next = self.error.val();
        }
        if self.faulted.val() & (self.word.val() == self.kw[4].val()) {
            self.v.next = self.error_pc.val();
        }
        if self.faulted.val() & (self.word.val() == self.kw[5].val()) {
            self.v.next = self.error_info.val();
        }
        if self.word.val() == self.kw[12].val() {
            self.v.next = self.code_addr.val();
        }
        if self.word.val() == self.kw[13].val() {
            self.v.next = self.mem_lo.val();
        }
        if self.word.val() == self.kw[14].val() {
            self.v.next = self.mem_hi.val();
        }
        if self.word.val() == self.kw[6].val() {
            self.v.next = self.code_bytes.val();
        }
        if self.word.val() == self.kw[7].val() {
            self.v.next = self.mem_bytes.val().get_bits::<32>(0);
        }
        if self.word.val() == self.kw[8].val() {
            self.v.next = self.mem_bytes.val().get_bits::<32>(32);
        }
        if self.word.val() == self.kw[9].val() {
            self.v.next = self.wf_count.val();
        }
        if self.word.val() == self.kw[15].val() {
            self.v.next = self.wf_sel.val();
        }
        if self.word.val() == self.kw[10].val() {
            self.v.next = self.wf_start.val();
        }
        if self.word.val() == self.kw[11].val() {
            self.v.next = self.wf_finish.val();
        }
        if self.launch.val() {
            self.v.next = self.launch_value.val();
        }
        if self.counter.val() {
            self.v.next = self.counter_value.val().get_bits::<32>(0);
            if self.word.val().get_bit(0) {
                self.v.next = self.counter_value.val().get_bits::<32>(32);
            }
        }
        self.value.next = self.v.val();
    }
}
