//! The repository's documentation holds together: every relative Markdown link in README.md,
//! CONTRIBUTING.md, firmware/kernels/README.md and docs/**/*.md points at a file that exists;
//! every `#anchor` into a Markdown file names an explicit `<a id="...">` or a heading there
//! (in particular the assumption numbers of docs/assumptions.md and the equation, figure, table
//! and algorithm anchors of docs/works/*.md, which the code cites); every subcommand that
//! `rtgpu --help` lists (and each of its own subcommands) has a section in docs/cli.md; and no
//! page points outside the repository's own material.
//!
//! The checker is tested on planted faults first (a broken link, a missing anchor, a missing
//! CLI section), so a check that cannot fail would be noticed.

use std::collections::BTreeSet;
use std::fs;
use std::path::{Component, Path, PathBuf};
use std::process::Command;

/// The repository's root (the parent of `testbench/`).
fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("testbench/ has a parent")
        .to_path_buf()
}

/// The Markdown files whose links are checked: README.md, CONTRIBUTING.md,
/// firmware/kernels/README.md and every `.md` under docs/, sorted.
fn doc_files(root: &Path) -> Vec<PathBuf> {
    let mut files = vec![
        root.join("README.md"),
        root.join("CONTRIBUTING.md"),
        root.join("firmware/kernels/README.md"),
    ];
    let mut stack = vec![root.join("docs")];
    while let Some(dir) = stack.pop() {
        let entries = fs::read_dir(&dir).unwrap_or_else(|e| panic!("{}: {e}", dir.display()));
        for entry in entries {
            let path = entry.unwrap().path();
            if path.is_dir() {
                stack.push(path);
            } else if path.extension().is_some_and(|x| x == "md") {
                files.push(path);
            }
        }
    }
    files.sort();
    files
}

/// The text of `md` outside fenced code blocks and inline code spans (code is replaced by
/// spaces, so that a link written as an example inside code is not taken for a link).
fn prose(md: &str) -> String {
    let mut out = String::with_capacity(md.len());
    let mut fenced = false;
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            out.push('\n');
            continue;
        }
        if fenced {
            out.push('\n');
            continue;
        }
        let mut in_code = false;
        for c in line.chars() {
            if c == '`' {
                in_code = !in_code;
                out.push(' ');
            } else if in_code {
                out.push(' ');
            } else {
                out.push(c);
            }
        }
        out.push('\n');
    }
    out
}

/// Every link target `T` of the inline links `[text](T)` and images `![alt](T)` in `md`
/// (outside code), in order. A title after the target (`(T "title")`) is dropped.
fn link_targets(md: &str) -> Vec<String> {
    let text = prose(md);
    let bytes = text.as_bytes();
    let mut targets = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        if bytes[i] == b']' && bytes[i + 1] == b'(' {
            let start = i + 2;
            let mut depth = 1;
            let mut j = start;
            while j < bytes.len() && bytes[j] != b'\n' {
                match bytes[j] {
                    b'(' => depth += 1,
                    b')' => {
                        depth -= 1;
                        if depth == 0 {
                            break;
                        }
                    }
                    _ => {}
                }
                j += 1;
            }
            if j < bytes.len() && bytes[j] == b')' {
                let inner = text[start..j].trim();
                let target = inner.split_whitespace().next().unwrap_or("");
                targets.push(target.trim_matches(['<', '>']).to_string());
                i = j;
            }
        }
        i += 1;
    }
    targets
}

/// GitHub's anchor for a heading's text: lower case, punctuation other than `-` and `_`
/// dropped, spaces turned into `-`.
fn slug(heading: &str) -> String {
    heading
        .trim()
        .chars()
        .filter_map(|c| {
            if c == ' ' {
                Some('-')
            } else if c.is_alphanumeric() || c == '-' || c == '_' {
                Some(c.to_lowercase().next().unwrap_or(c))
            } else {
                None
            }
        })
        .collect()
}

/// The anchors a Markdown file defines: every `<a id="X">` (and `name="X"`), and every
/// heading's GitHub slug (repeated slugs numbered `-1`, `-2`, ... as GitHub does).
fn anchors(md: &str) -> BTreeSet<String> {
    let mut set = BTreeSet::new();
    for key in ["id=\"", "name=\""] {
        let mut rest = md;
        while let Some(p) = rest.find(key) {
            rest = &rest[p + key.len()..];
            if let Some(end) = rest.find('"') {
                set.insert(rest[..end].to_string());
            }
        }
    }
    let mut fenced = false;
    let mut seen: BTreeSet<String> = BTreeSet::new();
    for line in md.lines() {
        if line.trim_start().starts_with("```") {
            fenced = !fenced;
            continue;
        }
        let hashes = line.chars().take_while(|&c| c == '#').count();
        if fenced || hashes == 0 || hashes > 6 || !line[hashes..].starts_with(' ') {
            continue;
        }
        let base = slug(&line[hashes..]);
        let mut s = base.clone();
        let mut n = 0;
        while seen.contains(&s) {
            n += 1;
            s = format!("{base}-{n}");
        }
        seen.insert(s.clone());
        set.insert(s);
    }
    set
}

/// `path` with `.` and `..` resolved lexically.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

/// The broken links of one Markdown file `file` (its text `md`), as `FILE: TARGET: why`.
/// External links (`http:`, `https:`, `mailto:`) are not followed.
fn broken_links(file: &Path, md: &str) -> Vec<String> {
    let mut broken = Vec::new();
    let dir = file.parent().unwrap_or(Path::new("."));
    for target in link_targets(md) {
        if target.is_empty()
            || target.starts_with("http://")
            || target.starts_with("https://")
            || target.starts_with("mailto:")
        {
            continue;
        }
        let (path, anchor) = match target.split_once('#') {
            Some((p, a)) => (p, Some(a)),
            None => (target.as_str(), None),
        };
        let resolved = if path.is_empty() {
            file.to_path_buf()
        } else {
            normalize(&dir.join(path))
        };
        if !path.is_empty() && !resolved.exists() {
            broken.push(format!("{}: {target}: no such file", file.display()));
            continue;
        }
        if let Some(anchor) = anchor {
            if resolved.extension().is_some_and(|x| x == "md") {
                let text = if path.is_empty() {
                    md.to_string()
                } else {
                    fs::read_to_string(&resolved).unwrap()
                };
                if !anchors(&text).contains(anchor) {
                    broken.push(format!(
                        "{}: {target}: no anchor #{anchor} in {}",
                        file.display(),
                        resolved.display()
                    ));
                }
            }
        }
    }
    broken
}

/// The subcommand names of a clap `--help` text (the lines under `Commands:`), without `help`.
fn subcommands(help: &str) -> Vec<String> {
    help.lines()
        .skip_while(|l| l.trim() != "Commands:")
        .skip(1)
        .take_while(|l| l.starts_with("  "))
        .filter_map(|l| l.split_whitespace().next())
        .filter(|name| *name != "help")
        .map(str::to_string)
        .collect()
}

/// The `--help` text of `rtgpu ARGS... --help`.
fn rtgpu_help(args: &[&str]) -> String {
    let out = Command::new(env!("CARGO_BIN_EXE_rtgpu"))
        .args(args)
        .arg("--help")
        .output()
        .expect("rtgpu runs");
    assert!(out.status.success(), "rtgpu {args:?} --help failed");
    String::from_utf8(out.stdout).unwrap()
}

/// The section headings `rtgpu ...` missing from `cli_md` for the commands `cmds` (each a
/// word list, e.g. `["dram", "request"]`): a heading line `## rtgpu dram` or
/// `### rtgpu dram request` (any level).
fn missing_cli_sections(cli_md: &str, cmds: &[Vec<String>]) -> Vec<String> {
    let headings: BTreeSet<String> = cli_md
        .lines()
        .filter(|l| l.starts_with('#'))
        .map(|l| l.trim_start_matches('#').trim().to_string())
        .collect();
    cmds.iter()
        .map(|words| format!("rtgpu {}", words.join(" ")))
        .filter(|h| !headings.contains(h))
        .collect()
}

// ---------------------------------------------------------------- the checker on planted faults

#[test]
fn the_link_checker_finds_a_broken_link_and_a_missing_anchor() {
    let dir = tempfile::tempdir().unwrap();
    let docs = dir.path().join("docs");
    fs::create_dir_all(docs.join("works")).unwrap();
    fs::write(
        docs.join("assumptions.md"),
        "# Assumptions\n<a id=\"A13\"></a>\n### A13. Scalar registers\n",
    )
    .unwrap();
    fs::write(docs.join("works/pws.md"), "# PWS\n<a id=\"eq-2\"></a>\n").unwrap();
    let page = docs.join("index.md");
    let good = "See [A13](assumptions.md#A13), [Eq. 2](works/pws.md#eq-2), \
                [the heading](assumptions.md#a13-scalar-registers) and [top](#index).\n\
                `[not a link](nowhere.md)`\n```\n[nor this](nowhere.md)\n```\n# Index\n";
    assert_eq!(broken_links(&page, good), Vec::<String>::new());

    // (The planted assumption number is spelt in pieces, so that the repository's own scan of
    // cited assumptions does not take it for a citation.)
    let bad = "[gone](missing.md) [A99](assumptions.md#".to_string()
        + "A99) [eq](works/pws.md#eq-3) \
               ![pic](img/none.png) [ok](https://example.org/x)\n";
    let found = broken_links(&page, &bad);
    assert_eq!(found.len(), 4, "{found:#?}");
    assert!(found[0].contains("missing.md: no such file"), "{found:#?}");
    assert!(found[1].contains("no anchor #A99"), "{found:#?}");
    assert!(found[2].contains("no anchor #eq-3"), "{found:#?}");
    assert!(
        found[3].contains("img/none.png: no such file"),
        "{found:#?}"
    );
}

#[test]
fn the_cli_check_finds_a_missing_section() {
    let help = "Usage: rtgpu <COMMAND>\n\nCommands:\n  run    Run a kernel\n  tb     \
                Testbench\n  help   Print this message\n\nOptions:\n  -h, --help  Print help\n";
    let cmds: Vec<Vec<String>> = subcommands(help).into_iter().map(|c| vec![c]).collect();
    assert_eq!(cmds, vec![vec!["run".to_string()], vec!["tb".to_string()]]);
    let md = "# The rtgpu command\n## rtgpu run\ntext\n";
    assert_eq!(
        missing_cli_sections(md, &cmds),
        vec!["rtgpu tb".to_string()]
    );
}

#[test]
fn slugs_follow_githubs_rule() {
    assert_eq!(
        slug("The compute unit and `rtgpu run`"),
        "the-compute-unit-and-rtgpu-run"
    );
    assert_eq!(
        slug("A13. Scalar registers at a merge"),
        "a13-scalar-registers-at-a-merge"
    );
    assert_eq!(slug("Eqs. 4 and 5: G_parallel"), "eqs-4-and-5-g_parallel");
    let a = anchors("# X\n## Notes\n## Notes\n```\n# not a heading\n```\n");
    assert!(a.contains("notes") && a.contains("notes-1") && !a.contains("not-a-heading"));
}

// ---------------------------------------------------------------- the repository's documents

/// Whether a broken-link report is about a picture (the waveform screenshots under
/// `docs/img/`), which [`every_picture_exists`] checks on its own.
fn is_picture(report: &str) -> bool {
    report.contains(".png: ")
}

/// Every broken link of the repository's documents.
fn repository_broken_links() -> Vec<String> {
    let root = root();
    let mut broken = Vec::new();
    for file in doc_files(&root) {
        let md = fs::read_to_string(&file).unwrap();
        broken.extend(broken_links(&file, &md));
    }
    broken
}

#[test]
fn every_relative_link_and_anchor_resolves() {
    let broken: Vec<String> = repository_broken_links()
        .into_iter()
        .filter(|r| !is_picture(r))
        .collect();
    assert!(broken.is_empty(), "broken links:\n{}", broken.join("\n"));
}

/// The screenshots the README and the block pages show (`docs/img/*.png`, made from the
/// committed `.gtkw` views) exist.
#[test]
fn every_picture_exists() {
    let missing: Vec<String> = repository_broken_links()
        .into_iter()
        .filter(|r| is_picture(r))
        .collect();
    assert!(
        missing.is_empty(),
        "missing pictures:\n{}",
        missing.join("\n")
    );
}

#[test]
fn the_fixed_documentation_layout_is_there() {
    let root = root();
    for page in [
        "docs/README.md",
        "docs/architecture.md",
        "docs/assumptions.md",
        "docs/glossary.md",
        "docs/cli.md",
        "docs/results.md",
        "docs/verification.md",
        "docs/works/pws.md",
        "docs/works/multiphase.md",
        "docs/works/simd.md",
        "docs/works/reorder.md",
        "docs/works/thesis.md",
    ] {
        assert!(root.join(page).is_file(), "{page} is missing");
    }
    // A1..=A31 (the PWS paper's open points) each keep an explicit anchor.
    let assumptions = anchors(&fs::read_to_string(root.join("docs/assumptions.md")).unwrap());
    for n in 1..=31 {
        assert!(
            assumptions.contains(&format!("A{n}")),
            "docs/assumptions.md has no A{n}"
        );
    }
}

#[test]
fn every_subcommand_has_a_section_in_the_cli_reference() {
    let mut cmds = Vec::new();
    for name in subcommands(&rtgpu_help(&[])) {
        for sub in subcommands(&rtgpu_help(&[&name])) {
            cmds.push(vec![name.clone(), sub]);
        }
        cmds.push(vec![name]);
    }
    assert!(
        cmds.len() >= 10,
        "rtgpu --help lists too few commands: {cmds:?}"
    );
    let cli_md = fs::read_to_string(root().join("docs/cli.md")).unwrap();
    let missing = missing_cli_sections(&cli_md, &cmds);
    assert!(
        missing.is_empty(),
        "docs/cli.md has no section for: {missing:?}"
    );
}

#[test]
fn no_page_points_outside_the_repository() {
    let root = root();
    let mut found = Vec::new();
    for file in doc_files(&root) {
        let md = fs::read_to_string(&file).unwrap();
        for (n, line) in md.lines().enumerate() {
            // (Spelt in pieces, so that this file does not contain what it looks for.)
            for bad in [
                '\u{a7}'.to_string(),
                ["..", "/shared"].concat(),
                ["spec", "/0"].concat(),
            ] {
                if line.contains(&bad) {
                    found.push(format!("{}:{}: {bad}", file.display(), n + 1));
                }
            }
        }
    }
    assert!(found.is_empty(), "{}", found.join("\n"));
}
