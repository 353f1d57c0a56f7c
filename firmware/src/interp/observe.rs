//! The observer hook of [`super::run_observed`]: the global memory instructions and barriers
//! each wavefront executes, reported as they retire. [`super::run`] passes no observer and pays
//! one untaken branch per instruction for the hook.

use super::mem::flat_lane_addresses;
use super::step::Code;
use super::wave::Wave;
use crate::isa::Sig;

/// Which wavefront: work-group id and wave index in the work-group.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct WaveId {
    /// Work-group id (0..groups).
    pub group: u32,
    /// Wave index in the work-group.
    pub wave: u32,
}

/// One FLAT load or store that executed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlatAccess {
    /// The wavefront.
    pub at: WaveId,
    /// Byte PC of the instruction.
    pub pc: u32,
    /// A store (`flat_store_*`) rather than a load.
    pub store: bool,
    /// EXEC when it executed: the lanes that accessed memory.
    pub exec: u64,
    /// Dwords per lane (1, 2 or 4).
    pub dwords: u8,
    /// Each active lane's first byte address, lowest lane first (one per bit of `exec`).
    pub addrs: Vec<u64>,
}

/// What an observer is told.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum MemEvent {
    /// A FLAT load or store retired (also when EXEC is empty: `addrs` is then empty).
    Flat(FlatAccess),
    /// A wavefront executed `s_barrier` (reported when it arrives, before it waits).
    Barrier {
        /// The wavefront.
        at: WaveId,
        /// Byte PC of the `s_barrier`.
        pc: u32,
    },
}

/// The FLAT access the instruction at `w.pc` is about to make, read before it executes (a load
/// may overwrite its own address registers); `None` for other instructions or one that cannot
/// be fetched or addressed (executing it reports that error).
pub(crate) fn peek_flat(w: &Wave, code: &mut Code, at: WaveId) -> Option<FlatAccess> {
    let (insn, _) = code.fetch(w.pc).ok()?;
    let (store, dwords) = match insn.op.info().sig {
        Sig::FlatLoad(n) => (false, n),
        Sig::FlatStore(n) => (true, n),
        _ => return None,
    };
    let addrs = flat_lane_addresses(w, &insn).ok()?;
    Some(FlatAccess {
        at,
        pc: w.pc as u32,
        store,
        exec: w.exec(),
        dwords,
        addrs: addrs.into_iter().map(|(_, a)| a).collect(),
    })
}
