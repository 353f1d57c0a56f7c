//! The model against the behavioural compute unit's `ds_*` execution, and its schedule.

use super::*;
use crate::cu::memory::{Memory, Port, Writeback};
use crate::cu::regfile::{Sregs, Vrf};
use crate::isa::insn_model::{format, unit, InsnFields};
use proptest::prelude::*;

/// RAM words of the cases.
const W: usize = 64;

/// One random instruction on a random partition of a random RAM.
#[derive(Clone, Debug)]
struct Case {
    opcode: u8,
    offset: u16,
    base: u16,
    words: u32,
    exec: u64,
    addr: [u32; 64],
    data0: [u32; 64],
    data1: [u32; 64],
    ram: Vec<u32>,
}

fn case() -> impl Strategy<Value = Case> {
    (
        prop::sample::select(op::ALL.to_vec()),
        (1u32..=W as u32).prop_flat_map(|words| (Just(words), 0..=(W as u32 - words))),
        prop_oneof![
            Just(u64::MAX),
            any::<u64>(),
            (0u32..64).prop_map(|l| 1u64 << l)
        ],
        any::<u64>(),
        prop::collection::vec(any::<u32>(), W),
    )
        .prop_map(|(opcode, (words, base), exec, seed, ram)| {
            let mut s = seed;
            let mut next = move || {
                s = s
                    .wrapping_mul(6364136223846793005)
                    .wrapping_add(1442695040888963407);
                (s >> 33) as u32
            };
            // Mostly aligned in-range addresses over few words (lanes collide), sometimes
            // unaligned or past the partition; offsets small.
            let two = matches!(opcode, op::WRITE2 | op::READ2);
            let offset = if two {
                ((next() % 4) | ((next() % 4) << 8)) as u16
            } else {
                (next() % 3 * 4) as u16
            };
            let addr = std::array::from_fn(|_| match next() % 40 {
                0 => next() % (4 * words + 16),
                1 => 4 * words + next() % 64,
                _ => 4 * (next() % words.min(6)),
            });
            let data0 = std::array::from_fn(|_| next());
            let data1 = std::array::from_fn(|_| next());
            Case {
                opcode,
                offset,
                base: base as u16,
                words,
                exec,
                addr,
                data0,
                data1,
                ram,
            }
        })
}

/// What the behavioural compute unit leaves: the partition after, the loaded dwords of the
/// active lanes (lane, first, second), the fault.
type Effect = (Vec<u32>, Vec<(usize, u32, u32)>, Option<u32>);

/// The behavioural compute unit's execution of the case.
fn behavioural(c: &Case) -> Effect {
    let mut v = Vrf::default();
    for l in 0..64 {
        v.set(1, l, c.addr[l]);
        v.set(2, l, c.data0[l]);
        v.set(3, l, c.data1[l]);
    }
    let f = InsnFields {
        format: format::DS,
        unit: unit::LDS,
        opcode: u16::from(c.opcode),
        dst: 8,
        src0: 1,
        src1: 2,
        src2: 3,
        imm: u32::from(c.offset),
        ..InsnFields::default()
    };
    let base = usize::from(c.base);
    let mut lds = c.ram[base..base + c.words as usize].to_vec();
    let mut mem = Memory::new(0);
    let mut spare = Vec::new();
    let r = Sregs::default();
    let res = Port {
        mem: &mut mem,
        lds: &mut lds,
        r: &r,
        v: &v,
        eff: c.exec,
        spare: &mut spare,
    }
    .execute(&f);
    match res {
        Ok(a) => {
            let loads = match a.writeback {
                Some(Writeback::Vgpr { data, n, .. }) => data
                    .iter()
                    .map(|&(l, d)| (l, d[0], if n == 2 { d[1] } else { 0 }))
                    .collect(),
                _ => Vec::new(),
            };
            (lds, loads, None)
        }
        Err(crate::cu::memory::Fault::Lds(a)) => (lds, Vec::new(), Some(a)),
        Err(e) => panic!("unexpected {e:?}"),
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    /// [`access`] equals the behavioural compute unit's DS execution on random instructions:
    /// the partition's words after (also after a fault: the lanes before it wrote), the
    /// words outside it untouched, the loaded dwords of a load that does not fault, the
    /// first faulting address. Fails on a model whose `ds_write2_b32` lanes after a fault
    /// still write (`if blocked && d.opcode != op::WRITE2` in `access_quarter`).
    #[test]
    fn model_equals_the_behavioural_lds(c in case()) {
        let (part, loads, fault) = behavioural(&c);
        let mut ram = c.ram.clone();
        let d = DsOp { opcode: c.opcode, offset: c.offset, wg_base: c.base, wg_words: c.words };
        let w = access(&mut ram, &d, c.exec, &c.addr, &c.data0, &c.data1);
        let (lo, hi) = (usize::from(c.base), usize::from(c.base) + c.words as usize);
        prop_assert_eq!(&ram[lo..hi], &part[..]);
        prop_assert_eq!(&ram[..lo], &c.ram[..lo]);
        prop_assert_eq!(&ram[hi..], &c.ram[hi..]);
        prop_assert_eq!(w.fault, fault);
        for (l, d0, d1) in loads {
            prop_assert_eq!((w.data0[l], w.data1[l]), (d0, d1), "lane {}", l);
        }
    }
}

/// A `ds_write_b32` then a `ds_read_b32` of the words written: the read's quarters come out
/// in cycles 13..16 after its issue, `done` with quarter 3 (cycle 16) for both, `busy` in the
/// three cycles after each issue. Fails with one pipeline stage fewer (`STAGES` =
/// `LATENCY` − 4).
#[test]
fn latency_sixteen_from_the_quarters_and_the_pipeline() {
    let mut m = LdsModel::new(W);
    let base = LdsIn {
        valid: true,
        exec: u64::MAX,
        wg_words: W as u32,
        vdst: 5,
        ..LdsIn::default()
    };
    let mut seen = Vec::new();
    for cycle in 0..24u32 {
        let o = m.outputs();
        if o.done || o.wb_valid {
            seen.push((cycle, o.wb_valid, o.wb_quarter, o.done));
        }
        assert_eq!(o.busy, matches!(cycle, 1..=3 | 5..=7), "cycle {cycle}");
        let q = u32::from(o.quarter);
        let opcode = if cycle < 4 { op::WRITE } else { op::READ };
        m.clock(&LdsIn {
            opcode,
            addr: std::array::from_fn(|l| 4 * (16 * q + l as u32)),
            data0: std::array::from_fn(|l| 100 + 16 * q + l as u32),
            valid: cycle == 0 || cycle == 4,
            ..base
        });
        if cycle == 19 {
            assert_eq!(m.outputs().wb_data0[15], 100 + 63);
        }
    }
    assert_eq!(
        seen,
        [
            (16, false, 3, true),
            (17, true, 0, false),
            (18, true, 1, false),
            (19, true, 2, false),
            (20, true, 3, true),
        ]
    );
}

/// A fault in quarter 1 is reported in cycle 4 with its address; quarters 2 and 3 write
/// nothing, quarter 0 wrote. Fails on a model that does not block the lanes after a fault.
#[test]
fn a_fault_stops_the_writes_after_it() {
    let mut m = LdsModel::new(W);
    for cycle in 0..6u32 {
        let q = u32::from(m.outputs().quarter);
        let o = m.outputs();
        assert_eq!(
            (o.fault, o.fault_addr),
            (cycle == 4, if cycle == 4 { 6 } else { 0 })
        );
        m.clock(&LdsIn {
            valid: cycle == 0,
            opcode: op::WRITE,
            exec: u64::MAX,
            wg_words: W as u32,
            addr: std::array::from_fn(|l| {
                if q == 1 && l == 3 {
                    6
                } else {
                    4 * (16 * q + l as u32)
                }
            }),
            data0: [7; QUARTER],
            ..LdsIn::default()
        });
    }
    assert!(m.mem[..19].iter().all(|&x| x == 7));
    assert!(m.mem[19..].iter().all(|&x| x == 0));
}
