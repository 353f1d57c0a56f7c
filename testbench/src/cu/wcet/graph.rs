//! The instruction-level control-flow graph of a compiled kernel and its loops: every
//! instruction with its decoded fields and successors, and every natural loop (the
//! instructions from a backward branch's target to the last branch back to it), checked to
//! nest properly and to be entered only at its header.

use rtgpu_hw::isa::insn_model::{decode_fields, format, unit, InsnFields};

/// One instruction of the graph.
#[derive(Clone, Copy, Debug)]
pub struct Node {
    /// Byte address.
    pub pc: u32,
    /// Decoded fields.
    pub f: InsnFields,
}

/// A natural loop: instructions `head..=end` (indices), entered only at `head`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Loop {
    /// The header (the backward branches' target).
    pub head: usize,
    /// The last backward branch to the header.
    pub end: usize,
}

/// The graph: nodes in address order, successors by index, the loops in address order of
/// their headers.
#[derive(Clone, Debug)]
pub struct Graph {
    /// Instructions.
    pub nodes: Vec<Node>,
    /// Successors of each node (a conditional branch: the target, then the fall-through).
    pub succs: Vec<Vec<usize>>,
    /// The loops, by header address.
    pub loops: Vec<Loop>,
}

/// Whether `f` is a SOPP branch (`s_branch`, `s_cbranch_*`).
pub fn is_sopp_branch(f: &InsnFields) -> bool {
    f.unit == unit::BRANCH && f.format == format::SOPP
}

impl Graph {
    /// Decodes `code` (entry pc 0) and builds the graph. `Err` names the instruction for an
    /// indirect branch, a branch outside the code, or loops that do not nest.
    pub fn new(code: &[u32]) -> Result<Graph, String> {
        let nodes = decode(code)?;
        let index = |pc: u32| nodes.binary_search_by_key(&pc, |n| n.pc).ok();
        let mut succs = Vec::with_capacity(nodes.len());
        for (i, n) in nodes.iter().enumerate() {
            let next = (i + 1 < nodes.len()).then_some(i + 1);
            let f = &n.f;
            let s = match () {
                _ if f.unit == unit::PROGRAM && f.opcode == 0x01 => vec![],
                _ if f.unit == unit::BRANCH && f.format != format::SOPP => {
                    return Err(format!(
                        "{:#06x}: an indirect branch cannot be analysed",
                        n.pc
                    ))
                }
                _ if is_sopp_branch(f) => {
                    let to = target(n);
                    let t = index(to).ok_or_else(|| {
                        format!("{:#06x}: branch to {to:#06x}, outside the code", n.pc)
                    })?;
                    match f.opcode {
                        0x02 => vec![t],
                        _ => [Some(t), next].into_iter().flatten().collect(),
                    }
                }
                _ => next.into_iter().collect(),
            };
            succs.push(s);
        }
        let loops = find_loops(&nodes, &succs)?;
        Ok(Graph {
            nodes,
            succs,
            loops,
        })
    }

    /// The loop whose header is `i`, if any.
    pub fn loop_at(&self, i: usize) -> Option<(usize, Loop)> {
        self.loops
            .iter()
            .enumerate()
            .find(|(_, l)| l.head == i)
            .map(|(k, l)| (k, *l))
    }

    /// The innermost loop holding node `i`, if any.
    pub fn innermost(&self, i: usize) -> Option<usize> {
        (0..self.loops.len())
            .filter(|&k| (self.loops[k].head..=self.loops[k].end).contains(&i))
            .min_by_key(|&k| self.loops[k].end - self.loops[k].head)
    }
}

/// The target address of a SOPP branch.
pub fn target(n: &Node) -> u32 {
    let next = n.pc + 4 * u32::from(n.f.words);
    next.wrapping_add((i32::from(n.f.imm as u16 as i16) * 4) as u32)
}

fn decode(code: &[u32]) -> Result<Vec<Node>, String> {
    let mut nodes = Vec::new();
    let mut i = 0usize;
    while i < code.len() {
        let f = decode_fields(code[i], code.get(i + 1).copied().unwrap_or(0));
        let pc = 4 * i as u32;
        if f.illegal {
            return Err(format!("{pc:#06x}: illegal instruction {:#010x}", code[i]));
        }
        nodes.push(Node { pc, f });
        i += usize::from(f.words.max(1));
    }
    Ok(nodes)
}

/// Loops from the backward edges: one per header, up to its last backward branch; they must
/// nest, and no edge may enter one other than at its header.
fn find_loops(nodes: &[Node], succs: &[Vec<usize>]) -> Result<Vec<Loop>, String> {
    let mut loops: Vec<Loop> = Vec::new();
    for (i, s) in succs.iter().enumerate() {
        for &t in s.iter().filter(|&&t| t <= i) {
            match loops.iter_mut().find(|l| l.head == t) {
                Some(l) => l.end = l.end.max(i),
                None => loops.push(Loop { head: t, end: i }),
            }
        }
    }
    loops.sort_by_key(|l| l.head);
    for (a, b) in loops.iter().zip(loops.iter().skip(1)) {
        if b.head <= a.end && b.end > a.end {
            return Err(format!(
                "{:#06x}: the loops at {:#06x} and {:#06x} overlap without nesting",
                nodes[b.head].pc, nodes[a.head].pc, nodes[b.head].pc
            ));
        }
    }
    for l in &loops {
        for (i, s) in succs.iter().enumerate() {
            let outside = i < l.head || i > l.end;
            if let Some(&t) = s.iter().find(|&&t| outside && t > l.head && t <= l.end) {
                return Err(format!(
                    "{:#06x}: a branch enters the loop at {:#06x} at {:#06x}, not at its header",
                    nodes[i].pc, nodes[l.head].pc, nodes[t].pc
                ));
            }
        }
    }
    Ok(loops)
}

impl Graph {
    /// The nodes from which `w` can be reached over one edge or more (`w` itself when it is
    /// in a loop).
    pub fn reaching(&self, w: usize) -> Vec<bool> {
        let mut preds = vec![Vec::new(); self.nodes.len()];
        for (i, s) in self.succs.iter().enumerate() {
            for &t in s {
                preds[t].push(i);
            }
        }
        let mut seen = vec![false; self.nodes.len()];
        let mut work = preds.get(w).cloned().unwrap_or_default();
        while let Some(p) = work.pop() {
            if !std::mem::replace(&mut seen[p], true) {
                work.extend(&preds[p]);
            }
        }
        seen
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtgpu_firmware::isa::assemble;

    fn graph(src: &str) -> Result<Graph, String> {
        Graph::new(&assemble(src, "t").unwrap().words())
    }

    #[test]
    fn loops_nest_and_are_entered_at_their_header() {
        let g = graph(
            "s_mov_b32 s1, 0\nouter:\ns_mov_b32 s2, 0\ninner:\ns_add_u32 s2, s2, 1\n\
             s_cmp_lt_u32 s2, 3\ns_cbranch_scc1 inner\ns_add_u32 s1, s1, 1\n\
             s_cmp_lt_u32 s1, 3\ns_cbranch_scc1 outer\ns_endpgm\n",
        )
        .unwrap();
        assert_eq!(g.loops.len(), 2);
        assert_eq!(g.loops[0], Loop { head: 1, end: 7 });
        assert_eq!(g.innermost(3), Some(1));
        assert!(g.succs[8].is_empty());
        let e = graph(
            "s_cmp_eq_u32 s1, 0\ns_cbranch_scc1 mid\ntop:\ns_nop 0\nmid:\ns_nop 0\n\
             s_branch top\ns_endpgm\n",
        )
        .unwrap_err();
        assert!(e.contains("not at its header"), "{e}");
    }
}
