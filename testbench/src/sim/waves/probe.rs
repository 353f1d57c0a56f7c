//! VCD recording of values that are not rust-hdl signals (behavioural models): the caller
//! declares named variables once, then samples all of them per time step; only changes are
//! written. The declared variables are described as [`SignalInfo`]s, so a [`super::Gtkw`] can
//! name them.

use super::out::{write_change, write_timestamp, WaveOut};
use super::recorder::enter_scope;
use crate::sim::signals::{Role, SignalInfo};
use std::fs::File;
use std::io;
use std::path::{Path, PathBuf};
use vcd::{IdCode, TimescaleUnit};

/// A variable the file declares: its width and its id as written in value changes (with the
/// line's ending, formatted once).
struct Recorded {
    width: usize,
    id: Vec<u8>,
}

/// Marks a sampled value that the file does not record (outside the selected scopes).
const UNRECORDED: u32 = u32::MAX;

/// A VCD file of declared variables (timescale 1 ps), each at most 64 bits wide.
pub struct ProbeRecorder {
    writer: vcd::Writer<WaveOut<File>>,
    path: PathBuf,
    /// The recorded variables (declared, in a selected scope), in declaration order.
    recorded: Vec<Recorded>,
    /// Per sampled value: its variable in `recorded`, or [`UNRECORDED`].
    slot: Vec<u32>,
    /// Per sampled value: its last value (kept outside the window too, so that the window's
    /// first sample writes the values as they stand).
    last: Vec<u64>,
    /// No sample written yet (the first one writes every value).
    fresh: bool,
    /// No sample taken yet, inside or outside the window.
    sampled: bool,
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
        let mut writer = vcd::Writer::new(WaveOut::create(path)?);
        writer.timescale(1, TimescaleUnit::PS)?;
        let mut open = Vec::new();
        let mut recorded = Vec::new();
        let mut slot = vec![UNRECORDED; vars.len()];
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
            slot[index] = recorded.len() as u32;
            recorded.push(Recorded {
                width: *width,
                id: format!("{id}\n").into_bytes(),
            });
            signals.push(sig);
        }
        enter_scope(&mut writer, &mut open, &[])?;
        writer.enddefinitions()?;
        Ok(Self {
            writer,
            path: path.to_path_buf(),
            recorded,
            last: vec![0; slot.len()],
            slot,
            fresh: true,
            sampled: false,
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

    /// Whether a sample at `ps` writes every value (the first sample, or the first one in the
    /// window): it must then be a whole [`ProbeRecorder::sample`], not parts.
    pub fn writes_all_at(&self, ps: u64) -> bool {
        !self.sampled || (self.fresh && ps >= self.window.0 && ps <= self.window.1)
    }

    /// Writes the values that changed at time `ps` (`values` in declaration order). A value
    /// that does not fit its variable (narrower than 64 bits) is written as unknown (x).
    pub fn sample(&mut self, ps: u64, values: &[u64]) -> io::Result<()> {
        self.sample_part(ps, values, 0..values.len())
    }

    /// [`ProbeRecorder::sample`] of the values in `part` only (the others stand as last
    /// sampled): e.g. the DRAM clock's variables between two core samples.
    pub fn sample_part(
        &mut self,
        ps: u64,
        values: &[u64],
        part: std::ops::Range<usize>,
    ) -> io::Result<()> {
        let end = part.end.min(values.len()).min(self.last.len());
        if !std::mem::replace(&mut self.sampled, true) {
            // Before the first sample the other values stand as they are now.
            let n = values.len().min(self.last.len());
            self.last[..n].copy_from_slice(&values[..n]);
        }
        let inside = ps >= self.window.0 && ps <= self.window.1;
        if inside && std::mem::take(&mut self.fresh) {
            self.last[part.start..end].copy_from_slice(&values[part.start..end]);
            return self.write_all_values(ps);
        }
        // Eight values at a time: most of them stand still from one sample to the next.
        let mut i = part.start;
        while i < end {
            let to = (i + 8).min(end);
            if differ(&values[i..to], &self.last[i..to]) {
                for (j, &v) in values.iter().enumerate().take(to).skip(i) {
                    if v != self.last[j] {
                        self.last[j] = v;
                        if inside {
                            self.write(ps, j)?;
                        }
                    }
                }
            }
            i = to;
        }
        Ok(())
    }

    /// Writes every recorded variable's last value at `ps`.
    fn write_all_values(&mut self, ps: u64) -> io::Result<()> {
        for j in 0..self.last.len() {
            self.write(ps, j)?;
        }
        Ok(())
    }

    /// Writes sampled value `j` (its last value) at `ps`, if the file records it.
    fn write(&mut self, ps: u64, j: usize) -> io::Result<()> {
        let Some(r) = self.recorded.get(self.slot[j] as usize) else {
            return Ok(());
        };
        if self.stamped != Some(ps) {
            write_timestamp(self.writer.writer(), ps)?;
            self.stamped = Some(ps);
        }
        write_change(self.writer.writer(), self.last[j], r.width, &r.id)
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

/// Whether two runs of at most eight values differ (folded without a call to `memcmp`,
/// which the slices' `!=` makes).
fn differ(a: &[u64], b: &[u64]) -> bool {
    a.iter().zip(b).fold(0, |d, (x, y)| d | (x ^ y)) != 0
}
