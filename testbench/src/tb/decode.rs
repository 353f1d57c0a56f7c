//! Testbench of the split/merge decode stage (`hw/src/isa/`): a directed sequence of
//! encoding examples (docs/assumptions.md#A2), then random words biased toward the SOPC/SOPP
//! spaces; the RTL is compared with the reference model every cycle.

use super::{drive, same, BlockTb, TbError, TbOptions, TbRun, TB_PERIOD_PS};
use crate::bench::engines::{of_tb, EngineCycles};
use crate::bench::BenchRow;
use crate::sim::cosim::verilog_of;
use crate::sim::waves::{Format, Gtkw};
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::isa::pws_decode_model::{DecodeIn, DecodeOut, PwsDecodeModel};
use rtgpu_hw::isa::PwsDecode;
use rust_hdl::core::prelude::*;
use std::path::Path;

/// The `decode` testbench.
pub struct DecodeTb;

/// The directed part: (reset, insn, valid), from the encodings of docs/assumptions.md#A2.
const DIRECTED: [(bool, u32, bool); 14] = [
    (false, 0x0000_0000, false), // idle
    (false, 0xBF7F_6B6A, true),  // split vcc_lo, vcc_hi
    (false, 0xBF7F_0504, true),  // split s4, s5
    (false, 0xBFFF_0000, true),  // merge
    (false, 0xBFFF_1234, true),  // merge, reserved bits ignored
    (false, 0xBF7F_05FF, true),  // split <literal>, s5: illegal
    (false, 0xBF7F_7C04, true),  // split s4, m0: illegal
    (false, 0xBF00_0100, true),  // s_cmp_eq_i32 s0, s1 (SOPC)
    (false, 0xBF81_0000, true),  // s_endpgm (SOPP)
    (false, 0x7E00_0280, true),  // v_mov_b32 v0, 0 (VOP1)
    (false, 0xBF7F_6B6A, false), // a split on the bus without valid: ignored
    (false, 0xBF7F_7F7E, true),  // split exec_lo, exec_hi
    (true, 0xBF7F_6B6A, true),   // reset wins over valid
    (false, 0x0000_0000, false), // idle
];

/// The stimulus of cycle `k`: the directed sequence, then random words.
pub fn stimulus(k: u64, rng: &mut ChaCha8Rng) -> DecodeIn {
    if let Some(&(reset, insn, valid)) = DIRECTED.get(k as usize) {
        return DecodeIn { reset, insn, valid };
    }
    DecodeIn {
        reset: rng.gen_ratio(1, 32),
        insn: biased_word(rng),
        valid: rng.gen_ratio(7, 8),
    }
}

/// Operand codes at the edges of the legal mask-source ranges (docs/assumptions.md#A2).
pub const EDGE_CODES: [u32; 15] = [
    0, 101, 102, 105, 106, 107, 108, 124, 125, 126, 127, 128, 208, 209, 255,
];

/// A random word: mostly SOPC/SOPP, often split/merge, with boundary operand codes.
pub fn biased_word(rng: &mut ChaCha8Rng) -> u32 {
    let low16 = |rng: &mut ChaCha8Rng| -> u32 {
        let pick = |rng: &mut ChaCha8Rng| {
            if rng.gen_bool(0.5) {
                EDGE_CODES[rng.gen_range(0..EDGE_CODES.len())]
            } else {
                rng.gen_range(0..256)
            }
        };
        pick(rng) | (pick(rng) << 8)
    };
    let op = |rng: &mut ChaCha8Rng| {
        if rng.gen_bool(0.5) {
            0x7F
        } else {
            rng.gen_range(0..0x80)
        }
    };
    match rng.gen_range(0..4) {
        0 => 0xBF00_0000 | (op(rng) << 16) | low16(rng),
        1 => 0xBF80_0000 | (op(rng) << 16) | low16(rng),
        2 => 0xBF7F_0000 | low16(rng),
        _ => rng.gen(),
    }
}

/// The decode stage's outputs as the model's type.
pub fn read_outputs(u: &PwsDecode) -> DecodeOut {
    DecodeOut {
        out_valid: u.out_valid.val(),
        is_sopc: u.is_sopc.val(),
        is_sopp: u.is_sopp.val(),
        is_split: u.is_split.val(),
        is_merge: u.is_merge.val(),
        ssrc0: u.ssrc0.val().index() as u8,
        ssrc1: u.ssrc1.val().index() as u8,
        illegal: u.illegal.val(),
    }
}

fn apply(u: &mut PwsDecode, inp: DecodeIn) {
    u.reset.next = inp.reset;
    u.insn.next = inp.insn.to_bits();
    u.valid.next = inp.valid;
}

fn marker(out: &DecodeOut) -> Option<String> {
    match (out.is_split, out.is_merge, out.illegal) {
        (true, _, true) => Some(format!("illegal split {:02x},{:02x}", out.ssrc0, out.ssrc1)),
        (true, _, false) => Some(format!("split {:02x},{:02x}", out.ssrc0, out.ssrc1)),
        (_, true, _) => Some("merge".into()),
        _ => None,
    }
}

fn layout() -> Gtkw {
    Gtkw::new("rtgpu decode: the split/merge decode stage (hw/src/isa/pws_decode.rs)")
        .window(DIRECTED.len() as u64 * TB_PERIOD_PS)
        .group(
            "fetch (inputs)",
            &[
                ("decode.clock", None),
                ("decode.reset", None),
                ("decode.valid", None),
                ("decode.insn", Some(Format::Insn)),
            ],
        )
        .group(
            "stage register",
            &[
                ("decode.full.q", None),
                ("decode.word.q", Some(Format::Insn)),
            ],
        )
        .group(
            "decoded (outputs)",
            &[
                ("decode.out_valid", None),
                ("decode.is_sopc", None),
                ("decode.is_sopp", None),
                ("decode.is_split", None),
                ("decode.is_merge", None),
                ("decode.ssrc0", Some(Format::Hex)),
                ("decode.ssrc1", Some(Format::Hex)),
                ("decode.illegal", None),
            ],
        )
        .group(
            "mask-source checks",
            &[
                ("decode.src0_check.ok", None),
                ("decode.src1_check.ok", None),
            ],
        )
}

impl BlockTb for DecodeTb {
    fn bench(&self, n: EngineCycles, dir: &Path) -> Option<Result<Vec<BenchRow>, String>> {
        of_tb(self, PwsDecode::default, |u| &mut u.clock, n, dir)
    }

    fn name(&self) -> &'static str {
        "decode"
    }

    fn description(&self) -> &'static str {
        "split/merge decode stage (hw/src/isa): directed examples + biased random words, RTL == model every cycle"
    }

    fn run(&self, opts: &TbOptions) -> Result<TbRun, TbError> {
        let cycles = opts.cycles.max(DIRECTED.len() as u64);
        let mut rng = ChaCha8Rng::seed_from_u64(opts.seed);
        let mut model = PwsDecodeModel::new();
        let mut checked = [0u64; 3];
        let mut run = drive(
            PwsDecode::default(),
            self.name(),
            |u| &mut u.clock,
            opts,
            cycles,
            |h, k| {
                let inp = stimulus(k, &mut rng);
                let got = h.cycle(|u| apply(u, inp), read_outputs)?;
                let want = model.outputs();
                same(k, &got, &want)?;
                model.clock(inp);
                checked[0] += u64::from(got.is_split && !got.illegal);
                checked[1] += u64::from(got.is_merge);
                checked[2] += u64::from(got.illegal);
                Ok(marker(&got))
            },
            layout,
        )?;
        run.summary = format!(
            "{cycles} cycles, RTL == model every cycle ({} splits, {} merges, {} illegal splits seen)",
            checked[0], checked[1], checked[2]
        );
        Ok(run)
    }

    fn verilog(&self) -> Result<String, String> {
        verilog_of(&mut PwsDecode::default())
    }
}
