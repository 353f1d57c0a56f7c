//! rtgpu-wcet: the timing analyses (worst-case bounds) of the five source works
//! (ARCHITECTURE.md, "Layout").
//!
//! Empty so far: the PWS, multi-phase, Sim-D and reordering issues fill it.
