//! The address decode of the register map: from a byte offset, the register it names. An
//! offset names a register only when it is 4-aligned and below 0x400; `word` is its dword
//! index (offset bits 9:2).

use super::read::{READ_ONLY, WORDS};
use crate::gpu::regs::addr;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The decode of a byte offset.
#[derive(LogicBlock)]
pub struct RegDecode {
    /// Byte offset.
    pub addr: Signal<In, Bits<32>>,
    /// Its dword index (bits 9:2).
    pub word: Signal<Out, Bits<8>>,
    /// A register is there (any access; `CTRL` refuses reads).
    pub mapped: Signal<Out, Bit>,
    /// The offset is in the launch registers' range `0x040..0x100` (aligned or not).
    pub lock: Signal<Out, Bit>,
    /// `CTRL`.
    pub ctrl: Signal<Out, Bit>,
    /// `CODE_ADDR`.
    pub code_addr: Signal<Out, Bit>,
    /// `CODE_DATA`.
    pub code_data: Signal<Out, Bit>,
    /// `MEM_ADDR_LO`.
    pub mem_lo: Signal<Out, Bit>,
    /// `MEM_ADDR_HI`.
    pub mem_hi: Signal<Out, Bit>,
    /// `MEM_DATA`.
    pub mem_data: Signal<Out, Bit>,
    /// `WF_SEL`.
    pub wf_sel: Signal<Out, Bit>,
    /// A launch register (`ENTRY_PC`..`PGM_RSRC2`, `IDU_CLUSTER`, `USER_DATA`).
    pub launch: Signal<Out, Bit>,
    /// Its index from `ENTRY_PC` in dwords: bits 5:4 the bank, bits 3:0 the word.
    pub lidx: Signal<Out, Bits<6>>,
    /// A counter half (either bank).
    pub counter: Signal<Out, Bit>,
    /// The counter: 0..=29 the first bank, 32..=41 the second (0 unless `counter`).
    pub cnt_idx: Signal<Out, Bits<6>>,
    /// A register software may only read (writes refused).
    pub ro: Signal<Out, Bit>,
    /// The offset is aligned and below 0x400.
    ok: Signal<Local, Bit>,
    /// The dword index.
    w: Signal<Local, Bits<8>>,
    /// The first counter bank.
    bank1: Signal<Local, Bit>,
    /// The second counter bank.
    bank2: Signal<Local, Bit>,
    /// A launch register word.
    lw: Signal<Local, Bit>,
    /// A read-only register other than a counter.
    rofix: Signal<Local, Bit>,
    /// The read-only registers' dword indices.
    k_ro: [Constant<Bits<8>>; READ_ONLY],
    /// `CTRL`'s dword index.
    k_ctrl: Constant<Bits<8>>,
    /// `CODE_ADDR`'s.
    k_code_addr: Constant<Bits<8>>,
    /// `CODE_DATA`'s.
    k_code_data: Constant<Bits<8>>,
    /// `MEM_ADDR_LO`'s.
    k_mem_lo: Constant<Bits<8>>,
    /// `MEM_ADDR_HI`'s.
    k_mem_hi: Constant<Bits<8>>,
    /// `MEM_DATA`'s.
    k_mem_data: Constant<Bits<8>>,
    /// `WF_SEL`'s.
    k_wf_sel: Constant<Bits<8>>,
    /// `ENTRY_PC`'s.
    k_launch: Constant<Bits<8>>,
    /// `ENTRY_PC`'s, six bits.
    k_launch6: Constant<Bits<6>>,
    /// Past `PGM_RSRC2`'s.
    k_launch_gap: Constant<Bits<8>>,
    /// `IDU_CLUSTER[0]`'s.
    k_idu: Constant<Bits<8>>,
    /// Past `USER_DATA[15]`'s.
    k_launch_end: Constant<Bits<8>>,
    /// `COUNTER[0]`'s.
    k_cnt: Constant<Bits<8>>,
    /// Past `COUNTER[29]`'s.
    k_cnt_end: Constant<Bits<8>>,
    /// `COUNTER2[0]`'s.
    k_cnt2: Constant<Bits<8>>,
    /// Past `COUNTER2[9]`'s.
    k_cnt2_end: Constant<Bits<8>>,
    /// 32: the second bank's first `cnt_idx`.
    k_bank2: Constant<Bits<6>>,
    /// 31.
    m5: Constant<Bits<6>>,
    /// 0.
    z2: Constant<Bits<2>>,
    /// 0.
    z6: Constant<Bits<6>>,
    /// 0.
    z22: Constant<Bits<22>>,
}

/// The dword index of byte offset `a` as a constant.
fn kw(a: u32) -> Constant<Bits<8>> {
    k(u64::from(a / 4))
}

impl Default for RegDecode {
    fn default() -> Self {
        Self {
            addr: Default::default(),
            word: Default::default(),
            mapped: Default::default(),
            lock: Default::default(),
            ctrl: Default::default(),
            code_addr: Default::default(),
            code_data: Default::default(),
            mem_lo: Default::default(),
            mem_hi: Default::default(),
            mem_data: Default::default(),
            wf_sel: Default::default(),
            launch: Default::default(),
            lidx: Default::default(),
            counter: Default::default(),
            cnt_idx: Default::default(),
            ro: Default::default(),
            ok: Default::default(),
            w: Default::default(),
            bank1: Default::default(),
            bank2: Default::default(),
            lw: Default::default(),
            rofix: Default::default(),
            k_ro: array_init::array_init(|j| kw(WORDS[j])),
            k_ctrl: kw(addr::CTRL),
            k_code_addr: kw(addr::CODE_ADDR),
            k_code_data: kw(addr::CODE_DATA),
            k_mem_lo: kw(addr::MEM_ADDR_LO),
            k_mem_hi: kw(addr::MEM_ADDR_HI),
            k_mem_data: kw(addr::MEM_DATA),
            k_wf_sel: kw(addr::WF_SEL),
            k_launch: kw(addr::ENTRY_PC),
            k_launch6: k(u64::from(addr::ENTRY_PC / 4)),
            k_launch_gap: kw(addr::PGM_RSRC2 + 4),
            k_idu: kw(addr::IDU_CLUSTER),
            k_launch_end: kw(addr::USER_DATA_END),
            k_cnt: kw(addr::COUNTERS),
            k_cnt_end: kw(addr::COUNTERS + 8 * crate::gpu::regs::N_COUNTERS),
            k_cnt2: kw(addr::COUNTERS2),
            k_cnt2_end: kw(addr::COUNTERS2 + 8 * crate::gpu::regs::N_COUNTERS2),
            k_bank2: k(u64::from(crate::gpu::regmap::BANK2)),
            m5: k(31),
            z2: k(0),
            z6: k(0),
            z22: k(0),
        }
    }
}

impl Logic for RegDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.ok.next = (self.addr.val().get_bits::<2>(0) == self.z2.val())
            & (self.addr.val().get_bits::<22>(10) == self.z22.val());
        self.w.next = self.addr.val().get_bits::<8>(2);
        self.word.next = self.w.val();
        self.lock.next = (self.addr.val().get_bits::<22>(10) == self.z22.val())
            & (self.w.val() >= self.k_launch.val())
            & (self.w.val() < self.k_launch_end.val());
        self.lw.next = self.ok.val()
            & (self.w.val() >= self.k_launch.val())
            & (self.w.val() < self.k_launch_end.val())
            & ((self.w.val() < self.k_launch_gap.val()) | (self.w.val() >= self.k_idu.val()));
        self.launch.next = self.lw.val();
        // (Launch words are 16..=63: their index less 16 fits the low six bits.)
        self.lidx.next = self.w.val().get_bits::<6>(0) - self.k_launch6.val();
        self.bank1.next = self.ok.val()
            & (self.w.val() >= self.k_cnt.val())
            & (self.w.val() < self.k_cnt_end.val());
        self.bank2.next = self.ok.val()
            & (self.w.val() >= self.k_cnt2.val())
            & (self.w.val() < self.k_cnt2_end.val());
        self.counter.next = self.bank1.val() | self.bank2.val();
        self.cnt_idx.next = self.z6.val();
        if self.bank1.val() {
            self.cnt_idx.next = self.w.val().get_bits::<6>(1) & self.m5.val();
        }
        if self.bank2.val() {
            self.cnt_idx.next =
                (self.w.val().get_bits::<6>(1) & self.m5.val()) | self.k_bank2.val();
        }
        self.rofix.next = false;
        for j in 0..12 {
            if self.w.val() == self.k_ro[j].val() {
                self.rofix.next = true;
            }
        }
        self.ro.next = self.ok.val() & self.rofix.val() | self.bank1.val() | self.bank2.val();
        self.ctrl.next = self.ok.val() & (self.w.val() == self.k_ctrl.val());
        self.code_addr.next = self.ok.val() & (self.w.val() == self.k_code_addr.val());
        self.code_data.next = self.ok.val() & (self.w.val() == self.k_code_data.val());
        self.mem_lo.next = self.ok.val() & (self.w.val() == self.k_mem_lo.val());
        self.mem_hi.next = self.ok.val() & (self.w.val() == self.k_mem_hi.val());
        self.mem_data.next = self.ok.val() & (self.w.val() == self.k_mem_data.val());
        self.wf_sel.next = self.ok.val() & (self.w.val() == self.k_wf_sel.val());
        self.mapped.next = (self.ok.val() & self.rofix.val())
            | self.bank1.val()
            | self.bank2.val()
            | self.lw.val()
            | (self.ok.val()
                & ((self.w.val() == self.k_ctrl.val())
                    | (self.w.val() == self.k_code_addr.val())
                    | (self.w.val() == self.k_code_data.val())
                    | (self.w.val() == self.k_mem_lo.val())
                    | (self.w.val() == self.k_mem_hi.val())
                    | (self.w.val() == self.k_mem_data.val())
                    | (self.w.val() == self.k_wf_sel.val())));
    }
}
