//! The repository stands alone: no file that git tracks points at material outside it.
//!
//! Every tracked file (`git ls-files`; binary files and `Cargo.lock` skipped) is searched for
//! the marks of such a pointer: a path into a sibling `shared` directory, a numbered design
//! note (`spec/` followed by `0` and a digit), the section sign (U+00A7), an issue number (the
//! word `issue` in any case but all capitals, then blanks or `#`, then a digit; a quoted one is
//! a paper's own term and passes) and the two outside guides (`ARCHITECTURE` and `GUIDE`, each
//! followed by `.md`). The failure lists every hit as `file:line: what`. Papers are cited by
//! name and their own numbering instead ("the PWS paper's Eq. 2"), and design choices by their
//! entry in docs/assumptions.md.
//!
//! Second, every assumption a tracked file cites (docs/assumptions.md, then `#A` and its
//! number) must be an anchor of docs/assumptions.md (`<a id="A13"></a>` for A13); while that
//! file does not exist yet the check says so and passes. Third, every page of docs/ that a
//! tracked file names by its path (docs/ then the page) exists, and so does the `#anchor`
//! after it (an `id` or a heading there).
//!
//! The marks are spelled here in pieces, so this file passes its own check, and the scanner is
//! tested on planted text first, so a check that cannot fail would be noticed.

use std::collections::BTreeSet;
use std::fs;
use std::io::ErrorKind;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The repository's root (the parent of `testbench/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testbench/ has a parent")
        .to_path_buf()
}

/// The files git tracks, relative to `root`, in git's order.
fn tracked_files(root: &Path) -> Vec<String> {
    let out = Command::new("git")
        .arg("-C")
        .arg(root)
        .args(["ls-files", "-z"])
        .output()
        .unwrap_or_else(|e| panic!("cannot run `git ls-files` in {}: {e}", root.display()));
    assert!(
        out.status.success(),
        "`git ls-files` failed in {}: {}",
        root.display(),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout)
        .expect("git prints UTF-8 paths")
        .split('\0')
        .filter(|p| !p.is_empty())
        .map(str::to_string)
        .collect()
}

/// The text of every tracked file that is text: `(path, text)`. Skipped: `Cargo.lock`, files
/// with a NUL byte or that are not UTF-8 (binary), and files deleted from the working tree.
fn tracked_texts(root: &Path) -> Vec<(String, String)> {
    let mut texts = Vec::new();
    for path in tracked_files(root) {
        if path == "Cargo.lock" || path.ends_with("/Cargo.lock") {
            continue;
        }
        let bytes = match fs::read(root.join(&path)) {
            Ok(b) => b,
            Err(e) if e.kind() == ErrorKind::NotFound => continue,
            Err(e) => panic!("{path}: {e}"),
        };
        if bytes.contains(&0) {
            continue;
        }
        if let Ok(text) = String::from_utf8(bytes) {
            texts.push((path, text));
        }
    }
    texts
}

/// A path into the sibling directory the repository must not depend on.
const SHARED: &str = concat!("..", "/", "shared");
/// A numbered design note: this prefix followed by a digit.
const NOTE: &str = concat!("spec", "/", "0");
/// The section sign.
const SECTION: char = '\u{a7}';
/// The two outside guides.
const GUIDES: [&str; 2] = [concat!("ARCHITECTURE", ".md"), concat!("GUIDE", ".md")];
/// The checkout's own absolute path on the machine it was written on.
const MACHINE: &str = concat!("/", "work", "/");
/// The word an issue number follows.
const ISSUE: &str = "issue";

/// Does `line` name an issue by number: the word `issue` in any case, not inside a longer
/// word, then blanks and/or `#`, then a digit? Two forms pass: the all-capitals `ISSUE` (a
/// state name of the reordering unit) and a quoted term (a paper's own numbering of the
/// problems it names, such as the PWS paper's second issue with splitting).
fn names_an_issue(line: &str) -> bool {
    let lower = line.to_ascii_lowercase();
    let bytes = lower.as_bytes();
    let mut from = 0;
    while let Some(at) = lower[from..].find("issue") {
        let start = from + at;
        from = start + "issue".len();
        let inside_word = start > 0 && {
            let c = bytes[start - 1];
            c.is_ascii_alphanumeric() || c == b'_'
        };
        let state_name = &line[start..from] == "ISSUE";
        let quoted = line[..start].ends_with(['"', '\u{201c}']);
        if inside_word || state_name || quoted {
            continue;
        }
        let mut i = from;
        while i < bytes.len() && (bytes[i] == b' ' || bytes[i] == b'\t') {
            i += 1;
        }
        let blanks = i > from;
        if i < bytes.len() && bytes[i] == b'#' {
            i += 1;
        } else if !blanks {
            continue;
        }
        if i < bytes.len() && bytes[i].is_ascii_digit() {
            return true;
        }
    }
    false
}

/// The references to outside material in `text`: `(line number from 1, what)`.
fn outside_references(text: &str) -> Vec<(usize, String)> {
    let mut hits = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let mut what = Vec::new();
        if line.contains(SHARED) {
            what.push(format!("path into {SHARED}"));
        }
        let numbered_note = line.match_indices(NOTE).any(|(at, _)| {
            line[at + NOTE.len()..]
                .chars()
                .next()
                .is_some_and(|c| c.is_ascii_digit())
        });
        if numbered_note {
            what.push("numbered design note".to_string());
        }
        if line.contains(SECTION) {
            what.push("section sign".to_string());
        }
        if names_an_issue(line) {
            what.push("issue number".to_string());
        }
        if line.contains(MACHINE) {
            what.push("absolute path of a machine".to_string());
        }
        for guide in GUIDES {
            if line.contains(guide) {
                what.push(guide.to_string());
            }
        }
        if !what.is_empty() {
            hits.push((n + 1, what.join(", ")));
        }
    }
    hits
}

/// The assumption numbers `text` cites as `assumptions.md#A<n>`: `(line number from 1, n)`.
fn cited_assumptions(text: &str) -> Vec<(usize, u32)> {
    const CITE: &str = "assumptions.md#A";
    let mut cites = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices(CITE) {
            let digits: String = line[at + CITE.len()..]
                .chars()
                .take_while(char::is_ascii_digit)
                .collect();
            if let Ok(a) = digits.parse() {
                cites.push((n + 1, a));
            }
        }
    }
    cites
}

/// The assumption anchors of docs/assumptions.md: every `id="A<n>"` (or `id='A<n>'`).
fn assumption_anchors(md: &str) -> BTreeSet<u32> {
    let mut anchors = BTreeSet::new();
    for prefix in ["id=\"A", "id='A"] {
        for (at, _) in md.match_indices(prefix) {
            let rest = &md[at + prefix.len()..];
            let digits: String = rest.chars().take_while(char::is_ascii_digit).collect();
            let closed = rest[digits.len()..].starts_with(['"', '\'']);
            if let (true, Ok(a)) = (closed, digits.parse()) {
                anchors.insert(a);
            }
        }
    }
    anchors
}

/// The pages of docs/ that `text` names, with the anchor after `#` if any: `(line number from
/// 1, page path such as `docs/works/pws.md`, anchor or empty)`.
fn cited_doc_pages(text: &str) -> Vec<(usize, String, String)> {
    let path_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '/' | '_' | '-' | '.');
    let anchor_char = |c: char| c.is_ascii_alphanumeric() || matches!(c, '_' | '-');
    let mut cites = Vec::new();
    for (n, line) in text.lines().enumerate() {
        for (at, _) in line.match_indices("docs/") {
            let inside_name = line[..at]
                .chars()
                .next_back()
                .is_some_and(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-');
            if inside_name {
                continue;
            }
            let path: String = line[at..].chars().take_while(|&c| path_char(c)).collect();
            let Some(end) = path.find(".md") else {
                continue;
            };
            let page = path[..end + 3].to_string();
            let rest = &line[at + page.len()..];
            let anchor = match rest.strip_prefix('#') {
                Some(a) => a.chars().take_while(|&c| anchor_char(c)).collect(),
                None => String::new(),
            };
            cites.push((n + 1, page, anchor));
        }
    }
    cites
}

/// The anchors of a Markdown page: every `id="..."` (or `id='...'`) and the GitHub slug of
/// every heading (lower case, blanks to `-`, only letters, digits, `-` and `_` kept).
fn page_anchors(md: &str) -> BTreeSet<String> {
    let mut anchors = BTreeSet::new();
    for quote in ['"', '\''] {
        let prefix = format!("id={quote}");
        for (at, _) in md.match_indices(&prefix) {
            let rest = &md[at + prefix.len()..];
            if let Some(end) = rest.find(quote) {
                anchors.insert(rest[..end].to_string());
            }
        }
    }
    for line in md.lines() {
        let heading = line.trim_start_matches('#');
        if heading.len() < line.len() && heading.starts_with(' ') {
            let slug: String = heading
                .trim()
                .to_lowercase()
                .chars()
                .filter_map(|c| match c {
                    ' ' => Some('-'),
                    c if c.is_alphanumeric() || c == '-' || c == '_' => Some(c),
                    _ => None,
                })
                .collect();
            anchors.insert(slug);
        }
    }
    anchors
}

#[test]
fn the_scanner_catches_planted_references() {
    let planted = [
        format!("see {SHARED}/seeds for the text"),
        format!("written from {NOTE}03-reorder.md"),
        format!("the rule of {SECTION}3.4"),
        format!("the WCET measurement ({ISSUE} 11) reads it"),
        format!("// I{} #10: the memory hierarchy", &ISSUE[1..]),
        format!("TODO({}\t7)", ISSUE.to_uppercase().replace('S', "s")),
        format!("see {ISSUE}#3"),
        format!("see {} for the layout", GUIDES[0]),
        format!("{} measures it", GUIDES[1]),
        format!("^>1 {MACHINE}main/target/release/rtgpu disasm --gtkwave-filter"),
    ];
    let text = planted.join("\n");
    let hits = outside_references(&text);
    let lines: Vec<usize> = hits.iter().map(|h| h.0).collect();
    assert_eq!(lines, (1..=planted.len()).collect::<Vec<_>>(), "{hits:?}");

    // Nothing here is a pointer outside: other words, other numbers, the repository's own docs.
    let reissue = format!("a re{ISSUE} 3 cycles later");
    let quoted = format!("it serializes (the PWS paper's \"I{} 2\")", &ISSUE[1..]);
    let clean = [
        reissue.as_str(),
        "the scheduler may issue one instruction per cycle",
        "issues 4 loads",
        "the issue_period 4 parameter",
        "state (IDLE 0, SELECT 1, SEARCH 2, ISSUE 3, DONE 4)",
        quoted.as_str(),
        "spec/x and specs/01 are not design notes",
        "A13 (docs/assumptions.md#A13), the PWS paper's Eq. 2 (docs/works/pws.md#eq-2)",
        "docs/architecture.md and CONTRIBUTING.md",
    ];
    let clean_hits = outside_references(&clean.join("\n"));
    assert!(clean_hits.is_empty(), "{clean_hits:?}");
}

#[test]
fn the_anchor_parsers_read_planted_text() {
    let text = "x (docs/assumptions.md#A13) and ../assumptions.md#A2, then assumptions.md#Ax\n\
                and docs/assumptions.md#A30.";
    assert_eq!(cited_assumptions(text), [(1, 13), (1, 2), (2, 30)]);
    let md = "<a id=\"A1\"></a> **A1** text <a id='A13'></a> <a id=\"A2x\"></a> id=\"B3\"";
    assert_eq!(assumption_anchors(md), [1, 13].into());
}

#[test]
fn no_tracked_file_points_outside_the_repository() {
    let root = root();
    let mut hits = Vec::new();
    for (path, text) in tracked_texts(&root) {
        for (line, what) in outside_references(&text) {
            hits.push(format!("{path}:{line}: {what}"));
        }
    }
    assert!(
        hits.is_empty(),
        "{} reference(s) to material outside the repository; state the fact here, cite the \
         paper by name and its own numbering, or point into docs/:\n{}",
        hits.len(),
        hits.join("\n")
    );
}

#[test]
fn every_cited_assumption_is_an_anchor_of_docs_assumptions() {
    let root = root();
    let md_path = root.join("docs/assumptions.md");
    let md = match fs::read_to_string(&md_path) {
        Ok(md) => md,
        Err(e) if e.kind() == ErrorKind::NotFound => {
            eprintln!(
                "skipped: {} does not exist yet, so the cited assumption anchors cannot be \
                 checked",
                md_path.display()
            );
            return;
        }
        Err(e) => panic!("{}: {e}", md_path.display()),
    };
    let anchors = assumption_anchors(&md);
    let mut missing = Vec::new();
    let mut cited = 0;
    for (path, text) in tracked_texts(&root) {
        for (line, a) in cited_assumptions(&text) {
            cited += 1;
            if !anchors.contains(&a) {
                missing.push(format!("{path}:{line}: A{a}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} of {cited} citation(s) of docs/assumptions.md name no anchor there (it has {:?}):\n{}",
        missing.len(),
        anchors,
        missing.join("\n")
    );
}

#[test]
fn the_page_parsers_read_planted_text() {
    // Spelled with `D` so that this file cites no page that does not exist.
    const D: &str = "docs/";
    let text = format!(
        "see {D}works/pws.md#eq-2 and ../../{D}assumptions.md#A9, {D}cli.md\n\
         and my{D}x.md, {D}blocks/BLOCK.md#ports."
    );
    let cites = cited_doc_pages(&text);
    let want = [
        (1, "docs/works/pws.md", "eq-2"),
        (1, "docs/assumptions.md", "A9"),
        (1, "docs/cli.md", ""),
        (2, &*format!("{D}blocks/BLOCK.md"), "ports"),
    ];
    let got: Vec<(usize, &str, &str)> = cites
        .iter()
        .map(|(n, p, a)| (*n, p.as_str(), a.as_str()))
        .collect();
    assert_eq!(got, want);
    let md = "# The PWS paper\n<a id=\"eq-2\"></a>\n## Ports and `timing`\n";
    let anchors = page_anchors(md);
    for a in ["the-pws-paper", "eq-2", "ports-and-timing"] {
        assert!(anchors.contains(a), "{a}: {anchors:?}");
    }
}

#[test]
fn every_cited_docs_page_and_anchor_exists() {
    let root = root();
    let mut pages: std::collections::BTreeMap<String, Option<BTreeSet<String>>> =
        Default::default();
    let mut missing = Vec::new();
    for (path, text) in tracked_texts(&root) {
        for (line, page, anchor) in cited_doc_pages(&text) {
            let anchors = pages.entry(page.clone()).or_insert_with(|| {
                fs::read_to_string(root.join(&page))
                    .ok()
                    .map(|md| page_anchors(&md))
            });
            match anchors {
                None => missing.push(format!("{path}:{line}: {page} does not exist")),
                Some(a) if !anchor.is_empty() && !a.contains(&anchor) => {
                    missing.push(format!("{path}:{line}: {page} has no anchor #{anchor}"))
                }
                Some(_) => {}
            }
        }
    }
    assert!(
        missing.is_empty(),
        "{} citation(s) of docs/ name a page or anchor that does not exist:\n{}",
        missing.len(),
        missing.join("\n")
    );
}
