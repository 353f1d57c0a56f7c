//! `rtgpu dram ...`: one request's LID and trace, and LID sweeps. The output lines are a
//! stable interface (other tools parse them).

use super::run::{run, Run};
use super::sweep::{sweep, table, Sweep, TileSweep};
use super::tb::simulate_requests;
use crate::tb::{TbError, TbOptions};
use rtgpu_hw::dram::model::{DramModel, Request};
use rtgpu_hw::dram::Part;
use std::path::{Path, PathBuf};

/// Word addresses the controller maps (30 bits: 4 GiB).
pub const WORDS: u64 = 1 << 30;

/// A failure: exit code 2 for bad arguments, 1 for a failed run.
#[derive(Debug)]
pub struct CliError(pub u8, pub String);

fn usage(msg: String) -> CliError {
    CliError(2, msg)
}

/// `read` or `write` → is a write.
pub fn direction(dir: &str) -> Result<bool, CliError> {
    match dir {
        "read" => Ok(false),
        "write" => Ok(true),
        other => Err(usage(format!(
            "unknown direction `{other}`; use read or write"
        ))),
    }
}

/// The part called `name` (exit 2 when unknown).
pub fn part(name: &str) -> Result<Part, CliError> {
    Part::by_name(name).map_err(usage)
}

/// A validated tile request: non-zero words and rows, rows not overlapping, inside memory.
pub fn tile(
    write: bool,
    addr: u64,
    words: u64,
    period: Option<u64>,
    count: u64,
) -> Result<Request, CliError> {
    if words == 0 {
        return Err(usage("--words must be at least 1".into()));
    }
    if count == 0 || count > u64::from(u16::MAX) {
        return Err(usage(format!("--count {count}: use 1 to {}", u16::MAX)));
    }
    let period = period.unwrap_or(words);
    if count > 1 && period < words {
        return Err(usage(format!(
            "--period {period} is below --words {words}: rows would overlap"
        )));
    }
    let end = addr + (count - 1) * period + words;
    if end > WORDS || words >= WORDS || period >= WORDS {
        return Err(usage(format!(
            "the request covers words {addr}..{end}, beyond the {WORDS} words (4 GiB) of the part"
        )));
    }
    Ok(Request::tile(
        write,
        addr as u32,
        words as u32,
        period as u32,
        count as u16,
    ))
}

/// An iterative indexed request over the word addresses in `text` (the file `name`): decimal
/// or `0x` hexadecimal, separated by white space or commas, `#` starting a comment to the end
/// of its line; 1 to 65,535 of them, each inside the part's 2^30 words.
pub fn indexes(write: bool, name: &str, text: &str) -> Result<Request, CliError> {
    let mut out = Vec::new();
    for (n, line) in text.lines().enumerate() {
        let line = line.split('#').next().unwrap_or("");
        for tok in line.split(|c: char| c.is_whitespace() || c == ',') {
            if tok.is_empty() {
                continue;
            }
            let v = match tok.strip_prefix("0x").or_else(|| tok.strip_prefix("0X")) {
                Some(hex) => u64::from_str_radix(hex, 16),
                None => tok.parse::<u64>(),
            };
            let at = || format!("{name}:{}", n + 1);
            match v {
                Ok(w) if w < WORDS => out.push(w as u32),
                Ok(w) => {
                    return Err(usage(format!(
                        "{}: index {w} is beyond the {WORDS} words (4 GiB) of the part",
                        at()
                    )))
                }
                Err(_) => return Err(usage(format!("{}: `{tok}` is not a word address", at()))),
            }
            if out.len() > usize::from(u16::MAX) {
                return Err(usage(format!("{name}: more than {} indexes", u16::MAX)));
            }
        }
    }
    if out.is_empty() {
        return Err(usage(format!("{name}: no indexes")));
    }
    Ok(Request::indexed(write, out))
}

/// `lid=.. cmds=.. acts=.. cas=.. util=..` for one request from an idle controller; writes
/// the command trace and (through the RTL) a VCD + .gtkw when asked.
pub fn request(
    part: &Part,
    req: &Request,
    trace: Option<&Path>,
    vcd: Option<&Path>,
) -> Result<String, CliError> {
    let mut model = DramModel::new(*part, 0);
    let r = run(
        &mut model,
        part,
        0,
        std::slice::from_ref(req),
        0,
        50_000_000,
    )
    .map_err(|e| CliError(1, e))?;
    if let Some(path) = trace {
        std::fs::write(path, r.trace_text())
            .map_err(|e| CliError(1, format!("{}: {e}", path.display())))?;
    }
    if let Some(path) = vcd {
        waveform(part, req, path)?;
    }
    Ok(summary(part, &r))
}

/// The one-line summary of a single-request run.
pub fn summary(part: &Part, r: &Run) -> String {
    use crate::oracle::ddr4::Cmd;
    let lid = r.completions[0].lid;
    let cas = r.count(Cmd::Rd) + r.count(Cmd::Rda) + r.count(Cmd::Wr) + r.count(Cmd::Wra);
    let util = 100.0 * (cas as f64 * f64::from(part.bl)) / f64::from(lid.max(1));
    format!(
        "lid={lid} cmds={} acts={} cas={cas} util={util:.1}",
        r.trace.len(),
        r.count(Cmd::Act)
    )
}

fn waveform(part: &Part, req: &Request, path: &Path) -> Result<(), CliError> {
    let stem = path
        .file_stem()
        .and_then(|s| s.to_str())
        .ok_or_else(|| usage(format!("--vcd {}: needs a file name", path.display())))?;
    let dir = path
        .parent()
        .map_or_else(|| PathBuf::from("."), Path::to_path_buf);
    let opts = TbOptions {
        waves_dir: Some(dir),
        ..TbOptions::default()
    };
    let reqs = std::slice::from_ref(req);
    let res = match part.banks {
        8 => simulate_requests::<8>(stem, part, 0, reqs, &opts, None),
        _ => simulate_requests::<16>(stem, part, 0, reqs, &opts, None),
    };
    res.map(|_| ())
        .map_err(|e: TbError| CliError(1, e.to_string()))
}

/// The sweep of `words`-word requests over all alignments (exit 2 outside 1 to 2^20 words).
pub fn sweep_words(part: &Part, write: bool, words: u64) -> Result<Sweep, CliError> {
    if words == 0 || words > 1 << 20 {
        return Err(usage(format!("--words {words}: use 1 to {}", 1 << 20)));
    }
    sweep(part, write, words as u32).map_err(|e| CliError(1, e))
}

/// `min=.. max=.. bound=.. bounds=yes|no` for a sweep.
pub fn sweep_line(s: &Sweep) -> String {
    format!(
        "min={} max={} bound={} bounds={}",
        s.min,
        s.max,
        s.bound,
        if s.bounded { "yes" } else { "no" }
    )
}

/// Per size 1..=`max_bursts` bursts: min, max, bound, gap.
pub fn table_rows(part: &Part, write: bool, max_bursts: u32) -> Result<Vec<Sweep>, CliError> {
    if max_bursts == 0 || max_bursts > 1024 {
        return Err(usage(format!("--max-bursts {max_bursts}: use 1 to 1024")));
    }
    let sizes: Vec<u32> = (1..=max_bursts).collect();
    table(part, write, &sizes).map_err(|e| CliError(1, e))
}

/// The table as text; a size whose worst LID exceeds Eq. 15 is marked `EXCEEDED`, and a last
/// line names the sizes where the formula no longer bounds this controller.
pub fn render(rows: &[Sweep]) -> String {
    let mut s = format!(
        "{:>7} {:>6} {:>6} {:>6} {:>6} {:>6}\n",
        "bursts", "words", "min", "max", "bound", "gap"
    );
    for r in rows {
        s += &format!(
            "{:>7} {:>6} {:>6} {:>6} {:>6} {:>6}{}\n",
            r.words / 16,
            r.words,
            r.min,
            r.max,
            r.bound,
            i64::from(r.bound) - i64::from(r.max),
            if r.bounded { "" } else { "  EXCEEDED" }
        );
    }
    let over: Vec<String> = rows
        .iter()
        .filter(|r| !r.bounded)
        .map(|r| (r.words / 16).to_string())
        .collect();
    s += &match over.len() {
        0 => "Eq. 15 bounds every size above\n".to_string(),
        _ => format!(
            "Eq. 15 does not bound {} of these sizes (bursts: {}): use the swept maximum\n",
            over.len(),
            over.join(", ")
        ),
    };
    s
}

/// Shapes a tile sweep may cover at most.
pub const MAX_SHAPES: usize = 256;

/// The validated `(words, rows, period)` shapes of a tile sweep, periods outermost (exit 2
/// when a shape is empty, wider than its period, or does not fit in the part, or there are
/// more than [`MAX_SHAPES`]).
pub fn tile_shapes(
    write: bool,
    words: &[u64],
    rows: &[u64],
    periods: &[u64],
) -> Result<Vec<(u32, u16, u32)>, CliError> {
    let n = words.len() * rows.len() * periods.len();
    if n > MAX_SHAPES {
        return Err(usage(format!("{n} shapes: use at most {MAX_SHAPES}")));
    }
    let mut shapes = Vec::with_capacity(n);
    for &p in periods {
        for &w in words {
            for &r in rows {
                let req = tile(write, u64::from(super::sweep::TILE_STARTS), w, Some(p), r)?;
                shapes.push((req.words, req.count, req.period));
            }
        }
    }
    Ok(shapes)
}

/// The tile sweep as text.
pub fn render_tiles(rows: &[TileSweep]) -> String {
    let mut s = format!(
        "{:>6} {:>5} {:>7} {:>6} {:>6} {:>6} {:>6}\n",
        "words", "rows", "period", "min", "max", "worst", "util%"
    );
    for r in rows {
        s += &format!(
            "{:>6} {:>5} {:>7} {:>6} {:>6} {:>6} {:>6.1}\n",
            r.words,
            r.rows,
            r.period,
            r.min,
            r.max,
            r.worst_addr,
            100.0 * r.util
        );
    }
    s
}

/// The tile sweep as CSV: a header, then one line per shape (util as a fraction).
pub fn tiles_csv(rows: &[TileSweep]) -> String {
    let mut s = String::from("words,rows,period,min,max,worst_addr,util\n");
    for r in rows {
        s += &format!(
            "{},{},{},{},{},{},{:.4}\n",
            r.words, r.rows, r.period, r.min, r.max, r.worst_addr, r.util
        );
    }
    s
}
