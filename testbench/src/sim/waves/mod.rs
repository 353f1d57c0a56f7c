//! Waveforms: a VCD recorder for rust-hdl blocks, a GTKWave save-file (`.gtkw`) writer, the
//! GTKWave filter that shows instruction words as assembly ([`filter`]) and the scopes a
//! waveform is limited to ([`scopes`]).

pub mod filter;
mod fst;
mod gtkw;
pub mod merge;
mod probe;
mod recorder;
pub mod scopes;

pub use fst::{convert as vcd_to_fst, fst_header, is_fst, to_fst};
pub use gtkw::{
    as_refs, insn_filter_command, named, portable, Format, Gtkw, Marker, READABLE_CYCLES,
};
pub use probe::ProbeRecorder;
pub use recorder::{VcdOptions, VcdRecorder};
