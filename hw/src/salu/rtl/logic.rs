//! The SALU's 64-bit logic unit.

use rust_hdl::prelude::*;

/// Combinational bitwise `a op y` (AND, or OR / XOR when selected; `y` first inverted with
/// `inv_y`), or `!a` with `not`.
#[derive(LogicBlock, Default)]
pub struct SaluLogic {
    /// First operand.
    pub a: Signal<In, Bits<64>>,
    /// Second operand.
    pub y: Signal<In, Bits<64>>,
    /// OR.
    pub sel_or: Signal<In, Bit>,
    /// XOR.
    pub sel_xor: Signal<In, Bit>,
    /// NOT `a` (`y` unused).
    pub sel_not: Signal<In, Bit>,
    /// Invert `y` first (`andn2`, `orn2`).
    pub inv_y: Signal<In, Bit>,
    /// The result.
    pub d: Signal<Out, Bits<64>>,
    /// `y`, inverted with `inv_y`.
    yy: Signal<Local, Bits<64>>,
    /// The result (`d` is assigned once: see [`crate::salu::rtl`]).
    r: Signal<Local, Bits<64>>,
}

impl Logic for SaluLogic {
    #[hdl_gen]
    fn update(&mut self) {
        self.yy.next = self.y.val();
        if self.inv_y.val() {
            self.yy.next = !self.y.val();
        }
        self.r.next = self.a.val() & self.yy.val();
        if self.sel_or.val() {
            self.r.next = self.a.val() | self.yy.val();
        }
        if self.sel_xor.val() {
            self.r.next = self.a.val() ^ self.yy.val();
        }
        if self.sel_not.val() {
            self.r.next = !self.a.val();
        }
        self.d.next = self.r.val();
    }
}
