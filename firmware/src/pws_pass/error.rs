//! Why a kernel could not be structured or compiled.

use std::fmt;

use rtgpu_wcet::pws::cfg::CfgError;

/// Why [`super::Kstruct::parse`] or [`super::compile`] failed. PCs are byte addresses in the
/// code being parsed (the input of `compile`, unless the variant says otherwise).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PassError {
    /// There is no code.
    Empty,
    /// The words at `pc` are not an instruction of the subset.
    Decode {
        /// Address of the first word.
        pc: u32,
        /// The decoder's reason.
        msg: String,
    },
    /// A branch at `pc` targets an address outside the code.
    TargetOutside {
        /// The branch.
        pc: u32,
        /// Its target (byte address, may be negative).
        target: i64,
    },
    /// A branch at `pc` targets the middle of a 2-word instruction.
    TargetMidInstruction {
        /// The branch.
        pc: u32,
        /// Its target.
        target: u32,
    },
    /// `s_setpc_b64` / `s_swappc_b64` at `pc`: the target is not static.
    Indirect {
        /// The instruction.
        pc: u32,
    },
    /// The last instruction (at `pc`) is not `s_endpgm`.
    FallsOffEnd {
        /// The last instruction.
        pc: u32,
    },
    /// An `s_endpgm` at `pc` before the last instruction.
    EarlyExit {
        /// The `s_endpgm`.
        pc: u32,
    },
    /// The control flow at `pc` is not a structured masked if, plain code or a contained loop.
    Unstructured {
        /// The offending instruction.
        pc: u32,
        /// What is wrong.
        reason: &'static str,
    },
    /// A `split` at `pc` inside a loop or another opaque region (A26,
    /// docs/assumptions.md#A26: the analysis needs unrolled, loop-free code).
    SplitInLoop {
        /// The `split`.
        pc: u32,
    },
    /// An `s_barrier` at `pc` inside the region of a kept split (then-arm, else-head or
    /// else-arm, opaque loops included): the halves would wait for each other (A22,
    /// docs/assumptions.md#A22).
    BarrierInSplit {
        /// The `s_barrier`.
        pc: u32,
    },
    /// Scalar register `reg`, written at `write_pc` inside the region of the kept split of
    /// the if at `pc`, is read at `read_pc` after the join before being written again: the
    /// merge keeps the parent's SRF, so the value may be lost (A13,
    /// docs/assumptions.md#A13).
    ScalarLiveOut {
        /// The if's `s_and_saveexec_b64`.
        pc: u32,
        /// The register (`s20`, `vcc`, `scc`, `m0`, ...).
        reg: String,
        /// The last write of `reg` in the region.
        write_pc: u32,
        /// The first read of `reg` after the join.
        read_pc: u32,
    },
    /// A scalar register the then-arm of a kept split writes is read by its else path before
    /// the else path writes it: split halves have separate scalar registers, so the else half
    /// would read the value from before the if (A13's rule, inside the region).
    ScalarAcrossArms {
        /// The if's `s_and_saveexec_b64`.
        pc: u32,
        /// The register.
        reg: String,
        /// The last write of `reg` in the then-arm.
        write_pc: u32,
        /// The first read of `reg` in the else path.
        read_pc: u32,
    },
    /// The C_conv built from the structure was rejected (a bug here, reported, not hidden).
    Cfg(CfgError),
    /// A cost vector given to [`super::Kstruct::costed`] has the wrong length.
    CostLength {
        /// Which vector (`"block"` or `"bsb"`).
        what: &'static str,
        /// Its length.
        got: usize,
        /// The number of C_conv blocks.
        want: usize,
    },
    /// After the rewrite, the branch at output address `pc` cannot reach its target with a
    /// 16-bit offset.
    OffsetOverflow {
        /// The branch (output address).
        pc: u32,
        /// The dword offset it would need.
        offset: i64,
    },
    /// An instruction at output address `pc` could not be encoded.
    Encode {
        /// Output address.
        pc: u32,
        /// The encoder's reason.
        msg: String,
    },
}

impl fmt::Display for PassError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::Empty => write!(f, "no code"),
            Self::Decode { pc, msg } => write!(f, "{pc:#06x}: {msg}"),
            Self::TargetOutside { pc, target } => {
                write!(
                    f,
                    "{pc:#06x}: branch target {target:#x} is outside the code"
                )
            }
            Self::TargetMidInstruction { pc, target } => {
                write!(
                    f,
                    "{pc:#06x}: branch target {target:#06x} is inside an instruction"
                )
            }
            Self::Indirect { pc } => write!(f, "{pc:#06x}: indirect branch (target not static)"),
            Self::FallsOffEnd { pc } => {
                write!(f, "{pc:#06x}: the last instruction is not s_endpgm")
            }
            Self::EarlyExit { pc } => write!(f, "{pc:#06x}: s_endpgm before the end of the code"),
            Self::Unstructured { pc, reason } => write!(f, "{pc:#06x}: unstructured: {reason}"),
            Self::SplitInLoop { pc } => {
                write!(
                    f,
                    "{pc:#06x}: split inside a loop or opaque region (the analysis needs \
                     loop-free code; docs/assumptions.md#A26)"
                )
            }
            Self::BarrierInSplit { pc } => {
                write!(
                    f,
                    "{pc:#06x}: s_barrier inside a kept split region (the halves would wait \
                     for each other; docs/assumptions.md#A22)"
                )
            }
            Self::ScalarLiveOut {
                pc,
                reg,
                write_pc,
                read_pc,
            } => write!(
                f,
                "{pc:#06x}: {reg} written at {write_pc:#06x} inside the kept split is read \
                 at {read_pc:#06x} after the merge (the merge keeps the parent's scalar registers; \
                 docs/assumptions.md#A13)"
            ),
            Self::ScalarAcrossArms {
                pc,
                reg,
                write_pc,
                read_pc,
            } => write!(
                f,
                "{pc:#06x}: {reg} written at {write_pc:#06x} in the then-arm of the kept split \
                 is read at {read_pc:#06x} in its else path (split halves do not share scalar \
                 registers; docs/assumptions.md#A13)"
            ),
            Self::Cfg(e) => write!(f, "C_conv rejected: {e}"),
            Self::CostLength { what, got, want } => {
                write!(f, "{what} costs: {got} values for {want} blocks")
            }
            Self::OffsetOverflow { pc, offset } => {
                write!(
                    f,
                    "{pc:#06x} (output): branch offset {offset} does not fit i16"
                )
            }
            Self::Encode { pc, msg } => write!(f, "{pc:#06x} (output): cannot encode: {msg}"),
        }
    }
}

impl std::error::Error for PassError {}

impl From<CfgError> for PassError {
    fn from(e: CfgError) -> Self {
        Self::Cfg(e)
    }
}
