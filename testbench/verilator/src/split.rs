//! Splits rust-hdl's combinational `always @(*)` blocks into independent ones before
//! Verilator sees them.
//!
//! rust-hdl writes a block's whole `update` as one `always @(*)`: it drives the inputs of the
//! block's sub-blocks and reads their outputs. Verilator orders combinational logic by
//! `always` block, so a block whose output feeds back into one of its sub-block's inputs
//! (nearly every block with a combinational sub-block) is a loop to it, even when no signal
//! depends on itself. Verilator evaluates such loops in its `act` region, again and again
//! until they settle; on the compute unit's system that was two thirds of the time.
//!
//! The split keeps the meaning of the block. Its top-level statements (an assignment, or an
//! `if` with its `else` branches) are grouped so that:
//! - the statements that write a signal are in one group, in their order (a signal's default
//!   and the `if`s that override it);
//! - a statement that reads a signal which a later statement of the block writes is in that
//!   signal's group (it reads the value at its own place in the block, not the final one);
//! - groups that read each other's signals in a cycle are one group (the split adds no loop
//!   between `always` blocks that the whole block did not have).
//!
//! Each group becomes its own `always @(*)`, its statements in the block's order. A statement
//! that reads a signal whose writers all come before it reads the final value of the signal,
//! which is the value at its place; so every statement sees what it saw in the whole block.
//! Only rust-hdl's blocks are split (an `always @(*)` right after rust-hdl's `// Update code`
//! comment); hand-written Verilog is left as it is.

use std::collections::HashMap;

/// The line rust-hdl writes before a block's `always @(*)`.
const MARK: &str = "// Update code";
/// A rust-hdl block's combinational `always` and its end.
const OPEN: &str = "    always @(*) begin";
const CLOSE: &str = "    end";
/// The indentation of a top-level statement of the block.
const STMT: &str = "        ";

/// `verilog` with every rust-hdl `always @(*)` split into independent blocks.
pub fn split(verilog: &str) -> String {
    let lines: Vec<&str> = verilog.lines().collect();
    let mut out = String::with_capacity(verilog.len() + verilog.len() / 8);
    let mut i = 0;
    while i < lines.len() {
        let marked = i > 0 && lines[i - 1].trim() == MARK;
        if lines[i] == OPEN && marked {
            if let Some(len) = lines[i + 1..].iter().position(|l| *l == CLOSE) {
                let stmts: Vec<Stmt> = statements(&lines[i + 1..i + 1 + len])
                    .into_iter()
                    .map(Stmt::new)
                    .collect();
                write_groups(&mut out, &stmts);
                i += len + 2;
                continue;
            }
        }
        out.push_str(lines[i]);
        out.push('\n');
        i += 1;
    }
    out
}

/// The block's top-level statements: a line at the statement indentation starts one (unless it
/// is an `else` or an `end` of the one before); deeper lines belong to the one before.
fn statements<'a>(body: &[&'a str]) -> Vec<Vec<&'a str>> {
    let mut stmts: Vec<Vec<&str>> = Vec::new();
    for &line in body {
        let top = line.starts_with(STMT) && !line[STMT.len()..].starts_with(' ');
        let rest = line.trim_start();
        let continues = matches!(&rest[..ident_len(rest)], "else" | "end");
        match stmts.last_mut() {
            Some(last) if !top || continues => last.push(line),
            _ => stmts.push(vec![line]),
        }
    }
    stmts
}

/// The signal a line assigns (`name = …` or `name[…] = …`), if it is an assignment.
fn written(line: &str) -> Option<&str> {
    let rest = line.trim_start();
    let name_len = ident_len(rest);
    let name = &rest[..name_len];
    if name_len == 0 || matches!(name, "if" | "else" | "end" | "begin" | "case" | "for") {
        return None;
    }
    let mut tail = rest[name_len..].trim_start();
    if tail.starts_with('[') {
        tail = tail[tail.find(']')? + 1..].trim_start();
    }
    (tail.starts_with('=') && !tail.starts_with("==")).then_some(name)
}

/// The length of the identifier (letters, digits, `_`, `$`) that `s` starts with.
fn ident_len(s: &str) -> usize {
    let b = s.as_bytes();
    if b.is_empty() || !(b[0].is_ascii_alphabetic() || b[0] == b'_') {
        return 0;
    }
    b.iter()
        .position(|&c| !(c.is_ascii_alphanumeric() || c == b'_' || c == b'$'))
        .unwrap_or(b.len())
}

/// Every identifier of a statement (over-approximate: keywords and literal digits too,
/// which no statement writes).
fn idents<'a>(stmt: &[&'a str]) -> Vec<&'a str> {
    let mut out = Vec::new();
    for line in stmt {
        let mut rest = *line;
        while let Some(at) = rest.find(|c: char| c.is_ascii_alphabetic() || c == '_') {
            let after_word = at > 0 && {
                let p = rest.as_bytes()[at - 1];
                p.is_ascii_alphanumeric() || p == b'$' || p == b'\''
            };
            let len = ident_len(&rest[at..]).max(1);
            if !after_word {
                out.push(&rest[at..at + len]);
            }
            rest = &rest[at + len..];
        }
    }
    out
}

/// A top-level statement with the signals it writes and the identifiers it names, found once.
struct Stmt<'a> {
    lines: Vec<&'a str>,
    writes: Vec<&'a str>,
    names: Vec<&'a str>,
}

impl<'a> Stmt<'a> {
    fn new(lines: Vec<&'a str>) -> Self {
        Self {
            writes: lines.iter().filter_map(|l| written(l)).collect(),
            names: idents(&lines),
            lines,
        }
    }
}

/// Union-find over statement indices.
struct Groups(Vec<usize>);

impl Groups {
    fn find(&mut self, mut x: usize) -> usize {
        while self.0[x] != x {
            self.0[x] = self.0[self.0[x]];
            x = self.0[x];
        }
        x
    }
    fn join(&mut self, a: usize, b: usize) {
        let (ra, rb) = (self.find(a), self.find(b));
        self.0[ra.max(rb)] = ra.min(rb);
    }
}

/// Joins the groups that read each other's signals in a cycle (a strongly connected component
/// of the graph "group `g` reads a signal group `h` writes"), so that the split adds no loop
/// between `always` blocks that the whole block did not have to Verilator.
fn join_cycles(groups: &mut Groups, stmts: &[Stmt]) {
    let n = stmts.len();
    let mut writer: HashMap<&str, usize> = HashMap::new();
    for (k, stmt) in stmts.iter().enumerate() {
        for &name in &stmt.writes {
            writer.insert(name, groups.find(k));
        }
    }
    // Edges from the writing group to the reading group.
    let mut next: Vec<Vec<usize>> = vec![Vec::new(); n];
    for (k, stmt) in stmts.iter().enumerate() {
        let g = groups.find(k);
        for name in &stmt.names {
            if let Some(&h) = writer.get(name) {
                if h != g {
                    next[h].push(g);
                }
            }
        }
    }
    for scc in components(&next) {
        for w in scc.windows(2) {
            groups.join(w[0], w[1]);
        }
    }
}

/// The strongly connected components of a graph (Tarjan's algorithm, without recursion).
fn components(next: &[Vec<usize>]) -> Vec<Vec<usize>> {
    const NONE: usize = usize::MAX;
    let n = next.len();
    let (mut index, mut low, mut on) = (vec![NONE; n], vec![0; n], vec![false; n]);
    let (mut stack, mut out, mut count) = (Vec::new(), Vec::new(), 0);
    for root in 0..n {
        if index[root] != NONE {
            continue;
        }
        // (vertex, next edge to follow)
        let mut work = vec![(root, 0)];
        while let Some(&mut (v, ref mut e)) = work.last_mut() {
            if *e == 0 {
                index[v] = count;
                low[v] = count;
                count += 1;
                stack.push(v);
                on[v] = true;
            }
            if let Some(&w) = next[v].get(*e) {
                *e += 1;
                if index[w] == NONE {
                    work.push((w, 0));
                } else if on[w] {
                    low[v] = low[v].min(index[w]);
                }
                continue;
            }
            work.pop();
            if let Some(&(parent, _)) = work.last() {
                low[parent] = low[parent].min(low[v]);
            }
            if low[v] == index[v] {
                let mut scc = Vec::new();
                while let Some(w) = stack.pop() {
                    on[w] = false;
                    scc.push(w);
                    if w == v {
                        break;
                    }
                }
                out.push(scc);
            }
        }
    }
    out
}

/// Writes the statements as independent `always @(*)` blocks (see the module's rules).
fn write_groups(out: &mut String, stmts: &[Stmt]) {
    let mut groups = Groups((0..stmts.len()).collect());
    let mut first_writer: HashMap<&str, usize> = HashMap::new();
    let mut last_writer: HashMap<&str, usize> = HashMap::new();
    for (k, stmt) in stmts.iter().enumerate() {
        for &name in &stmt.writes {
            let first = *first_writer.entry(name).or_insert(k);
            groups.join(first, k);
            last_writer.insert(name, k);
        }
    }
    for (k, stmt) in stmts.iter().enumerate() {
        for name in &stmt.names {
            if let Some(&w) = last_writer.get(name) {
                if w > k {
                    groups.join(k, w);
                }
            }
        }
    }
    join_cycles(&mut groups, stmts);
    let mut members: Vec<Vec<usize>> = vec![Vec::new(); stmts.len()];
    for k in 0..stmts.len() {
        let root = groups.find(k);
        members[root].push(k);
    }
    for group in members.iter().filter(|m| !m.is_empty()) {
        out.push_str(OPEN);
        out.push('\n');
        for line in group.iter().flat_map(|&k| &stmts[k].lines) {
            out.push_str(line);
            out.push('\n');
        }
        out.push_str(CLOSE);
        out.push('\n');
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn block(body: &str) -> String {
        format!("    // Update code\n{OPEN}\n{body}{CLOSE}\n")
    }

    #[test]
    fn independent_statements_become_blocks_and_a_signals_writers_stay_together() {
        let v = block(
            "        a = x;\n        b = y;\n        if (c) begin\n            a = z;\n        end\n",
        );
        let s = split(&v);
        assert_eq!(s.matches(OPEN).count(), 2, "{s}");
        assert!(
            s.contains(&format!("{OPEN}\n        a = x;\n        if (c) begin\n")),
            "{s}"
        );
        assert!(
            s.contains(&format!("{OPEN}\n        b = y;\n{CLOSE}")),
            "{s}"
        );
    }

    #[test]
    fn a_read_before_a_later_write_stays_with_the_writer() {
        // `f` reads `a` before the last statement writes it again: `f` must see the first value.
        let v = block("        a = x;\n        f = a & g;\n        a = y;\n        end_r = a;\n");
        let s = split(&v);
        assert_eq!(s.matches(OPEN).count(), 2, "{s}");
        assert!(
            s.contains(&format!(
                "{OPEN}\n        a = x;\n        f = a & g;\n        a = y;\n{CLOSE}"
            )),
            "{s}"
        );
    }

    #[test]
    fn groups_that_read_each_other_stay_one_block() {
        // `h` reads `a` after its last write; `b = h` joins the `if` that writes `a` (both
        // write `b`): apart, `h`'s block and theirs would be a loop.
        let v = block(
            "        if (c) begin\n            a = x;\n            b = y;\n        end\n        h = a;\n        b = h;\n        k = z;\n",
        );
        let s = split(&v);
        assert_eq!(s.matches(OPEN).count(), 2, "{s}");
        assert!(
            s.contains(&format!("{OPEN}\n        k = z;\n{CLOSE}")),
            "{s}"
        );
        assert_eq!(components(&[vec![1], vec![0, 2], vec![]]).len(), 2);
    }

    #[test]
    fn only_rust_hdl_blocks_are_split() {
        let v = format!("{OPEN}\n        a = x;\n        b = y;\n{CLOSE}\n");
        assert_eq!(split(&v), v);
    }

    #[test]
    fn else_branches_and_indexed_writes_belong_to_their_statement() {
        let v = block(
            "        if (c) begin\n            m[3] = x;\n        end\n        else begin\n            m[3] = y;\n        end\n        n = m;\n",
        );
        let s = split(&v);
        assert_eq!(s.matches(OPEN).count(), 2, "{s}");
        assert!(
            s.contains(
                "        end\n        else begin\n            m[3] = y;\n        end\n    end"
            ),
            "{s}"
        );
        assert_eq!(written("            m[3] = x;"), Some("m"));
        assert_eq!(written("        if (a == b) begin"), None);
        assert_eq!(written("        x == y;"), None);
    }
}
