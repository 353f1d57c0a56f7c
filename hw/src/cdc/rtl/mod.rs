//! The dual-clock FIFO's RTL: the FIFO [`cdc_fifo::CdcFifo`] and the Gray-to-binary
//! converter [`gray::GrayToBin`] each side uses on the synchronized pointer.

pub mod cdc_fifo;
pub mod gray;

pub use cdc_fifo::CdcFifo;
pub use gray::GrayToBin;
