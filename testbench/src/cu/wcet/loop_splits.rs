//! Splits inside loops (the PWS paper's bfs pattern: divergence inside the main loop).
//!
//! The PWS pass lays out split points on loop-free code only: a loop is an opaque region to
//! it, and a `split` inside one is rejected (docs/assumptions.md#A26). The analysis keeps such a
//! split as the kernel writes it: before the pass, every `split` and `merge` inside a loop is
//! [`hide`]n behind a placeholder word of the same size (an `s_nop` with an immediate the
//! kernel does not use), which the pass copies like any other instruction of the opaque loop;
//! after it, [`Hidden::restore`] puts them back at their new addresses. The kernel must then
//! follow the layout the pass would have produced (`s_waitcnt 0` before the `split` and the
//! `merge`, an `s_cbranch_execz` over each arm, the kernels README's rules); the run-time
//! checks of the compute unit (`split_pending_memory`, `split_overflow`) and the random-input
//! runs catch a kernel that does not.
//!
//! How such a split is bounded (see [`super::static_costs`]): the loop body's longest path
//! through the instruction graph takes both arms one after the other (the branch over an arm
//! is costed taken or not, whichever is longer). Split, each half runs one arm from the same
//! start, each along a path of that graph, so the later half reaches the `merge` no later
//! than the serialized path would; the `split` and `merge` are charged e_split and e_merge
//! and the wait for their SIMD group's command port on top (in no-split mode they are the
//! one-cycle no-ops of the compute unit). The memory pipes shared with the other half are in
//! every access's cost already (units − 1, docs/assumptions.md#A30).

use super::graph::Graph;
use rtgpu_hw::isa::insn_model::{format, unit};
use std::collections::BTreeSet;

/// SOPP `s_nop` with a 16-bit immediate: the placeholder's encoding.
const S_NOP: u32 = 0xBF80_0000;

/// The `split`s and `merge`s hidden from the pass, and the placeholders that stand for them.
#[derive(Clone, Debug, Default)]
pub struct Hidden {
    /// The placeholder of a `split` and the word it stands for, per distinct split word.
    splits: Vec<(u32, u32)>,
    /// The placeholder of a `merge` and the `merge` word.
    merge: Option<(u32, u32)>,
}

/// The in-loop `split`s and `merge`s of a restored compiled kernel, by instruction index.
#[derive(Clone, Debug, Default)]
pub struct InLoop {
    /// Indices (into the graph's nodes) of the `split`s inside loops.
    pub splits: BTreeSet<usize>,
    /// Indices of the `merge`s inside loops.
    pub merges: BTreeSet<usize>,
}

impl InLoop {
    /// The PWS instructions inside loops of `g`.
    pub fn of(g: &Graph) -> InLoop {
        let mut r = InLoop::default();
        for (i, n) in g.nodes.iter().enumerate() {
            let in_loop = g.innermost(i).is_some();
            if n.f.unit != unit::PWS || !in_loop {
                continue;
            }
            match n.f.format == format::SOPP {
                true => r.merges.insert(i),
                false => r.splits.insert(i),
            };
        }
        r
    }

    /// Whether there is none.
    pub fn is_empty(&self) -> bool {
        self.splits.is_empty() && self.merges.is_empty()
    }
}

/// Replaces every `split` and `merge` inside a loop of `code` by a placeholder the pass
/// copies unchanged. `Err` when the code cannot be decoded.
pub fn hide(code: &[u32]) -> Result<(Vec<u32>, Hidden), String> {
    let g = Graph::new(code)?;
    let found = InLoop::of(&g);
    let mut out = code.to_vec();
    let mut h = Hidden::default();
    if found.is_empty() {
        return Ok((out, h));
    }
    let used: BTreeSet<u32> = code.iter().copied().collect();
    let mut free = (0x5A00u32..0xFFFF)
        .map(|imm| S_NOP | imm)
        .filter(|w| !used.contains(w));
    let mut next = || free.next().ok_or("no free placeholder word");
    for &i in &found.splits {
        let at = (g.nodes[i].pc / 4) as usize;
        let word = code[at];
        let ph = match h.splits.iter().find(|(_, w)| *w == word) {
            Some(&(ph, _)) => ph,
            None => {
                let ph = next()?;
                h.splits.push((ph, word));
                ph
            }
        };
        out[at] = ph;
    }
    for &i in &found.merges {
        let at = (g.nodes[i].pc / 4) as usize;
        let ph = match h.merge {
            Some((ph, _)) => ph,
            None => {
                let ph = next()?;
                h.merge = Some((ph, code[at]));
                ph
            }
        };
        out[at] = ph;
    }
    Ok((out, h))
}

impl Hidden {
    /// Puts the hidden instructions back into the compiled `code`.
    pub fn restore(&self, code: &mut [u32]) {
        let all = self.splits.iter().chain(self.merge.iter());
        for &(ph, word) in all {
            code.iter_mut()
                .filter(|w| **w == ph)
                .for_each(|w| *w = word);
        }
    }

    /// Whether anything was hidden.
    pub fn is_empty(&self) -> bool {
        self.splits.is_empty() && self.merge.is_none()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtgpu_firmware::isa::assemble;

    /// A split inside a loop is hidden and comes back; one outside is left alone.
    #[test]
    fn in_loop_splits_are_hidden_and_restored() {
        let src = "s_mov_b32 s12, 0\nl:\ns_waitcnt 0\nsplit vcc_lo, vcc_hi\n\
                   s_and_saveexec_b64 s[6:7], vcc\ns_or_b64 exec, exec, s[6:7]\ns_waitcnt 0\n\
                   merge\ns_add_u32 s12, s12, 1\ns_cmp_lt_u32 s12, 3\ns_cbranch_scc1 l\n\
                   split vcc_lo, vcc_hi\ns_endpgm\n";
        let code = assemble(src, "t").unwrap().words();
        let (hidden, h) = hide(&code).unwrap();
        let g = Graph::new(&hidden).unwrap();
        let left = InLoop::of(&g);
        assert!(left.is_empty(), "{left:?}");
        assert_eq!(hidden.iter().zip(&code).filter(|(a, b)| a != b).count(), 2);
        let mut back = hidden.clone();
        h.restore(&mut back);
        assert_eq!(back, code);
        let found = InLoop::of(&Graph::new(&code).unwrap());
        assert_eq!((found.splits.len(), found.merges.len()), (1, 1));
    }
}
