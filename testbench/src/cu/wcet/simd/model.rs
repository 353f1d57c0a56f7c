//! The Sim-D program model of a kernel (the Sim-D paper's Section 4, docs/works/simd.md#wcet):
//! per work-group, a sequence of compute phases (the instructions from one tile transfer to
//! the next) and access phases (the transfers), read from the kernel itself.
//!
//! The kernel must be straight-line code (no branch: the paper requires every path to hold
//! the same transfers, and a straight line is the one path), without global memory accesses
//! (a compute phase does not touch DRAM), ending with a `tile_st` followed by `s_endpgm`
//! (the final phase is the store). A tile's shape (words, rows, period) must be known
//! statically: the scalar instructions before it are evaluated on what is the same in every
//! work-group (constants, the work-group size `s3`, the SGPRs the ABI leaves 0); its address
//! need not be, the access cost covers every placement.

use super::super::graph::{Graph, Node};
use rtgpu_firmware::isa::decode;
use rtgpu_firmware::pws_pass::{ScalarAccess, Sreg};
use rtgpu_hw::cu::regfile::Sregs;
use rtgpu_hw::cu::salu;
use rtgpu_hw::isa::insn_model::unit;
use serde::Serialize;

/// A tile transfer's shape (its address aside).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
pub struct TileShape {
    /// `tile_st` (scratchpad to DRAM).
    pub store: bool,
    /// Words per row.
    pub words: u32,
    /// Rows.
    pub rows: u32,
    /// Words from one row's start to the next (a one-row tile's: its width).
    pub period: u32,
}

impl TileShape {
    /// Words from the tile's first word to its last, plus one.
    pub fn span_words(&self) -> u64 {
        u64::from(self.rows - 1) * u64::from(self.period) + u64::from(self.words)
    }
}

/// One compute phase and the transfer that ends it.
#[derive(Clone, Debug)]
pub struct Segment {
    /// The compute phase's instructions, the tile instruction last.
    pub nodes: Vec<Node>,
    /// The transfer.
    pub tile: TileShape,
}

/// The SGPRs whose value is the same in every work-group, with those values.
struct Known {
    r: Sregs,
    known: [bool; 128],
}

impl Known {
    /// The ABI's initial state: `s3` the work-group size, `s[0:1]`, `s2` and `s4` unknown,
    /// the other SGPRs 0.
    fn initial(wg: u32) -> Known {
        let mut k = Known {
            r: Sregs::default(),
            known: [true; 128],
        };
        for s in [0, 1, 2, 4] {
            k.known[s] = false;
        }
        k.known[102..].iter_mut().for_each(|x| *x = false);
        k.r.s[3] = wg;
        k
    }

    fn is_known(&self, s: &Sreg) -> bool {
        match s {
            Sreg::Sgpr(n) => self.known[usize::from(*n).min(127)],
            _ => false,
        }
    }

    /// Executes `n` when it is SALU with known sources; what it writes is unknown otherwise.
    fn step(&mut self, n: &Node, acc: &ScalarAccess) {
        let ok = n.f.unit == unit::SALU
            && acc
                .reads
                .iter()
                .all(|s| self.is_known(s) || *s == Sreg::Scc)
            && salu::execute(&n.f, &mut self.r).is_ok();
        for w in &acc.writes {
            if let Sreg::Sgpr(s) = w {
                self.known[usize::from(*s).min(127)] = ok;
            }
        }
    }

    /// SGPR `n` if known.
    fn get(&self, n: usize) -> Option<u32> {
        self.known
            .get(n)
            .copied()
            .unwrap_or(false)
            .then(|| self.r.s[n])
    }
}

/// The program model of `code` for work-groups of `wg` work-items.
pub fn segments(code: &[u32], wg: u32) -> Result<Vec<Segment>, String> {
    let g = Graph::new(code)?;
    let mut known = Known::initial(wg);
    let mut out = Vec::new();
    let mut cur = Vec::new();
    for (i, n) in g.nodes.iter().enumerate() {
        let straight = g.succs[i].is_empty() || g.succs[i] == [i + 1];
        if !straight || n.f.unit == unit::BRANCH {
            return Err(format!(
                "{:#06x}: a branch; the Sim-D analysis takes straight-line kernels",
                n.pc
            ));
        }
        if n.f.unit == unit::VMEM {
            return Err(format!(
                "{:#06x}: a global memory access in a compute phase (Sim-D moves data by tiles)",
                n.pc
            ));
        }
        let (insn, _) = decode(&code[(n.pc / 4) as usize..]).map_err(|e| e.to_string())?;
        cur.push(*n);
        if n.f.unit == unit::TILE {
            let tile = shape(n, &known)?;
            out.push(Segment {
                nodes: std::mem::take(&mut cur),
                tile,
            });
        }
        known.step(n, &ScalarAccess::of(&insn));
    }
    final_store(&out, &cur)?;
    Ok(out)
}

/// The kernel ends with its final store: a `tile_st` then only `s_endpgm`.
fn final_store(segs: &[Segment], rest: &[Node]) -> Result<(), String> {
    let ends = rest.len() == 1 && rest[0].f.unit == unit::PROGRAM && rest[0].f.opcode == 0x01;
    match segs.last() {
        Some(s) if s.tile.store && ends => Ok(()),
        _ => Err("a Sim-D kernel ends with its final store: tile_st, then s_endpgm".into()),
    }
}

/// The shape of the tile instruction `n` from the known SGPRs.
fn shape(n: &Node, k: &Known) -> Result<TileShape, String> {
    let b = usize::from(n.f.src0);
    let (Some(wr), Some(period)) = (k.get(b + 2), k.get(b + 3)) else {
        return Err(format!(
            "{:#06x}: the tile's shape (s{}, s{}) is not the same in every work-group",
            n.pc,
            b + 2,
            b + 3
        ));
    };
    let (words, rows) = (wr & 0xffff, wr >> 16);
    if words == 0 || rows == 0 || (rows > 1 && period < words) {
        return Err(format!("{:#06x}: an empty or overlapping tile", n.pc));
    }
    Ok(TileShape {
        store: n.f.opcode == 0x7D,
        words,
        rows,
        period: if rows > 1 { period } else { words },
    })
}
