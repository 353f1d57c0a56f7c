//! `CuSystem`: the register map in front of the compute unit's RTL top, with the data memory.

use super::divider::Divider;
use super::launch_check::LaunchCheck;
use super::launch_ctl::LaunchCtl;
use super::sub_kernel::SubKernelRegs;
use crate::cu::CuError;
use crate::cu_system::{
    CODE_BYTES, ISSUE_PERIOD, LAT_BRANCH, LAT_FLAT, LAT_SALU, LAT_SMEM, LAT_VALU, PWS_S_MAX2,
    PWS_S_MAX4,
};
use crate::cu_top::{ComputeUnitTop, ComputeUnitTop2};
use crate::fixed_mem::FixedMemory;
use crate::gpu::regmap::RegMap;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// One RTL system per instance of the compute unit's top: the system's name, its top, the
/// top's issue units (`units`) and the largest S it runs under PWS (`pws_s`, its SpSIMDs).
macro_rules! cu_system {
    (
        $(#[$attr:meta])*
        $name:ident { top: $top:ident, units: $U:tt, pws_s: $S:ident }
    ) => {
        $(#[$attr])*
        #[derive(LogicBlock)]
        pub struct $name<const A: usize> {
            /// Core clock.
            pub clock: Signal<In, Clock>,
            /// Power-on reset (the register map's defaults, idle; the memories keep their words).
            pub reset: Signal<In, Bit>,
            /// A read at `addr`.
            pub rd: Signal<In, Bit>,
            /// A write of `wdata` at `addr` (`rd` with `wr` is a write).
            pub wr: Signal<In, Bit>,
            /// Byte offset of the register.
            pub addr: Signal<In, Bits<32>>,
            /// Write data.
            pub wdata: Signal<In, Bits<32>>,
            /// The response to the access of two cycles before (the input stage's cycle, then the
            /// register map's).
            pub ack: Signal<Out, Bit>,
            /// It is the bus error response.
            pub err: Signal<Out, Bit>,
            /// Its kind (0 unmapped, 1 read-only, 2 busy, 3 out of range).
            pub err_code: Signal<Out, Bits<2>>,
            /// The word read (0 for a write or an error).
            pub rdata: Signal<Out, Bits<32>>,
            /// Probe: `STATUS` (0 idle, 1 busy, 2 done, 3 error).
            pub status: Signal<Out, Bits<2>>,
            /// Probe: the compute unit's issue unit `u` issues an instruction.
            pub issue_valid: [Signal<Out, Bit>; $U],
            /// Probe: its PC.
            pub issue_pc: [Signal<Out, Bits<32>>; $U],
            /// The register map.
            map: RegMap,
            /// `WG_FIRST`, `WG_COUNT`, `CU_MASK`.
            sub: SubKernelRegs,
            /// `GRID / WG` after the doorbell.
            div: Divider,
            /// The launch checks (PWS up to the macro's `pws_s`, the top's SpSIMDs).
            check: LaunchCheck<$S>,
            /// Doorbell, launch, status and counters.
            ctl: LaunchCtl,
            /// The compute unit.
            cu: $top,
            /// The data memory: its driver port behind `MEM_DATA`, its request ports the compute
            /// unit's memory port.
            mem: FixedMemory<A>,
            /// The code word a `CODE_DATA` read fetched (the window's cycle of read latency).
            code_q: DFF<Bits<32>>,
            /// The input stage: `reset`, `rd`, `wr`, `addr` and `wdata` registered at the edge that
            /// ends their cycle, so that no logic inside depends on an input within the cycle (the
            /// register map sees an access the cycle after it, and answers the cycle after that).
            rst: DFF<Bit>,
            /// `rd`, registered.
            bus_rd: DFF<Bit>,
            /// `wr`, registered.
            bus_wr: DFF<Bit>,
            /// `addr`, registered.
            bus_addr: DFF<Bits<32>>,
            /// `wdata`, registered.
            bus_wdata: DFF<Bits<32>>,
            /// The compute unit's fault is a PC past the code.
            oob: Signal<Local, Bit>,
            code_bytes: Constant<Bits<32>>,
            mem_bytes: Constant<Bits<64>>,
            lat_salu: Constant<Bits<16>>,
            lat_valu: Constant<Bits<16>>,
            lat_branch: Constant<Bits<16>>,
            issue_period: Constant<Bits<8>>,
            /// The memory's vector latency: `LAT_FLAT` − 1 (the response one cycle before the
            /// retire).
            lat_flat: Constant<Bits<16>>,
            /// Its scalar latency: `LAT_SMEM` − 1.
            lat_smem: Constant<Bits<16>>,
            e_bad: Constant<Bits<32>>,
            e_illegal: Constant<Bits<32>>,
            e_oob: Constant<Bits<32>>,
            e_mem: Constant<Bits<32>>,
            e_lds: Constant<Bits<32>>,
            st_busy: Constant<Bits<2>>,
            p_gto: Constant<Bits<2>>,
            p_rr: Constant<Bits<2>>,
            z32: Constant<Bits<32>>,
            /// `MODE` codes: no split (0), DWS.
            z2: Constant<Bits<2>>,
            m_dws: Constant<Bits<2>>,
            z64: Constant<Bits<64>>,
            /// The data RAM's dwords.
            mem_words: Constant<Bits<32>>,
            c_insts: Constant<Bits<6>>,
            c_cycles: Constant<Bits<6>>,
            /// The `splits` counter's index.
            c_splits: Constant<Bits<6>>,
        }

        impl<const A: usize> Default for $name<A> {
            fn default() -> Self {
                Self {
                    clock: Default::default(),
                    reset: Default::default(),
                    rd: Default::default(),
                    wr: Default::default(),
                    addr: Default::default(),
                    wdata: Default::default(),
                    ack: Default::default(),
                    err: Default::default(),
                    err_code: Default::default(),
                    rdata: Default::default(),
                    status: Default::default(),
                    issue_valid: array_init::array_init(|_| Default::default()),
                    issue_pc: array_init::array_init(|_| Default::default()),
                    map: Default::default(),
                    sub: Default::default(),
                    div: Default::default(),
                    check: Default::default(),
                    ctl: Default::default(),
                    cu: Default::default(),
                    // Every word initialised: the Verilog never reads an unknown value.
                    mem: Default::default(),
                    code_q: Default::default(),
                    rst: Default::default(),
                    bus_rd: Default::default(),
                    bus_wr: Default::default(),
                    bus_addr: Default::default(),
                    bus_wdata: Default::default(),
                    oob: Default::default(),
                    code_bytes: k(u64::from(CODE_BYTES)),
                    mem_bytes: k(4 << A),
                    lat_salu: k(u64::from(LAT_SALU)),
                    lat_valu: k(u64::from(LAT_VALU)),
                    lat_branch: k(u64::from(LAT_BRANCH)),
                    issue_period: k(u64::from(ISSUE_PERIOD)),
                    lat_flat: k(u64::from(LAT_FLAT - 1)),
                    lat_smem: k(u64::from(LAT_SMEM - 1)),
                    e_bad: k(CuError::BadLaunch as u64),
                    e_illegal: k(CuError::IllegalInstruction as u64),
                    e_oob: k(CuError::PcOutOfRange as u64),
                    e_mem: k(CuError::MemoryFault as u64),
                    e_lds: k(CuError::LdsFault as u64),
                    st_busy: k(u64::from(crate::gpu::regs::status::BUSY)),
                    p_gto: k(1),
                    p_rr: k(2),
                    z32: k(0),
                    z2: k(0),
                    m_dws: k(1),
                    z64: k(0),
                    mem_words: k(1 << A),
                    c_cycles: k(0),
                    c_insts: k(1),
                    c_splits: k(counter_index("splits")),
                }
            }
        }

        impl<const A: usize> Logic for $name<A> {
            #[hdl_gen]
            fn update(&mut self) {
                // Clocks and resets; the CTRL reset bit resets the compute unit and the launch.
                dff_setup!(self, clock, code_q, rst, bus_rd, bus_wr, bus_addr, bus_wdata);
                self.rst.d.next = self.reset.val();
                self.bus_rd.d.next = self.rd.val();
                self.bus_wr.d.next = self.wr.val();
                self.bus_addr.d.next = self.addr.val();
                self.bus_wdata.d.next = self.wdata.val();
                self.map.clock.next = self.clock.val();
                self.sub.clock.next = self.clock.val();
                self.div.clock.next = self.clock.val();
                self.ctl.clock.next = self.clock.val();
                self.cu.clock.next = self.clock.val();
                self.mem.clock.next = self.clock.val();
                // A launch drops the requests of an earlier one still in flight (after a fault).
                self.mem.reset.next =
                    self.rst.q.val() | self.map.stop.val() | self.ctl.launch.val();
                self.map.reset.next = self.rst.q.val();
                self.sub.reset.next = self.rst.q.val();
                self.div.reset.next = self.rst.q.val() | self.map.stop.val();
                self.ctl.reset.next = self.rst.q.val() | self.map.stop.val();
                self.cu.reset.next = self.rst.q.val() | self.map.stop.val();

                // The bus: the sub-kernel registers answer their offsets, the register map the
                // rest.
                self.sub.rd.next = self.bus_rd.q.val();
                self.sub.wr.next = self.bus_wr.q.val();
                self.sub.addr.next = self.bus_addr.q.val();
                self.sub.wdata.next = self.bus_wdata.q.val();
                self.sub.locked.next = self.ctl.status.val() == self.st_busy.val();
                self.map.rd.next = self.bus_rd.q.val() & !self.sub.hit.val();
                self.map.wr.next = self.bus_wr.q.val() & !self.sub.hit.val();
                self.map.addr.next = self.bus_addr.q.val();
                self.map.wdata.next = self.bus_wdata.q.val();
                self.ack.next = self.map.ack.val() | self.sub.ack.val();
                self.err.next = self.map.err.val() | self.sub.err.val();
                self.err_code.next = self.map.err_code.val() | self.sub.err_code.val();
                self.rdata.next = self.map.rdata.val() | self.sub.rdata.val();

                // The windows: CODE_DATA onto the compute unit's code memory, MEM_DATA onto the
                // RAM.
                self.map.code_bytes.next = self.code_bytes.val();
                self.map.mem_bytes.next = self.mem_bytes.val();
                self.cu.code_we.next = self.map.code_req.val() & self.map.code_we.val();
                self.cu.code_data.next = self.map.code_wdata.val();
                self.cu.code_addr.next = self.cu.fault_pc.val() >> 2;
                if self.map.code_req.val() {
                    self.cu.code_addr.next = self.map.code_addr.val() >> 2;
                }
                self.code_q.d.next = self.cu.code_rdata.val();
                self.map.code_rdata.next = self.code_q.q.val();
                self.mem.read_address.next = self.map.mem_addr_lo.val().get_bits::<A>(2);
                self.mem.write_address.next = self.map.mem_addr_lo.val().get_bits::<A>(2);
                self.mem.write_data.next = self.map.mem_wdata.val();
                self.mem.write_enable.next = self.map.mem_req.val() & self.map.mem_we.val();
                self.map.mem_rdata.next = self.mem.read_data.val();
                // The memory port: the compute unit's requests; the memory answers one cycle before
                // the retire cycle (the top counts a response in the cycle after it).
                self.mem.flat_lat.next = self.lat_flat.val();
                self.mem.smem_lat.next = self.lat_smem.val();
                self.mem.vreq.next = self.cu.vreq.val();
                self.mem.vstore.next = self.cu.vstore.val();
                self.mem.vmask.next = self.cu.vmask.val();
                self.mem.vtag.next = self.cu.vtag.val();
                for l in 0..64 {
                    self.mem.vaddr[l].next = self.cu.vaddr[l].val();
                    self.mem.vdata[l].next = self.cu.vdata[l].val();
                }
                self.mem.sreq.next = self.cu.sreq.val();
                self.mem.saddr.next = self.cu.saddr.val();
                self.mem.sn.next = self.cu.sn.val();
                self.mem.stag.next = self.cu.stag.val();
                self.mem.sstore.next = self.cu.sstore.val();
                self.mem.sdata.next = self.cu.sdata.val();

                // The launch: GRID / WG, the checks, then the compute unit's launch inputs.
                self.div.start.next = self.ctl.div_start.val();
                self.div.n.next = self.map.grid.val();
                self.div.d.next = self.map.wg.val();
                self.check.grid.next = self.map.grid.val();
                self.check.wg.next = self.map.wg.val();
                self.check.rem.next = self.div.r.val();
                self.check.lds.next = self.map.lds.val();
                self.check.mode.next = self.map.mode.val();
                self.check.features.next = self.map.features.val();
                self.check.entry_pc.next = self.map.entry_pc.val();
                self.check.whole.next = (self.sub.regs[0].val() == self.z32.val())
                    & ((self.sub.regs[1].val() == self.z32.val())
                        | (self.sub.regs[1].val() == self.div.q.val()))
                    & ((self.sub.regs[2].val() == self.z32.val())
                        | self.sub.regs[2].val().get_bit(0));
                self.ctl.doorbell.next = self.map.doorbell.val();
                self.ctl.div_busy.next = self.div.busy.val();
                self.ctl.info.next = self.check.info.val();
                self.ctl.cu_busy.next = self.cu.busy.val();
                self.ctl.cu_fault.next = self.cu.fault.val();
                for u in 0..4 {
                    self.ctl.issue[u].next = false;
                }
                for u in 0..$U {
                    self.ctl.issue[u].next = self.cu.issue_counts[u].val();
                }
                self.ctl.split.next = self.cu.copy.val();
                self.cu.launch.next = self.ctl.launch.val();
                self.cu.entry_pc.next = self.map.entry_pc.val();
                self.cu.wg_count.next = self.div.q.val();
                self.cu.waves.next = self.check.waves.val().get_bits::<8>(0);
                self.cu.wg_size.next = self.map.wg.val();
                self.cu.kernarg.next = (bit_cast::<64, 32>(self.map.kernarg_hi.val()) << 32)
                    | bit_cast::<64, 32>(self.map.kernarg_lo.val());
                self.cu.hsa.next = self.map.abi.val();
                self.cu.rsrc2.next = self.map.rsrc2.val();
                for i in 0..16 {
                    self.cu.user_data[i].next = self.map.user[i].val();
                }
                self.cu.gto.next = self.map.sched.val().get_bits::<2>(0) == self.p_gto.val();
                self.cu.rr.next = self.map.sched.val().get_bits::<2>(0) == self.p_rr.val();
                self.cu.lat_salu.next = self.lat_salu.val();
                self.cu.lat_valu.next = self.lat_valu.val();
                self.cu.lat_branch.next = self.lat_branch.val();
                self.cu.issue_period.next = self.issue_period.val();
                // `MODE` bits 1:0: 0 no split, 1 DWS, 2 PWS; bits 6:4: S (the launch check
                // admits PWS with S up to the macro's `pws_s` only).
                self.cu.split_on.next = self.map.mode.val().get_bits::<2>(0) != self.z2.val();
                self.cu.dws.next = self.map.mode.val().get_bits::<2>(0) == self.m_dws.val();
                self.cu.s.next = self.map.mode.val().get_bits::<3>(4);

                // Status, error and counters.
                self.map.status.next = self.ctl.status.val();
                self.oob.next = self.cu.fault_pc.val() >= self.code_bytes.val();
                self.map.error.next = self.e_illegal.val();
                self.map.error_pc.next = self.cu.fault_pc.val();
                self.map.error_info.next = self.cu.code_rdata.val();
                if self.oob.val() {
                    self.map.error.next = self.e_oob.val();
                    self.map.error_info.next = self.cu.fault_pc.val();
                }
                if self.cu.fault_mem.val() {
                    self.map.error.next = self.e_mem.val();
                    self.map.error_info.next = self.cu.fault_addr.val();
                }
                if self.cu.fault_lds.val() {
                    self.map.error.next = self.e_lds.val();
                    self.map.error_info.next = self.cu.fault_addr.val();
                }
                if self.cu.fault_split.val() {
                    self.map.error.next = bit_cast::<32, 4>(self.cu.fault_code.val());
                    self.map.error_info.next = self.cu.fault_info.val();
                }
                if self.ctl.bad.val() {
                    self.map.error.next = self.e_bad.val();
                    self.map.error_pc.next = self.z32.val();
                    self.map.error_info.next = self.ctl.bad_info.val();
                }
                self.map.counter.next = self.z64.val();
                if self.map.cnt_idx.val() == self.c_cycles.val() {
                    self.map.counter.next = self.ctl.cycles.val();
                }
                if self.map.cnt_idx.val() == self.c_insts.val() {
                    self.map.counter.next = self.ctl.insts.val();
                }
                if self.map.cnt_idx.val() == self.c_splits.val() {
                    self.map.counter.next = self.ctl.splits.val();
                }
                self.map.wf_count.next = self.z32.val();
                self.map.wf_start.next = self.z32.val();
                self.map.wf_finish.next = self.z32.val();
                self.status.next = self.ctl.status.val();
                for u in 0..$U {
                    self.issue_valid[u].next = self.cu.issue_valid[u].val();
                    self.issue_pc[u].next = self.cu.issue_pc[u].val();
                }

                // The memory's responses.
                self.cu.mem_words.next = self.mem_words.val();
                // LDS bytes per work-group, in dwords (a multiple of 4: the launch check).
                self.cu.lds_words.next = self.map.lds.val() >> 2;
                self.cu.vresp.next = self.mem.vresp.val();
                self.cu.vresp_tag.next = self.mem.vresp_tag.val();
                self.cu.vresp_store.next = self.mem.vresp_store.val();
                self.cu.vresp_mask.next = self.mem.vresp_mask.val();
                for l in 0..64 {
                    self.cu.vresp_data[l].next = self.mem.vresp_data[l].val();
                }
                self.cu.sresp.next = self.mem.sresp.val();
                self.cu.sresp_tag.next = self.mem.sresp_tag.val();
                self.cu.sresp_n.next = self.mem.sresp_n.val();
                self.cu.sresp_store.next = self.mem.sresp_store.val();
                for i in 0..4 {
                    self.cu.sresp_data[i].next = self.mem.sresp_data[i].val();
                }
            }
        }
    };
}

cu_system! {
    /// The RTL system of one compute unit (see [`crate::cu_system`] for its contract) on the
    /// two-unit top ([`ComputeUnitTop2`]: no split, DWS at any S, PWS at S = 1): the driver's
    /// register bus in, the compute unit's status out. `A` is the data memory's address width
    /// in dwords (`2^A` dwords).
    CuSystem { top: ComputeUnitTop2, units: 2, pws_s: PWS_S_MAX2 }
}

cu_system! {
    /// [`CuSystem`] on the four-unit top ([`ComputeUnitTop`]: PWS at S = 1, 2 or 3 too), about
    /// 3.5 times slower under Verilator: what `rtgpu run --top rtl` runs PWS at S = 2 and 3
    /// on.
    CuSystem4 { top: ComputeUnitTop, units: 4, pws_s: PWS_S_MAX4 }
}

/// The index of counter `name` in the register map's list.
fn counter_index(name: &str) -> u64 {
    let i = crate::gpu::regs::COUNTER_NAMES
        .iter()
        .position(|n| *n == name);
    i.expect("a counter of the register map") as u64
}
