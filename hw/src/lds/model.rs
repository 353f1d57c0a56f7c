//! The reference model of the LDS block, written from the behavioural compute unit's `ds_*`
//! semantics: [`access_quarter`] runs the lanes of a quarter one after the other in lane
//! order (as the behavioural model runs a wavefront's lanes), [`access`] a whole wavefront,
//! and [`LdsModel`] the cycle-level block of [`crate::lds`] (quarter counter, pipeline,
//! fault report) around them.

use super::{op, LdsIn, LdsOut, QUARTER, STAGES};
use std::collections::VecDeque;

/// The fields of one DS instruction the LDS needs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DsOp {
    /// DS opcode.
    pub opcode: u8,
    /// OFFSET1:OFFSET0.
    pub offset: u16,
    /// The work-group's first word.
    pub wg_base: u16,
    /// The work-group's size in words.
    pub wg_words: u32,
}

impl DsOp {
    /// Whether the opcode is in the subset.
    pub fn legal(&self) -> bool {
        op::ALL.contains(&self.opcode)
    }

    /// Two addresses per lane.
    fn two(&self) -> bool {
        matches!(self.opcode, op::WRITE2 | op::READ2)
    }

    /// The lane's one or two byte addresses (relative to the partition).
    fn addresses(&self, a: u32) -> (u32, u32) {
        let (o0, o1) = (u32::from(self.offset & 0xFF), u32::from(self.offset >> 8));
        if self.two() {
            (a.wrapping_add(o0 * 4), a.wrapping_add(o1 * 4))
        } else {
            (
                a.wrapping_add(u32::from(self.offset)),
                a.wrapping_add(o1 * 4),
            )
        }
    }

    /// The address is aligned and inside the partition.
    fn ok(&self, e: u32) -> bool {
        e.is_multiple_of(4) && e >> 2 < self.wg_words
    }

    /// The RAM word of address `e` (16 bits, wrapping).
    fn word(&self, e: u32) -> usize {
        usize::from(self.wg_base.wrapping_add((e >> 2) as u16))
    }
}

/// What a quarter (or a wavefront) of an instruction returns.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct QuarterResult {
    /// The first dword read per lane (0 in inactive lanes and for stores).
    pub data0: [u32; QUARTER],
    /// The second dword (`ds_read2_b32`; else 0).
    pub data1: [u32; QUARTER],
    /// The first faulting address of this quarter, when no earlier lane faulted.
    pub fault: Option<u32>,
}

/// Runs quarter lanes `exec` (bit l = lane l of the quarter) of instruction `d` on the RAM
/// `mem`, lane after lane; `blocked`: an earlier lane of the instruction faulted, so no lane
/// writes. Loads read the RAM as the quarter found it (a load writes nothing). A word at or
/// past the RAM's end reads 0 and is not written.
pub fn access_quarter(
    mem: &mut [u32],
    d: &DsOp,
    exec: u16,
    blocked: bool,
    lanes: (&[u32; QUARTER], &[u32; QUARTER], &[u32; QUARTER]),
) -> QuarterResult {
    let (addr, data0, data1) = lanes;
    let mut r = QuarterResult::default();
    let mut blocked = blocked;
    let read = |mem: &[u32], w: usize| mem.get(w).copied().unwrap_or(0);
    for l in (0..QUARTER).filter(|&l| exec >> l & 1 == 1) {
        let (e0, e1) = d.addresses(addr[l]);
        let (w0, w1) = (d.word(e0), d.word(e1));
        let load = matches!(d.opcode, op::READ | op::READ2);
        if load {
            r.data0[l] = read(mem, w0);
            if d.opcode == op::READ2 {
                r.data1[l] = read(mem, w1);
            }
        }
        if blocked {
            continue;
        }
        if !d.ok(e0) {
            r.fault = Some(e0);
            blocked = true;
            continue;
        }
        if !load {
            let v = match d.opcode {
                op::ADD => read(mem, w0).wrapping_add(data0[l]),
                _ => data0[l],
            };
            if let Some(m) = mem.get_mut(w0) {
                *m = v;
            }
        }
        if d.two() {
            if !d.ok(e1) {
                r.fault = Some(e1);
                blocked = true;
                continue;
            }
            if d.opcode == op::WRITE2 {
                if let Some(m) = mem.get_mut(w1) {
                    *m = data1[l];
                }
            }
        }
    }
    r
}

/// What [`access`] returns: 64 lanes of loaded dwords and the first fault.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct WaveResult {
    /// First dwords per lane.
    pub data0: [u32; 64],
    /// Second dwords per lane.
    pub data1: [u32; 64],
    /// The first faulting address.
    pub fault: Option<u32>,
}

/// Runs instruction `d` for the 64 lanes of `exec`, quarter by quarter, on `mem`.
pub fn access(
    mem: &mut [u32],
    d: &DsOp,
    exec: u64,
    addr: &[u32; 64],
    data0: &[u32; 64],
    data1: &[u32; 64],
) -> WaveResult {
    let mut w = WaveResult {
        data0: [0; 64],
        data1: [0; 64],
        fault: None,
    };
    for q in 0..4 {
        let s = |r: &[u32; 64]| -> [u32; QUARTER] { std::array::from_fn(|l| r[16 * q + l]) };
        let r = access_quarter(
            mem,
            d,
            (exec >> (16 * q)) as u16,
            w.fault.is_some(),
            (&s(addr), &s(data0), &s(data1)),
        );
        w.data0[16 * q..16 * q + 16].copy_from_slice(&r.data0);
        w.data1[16 * q..16 * q + 16].copy_from_slice(&r.data1);
        w.fault = w.fault.or(r.fault);
    }
    w
}

/// One pipeline stage's contents: a quarter on its way to the write-back outputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Stage {
    /// A quarter of an instruction.
    valid: bool,
    /// It is a load.
    read: bool,
    /// `ds_read2_b32`.
    two: bool,
    /// Quarter 3.
    last: bool,
    /// Its quarter.
    q: u8,
    /// First VGPR.
    vgpr: u8,
    /// Lanes loaded.
    lanes: u16,
    /// First dwords.
    d0: [u32; QUARTER],
    /// Second dwords.
    d1: [u32; QUARTER],
}

/// The cycle model of the LDS block.
#[derive(Clone, Debug)]
pub struct LdsModel {
    /// The RAM.
    pub mem: Vec<u32>,
    /// In quarters 1..3.
    run: bool,
    /// The quarter counter.
    q: u8,
    /// The instruction held over its quarters (EXEC shifted to the current quarter).
    held: LdsIn,
    /// A lane of the instruction faulted.
    blocked: bool,
    /// Its address.
    fault_addr: u32,
    /// The pipeline, stage 1 first.
    pipe: VecDeque<Stage>,
    /// Output registers: `fault`, `fault_addr`.
    fault_out: (bool, u32),
}

impl LdsModel {
    /// A block with a RAM of `words` words, after reset.
    pub fn new(words: usize) -> Self {
        Self {
            mem: vec![0; words],
            run: false,
            q: 0,
            held: LdsIn::default(),
            blocked: false,
            fault_addr: 0,
            pipe: VecDeque::from(vec![Stage::default(); STAGES]),
            fault_out: (false, 0),
        }
    }

    /// The outputs of the current cycle (registers only: they do not depend on the inputs).
    pub fn outputs(&self) -> LdsOut {
        let s = self.pipe[STAGES - 1];
        LdsOut {
            busy: self.run,
            quarter: self.q,
            wb_valid: s.valid && s.read,
            wb_quarter: s.q,
            wb_vgpr: s.vgpr,
            wb_two: s.two,
            wb_lanes: s.lanes,
            wb_data0: s.d0,
            wb_data1: s.d1,
            done: s.valid && s.last,
            fault: self.fault_out.0,
            fault_addr: self.fault_out.1,
        }
    }

    /// Clocks the rising edge that ends the cycle with inputs `i`.
    pub fn clock(&mut self, i: &LdsIn) {
        let cur = if self.run { self.held } else { *i };
        let d = DsOp {
            opcode: cur.opcode,
            offset: cur.offset as u16,
            wg_base: cur.wg_base,
            wg_words: cur.wg_words,
        };
        let go = !i.reset && (self.run || (i.valid && d.legal()));
        let last = go && self.q == 3;
        let mut stage = Stage::default();
        let mut fault_now = (false, 0);
        if go {
            let blocked = self.run && self.blocked;
            let r = access_quarter(
                &mut self.mem,
                &d,
                cur.exec as u16,
                blocked,
                (&i.addr, &i.data0, &i.data1),
            );
            let read = matches!(d.opcode, op::READ | op::READ2);
            stage = Stage {
                valid: true,
                read,
                two: d.opcode == op::READ2,
                last,
                q: self.q,
                vgpr: if read { cur.vdst } else { 0 },
                lanes: if read { cur.exec as u16 } else { 0 },
                d0: r.data0,
                d1: r.data1,
            };
            let addr = r.fault.unwrap_or(if blocked { self.fault_addr } else { 0 });
            fault_now = (blocked || r.fault.is_some(), addr);
        }
        if i.clear && !i.reset {
            let lo = u64::from(i.clear_base);
            let hi = lo + u64::from(i.clear_words);
            for (w, m) in self.mem.iter_mut().enumerate() {
                if (lo..hi).contains(&(w as u64)) {
                    *m = 0;
                }
            }
        }
        self.blocked = fault_now.0;
        self.fault_addr = fault_now.1;
        self.fault_out = if last { fault_now } else { (false, 0) };
        self.run = go && !last;
        self.q = if self.run { self.q + 1 } else { 0 };
        self.held = LdsIn {
            exec: cur.exec >> 16,
            ..cur
        };
        self.pipe.pop_back();
        self.pipe.push_front(stage);
        if i.reset {
            self.mem.fill(0);
            self.pipe.iter_mut().for_each(|s| *s = Stage::default());
        }
    }
}

impl crate::block::Clocked for LdsModel {
    type In = LdsIn;
    type Out = LdsOut;

    /// The outputs are registers and the quarter counter: they do not depend on the inputs.
    fn outputs(&self, _input: &LdsIn) -> LdsOut {
        LdsModel::outputs(self)
    }

    fn step(&mut self, input: &LdsIn) {
        self.clock(input);
    }
}

#[cfg(test)]
mod tests;
