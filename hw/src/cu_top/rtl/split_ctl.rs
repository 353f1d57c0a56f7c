//! `split` and `merge` at issue: each context's stack of executed splits, the commands to the
//! split/merge unit, and the two errors the issue itself finds.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The behavioural compute unit's `split_merge` (with splitting on) and its `Splits` stack,
/// for the `C` contexts of a SIMD group, with an issue port per issue unit (`I`).
///
/// Each context keeps a stack of its executed, not yet merged splits, one bit each (1: it
/// really split; 0: DWS serialized it), at most [`DEPTH`] deep; a dispatch or a split's copy
/// into the context (`born`) empties it. When `issue[i]` (a `split` or `merge` of context
/// `ctx[i]` issues with splitting on) in cycle *k* (the ports' outputs are port `i`'s; the
/// ports name different contexts):
/// - with memory operations outstanding (`pending` ≠ 0): the error `fault_pending` (the
///   behavioural `split_pending_memory`), nothing else;
/// - `merge` (`is_merge`): pops the stack; unless the popped bit is 0 (a serialized split's
///   merge is a no-op), `cmd_merge`;
/// - `split`: the mask M = `value` ({SSRC1, SSRC0}); it splits unless `dws` and the
///   effective mask `eff` does not diverge under M (`eff & M` or `eff & !M` is 0). It pushes
///   that bit, or with the stack full raises `fault_overflow` (the behavioural
///   `split_overflow`) and pushes nothing; a split that pushed sends `cmd_split`.
///
/// `denied` (the split/merge unit refused the split commanded in *k* − 1) clears the top bit
/// of the context commanded then, before this cycle's pop or push. Everything is written at
/// the edge that ends the cycle; `reset` empties every stack. Two issues in a cycle are
/// independent; the top lets at most one command through (a unit visited later does not issue a
/// `split` or `merge` after an earlier one's command), so `last` is the commanding port's.
#[derive(LogicBlock)]
pub struct SplitCtl<const C: usize, const I: usize> {
    /// Core clock.
    pub clock: Signal<In, Clock>,
    /// Synchronous reset: every stack empty.
    pub reset: Signal<In, Bit>,
    /// DWS (a split whose lanes do not diverge is serialized).
    pub dws: Signal<In, Bit>,
    /// Port `i`: a `split` or `merge` issues, splitting on.
    pub issue: [Signal<In, Bit>; I],
    /// It is `merge`.
    pub is_merge: [Signal<In, Bit>; I],
    /// The issuing context.
    pub ctx: [Signal<In, Bits<8>>; I],
    /// Its effective mask, EXEC & SpM.
    pub eff: [Signal<In, Bits<64>>; I],
    /// The split mask {SSRC1, SSRC0}.
    pub value: [Signal<In, Bits<64>>; I],
    /// Its outstanding memory operations (vmcnt + lgkmcnt).
    pub pending: [Signal<In, Bits<16>>; I],
    /// The split/merge unit refused last cycle's split.
    pub denied: Signal<In, Bit>,
    /// Contexts a dispatch or a split's copy starts this cycle.
    pub born: Signal<In, Bits<C>>,
    /// Port `i`: send the split command.
    pub cmd_split: [Signal<Out, Bit>; I],
    /// Send the merge command.
    pub cmd_merge: [Signal<Out, Bit>; I],
    /// The issue stops the launch: memory operations outstanding.
    pub fault_pending: [Signal<Out, Bit>; I],
    /// The issue stops the launch: the split stack is full.
    pub fault_overflow: [Signal<Out, Bit>; I],
    /// Bit `c`: a `merge` of context `c` this cycle would command (its stack is empty, or its
    /// top bit, after this cycle's denial, is 1); from the registers and `denied` alone.
    pub mcmd: Signal<Out, Bits<C>>,
    /// Each context's stack, the innermost split in bit 0.
    bits: [DFF<Bits<64>>; C],
    /// Each context's stack depth.
    len: [DFF<Bits<7>>; C],
    /// The context commanded to split last cycle.
    last: DFF<Bits<8>>,
    /// A split was commanded last cycle.
    last_v: DFF<Bit>,
    /// Each context's stack after this cycle's denial.
    now: [Signal<Local, Bits<64>>; C],
    /// Port `i`'s context: a `merge` would command (`mcmd`), and its stack's depth.
    g_mcmd: [Signal<Local, Bit>; I],
    g_len: [Signal<Local, Bits<7>>; I],
    /// Port `i`'s split really splits.
    splits: [Signal<Local, Bit>; I],
    /// Port `i`'s issue goes ahead (no outstanding memory).
    go: [Signal<Local, Bit>; I],
    /// Port `i` pushes, or pops.
    push: [Signal<Local, Bit>; I],
    pop: [Signal<Local, Bit>; I],
    kc: [Constant<Bits<8>>; C],
    /// Context `c`'s bit of a mask; the empty mask.
    onehot: [Constant<Bits<C>>; C],
    z_c: Constant<Bits<C>>,
    full: Constant<Bits<7>>,
    one7: Constant<Bits<7>>,
    one64: Constant<Bits<64>>,
    z7: Constant<Bits<7>>,
    z16: Constant<Bits<16>>,
    z64: Constant<Bits<64>>,
}

/// Splits a context's stack holds (the behavioural `Splits::DEPTH`).
pub const DEPTH: usize = 64;

impl<const C: usize, const I: usize> Default for SplitCtl<C, I> {
    fn default() -> Self {
        Self {
            clock: Default::default(),
            reset: Default::default(),
            dws: Default::default(),
            issue: array_init::array_init(|_| Default::default()),
            is_merge: array_init::array_init(|_| Default::default()),
            ctx: array_init::array_init(|_| Default::default()),
            eff: array_init::array_init(|_| Default::default()),
            value: array_init::array_init(|_| Default::default()),
            pending: array_init::array_init(|_| Default::default()),
            denied: Default::default(),
            born: Default::default(),
            cmd_split: array_init::array_init(|_| Default::default()),
            cmd_merge: array_init::array_init(|_| Default::default()),
            fault_pending: array_init::array_init(|_| Default::default()),
            fault_overflow: array_init::array_init(|_| Default::default()),
            bits: array_init::array_init(|_| Default::default()),
            len: array_init::array_init(|_| Default::default()),
            last: Default::default(),
            last_v: Default::default(),
            now: array_init::array_init(|_| Default::default()),
            g_mcmd: array_init::array_init(|_| Default::default()),
            g_len: array_init::array_init(|_| Default::default()),
            splits: array_init::array_init(|_| Default::default()),
            go: array_init::array_init(|_| Default::default()),
            push: array_init::array_init(|_| Default::default()),
            pop: array_init::array_init(|_| Default::default()),
            kc: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            z_c: k(0),
            mcmd: Default::default(),
            full: k(DEPTH as u64),
            one7: k(1),
            one64: k(1),
            z7: k(0),
            z16: k(0),
            z64: k(0),
        }
    }
}

impl<const C: usize, const I: usize> Logic for SplitCtl<C, I> {
    #[hdl_gen]
    fn update(&mut self) {
        dff_setup!(self, clock, last, last_v);
        // Each context's stack, its top cleared by a denial of its split.
        for c in 0..C {
            self.now[c].next = self.bits[c].q.val();
            if self.denied.val() & self.last_v.q.val() & (self.last.q.val() == self.kc[c].val()) {
                self.now[c].next = self.bits[c].q.val() & !self.one64.val();
            }
        }
        self.mcmd.next = self.z_c.val();
        for c in 0..C {
            if (self.len[c].q.val() == self.z7.val()) | self.now[c].val().get_bit(0) {
                self.mcmd.next = self.mcmd.val() | self.onehot[c].val();
            }
        }
        // Each port: its context's stack, the checks, the command.
        self.last_v.d.next = false;
        self.last.d.next = self.last.q.val();
        for i in 0..I {
            self.g_mcmd[i].next = true;
            self.g_len[i].next = self.z7.val();
            for c in 0..C {
                if self.ctx[i].val() == self.kc[c].val() {
                    self.g_mcmd[i].next = self.mcmd.val().get_bit(c);
                    self.g_len[i].next = self.len[c].q.val();
                }
            }
            self.go[i].next = self.issue[i].val() & (self.pending[i].val() == self.z16.val());
            self.fault_pending[i].next =
                self.issue[i].val() & (self.pending[i].val() != self.z16.val());
            self.splits[i].next = !self.dws.val()
                | (((self.eff[i].val() & self.value[i].val()) != self.z64.val())
                    & ((self.eff[i].val() & !self.value[i].val()) != self.z64.val()));
            self.cmd_merge[i].next =
                self.go[i].val() & self.is_merge[i].val() & self.g_mcmd[i].val();
            self.fault_overflow[i].next = self.go[i].val()
                & !self.is_merge[i].val()
                & (self.g_len[i].val() == self.full.val());
            self.cmd_split[i].next = self.go[i].val()
                & !self.is_merge[i].val()
                & !self.fault_overflow[i].val()
                & self.splits[i].val();
            self.pop[i].next = self.go[i].val() & self.is_merge[i].val();
            self.push[i].next =
                self.go[i].val() & !self.is_merge[i].val() & !self.fault_overflow[i].val();
            if self.cmd_split[i].val() {
                self.last_v.d.next = true;
                self.last.d.next = self.ctx[i].val();
            }
        }
        for c in 0..C {
            self.bits[c].clock.next = self.clock.val();
            self.len[c].clock.next = self.clock.val();
            self.bits[c].d.next = self.now[c].val();
            self.len[c].d.next = self.len[c].q.val();
            for i in 0..I {
                if self.ctx[i].val() == self.kc[c].val() {
                    if self.pop[i].val() & (self.len[c].q.val() != self.z7.val()) {
                        self.bits[c].d.next = self.now[c].val() >> 1;
                        self.len[c].d.next = self.len[c].q.val() - self.one7.val();
                    }
                    if self.push[i].val() {
                        self.bits[c].d.next = self.now[c].val() << 1;
                        if self.splits[i].val() {
                            self.bits[c].d.next = (self.now[c].val() << 1) | self.one64.val();
                        }
                        self.len[c].d.next = self.len[c].q.val() + self.one7.val();
                    }
                }
            }
            if self.born.val().get_bit(c) | self.reset.val() {
                self.bits[c].d.next = self.z64.val();
                self.len[c].d.next = self.z7.val();
            }
        }
    }
}
