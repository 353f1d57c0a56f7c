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
    /// A `split` at `pc` inside a loop or another opaque region (spec §9 A26).
    SplitInLoop {
        /// The `split`.
        pc: u32,
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
                write!(f, "{pc:#06x}: split inside a loop or opaque region (A26)")
            }
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
