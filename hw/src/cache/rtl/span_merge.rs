//! One node of the coalescer's comparison tree (contract: [`super::super`], "Coalescer").
//!
//! A candidate is (valid, line, lo, hi, rest): the smallest line among the lanes below the
//! node, the span `lo..=hi` of dword offsets those lanes touch in it, and `rest` = some lane
//! below the node still holds other work once that line is emitted (a lane of another line, or
//! a lane of this line that crosses into the next). The node keeps the smaller line of its two
//! inputs, or merges them when they are on the same line. An invalid node drives zeros (the
//! coalescer's idle outputs come out of its last node so).
//!
//! Offsets are 6 bits (0..=31, the top bit is 0) so that the coalescer computes `words` =
//! hi − lo + 1 (1..=32) without a width change.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The smaller-line candidate of two, or the two merged on one line. Combinational.
#[derive(LogicBlock)]
pub struct SpanMerge {
    /// Candidate a: some lane below holds a line.
    pub a_valid: Signal<In, Bit>,
    /// Candidate a: its line number.
    pub a_line: Signal<In, Bits<25>>,
    /// Candidate a: the first dword offset touched in the line.
    pub a_lo: Signal<In, Bits<6>>,
    /// Candidate a: the last dword offset touched in the line.
    pub a_hi: Signal<In, Bits<6>>,
    /// Candidate a: work remains below it once its line is emitted.
    pub a_rest: Signal<In, Bit>,
    /// Candidate b: some lane below holds a line.
    pub b_valid: Signal<In, Bit>,
    /// Candidate b: its line number.
    pub b_line: Signal<In, Bits<25>>,
    /// Candidate b: the first dword offset touched in the line.
    pub b_lo: Signal<In, Bits<6>>,
    /// Candidate b: the last dword offset touched in the line.
    pub b_hi: Signal<In, Bits<6>>,
    /// Candidate b: work remains below it once its line is emitted.
    pub b_rest: Signal<In, Bit>,
    /// a or b is valid.
    pub valid: Signal<Out, Bit>,
    /// The smaller line of the valid candidates (0 when none).
    pub line: Signal<Out, Bits<25>>,
    /// The first offset touched in `line` (0 when none).
    pub lo: Signal<Out, Bits<6>>,
    /// The last offset touched in `line` (0 when none).
    pub hi: Signal<Out, Bits<6>>,
    /// Work remains once `line` is emitted: the other candidate holds another line, or a
    /// candidate on `line` has its own rest.
    pub rest: Signal<Out, Bit>,
    /// a alone has the smaller line (b invalid or on a larger line).
    a_wins: Signal<Local, Bit>,
    /// b alone has the smaller line.
    b_wins: Signal<Local, Bit>,
    /// The smaller of `a_lo` and `b_lo`.
    lo_min: Signal<Local, Bits<6>>,
    /// The larger of `a_hi` and `b_hi`.
    hi_max: Signal<Local, Bits<6>>,
    /// Zero line.
    zero25: Constant<Bits<25>>,
    /// Zero offset.
    zero6: Constant<Bits<6>>,
}

impl Default for SpanMerge {
    fn default() -> Self {
        Self {
            a_valid: Default::default(),
            a_line: Default::default(),
            a_lo: Default::default(),
            a_hi: Default::default(),
            a_rest: Default::default(),
            b_valid: Default::default(),
            b_line: Default::default(),
            b_lo: Default::default(),
            b_hi: Default::default(),
            b_rest: Default::default(),
            valid: Default::default(),
            line: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            rest: Default::default(),
            a_wins: Default::default(),
            b_wins: Default::default(),
            lo_min: Default::default(),
            hi_max: Default::default(),
            zero25: k(0),
            zero6: k(0),
        }
    }
}

impl Logic for SpanMerge {
    #[hdl_gen]
    fn update(&mut self) {
        self.a_wins.next =
            self.a_valid.val() & (!self.b_valid.val() | (self.a_line.val() < self.b_line.val()));
        self.b_wins.next =
            self.b_valid.val() & (!self.a_valid.val() | (self.b_line.val() < self.a_line.val()));
        if self.b_lo.val() < self.a_lo.val() {
            self.lo_min.next = self.b_lo.val();
        } else {
            self.lo_min.next = self.a_lo.val();
        }
        if self.b_hi.val() > self.a_hi.val() {
            self.hi_max.next = self.b_hi.val();
        } else {
            self.hi_max.next = self.a_hi.val();
        }
        self.valid.next = self.a_valid.val() | self.b_valid.val();
        // Each output is written once per evaluation (no glitch for an event-driven simulator).
        if self.a_wins.val() {
            self.line.next = self.a_line.val();
            self.lo.next = self.a_lo.val();
            self.hi.next = self.a_hi.val();
            self.rest.next = self.a_rest.val() | self.b_valid.val();
        } else if self.b_wins.val() {
            self.line.next = self.b_line.val();
            self.lo.next = self.b_lo.val();
            self.hi.next = self.b_hi.val();
            self.rest.next = self.b_rest.val() | self.a_valid.val();
        } else if self.a_valid.val() {
            // Both valid, on the same line.
            self.line.next = self.a_line.val();
            self.lo.next = self.lo_min.val();
            self.hi.next = self.hi_max.val();
            self.rest.next = self.a_rest.val() | self.b_rest.val();
        } else {
            self.line.next = self.zero25.val();
            self.lo.next = self.zero6.val();
            self.hi.next = self.zero6.val();
            self.rest.next = false;
        }
    }
}
