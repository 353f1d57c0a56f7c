//! Which instructions the RTL top ([`super::ComputeUnitTop`]) executes today: the scalar
//! units. A kernel is checked against this list before it is loaded into the RTL system
//! (`rtgpu run --top rtl`), so a kernel the top would issue but not execute (a vector or
//! memory instruction, a split) is refused instead of giving wrong results.

use crate::isa::insn_model::{decode_fields, unit, InsnFields};
use std::fmt;

/// The units the top executes: the SALU, the branch unit and program control (`s_nop`,
/// `s_endpgm`, `s_sleep`).
pub const SUPPORTED_UNITS: [u8; 3] = [unit::SALU, unit::BRANCH, unit::PROGRAM];

/// An instruction of a unit the top does not execute yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unsupported {
    /// Its unit ([`mod@unit`]).
    pub unit: u8,
}

impl Unsupported {
    /// The unit's name.
    pub fn unit_name(&self) -> &'static str {
        unit_name(self.unit)
    }
}

impl fmt::Display for Unsupported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the RTL compute unit does not execute {} instructions yet (it runs SALU, branch \
             and program-control instructions)",
            self.unit_name()
        )
    }
}

/// The name of unit `u` ([`mod@unit`]).
pub fn unit_name(u: u8) -> &'static str {
    match u {
        unit::SALU => "salu",
        unit::VALU => "valu",
        unit::VMEM => "vmem",
        unit::SMEM => "smem",
        unit::LDS => "lds",
        unit::BRANCH => "branch",
        unit::PWS => "split/merge",
        unit::SYNC => "sync",
        unit::PROGRAM => "program",
        unit::TILE => "tile",
        _ => "illegal",
    }
}

/// `Ok` if the top executes the instruction `f` as the behavioural compute unit does: a
/// SALU, branch or program-control instruction, or an illegal word (the top stops on it with
/// `illegal_instruction`, as the behavioural unit does).
pub fn supported(f: &InsnFields) -> Result<(), Unsupported> {
    match f.illegal || SUPPORTED_UNITS.contains(&f.unit) {
        true => Ok(()),
        false => Err(Unsupported { unit: f.unit }),
    }
}

/// The first instruction of `code` (walked from dword 0 by instruction length) the top does
/// not execute: its byte address and why.
pub fn first_unsupported(code: &[u32]) -> Option<(u32, Unsupported)> {
    let mut i = 0;
    while i < code.len() {
        let f = decode_fields(code[i], code.get(i + 1).copied().unwrap_or(0));
        if let Err(e) = supported(&f) {
            return Some((4 * i as u32, e));
        }
        i += usize::from(f.words.max(1));
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `s_add_u32 s0, s0, s0` (0x80000000), `s_branch 0` (0xBF820000) and `s_endpgm`
    /// (0xBF810000) are supported; `v_mov_b32 v0, v0` (0x7E000300) is refused as VALU at its
    /// PC; an illegal word passes (the top faults on it). Fails if VALU is added to the list or
    /// the walk skips words.
    #[test]
    fn scalar_passes_vector_is_refused() {
        let ok = [0x8000_0000, 0xBF82_0000, 0xBF81_0000];
        assert_eq!(first_unsupported(&ok), None);
        let bad = [0x8000_0000, 0x7E00_0300, 0xBF81_0000];
        let (pc, e) = first_unsupported(&bad).expect("refused");
        assert_eq!((pc, e.unit_name()), (4, "valu"));
        assert!(e.to_string().contains("valu"));
        let illegal = decode_fields(0xFFFF_FFFF, 0);
        assert!(illegal.illegal && supported(&illegal).is_ok());
    }
}
