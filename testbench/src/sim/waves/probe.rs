//! VCD recording of values that are not rust-hdl signals (behavioural models): the caller
//! declares named variables once, then samples all of them per time step; only changes are
//! written. The declared variables are described as [`SignalInfo`]s, so a [`super::Gtkw`] can
//! name them.

use super::recorder::enter_scope;
use crate::paths::with_path;
use crate::sim::signals::{Role, SignalInfo};
use std::fs::File;
use std::io::{self, BufWriter, Write};
use std::path::{Path, PathBuf};
use vcd::{IdCode, TimescaleUnit};

/// A variable the file declares.
struct Recorded {
    index: usize,
    width: usize,
    id: String,
    last: u64,
}

/// A VCD file of declared variables (timescale 1 ps), each at most 64 bits wide.
pub struct ProbeRecorder {
    writer: vcd::Writer<BufWriter<File>>,
    path: PathBuf,
    /// Per recorded variable (declared, in a selected scope), in declaration order: its index
    /// among the sampled values, its width, its id as written in value changes (formatted
    /// once) and its last value written.
    recorded: Vec<Recorded>,
    /// No sample written yet (the first one writes every value).
    fresh: bool,
    signals: Vec<SignalInfo>,
    stamped: Option<u64>,
    window: (u64, u64),
}

impl ProbeRecorder {
    /// Creates `path` with the variables `vars` (scope path, name, width in 1..=64), in the
    /// order [`ProbeRecorder::sample`] takes their values.
    pub fn create(path: &Path, vars: &[(Vec<String>, String, usize)]) -> io::Result<Self> {
        Self::create_in(path, vars, &[])
    }

    /// [`ProbeRecorder::create`], declaring only the variables in `scopes` (dotted paths; a
    /// variable's own path selects it alone; empty: every variable). The others are still
    /// passed to [`ProbeRecorder::sample`] and left out.
    pub fn create_in(
        path: &Path,
        vars: &[(Vec<String>, String, usize)],
        scopes: &[String],
    ) -> io::Result<Self> {
        if let Some(dir) = path.parent().filter(|d| !d.as_os_str().is_empty()) {
            std::fs::create_dir_all(dir).map_err(|e| with_path(e, dir))?;
        }
        let file = File::create(path).map_err(|e| with_path(e, path))?;
        let mut writer = vcd::Writer::new(BufWriter::new(file));
        writer.timescale(1, TimescaleUnit::PS)?;
        let mut open = Vec::new();
        let mut recorded = Vec::new();
        let mut signals = Vec::new();
        for (index, (scope, name, width)) in vars.iter().enumerate() {
            let sig = SignalInfo {
                scope: scope.clone(),
                name: name.clone(),
                width: *width,
                role: Role::Internal,
                variants: None,
                is_clock: false,
                index,
            };
            if !scopes.is_empty() && !scopes.iter().any(|p| sig.is_in_scope(p)) {
                continue;
            }
            enter_scope(&mut writer, &mut open, scope)?;
            let id: IdCode = writer.add_wire(*width as u32, name)?;
            recorded.push(Recorded {
                index,
                width: *width,
                id: id.to_string(),
                last: 0,
            });
            signals.push(sig);
        }
        enter_scope(&mut writer, &mut open, &[])?;
        writer.enddefinitions()?;
        Ok(Self {
            writer,
            path: path.to_path_buf(),
            recorded,
            fresh: true,
            signals,
            stamped: None,
            window: (0, u64::MAX),
        })
    }

    /// Records only the samples from `.0` to `.1` ps (inclusive; `--vcd-window`): the first
    /// one writes every value.
    pub fn with_window(mut self, window: (u64, u64)) -> Self {
        self.window = window;
        self
    }

    /// The variables, as signals for a `.gtkw`.
    pub fn signals(&self) -> &[SignalInfo] {
        &self.signals
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Writes the values that changed at time `ps` (`values` in declaration order). A value
    /// that does not fit its variable (narrower than 64 bits) is written as unknown (x).
    pub fn sample(&mut self, ps: u64, values: &[u64]) -> io::Result<()> {
        if ps < self.window.0 || ps > self.window.1 {
            return Ok(());
        }
        let fresh = std::mem::take(&mut self.fresh);
        for r in &mut self.recorded {
            let Some(&v) = values.get(r.index) else {
                break;
            };
            if r.last == v && !fresh {
                continue;
            }
            if self.stamped != Some(ps) {
                self.writer.timestamp(ps)?;
                self.stamped = Some(ps);
            }
            write_change(self.writer.writer(), v, r.width, &r.id)?;
            r.last = v;
        }
        Ok(())
    }

    /// Writes a final timestamp (at most the window's end) and flushes the file.
    pub fn finish(mut self, end_ps: u64) -> io::Result<PathBuf> {
        let end_ps = end_ps.min(self.window.1.saturating_add(1));
        if self.stamped.is_none_or(|t| end_ps > t) {
            self.writer.timestamp(end_ps)?;
        }
        self.writer.flush()?;
        Ok(self.path)
    }
}

/// Writes value `v` of a `w`-bit variable with id `id` as the `vcd` crate does (`1!`, or
/// `b0101 !` with every bit; x bits if `v` does not fit), in one write without allocating.
fn write_change(out: &mut impl Write, v: u64, w: usize, id: &str) -> io::Result<()> {
    let mut buf = [0u8; 80];
    let n = if w == 1 {
        buf[0] = b'0' + (v & 1) as u8;
        1
    } else {
        let x = w < 64 && v >> w != 0;
        buf[0] = b'b';
        for (k, c) in buf[1..=w].iter_mut().enumerate() {
            *c = match x {
                true => b'x',
                false => b'0' + (v >> (w - 1 - k) & 1) as u8,
            };
        }
        buf[w + 1] = b' ';
        w + 2
    };
    out.write_all(&buf[..n])?;
    out.write_all(id.as_bytes())?;
    out.write_all(b"\n")
}

#[cfg(test)]
mod tests {
    use super::*;
    use vcd::Value;

    /// The same bytes as the `vcd` crate's `change_scalar` / `change_vector`.
    #[test]
    fn changes_are_written_as_the_vcd_crate_writes_them() {
        let id = IdCode::from(37u32);
        for (v, w) in [
            (1, 1),
            (0, 1),
            (5, 4),
            (0, 3),
            (u64::MAX, 64),
            (9, 3),
            (1 << 63, 64),
        ] {
            let mut ours = Vec::new();
            write_change(&mut ours, v, w, &id.to_string()).unwrap();
            let mut theirs = vcd::Writer::new(Vec::new());
            if w == 1 {
                let b = if v & 1 == 1 { Value::V1 } else { Value::V0 };
                theirs.change_scalar(id, b).unwrap();
            } else {
                let x = w < 64 && v >> w != 0;
                let bits = (0..w).rev().map(|b| match (x, v >> b & 1) {
                    (true, _) => Value::X,
                    (false, 1) => Value::V1,
                    _ => Value::V0,
                });
                theirs.change_vector(id, bits).unwrap();
            }
            assert_eq!(ours, theirs.writer().clone(), "{v:#x} in {w} bits");
        }
    }
}
