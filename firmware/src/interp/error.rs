//! Why an interpreted launch stops early: [`InterpError`], and the internal [`Trap`] an
//! instruction raises before the scheduler adds the PC and the instruction word.

use std::fmt;

/// A launch the interpreter could not run to the end.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum InterpError {
    /// The word at `pc` is not an instruction of the subset (or uses an operand the
    /// interpreter does not model, such as `src_lds_direct` or `gds`).
    IllegalInstruction {
        /// Byte address of the instruction.
        pc: u32,
        /// Its first word.
        word: u32,
    },
    /// A wavefront fetched outside the code image (or from an unaligned PC).
    PcOutOfRange {
        /// The PC (saturated to `u32::MAX` when a 64-bit PC does not fit).
        pc: u32,
    },
    /// A scalar or FLAT access was unaligned or reached past the end of data memory.
    MemoryFault {
        /// Byte address of the instruction.
        pc: u32,
        /// The first faulting byte address.
        addr: u64,
    },
    /// A `ds_*` access was unaligned or at/past the work-group's LDS size.
    LdsFault {
        /// Byte address of the instruction.
        pc: u32,
        /// The faulting LDS byte address.
        addr: u32,
    },
    /// The launch executed more instructions than [`super::InterpConfig::max_steps`].
    StepLimit {
        /// The limit that was reached.
        steps: u64,
    },
    /// The launch parameters are unusable (dimensions, LDS size).
    BadLaunch(String),
    /// The launch ran, but its global load/store trace ([`crate::ldst_trace::analyze`]) is
    /// beyond what the reordering hardware can hold (trace depth, PC list, epoch counter).
    TraceLimit(String),
}

impl fmt::Display for InterpError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            InterpError::IllegalInstruction { pc, word } => {
                write!(f, "illegal instruction {word:#010x} at pc {pc:#x}")
            }
            InterpError::PcOutOfRange { pc } => {
                write!(f, "pc {pc:#x} is outside the code image (or unaligned)")
            }
            InterpError::MemoryFault { pc, addr } => write!(
                f,
                "memory fault at pc {pc:#x}: address {addr:#x} is unaligned or past the end of data memory"
            ),
            InterpError::LdsFault { pc, addr } => write!(
                f,
                "LDS fault at pc {pc:#x}: LDS address {addr:#x} is unaligned or past the work-group's LDS"
            ),
            InterpError::StepLimit { steps } => {
                write!(f, "step limit reached: {steps} instructions executed")
            }
            InterpError::BadLaunch(why) => write!(f, "bad launch: {why}"),
            InterpError::TraceLimit(why) => write!(f, "load/store trace too large: {why}"),
        }
    }
}

impl std::error::Error for InterpError {}

/// What went wrong inside one instruction; the scheduler turns it into an [`InterpError`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Trap {
    /// An operand or modifier the interpreter does not model.
    Illegal,
    /// A data-memory fault at this byte address.
    Memory(u64),
    /// An LDS fault at this byte address.
    Lds(u32),
}

impl Trap {
    /// The public error for a trap raised by the instruction at `pc` whose first word is
    /// `word`.
    pub(crate) fn at(self, pc: u32, word: u32) -> InterpError {
        match self {
            Trap::Illegal => InterpError::IllegalInstruction { pc, word },
            Trap::Memory(addr) => InterpError::MemoryFault { pc, addr },
            Trap::Lds(addr) => InterpError::LdsFault { pc, addr },
        }
    }
}
