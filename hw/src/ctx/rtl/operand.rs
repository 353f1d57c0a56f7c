//! One operand read port's resolution: a source code of the context read, to the 32-bit
//! value of `Sregs::read` (zero-extended) or the 64-bit pair of `Sregs::read64`
//! ([`crate::ctx`]), from the two SGPR words the file selected and the context's VCC, EXEC,
//! M0 and SCC.

use crate::ctx::INLINE_FLOATS;
use crate::hdl::k;
use rust_hdl::prelude::*;

/// The resolution of one source code.
#[derive(LogicBlock)]
pub struct Operand {
    /// The source code (9 bits).
    pub code: Signal<In, Bits<9>>,
    /// Read a 64-bit pair (else 32 bits).
    pub wide: Signal<In, Bit>,
    /// The literal (code 255).
    pub lit: Signal<In, Bits<32>>,
    /// The context exists.
    pub ok: Signal<In, Bit>,
    /// SGPR `code` of the context (0 when `code` is not an SGPR).
    pub lo: Signal<In, Bits<32>>,
    /// SGPR `code + 1` of the context.
    pub hi: Signal<In, Bits<32>>,
    /// The context's VCC.
    pub vcc: Signal<In, Bits<64>>,
    /// The context's EXEC.
    pub exec: Signal<In, Bits<64>>,
    /// The context's M0.
    pub m0: Signal<In, Bits<32>>,
    /// The context's SCC.
    pub scc: Signal<In, Bit>,
    /// The operand (0 when bad).
    pub data: Signal<Out, Bits<64>>,
    /// Not a source of that width, or no such context.
    pub bad: Signal<Out, Bit>,
    /// The value before the checks.
    v: Signal<Local, Bits<64>>,
    /// The code is a source of that width.
    hit: Signal<Local, Bit>,
    /// The integer constant, 64 bits.
    ival: Signal<Local, Bits<64>>,
    /// The code, 64 bits.
    code64: Signal<Local, Bits<64>>,
    /// Codes 100, 101, 106, 107, 124, 126, 127, 128, 192, 208, 251, 252, 253, 255.
    c100: Constant<Bits<9>>,
    c101: Constant<Bits<9>>,
    c106: Constant<Bits<9>>,
    c107: Constant<Bits<9>>,
    c124: Constant<Bits<9>>,
    c126: Constant<Bits<9>>,
    c127: Constant<Bits<9>>,
    c128: Constant<Bits<9>>,
    c192: Constant<Bits<9>>,
    c208: Constant<Bits<9>>,
    c251: Constant<Bits<9>>,
    c252: Constant<Bits<9>>,
    c253: Constant<Bits<9>>,
    c255: Constant<Bits<9>>,
    /// 128 and 192, 64 bits.
    k128: Constant<Bits<64>>,
    k192: Constant<Bits<64>>,
    /// The float constants' codes.
    fcode: [Constant<Bits<9>>; 9],
    /// The float constants as f32 bit patterns.
    f32s: [Constant<Bits<64>>; 9],
    /// The float constants as f64 bit patterns.
    f64s: [Constant<Bits<64>>; 9],
    /// `0xFFFF_FFFF`.
    low32: Constant<Bits<64>>,
    /// 32, the high half's shift.
    k32: Constant<Bits<6>>,
    /// 1 (VCCZ, EXECZ, SCC set).
    one: Constant<Bits<64>>,
    /// 0.
    z64: Constant<Bits<64>>,
}

impl Default for Operand {
    fn default() -> Self {
        Self {
            code: Default::default(),
            wide: Default::default(),
            lit: Default::default(),
            ok: Default::default(),
            lo: Default::default(),
            hi: Default::default(),
            vcc: Default::default(),
            exec: Default::default(),
            m0: Default::default(),
            scc: Default::default(),
            data: Default::default(),
            bad: Default::default(),
            v: Default::default(),
            hit: Default::default(),
            ival: Default::default(),
            code64: Default::default(),
            c100: k(100),
            c101: k(101),
            c106: k(106),
            c107: k(107),
            c124: k(124),
            c126: k(126),
            c127: k(127),
            c128: k(128),
            c192: k(192),
            c208: k(208),
            c251: k(251),
            c252: k(252),
            c253: k(253),
            c255: k(255),
            k128: k(128),
            k192: k(192),
            fcode: array_init::array_init(|j| k(240 + j as u64)),
            f32s: INLINE_FLOATS.map(|f| k(u64::from((f as f32).to_bits()))),
            f64s: INLINE_FLOATS.map(|f| k(f.to_bits())),
            low32: k(0xFFFF_FFFF),
            k32: k(32),
            one: k(1),
            z64: k(0),
        }
    }
}

impl Logic for Operand {
    #[hdl_gen]
    fn update(&mut self) {
        self.code64.next = bit_cast::<64, 9>(self.code.val());
        self.ival.next = self.code64.val() - self.k128.val();
        if self.code.val() > self.c192.val() {
            self.ival.next = self.k192.val() - self.code64.val();
        }
        self.v.next = self.z64.val();
        self.hit.next = false;
        if self.wide.val() {
            if self.code.val() <= self.c100.val() {
                self.v.next = (bit_cast::<64, 32>(self.hi.val()) << self.k32.val())
                    | bit_cast::<64, 32>(self.lo.val());
                self.hit.next = true;
            }
            if self.code.val() == self.c106.val() {
                self.v.next = self.vcc.val();
                self.hit.next = true;
            }
            if self.code.val() == self.c126.val() {
                self.v.next = self.exec.val();
                self.hit.next = true;
            }
            if (self.code.val() >= self.c128.val()) & (self.code.val() <= self.c208.val()) {
                self.v.next = self.ival.val();
                self.hit.next = true;
            }
            for j in 0..9 {
                if self.code.val() == self.fcode[j].val() {
                    self.v.next = self.f64s[j].val();
                    self.hit.next = true;
                }
            }
        } else {
            if self.code.val() <= self.c101.val() {
                self.v.next = bit_cast::<64, 32>(self.lo.val());
                self.hit.next = true;
            }
            if self.code.val() == self.c106.val() {
                self.v.next = self.vcc.val() & self.low32.val();
                self.hit.next = true;
            }
            if self.code.val() == self.c107.val() {
                self.v.next = self.vcc.val() >> self.k32.val();
                self.hit.next = true;
            }
            if self.code.val() == self.c124.val() {
                self.v.next = bit_cast::<64, 32>(self.m0.val());
                self.hit.next = true;
            }
            if self.code.val() == self.c126.val() {
                self.v.next = self.exec.val() & self.low32.val();
                self.hit.next = true;
            }
            if self.code.val() == self.c127.val() {
                self.v.next = self.exec.val() >> self.k32.val();
                self.hit.next = true;
            }
            if (self.code.val() >= self.c128.val()) & (self.code.val() <= self.c208.val()) {
                self.v.next = self.ival.val() & self.low32.val();
                self.hit.next = true;
            }
            for j in 0..9 {
                if self.code.val() == self.fcode[j].val() {
                    self.v.next = self.f32s[j].val();
                    self.hit.next = true;
                }
            }
            if self.code.val() == self.c251.val() {
                self.hit.next = true;
                if self.vcc.val() == self.z64.val() {
                    self.v.next = self.one.val();
                }
            }
            if self.code.val() == self.c252.val() {
                self.hit.next = true;
                if self.exec.val() == self.z64.val() {
                    self.v.next = self.one.val();
                }
            }
            if self.code.val() == self.c253.val() {
                self.hit.next = true;
                if self.scc.val() {
                    self.v.next = self.one.val();
                }
            }
        }
        if self.code.val() == self.c255.val() {
            self.v.next = bit_cast::<64, 32>(self.lit.val());
            self.hit.next = true;
        }
        self.data.next = self.z64.val();
        self.bad.next = true;
        if self.hit.val() & self.ok.val() {
            self.data.next = self.v.val();
            self.bad.next = false;
        }
    }
}
