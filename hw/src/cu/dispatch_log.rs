//! The dispatcher's log: what the work-group dispatcher was given and what it did, cycle by
//! cycle, for checking the dispatcher block (`crate::dispatch`) against the compute unit.
//!
//! Off (`ComputeUnit::dispatch_log` is `None`, the default) it costs one untaken branch per
//! cycle, admission, wavefront start and wavefront end, and allocates nothing. On, a launch
//! clears it and the unit appends, with cycles counted from the launch:
//! - one [`DispatchRecord::Launch`] when the launch starts;
//! - one [`DispatchRecord::Inputs`] per cycle in which the dispatcher runs, before it admits;
//! - a [`DispatchRecord::Admit`] per work-group admitted and a [`DispatchRecord::Send`] per
//!   wavefront started (a DISPATCH), in the order the unit does them;
//! - a [`DispatchRecord::End`] per wavefront that ends (`s_endpgm`), in its cycle.
//!
//! Quiet cycles (`super::quiet`) do not run the dispatcher: turn idle-cycle skipping off
//! for a record of every cycle.

use super::*;

/// One thing the dispatcher's log records.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DispatchRecord {
    /// The launch: the work-groups `first, first + stride, …` below `end`, of `waves`
    /// wavefronts, at most `max_resident` resident (the LDS partitions, capped at 255).
    Launch {
        /// The first work-group id.
        first: u32,
        /// One past the last work-group id.
        end: u32,
        /// The id step.
        stride: u32,
        /// Wavefronts per work-group.
        waves: u32,
        /// Resident work-groups the LDS allows (255: no limit below that).
        max_resident: u32,
    },
    /// The dispatcher's inputs in a cycle it runs.
    Inputs {
        /// Cycle.
        cycle: u64,
        /// Work-groups below this id may be admitted (reordering's round).
        limit: u32,
        /// Per SIMD group, its free original slots (bit `s`: slot `s`).
        free: Vec<u16>,
        /// Per SIMD group, its command port is free (a DISPATCH may go to it).
        port_free: Vec<bool>,
    },
    /// A work-group admitted into resident entry `wi`.
    Admit {
        /// Cycle.
        cycle: u64,
        /// Resident entry.
        wi: usize,
        /// Work-group id.
        wg: u32,
    },
    /// Wavefront `wave` of resident entry `wi` (work-group `wg`) started in slot `slot` of
    /// SIMD group `group`.
    Send {
        /// Cycle.
        cycle: u64,
        /// SIMD group.
        group: usize,
        /// Slot in the group.
        slot: usize,
        /// Resident entry.
        wi: usize,
        /// Wave index in the work-group.
        wave: u32,
        /// Work-group id.
        wg: u32,
    },
    /// A wavefront of resident entry `wi` ended.
    End {
        /// Cycle.
        cycle: u64,
        /// Resident entry.
        wi: usize,
    },
}

impl ComputeUnit {
    /// Appends the record `r` builds, if the log is on.
    #[inline]
    pub(super) fn log_dispatch(&mut self, r: impl FnOnce(&Self) -> DispatchRecord) {
        if self.dispatch_log.is_some() {
            let r = r(self);
            if let Some(log) = &mut self.dispatch_log {
                log.push(r);
            }
        }
    }

    /// The dispatcher's inputs of this cycle, as [`DispatchRecord::Inputs`].
    pub(super) fn dispatch_inputs(&self) -> DispatchRecord {
        DispatchRecord::Inputs {
            cycle: self.launch_cycle(),
            limit: self.disp.limit,
            free: self.groups.iter().map(Group::free_mask).collect(),
            port_free: self.groups.iter().map(Group::port_free).collect(),
        }
    }
}
