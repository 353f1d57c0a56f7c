//! Waveforms: a VCD recorder for rust-hdl blocks, a GTKWave save-file (`.gtkw`) writer, the
//! GTKWave filter that shows instruction words as assembly ([`filter`]) and the scopes a
//! waveform is limited to ([`scopes`]).

pub mod filter;
mod fst;
mod gtkw;
pub mod merge;
mod out;
mod probe;
mod recorder;
pub mod scopes;

pub use fst::{convert as vcd_to_fst, fst_header, is_fst, to_fst};
pub use gtkw::{
    as_refs, insn_filter_command, named, portable, Format, Gtkw, Marker, READABLE_CYCLES,
};
pub use probe::ProbeRecorder;
pub use recorder::{VcdOptions, VcdRecorder};

/// The write buffer of a waveform being recorded. Written to the file in pieces this large,
/// the kernel fills its page cache in large folios: a 16 MB file took about 12 ms in 8 KiB
/// writes (`BufWriter`'s default) and 3–7 ms in 1 MiB ones on the development machine.
const WRITE_BUFFER: usize = 1 << 20;
