//! Reference model of the Sim-D DRAM controller, written from the contract in [`super`] (the
//! module documentation of `dram/mod.rs`) and [`Part`] only; the Sim-D paper (Table 1, Section
//! 3.2, Eq. 15 and 16) was read as background.
//!
//! It is cycle-accurate and a Moore machine: [`DramModel::outputs`] gives what the block
//! drives during the current cycle (a function of the registered state only),
//! [`DramModel::step`] returns the same outputs and then performs the rising edge that ends
//! the cycle. Every decision of a cycle (the arbiter's command, the front-end's emission and
//! the generator's acceptance, `idx_ready`, `done`, `req_ready`) is taken from the state at
//! the start of the cycle, and the edge applies all of them together: no decision of an edge
//! sees another decision of the same edge.
//!
//! All state lives in fixed-size arrays, so neither [`DramModel::new`] nor a step allocates.
//!
//! # Readings of the contract
//!
//! Where the contract leaves room, the model takes the most literal reading:
//! - The bad-request rule (W = 0, C = 0, or P < W with C > 1) applies to indexed requests
//!   too ("`req_words`, `req_period` are ignored (but must be non-zero, see below)"): an
//!   indexed request with C > 1 needs W ≥ 1 and P ≥ W. [`Request::indexed`] uses W = P = 1.
//! - "In progress from acceptance until its `done` cycle t_d" includes t_d: REF cannot issue in
//!   t_d (it is never legal there anyway, REF becomes legal in t_d + 2 at the earliest).
//! - "The front-end has emitted the last burst" is a register: it is set at the edge of the
//!   emit cycle, so `done` can come at the earliest in the cycle after the last emission
//!   (when that burst's entry is in a FIFO, which is then not empty).
//! - "Every bank is closed" is the banks' real state (ACT opens, PRE/RDA/WRA close), not the
//!   shadow table; with every FIFO empty the two agree.
//! - "REF would be legal in t_d + 2" is the REF timing bound alone (the table's REF rows).
//! - `dq_bank`, `dq_col` use the conventions of `cmd_bank`, `cmd_col`: the bank within its
//!   group and the DDR4 column (`col · 8`).
//! - Tile rows whose addresses pass 2^30 words wrap; two segments are "in the same burst"
//!   when their burst indexes are equal modulo 2^26.
//! - `done_lid` is 32 bits wide and wraps.
//! - An indexed request's first index can be taken in t_a + 1 at the earliest, so its first
//!   burst is emitted in t_a + 2 and its first command issues in t_a + 3 at the earliest (one
//!   cycle later than a tile's).
//!
//! The model is split by role: `ports` holds the port bundles, `arbiter` the cycle's
//! decisions (the arbiter's pick, refresh, `done`), `frontend` the front-end and the command
//! generator, `edge` the outputs and the rising edge, `driver` the request drivers, `check` the translation of the outputs for the
//! independent DDR4 timing checker.

mod arbiter;
mod check;
mod driver;
mod edge;
mod frontend;
mod ports;
#[cfg(test)]
mod tests;

pub use check::{checker, trace_cmd};
pub use driver::{request_lid, run_request, run_requests, Request, RequestRun, RunError};
pub use ports::{DramIn, DramOut};

use super::{Command, Part};

/// Word addresses are 30 bits wide.
const WORD_MASK: u32 = (1 << 30) - 1;
/// Burst indexes (word >> 4) are 26 bits wide.
const BURST_MASK: u64 = (1 << 26) - 1;
/// `req_words`, `req_period`: 30 bits.
const LEN_MASK: u32 = (1 << 30) - 1;
/// Entries per bank FIFO.
const FIFO_DEPTH: usize = 8;
/// The most banks a part can have.
const MAX_BANKS: usize = 16;
/// Outstanding DQ reservations the model can hold (CAS are ≥ CCD_S = 4 cycles apart and a
/// reservation lives at most CL + BL cycles, so fewer than 8 are ever outstanding).
const DQ_SLOTS: usize = 16;
/// `ref_owed` saturates here.
const MAX_OWED: u8 = 8;

/// One bank-FIFO entry: a compound command or a stand-alone PRE.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Entry {
    /// A stand-alone PRE (PRE_CLOSE); the other fields are unused.
    close: bool,
    /// Pre-activate precharge still to issue.
    pre_pre: bool,
    /// ACT still to issue.
    act: bool,
    /// The CAS auto-precharges (RDA/WRA).
    ap: bool,
    /// WR/WRA rather than RD/RDA.
    write: bool,
    /// The burst's row.
    row: u32,
    /// The burst within the row (0..128).
    col: u8,
    /// The burst's word mask.
    mask: u16,
}

impl Entry {
    /// The stand-alone PRE.
    const CLOSE: Entry = Entry {
        close: true,
        pre_pre: false,
        act: false,
        ap: false,
        write: false,
        row: 0,
        col: 0,
        mask: 0,
    };
}

/// An 8-entry ring buffer.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Fifo {
    buf: [Entry; FIFO_DEPTH],
    head: u8,
    len: u8,
}

impl Fifo {
    /// Entry `i` (0 = head).
    fn get(&self, i: usize) -> &Entry {
        &self.buf[(self.head as usize + i) % FIFO_DEPTH]
    }

    fn head_mut(&mut self) -> &mut Entry {
        &mut self.buf[self.head as usize]
    }

    fn push(&mut self, e: Entry) {
        assert!((self.len as usize) < FIFO_DEPTH, "bank FIFO overflow");
        self.buf[(self.head as usize + self.len as usize) % FIFO_DEPTH] = e;
        self.len += 1;
    }

    fn pop(&mut self) {
        debug_assert!(self.len > 0);
        self.head = ((self.head as usize + 1) % FIFO_DEPTH) as u8;
        self.len -= 1;
    }
}

/// The step of a bank (that of its FIFO head).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Step {
    /// A stand-alone PRE (tier 0).
    PreClose,
    /// An ACT (tier 1).
    Act,
    /// A pre-activate PRE (tier 2).
    PrePre,
    /// RD/RDA/WR/WRA (tier 3).
    Cas,
}

/// One bank's timing bounds (earliest legal cycles) and real state.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Bank {
    /// ACT to this bank legal from (RC, RDA/WRA, RP).
    act_ok: u64,
    /// RD/WR to this bank legal from (RCD).
    cas_ok: u64,
    /// PRE to this bank legal from (RAS, RTP, CWL + BL + WR).
    pre_ok: u64,
    /// Cycle of the last ACT to this bank.
    last_act: u64,
    /// The open row, if the bank is open.
    open: Option<u32>,
}

/// A DQ reservation.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Reservation {
    start: u64,
    write: bool,
    bank: u8,
    row: u32,
    col: u8,
    mask: u16,
}

/// The request in progress.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Req {
    write: bool,
    indexed: bool,
    addr: u32,
    words: u32,
    period: u32,
    count: u32,
    tag: u8,
    bad: bool,
    /// Acceptance cycle t_a.
    t_a: u64,
}

/// A tile segment: the intersection of one row with one burst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Seg {
    /// The burst index (unwrapped; the bank mapping masks it to 26 bits).
    burst: u64,
    /// The row's words in the burst.
    mask: u16,
    /// The next segment: (row, first word, the row's end), unwrapped.
    next: Option<(u32, u64, u64)>,
    /// This segment completes its burst.
    completing: bool,
}

/// A burst the front-end offers to the generator in this cycle, with the generator's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Emit {
    /// Target bank.
    bank: u8,
    /// The compound entry for `bank`.
    entry: Entry,
    /// Banks that get a stand-alone PRE (bit b = bank b).
    closes: u16,
    /// Every FIFO pushed into holds fewer than 8 entries.
    accepted: bool,
}

/// Everything decided in a cycle from the state at its start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Decision {
    /// The bank step the arbiter issues.
    issue: Option<(u8, Step)>,
    /// A REF issues.
    refresh: bool,
    /// The segment completing the tile burst offered this cycle (if a tile is running).
    seg: Option<Seg>,
    /// The burst offered to the generator.
    emit: Option<Emit>,
    idx_ready: bool,
    req_ready: bool,
    done: bool,
}

/// Cycle-accurate reference model of the DRAM controller (the contract of [`super`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DramModel {
    part: Part,
    refresh_phase: u16,
    /// Banks (part.banks).
    nb: usize,
    /// Bank groups (part.bank_groups).
    nbg: usize,
    /// Bits of the pair index (part.pair_bits()).
    pair_bits: u32,
    /// Cycles stepped since `new` (the current cycle's number).
    cycle: u64,

    // -- arbiter and timing --
    fifo: [Fifo; MAX_BANKS],
    bank: [Bank; MAX_BANKS],
    /// Per bank group: ACT legal from (RRD_L).
    bg_act_ok: [u64; 4],
    /// Per bank group: CAS legal from (CCD_L).
    bg_cas_ok: [u64; 4],
    /// Rank: ACT legal from (RRD_S, RFC).
    act_ok: u64,
    /// Rank: CAS legal from (CCD_S).
    cas_ok: u64,
    /// REF legal from (RC, RDA/WRA, RP, RFC).
    ref_ok: u64,
    /// The last four ACT cycles (ring; `faw_next` is the oldest once `faw_n` = 4).
    faw: [u64; 4],
    faw_next: u8,
    faw_n: u8,
    /// Bank index of the current pair (even).
    cur_pair: u8,

    // -- command generator --
    shadow_open: [bool; MAX_BANKS],
    shadow_row: [u32; MAX_BANKS],

    // -- front-end --
    /// A request is in progress.
    active: bool,
    req: Req,
    /// The front-end has emitted the request's last burst.
    fe_done: bool,
    /// Tile: current row.
    row: u32,
    /// Tile: the current segment's first word (unwrapped).
    pos: u64,
    /// Tile: the current row's end (exclusive, unwrapped).
    row_end: u64,
    /// Indexed: the index register.
    idx_reg: Option<u32>,
    /// Indexed: indexes taken.
    taken: u32,
    /// Indexed: bursts emitted.
    emitted: u32,

    // -- refresh --
    ref_cnt: u16,
    owed: u8,
    overflow: bool,

    // -- DQ scheduler --
    dq: [Reservation; DQ_SLOTS],
    dq_head: u8,
    dq_len: u8,
}

impl DramModel {
    /// The model in its power-up state (the state right after reset); cycle 0 is next.
    ///
    /// Panics if the part is not one the contract supports (8 or 16 banks, 2 or 4 bank
    /// groups) or `refresh_phase ≥ tREFI`.
    pub fn new(part: Part, refresh_phase: u16) -> Self {
        assert!(
            part.banks == 8 || part.banks == 16,
            "the controller supports 8 or 16 banks, not {}",
            part.banks
        );
        assert!(
            part.bank_groups == 2 || part.bank_groups == 4,
            "the controller supports 2 or 4 bank groups, not {}",
            part.bank_groups
        );
        assert!(
            part.bl == 4,
            "the DQ scheduler moves BL8 bursts (BL = 4 cycles)"
        );
        assert!(
            refresh_phase < part.refi,
            "refresh_phase {refresh_phase} must be below tREFI = {}",
            part.refi
        );
        Self::power_up(part, refresh_phase, 0)
    }

    /// The power-up state at cycle `cycle`.
    fn power_up(part: Part, refresh_phase: u16, cycle: u64) -> Self {
        Self {
            part,
            refresh_phase,
            nb: part.banks as usize,
            nbg: part.bank_groups as usize,
            pair_bits: part.pair_bits(),
            cycle,
            fifo: [Fifo::default(); MAX_BANKS],
            bank: [Bank::default(); MAX_BANKS],
            bg_act_ok: [0; 4],
            bg_cas_ok: [0; 4],
            act_ok: 0,
            cas_ok: 0,
            ref_ok: 0,
            faw: [0; 4],
            faw_next: 0,
            faw_n: 0,
            cur_pair: 0,
            shadow_open: [false; MAX_BANKS],
            shadow_row: [0; MAX_BANKS],
            active: false,
            req: Req::default(),
            fe_done: false,
            row: 0,
            pos: 0,
            row_end: 0,
            idx_reg: None,
            taken: 0,
            emitted: 0,
            ref_cnt: refresh_phase,
            owed: 0,
            overflow: false,
            dq: [Reservation::default(); DQ_SLOTS],
            dq_head: 0,
            dq_len: 0,
        }
    }

    /// The part.
    pub fn part(&self) -> Part {
        self.part
    }

    /// Cycles stepped since [`DramModel::new`] (so also the number of the current cycle).
    pub fn cycle(&self) -> u64 {
        self.cycle
    }

    /// Entries in bank `bank`'s FIFO.
    pub fn fifo_len(&self, bank: usize) -> usize {
        self.fifo[bank].len as usize
    }

    /// The row open in bank `bank` (the bank's real state, not the shadow table).
    pub fn bank_open(&self, bank: usize) -> Option<u32> {
        self.bank[bank].open
    }

    /// `cur_pair`: the even bank of the pair of the last CAS (0 after reset).
    pub fn cur_pair(&self) -> usize {
        self.cur_pair as usize
    }

    /// A request is in progress (from its acceptance to its `done` cycle, inclusive).
    pub fn busy(&self) -> bool {
        self.active
    }

    /// This cycle's outputs.
    pub fn outputs(&self) -> DramOut {
        self.output_of(&self.decide())
    }

    /// This cycle's outputs, then the clock edge that ends the cycle with inputs `inp`.
    pub fn step(&mut self, inp: &DramIn) -> DramOut {
        let d = self.decide();
        let out = self.output_of(&d);
        self.edge(&d, inp);
        out
    }

    /// Like [`DramModel::step`], with inputs chosen from this cycle's outputs (a testbench
    /// reacting to `req_ready`/`idx_ready` in the same cycle), without computing the outputs
    /// twice.
    pub fn step_with(&mut self, inputs: impl FnOnce(&DramOut) -> DramIn) -> DramOut {
        let d = self.decide();
        let out = self.output_of(&d);
        let inp = inputs(&out);
        self.edge(&d, &inp);
        out
    }
}

impl crate::block::Clocked for DramModel {
    type In = DramIn;
    type Out = DramOut;

    /// The controller's outputs are registered: they do not depend on the cycle's inputs.
    fn outputs(&self, _input: &DramIn) -> DramOut {
        DramModel::outputs(self)
    }

    fn step(&mut self, input: &DramIn) {
        DramModel::step(self, input);
    }

    fn cycle(&mut self, input: &DramIn) -> DramOut {
        DramModel::step(self, input)
    }
}
