//! Longest paths through a region of the instruction graph with its loops collapsed: a loop
//! with back-edge bound B costs B · (its longest iteration back to the header) + (its
//! longest path from the header out of it), innermost loops first.

use super::graph::Graph;
use std::collections::BTreeMap;

/// Edge costs and loop bounds over a graph.
pub struct Costed<'a> {
    /// The graph.
    pub g: &'a Graph,
    /// `cost(i, j)`: cycles from i's issue to j's.
    pub cost: &'a dyn Fn(usize, usize) -> u64,
    /// Per loop (index into `g.loops`): the most times its back edges are taken per entry.
    pub bounds: &'a [u64],
}

/// The longest costs from a region's entry: back to its header (a loop body) and out of it
/// (per target outside the region).
#[derive(Debug, Default)]
struct Exits {
    back: Option<u64>,
    out: BTreeMap<usize, u64>,
}

/// The region's entry (the first key of the distances).
fn dist_lo(dist: &BTreeMap<usize, u64>) -> usize {
    dist.keys().next().copied().unwrap_or(0)
}

fn relax(m: &mut BTreeMap<usize, u64>, k: usize, v: u64) {
    let e = m.entry(k).or_insert(v);
    *e = (*e).max(v);
}

impl Costed<'_> {
    /// The most cycles of one visit of the region `member` (its nodes lie in `lo..=hi`;
    /// entered at `lo`): from its entry's issue to the first issue outside it. `Err` when a
    /// backward edge in it is not a loop's.
    pub fn region(
        &self,
        lo: usize,
        hi: usize,
        member: &dyn Fn(usize) -> bool,
    ) -> Result<u64, String> {
        let e = self.walk(lo, hi, member, None)?;
        Ok(e.out.values().copied().max().unwrap_or(0))
    }

    /// The exits of loop `k` collapsed: per target outside it, the most cycles from the
    /// header's first issue.
    pub(super) fn loop_exits(&self, k: usize) -> Result<BTreeMap<usize, u64>, String> {
        let l = self.g.loops[k];
        let e = self.walk(l.head, l.end, &|_| true, Some(l.head))?;
        let pc = self.g.nodes[l.head].pc;
        let back = e
            .back
            .ok_or_else(|| format!("{pc:#06x}: loop without a back edge"))?;
        if e.out.is_empty() {
            return Err(format!("{pc:#06x}: the loop has no exit"));
        }
        let b = self.bounds[k];
        Ok(e.out
            .into_iter()
            .map(|(t, c)| (t, b.saturating_mul(back).saturating_add(c)))
            .collect())
    }

    /// Longest paths in address order from `lo` within `lo..=hi` ∩ `member`; `header`: the
    /// region is that loop's body and edges to it are back edges.
    fn walk(
        &self,
        lo: usize,
        hi: usize,
        member: &dyn Fn(usize) -> bool,
        header: Option<usize>,
    ) -> Result<Exits, String> {
        let mut dist: BTreeMap<usize, u64> = BTreeMap::from([(lo, 0)]);
        let mut ex = Exits::default();
        let mut i = lo;
        while i <= hi {
            let Some(&d) = dist.get(&i) else {
                i += 1;
                continue;
            };
            let inner = self.g.loop_at(i).filter(|_| header != Some(i));
            if let Some((k, l)) = inner {
                for (t, c) in self.loop_exits(k)? {
                    self.step(&mut dist, &mut ex, (i, t, d + c), (hi, member, header))?;
                }
                i = l.end + 1;
                continue;
            }
            if self.g.succs[i].is_empty() {
                // `s_endpgm`: the wavefront ends at its issue.
                relax(&mut ex.out, usize::MAX, d);
            }
            for &j in &self.g.succs[i] {
                let c = (self.cost)(i, j);
                self.step(&mut dist, &mut ex, (i, j, d + c), (hi, member, header))?;
            }
            i += 1;
        }
        Ok(ex)
    }

    /// One edge `from → to` reaching `to` after `at` cycles.
    fn step(
        &self,
        dist: &mut BTreeMap<usize, u64>,
        ex: &mut Exits,
        (from, to, at): (usize, usize, u64),
        (hi, member, header): (usize, &dyn Fn(usize) -> bool, Option<usize>),
    ) -> Result<(), String> {
        if Some(to) == header {
            ex.back = Some(ex.back.unwrap_or(0).max(at));
        } else if to > hi || !member(to) || to < from && to < dist_lo(dist) {
            relax(&mut ex.out, to, at);
        } else if to > from {
            relax(dist, to, at);
        } else {
            return Err(self.unstructured(from));
        }
        Ok(())
    }

    fn unstructured(&self, from: usize) -> String {
        format!(
            "{:#06x}: a backward branch that is not a loop's",
            self.g.nodes[from].pc
        )
    }
}
