//! Random register traffic for the register map's tests and testbench: each access is drawn
//! from one 64-bit seed, so a property test shrinks a sequence of seeds. The offsets cover
//! every register of the map, its holes, unaligned offsets and offsets past it; the values
//! lean towards the ones that matter (window addresses near the memories' ends, the `CTRL`
//! bits, small launch values the compute unit accepts).

use super::RegMapIn;
use crate::gpu::regs::addr;

/// One bus access (or an idle cycle).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Access {
    /// A read.
    pub rd: bool,
    /// A write.
    pub wr: bool,
    /// Byte offset.
    pub addr: u32,
    /// Write data.
    pub wdata: u32,
}

impl Access {
    /// The inputs of a cycle with this access (the compute unit's and RAMs' inputs 0).
    pub fn input(&self) -> RegMapIn {
        RegMapIn {
            rd: self.rd,
            wr: self.wr,
            addr: self.addr,
            wdata: self.wdata,
            ..RegMapIn::default()
        }
    }
}

/// The offsets drawn from: the named registers (the windows and their addresses several
/// times, so that runs of window accesses happen), then arrays and odd ones.
const NAMED: [u32; 34] = [
    addr::ID,
    addr::VERSION,
    addr::CTRL,
    addr::CTRL,
    addr::STATUS,
    addr::ERROR,
    addr::ERROR_PC,
    addr::ERROR_INFO,
    addr::CODE_ADDR,
    addr::CODE_DATA,
    addr::CODE_DATA,
    addr::MEM_ADDR_LO,
    addr::MEM_ADDR_HI,
    addr::MEM_DATA,
    addr::MEM_DATA,
    addr::CODE_SIZE,
    addr::MEM_SIZE_LO,
    addr::MEM_SIZE_HI,
    addr::ENTRY_PC,
    addr::KERNARG_LO,
    addr::KERNARG_HI,
    addr::GRID,
    addr::WG,
    addr::LDS,
    addr::MODE,
    addr::SCHED,
    addr::FEATURES,
    addr::TRACE_ADDR_LO,
    addr::TRACE_ADDR_HI,
    addr::ABI,
    addr::PGM_RSRC2,
    addr::WF_COUNT,
    addr::WF_SEL,
    addr::WF_START,
];

/// A SplitMix64 step: the next pseudo-random word of `s`.
fn mix(s: &mut u64) -> u64 {
    *s = s.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = *s;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

/// The offset of draw `r`.
fn offset(r: u64) -> u32 {
    let pick = (r >> 8) as u32;
    match r % 16 {
        0..=9 => NAMED[pick as usize % NAMED.len()],
        10 => addr::USER_DATA + 4 * (pick % 16),
        11 => addr::IDU_CLUSTER + 4 * (pick % 16),
        12 => addr::COUNTERS + 4 * (pick % 64),
        13 => addr::COUNTERS2 + 4 * (pick % 24),
        14 => 4 * (pick % 0x100),
        _ => (pick % 0x400) | ((pick & 1) << 31),
    }
}

/// The write value of draw `r` at offset `a`.
fn value(r: u64, a: u32) -> u32 {
    let small = (r >> 4) as u32 % 80;
    match (r % 8, a) {
        (0..=4, addr::CTRL) => [1, 1, 1, 2, 3, 0][small as usize % 6],
        (0..=5, addr::CODE_ADDR | addr::MEM_ADDR_LO | addr::WF_SEL) => small,
        (0..=5, addr::MEM_ADDR_HI) => small / 64,
        (0..=6, addr::GRID | addr::WG) => 64 * (1 + small % 3),
        (0..=5, addr::MODE) => (small % 3) | ((1 + small % 7) << 4),
        (0..=5, _) => 4 * (small % 16),
        _ => (r >> 16) as u32,
    }
}

/// The access of seed `seed`: 3 in 8 reads, 4 in 8 writes, 1 in 8 idle (1 in 64 with both
/// `rd` and `wr`).
pub fn access(seed: u64) -> Access {
    let mut s = seed;
    let (k, a, v) = (mix(&mut s), mix(&mut s), mix(&mut s));
    let addr = offset(a);
    Access {
        rd: matches!(k % 8, 0..=2) || k % 64 == 63,
        wr: matches!(k % 8, 3..=6) || k % 64 == 63,
        addr,
        wdata: value(v, addr),
    }
}

/// The instruction and data RAMs behind the windows, each a single port with one cycle of
/// read latency: a read's word is on `*_rdata` the cycle after the request and stays there
/// until the next read.
#[derive(Clone, Debug)]
pub struct Rams {
    /// The instruction memory's words.
    pub code: Vec<u32>,
    /// The data memory's words.
    pub mem: Vec<u32>,
    code_out: u32,
    mem_out: u32,
}

impl Rams {
    /// Zeroed RAMs of `code_bytes` and `mem_bytes` bytes.
    pub fn new(code_bytes: u32, mem_bytes: u64) -> Self {
        Self {
            code: vec![0; (code_bytes / 4) as usize],
            mem: vec![0; (mem_bytes / 4) as usize],
            code_out: 0,
            mem_out: 0,
        }
    }

    /// Puts the RAMs' read words and sizes on the inputs `i`.
    pub fn drive(&self, i: &mut RegMapIn) {
        i.code_rdata = self.code_out;
        i.mem_rdata = self.mem_out;
        i.code_bytes = 4 * self.code.len() as u32;
        i.mem_bytes = 4 * self.mem.len() as u64;
    }

    /// The edge that ends a cycle in which the block drove the ports `o`.
    pub fn clock(&mut self, o: &super::RegMapOut) {
        if o.code_req {
            let w = (o.code_we, o.code_wdata);
            port(
                &mut self.code,
                (o.code_addr / 4) as usize,
                w,
                &mut self.code_out,
            );
        }
        if o.mem_req {
            let w = (o.mem_we, o.mem_wdata);
            port(
                &mut self.mem,
                (o.mem_addr / 4) as usize,
                w,
                &mut self.mem_out,
            );
        }
    }
}

/// One RAM access: `wdata` written into `ram[i]` (`we`), or `ram[i]` read into `out` (a word
/// past the end writes nothing and reads 0).
fn port(ram: &mut [u32], i: usize, (we, wdata): (bool, u32), out: &mut u32) {
    match (we, ram.get_mut(i)) {
        (true, Some(slot)) => *slot = wdata,
        (false, v) => *out = v.map_or(0, |v| *v),
        (true, None) => {}
    }
}

/// A stand-in for the compute unit behind the register map in the block's testbench: a
/// doorbell makes it busy for a few cycles, then done or (one launch in three) in error; an
/// stop makes it idle. Its counters and wavefront times are fixed pseudo-random words, so
/// that a read of the wrong counter or half shows.
#[derive(Clone, Debug)]
pub struct CuStandIn {
    status: u8,
    left: u64,
    launches: u64,
    seed: u64,
}

impl CuStandIn {
    /// An idle stand-in whose values come from `seed`.
    pub fn new(seed: u64) -> Self {
        Self {
            status: 0,
            left: 0,
            launches: 0,
            seed,
        }
    }

    /// The word `n` of the stand-in's values.
    fn word(&self, n: u64) -> u64 {
        let mut s = self.seed ^ n.wrapping_mul(0x2545_F491_4F6C_DD1D);
        mix(&mut s)
    }

    /// Puts its status, error, counter `cnt_idx` and the times of wavefront `wf_sel` on `i`.
    pub fn drive(&self, i: &mut RegMapIn, cnt_idx: u8, wf_sel: u32) {
        i.status = self.status;
        i.error = self.word(1) as u32 % 13;
        i.error_pc = self.word(2) as u32;
        i.error_info = self.word(3) as u32;
        i.counter = self.word(100 + u64::from(cnt_idx));
        i.wf_count = self.word(4) as u32 % 64;
        i.wf_start = self.word(200 + u64::from(wf_sel)) as u32;
        i.wf_finish = self.word(300 + u64::from(wf_sel)) as u32;
    }

    /// The edge that ends a cycle in which the register map drove `o`.
    pub fn clock(&mut self, o: &super::RegMapOut) {
        use crate::gpu::regs::status;
        if o.stop {
            self.status = status::IDLE as u8;
        }
        if o.doorbell {
            self.launches += 1;
            self.status = status::BUSY as u8;
            self.left = 2 + self.word(400 + self.launches) % 24;
        } else if self.status == status::BUSY as u8 {
            self.left -= 1;
            if self.left == 0 {
                let failed = self.word(500 + self.launches).is_multiple_of(3);
                self.status = if failed { status::ERROR } else { status::DONE } as u8;
            }
        }
    }
}
