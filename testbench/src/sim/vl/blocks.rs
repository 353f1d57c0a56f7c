//! The port lists of every block the engine runs (each checked against its Verilog when a
//! model is built).

use crate::tb::sched::SchedProbe;
use crate::tb::Counter32;
use rtgpu_hw::cache::{Coalescer, L1Cache};
use rtgpu_hw::cdc::CdcFifo;
use rtgpu_hw::ctx::{CtxRegs, Vgprs};
use rtgpu_hw::cu_system::{CuSystem, CuSystem4};
use rtgpu_hw::cu_top::{ComputeUnitTop, ComputeUnitTop2};
use rtgpu_hw::dispatch::Dispatch;
use rtgpu_hw::dram::snoop::Snoop;
use rtgpu_hw::dram::DramCtrl;
use rtgpu_hw::fetch::Fetch;
use rtgpu_hw::fixed_mem::FixedMemory;
use rtgpu_hw::gpu::regmap::RegMap;
use rtgpu_hw::idu::{Dispatcher, Idu};
use rtgpu_hw::isa::{InsnDecode, PwsDecode};
use rtgpu_hw::issue::Issue;
use rtgpu_hw::lds::Lds;
use rtgpu_hw::ldst::LdstPath;
use rtgpu_hw::pws::SimdGroup;
use rtgpu_hw::reorder::Reorder;
use rtgpu_hw::salu::Salu;
use rtgpu_hw::sched::WarpScheduler;
use rtgpu_hw::valu::Valu;

crate::vl_ports!([] Counter32 { clock, enable, count });

crate::vl_ports!([] InsnDecode {
    clock, reset, valid, word0, word1, out_valid, illegal, format, unit, opcode, dst, sdst,
    src0, src1, src2, imm, literal, words, abs, neg, clamp, omod, glc, slc, gds, imm_offset,
});

crate::vl_ports!([] Salu {
    clock, reset, valid, format, opcode, dst, a, b, scc, exec, out_valid, out_dst, sdst_we,
    wide, d_lo, d_hi, scc_we, scc_out, exec_we, exec_out, n_sdst_we, n_wide, n_lo, n_hi, n_scc_we,
    n_scc, n_exec_we, n_exec,
});

crate::vl_ports!([] Valu {
    clock, reset, valid, format, opcode, dst, sdst, clamp, exec, mask_in, a, b, c, d, omod, abs,
    neg, busy, quarter,
    wb_valid, wb_quarter, wb_vgpr, wb_lanes, wb_data, wb_two, wb_data_hi, done, sgpr_we,
    sgpr_wide, sgpr_dst,
    sgpr_lo, sgpr_hi, exec_we, n_sgpr_we, n_sgpr_wide, n_sgpr_dst, n_sgpr_lo, n_sgpr_hi,
    n_exec_we,
});

crate::vl_ports!([const W: usize] Lds<W> {
    clock, reset, valid, opcode, offset, vdst, exec, wg_base, wg_words, clear, clear_base,
    clear_words, addr, data0,
    data1, busy, quarter, wb_valid, wb_quarter, wb_vgpr, wb_two, wb_lanes, wb_data0, wb_data1,
    done, fault, fault_addr,
});

crate::vl_ports!([const A: usize, const D: usize] FixedMemory<A, D> {
    clock, reset, flat_lat, smem_lat, vreq, vstore, vmask, vaddr, vdata, vtag, vresp, vresp_tag,
    vresp_store, vresp_mask, vresp_data, sreq, saddr, sn, stag, sstore, sdata, sresp, sresp_tag,
    sresp_n, sresp_store, sresp_data, read_address, read_data, write_address, write_data, write_enable,
});

crate::vl_ports!([const C: usize, const P: usize, const W: usize] Fetch<C, P, W> {
    clock, reset, wen, waddr, wdata, raddr, rdata, sel, pc, copy, copy_from, copy_to, valid, w0,
    w1, unit, illegal, oob,
});

crate::vl_ports!([] RegMap {
    clock, reset, rd, wr, addr, wdata, status, error, error_pc, error_info, code_bytes,
    mem_bytes, code_rdata, mem_rdata, counter, wf_count, wf_start, wf_finish, ack, err,
    err_code, rdata, doorbell, stop, code_req, code_we, code_addr, code_wdata, mem_req, mem_we,
    mem_addr_lo, mem_addr_hi, mem_wdata, cnt_idx, wf_sel, entry_pc, kernarg_lo, kernarg_hi, grid,
    wg, lds, mode, sched, features, trace_lo, trace_hi, abi, rsrc2, user, idu_ctl, idu_ps,
});

crate::vl_ports!([] PwsDecode {
    clock, reset, insn, valid, out_valid, is_sopc, is_sopp, is_split, is_merge, ssrc0, ssrc1,
    illegal,
});

crate::vl_ports!([const L: usize, const U: usize, const C: usize] SimdGroup<L, U, C> {
    clock, reset, dws, watchdog, s, cmd, cmd_unit, cmd_slot, cmd_mask, cmd_pc, exec, state, spm,
    eff, parent_valid, parent, sp, top, copy_valid, copy_from, copy_to, split_denied, error,
    error_ctx,
});

crate::vl_ports!([const W: usize] WarpScheduler<W> {
    clock, reset, gto, rr, eligible, present, age, grant_valid, grant, last, last_valid,
});

crate::vl_ports!([const W: usize, const F: usize] SchedProbe<W, F> {
    clock, reset, gto, eligible, fu_busy, grant_valid, grant, last, last_valid, unit_busy,
});

crate::vl_ports!([const NB: usize] DramCtrl<NB> {
    clock, reset, req_valid, req_write, req_indexed, req_addr, req_words, req_period,
    req_count, req_tag, idx_valid, idx_addr, req_ready, idx_ready, cmd, cmd_bg, cmd_bank,
    cmd_row, cmd_col, dq_valid, dq_write, dq_bg, dq_bank, dq_row, dq_col, dq_beat, dq_mask,
    done, done_error, done_tag, done_lid, ref_owed, ref_overflow,
});

crate::vl_ports!([const N: usize] Snoop<N> {
    clock, reset, clear, load, load_entry, load_addr, dq_valid, dq_base, dq_mask, match_now,
    hit, hit_word, wmask,
});

crate::vl_ports!([const K: usize] Dispatcher<K> {
    clock, reset, cfg_we, cfg_type, cfg_cluster, cfg_working, cfg_limit, launch, stop, enable,
    in_valid, in_type, in_tag, ready, elig, all_full, sel, dispatch, stall, out_tag, active,
    cnt_sp, cnt_sfu, cnt_ldst, limit_sp, limit_sfu, limit_ldst, working_sp, working_sfu,
    working_ldst,
});

crate::vl_ports!([const K: usize, const A: usize, const B: usize, const C: usize] Idu<K, A, B, C> {
    dclock, clk_sp, clk_sfu, clk_ldst, reset, cfg_we, cfg_type, cfg_cluster, cfg_working,
    cfg_limit, launch, stop, enable, in_valid, in_type, in_tag, ii_sp, ii_sfu, ii_ldst, elig,
    all_full, sel, dispatch, stall, active, cnt_sp, cnt_sfu, cnt_ldst, limit_sp, limit_sfu,
    limit_ldst, retire_sp, retire_sfu, retire_ldst, rtag_sp, rtag_sfu, rtag_ldst, busy_sp,
    busy_sfu, busy_ldst,
});

crate::vl_ports!([const S: usize, const W: usize] L1Cache<S, W> {
    clock, reset, req_valid, req_line, req_store, mem_fill, mem_fill_line, req_ready, hit, way,
    victim, victim_valid, victim_line, mem_req_valid, mem_req_line, mem_req_store, accesses,
    misses,
});

crate::vl_ports!([const L: usize] Coalescer<L> {
    clock, reset, load, addr, mask, size, advance, busy, line_valid, line, first, words, last,
});

crate::vl_ports!([const W: usize, const D: usize, const T: usize] Reorder<W, D, T> {
    clock, reset, rule, parallel, bypass, trace_we, trace_slot, trace_index, trace_entry,
    map_we, map_slot, map_block, map_warp, map_wave, map_len, start, req_valid, req_slot,
    req_seq, req_pc_idx, req_store, req_tag, rel_ready, watchdog, free, req_ready, rel_valid,
    rel_slot, rel_tag, rel_store, rel_pc_idx, state, target, expect_seq, count, error,
});

crate::vl_ports!([const W: usize, const D: usize, const T: usize, const S: usize, const A: usize]
    LdstPath<W, D, T, S, A> {
    clock, reset, rule, parallel, bypass, trace_we, trace_slot, trace_index, trace_entry,
    map_we, map_slot, map_block, map_warp, map_wave, map_len, start, req_valid, req_slot,
    req_seq, req_pc_idx, req_store, req_tag, watchdog, rel_addr, rel_mask, mem_fill,
    mem_fill_line, free, req_ready, rel_valid, rel_slot, rel_tag, rel_store, rel_pc_idx, state,
    target, expect_seq, count, error, coal_busy, line_valid, line, line_last,
    line_first, line_words, l1_store,
    l1_ready, hit, way, victim, victim_valid, victim_line, mem_req_valid, mem_req_line,
    mem_req_store, accesses, misses,
});

crate::vl_ports!([const W: usize, const D: usize, const A1: usize] CdcFifo<W, D, A1> {
    wclk, wreset, push, wdata, wfree, full, rclk, rreset, pop, rvalid, rdata, rcount,
});

crate::vl_ports!([const G: usize, const S: usize, const R: usize] Dispatch<G, S, R> {
    clock, reset, start, wg_first, wg_end, wg_stride, waves, max_res, limit, free, port_free, ended, send,
    send_slot, send_wi, send_wave, send_wg, admitted, resident, live, pending, next_wg, finished,
});

crate::vl_ports!([const C: usize] Issue<C> {
    clock, reset, gto, rr, lat_salu, lat_valu, lat_branch, issue_period, split_on, pipe_mem,
    pipe_lds, port_free, o_mem, o_lds, o_port, t1_mem, t1_lds, t1_port, t2_mem, t2_lds, t2_port, idu_on, idu_ok, idu_wait, start, stop, bar_release,
    hold, gport_free, vm_ret, lgkm_ret, unit, opcode, imm, illegal, state, age, grant_valid,
    grant, f_valid, f_grant, f_mem, f_lds, f_port, p1_valid, p1_grant, p1_mem, p1_lds, p1_port,
    p2_valid, p2_grant, p2_mem, p2_lds, p2_port, stall,
    eligible, present, valu_busy, live, barrier, dep, vmcnt, lgkmcnt,
});

crate::vl_ports!([const C: usize, const N: usize, const R: usize, const W: usize] CtxRegs<C, N, R, W> {
    clock, reset, init, init_ctx, init_pc, init_exec, init_s, copy, copy_from, copy_to, rctx,
    rcode, rwide, rlit, rdata, rbad, wctx, sdst_we, sdst, wide, d, exec_we, exec_in, scc_we, scc_in, pc_we, pc_in, wbad, pc,
    exec, vcc, scc,
});

crate::vl_ports!([const S: usize, const V: usize, const L: usize, const M: usize] Vgprs<S, V, L, M> {
    clock, reset, clear, clear_slot, clear_v0, a_slot, a_reg, a_data, b_slot, b_reg, b_data, c_slot, c_reg, c_data, we, w_slot,
    w_reg, w_mask, w_data, a2_slot, a2_reg, a2_data, b2_slot, b2_reg, b2_data, c2_slot, c2_reg,
    c2_data, we2, w2_slot, w2_reg, w2_mask, w2_data, a3_slot, a3_reg, a3_data, b3_slot, b3_reg,
    b3_data, c3_slot, c3_reg, c3_data, we3, w3_slot, w3_reg, w3_mask, w3_data, a4_slot, a4_reg,
    a4_data, b4_slot, b4_reg, b4_data, c4_slot, c4_reg, c4_data, we4, w4_slot, w4_reg, w4_mask,
    w4_data, m_we, m_slot, m_reg, m_mask, m_data, x_slot, x_reg, x0_data, x1_data,
    x2_data, y_slot, y_reg, y0_data, y1_data, y2_data, l_we, l_two, l_slot, l_reg, l_mask, l_data,
    l_data1,
});

/// The compute unit tops' ports (one list: both are `compute_unit_top!`'s instances).
macro_rules! cu_top_ports {
    ($($ty:ty),+) => {$(
        crate::vl_ports!([] $ty {
            clock, reset, launch, entry_pc, wg_count, waves, wg_size, kernarg, hsa, rsrc2,
            user_data, gto, rr, lat_salu, lat_valu, lat_branch, issue_period, split_on, dws, s, code_we, code_addr, code_data,
            code_rdata, mem_words, lds_words, vreq, vstore, vmask, vaddr, vdata, vtag, sreq,
            saddr, sn, stag, sstore, sdata, vresp, vresp_tag, vresp_store, vresp_mask,
            vresp_data, sresp, sresp_tag, sresp_n, sresp_store, sresp_data, busy, fault,
            fault_pc, fault_mem, fault_lds, fault_addr, fault_split, fault_code, fault_info,
            issue_valid, issue_counts, issue_slot, issue_pc, stall, first, send, send_slot,
            send_wg, send_wave, copy, copy_from, copy_to,
        });
    )+};
}

cu_top_ports!(ComputeUnitTop, ComputeUnitTop2);

crate::vl_ports!([const A: usize] CuSystem<A> {
    clock, reset, rd, wr, addr, wdata, ack, err, err_code, rdata, status, issue_valid, issue_pc,
});

crate::vl_ports!([const A: usize] CuSystem4<A> {
    clock, reset, rd, wr, addr, wdata, ack, err, err_code, rdata, status, issue_valid, issue_pc,
});
