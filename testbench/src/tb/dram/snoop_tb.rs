//! `snoop`: the CAM of snoopy indexed transfers (hw/src/dram/rtl/snoop.rs) on the data bus of
//! real transfers: the reference model of the controller streams index buffers as tile
//! requests, 16 work-items snoop their words. Every cycle: RTL == a reference written from
//! Section 3.2.3 of the Sim-D paper (an entry matches when its word is one of the used words on the
//! bus), and at the end of each read every entry has hit exactly once, on its word's lane.

use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use crate::tb::{drive, same, BlockTb, TbError, TbOptions, TbRun};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::dram::model::{DramIn, DramModel, DramOut};
use rtgpu_hw::dram::snoop::Snoop;
use rtgpu_hw::dram::Part;
use rust_hdl::core::prelude::*;

/// Entries of the CAM in the testbench (a 16-lane work-item group).
pub const ENTRIES: usize = 16;

/// The `snoop` testbench.
pub struct SnoopTb;

/// One cycle of the CAM's inputs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SnoopIn {
    /// Reset.
    pub reset: bool,
    /// Clear the hits.
    pub clear: bool,
    /// Load an entry.
    pub load: Option<(usize, u32)>,
    /// The bus: (first word address, used-word mask) when data moves.
    pub bus: Option<(u32, u8)>,
}

/// The CAM's outputs in one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct SnoopOut {
    /// Entries matching now.
    pub match_now: u32,
    /// Entries that have hit.
    pub hit: u32,
    /// Each entry's lane.
    pub hit_word: Vec<u8>,
    /// Write lanes supplied.
    pub wmask: u8,
}

/// The reference: Section 3.2.3 of the Sim-D paper read literally.
#[derive(Default)]
pub struct Reference {
    addr: [Option<u32>; ENTRIES],
    hit: u32,
    word: [u8; ENTRIES],
}

impl Reference {
    /// This cycle's outputs, then the edge.
    pub fn step(&mut self, inp: &SnoopIn) -> SnoopOut {
        let mut out = SnoopOut {
            hit: self.hit,
            hit_word: self.word.to_vec(),
            ..SnoopOut::default()
        };
        let mut now = [None; ENTRIES];
        if let Some((base, mask)) = inp.bus {
            for (e, a) in self.addr.iter().enumerate() {
                let lane = a.and_then(|a| a.checked_sub(base)).filter(|&d| d < 4);
                if let Some(l) = lane.filter(|&l| mask >> l & 1 == 1) {
                    out.match_now |= 1 << e;
                    out.wmask |= 1 << l;
                    now[e] = Some(l as u8);
                }
            }
        }
        for (e, l) in now.iter().enumerate() {
            if let Some(l) = l {
                self.hit |= 1 << e;
                self.word[e] = *l;
            }
        }
        if let Some((e, a)) = inp.load {
            self.addr[e] = Some(a);
        }
        if inp.clear {
            self.hit = 0;
            self.word = [0; ENTRIES];
        }
        if inp.reset {
            *self = Self::default();
        }
        out
    }
}

/// The bus words of a controller cycle, as the data path sees them.
pub fn bus(part: &Part, o: &DramOut) -> Option<(u32, u8)> {
    o.dq_valid.then(|| {
        let burst = part.burst_of(o.dq_bg, o.dq_bank, o.dq_row, o.dq_col);
        (burst * 16 + u32::from(o.dq_beat) * 4, o.dq_mask)
    })
}

/// The stimulus: for each transfer, load 16 indexes inside a buffer, then stream the buffer
/// (a tile request on the controller model) and clear.
fn stimulus(seed: u64, transfers: usize) -> Vec<SnoopIn> {
    let part = Part::DDR4_3200AA_X16;
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let mut script = vec![SnoopIn {
        reset: true,
        ..SnoopIn::default()
    }];
    for _ in 0..transfers {
        let start = rng.gen_range(0..1u32 << 20);
        let words = rng.gen_range(1..400);
        for e in 0..ENTRIES {
            script.push(SnoopIn {
                load: Some((e, start + rng.gen_range(0..words))),
                ..SnoopIn::default()
            });
        }
        let mut model = DramModel::new(part, 0);
        let mut t = 0;
        loop {
            let inp = DramIn {
                req_valid: t == 0,
                req_write: rng.gen_bool(0.3),
                req_addr: start,
                req_words: words,
                req_period: words,
                req_count: 1,
                ..DramIn::default()
            };
            let o = model.step(&inp);
            script.push(SnoopIn {
                bus: bus(&part, &o),
                ..SnoopIn::default()
            });
            t += 1;
            if o.done {
                break;
            }
        }
        script.push(SnoopIn {
            clear: true,
            ..SnoopIn::default()
        });
    }
    script
}

fn apply(u: &mut Snoop<ENTRIES>, inp: &SnoopIn) {
    u.reset.next = inp.reset;
    u.clear.next = inp.clear;
    u.load.next = inp.load.is_some();
    let (e, a) = inp.load.unwrap_or((0, 0));
    u.load_entry.next = (e as u64).to_bits();
    u.load_addr.next = u64::from(a).to_bits();
    u.dq_valid.next = inp.bus.is_some();
    let (base, mask) = inp.bus.unwrap_or((0, 0));
    u.dq_base.next = u64::from(base & 0x3FFF_FFFF).to_bits();
    u.dq_mask.next = u64::from(mask).to_bits();
}

fn read(u: &Snoop<ENTRIES>) -> SnoopOut {
    let bits = |v: &[Signal<Out, Bit>; ENTRIES]| {
        v.iter()
            .enumerate()
            .fold(0u32, |acc, (e, s)| acc | (u32::from(s.val()) << e))
    };
    SnoopOut {
        match_now: bits(&u.match_now),
        hit: bits(&u.hit),
        hit_word: u.hit_word.iter().map(|w| w.val().index() as u8).collect(),
        wmask: u.wmask.val().index() as u8,
    }
}

impl BlockTb for SnoopTb {
    fn name(&self) -> &'static str {
        "snoop"
    }

    fn description(&self) -> &'static str {
        "snoopy indexed transfer CAM, 16 entries, on the data bus of streamed index buffers: RTL == reference every cycle, every entry hits its word"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let script = stimulus(opts.seed, (opts.cycles / 150).max(2) as usize);
        let mut model = Reference::default();
        let mut full = 0usize;
        let mut run = drive(
            Snoop::<ENTRIES>::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            script.len() as u64,
            |h, k| {
                let inp = script[k as usize];
                let got = h.cycle(|u| apply(u, &inp), read)?;
                same(k, &got, &model.step(&inp))?;
                if inp.clear {
                    if got.hit != (1 << ENTRIES) - 1 {
                        return Err(TbError::Mismatch {
                            cycle: k,
                            detail: format!(
                                "entries {:#x} never saw their word",
                                !got.hit & 0xFFFF
                            ),
                            waves: None,
                        });
                    }
                    full += 1;
                    return Ok(Some("transfer done".into()));
                }
                Ok(None)
            },
            || layout(self.name()),
        )?;
        run.summary = format!(
            "{} cycles, {full} transfers, every entry hit its word, RTL == reference every cycle",
            script.len()
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut Snoop::<ENTRIES>::default())
    }
}

fn layout(n: &str) -> Gtkw {
    let p = |s: &str| format!("{n}.{s}");
    let bus = [
        ("dq_valid", None),
        ("dq_base", Some(Format::Hex)),
        ("dq_mask", Some(Format::Bin)),
        ("wmask", Some(Format::Bin)),
    ]
    .map(|(s, f)| (p(s), f));
    let mut entries = Vec::new();
    for e in 0..4 {
        for (s, f) in [
            ("addr", Some(Format::Hex)),
            ("match_now", None),
            ("hit", None),
            ("hit_word", Some(Format::Dec)),
        ] {
            let name = if s == "addr" {
                format!("{n}.addr${e}.q")
            } else {
                format!("{n}.{s}${e}")
            };
            entries.push((name, f));
        }
    }
    Gtkw::new(&format!(
        "rtgpu {n}: the snoopy-transfer CAM (hw/src/dram/snoop.rs)"
    ))
    .group("data bus", &crate::sim::waves::as_refs(&bus))
    .group("entries 0-3", &crate::sim::waves::as_refs(&entries))
}
