//! rtgpu-firmware: the host side of the bus — the ISA encoder/decoder/assembler, kernel
//! descriptors, the MMIO driver and the host algorithms (ARCHITECTURE.md, "Layout").
//!
//! Empty so far: the foundation issue builds the harness; the ISA and driver issues fill it.
