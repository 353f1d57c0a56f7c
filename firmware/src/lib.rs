//! rtgpu firmware: everything on the host side of the bus. So far: the instruction set
//! ([`isa`]): encoder, decoder, assembler and disassembler; and the host side of the
//! aging-aware instruction distribution ([`aging`]): process-variation maps, the aging model,
//! cluster formation (Alg. 3) and the distribution ratio (Alg. 4) that program the IDU, and
//! the lifetime experiment that compares the ratio with the stock dispatcher and an even split
//! (its per-step timing pluggable: analytic here, cycle-level in `rtgpu-testbench`); the kernel
//! ABI ([`launch`]); the reference interpreter ([`interp`]) that runs a launch without timing;
//! the driver ([`driver`]) that runs one on the GPU model through its MMIO registers; and the
//! compiler side of the warp-based load/store reordering ([`ldst_trace`]): per-wavefront
//! global load/store traces from the interpreter and the static L1 miss estimate; and the
//! PWS compiler pass ([`pws_pass`]): the structure of an assembled kernel (masked ifs, loops,
//! its C_conv and per-instruction owners for the WCET analysis) and the split/merge placement; and random
//! structured divergent kernels for compute-unit tests ([`gen_kernel`]); compiled OpenCL C kernels:
//! their HSA ABI ([`hsa`]) and the suite's host-side references ([`suite`]).

pub mod aging;
pub mod driver;
pub mod gen_kernel;
pub mod hsa;
pub mod interp;
pub mod isa;
pub mod launch;
pub mod ldst_trace;
pub mod pws_pass;
pub mod rtsched;
pub mod suite;
pub mod vuln;
