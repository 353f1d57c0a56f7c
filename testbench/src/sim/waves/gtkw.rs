//! GTKWave save files: which signals to show, grouped, formatted, with named markers, opening
//! on a readable window.
//!
//! The file names its dump file relative to itself (both live in `waveforms/`), so a committed
//! `.gtkw` opens the freshly generated VCD from any checkout: `gtkwave waveforms/NAME.gtkw`.
//! Instruction words are shown as assembly through a GTKWave process filter, the running
//! `rtgpu`'s `disasm --gtkwave-filter` ([`insn_filter_command`]); masks are drawn with lane 0
//! on the left, as the documentation writes them (`1101`: lanes 0, 1 and 3).

use crate::sim::signals::SignalInfo;
use std::fmt::Write as _;
use std::io;
use std::path::{Path, PathBuf};

/// How GTKWave shows a trace's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Format {
    /// Hexadecimal (masks, words, addresses).
    Hex,
    /// Unsigned decimal (counters, indices).
    Dec,
    /// Two's-complement decimal.
    Signed,
    /// Binary (single bits, small one-hot vectors).
    Bin,
    /// Named values (states, commands, error codes): the table registered with
    /// [`Gtkw::names`] under this name, through a GTKWave translate filter file.
    Named(&'static str),
    /// An instruction word, shown as its assembly through the process filter
    /// [`insn_filter_command`] (hexadecimal when GTKWave cannot run it).
    Insn,
    /// A lane mask: bit i is lane i, drawn with lane 0 on the left (GTKWave's reversed bit
    /// order) in hexadecimal, or in binary up to 8 lanes; the trace's name says so.
    Mask,
}

impl Format {
    /// GTKWave trace flags of a `width`-bit trace: the format bit | right-justify (0x20).
    fn flags(self, width: usize) -> u32 {
        0x20 | match self {
            Format::Hex => 0x2,
            Format::Dec => 0x4,
            Format::Bin => 0x8,
            Format::Signed => 0x400,
            // Decimal, translated through a filter file (TR_FTRANSLATED).
            Format::Named(_) => 0x2004,
            // Hexadecimal, translated through a filter process (TR_PTRANSLATED).
            Format::Insn => 0x4002,
            // Reversed bit order (TR_REVERSE): lane 0 first.
            Format::Mask if width <= 8 => 0x88,
            Format::Mask => 0x82,
        }
    }
}

/// GTKWave's comment trace (TR_BLANK).
const COMMENT: u32 = 0x200;

/// Cycles a wave pane shows readably (about 17 pixels a cycle, room for a mnemonic): a
/// longer run opens on this many cycles where its markers are densest.
pub const READABLE_CYCLES: u64 = 60;

/// The command line of the process filter that shows instruction words as assembly: the
/// running `rtgpu` (or, from a test or another program of the workspace, the `rtgpu` built
/// beside it; else `rtgpu` from the PATH) with `disasm --gtkwave-filter`. GTKWave passes the
/// words after the program's path as one argument, which `rtgpu` splits.
pub fn insn_filter_command() -> String {
    format!("{} disasm --gtkwave-filter", rtgpu_exe().display())
}

/// The `rtgpu` program: this one, or the one built beside this program.
fn rtgpu_exe() -> PathBuf {
    let name = format!("rtgpu{}", std::env::consts::EXE_SUFFIX);
    let Ok(exe) = std::env::current_exe() else {
        return PathBuf::from(name);
    };
    if exe.file_name().is_some_and(|f| f == name.as_str()) {
        return exe;
    }
    // Test binaries live in target/PROFILE/deps/, rtgpu in target/PROFILE/.
    let dirs = exe.ancestors().skip(1).take(2);
    dirs.map(|d| d.join(&name))
        .find(|p| p.is_file())
        .unwrap_or_else(|| PathBuf::from(name))
}

/// `text` (a `.gtkw`) with the path of the instruction filter's program replaced by `rtgpu`:
/// two save files written by different builds compare equal.
pub fn portable(text: &str) -> String {
    text.lines()
        .map(
            |l| match l.strip_prefix("^>").and_then(|r| r.split_once(' ')) {
                Some((n, rest)) => {
                    let args = rest.split_once(' ').map_or("", |(_, a)| a);
                    format!("^>{n} rtgpu {args}\n")
                }
                None => format!("{l}\n"),
            },
        )
        .collect()
}

/// A labelled point in time (GTKWave named markers A, B, ..., each with its label).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Marker {
    /// Time in ps.
    pub ps: u64,
    /// What happens there.
    pub label: String,
}

#[derive(Clone, Debug)]
struct Trace {
    path: String,
    format: Option<Format>,
}

/// A `.gtkw` under construction.
#[derive(Clone, Debug, Default)]
pub struct Gtkw {
    title: String,
    groups: Vec<(String, Vec<Trace>)>,
    markers: Vec<Marker>,
    /// The window shown on opening: (start, length), ps.
    window_ps: Option<(u64, u64)>,
    /// One clock cycle, ps (for the default window).
    cycle_ps: u64,
    /// Value-name tables: (table name, (value, name) pairs).
    tables: Vec<(String, Vec<(u64, String)>)>,
    /// Leave out the traces the waveform does not record (it was limited to scopes).
    recorded_only: bool,
}

/// Group flags: GRP_BEGIN | BLANK and GRP_END | BLANK.
const GROUP_BEGIN: u32 = 0x80_0200;
const GROUP_END: u32 = 0x100_0200;
/// Named markers GTKWave has (A..Z).
const MAX_MARKERS: usize = 26;

impl Gtkw {
    /// A save file with a title comment.
    pub fn new(title: &str) -> Self {
        Self {
            title: title.to_string(),
            cycle_ps: 1000,
            ..Self::default()
        }
    }

    /// Leaves out the traces (and groups) the waveform does not record, instead of failing:
    /// the view of a waveform limited to scopes (`--vcd-scope`).
    pub fn recorded_only(mut self, on: bool) -> Self {
        self.recorded_only = on;
        self
    }

    /// Adds a group of traces: dotted signal paths as the VCD names them (`decode.insn`), each
    /// with a format or `None` for the default (binary for 1 bit, hex otherwise; enums show
    /// their names).
    pub fn group(mut self, name: &str, traces: &[(&str, Option<Format>)]) -> Self {
        let traces = traces
            .iter()
            .map(|(path, format)| Trace {
                path: path.to_string(),
                format: *format,
            })
            .collect();
        self.groups.push((name.to_string(), traces));
        self
    }

    /// Registers a value-name table for traces shown as [`Format::Named`]`(table)`; it is
    /// written beside the `.gtkw` as `STEM.TABLE.txt` (a GTKWave translate filter file).
    pub fn names(mut self, table: &str, names: &[(u64, String)]) -> Self {
        self.tables.push((table.to_string(), names.to_vec()));
        self
    }

    /// Shows the first `ps` picoseconds when GTKWave opens (default: the whole run if it is
    /// at most [`READABLE_CYCLES`] long, else that many cycles around the markers: the window
    /// holding the most of them).
    pub fn window(mut self, ps: u64) -> Self {
        self.window_ps = Some((0, ps));
        self
    }

    /// Shows `len` picoseconds from `from` when GTKWave opens.
    pub fn window_at(mut self, from: u64, len: u64) -> Self {
        self.window_ps = Some((from, len));
        self
    }

    /// Shows the window of cycles `from..=to` (`--vcd-window`), unless a window inside it was
    /// set; `(0, u64::MAX)` changes nothing.
    pub fn within(self, (from, to): (u64, u64)) -> Self {
        if (from, to) == (0, u64::MAX) {
            return self;
        }
        match self.window_ps {
            Some((a, len)) if a >= from && a.saturating_add(len) <= to => self,
            _ => {
                let len = (to - from).min(READABLE_CYCLES * self.cycle_ps);
                self.window_at(from, len)
            }
        }
    }

    /// The clock cycle, ps (default 1000): the unit of the default window.
    pub fn cycle(mut self, ps: u64) -> Self {
        self.cycle_ps = ps.max(1);
        self
    }

    /// Adds a marker (at most 26 are kept, the first ones).
    pub fn marker(mut self, ps: u64, label: &str) -> Self {
        self.markers.push(Marker {
            ps,
            label: label.to_string(),
        });
        self
    }

    /// Renders the save file for the VCD at `vcd_path` (written relative to `gtkw_path`), whose
    /// recorded signals are `signals` and which ends at `end_ps`. Every trace must name a
    /// recorded signal.
    pub fn render(
        &self,
        gtkw_path: &Path,
        vcd_path: &Path,
        signals: &[SignalInfo],
        end_ps: u64,
    ) -> io::Result<String> {
        let mut out = String::new();
        let _ = writeln!(out, "[*] {}", self.title);
        let _ = writeln!(
            out,
            "[*] written by rtgpu; open with: gtkwave {}",
            file_name(gtkw_path)
        );
        for (i, m) in self.markers.iter().take(MAX_MARKERS).enumerate() {
            let _ = writeln!(
                out,
                "[*] marker {}: {} ps: {}",
                marker_letter(i),
                m.ps,
                m.label
            );
        }
        let (start, shown) = self.shown(end_ps);
        // GTKWave opens a dump file it cannot find from the working directory by its path
        // relative to [savefile]; with both relative, the pair works from any checkout.
        let _ = writeln!(out, "[dumpfile] \"{}\"", relative_to(vcd_path, gtkw_path));
        let _ = writeln!(out, "[savefile] \"{}\"", file_name(gtkw_path));
        let _ = writeln!(out, "[timestart] {start}");
        let _ = writeln!(out, "[size] 1400 700");
        let _ = writeln!(out, "[pos] -1 -1");
        let _ = writeln!(out, "{}", self.zoom_line(shown));
        for (i, m) in self.markers.iter().take(MAX_MARKERS).enumerate() {
            let label: String = m.label.chars().filter(|c| *c != '\n').collect();
            let _ = writeln!(out, "[markername] {}{label}", marker_letter(i));
        }
        let _ = writeln!(out, "[sst_expanded] 0");
        let _ = writeln!(out, "[signals_width] 300");
        let filter = insn_filter_command();
        let by_path = Paths::new(signals);
        for (name, traces) in &self.groups {
            let mut found = Vec::new();
            for t in traces {
                match by_path.find(&t.path) {
                    Ok(sig) => found.push((t, sig)),
                    Err(_) if self.recorded_only => {}
                    Err(e) => return Err(e),
                }
            }
            if found.is_empty() && self.recorded_only {
                continue;
            }
            let _ = writeln!(out, "@{GROUP_BEGIN:x}\n-{name}");
            if found.iter().any(|(t, _)| t.format == Some(Format::Mask)) {
                let _ = writeln!(out, "@{COMMENT:x}\n-masks: lane 0 on the left");
            }
            for (t, sig) in found {
                let _ = writeln!(out, "@{:x}", trace_flags(t, sig));
                match t.format {
                    Some(Format::Named(table)) => {
                        let index = self.table_index(table)?;
                        let _ = writeln!(out, "^{} {}", index + 1, filter_file(gtkw_path, table));
                    }
                    Some(Format::Insn) => {
                        let _ = writeln!(out, "^>1 {filter}");
                    }
                    _ => {}
                }
                let _ = writeln!(out, "{}", trace_name(sig, t.format));
            }
            let _ = writeln!(out, "@{GROUP_END:x}\n-{name}");
        }
        Ok(out)
    }

    /// The window GTKWave opens on: (start, length) in ps.
    fn shown(&self, end_ps: u64) -> (u64, u64) {
        let end = end_ps.max(1);
        if let Some((from, len)) = self.window_ps {
            let from = from.min(end - 1);
            return (from, len.clamp(1, end - from));
        }
        let readable = READABLE_CYCLES * self.cycle_ps;
        if end <= readable {
            return (0, end);
        }
        // A long run: the readable window holding the most markers (of those GTKWave names),
        // from a few cycles before the first of them.
        let mut times: Vec<u64> = self
            .markers
            .iter()
            .take(MAX_MARKERS)
            .map(|m| m.ps)
            .collect();
        times.sort_unstable();
        let span = readable - 20 * self.cycle_ps;
        let in_span = |t: u64| times.iter().filter(|&&u| u >= t && u - t <= span).count();
        let first = times
            .iter()
            .copied()
            .max_by_key(|&t| (in_span(t), std::cmp::Reverse(t)))
            .unwrap_or(0);
        let from = first.saturating_sub(10 * self.cycle_ps);
        let from = from - from % self.cycle_ps;
        (from.min(end - 1), readable.min(end - from.min(end - 1)))
    }

    /// Writes the save file (see [`Gtkw::render`]).
    pub fn write(
        &self,
        gtkw_path: &Path,
        vcd_path: &Path,
        signals: &[SignalInfo],
        end_ps: u64,
    ) -> io::Result<()> {
        std::fs::write(
            gtkw_path,
            self.render(gtkw_path, vcd_path, signals, end_ps)?,
        )?;
        let dir = gtkw_path.parent().unwrap_or(Path::new(""));
        for (table, names) in &self.tables {
            let text: String = names.iter().map(|(v, n)| format!("{v} {n}\n")).collect();
            std::fs::write(dir.join(filter_file(gtkw_path, table)), text)?;
        }
        Ok(())
    }

    fn table_index(&self, table: &str) -> io::Result<usize> {
        self.tables
            .iter()
            .position(|(t, _)| t == table)
            .ok_or_else(|| {
                io::Error::new(
                    io::ErrorKind::InvalidInput,
                    format!("the .gtkw uses names `{table}`, which it does not define"),
                )
            })
    }

    /// `*zoom primary a b ... z`: the zoom that fits `shown` ps into the wave pane, named
    /// markers at their times. Measured on GTKWave 3.3.118 (1400-pixel window, 1 ps
    /// timescale): a zoom of z shows 2^-z / 200 ps per pixel, and the pane is ~1050 pixels.
    fn zoom_line(&self, shown: u64) -> String {
        let shown = shown.max(1) as f64;
        let zoom = -(shown * 200.0 / 1050.0).log2().max(0.0);
        let mut line = format!("*{zoom:.6} -1");
        for i in 0..MAX_MARKERS {
            match self.markers.get(i) {
                Some(m) => line += &format!(" {}", m.ps),
                None => line += " -1",
            }
        }
        line
    }
}

fn marker_letter(i: usize) -> char {
    char::from(b'A' + i as u8)
}

/// GTKWave's name of a signal: the dotted path, `[msb:lsb]` on vectors (not on enums, which are
/// string variables), and below the root an alias `+{scope/name}` so `q` reads `word/q`
/// (GTKWave shows only the last dot-separated part of a name, aliases included). A mask's
/// alias says where lane 0 is.
fn trace_name(sig: &SignalInfo, format: Option<Format>) -> String {
    let mut name = sig.path();
    if sig.width > 1 && sig.variants.is_none() {
        name += &format!("[{}:0]", sig.width - 1);
    }
    let depth = root_depth(sig);
    let mut alias = match sig.scope.len() > depth {
        true => {
            let scopes: Vec<&str> = sig.scope[depth..].iter().map(String::as_str).collect();
            Some(format!("{}/{}", scopes.join("/"), sig.name))
        }
        false => None,
    };
    if format == Some(Format::Mask) {
        let base = alias.take().unwrap_or_else(|| sig.name.clone());
        // No dots: GTKWave shows a name from its last dot on.
        alias = Some(format!("{base}(lane0:{})", sig.width.saturating_sub(1)));
    }
    if let Some(a) = alias {
        name = format!("+{{{a}}} {name}");
    }
    name
}

/// Scopes above the block: 1 (the harness's root scope) or 3 (Verilator's `TOP.vtop.dut`).
fn root_depth(sig: &SignalInfo) -> usize {
    let vl: Vec<&str> = crate::sim::vl::VL_ROOT.split('.').collect();
    if sig.scope.len() >= vl.len() && sig.scope.iter().zip(&vl).all(|(a, b)| a == b) {
        vl.len()
    } else {
        1
    }
}

/// A path below the block's root with rust-hdl's `$` separators as dots: the harness names
/// `ctxs$0.eff` and Verilator `ctxs$0$eff` the same signal.
fn below_root(parts: &[String], name: &str) -> String {
    let mut all: Vec<&str> = parts.iter().map(String::as_str).collect();
    all.push(name);
    all.join(".").replace('$', ".")
}

fn trace_flags(t: &Trace, sig: &SignalInfo) -> u32 {
    let default = if sig.width == 1 {
        Format::Bin
    } else {
        Format::Hex
    };
    t.format.unwrap_or(default).flags(sig.width)
}

/// The signals by their full path (the first of equal paths), to find a trace's signal
/// without a scan per trace.
struct Paths<'a> {
    signals: &'a [SignalInfo],
    exact: std::collections::HashMap<String, &'a SignalInfo>,
}

impl<'a> Paths<'a> {
    fn new(signals: &'a [SignalInfo]) -> Self {
        let mut exact = std::collections::HashMap::with_capacity(signals.len());
        for s in signals {
            exact.entry(s.path()).or_insert(s);
        }
        Self { signals, exact }
    }

    /// The signal at `path` (a harness path, `root.scope.name`): the same path, or in a Verilator
    /// waveform the same signal below `TOP.vtop.dut`.
    fn find(&self, path: &str) -> io::Result<&'a SignalInfo> {
        if let Some(s) = self.exact.get(path) {
            return Ok(s);
        }
        let rest = path
            .split_once('.')
            .map_or("", |(_, r)| r)
            .replace('$', ".");
        let same = |s: &&SignalInfo| {
            let d = root_depth(s);
            d > 1 && d <= s.scope.len() && below_root(&s.scope[d..], &s.name) == rest
        };
        self.signals.iter().find(same).ok_or_else(|| {
            io::Error::new(
                io::ErrorKind::InvalidInput,
                format!("the .gtkw names `{path}`, which the VCD does not record"),
            )
        })
    }
}

/// The translate filter file of `table`, beside the save file: `STEM.TABLE.txt`.
fn filter_file(gtkw_path: &Path, table: &str) -> String {
    let stem = gtkw_path
        .file_stem()
        .map_or_else(String::new, |s| s.to_string_lossy().into_owned());
    format!("{stem}.{table}.txt")
}

/// The last component of `p`.
fn file_name(p: &Path) -> String {
    p.file_name()
        .map_or_else(|| p.display().to_string(), |f| f.to_string_lossy().into())
}

/// `target` as a path relative to the directory of `from` (same directory → the file name).
fn relative_to(target: &Path, from: &Path) -> String {
    let dir = from.parent().unwrap_or(Path::new(""));
    match target.strip_prefix(dir) {
        Ok(rel) if !dir.as_os_str().is_empty() => rel.display().to_string(),
        _ => target.display().to_string(),
    }
}

/// A translate table from names in code order: value i is `names[i]`.
pub fn named(names: &[&str]) -> Vec<(u64, String)> {
    names
        .iter()
        .enumerate()
        .map(|(i, s)| (i as u64, s.to_string()))
        .collect()
}

/// Borrows owned trace names for [`Gtkw::group`].
pub fn as_refs(v: &[(String, Option<Format>)]) -> Vec<(&str, Option<Format>)> {
    v.iter().map(|(s, f)| (s.as_str(), *f)).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::signals::Role;

    fn sig(name: &str, width: usize) -> SignalInfo {
        SignalInfo {
            scope: vec!["top".into()],
            name: name.into(),
            width,
            role: Role::Input,
            variants: None,
            is_clock: false,
            index: 0,
        }
    }

    #[test]
    fn groups_formats_and_markers() {
        let g = Gtkw::new("t")
            .group("in", &[("top.a", None), ("top.b", Some(Format::Dec))])
            .marker(1500, "split");
        let text = g
            .render(
                Path::new("waveforms/t.gtkw"),
                Path::new("waveforms/t.vcd"),
                &[sig("a", 1), sig("b", 8)],
                10_000,
            )
            .unwrap();
        assert!(text.contains("[dumpfile] \"t.vcd\""), "{text}");
        assert!(
            text.contains("@800200\n-in\n@28\ntop.a\n@24\ntop.b[7:0]\n@1000200\n-in"),
            "{text}"
        );
        assert!(text.contains("[*] marker A: 1500 ps: split"));
        assert!(text.contains(" -1 1500 -1"), "{text}");
    }

    #[test]
    fn unknown_signals_are_reported() {
        let g = Gtkw::new("t").group("in", &[("top.nope", None)]);
        let err = g
            .render(Path::new("t.gtkw"), Path::new("t.vcd"), &[sig("a", 1)], 1)
            .unwrap_err();
        assert!(err.to_string().contains("top.nope"));
    }
}
