//! Waveforms: a VCD recorder for rust-hdl blocks and a GTKWave save-file (`.gtkw`) writer.

mod gtkw;
mod recorder;

pub use gtkw::{as_refs, named, Format, Gtkw, Marker};
pub use recorder::{VcdOptions, VcdRecorder};
