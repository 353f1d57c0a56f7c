//! The model against the behavioural GPU ([`crate::gpu::Gpu::read`] and
//! [`crate::gpu::Gpu::write`]): the same random register traffic into both, the model's
//! RAMs and compute-unit inputs taken from the GPU's; every response, the launch registers,
//! `WF_SEL` and the memories' contents compared after every access.
//!
//! Mutation caught: the busy lock of the launch registers dropped from `refusal` fails all
//! three tests (the GPU answers busy where the model accepts the write, access 1).

use super::*;
use crate::cu::CuConfig;
use crate::gpu::regmap::traffic::{access, Access, Rams};
use crate::gpu::regs::BusError;
use crate::gpu::Gpu;
use proptest::prelude::*;

/// Small memories, so that the windows run off their ends.
fn gpu() -> Gpu {
    let cfg = CuConfig {
        code_bytes: 64,
        mem_bytes: 64,
        ..CuConfig::default()
    };
    Gpu::new(cfg).expect("the configuration is valid")
}

/// A register read without side effects (0 when refused).
fn peek(g: &mut Gpu, a: u32) -> u32 {
    g.read(a).unwrap_or(0)
}

/// The byte offset of counter `idx` on `cnt_idx`.
fn counter_addr(idx: u8) -> u32 {
    match idx.checked_sub(BANK2) {
        Some(k) => addr::COUNTERS2 + 8 * u32::from(k),
        None => addr::COUNTERS + 8 * u32::from(idx),
    }
}

/// Puts the GPU's status, error, counter and wavefront values on `i`, with the counter the
/// model addresses.
fn cu_side(g: &mut Gpu, m: &RegMapModel, i: &mut RegMapIn) {
    i.status = peek(g, addr::STATUS) as u8;
    (i.error, i.error_pc, i.error_info) = (
        peek(g, addr::ERROR),
        peek(g, addr::ERROR_PC),
        peek(g, addr::ERROR_INFO),
    );
    (i.wf_count, i.wf_start, i.wf_finish) = (
        peek(g, addr::WF_COUNT),
        peek(g, addr::WF_START),
        peek(g, addr::WF_FINISH),
    );
    let c = counter_addr(m.outputs(i).cnt_idx);
    i.counter = u64::from(peek(g, c)) | u64::from(peek(g, c + 4)) << 32;
}

/// The launch registers as the GPU's reads show them.
fn gpu_launch(g: &mut Gpu) -> LaunchOut {
    let mut p = |a| peek(g, a);
    let pair = |lo: u32, hi: u32| u64::from(lo) | u64::from(hi) << 32;
    LaunchOut {
        entry_pc: p(addr::ENTRY_PC),
        kernarg: pair(p(addr::KERNARG_LO), p(addr::KERNARG_HI)),
        grid: p(addr::GRID),
        wg: p(addr::WG),
        lds: p(addr::LDS),
        mode: p(addr::MODE),
        sched: p(addr::SCHED),
        features: p(addr::FEATURES),
        trace_addr: pair(p(addr::TRACE_ADDR_LO), p(addr::TRACE_ADDR_HI)),
        abi: p(addr::ABI) & 1 != 0,
        rsrc2: p(addr::PGM_RSRC2),
        user: std::array::from_fn(|k| p(addr::USER_DATA + 4 * k as u32)),
        idu_ctl: std::array::from_fn(|k| p(addr::IDU_CLUSTER + 8 * k as u32) as u16),
        idu_ps: std::array::from_fn(|k| p(addr::IDU_CLUSTER + 8 * k as u32 + 4)),
    }
}

/// The model and its RAMs.
struct Twin {
    m: RegMapModel,
    rams: Rams,
}

impl Twin {
    /// One cycle with the access `acc` and the GPU's compute-unit values; the outputs.
    fn cycle(&mut self, g: &mut Gpu, acc: &Access) -> RegMapOut {
        let mut i = acc.input();
        self.rams.drive(&mut i);
        cu_side(g, &self.m, &mut i);
        let o = self.m.outputs(&i);
        self.rams.clock(&o);
        self.m.clock(&i);
        o
    }
}

/// The GPU's answer to `acc` (`None` for an idle cycle).
fn gpu_access(g: &mut Gpu, acc: &Access) -> Option<Result<u32, BusError>> {
    match (acc.wr, acc.rd) {
        (true, _) => Some(g.write(acc.addr, acc.wdata).map(|()| 0)),
        (false, true) => Some(g.read(acc.addr)),
        _ => None,
    }
}

/// `acc` as the single-compute-unit map sees it: an access to a register of several compute
/// units or of the hardware queue (which the block does not hold) becomes an idle cycle, and
/// a `CTRL` write loses its enqueue bit.
fn single_cu(acc: Access) -> Access {
    let multi = (addr::WG_FIRST..=addr::CU_MASK).contains(&acc.addr)
        || (addr::N_CU..addr::ERROR_CU + 4).contains(&acc.addr);
    match (multi, acc.addr == addr::CTRL && acc.wr) {
        (true, _) => Access::default(),
        (false, true) => Access {
            wdata: acc.wdata & !regs::CTRL_ENQUEUE,
            ..acc
        },
        _ => acc,
    }
}

/// Runs the accesses of `seeds` on the model and the GPU; the first difference, or how
/// many responses of each kind there were (the four errors, data, launching doorbells).
fn model_equals_gpu(seeds: &[u64]) -> Result<[u32; 6], String> {
    let mut seen = [0u32; 6];
    let mut g = gpu();
    let mut t = Twin {
        m: RegMapModel::new(),
        rams: Rams::new(64, 64),
    };
    for (n, &seed) in seeds.iter().enumerate() {
        let acc = single_cu(access(seed));
        let at = t.cycle(&mut g, &acc);
        let want = gpu_access(&mut g, &acc);
        let resp = t.cycle(&mut g, &Access::default());
        let got = resp.ack.then(|| match resp.err {
            true => Err(crate::gpu::regmap::bus_error(resp.err_code)),
            false => Ok(resp.rdata),
        });
        let launched = matches!(peek(&mut g, addr::STATUS), status::BUSY | status::ERROR);
        let same = (
            got,
            at.doorbell && !launched,
            resp.launch,
            resp.wf_sel,
            &t.rams.code,
            &t.rams.mem,
        ) == (
            want,
            false,
            gpu_launch(&mut g),
            peek(&mut g, addr::WF_SEL),
            &g.cu().code,
            &g.cu().mem.words().to_vec(),
        );
        if !same {
            return Err(format!(
                "access {n} {acc:x?}: model {got:x?}, GPU {want:x?}, doorbell {}",
                at.doorbell
            ));
        }
        if resp.ack {
            seen[if resp.err {
                usize::from(resp.err_code)
            } else {
                4
            }] += 1;
        }
        seen[5] += u32::from(at.doorbell);
        if acc == Access::default() {
            // (An idle access lets the launch run a cycle: its status and error change.)
            g.step();
        }
    }
    Ok(seen)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    /// Random traffic: the model answers every access as the behavioural GPU does.
    #[test]
    fn model_answers_as_the_behavioural_gpu(seeds in prop::collection::vec(any::<u64>(), 1..400)) {
        if let Err(e) = model_equals_gpu(&seeds) {
            prop_assert!(false, "{}", e);
        }
    }
}

/// The traffic reaches every kind of response (the property above is not vacuous): reads
/// and writes accepted, each error kind, doorbells that launch.
#[test]
fn the_traffic_reaches_every_response() {
    let seen = model_equals_gpu(&(0..4000).collect::<Vec<u64>>()).unwrap();
    assert!(seen.iter().all(|&n| n > 10), "{seen:?}");
}

/// Worked cases of the table: the reset values, `ABI` keeping bit 0, a launch register
/// locked while busy (any offset of the range) and the window stepping by 4.
#[test]
fn table_cases() {
    let mut m = RegMapModel::new();
    let mut i = RegMapIn {
        wr: true,
        addr: addr::ABI,
        wdata: 7,
        code_bytes: 16,
        ..RegMapIn::default()
    };
    assert_eq!(m.outputs(&i).launch.mode, 0x12);
    m.clock(&i);
    assert!(m.outputs(&i).launch.abi);
    assert_eq!(m.launch[(addr::ABI - addr::ENTRY_PC) as usize / 4], 1);
    (i.status, i.addr) = (1, 0x075);
    m.clock(&i);
    assert_eq!((m.resp.err, m.resp.ack), (Some(ERR_BUSY), true));
    (i.status, i.addr) = (0, 0x075);
    m.clock(&i);
    assert_eq!(m.resp.err, Some(ERR_UNMAPPED));
    i.addr = addr::CODE_DATA;
    for _ in 0..4 {
        m.clock(&i);
    }
    assert_eq!((m.code_addr, m.resp.err), (16, None));
    m.clock(&i);
    assert_eq!((m.code_addr, m.resp.err), (16, Some(ERR_RANGE)));
}
