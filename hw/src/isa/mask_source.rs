//! Which scalar operand codes may name a `split` mask source (spec/000-pws.md §3.1, A2).

use rust_hdl::prelude::*;

/// Combinational check of one 8-bit scalar source operand code of `split`.
///
/// Legal mask sources: SGPR0..101 (0..=101), VCC_LO/VCC_HI (106, 107), EXEC_LO/EXEC_HI
/// (126, 127) and the inline constants 0, 1..64, -1..-16 (128..=208). Everything else is
/// illegal: FLAT_SCRATCH, XNACK_MASK, TBA/TMA, trap temporaries, M0, the float inline
/// constants, VCCZ/EXECZ/SCC, and the literal code 255 (a split is one fixed 32-bit word).
#[derive(LogicBlock, Default)]
pub struct MaskSourceCheck {
    /// The 8-bit SSRC operand code.
    pub code: Signal<In, Bits<8>>,
    /// High when `code` may supply split-mask bits.
    pub ok: Signal<Out, Bit>,
}

impl Logic for MaskSourceCheck {
    #[hdl_gen]
    fn update(&mut self) {
        self.ok.next = (self.code.val() <= 101)
            | (self.code.val() == 106)
            | (self.code.val() == 107)
            | (self.code.val() == 126)
            | (self.code.val() == 127)
            | ((self.code.val() >= 128) & (self.code.val() <= 208));
    }
}
