//! The RTL scalar state (`hw/src/ctx/rtl/`, `CtxRegs`) against its reference model
//! (`rtgpu_hw::ctx::model::CtxRegsModel`) on random sequences of write-backs, operand reads,
//! copies, inits and resets, every output every cycle; and its operand resolution against the
//! behavioural compute unit's own (`Sregs::read`, `Sregs::read64`) for every code 0..=511 of
//! every context, on random registers written through the write ports.
//!
//! Mutation caught (applied, seen failing, restored): the RTL's SGPR file reading a pair's
//! second word at `code` instead of `code + 1` (`kr_prev` built as `i`): both tests fail
//! (`every_code_resolves_as_sregs_read_on_the_rtl` at its cycle 108, the first 64-bit read).
//! The model's own mutations are listed with its unit tests (`hw/src/ctx/model/`).

use proptest::prelude::*;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use rtgpu_hw::ctx::model::CtxRegsModel;
use rtgpu_hw::ctx::{CtxIn, CtxOut, ReadPort, WritePort, TB_CONTEXTS, TB_READS, TB_WRITES};
use rtgpu_testbench::sim::clock::Period;
use rtgpu_testbench::sim::harness::Harness;
use rtgpu_testbench::tb::ctx::{apply, random_input, read_outputs, CtxTbBlock};

/// The block and its model side by side.
struct Pair {
    h: Harness<CtxTbBlock>,
    model: CtxRegsModel,
    k: u64,
}

impl Pair {
    fn new() -> Self {
        let mut h = Harness::new(CtxTbBlock::default(), "ctx").expect("a harness");
        h.add_clock("clock", Period::ps(1000).expect("a period"), |u| {
            &mut u.clock
        })
        .expect("a clock");
        Self {
            h,
            model: CtxRegsModel::new(TB_CONTEXTS),
            k: 0,
        }
    }

    /// One cycle: the RTL's outputs, which must be the model's, then the edge on both (the
    /// ports `inp` leaves out idle).
    fn cycle(&mut self, inp: &CtxIn) -> Result<CtxOut, String> {
        let mut inp = inp.clone();
        inp.reads.resize(TB_READS, ReadPort::default());
        inp.writes.resize(TB_WRITES, WritePort::default());
        let inp = &inp;
        let got = self
            .h
            .cycle(|u| apply(u, inp), read_outputs)
            .map_err(|e| e.to_string())?;
        let want = self.model.outputs(inp);
        if got != want {
            return Err(format!(
                "cycle {}: inputs {inp:?}\nRTL {got:?}\nmodel {want:?}",
                self.k
            ));
        }
        self.model.clock(inp);
        self.k += 1;
        Ok(got)
    }
}

/// Every SGPR pair, VCC, EXEC, M0 and SCC of every context written at random through the
/// write ports (context 1's VCC and context 2's EXEC zero, for VCCZ and EXECZ).
fn fill(p: &mut Pair, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let mut writes = Vec::new();
    for c in 0..TB_CONTEXTS as u8 {
        let pairs = (0..=100).step_by(2).chain([106, 126]);
        for code in pairs {
            let zero = (c, code) == (1, 106) || (c, code) == (2, 126);
            writes.push(WritePort {
                ctx: c,
                sdst_we: true,
                sdst: code,
                wide: true,
                d: if zero { 0 } else { rng.gen() },
                scc_we: true,
                scc: rng.gen(),
                ..WritePort::default()
            });
        }
        writes.push(WritePort {
            ctx: c,
            sdst_we: true,
            sdst: 124,
            d: rng.gen(),
            ..WritePort::default()
        });
    }
    for chunk in writes.chunks(TB_WRITES) {
        p.cycle(&CtxIn {
            writes: chunk.to_vec(),
            ..CtxIn::default()
        })?;
    }
    Ok(())
}

/// Every code 0..=511 of every context at both widths through the read ports: each result is
/// what `Sregs::read` / `Sregs::read64` give on the model's registers (0 and `rbad` for their
/// errors).
fn read_every_code(p: &mut Pair, rng: &mut ChaCha8Rng) -> Result<(), String> {
    let mut reads = Vec::new();
    for ctx in 0..TB_CONTEXTS as u8 {
        for code in 0..512u16 {
            for wide in [false, true] {
                let literal = rng.gen();
                reads.push(ReadPort {
                    ctx,
                    code,
                    wide,
                    literal,
                });
            }
        }
    }
    for chunk in reads.chunks(TB_READS) {
        let out = p.cycle(&CtxIn {
            reads: chunk.to_vec(),
            ..CtxIn::default()
        })?;
        for (r, got) in chunk.iter().zip(&out.reads) {
            let regs = &p.model.state(usize::from(r.ctx)).r;
            let want = match r.wide {
                true => regs.read64(r.code, r.literal).ok(),
                false => regs.read(r.code, r.literal).ok().map(u64::from),
            };
            if (got.data, got.bad) != (want.unwrap_or(0), want.is_none()) {
                return Err(format!("{r:?}: RTL {got:?}, Sregs {want:?}"));
            }
        }
    }
    Ok(())
}

#[test]
fn every_code_resolves_as_sregs_read_on_the_rtl() {
    let mut p = Pair::new();
    let mut rng = ChaCha8Rng::seed_from_u64(95);
    fill(&mut p, &mut rng).unwrap();
    read_every_code(&mut p, &mut rng).unwrap();
}

/// Runs a cycle of random traffic per seed on the RTL and the model.
fn rtl_equals_model(seeds: &[u64]) -> Result<(), String> {
    let mut p = Pair::new();
    for &seed in seeds {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        p.cycle(&random_input(&mut rng))?;
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(32))]

    #[test]
    fn rtl_ctx_equals_the_model(seeds in proptest::collection::vec(any::<u64>(), 1..200)) {
        if let Err(e) = rtl_equals_model(&seeds) {
            prop_assert!(false, "{}", e);
        }
    }
}
