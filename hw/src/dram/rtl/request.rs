//! The request handshake and completion of the DRAM controller: one request at a time, a bad
//! request (no words, no rows, or rows overlapping) completes with an error the cycle after it
//! was accepted, a good one when the front-end has finished and the banks have drained; its
//! LID counts command cycles from the trigger.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The request tracker of [`crate::dram::DramCtrl`].
#[derive(LogicBlock)]
pub struct Requests {
    /// DRAM command clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: idle, no completion pending.
    pub reset: Signal<In, Bit>,
    /// A request is presented.
    pub req_valid: Signal<In, Bit>,
    /// Its direction: 1 = write to DRAM.
    pub req_write: Signal<In, Bit>,
    /// Words per row (tile).
    pub req_words: Signal<In, Bits<30>>,
    /// Words from one row's start to the next (tile).
    pub req_period: Signal<In, Bits<30>>,
    /// Rows (tile) or indexes (indexed).
    pub req_count: Signal<In, Bits<16>>,
    /// Echoed with `done`.
    pub req_tag: Signal<In, Bits<8>>,
    /// The front-end has emitted the request's last burst.
    pub finished: Signal<In, Bit>,
    /// Every bank FIFO is empty, every bank closed, no ACT bound far, tRFC ending.
    pub drained: Signal<In, Bit>,
    /// A refresh is owed (no request is accepted then).
    pub refresh_owed: Signal<In, Bit>,
    /// The controller accepts a request in this cycle if one is presented.
    pub req_ready: Signal<Out, Bit>,
    /// A good request is accepted: the front-end starts it.
    pub start: Signal<Out, Bit>,
    /// A request is being served.
    pub busy: Signal<Out, Bit>,
    /// The request being served writes.
    pub write: Signal<Out, Bit>,
    /// A request completes.
    pub done: Signal<Out, Bit>,
    /// ... and was bad (no command issued).
    pub done_error: Signal<Out, Bit>,
    /// Its tag.
    pub done_tag: Signal<Out, Bits<8>>,
    /// Its LID from the trigger, in command cycles.
    pub done_lid: Signal<Out, Bits<32>>,
    /// A request is being served.
    busy_r: DFF<Bit>,
    /// A bad request was accepted at the last edge.
    bad_r: DFF<Bit>,
    /// The tag of the request being served.
    tag_r: DFF<Bits<8>>,
    /// The tag of the bad request.
    bad_tag: DFF<Bits<8>>,
    /// The request being served writes.
    write_r: DFF<Bit>,
    /// Command cycles since the trigger.
    lid: DFF<Bits<32>>,
    /// The request presented is bad.
    bad: Signal<Local, Bit>,
    /// The request presented is accepted.
    accept: Signal<Local, Bit>,
    /// The request being served completes.
    done_l: Signal<Local, Bit>,
    /// Sized 1, 16 bits.
    one16: Constant<Bits<16>>,
    /// Sized 1, 32 bits.
    one32: Constant<Bits<32>>,
    /// Sized 2, 32 bits.
    two32: Constant<Bits<32>>,
    /// Sized zero, 8 bits.
    zero8: Constant<Bits<8>>,
    /// Sized zero, 32 bits.
    zero32: Constant<Bits<32>>,
}

impl Default for Requests {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            req_valid: Default::default(),
            req_write: Default::default(),
            req_words: Default::default(),
            req_period: Default::default(),
            req_count: Default::default(),
            req_tag: Default::default(),
            finished: Default::default(),
            drained: Default::default(),
            refresh_owed: Default::default(),
            req_ready: Default::default(),
            start: Default::default(),
            busy: Default::default(),
            write: Default::default(),
            done: Default::default(),
            done_error: Default::default(),
            done_tag: Default::default(),
            done_lid: Default::default(),
            busy_r: Default::default(),
            bad_r: Default::default(),
            tag_r: Default::default(),
            bad_tag: Default::default(),
            write_r: Default::default(),
            lid: Default::default(),
            bad: Default::default(),
            accept: Default::default(),
            done_l: Default::default(),
            one16: k(1),
            one32: k(1),
            two32: k(2),
            zero8: k(0),
            zero32: k(0),
        }
    }
}

impl Logic for Requests {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, busy_r, bad_r, tag_r, bad_tag, write_r, lid);
        self.done_l.next = self.busy_r.q.val() & self.finished.val() & self.drained.val();
        self.req_ready.next = (!self.busy_r.q.val() | self.done_l.val()) & !self.refresh_owed.val();
        self.accept.next = self.req_valid.val()
            & (!self.busy_r.q.val() | self.done_l.val())
            & !self.refresh_owed.val();
        self.bad.next = !self.req_words.val().any()
            | !self.req_count.val().any()
            | ((self.req_count.val() != self.one16.val())
                & (self.req_period.val() < self.req_words.val()));
        self.start.next = self.accept.val() & !self.bad.val();
        self.lid.d.next = self.lid.q.val() + self.one32.val();
        self.bad_r.d.next = false;
        if self.done_l.val() {
            self.busy_r.d.next = false;
        }
        if self.accept.val() {
            if self.bad.val() {
                self.bad_r.d.next = true;
                self.bad_tag.d.next = self.req_tag.val();
            } else {
                self.busy_r.d.next = true;
                self.tag_r.d.next = self.req_tag.val();
                self.write_r.d.next = self.req_write.val();
                self.lid.d.next = self.one32.val();
            }
        }
        if self.reset.val() {
            self.busy_r.d.next = false;
            self.bad_r.d.next = false;
            self.lid.d.next = self.zero32.val();
        }
        self.busy.next = self.busy_r.q.val();
        self.write.next = self.write_r.q.val();
        self.done.next = self.done_l.val() | self.bad_r.q.val();
        self.done_error.next = self.bad_r.q.val();
        self.done_tag.next = self.zero8.val();
        self.done_lid.next = self.zero32.val();
        if self.done_l.val() {
            self.done_tag.next = self.tag_r.q.val();
            self.done_lid.next = self.lid.q.val() + self.two32.val();
        }
        if self.bad_r.q.val() {
            self.done_tag.next = self.bad_tag.q.val();
        }
    }
}
