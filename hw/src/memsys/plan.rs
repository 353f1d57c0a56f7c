//! The release configuration of the reordering unit for a launch (rule R1's
//! traces): per
//! wavefront, its global ld/st instances in program order, as the kernel analyzer found them.
//!
//! # The trace table in data memory
//!
//! The driver writes the table into data memory and gives its byte address in the launch
//! register `TRACE_ADDR`; the compute unit reads it at the launch. In 32-bit words from the
//! table's start:
//! - word 0: the number of wavefronts N (all of the launch, by global index
//!   `work-group · waves per work-group + wave`);
//! - words 1..=N+1: offsets (words from the table's start) of each wavefront's entries;
//!   wavefront i has entries in `[off[i], off[i+1])`, two words each;
//! - an entry: the instruction's byte PC, then the unit's trace entry (`pc_idx` \[7:0\],
//!   `epoch` \[15:8\], `k` \[31:16\]).

use crate::cu::memory::Memory;
use crate::reorder::model::entry;

/// The most trace entries of one wavefront (the unit's T).
pub const MAX_TRACE: usize = 256;

/// One global ld/st instance of a wavefront.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceEntry {
    /// The instruction's byte PC.
    pub pc: u32,
    /// Its index among the kernel's ld/st PCs.
    pub pc_idx: u8,
    /// Barriers the wavefront passed before it.
    pub epoch: u8,
    /// Earlier instances of the same PC in the wavefront.
    pub k: u16,
}

impl TraceEntry {
    /// The unit's 32-bit trace entry.
    pub fn word(&self) -> u32 {
        entry(self.pc_idx, self.epoch, self.k)
    }
}

/// Every wavefront's trace, by global wavefront index.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ReorderPlan {
    /// The traces.
    pub waves: Vec<Vec<TraceEntry>>,
}

impl ReorderPlan {
    /// The table's words (see the module documentation).
    pub fn encode(&self) -> Vec<u32> {
        let n = self.waves.len();
        let mut offs = Vec::with_capacity(n + 1);
        let mut at = (n + 2) as u32;
        for w in &self.waves {
            offs.push(at);
            at += 2 * w.len() as u32;
        }
        offs.push(at);
        let mut out = vec![n as u32];
        out.extend(offs);
        for e in self.waves.iter().flatten() {
            out.extend([e.pc, e.word()]);
        }
        out
    }

    /// Reads the table at byte address `addr`; `waves` is the launch's wavefront count.
    pub fn read(mem: &Memory, addr: u64, waves: usize) -> Result<Self, String> {
        let word = |i: u64| {
            mem.read(addr + 4 * i)
                .map_err(|_| format!("the trace table at {addr:#x} runs past data memory"))
        };
        let n = word(0)? as usize;
        if n != waves {
            return Err(format!(
                "the trace table has {n} wavefronts, the launch {waves}"
            ));
        }
        let mut plan = ReorderPlan::default();
        for i in 0..n as u64 {
            let (a, b) = (word(1 + i)?, word(2 + i)?);
            if b < a || (b - a) % 2 == 1 || ((b - a) / 2) as usize > MAX_TRACE {
                return Err(format!("wavefront {i}'s trace entries [{a}, {b}) are bad"));
            }
            let entries = (u64::from(a)..u64::from(b))
                .step_by(2)
                .map(|j| Ok(decode(word(j)?, word(j + 1)?)))
                .collect::<Result<_, String>>()?;
            plan.waves.push(entries);
        }
        Ok(plan)
    }

    /// The sequence number of instance `k` of `pc` in wavefront `wave`, and its entry.
    pub fn seq_of(&self, wave: usize, pc: u32, k: u16) -> Option<(u8, TraceEntry)> {
        let t = self.waves.get(wave)?;
        let i = t.iter().position(|e| e.pc == pc && e.k == k)?;
        Some((i as u8, t[i]))
    }
}

fn decode(pc: u32, w: u32) -> TraceEntry {
    TraceEntry {
        pc,
        pc_idx: w as u8,
        epoch: (w >> 8) as u8,
        k: (w >> 16) as u16,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_round_trips_through_memory_and_seq_follows_program_order() {
        let e = |pc, pc_idx, epoch, k| TraceEntry {
            pc,
            pc_idx,
            epoch,
            k,
        };
        let plan = ReorderPlan {
            waves: vec![
                vec![e(0x10, 0, 0, 0), e(0x20, 1, 0, 0), e(0x10, 0, 1, 1)],
                vec![],
            ],
        };
        let words = plan.encode();
        assert_eq!(&words[..4], &[2, 4, 10, 10]);
        let mut mem = Memory::new(4096);
        for (i, w) in words.iter().enumerate() {
            mem.write(0x100 + 4 * i as u64, *w).unwrap();
        }
        assert_eq!(ReorderPlan::read(&mem, 0x100, 2).unwrap(), plan);
        assert!(ReorderPlan::read(&mem, 0x100, 3).is_err());
        assert!(ReorderPlan::read(&mem, 4092, 2).is_err());
        assert_eq!(plan.seq_of(0, 0x10, 1).map(|s| s.0), Some(2));
        assert_eq!(plan.seq_of(0, 0x20, 1), None);
        assert_eq!(plan.seq_of(1, 0x10, 0), None);
    }
}
