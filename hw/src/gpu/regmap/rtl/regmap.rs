//! The register map's top: the bus access and its refusals, the window addresses and the RAM
//! ports, the response registers, `WF_SEL`, and the wiring of the decode, the read
//! multiplexer and the launch register banks.

use super::bank::RegBank;
use super::decode::RegDecode;
use super::read::RegRead;
use crate::gpu::regmap::model::launch_mask;
use crate::gpu::regmap::{LaunchOut, ERR_BUSY, ERR_RANGE, ERR_READ_ONLY, ERR_UNMAPPED};
use crate::gpu::regs::status;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The register map; the contract (bus, windows, ports) is [`crate::gpu::regmap`].
#[derive(LogicBlock)]
pub struct RegMap {
    /// Core clock; every register loads on its rising edge.
    pub clock: Signal<In, Clock>,
    /// Power-on reset: launch registers to their defaults, windows and `WF_SEL` 0.
    pub reset: Signal<In, Bit>,
    /// A read at `addr`.
    pub rd: Signal<In, Bit>,
    /// A write of `wdata` at `addr` (with `rd`: a write).
    pub wr: Signal<In, Bit>,
    /// Byte offset of the access.
    pub addr: Signal<In, Bits<32>>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// The compute unit's `STATUS` (0 idle, 1 busy, 2 done, 3 error).
    pub status: Signal<In, Bits<2>>,
    /// The compute unit's error code (read when `status` = 3).
    pub error: Signal<In, Bits<32>>,
    /// The faulting PC.
    pub error_pc: Signal<In, Bits<32>>,
    /// The fault's information word.
    pub error_info: Signal<In, Bits<32>>,
    /// Instruction memory bytes.
    pub code_bytes: Signal<In, Bits<32>>,
    /// Data memory bytes.
    pub mem_bytes: Signal<In, Bits<64>>,
    /// The instruction RAM's read word (the cycle after a read request).
    pub code_rdata: Signal<In, Bits<32>>,
    /// The data RAM's read word (the cycle after a read request).
    pub mem_rdata: Signal<In, Bits<32>>,
    /// The value of counter `cnt_idx`.
    pub counter: Signal<In, Bits<64>>,
    /// Wavefronts in the launch.
    pub wf_count: Signal<In, Bits<32>>,
    /// Start cycle of wavefront `wf_sel`.
    pub wf_start: Signal<In, Bits<32>>,
    /// Finish cycle of wavefront `wf_sel`.
    pub wf_finish: Signal<In, Bits<32>>,
    /// The response to the previous cycle's access.
    pub ack: Signal<Out, Bit>,
    /// The response is the bus error.
    pub err: Signal<Out, Bit>,
    /// The error's kind (0 unmapped, 1 read-only, 2 busy, 3 out of range).
    pub err_code: Signal<Out, Bits<2>>,
    /// The word read (0 for a write or an error).
    pub rdata: Signal<Out, Bits<32>>,
    /// Start the launch in the launch registers (a `CTRL` write with bit 0, not refused).
    pub doorbell: Signal<Out, Bit>,
    /// Abandon the launch (a `CTRL` write with bit 1).
    pub stop: Signal<Out, Bit>,
    /// The instruction RAM is accessed this cycle.
    pub code_req: Signal<Out, Bit>,
    /// The access writes.
    pub code_we: Signal<Out, Bit>,
    /// Its byte address (`CODE_ADDR`).
    pub code_addr: Signal<Out, Bits<32>>,
    /// The word written.
    pub code_wdata: Signal<Out, Bits<32>>,
    /// The data RAM is accessed this cycle.
    pub mem_req: Signal<Out, Bit>,
    /// The access writes.
    pub mem_we: Signal<Out, Bit>,
    /// Its byte address (`MEM_ADDR`), low half.
    pub mem_addr_lo: Signal<Out, Bits<32>>,
    /// High half.
    pub mem_addr_hi: Signal<Out, Bits<32>>,
    /// The word written.
    pub mem_wdata: Signal<Out, Bits<32>>,
    /// The counter the access addresses.
    pub cnt_idx: Signal<Out, Bits<6>>,
    /// `WF_SEL`.
    pub wf_sel: Signal<Out, Bits<32>>,
    /// `ENTRY_PC`.
    pub entry_pc: Signal<Out, Bits<32>>,
    /// `KERNARG`, low half.
    pub kernarg_lo: Signal<Out, Bits<32>>,
    /// High half.
    pub kernarg_hi: Signal<Out, Bits<32>>,
    /// `GRID`.
    pub grid: Signal<Out, Bits<32>>,
    /// `WG`.
    pub wg: Signal<Out, Bits<32>>,
    /// `LDS`.
    pub lds: Signal<Out, Bits<32>>,
    /// `MODE`.
    pub mode: Signal<Out, Bits<32>>,
    /// `SCHED`.
    pub sched: Signal<Out, Bits<32>>,
    /// `FEATURES`.
    pub features: Signal<Out, Bits<32>>,
    /// `TRACE_ADDR`, low half.
    pub trace_lo: Signal<Out, Bits<32>>,
    /// High half.
    pub trace_hi: Signal<Out, Bits<32>>,
    /// `ABI` bit 0.
    pub abi: Signal<Out, Bit>,
    /// `PGM_RSRC2`.
    pub rsrc2: Signal<Out, Bits<32>>,
    /// `USER_DATA[i]`.
    pub user: [Signal<Out, Bits<32>>; 16],
    /// `IDU_CLUSTER[k]` +0: limit (bits 7:0), working (bit 8); bits 31:9 are 0.
    pub idu_ctl: [Signal<Out, Bits<32>>; 8],
    /// `IDU_CLUSTER[k]` +4: clock period, ps.
    pub idu_ps: [Signal<Out, Bits<32>>; 8],
    /// Address decode.
    dec: RegDecode,
    /// Read multiplexer.
    rmux: RegRead,
    /// `ENTRY_PC`..`PGM_RSRC2`.
    b_main: RegBank<MAIN>,
    /// `IDU_CLUSTER`.
    b_idu: RegBank<16>,
    /// `USER_DATA`.
    b_user: RegBank<16>,
    /// A read (not a write) this cycle.
    rd_only: Signal<Local, Bit>,
    /// An access this cycle.
    acc: Signal<Local, Bit>,
    /// The compute unit is busy.
    busy: Signal<Local, Bit>,
    /// `CODE_ADDR` is inside the instruction memory.
    code_in: Signal<Local, Bit>,
    /// `MEM_ADDR` is aligned and inside the data memory.
    mem_in: Signal<Local, Bit>,
    /// The access is refused.
    refuse: Signal<Local, Bit>,
    /// Why.
    ecode: Signal<Local, Bits<2>>,
    /// The access is taken.
    ok: Signal<Local, Bit>,
    /// A launch register write is taken.
    lwe: Signal<Local, Bit>,
    /// The window access is taken (either window).
    step_code: Signal<Local, Bit>,
    /// The data window access is taken.
    step_mem: Signal<Local, Bit>,
    /// The read word.
    rv: Signal<Local, Bits<32>>,
    /// `CODE_ADDR`.
    r_code_addr: DFF<Bits<32>>,
    /// `MEM_ADDR`, low half.
    r_mem_lo: DFF<Bits<32>>,
    /// High half.
    r_mem_hi: DFF<Bits<32>>,
    /// `MEM_ADDR` / 4 is below `mem_bytes` / 4, by halves: the high halves.
    hi_below: Signal<Local, Bit>,
    /// The high halves are equal.
    hi_same: Signal<Local, Bit>,
    /// `WF_SEL`.
    r_wf_sel: DFF<Bits<32>>,
    /// Response: `ack`.
    r_ack: DFF<Bit>,
    /// Response: `err`.
    r_err: DFF<Bit>,
    /// Response: `err_code`.
    r_ecode: DFF<Bits<2>>,
    /// Response: the register's value.
    r_data: DFF<Bits<32>>,
    /// Response: the instruction RAM's word.
    r_code_rd: DFF<Bit>,
    /// Response: the data RAM's word.
    r_mem_rd: DFF<Bit>,
    /// `STATUS` = busy.
    k_busy: Constant<Bits<2>>,
    /// Error kinds.
    k_unmapped: Constant<Bits<2>>,
    /// Read-only.
    k_ro: Constant<Bits<2>>,
    /// Busy.
    k_ebusy: Constant<Bits<2>>,
    /// Out of range.
    k_range: Constant<Bits<2>>,
    /// Bank selects (`lidx` bits 5:4).
    k_bank: [Constant<Bits<2>>; 3],
    /// 4.
    four32: Constant<Bits<32>>,
    /// 1.
    one32: Constant<Bits<32>>,
    /// 2^32 - 4: the low half's last step without a carry.
    k_wrap: Constant<Bits<32>>,
    /// 0.
    z2: Constant<Bits<2>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

/// Registers of the main bank: `ENTRY_PC` to `PGM_RSRC2`.
const MAIN: usize = 13;

/// Bank `b`'s registers (words `16·b ..` from `ENTRY_PC`) with their reset values and masks.
fn bank<const N: usize>(b: u32) -> RegBank<N> {
    let d = LaunchOut::default();
    let mut init = [0; N];
    if b == 0 {
        (init[3], init[4], init[6], init[7]) = (d.grid, d.wg, d.mode, d.sched);
    }
    RegBank::new(
        init,
        std::array::from_fn(|w| launch_mask(16 * b + w as u32)),
    )
}

impl Default for RegMap {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rd: Default::default(),
            wr: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            status: Default::default(),
            error: Default::default(),
            error_pc: Default::default(),
            error_info: Default::default(),
            code_bytes: Default::default(),
            mem_bytes: Default::default(),
            code_rdata: Default::default(),
            mem_rdata: Default::default(),
            counter: Default::default(),
            wf_count: Default::default(),
            wf_start: Default::default(),
            wf_finish: Default::default(),
            ack: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            rdata: Default::default(),
            doorbell: Default::default(),
            stop: Default::default(),
            code_req: Default::default(),
            code_we: Default::default(),
            code_addr: Default::default(),
            code_wdata: Default::default(),
            mem_req: Default::default(),
            mem_we: Default::default(),
            mem_addr_lo: Default::default(),
            mem_addr_hi: Default::default(),
            mem_wdata: Default::default(),
            cnt_idx: Default::default(),
            wf_sel: Default::default(),
            entry_pc: Default::default(),
            kernarg_lo: Default::default(),
            kernarg_hi: Default::default(),
            grid: Default::default(),
            wg: Default::default(),
            lds: Default::default(),
            mode: Default::default(),
            sched: Default::default(),
            features: Default::default(),
            trace_lo: Default::default(),
            trace_hi: Default::default(),
            abi: Default::default(),
            rsrc2: Default::default(),
            user: Default::default(),
            idu_ctl: Default::default(),
            idu_ps: Default::default(),
            dec: Default::default(),
            rmux: Default::default(),
            b_main: bank(0),
            b_idu: bank(1),
            b_user: bank(2),
            rd_only: Default::default(),
            acc: Default::default(),
            busy: Default::default(),
            code_in: Default::default(),
            mem_in: Default::default(),
            refuse: Default::default(),
            ecode: Default::default(),
            ok: Default::default(),
            lwe: Default::default(),
            step_code: Default::default(),
            step_mem: Default::default(),
            rv: Default::default(),
            r_code_addr: Default::default(),
            r_mem_lo: Default::default(),
            r_mem_hi: Default::default(),
            hi_below: Default::default(),
            hi_same: Default::default(),
            r_wf_sel: Default::default(),
            r_ack: Default::default(),
            r_err: Default::default(),
            r_ecode: Default::default(),
            r_data: Default::default(),
            r_code_rd: Default::default(),
            r_mem_rd: Default::default(),
            k_busy: k(u64::from(status::BUSY)),
            k_unmapped: k(u64::from(ERR_UNMAPPED)),
            k_ro: k(u64::from(ERR_READ_ONLY)),
            k_ebusy: k(u64::from(ERR_BUSY)),
            k_range: k(u64::from(ERR_RANGE)),
            k_bank: array_init::array_init(|b| k(b as u64)),
            four32: k(4),
            one32: k(1),
            k_wrap: k(0xFFFF_FFFC),
            z2: k(0),
            z32: k(0),
        }
    }
}

impl Logic for RegMap {
    #[hdl_gen]
    fn update(&mut self) {
        // Clocks and the decode.
        dff_setup!(
            self,
            clock,
            r_code_addr,
            r_mem_lo,
            r_mem_hi,
            r_wf_sel,
            r_ack,
            r_err,
            r_ecode,
            r_data,
            r_code_rd,
            r_mem_rd
        );
        self.b_main.clock.next = self.clock.val();
        self.b_idu.clock.next = self.clock.val();
        self.b_user.clock.next = self.clock.val();
        self.dec.addr.next = self.addr.val();
        // The access and why it is refused (the busy lock above every other reason).
        self.acc.next = self.rd.val() | self.wr.val();
        self.rd_only.next = self.rd.val() & !self.wr.val();
        self.busy.next = self.status.val() == self.k_busy.val();
        self.code_in.next = (self.r_code_addr.q.val() >> 2) < (self.code_bytes.val() >> 2);
        self.hi_below.next = self.r_mem_hi.q.val() < self.mem_bytes.val().get_bits::<32>(32);
        self.hi_same.next = self.r_mem_hi.q.val() == self.mem_bytes.val().get_bits::<32>(32);
        self.mem_in.next = (self.r_mem_lo.q.val().get_bits::<2>(0) == self.z2.val())
            & (self.hi_below.val()
                | (self.hi_same.val()
                    & ((self.r_mem_lo.q.val() >> 2)
                        < (self.mem_bytes.val().get_bits::<32>(0) >> 2))));
        self.refuse.next = false;
        self.ecode.next = self.z2.val();
        if !self.dec.mapped.val() {
            self.refuse.next = true;
            self.ecode.next = self.k_unmapped.val();
        }
        if (self.dec.ctrl.val() & self.rd_only.val()) | (self.dec.ro.val() & self.wr.val()) {
            self.refuse.next = true;
            self.ecode.next = self.k_ro.val();
        }
        if (self.dec.code_data.val() & !self.code_in.val())
            | (self.dec.mem_data.val() & !self.mem_in.val())
        {
            self.refuse.next = true;
            self.ecode.next = self.k_range.val();
        }
        if self.wr.val()
            & self.busy.val()
            & (self.dec.lock.val()
                | (self.dec.ctrl.val()
                    & self.wdata.val().get_bit(0)
                    & !self.wdata.val().get_bit(1)))
        {
            self.refuse.next = true;
            self.ecode.next = self.k_ebusy.val();
        }
        self.ok.next = self.acc.val() & !self.refuse.val();
        // The compute unit's commands and the RAM ports.
        self.doorbell.next =
            self.ok.val() & self.wr.val() & self.dec.ctrl.val() & self.wdata.val().get_bit(0);
        self.stop.next = self.wr.val() & self.dec.ctrl.val() & self.wdata.val().get_bit(1);
        self.step_code.next = self.ok.val() & self.dec.code_data.val();
        self.step_mem.next = self.ok.val() & self.dec.mem_data.val();
        self.code_req.next = self.step_code.val();
        self.code_we.next = self.wr.val();
        self.code_addr.next = self.r_code_addr.q.val();
        self.code_wdata.next = self.wdata.val();
        self.mem_req.next = self.step_mem.val();
        self.mem_we.next = self.wr.val();
        self.mem_addr_lo.next = self.r_mem_lo.q.val();
        self.mem_addr_hi.next = self.r_mem_hi.q.val();
        self.mem_wdata.next = self.wdata.val();
        self.cnt_idx.next = self.dec.cnt_idx.val();
        // The window addresses and WF_SEL.
        if self.step_code.val() {
            self.r_code_addr.d.next = self.r_code_addr.q.val() + self.four32.val();
        }
        if self.ok.val() & self.wr.val() & self.dec.code_addr.val() {
            self.r_code_addr.d.next = self.wdata.val();
        }
        if self.step_mem.val() {
            self.r_mem_lo.d.next = self.r_mem_lo.q.val() + self.four32.val();
            // (The carry into the high half: the low half wraps past 2^32 - 4.)
            if self.r_mem_lo.q.val() >= self.k_wrap.val() {
                self.r_mem_hi.d.next = self.r_mem_hi.q.val() + self.one32.val();
            }
        }
        if self.ok.val() & self.wr.val() & self.dec.mem_lo.val() {
            self.r_mem_lo.d.next = self.wdata.val();
        }
        if self.ok.val() & self.wr.val() & self.dec.mem_hi.val() {
            self.r_mem_hi.d.next = self.wdata.val();
        }
        if self.ok.val() & self.wr.val() & self.dec.wf_sel.val() {
            self.r_wf_sel.d.next = self.wdata.val();
        }
        // The launch register banks.
        self.lwe.next = self.ok.val() & self.wr.val() & self.dec.launch.val();
        self.b_main.reset.next = self.reset.val();
        self.b_main.idx.next = self.dec.lidx.val().get_bits::<4>(0);
        self.b_main.wdata.next = self.wdata.val();
        self.b_main.we.next =
            self.lwe.val() & (self.dec.lidx.val().get_bits::<2>(4) == self.k_bank[0].val());
        self.b_idu.reset.next = self.reset.val();
        self.b_idu.idx.next = self.dec.lidx.val().get_bits::<4>(0);
        self.b_idu.wdata.next = self.wdata.val();
        self.b_idu.we.next =
            self.lwe.val() & (self.dec.lidx.val().get_bits::<2>(4) == self.k_bank[1].val());
        self.b_user.reset.next = self.reset.val();
        self.b_user.idx.next = self.dec.lidx.val().get_bits::<4>(0);
        self.b_user.wdata.next = self.wdata.val();
        self.b_user.we.next =
            self.lwe.val() & (self.dec.lidx.val().get_bits::<2>(4) == self.k_bank[2].val());
        // The read value.
        self.rv.next = self.b_main.rd.val();
        if self.dec.lidx.val().get_bits::<2>(4) == self.k_bank[1].val() {
            self.rv.next = self.b_idu.rd.val();
        }
        if self.dec.lidx.val().get_bits::<2>(4) == self.k_bank[2].val() {
            self.rv.next = self.b_user.rd.val();
        }
        self.rmux.word.next = self.dec.word.val();
        self.rmux.launch.next = self.dec.launch.val();
        self.rmux.launch_value.next = self.rv.val();
        self.rmux.counter.next = self.dec.counter.val();
        self.rmux.counter_value.next = self.counter.val();
        self.rmux.status.next = self.status.val();
        self.rmux.error.next = self.error.val();
        self.rmux.error_pc.next = self.error_pc.val();
        self.rmux.error_info.next = self.error_info.val();
        self.rmux.code_addr.next = self.r_code_addr.q.val();
        self.rmux.mem_lo.next = self.r_mem_lo.q.val();
        self.rmux.mem_hi.next = self.r_mem_hi.q.val();
        self.rmux.code_bytes.next = self.code_bytes.val();
        self.rmux.mem_bytes.next = self.mem_bytes.val();
        self.rmux.wf_count.next = self.wf_count.val();
        self.rmux.wf_sel.next = self.r_wf_sel.q.val();
        self.rmux.wf_start.next = self.wf_start.val();
        self.rmux.wf_finish.next = self.wf_finish.val();
        // The response, a cycle later.
        self.r_ack.d.next = self.acc.val();
        self.r_err.d.next = self.acc.val() & self.refuse.val();
        self.r_ecode.d.next = self.z2.val();
        if self.acc.val() & self.refuse.val() {
            self.r_ecode.d.next = self.ecode.val();
        }
        self.r_data.d.next = self.z32.val();
        if self.ok.val() & self.rd_only.val() {
            self.r_data.d.next = self.rmux.value.val();
        }
        self.r_code_rd.d.next = self.step_code.val() & self.rd_only.val();
        self.r_mem_rd.d.next = self.step_mem.val() & self.rd_only.val();
        if self.reset.val() {
            self.r_code_addr.d.next = self.z32.val();
            self.r_mem_lo.d.next = self.z32.val();
            self.r_mem_hi.d.next = self.z32.val();
            self.r_wf_sel.d.next = self.z32.val();
            self.r_ack.d.next = false;
            self.r_err.d.next = false;
            self.r_ecode.d.next = self.z2.val();
            self.r_data.d.next = self.z32.val();
            self.r_code_rd.d.next = false;
            self.r_mem_rd.d.next = false;
        }
        // The outputs.
        self.ack.next = self.r_ack.q.val();
        self.err.next = self.r_err.q.val();
        self.err_code.next = self.r_ecode.q.val();
        self.rdata.next = self.r_data.q.val();
        if self.r_code_rd.q.val() {
            self.rdata.next = self.code_rdata.val();
        }
        if self.r_mem_rd.q.val() {
            self.rdata.next = self.mem_rdata.val();
        }
        self.wf_sel.next = self.r_wf_sel.q.val();
        self.entry_pc.next = self.b_main.q[0].val();
        self.kernarg_lo.next = self.b_main.q[1].val();
        self.kernarg_hi.next = self.b_main.q[2].val();
        self.grid.next = self.b_main.q[3].val();
        self.wg.next = self.b_main.q[4].val();
        self.lds.next = self.b_main.q[5].val();
        self.mode.next = self.b_main.q[6].val();
        self.sched.next = self.b_main.q[7].val();
        self.features.next = self.b_main.q[8].val();
        self.trace_lo.next = self.b_main.q[9].val();
        self.trace_hi.next = self.b_main.q[10].val();
        self.abi.next = self.b_main.q[11].val().get_bit(0);
        self.rsrc2.next = self.b_main.q[12].val();
        for i in 0..16 {
            self.user[i].next = self.b_user.q[i].val();
        }
        for j in 0..8 {
            self.idu_ctl[j].next = self.b_idu.q[2 * j].val();
            self.idu_ps[j].next = self.b_idu.q[2 * j + 1].val();
        }
    }
}
