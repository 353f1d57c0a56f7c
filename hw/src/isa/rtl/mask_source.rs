//! Which scalar operand codes may name a `split` mask source (docs/assumptions.md#A2).

use rust_hdl::prelude::*;

/// Combinational check of one 8-bit scalar source operand code of `split`.
///
/// Legal mask sources: SGPR0..101 (0..=101), VCC_LO/VCC_HI (106, 107), EXEC_LO/EXEC_HI
/// (126, 127) and the inline constants 0, 1..64, -1..-16 (128..=208). Everything else is
/// illegal: FLAT_SCRATCH, XNACK_MASK, TBA/TMA, trap temporaries, M0, the float inline
/// constants, VCCZ/EXECZ/SCC, and the literal code 255 (a split is one fixed 32-bit word).
#[derive(LogicBlock)]
pub struct MaskSourceCheck {
    /// The 8-bit SSRC operand code.
    pub code: Signal<In, Bits<8>>,
    /// High when `code` may supply split-mask bits.
    pub ok: Signal<Out, Bit>,
    /// SGPR101, the last SGPR of gfx8.
    sgpr_last: Constant<Bits<8>>,
    /// VCC_LO; VCC_HI is the next code.
    vcc_lo: Constant<Bits<8>>,
    /// VCC_HI.
    vcc_hi: Constant<Bits<8>>,
    /// EXEC_LO; EXEC_HI is the next code.
    exec_lo: Constant<Bits<8>>,
    /// EXEC_HI.
    exec_hi: Constant<Bits<8>>,
    /// The inline constant 0.
    inline_first: Constant<Bits<8>>,
    /// The inline constant -16.
    inline_last: Constant<Bits<8>>,
}

impl Default for MaskSourceCheck {
    fn default() -> Self {
        Self {
            code: Default::default(),
            ok: Default::default(),
            sgpr_last: Constant::new(101.into()),
            vcc_lo: Constant::new(106.into()),
            vcc_hi: Constant::new(107.into()),
            exec_lo: Constant::new(126.into()),
            exec_hi: Constant::new(127.into()),
            inline_first: Constant::new(128.into()),
            inline_last: Constant::new(208.into()),
        }
    }
}

impl Logic for MaskSourceCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.ok.next = (self.code.val() <= self.sgpr_last.val())
            | (self.code.val() == self.vcc_lo.val())
            | (self.code.val() == self.vcc_hi.val())
            | (self.code.val() == self.exec_lo.val())
            | (self.code.val() == self.exec_hi.val())
            | ((self.code.val() >= self.inline_first.val())
                & (self.code.val() <= self.inline_last.val()));
    }
}
