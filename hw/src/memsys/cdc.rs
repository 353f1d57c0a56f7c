//! A clock-domain crossing FIFO (behavioural model of a dual-clock FIFO with Gray-coded
//! pointers and two-flop synchronizers).
//!
//! The writer and the reader run on their own clocks on one picosecond timeline. An entry
//! pushed at a writer edge at time `p` crosses the reader's synchronizer: the reader sees it
//! from its `stages + 1`-th rising edge strictly after `p` (two flops, then the read logic),
//! and may pop it at that edge or later. A pop at a reader edge at time `q` frees the place
//! for the writer from the writer's `stages + 1`-th edge strictly after `q`: until then the
//! writer counts the place as taken (the pessimistic full flag of a real dual-clock FIFO).
//! Every synchronizer delay is therefore between `stages` and `stages + 1` periods of the
//! receiving clock, whatever the phase of the two clocks.

use std::collections::VecDeque;

/// A rising-edge clock on the picosecond timeline: edges at `period`, `2·period`, ….
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Period in picoseconds (≥ 1).
    pub period: u64,
}

impl Clock {
    /// The `n`-th rising edge strictly after time `t` (n ≥ 1).
    pub fn nth_edge_after(self, t: u64, n: u64) -> u64 {
        (t / self.period + n) * self.period
    }
}

/// A dual-clock FIFO of `T`.
#[derive(Clone, Debug)]
pub struct CdcFifo<T> {
    /// Entries with the time from which the reader may pop them.
    entries: VecDeque<(u64, T)>,
    /// Times from which the writer sees a popped place free again.
    freed: VecDeque<u64>,
    depth: usize,
    stages: u64,
    wclk: Clock,
    rclk: Clock,
}

impl<T> CdcFifo<T> {
    /// A FIFO of `depth` places between a writer on `wclk` and a reader on `rclk`, with
    /// `stages` synchronizer flops each way.
    pub fn new(depth: usize, stages: u64, wclk: Clock, rclk: Clock) -> Self {
        CdcFifo {
            entries: VecDeque::with_capacity(depth),
            freed: VecDeque::with_capacity(depth),
            depth,
            stages,
            wclk,
            rclk,
        }
    }

    /// The writer, at its edge at `now`, sees a free place.
    pub fn can_push(&mut self, now: u64) -> bool {
        while self.freed.front().is_some_and(|&t| t <= now) {
            self.freed.pop_front();
        }
        self.entries.len() + self.freed.len() < self.depth
    }

    /// Places the writer, at its edge at `now`, sees free.
    pub fn free_places(&mut self, now: u64) -> usize {
        self.can_push(now);
        self.depth - self.entries.len() - self.freed.len()
    }

    /// Pushes `x` at the writer's edge at `now` (the caller checked [`CdcFifo::can_push`]).
    pub fn push(&mut self, now: u64, x: T) {
        let visible = self.rclk.nth_edge_after(now, self.stages + 1);
        self.entries.push_back((visible, x));
    }

    /// The head, if the reader may pop it at its edge at `now`.
    pub fn peek(&self, now: u64) -> Option<&T> {
        self.entries
            .front()
            .filter(|(t, _)| *t <= now)
            .map(|(_, x)| x)
    }

    /// Pops the head at the reader's edge at `now` (if it is visible then).
    pub fn pop(&mut self, now: u64) -> Option<T> {
        self.peek(now)?;
        let (_, x) = self.entries.pop_front()?;
        self.freed
            .push_back(self.wclk.nth_edge_after(now, self.stages + 1));
        Some(x)
    }

    /// Entries the reader, at its edge at `now`, may pop.
    pub fn seen(&self, now: u64) -> usize {
        self.entries.iter().take_while(|(t, _)| *t <= now).count()
    }

    /// Entries in the FIFO (seen from outside, for waveforms).
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// Nothing in the FIFO.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CORE: Clock = Clock { period: 1000 };
    const DRAM: Clock = Clock { period: 625 };

    #[test]
    fn an_entry_crosses_in_two_to_three_reader_periods() {
        let mut f = CdcFifo::new(4, 2, CORE, DRAM);
        f.push(1000, 7u32);
        // Reader edges after 1000: 1250, 1875, 2500: visible at the third.
        assert_eq!(f.peek(1875), None);
        assert_eq!(f.peek(2500), Some(&7));
        assert_eq!(f.pop(2500), Some(7));
        assert!(f.is_empty());
    }

    #[test]
    fn the_writer_sees_a_pop_late_and_the_fifo_fills() {
        let mut f = CdcFifo::new(2, 2, CORE, DRAM);
        assert!(f.can_push(1000));
        f.push(1000, 1u8);
        f.push(2000, 2u8);
        assert!(!f.can_push(3000));
        assert_eq!(f.pop(2500), Some(1));
        // Writer edges after 2500: 3000, 4000, 5000.
        assert!(!f.can_push(4000));
        assert!(f.can_push(5000));
    }

    #[test]
    fn nothing_pops_before_it_is_visible_and_order_is_kept() {
        let mut f = CdcFifo::new(8, 2, DRAM, CORE);
        for (i, t) in [625u64, 1250, 1875].iter().enumerate() {
            f.push(*t, i);
        }
        assert_eq!(f.pop(2000), None);
        assert_eq!(f.pop(3000), Some(0));
        assert_eq!(f.pop(3000), None);
        assert_eq!(f.pop(4000), Some(1));
        assert_eq!(f.pop(4000), Some(2));
    }
}
