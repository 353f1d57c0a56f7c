//! VCD recording of a rust-hdl block tree, with the block's own scopes.
//!
//! Like rust-hdl's `vcd_probe`, enums are written by name (VCD `string` variables, which
//! GTKWave shows as text; port vectors keep their index, as the Verilog encodes them). Unlike
//! it, constants are left out and recording can be limited to scopes. A harness without a
//! recorder pays nothing.

use super::out::{write_change, write_timestamp, WaveOut};
use crate::sim::signals::{for_each_leaf, list_signals, Atoms, LeafValue, Role, SignalInfo, Word};
use rust_hdl::core::block::Block;
use std::fs::File;
use std::io::{self, Write};
use std::path::{Path, PathBuf};
use vcd::{IdCode, TimescaleUnit, Value, VarType};

/// What to record.
#[derive(Clone, Debug, Default)]
pub struct VcdOptions {
    /// Record only the signals in these scopes or below them (dotted paths, e.g.
    /// `decode.word`; a signal's path selects it alone); empty: every signal. Constants are
    /// never recorded. [`crate::sim::harness::Harness::record_vcd`] checks them against the
    /// block first ([`super::scopes::resolve`]).
    pub scopes: Vec<String>,
    /// Record only the samples from `.0` to `.1` ps (inclusive; `--vcd-window`): the first
    /// one writes every value.
    pub window: Option<(u64, u64)>,
}

/// A VCD file being written from a block's signals (timescale 1 ps).
pub struct VcdRecorder {
    out: Changes,
    path: PathBuf,
    /// By signal index: the VCD id of a recorded signal, and the id as written in a value
    /// change (with the line's ending).
    ids: Vec<Option<(IdCode, Vec<u8>)>>,
    /// The block's atoms: their types, and which ones hold recorded signals (learnt on the
    /// first sample).
    atoms: Atoms,
    recorded: Vec<SignalInfo>,
    time: Option<u64>,
    window: (u64, u64),
    /// The caller tells every change ([`VcdRecorder::with_change_tracking`]).
    tracked: bool,
}

impl VcdRecorder {
    /// Creates `path` and writes the header for `uut`, whose top scope is named `root`.
    pub fn create(path: &Path, uut: &dyn Block, root: &str, opts: &VcdOptions) -> io::Result<Self> {
        let mut writer = vcd::Writer::new(WaveOut::create(path)?);
        writer.timescale(1, TimescaleUnit::PS)?;
        let signals = list_signals(uut, root);
        let keep = |s: &SignalInfo| {
            s.role != Role::Constant
                && (opts.scopes.is_empty() || opts.scopes.iter().any(|p| s.is_in_scope(p)))
        };
        let recorded: Vec<SignalInfo> = signals.iter().filter(|s| keep(s)).cloned().collect();
        let mut ids = vec![None; signals.len()];
        let names = signals.iter().map(|s| s.variants.clone()).collect();
        let mut open: Vec<String> = Vec::new();
        for s in &recorded {
            enter_scope(&mut writer, &mut open, &s.scope)?;
            let id = match s.variants {
                // Enums are written by name (GTKWave shows VCD string variables as text).
                Some(_) => writer.add_var(VarType::String, 1, &s.name, None)?,
                None => writer.add_wire(s.width as u32, &s.name)?,
            };
            ids[s.index] = Some((id, format!("{id}\n").into_bytes()));
        }
        enter_scope(&mut writer, &mut open, &[])?;
        writer.enddefinitions()?;
        Ok(Self {
            out: Changes {
                writer,
                last: vec![None; ids.len()],
                last_wide: vec![None; ids.len()],
                widths: signals.iter().map(|s| s.width).collect(),
                names,
            },
            path: path.to_path_buf(),
            ids,
            atoms: Atoms::default(),
            recorded,
            time: None,
            window: opts.window.unwrap_or((0, u64::MAX)),
            tracked: false,
        })
    }

    /// The caller calls [`VcdRecorder::note_changes`] after every `update_all` of the block
    /// that changed something. After the first sample, a sample then reads only the signals
    /// marked since the last one (rust-hdl hands a value out only as an allocated vector of
    /// bits), or all of them after many changing updates (see [`Atoms::note_changes`]).
    pub fn with_change_tracking(mut self) -> Self {
        self.tracked = true;
        self
    }

    /// The signals this recorder writes.
    pub fn signals(&self) -> &[SignalInfo] {
        &self.recorded
    }

    /// The file being written.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// Notes the signals of `uut` that its last `update_all` changed (see
    /// [`VcdRecorder::with_change_tracking`]).
    pub fn note_changes(&mut self, uut: &dyn Block) {
        self.atoms.note_changes(uut);
    }

    /// Writes the changes of `uut`'s signals at time `ps` (must not go backwards).
    pub fn sample(&mut self, ps: u64, uut: &dyn Block) -> io::Result<()> {
        if ps < self.window.0 || ps > self.window.1 {
            return Ok(());
        }
        let mut result = Ok(());
        let mut stamped = self.time == Some(ps);
        let (ids, out) = (&self.ids, &mut self.out);
        for_each_leaf(
            uut,
            &mut self.atoms,
            |i| ids[i].is_some(),
            |index, value| {
                let Some(id) = &ids[index] else {
                    return;
                };
                if result.is_err() {
                    return;
                }
                let Some(changed) = out.changed(index, value) else {
                    return;
                };
                if !std::mem::replace(&mut stamped, true) {
                    result = write_timestamp(out.writer.writer(), ps);
                }
                if result.is_ok() {
                    result = out.write(index, id, changed);
                }
            },
        );
        if stamped {
            self.time = Some(ps);
        }
        self.choose_tracking();
        result
    }

    /// After the first sample, which read every signal: tracks changes from now on if the
    /// caller tells them.
    fn choose_tracking(&mut self) {
        if self.tracked && !self.atoms.tracking() {
            self.atoms.track();
        }
    }

    /// Writes a final timestamp (at most the window's end) and flushes the file.
    pub fn finish(mut self, end_ps: u64) -> io::Result<PathBuf> {
        let end_ps = end_ps.min(self.window.1.saturating_add(1));
        let writer = &mut self.out.writer;
        if self.time.is_none_or(|t| end_ps > t) {
            writer.timestamp(end_ps)?;
        }
        writer.flush()?;
        Ok(self.path)
    }
}

/// The VCD's value changes, with the last value of every signal.
struct Changes {
    writer: vcd::Writer<WaveOut<File>>,
    /// By signal index: variant names of enum signals.
    names: Vec<Option<Vec<String>>>,
    /// By signal index: the last value written, for signals of up to 64 bits (an enum: its
    /// variant's index).
    last: Vec<Option<u64>>,
    /// By signal index: the last value written, for wider signals.
    last_wide: Vec<Option<Word>>,
    /// By signal index: its width.
    widths: Vec<usize>,
}

impl Changes {
    /// Signal `index`'s `value`, kept as its last, if it differs from the last one written.
    fn changed(&mut self, index: usize, value: LeafValue) -> Option<Leaf> {
        if let Some(v) = value.small() {
            let new = self.last[index] != Some(v);
            self.last[index] = Some(v);
            return new.then_some(Leaf::Small(v));
        }
        let w = value.to_word();
        let new = self.last_wide[index].as_ref() != Some(&w);
        new.then(|| {
            self.last_wide[index] = Some(w);
            Leaf::Wide
        })
    }

    /// Writes the change of signal `index` (VCD id `id`, and as written with its line's
    /// ending) to `value`.
    fn write(
        &mut self,
        index: usize,
        (id, id_line): &(IdCode, Vec<u8>),
        value: Leaf,
    ) -> io::Result<()> {
        match (&self.names[index], value) {
            (Some(names), Leaf::Small(v)) => self.writer.change_string(*id, variant(names, v)),
            (_, Leaf::Small(v)) => {
                write_change(self.writer.writer(), v, self.widths[index], id_line)
            }
            (_, Leaf::Wide) => {
                let w = self.last_wide[index].as_ref().expect("kept by `changed`");
                write_wide(&mut self.writer, *id, w)
            }
        }
    }
}

/// Opens/closes VCD scopes to go from the open scope path to `target`.
pub(crate) fn enter_scope<W: Write>(
    writer: &mut vcd::Writer<W>,
    open: &mut Vec<String>,
    target: &[String],
) -> io::Result<()> {
    let common = open.iter().zip(target).take_while(|(a, b)| a == b).count();
    while open.len() > common {
        writer.upscope()?;
        open.pop();
    }
    for name in &target[common..] {
        writer.add_module(name)?;
        open.push(name.clone());
    }
    Ok(())
}

/// The name of an enum value (its index), or `?` for an index out of range.
fn variant(names: &[String], index: u64) -> &str {
    names.get(index as usize).map_or("?", String::as_str)
}

/// A changed value to write: up to 64 bits as a number (an enum as its variant index); a
/// wider one is the signal's last value (`Changes::last_wide`).
#[derive(Clone, Copy, Debug)]
enum Leaf {
    Small(u64),
    Wide,
}

/// The value change of a signal wider than 64 bits.
fn write_wide<W: Write>(writer: &mut vcd::Writer<W>, id: IdCode, value: &Word) -> io::Result<()> {
    let bit = |b: bool| if b { Value::V1 } else { Value::V0 };
    let msb_first: Vec<Value> = value.iter().rev().map(|b| bit(*b)).collect();
    writer.change_vector(id, msb_first)
}
