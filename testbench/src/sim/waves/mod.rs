//! Waveforms: a VCD recorder for rust-hdl blocks and a GTKWave save-file (`.gtkw`) writer.

mod gtkw;
mod probe;
mod recorder;

pub use gtkw::{as_refs, named, Format, Gtkw, Marker};
pub use probe::ProbeRecorder;
pub use recorder::{VcdOptions, VcdRecorder};
