//! `Takes`: an issue unit's share of the cycle's visiting order — which of its contexts an
//! earlier unit blocks, and what it takes itself when it is visited first.

use crate::hdl::k;
use rust_hdl::prelude::*;

/// The shared resources of the SIMD group in one issue unit's view, for its `C` contexts.
///
/// The behavioural compute unit visits the issue units in turn, one further every cycle: the
/// memory pipe (one FLAT or SMEM a cycle), the LDS (one DS) and the split/merge unit's
/// command port (one command) go to the first unit that wants them. To keep the units'
/// grants free of combinational loops, each unit computes its grant twice
/// ([`crate::issue`]): `f_grant` as if it were visited first, and its grant with the
/// contexts that the first unit's `f_grant` blocks. This block gives both sides:
///
/// - `block` (bit `c`): the unit is visited `second` and context `c`'s next instruction needs
///   what the other unit took (`o_mem`: a FLAT or SMEM; `o_lds`: a DS; `o_cmd`: `split` or
///   `merge` with splitting on, or `s_endpgm`) — the issue control's structural rules;
/// - `f_mem`, `f_lds`, `f_cmd`: what the unit's `f_grant` takes, from its context's
///   predecode: a FLAT or SMEM, a DS, or a command — `s_endpgm`, a `split`, or a `merge`
///   whose split really split (`mcmd`, the context's stack top).
///
/// An illegal instruction takes nothing: it stops the launch, and the unit visited after it
/// does not issue. Under DWS a `split` counts as a command even when its lanes do not
/// diverge; under DWS only unit 0 holds contexts, so the other unit never needs the port.
#[derive(LogicBlock)]
pub struct Takes<const C: usize> {
    /// The unit is visited second this cycle.
    pub second: Signal<In, Bit>,
    /// The unit visited first takes the memory pipe.
    pub o_mem: Signal<In, Bit>,
    /// It takes the LDS.
    pub o_lds: Signal<In, Bit>,
    /// It takes the split/merge unit's command port.
    pub o_cmd: Signal<In, Bit>,
    /// The launch splits (`split`/`merge` need the port).
    pub split_on: Signal<In, Bit>,
    /// Context `c`'s predecoded unit.
    pub fu: [Signal<In, Bits<4>>; C],
    /// It is illegal, or its PC is past the code.
    pub bad: [Signal<In, Bit>; C],
    /// Its instruction's first word.
    pub w0: [Signal<In, Bits<32>>; C],
    /// Bit `c`: a `merge` of context `c` would command (its split really split).
    pub mcmd: Signal<In, Bits<C>>,
    /// The unit's grant as the unit visited first: valid.
    pub f_valid: Signal<In, Bit>,
    /// Its context.
    pub f_grant: Signal<In, Bits<6>>,
    /// Bit `c`: context `c` stalls on what the first unit took.
    pub block: Signal<Out, Bits<C>>,
    /// The first-visited grant takes the memory pipe.
    pub f_mem: Signal<Out, Bit>,
    /// It takes the LDS.
    pub f_lds: Signal<Out, Bit>,
    /// It takes the command port.
    pub f_cmd: Signal<Out, Bit>,
    /// Context `c`'s instruction needs the memory pipe, the LDS, the command port.
    n_mem: [Signal<Local, Bit>; C],
    n_lds: [Signal<Local, Bit>; C],
    n_cmd: [Signal<Local, Bit>; C],
    kc: [Constant<Bits<6>>; C],
    onehot: [Constant<Bits<C>>; C],
    zc: Constant<Bits<C>>,
    u_vmem: Constant<Bits<4>>,
    u_smem: Constant<Bits<4>>,
    u_lds: Constant<Bits<4>>,
    u_pws: Constant<Bits<4>>,
    u_program: Constant<Bits<4>>,
    /// `s_endpgm`'s SOPP opcode; the SOPP encoding's top nine bits (`merge` is a SOPP).
    op_endpgm: Constant<Bits<7>>,
    sopp: Constant<Bits<9>>,
}

impl<const C: usize> Default for Takes<C> {
    fn default() -> Self {
        Self {
            second: Default::default(),
            o_mem: Default::default(),
            o_lds: Default::default(),
            o_cmd: Default::default(),
            split_on: Default::default(),
            fu: array_init::array_init(|_| Default::default()),
            bad: array_init::array_init(|_| Default::default()),
            w0: array_init::array_init(|_| Default::default()),
            mcmd: Default::default(),
            f_valid: Default::default(),
            f_grant: Default::default(),
            block: Default::default(),
            f_mem: Default::default(),
            f_lds: Default::default(),
            f_cmd: Default::default(),
            n_mem: array_init::array_init(|_| Default::default()),
            n_lds: array_init::array_init(|_| Default::default()),
            n_cmd: array_init::array_init(|_| Default::default()),
            kc: array_init::array_init(|c| k(c as u64)),
            onehot: array_init::array_init(|c| k(1 << c)),
            zc: k(0),
            u_vmem: k(3),
            u_smem: k(4),
            u_lds: k(5),
            u_pws: k(7),
            u_program: k(9),
            op_endpgm: k(1),
            sopp: k(0x17F),
        }
    }
}

impl<const C: usize> Logic for Takes<C> {
    #[hdl_gen]
    fn update(&mut self) {
        self.block.next = self.zc.val();
        self.f_mem.next = false;
        self.f_lds.next = false;
        self.f_cmd.next = false;
        for c in 0..C {
            // What context c's instruction needs (the issue control's structural rules).
            self.n_mem[c].next =
                (self.fu[c].val() == self.u_vmem.val()) | (self.fu[c].val() == self.u_smem.val());
            self.n_lds[c].next = self.fu[c].val() == self.u_lds.val();
            self.n_cmd[c].next = ((self.fu[c].val() == self.u_pws.val()) & self.split_on.val())
                | ((self.fu[c].val() == self.u_program.val())
                    & (self.w0[c].val().get_bits::<7>(16) == self.op_endpgm.val()));
            if self.second.val()
                & ((self.o_mem.val() & self.n_mem[c].val())
                    | (self.o_lds.val() & self.n_lds[c].val())
                    | (self.o_cmd.val() & self.n_cmd[c].val()))
            {
                self.block.next = self.block.val() | self.onehot[c].val();
            }
            // What it takes when the first-visited grant is c: a `merge` commands only
            // when its split really split.
            if self.f_valid.val() & (self.f_grant.val() == self.kc[c].val()) & !self.bad[c].val() {
                self.f_mem.next = self.n_mem[c].val();
                self.f_lds.next = self.n_lds[c].val();
                self.f_cmd.next = self.n_cmd[c].val()
                    & ((self.w0[c].val().get_bits::<9>(23) != self.sopp.val())
                        | (self.fu[c].val() != self.u_pws.val())
                        | self.mcmd.val().get_bit(c));
            }
        }
    }
}
