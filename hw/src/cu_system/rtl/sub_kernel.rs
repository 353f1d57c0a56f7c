//! The sub-kernel registers (`WG_FIRST`, `WG_COUNT`, `CU_MASK`) on the register bus, beside
//! the register map: the driver writes them before every doorbell.

use crate::gpu::regmap::ERR_BUSY;
use crate::gpu::regs::addr;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The three sub-kernel registers, with the register map's bus timing (the response the cycle
/// after the access) and its busy refusal (a write while `locked`). `hit` says combinationally
/// that `addr` is one of them, so the system keeps the access from the register map.
#[derive(LogicBlock)]
pub struct SubKernelRegs {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Power-on reset: the registers 0, no response.
    pub reset: Signal<In, Bit>,
    /// A read at `addr`.
    pub rd: Signal<In, Bit>,
    /// A write of `wdata` at `addr`.
    pub wr: Signal<In, Bit>,
    /// Byte offset.
    pub addr: Signal<In, Bits<32>>,
    /// Write data.
    pub wdata: Signal<In, Bits<32>>,
    /// A launch runs: writes are refused as busy.
    pub locked: Signal<In, Bit>,
    /// `addr` is a sub-kernel register (combinational).
    pub hit: Signal<Out, Bit>,
    /// The response to the previous cycle's access to a sub-kernel register.
    pub ack: Signal<Out, Bit>,
    /// It is the bus error response (busy).
    pub err: Signal<Out, Bit>,
    /// Its kind.
    pub err_code: Signal<Out, Bits<2>>,
    /// The word read.
    pub rdata: Signal<Out, Bits<32>>,
    /// `WG_FIRST`, `WG_COUNT`, `CU_MASK`.
    pub regs: [Signal<Out, Bits<32>>; 3],
    /// The registers.
    value: [DFF<Bits<32>>; 3],
    /// The response registers.
    r_ack: DFF<Bit>,
    r_err: DFF<Bit>,
    r_data: DFF<Bits<32>>,
    /// `addr` is register `i`.
    sel: [Signal<Local, Bit>; 3],
    offsets: [Constant<Bits<32>>; 3],
    busy_code: Constant<Bits<2>>,
    z2: Constant<Bits<2>>,
    z32: Constant<Bits<32>>,
}

impl Default for SubKernelRegs {
    fn default() -> Self {
        let offsets = [addr::WG_FIRST, addr::WG_COUNT, addr::CU_MASK];
        Self {
            clock: Default::default(),
            reset: Default::default(),
            rd: Default::default(),
            wr: Default::default(),
            addr: Default::default(),
            wdata: Default::default(),
            locked: Default::default(),
            hit: Default::default(),
            ack: Default::default(),
            err: Default::default(),
            err_code: Default::default(),
            rdata: Default::default(),
            regs: Default::default(),
            value: Default::default(),
            r_ack: Default::default(),
            r_err: Default::default(),
            r_data: Default::default(),
            sel: Default::default(),
            offsets: offsets.map(|a| k(u64::from(a))),
            busy_code: k(u64::from(ERR_BUSY)),
            z2: k(0),
            z32: k(0),
        }
    }
}

impl Logic for SubKernelRegs {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, r_ack, r_err, r_data);
        self.hit.next = false;
        self.r_data.d.next = self.z32.val();
        for i in 0..3 {
            self.value[i].clock.next = self.clock.val();
            self.value[i].d.next = self.value[i].q.val();
            self.sel[i].next = self.addr.val() == self.offsets[i].val();
            self.hit.next = self.hit.val() | self.sel[i].val();
            if self.sel[i].val() & self.wr.val() & !self.locked.val() {
                self.value[i].d.next = self.wdata.val();
            }
            if self.sel[i].val() & self.rd.val() & !self.wr.val() {
                self.r_data.d.next = self.value[i].q.val();
            }
            if self.reset.val() {
                self.value[i].d.next = self.z32.val();
            }
            self.regs[i].next = self.value[i].q.val();
        }
        self.r_ack.d.next = self.hit.val() & (self.rd.val() | self.wr.val()) & !self.reset.val();
        self.r_err.d.next = self.hit.val() & self.wr.val() & self.locked.val() & !self.reset.val();
        self.ack.next = self.r_ack.q.val();
        self.err.next = self.r_err.q.val();
        self.err_code.next = self.z2.val();
        if self.r_err.q.val() {
            self.err_code.next = self.busy_code.val();
        }
        self.rdata.next = self.r_data.q.val();
    }
}
