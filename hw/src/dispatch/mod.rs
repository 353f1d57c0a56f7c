//! The work-group dispatcher as a block: it admits the work-groups of a launch into resident
//! entries when their wavefronts fit in the free SIMD slots, and starts their wavefronts, one
//! DISPATCH per SIMD group per cycle, round-robin over the SIMD groups. It is the compute
//! unit's dispatcher (`crate::cu`, its `dispatch` module and where the unit calls it) cycle for
//! cycle; the wavefront's initial registers (its ABI) are the compute unit's business: the block
//! says which wavefront starts where.
//!
//! # Parameters
//!
//! `G` SIMD groups (1..=8), `S` original slots per SIMD group (1..=16), `R` resident entries
//! (1..=64), with `G × S ≤ 128`. The compute unit's behaviour is reproduced when `R` is at
//! least the number of work-groups that can be resident at once: `min(G × S, LDS partitions)`
//! (a resident work-group holds at least one slot or pending wavefront). The synthesized
//! testbench instance is [`TB_GROUPS`] × [`TB_SLOTS`] with [`TB_RESIDENT`] entries.
//!
//! # One cycle
//!
//! In a cycle without `start` or `reset`, with the state the last edge left:
//!
//! 1. **Admission** (at most `G` work-groups). While
//!    - the next id `next` is below `end` and below `limit`,
//!    - fewer than `G` wavefronts are *pending* (admitted, not yet started),
//!    - the free slots of every SIMD group together (`popcount` of all `free[g]`) are at least
//!      the pending wavefronts plus `waves`, and
//!    - a resident entry below `max_res` is free (the lowest one is taken),
//!
//!    the work-group `next` is admitted into that entry (its `live` count := `waves`), its
//!    `waves` wavefronts `0..waves` join the pending queue behind those already there, and
//!    `next` += `stride` (wrapping at 2^32). `admitted[r]` shows entry `r` admitted this cycle.
//!    Nothing is admitted when `waves` is 0.
//! 2. **Sending**. For `j = 0..G`, SIMD group `g = (next_simd + j) mod G` takes the pending
//!    wavefront at the head of the queue if it has a free slot and its port is free
//!    (`port_free[g]`): `send[g]` with the lowest free slot of `free[g]`, the entry, the wave
//!    index and the work-group id. A group that cannot take it is passed over and the head
//!    stays for the next group. Wavefronts admitted in step 1 may start in the same cycle.
//! 3. **The edge**: the admissions and sends are kept; `next_simd` advances by one (mod `G`)
//!    every cycle, whatever was sent; every resident entry `r` that was resident at the
//!    start of the cycle loses `ended[r]` live wavefronts (saturating) and is free from the
//!    next cycle on when none is left (its entry and the LDS partition it stands for can be
//!    taken by the next cycle's admission). `ended[r]` of an entry not resident is ignored.
//!
//! `start` (a launch) sends and admits nothing; its edge loads `first` as `next`, `end`,
//! `stride`, `waves` and `max_res`, frees every entry, empties the queue and sets `next_simd`
//! to 0: the first admission can happen in the next cycle. `reset` sends and admits nothing
//! and clears every register (`end` = 0: nothing to admit, `finished`); it wins over a
//! `start` in the same cycle.
//!
//! This is the compute unit's order within its cycle: it runs the dispatcher (round control
//! first, which gives `limit`) before issuing, so a wavefront that ends (`s_endpgm`, issued
//! later in the cycle) frees its entry for the next cycle, and the slot states the dispatcher
//! sees are those of the cycle's start. The unit's launch (the doorbell) happens between two
//! cycles; the block takes a cycle of `start` for it. See docs/assumptions.md#A93 for the
//! interface choices and docs/assumptions.md#A94 for the pending queue's size.
//!
//! # Inputs (sampled at the rising edge that ends the cycle)
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `clock` | 1 | core clock |
//! | `reset` | 1 | synchronous reset: every register cleared |
//! | `start` | 1 | a launch: load `wg_first`, `wg_end`, `wg_stride`, `waves`, `max_res` |
//! | `wg_first` | 32 | the first work-group id (with `start`) |
//! | `wg_end` | 32 | one past the last work-group id (with `start`) |
//! | `wg_stride` | 32 | the id step (with `start`; 1 for a whole launch, the compute units of a sub-kernel otherwise) |
//! | `waves` | 8 | wavefronts per work-group (with `start`; 1..=`G × S`) |
//! | `max_res` | 8 | resident work-groups allowed (with `start`; the LDS partitions; ≥ `R`: `R`) |
//! | `limit` | 32 | every cycle: work-groups below this id may be admitted (reordering's round; `end` without reordering) |
//! | `free[G]` | `S` each | every cycle: slot `s` of SIMD group `g` is free |
//! | `port_free[G]` | 1 each | every cycle: SIMD group `g` can take a DISPATCH command |
//! | `ended[R]` | 8 each | every cycle: wavefronts of resident entry `r` that ended this cycle |
//!
//! # Outputs
//!
//! | port | width | meaning |
//! |---|---|---|
//! | `send[G]` | 1 each | a wavefront starts in SIMD group `g` this cycle (its DISPATCH) |
//! | `send_slot[G]` | 8 each | its slot (the lowest free one) |
//! | `send_wi[G]` | 8 each | its resident entry |
//! | `send_wave[G]` | 8 each | its wave index in the work-group |
//! | `send_wg[G]` | 32 each | its work-group id |
//! | `admitted[R]` | 1 each | entry `r` took a work-group this cycle |
//! | `resident[R]` | 1 each | entry `r` holds a work-group (the state at the cycle's start) |
//! | `live[R]` | 8 each | its wavefronts not yet ended |
//! | `pending` | 8 | wavefronts admitted and not started |
//! | `next_wg` | 32 | the next work-group id to admit |
//! | `finished` | 1 | every work-group admitted and every wavefront started (`next_wg ≥ end`, `pending` = 0) |
//!
//! A `send_*` field is 0 when its `send` is 0. The outputs `resident`, `live`, `pending`,
//! `next_wg` and `finished` come from registers; `send_*` and `admitted` are combinational
//! (from the registers, `limit`, `free` and `port_free`).
//!
//! The reference model is [`model::DispatchModel`]; the RTL top is [`Dispatch`].

pub mod model;
pub mod rtl;

pub use rtl::dispatch::Dispatch;

/// SIMD groups of the testbench's instance.
pub const TB_GROUPS: usize = 4;
/// Slots per SIMD group of the testbench's instance.
pub const TB_SLOTS: usize = 4;
/// Resident entries of the testbench's instance (`TB_GROUPS × TB_SLOTS`).
pub const TB_RESIDENT: usize = 16;

/// The block's size: `G`, `S`, `R` of [`Dispatch`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shape {
    /// SIMD groups.
    pub groups: usize,
    /// Original slots per SIMD group.
    pub slots: usize,
    /// Resident entries.
    pub resident: usize,
}

impl Shape {
    /// The testbench's instance.
    pub const TB: Shape = Shape {
        groups: TB_GROUPS,
        slots: TB_SLOTS,
        resident: TB_RESIDENT,
    };
}

/// The launch inputs (taken with `start`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LaunchIn {
    /// The first work-group id.
    pub first: u32,
    /// One past the last work-group id.
    pub end: u32,
    /// The id step.
    pub stride: u32,
    /// Wavefronts per work-group.
    pub waves: u8,
    /// Resident work-groups allowed.
    pub max_res: u8,
}
crate::ports!(LaunchIn {
    first,
    end,
    stride,
    waves,
    max_res
});

/// The block's inputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispatchIn {
    /// Synchronous reset.
    pub reset: bool,
    /// A launch (the doorbell).
    pub start: bool,
    /// The launch, taken with `start`.
    pub launch: LaunchIn,
    /// Work-groups below this id may be admitted.
    pub limit: u32,
    /// Per SIMD group: its free slots (bit `s`: slot `s`).
    pub free: Vec<u16>,
    /// Per SIMD group: its command port is free.
    pub port_free: Vec<bool>,
    /// Per resident entry: its wavefronts that ended this cycle.
    pub ended: Vec<u8>,
}
crate::ports!(DispatchIn {
    reset,
    start,
    launch,
    limit,
    free,
    port_free,
    ended
});

/// One SIMD group's DISPATCH of a cycle.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Send {
    /// A wavefront starts.
    pub valid: bool,
    /// Its slot.
    pub slot: u8,
    /// Its resident entry.
    pub wi: u8,
    /// Its wave index in the work-group.
    pub wave: u8,
    /// Its work-group id.
    pub wg: u32,
}
crate::ports!(Send {
    valid,
    slot,
    wi,
    wave,
    wg
});

/// The block's outputs of one cycle.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DispatchOut {
    /// Per SIMD group: its DISPATCH.
    pub send: Vec<Send>,
    /// Per resident entry: it took a work-group this cycle.
    pub admitted: Vec<bool>,
    /// Per resident entry: it holds a work-group.
    pub resident: Vec<bool>,
    /// Per resident entry: its wavefronts not yet ended.
    pub live: Vec<u8>,
    /// Wavefronts admitted and not started.
    pub pending: u8,
    /// The next work-group id to admit.
    pub next_wg: u32,
    /// Every work-group admitted and every wavefront started.
    pub finished: bool,
}
crate::ports!(DispatchOut {
    send,
    admitted,
    resident,
    live,
    pending,
    next_wg,
    finished
});

impl DispatchIn {
    /// A cycle of `shape` with nothing happening: no slot free, no port free, no end.
    pub fn idle(shape: Shape) -> Self {
        Self {
            free: vec![0; shape.groups],
            port_free: vec![false; shape.groups],
            ended: vec![0; shape.resident],
            ..Self::default()
        }
    }
}
