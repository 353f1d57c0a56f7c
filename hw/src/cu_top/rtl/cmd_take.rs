//! `CmdTake`: whether an issue unit's pick at one position of the cycle's order takes the
//! split/merge unit's command port.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The command port's take of one issue unit's pick at one position of the order, for its `C`
/// contexts (an issue unit has one per position it picks at: 0, 1, 2).
///
/// The behavioural compute unit visits the issue units in turn, one further every cycle: the
/// memory pipe, the LDS and the split/merge unit's command port go to the first unit that
/// wants them. To keep the units' grants free of combinational loops, each unit's issue
/// control picks at each position of the order with what the positions before it take
/// (`f_grant` at position 0, `p1_grant`, `p2_grant`, [`crate::issue`]) and says what that
/// pick's instruction needs (`f_mem`, `f_lds`, `f_port`, ...); the units visited later stall
/// what needs them. Every instruction takes what it needs but one: a `merge`
/// needs the port (its split may have split) and takes it only when its split really split
/// (`mcmd`, the context's split-stack top). This block makes that difference.
#[derive(LogicBlock)]
pub struct CmdTake<const C: usize> {
    /// The unit's pick at the position: valid.
    pub f_valid: Signal<In, Bit>,
    /// Its context.
    pub f_grant: Signal<In, Bits<6>>,
    /// Its instruction needs the command port.
    pub f_port: Signal<In, Bit>,
    /// Context `c`'s instruction's first word.
    pub w0: [Signal<In, Bits<32>>; C],
    /// Bit `c`: a `merge` of context `c` would command (its split really split).
    pub mcmd: Signal<In, Bits<C>>,
    /// The first-visited grant takes the command port.
    pub f_cmd: Signal<Out, Bit>,
    kc: [Constant<Bits<6>>; C],
    /// `merge`'s encoding: SOPP (the top nine bits), opcode 0x7F.
    sopp: Constant<Bits<9>>,
    op_merge: Constant<Bits<7>>,
}

impl<const C: usize> Default for CmdTake<C> {
    fn default() -> Self {
        Self {
            f_valid: Default::default(),
            f_grant: Default::default(),
            f_port: Default::default(),
            w0: array_init::array_init(|_| Default::default()),
            mcmd: Default::default(),
            f_cmd: Default::default(),
            kc: array_init::array_init(|c| k(c as u64)),
            sopp: k(0x17F),
            op_merge: k(0x7F),
        }
    }
}

impl<const C: usize> Logic for CmdTake<C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.f_cmd.next = self.f_port.val();
        for c in 0..C {
            if self.f_valid.val()
                & (self.f_grant.val() == self.kc[c].val())
                & (self.w0[c].val().get_bits::<9>(23) == self.sopp.val())
                & (self.w0[c].val().get_bits::<7>(16) == self.op_merge.val())
                & !self.mcmd.val().get_bit(c)
            {
                self.f_cmd.next = false;
            }
        }
    }
}
