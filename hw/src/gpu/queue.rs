//! The GPU's hardware queue of launches (the thesis' "GPU hardware queue", docs/works/thesis.md#fig-5-1).
//!
//! The host pushes **sub-kernels**: a launch's registers, a range of its work-groups and a set
//! of compute units (`CTRL` bit 2, the enqueue). An entry starts as soon as every compute unit
//! of its set is free and no earlier waiting entry names any of them: per compute unit the
//! queue is first-in first-out, entries on disjoint sets overtake each other
//! (docs/assumptions.md#A78). Its work-groups are dealt round-robin over the first
//! `min(count, |set|)` compute units of the set ([`parts`]). The entry completes in the cycle
//! its last compute unit finishes; the completion goes into a first-in first-out log the host
//! pops (`DONE_POP`).

use crate::cu::{Launch, WgPart};
use std::collections::VecDeque;

/// The most entries waiting at once; an enqueue beyond it is refused.
pub const QUEUE_DEPTH: usize = 64;

/// The most compute units a GPU has (the width of `CU_MASK`).
pub const MAX_CUS: usize = 32;

/// One queued sub-kernel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// Its number: the count of entries enqueued before it since reset.
    pub tag: u32,
    /// The launch registers at the enqueue.
    pub launch: Launch,
    /// First work-group of the sub-kernel.
    pub first: u32,
    /// Work-groups in it (at least 1).
    pub count: u32,
    /// Compute units it may use (bit i = compute unit i; never 0).
    pub mask: u32,
}

/// A completed entry, as `DONE_POP`, `DONE_START` and `DONE_END` report it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Done {
    /// The entry's tag.
    pub tag: u32,
    /// Cycle (since power-up) it started.
    pub start: u64,
    /// Cycle it completed.
    pub end: u64,
    /// Some compute unit of it stopped with an error.
    pub failed: bool,
}

/// An entry that has started.
#[derive(Clone, Copy, Debug)]
struct Running {
    tag: u32,
    /// The compute units it runs on.
    used: u32,
    start: u64,
}

/// The queue's state.
#[derive(Clone, Debug, Default)]
pub struct HwQueue {
    waiting: VecDeque<Entry>,
    running: Vec<Running>,
    done: VecDeque<Done>,
    next_tag: u32,
}

/// The work-group parts of `e` per compute unit: `(compute unit, part)` for the first
/// `min(count, |mask|)` compute units of the mask, in ascending order; the j-th of n gets
/// work-groups first + j, first + j + n, … (docs/assumptions.md#A77).
pub fn parts(e: &Entry) -> Vec<(usize, WgPart)> {
    let cus: Vec<usize> = (0..MAX_CUS).filter(|&i| e.mask >> i & 1 == 1).collect();
    let n = cus.len().min(e.count as usize);
    let end = e.first.saturating_add(e.count);
    (0..n)
        .map(|j| {
            let part = WgPart {
                first: e.first + j as u32,
                end,
                stride: n as u32,
            };
            (cus[j], part)
        })
        .collect()
}

impl HwQueue {
    /// Nothing waits and nothing runs.
    pub fn idle(&self) -> bool {
        self.waiting.is_empty() && self.running.is_empty()
    }

    /// Entries waiting to start.
    pub fn waiting(&self) -> usize {
        self.waiting.len()
    }

    /// The tag the next enqueue gets.
    pub fn next_tag(&self) -> u32 {
        self.next_tag
    }

    /// Completions not yet popped.
    pub fn done_len(&self) -> usize {
        self.done.len()
    }

    /// Appends an entry (its tag is given here); `None` when the queue is full.
    pub fn push(&mut self, mut e: Entry) -> Option<u32> {
        if self.waiting.len() >= QUEUE_DEPTH {
            return None;
        }
        e.tag = self.next_tag;
        self.next_tag = self.next_tag.wrapping_add(1);
        self.waiting.push_back(e);
        Some(e.tag)
    }

    /// Removes and returns the entries that may start now, given the compute units `busy`
    /// (bit i = compute unit i runs a launch), and records them as running from `now`.
    pub fn start(&mut self, busy: u32, now: u64) -> Vec<Entry> {
        let mut taken = busy | self.running.iter().fold(0, |m, r| m | r.used);
        let mut started = Vec::new();
        let mut kept = VecDeque::new();
        for e in self.waiting.drain(..) {
            if e.mask & taken == 0 {
                let used = parts(&e).iter().fold(0, |m, &(cu, _)| m | 1 << cu);
                self.running.push(Running {
                    tag: e.tag,
                    used,
                    start: now,
                });
                started.push(e);
            } else {
                kept.push_back(e);
            }
            // Later entries may not overtake this one on its compute units.
            taken |= e.mask;
        }
        self.waiting = kept;
        started
    }

    /// Completes the running entries none of whose compute units is `busy` any more, at
    /// cycle `now`; `failed` holds the compute units in an error state.
    pub fn complete(&mut self, busy: u32, failed: u32, now: u64) {
        let done = &mut self.done;
        self.running.retain(|r| {
            let finished = r.used & busy == 0;
            if finished {
                done.push_back(Done {
                    tag: r.tag,
                    start: r.start,
                    end: now,
                    failed: r.used & failed != 0,
                });
            }
            !finished
        });
    }

    /// Pops the oldest completion.
    pub fn pop_done(&mut self) -> Option<Done> {
        self.done.pop_front()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn entry(first: u32, count: u32, mask: u32) -> Entry {
        let launch = Launch {
            entry_pc: 0,
            abi: crate::cu::Abi::Rtgpu { kernarg: 0 },
            grid: 64 * 16,
            wg: 64,
            lds_per_wg: 0,
            mode: crate::cu::Mode::NoSplit,
            s: 1,
            policy: crate::sched::model::Policy::Gto,
            reorder: false,
            idu: None,
            trace_addr: 0,
            exec: crate::simd::Exec::Gcn,
        };
        Entry {
            tag: 0,
            launch,
            first,
            count,
            mask,
        }
    }

    /// Work-groups 3..10 over compute units 1, 2 and 5: 3, 6, 9 / 4, 7 / 5, 8, each exactly
    /// once; two work-groups over four compute units use the first two only. (Fails if the
    /// stride is the mask's size instead of the used count, or a part starts at `first`.)
    #[test]
    fn parts_deal_work_groups_round_robin_over_the_used_compute_units() {
        let p = parts(&entry(3, 7, 0b10_0110));
        let ids = |part: WgPart| (part.first..part.end).step_by(part.stride as usize);
        let got: Vec<(usize, Vec<u32>)> = p.iter().map(|&(cu, q)| (cu, ids(q).collect())).collect();
        assert_eq!(
            got,
            vec![(1, vec![3, 6, 9]), (2, vec![4, 7]), (5, vec![5, 8])]
        );
        let p = parts(&entry(0, 2, 0b1111));
        assert_eq!(p.iter().map(|x| x.0).collect::<Vec<_>>(), vec![0, 1]);
        assert!(p.iter().all(|x| x.1.stride == 2));
    }

    /// Per compute unit first-in first-out, disjoint sets overtake: with CU 0 busy, an entry
    /// on {0, 1} waits, a later one on {1} waits behind it, one on {2} starts.
    #[test]
    fn entries_start_in_order_per_compute_unit() {
        let mut q = HwQueue::default();
        for m in [0b011, 0b010, 0b100] {
            q.push(entry(0, 4, m)).unwrap();
        }
        let s = q.start(0b001, 5);
        assert_eq!(s.iter().map(|e| e.tag).collect::<Vec<_>>(), vec![2]);
        assert_eq!(q.waiting(), 2);
        q.complete(0b000, 0, 9);
        assert_eq!(
            q.pop_done().map(|d| (d.tag, d.start, d.end)),
            Some((2, 5, 9))
        );
        let s = q.start(0, 10);
        assert_eq!(s.iter().map(|e| e.tag).collect::<Vec<_>>(), vec![0]);
        // Tag 1 waits for tag 0's compute unit 1 even though the hardware says it is free.
        assert!(q.start(0, 11).is_empty());
        q.complete(0, 0, 12);
        assert_eq!(q.start(0, 12).len(), 1);
    }
}
