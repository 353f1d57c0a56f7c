//! The SGPR words of `C` contexts (`N` = 102 · `C` flip-flop words, context-major): the
//! copy, init, write-port and reset steps of the edge ([`crate::ctx`]) and, for each read
//! port, the words `code` and `code + 1` of the context read.

use crate::ctx::{INIT_SGPRS, SGPRS};
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The SGPR file of `C` contexts with `R` read and `W` write ports.
#[derive(LogicBlock)]
pub struct SgprFile<const C: usize, const N: usize, const R: usize, const W: usize> {
    /// Clock.
    pub clock: Signal<In, Clock>,
    /// Zero every word.
    pub reset: Signal<In, Bit>,
    /// Zero the words of context `init_ctx`.
    pub init: Signal<In, Bit>,
    /// The context initialised.
    pub init_ctx: Signal<In, Bits<8>>,
    /// Its s0..s23 after `init`.
    pub init_s: [Signal<In, Bits<32>>; INIT_SGPRS],
    /// Copy the words of `copy_from` (an existing context) to `copy_to`.
    pub copy: Signal<In, Bit>,
    /// The context copied.
    pub copy_from: Signal<In, Bits<8>>,
    /// The context written.
    pub copy_to: Signal<In, Bits<8>>,
    /// Write port `p` writes its destination.
    pub wen: [Signal<In, Bit>; W],
    /// The context it writes.
    pub wctx: [Signal<In, Bits<8>>; W],
    /// The destination code (SGPR codes only take effect here).
    pub wcode: [Signal<In, Bits<7>>; W],
    /// A pair: `whi` to `wcode + 1` too.
    pub wwide: [Signal<In, Bit>; W],
    /// The word written to `wcode`.
    pub wlo: [Signal<In, Bits<32>>; W],
    /// The word written to `wcode + 1` of a pair.
    pub whi: [Signal<In, Bits<32>>; W],
    /// The context read port `p` reads.
    pub rctx: [Signal<In, Bits<8>>; R],
    /// The code read.
    pub rcode: [Signal<In, Bits<9>>; R],
    /// SGPR `rcode` of the context (0 when not an SGPR).
    pub lo: [Signal<Out, Bits<32>>; R],
    /// SGPR `rcode + 1` of the context (0 when not an SGPR).
    pub hi: [Signal<Out, Bits<32>>; R],
    /// The words, context-major.
    s: [DFF<Bits<32>>; N],
    /// Word `i` of an initialised context (`init_s`, then 0).
    ival: [Signal<Local, Bits<32>>; SGPRS],
    /// The copied context's words.
    cp: [Signal<Local, Bits<32>>; SGPRS],
    /// Each write port writes `wlo` (a 32-bit destination, or a pair's first word).
    wlo_ok: [Signal<Local, Bit>; W],
    /// Each write port writes `whi` (a pair's second word).
    whi_ok: [Signal<Local, Bit>; W],
    /// Context `c`'s index.
    kc: [Constant<Bits<8>>; C],
    /// SGPR `i`'s code as a destination.
    kw: [Constant<Bits<7>>; SGPRS],
    /// The destination code whose pair's second word is SGPR `i` (`i − 1`; for s0 127, which
    /// is no pair).
    kw_prev: [Constant<Bits<7>>; SGPRS],
    /// SGPR `i`'s code as a source.
    kr: [Constant<Bits<9>>; SGPRS],
    /// The source code whose pair's second word is SGPR `i` (`i − 1`; for s0 511, which is
    /// no pair).
    kr_prev: [Constant<Bits<9>>; SGPRS],
    /// 100, the last pair.
    k100: Constant<Bits<7>>,
    /// 0.
    z32: Constant<Bits<32>>,
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Default
    for SgprFile<C, N, R, W>
{
    fn default() -> Self {
        assert!((1..=128).contains(&C), "1 to 128 contexts");
        assert_eq!(N, SGPRS * C, "N = 102 · C words");
        // The words are indexed `c * 102 + i` in `update`: the Verilog generator evaluates
        // the index with the loop variables only, so the count is a literal there.
        assert_eq!(SGPRS, 102);
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_ctx: Default::default(),
            init_s: array_init::array_init(|_| Default::default()),
            ival: array_init::array_init(|_| Default::default()),
            copy: Default::default(),
            copy_from: Default::default(),
            copy_to: Default::default(),
            wen: array_init::array_init(|_| Default::default()),
            wctx: array_init::array_init(|_| Default::default()),
            wcode: array_init::array_init(|_| Default::default()),
            wwide: array_init::array_init(|_| Default::default()),
            wlo: array_init::array_init(|_| Default::default()),
            whi: array_init::array_init(|_| Default::default()),
            rctx: array_init::array_init(|_| Default::default()),
            rcode: array_init::array_init(|_| Default::default()),
            lo: array_init::array_init(|_| Default::default()),
            hi: array_init::array_init(|_| Default::default()),
            s: array_init::array_init(|_| Default::default()),
            cp: array_init::array_init(|_| Default::default()),
            wlo_ok: array_init::array_init(|_| Default::default()),
            whi_ok: array_init::array_init(|_| Default::default()),
            kc: array_init::array_init(|c| k(c as u64)),
            kw: array_init::array_init(|i| k(i as u64)),
            kw_prev: array_init::array_init(|i| k((i as u64).wrapping_sub(1) & 0x7F)),
            kr: array_init::array_init(|i| k(i as u64)),
            kr_prev: array_init::array_init(|i| k((i as u64).wrapping_sub(1) & 0x1FF)),
            k100: k(100),
            z32: k(0),
        }
    }
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Logic
    for SgprFile<C, N, R, W>
{
    #[hdl_gen]
    fn update(&mut self) {
        for i in 0..SGPRS {
            self.ival[i].next = self.z32.val();
        }
        for i in 0..INIT_SGPRS {
            self.ival[i].next = self.init_s[i].val();
        }
        for i in 0..SGPRS {
            self.cp[i].next = self.z32.val();
            for c in 0..C {
                if self.copy_from.val() == self.kc[c].val() {
                    self.cp[i].next = self.s[c * 102 + i].q.val();
                }
            }
        }
        for p in 0..W {
            self.wlo_ok[p].next = self.wen[p].val()
                & (!self.wwide[p].val() | (self.wcode[p].val() <= self.k100.val()));
            self.whi_ok[p].next =
                self.wen[p].val() & self.wwide[p].val() & (self.wcode[p].val() <= self.k100.val());
        }
        for c in 0..C {
            for i in 0..SGPRS {
                self.s[c * 102 + i].clock.next = self.clock.val();
                self.s[c * 102 + i].d.next = self.s[c * 102 + i].q.val();
                if self.copy.val() & (self.copy_to.val() == self.kc[c].val()) {
                    self.s[c * 102 + i].d.next = self.cp[i].val();
                }
                if self.init.val() & (self.init_ctx.val() == self.kc[c].val()) {
                    self.s[c * 102 + i].d.next = self.ival[i].val();
                }
                for p in 0..W {
                    if self.wctx[p].val() == self.kc[c].val() {
                        if self.wlo_ok[p].val() & (self.wcode[p].val() == self.kw[i].val()) {
                            self.s[c * 102 + i].d.next = self.wlo[p].val();
                        }
                        if self.whi_ok[p].val() & (self.wcode[p].val() == self.kw_prev[i].val()) {
                            self.s[c * 102 + i].d.next = self.whi[p].val();
                        }
                    }
                }
                if self.reset.val() {
                    self.s[c * 102 + i].d.next = self.z32.val();
                }
            }
        }
        for p in 0..R {
            self.lo[p].next = self.z32.val();
            self.hi[p].next = self.z32.val();
            for c in 0..C {
                if self.rctx[p].val() == self.kc[c].val() {
                    for i in 0..SGPRS {
                        if self.rcode[p].val() == self.kr[i].val() {
                            self.lo[p].next = self.s[c * 102 + i].q.val();
                        }
                        if self.rcode[p].val() == self.kr_prev[i].val() {
                            self.hi[p].next = self.s[c * 102 + i].q.val();
                        }
                    }
                }
            }
        }
    }
}
