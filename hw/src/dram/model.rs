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

use std::fmt;

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

/// Inputs of one cycle, sampled at the rising edge that ends it. Fields wider than their ports
/// are truncated to the port width (`req_addr`, `idx_addr` 30 bits; `req_words`,
/// `req_period` 30 bits), as a port of that width would.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DramIn {
    /// Synchronous reset: the edge returns every register to its power-up value and the
    /// cycle's other inputs are ignored.
    pub reset: bool,
    /// A request is presented on the `req_*` inputs.
    pub req_valid: bool,
    /// Direction: `false` read, `true` write.
    pub req_write: bool,
    /// `false`: tile request; `true`: iterative indexed request.
    pub req_indexed: bool,
    /// Tile: start word A (30 bits).
    pub req_addr: u32,
    /// Tile: words per row W (30 bits).
    pub req_words: u32,
    /// Tile: words from one row's start to the next, P (30 bits).
    pub req_period: u32,
    /// Tile: rows C; indexed: number of indexes C.
    pub req_count: u16,
    /// Echoed on `done_tag`.
    pub req_tag: u8,
    /// An index is presented on `idx_addr`.
    pub idx_valid: bool,
    /// The index: a word address (30 bits).
    pub idx_addr: u32,
}

/// Outputs of one cycle (all functions of the registered state).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramOut {
    /// A request presented in this cycle is accepted.
    pub req_ready: bool,
    /// An index presented in this cycle is taken.
    pub idx_ready: bool,
    /// The command issued in this cycle.
    pub cmd: Command,
    /// The command's bank group (0 for REF/NOP).
    pub cmd_bg: u8,
    /// The command's bank within its group (0 for REF/NOP).
    pub cmd_bank: u8,
    /// ACT, RD/RDA/WR/WRA: the row; 0 otherwise.
    pub cmd_row: u32,
    /// RD/RDA/WR/WRA: the DDR4 column (burst in row · 8); 0 otherwise.
    pub cmd_col: u16,
    /// The data bus moves a beat pair in this cycle.
    pub dq_valid: bool,
    /// The data bus direction (1 = write); 0 when not valid.
    pub dq_write: bool,
    /// The burst's bank group; 0 when not valid.
    pub dq_bg: u8,
    /// The burst's bank within its group; 0 when not valid.
    pub dq_bank: u8,
    /// The burst's row; 0 when not valid.
    pub dq_row: u32,
    /// The burst's DDR4 column (burst in row · 8); 0 when not valid.
    pub dq_col: u16,
    /// The cycle of the reservation (0..=3); 0 when not valid.
    pub dq_beat: u8,
    /// The 4 words moved in this cycle: bits 4·beat..4·beat+3 of the burst's word mask.
    pub dq_mask: u8,
    /// A request completes in this cycle.
    pub done: bool,
    /// The completing request was bad.
    pub done_error: bool,
    /// The completing request's tag; 0 when `done = 0`.
    pub done_tag: u8,
    /// The completing request's LID, `t_d + 2 − t_a` (0 for a bad request or `done = 0`).
    pub done_lid: u32,
    /// Refreshes owed (0..=8).
    pub ref_owed: u8,
    /// Sticky: a ninth refresh fell due while 8 were owed.
    pub ref_overflow: bool,
}

impl Default for DramOut {
    fn default() -> Self {
        Self {
            req_ready: false,
            idx_ready: false,
            cmd: Command::Nop,
            cmd_bg: 0,
            cmd_bank: 0,
            cmd_row: 0,
            cmd_col: 0,
            dq_valid: false,
            dq_write: false,
            dq_bg: 0,
            dq_bank: 0,
            dq_row: 0,
            dq_col: 0,
            dq_beat: 0,
            dq_mask: 0,
            done: false,
            done_error: false,
            done_tag: 0,
            done_lid: 0,
            ref_owed: 0,
            ref_overflow: false,
        }
    }
}

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
    /// The tile segment processed this cycle (if a tile is running).
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
    /// Tile: merged mask of the previous segments of the current burst.
    acc: u16,
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
            acc: 0,
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

    // ---------------------------------------------------------------- address mapping --

    /// (bank, row, col) of burst `burst` (masked to 26 bits).
    fn map(&self, burst: u64) -> (u8, u32, u8) {
        let k = burst & BURST_MASK;
        // bank[0] = a[6] = k[0]; col = a[13:7] = k[7:1]; pair = a[13+p:14] = k[7+p:8];
        // row = a[31:14+p] = k[25:8+p].
        let pair = (k >> 8) & ((1 << (self.pair_bits)) - 1);
        let bank = ((pair << 1) | (k & 1)) as u8;
        let col = ((k >> 1) & 0x7f) as u8;
        let row = (k >> (8 + self.pair_bits)) as u32;
        (bank, row, col)
    }

    // ------------------------------------------------------------------------ decide --

    /// The cycle's decisions, from the state only.
    fn decide(&self) -> Decision {
        let t = self.cycle;
        let nb = self.nb;

        // The arbiter.
        let mut best: Option<(u32, u8, Step)> = None;
        let mut all_empty = true;
        for b in 0..nb {
            let f = &self.fifo[b];
            if f.len == 0 {
                continue;
            }
            all_empty = false;
            let e = f.get(0);
            let step = if e.close {
                Step::PreClose
            } else if e.pre_pre {
                Step::PrePre
            } else if e.act {
                Step::Act
            } else {
                Step::Cas
            };
            if !self.legal(b, step, t) {
                continue;
            }
            let tier: u32 = match step {
                Step::Cas => 3,
                Step::PrePre => 2,
                Step::Act => 1,
                Step::PreClose => 0,
            };
            let count = if step == Step::Act {
                self.act_count(b)
            } else {
                0
            };
            let dist = ((b + nb - self.cur_pair as usize) % nb) as u32;
            let key = (tier << 16) | (count << 8) | (255 - dist);
            if best.is_none_or(|(k, _, _)| key > k) {
                best = Some((key, b as u8, step));
            }
        }
        let issue = best.map(|(_, b, s)| (b, s));
        let all_closed = self.bank[..nb].iter().all(|bk| bk.open.is_none());
        let refresh = issue.is_none()
            && self.owed > 0
            && !self.active
            && all_empty
            && all_closed
            && t >= self.ref_ok;

        // The front-end and the generator.
        let mut seg = None;
        let mut emit = None;
        if self.active && !self.req.bad && !self.fe_done {
            if !self.req.indexed {
                let s = self.segment();
                if s.completing {
                    let succ = s.next.map(|(_, pos, _)| pos >> 4);
                    emit = Some(self.generate(s.burst, self.acc | s.mask, succ, succ.is_none()));
                }
                seg = Some(s);
            } else if let Some(w) = self.idx_reg {
                let last = self.emitted + 1 == self.req.count;
                emit = Some(self.generate(u64::from(w >> 4), 1 << (w & 15), None, last));
            }
        }
        let idx_ready = self.active
            && self.req.indexed
            && !self.req.bad
            && self.taken < self.req.count
            && (self.idx_reg.is_none() || emit.is_some_and(|e| e.accepted));

        let done = self.active
            && (self.req.bad || (self.fe_done && all_empty && all_closed && self.ref_ok <= t + 2));
        let req_ready = (!self.active || done) && self.owed == 0;

        Decision {
            issue,
            refresh,
            seg,
            emit,
            idx_ready,
            req_ready,
            done,
        }
    }

    /// Is `step` of bank `b` legal in cycle `t`?
    fn legal(&self, b: usize, step: Step, t: u64) -> bool {
        let bk = &self.bank[b];
        let g = self.part.bg(b);
        match step {
            Step::PreClose | Step::PrePre => t >= bk.pre_ok,
            Step::Act => {
                t >= bk.act_ok
                    && t >= self.bg_act_ok[g]
                    && t >= self.act_ok
                    && (self.faw_n < 4
                        || t >= self.faw[self.faw_next as usize] + u64::from(self.part.faw))
            }
            Step::Cas => t >= bk.cas_ok && t >= self.bg_cas_ok[g] && t >= self.cas_ok,
        }
    }

    /// Rule 5's count for an ACT at the head of bank `b`: 1 + the largest n such that entries
    /// 1..=n are compound with `pre_pre = act = 0` and entries 0..n have `ap = 0`.
    fn act_count(&self, b: usize) -> u32 {
        let f = &self.fifo[b];
        let mut n = 0;
        for i in 1..f.len as usize {
            let (prev, e) = (f.get(i - 1), f.get(i));
            if prev.ap || e.close || e.pre_pre || e.act {
                break;
            }
            n = i as u32;
        }
        1 + n
    }

    /// The tile front-end's current segment.
    fn segment(&self) -> Seg {
        let burst = self.pos >> 4;
        let lo = (self.pos & 15) as u32;
        let hi = (self.row_end - (burst << 4)).min(16) as u32;
        let mask = ((1u32 << hi) - (1u32 << lo)) as u16;
        let next_start = (burst + 1) << 4;
        let next = if next_start < self.row_end {
            Some((self.row, next_start, self.row_end))
        } else if self.row + 1 < self.req.count {
            let r = self.row + 1;
            let start = u64::from(self.req.addr) + u64::from(r) * u64::from(self.req.period);
            Some((r, start, start + u64::from(self.req.words)))
        } else {
            None
        };
        let completing = next.is_none_or(|(_, p, _)| (p >> 4) & BURST_MASK != burst & BURST_MASK);
        Seg {
            burst,
            mask,
            next,
            completing,
        }
    }

    /// The compound command for `burst` with word mask `mask`, its stand-alone PREs, and
    /// whether the generator accepts it. `succ` is a tile burst's successor (None for
    /// indexed requests); `last` marks the request's last burst.
    fn generate(&self, burst: u64, mask: u16, succ: Option<u64>, last: bool) -> Emit {
        let (b, row, col) = self.map(burst);
        let bi = b as usize;
        let hit = self.shadow_open[bi] && self.shadow_row[bi] == row;
        let mut closes = 0u16;
        let (pre_pre, ap) = if !self.req.indexed {
            // LINEAR: auto-precharge when the successor leaves the pair or the row.
            let ap = match succ {
                None => true,
                Some(s) => {
                    let (sb, srow, _) = self.map(s);
                    sb >> 1 != b >> 1 || srow != row
                }
            };
            if ap && self.shadow_open[bi ^ 1] {
                closes |= 1 << (bi ^ 1);
            }
            (false, ap)
        } else {
            // ALAP: precharge before a row miss; on the last burst close every other bank.
            let pre_pre = self.shadow_open[bi] && self.shadow_row[bi] != row;
            if last {
                for o in 0..self.nb {
                    if o != bi && self.shadow_open[o] {
                        closes |= 1 << o;
                    }
                }
            }
            (pre_pre, last)
        };
        let mut accepted = (self.fifo[bi].len as usize) < FIFO_DEPTH;
        for o in 0..self.nb {
            if closes & (1 << o) != 0 && self.fifo[o].len as usize >= FIFO_DEPTH {
                accepted = false;
            }
        }
        Emit {
            bank: b,
            entry: Entry {
                close: false,
                pre_pre,
                act: !hit,
                ap,
                write: self.req.write,
                row,
                col,
                mask,
            },
            closes,
            accepted,
        }
    }

    // ------------------------------------------------------------------------ outputs --

    /// The outputs for decision `d`.
    fn output_of(&self, d: &Decision) -> DramOut {
        let mut o = DramOut {
            req_ready: d.req_ready,
            idx_ready: d.idx_ready,
            ref_owed: self.owed,
            ref_overflow: self.overflow,
            ..DramOut::default()
        };
        let nbg = self.nbg as u8;
        if let Some((b, step)) = d.issue {
            o.cmd_bg = b % nbg;
            o.cmd_bank = b / nbg;
            let e = self.fifo[b as usize].get(0);
            match step {
                Step::PreClose | Step::PrePre => o.cmd = Command::Pre,
                Step::Act => {
                    o.cmd = Command::Act;
                    o.cmd_row = e.row;
                }
                Step::Cas => {
                    o.cmd = match (e.write, e.ap) {
                        (false, false) => Command::Rd,
                        (false, true) => Command::Rda,
                        (true, false) => Command::Wr,
                        (true, true) => Command::Wra,
                    };
                    o.cmd_row = e.row;
                    o.cmd_col = u16::from(e.col) * 8;
                }
            }
        } else if d.refresh {
            o.cmd = Command::Ref;
        }
        let t = self.cycle;
        let bl = u64::from(self.part.bl);
        for i in 0..self.dq_len as usize {
            let r = &self.dq[(self.dq_head as usize + i) % DQ_SLOTS];
            if r.start <= t && t < r.start + bl {
                let beat = (t - r.start) as u8;
                o.dq_valid = true;
                o.dq_write = r.write;
                o.dq_bg = r.bank % nbg;
                o.dq_bank = r.bank / nbg;
                o.dq_row = r.row;
                o.dq_col = u16::from(r.col) * 8;
                o.dq_beat = beat;
                o.dq_mask = ((r.mask >> (4 * beat)) & 0xf) as u8;
                break;
            }
        }
        if d.done {
            o.done = true;
            o.done_tag = self.req.tag;
            if self.req.bad {
                o.done_error = true;
            } else {
                o.done_lid = (t + 2 - self.req.t_a) as u32;
            }
        }
        o
    }

    // --------------------------------------------------------------------------- edge --

    /// The rising edge ending the current cycle.
    fn edge(&mut self, d: &Decision, inp: &DramIn) {
        let t = self.cycle;
        if inp.reset {
            *self = Self::power_up(self.part, self.refresh_phase, t + 1);
            return;
        }
        let p = self.part;

        // The arbiter's command.
        if let Some((b, step)) = d.issue {
            self.issue(b as usize, step, t);
        }
        if d.refresh {
            let rfc = t + u64::from(p.rfc);
            self.act_ok = self.act_ok.max(rfc);
            self.ref_ok = self.ref_ok.max(rfc);
        }

        // DQ: retire reservations that end with this cycle.
        let bl = u64::from(p.bl);
        while self.dq_len > 0 && self.dq[self.dq_head as usize].start + bl <= t + 1 {
            self.dq_head = ((self.dq_head as usize + 1) % DQ_SLOTS) as u8;
            self.dq_len -= 1;
        }

        // The front-end and the generator.
        if let Some(em) = d.emit {
            if em.accepted {
                let bi = em.bank as usize;
                self.fifo[bi].push(em.entry);
                for o in 0..self.nb {
                    if em.closes & (1 << o) != 0 {
                        self.fifo[o].push(Entry::CLOSE);
                        self.shadow_open[o] = false;
                    }
                }
                self.shadow_open[bi] = !em.entry.ap;
                self.shadow_row[bi] = em.entry.row;
            }
        }
        if let Some(s) = d.seg {
            let advance = if s.completing {
                d.emit.is_some_and(|e| e.accepted)
            } else {
                self.acc |= s.mask;
                true
            };
            if advance {
                if s.completing {
                    self.acc = 0;
                }
                match s.next {
                    Some((row, pos, end)) => {
                        self.row = row;
                        self.pos = pos;
                        self.row_end = end;
                    }
                    None => self.fe_done = true,
                }
            }
        }
        if self.req.indexed && self.active {
            let emitted_now = d.emit.is_some_and(|e| e.accepted);
            if emitted_now {
                self.emitted += 1;
                if self.emitted == self.req.count {
                    self.fe_done = true;
                }
            }
            if inp.idx_valid && d.idx_ready {
                self.idx_reg = Some(inp.idx_addr & WORD_MASK);
                self.taken += 1;
            } else if emitted_now {
                self.idx_reg = None;
            }
        }

        // Completion and acceptance.
        if d.done {
            self.active = false;
        }
        if inp.req_valid && d.req_ready {
            self.accept(inp, t);
        }

        // Refresh interval counter.
        let due = self.ref_cnt == p.refi - 1;
        self.ref_cnt = if due { 0 } else { self.ref_cnt + 1 };
        match (due, d.refresh) {
            (true, false) => {
                if self.owed == MAX_OWED {
                    self.overflow = true;
                } else {
                    self.owed += 1;
                }
            }
            (false, true) => self.owed -= 1,
            _ => {}
        }

        self.cycle = t + 1;
    }

    /// Apply the issue of `step` of bank `b` in cycle `t`.
    fn issue(&mut self, b: usize, step: Step, t: u64) {
        let p = self.part;
        let g = p.bg(b);
        let e = *self.fifo[b].get(0);
        match step {
            Step::Act => {
                let bk = &mut self.bank[b];
                debug_assert!(bk.open.is_none(), "ACT to an open bank");
                bk.act_ok = bk.act_ok.max(t + u64::from(p.rc));
                bk.cas_ok = bk.cas_ok.max(t + u64::from(p.rcd));
                bk.pre_ok = bk.pre_ok.max(t + u64::from(p.ras));
                bk.last_act = t;
                bk.open = Some(e.row);
                self.bg_act_ok[g] = self.bg_act_ok[g].max(t + u64::from(p.rrd_l));
                self.act_ok = self.act_ok.max(t + u64::from(p.rrd_s));
                self.ref_ok = self.ref_ok.max(t + u64::from(p.rc));
                self.faw[self.faw_next as usize] = t;
                self.faw_next = (self.faw_next + 1) % 4;
                self.faw_n = (self.faw_n + 1).min(4);
                self.fifo[b].head_mut().act = false;
            }
            Step::PrePre | Step::PreClose => {
                let bk = &mut self.bank[b];
                debug_assert!(bk.open.is_some(), "PRE to a closed bank");
                bk.act_ok = bk.act_ok.max(t + u64::from(p.rp));
                bk.open = None;
                self.ref_ok = self.ref_ok.max(t + u64::from(p.rp));
                if step == Step::PrePre {
                    self.fifo[b].head_mut().pre_pre = false;
                } else {
                    self.fifo[b].pop();
                }
            }
            Step::Cas => {
                debug_assert_eq!(self.bank[b].open, Some(e.row), "CAS to a closed row");
                self.bg_cas_ok[g] = self.bg_cas_ok[g].max(t + u64::from(p.ccd_l));
                self.cas_ok = self.cas_ok.max(t + u64::from(p.ccd_s));
                self.cur_pair = (b & !1) as u8;
                let recover = if e.write {
                    u64::from(p.write_to_pre())
                } else {
                    u64::from(p.rtp)
                };
                let bk = &mut self.bank[b];
                if e.ap {
                    let pre = (t + recover).max(bk.last_act + u64::from(p.ras));
                    let ready = pre + u64::from(p.rp);
                    bk.act_ok = bk.act_ok.max(ready);
                    bk.open = None;
                    self.ref_ok = self.ref_ok.max(ready);
                } else {
                    bk.pre_ok = bk.pre_ok.max(t + recover);
                }
                let start = if e.write {
                    t + u64::from(p.cwl) - 2
                } else {
                    t + u64::from(p.cl)
                };
                assert!((self.dq_len as usize) < DQ_SLOTS, "DQ reservation overflow");
                self.dq[(self.dq_head as usize + self.dq_len as usize) % DQ_SLOTS] = Reservation {
                    start,
                    write: e.write,
                    bank: b as u8,
                    row: e.row,
                    col: e.col,
                    mask: e.mask,
                };
                self.dq_len += 1;
                self.fifo[b].pop();
            }
        }
    }

    /// Accept the request on the inputs in cycle `t`.
    fn accept(&mut self, inp: &DramIn, t: u64) {
        let words = inp.req_words & LEN_MASK;
        let period = inp.req_period & LEN_MASK;
        let count = u32::from(inp.req_count);
        let addr = inp.req_addr & WORD_MASK;
        self.active = true;
        self.req = Req {
            write: inp.req_write,
            indexed: inp.req_indexed,
            addr,
            words,
            period,
            count,
            tag: inp.req_tag,
            bad: words == 0 || count == 0 || (period < words && count > 1),
            t_a: t,
        };
        self.fe_done = false;
        self.row = 0;
        self.pos = u64::from(addr);
        self.row_end = u64::from(addr) + u64::from(words);
        self.acc = 0;
        self.idx_reg = None;
        self.taken = 0;
        self.emitted = 0;
    }
}

// ------------------------------------------------------------------------------ drivers --

/// A request for the drivers ([`run_request`], [`run_requests`], [`request_lid`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Direction: `false` read, `true` write.
    pub write: bool,
    /// Iterative indexed (the indexes are in `indexes`) rather than a tile.
    pub indexed: bool,
    /// Tile: start word (30 bits).
    pub addr: u32,
    /// Tile: words per row (30 bits; must be ≥ 1 for indexed requests too).
    pub words: u32,
    /// Tile: words from one row's start to the next (30 bits; ≥ `words` when `count > 1`,
    /// for indexed requests too).
    pub period: u32,
    /// Tile: rows; indexed: the number of indexes the controller expects.
    pub count: u16,
    /// Echoed on completion.
    pub tag: u8,
    /// Indexed: the word addresses fed on the `idx_*` port (at most `count` are fed).
    pub indexes: Vec<u32>,
}

impl Request {
    /// A tile: `count` rows of `words` words, `period` words apart, from word `addr`.
    pub fn tile(write: bool, addr: u32, words: u32, period: u32, count: u16) -> Self {
        Self {
            write,
            indexed: false,
            addr,
            words,
            period,
            count,
            tag: 0,
            indexes: Vec::new(),
        }
    }

    /// `words` consecutive words from word `addr` (a one-row tile with period = words).
    pub fn contiguous(write: bool, addr: u32, words: u32) -> Self {
        Self::tile(write, addr, words, words, 1)
    }

    /// An iterative indexed request over `indexes` (word addresses); W = P = 1 so that the
    /// request is not bad (the contract's bad-request rule applies to every request).
    /// Panics if there are more than 65535 indexes.
    pub fn indexed(write: bool, indexes: Vec<u32>) -> Self {
        let count = u16::try_from(indexes.len()).expect("at most 65535 indexes");
        Self {
            write,
            indexed: true,
            addr: 0,
            words: 1,
            period: 1,
            count,
            tag: 0,
            indexes,
        }
    }

    /// The same request with tag `tag`.
    pub fn with_tag(mut self, tag: u8) -> Self {
        self.tag = tag;
        self
    }

    /// The `req_*` inputs presenting this request.
    fn inputs(&self) -> DramIn {
        DramIn {
            req_valid: true,
            req_write: self.write,
            req_indexed: self.indexed,
            req_addr: self.addr,
            req_words: self.words,
            req_period: self.period,
            req_count: self.count,
            req_tag: self.tag,
            ..DramIn::default()
        }
    }

    /// A generous bound on the cycles the request can take.
    fn cycle_bound(&self) -> u64 {
        let bursts = if self.indexed {
            u64::from(self.count)
        } else {
            u64::from(self.count) * (u64::from(self.words & LEN_MASK) / 16 + 2)
        };
        200_000 + 1_000 * bursts
    }
}

/// What one request did (cycle numbers count from the model's construction).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestRun {
    /// `done_lid` (0 for a bad request).
    pub lid: u32,
    /// The acceptance cycle t_a.
    pub accepted_at: u64,
    /// The `done` cycle t_d.
    pub done_at: u64,
    /// The request was bad (`done_error`).
    pub error: bool,
    /// The cycles from t_a to t_d (inclusive) with a command, and that cycle's outputs
    /// (empty when the driver was asked not to record).
    pub commands: Vec<(u64, DramOut)>,
    /// Cycles from t_a to t_d (inclusive) with `dq_valid`.
    pub dq_cycles: u32,
}

/// Why a driver gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Not every request was done after `cycles` cycles (a model bug or a livelock).
    Timeout {
        /// Cycles stepped.
        cycles: u64,
        /// Requests completed by then.
        completed: usize,
    },
    /// The request was bad (`done_error`), so it has no LID ([`request_lid`] only).
    BadRequest {
        /// The `done` cycle.
        done_at: u64,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Timeout { cycles, completed } => write!(
                f,
                "DRAM model: requests not done after {cycles} cycles ({completed} completed)"
            ),
            RunError::BadRequest { done_at } => {
                write!(f, "DRAM model: bad request (done_error in cycle {done_at})")
            }
        }
    }
}

impl std::error::Error for RunError {}

/// One completed request in [`drive`]: (t_a, t_d, the `done` cycle's outputs, DQ cycles).
type Completion = (u64, u64, DramOut, u32);

/// Run `reqs` back to back on `model`: request i is presented (req_valid held) from the
/// cycle request i − 1 was accepted (from the current cycle for the first), indexes are fed
/// whenever `idx_ready`, and the run stops in the cycle the last request is done. `on_cycle`
/// sees every cycle's outputs. Returns per request (t_a, t_d, done output, dq cycles).
fn drive(
    model: &mut DramModel,
    reqs: &[Request],
    limit: u64,
    mut on_cycle: impl FnMut(u64, &DramOut, Option<usize>),
) -> Result<Vec<Completion>, RunError> {
    let start = model.cycle();
    let mut result = Vec::with_capacity(reqs.len());
    let mut next = 0usize; // next request to present
    let mut cur: Option<usize> = None; // request in progress
    let mut accepted_at = 0u64;
    let mut fed = 0usize; // indexes fed for `cur`
    let mut dq = 0u32;
    while result.len() < reqs.len() {
        let t = model.cycle();
        if t - start >= limit {
            return Err(RunError::Timeout {
                cycles: t - start,
                completed: result.len(),
            });
        }
        let mut presented = false;
        let mut idx_fed = false;
        let out = model.step_with(|out| {
            let mut inp = match reqs.get(next) {
                Some(r) => {
                    presented = true;
                    r.inputs()
                }
                None => DramIn::default(),
            };
            if let Some(c) = cur {
                let r = &reqs[c];
                if r.indexed && fed < r.indexes.len() {
                    inp.idx_valid = true;
                    inp.idx_addr = r.indexes[fed];
                    idx_fed = out.idx_ready;
                }
            }
            inp
        });
        on_cycle(t, &out, cur);
        if out.dq_valid {
            dq += 1;
        }
        if idx_fed {
            fed += 1;
        }
        if out.done {
            result.push((accepted_at, t, out, dq));
            cur = None;
        }
        if presented && out.req_ready {
            cur = Some(next);
            next += 1;
            accepted_at = t;
            fed = 0;
            dq = 0;
        }
    }
    Ok(result)
}

/// Run `reqs` back to back on a fresh model (`part`, `refresh_phase`): each request is
/// presented from the cycle its predecessor was accepted (the first from cycle 0), indexes
/// are fed as soon as `idx_ready`, and the run ends with the last request's `done`. Each
/// [`RequestRun`] records the commands of its cycles t_a..=t_d (a REF between two requests
/// belongs to none).
pub fn run_requests(
    part: Part,
    refresh_phase: u16,
    reqs: &[Request],
) -> Result<Vec<RequestRun>, RunError> {
    let mut model = DramModel::new(part, refresh_phase);
    let limit = reqs.iter().map(Request::cycle_bound).sum();
    let mut cmds: Vec<Vec<(u64, DramOut)>> = vec![Vec::new(); reqs.len()];
    let done = drive(&mut model, reqs, limit, |t, out, cur| {
        if let Some(c) = cur {
            if out.cmd != Command::Nop {
                cmds[c].push((t, *out));
            }
        }
    })?;
    Ok(done
        .into_iter()
        .zip(cmds)
        .map(|((a, d, out, dq), commands)| RequestRun {
            lid: out.done_lid,
            accepted_at: a,
            done_at: d,
            error: out.done_error,
            commands,
            dq_cycles: dq,
        })
        .collect())
}

/// Run one request on a fresh model (`part`, `refresh_phase`), presented from cycle 0 (so
/// accepted in cycle 0), until its `done`. A bad request gives `Ok` with `error` set.
pub fn run_request(part: Part, refresh_phase: u16, req: &Request) -> Result<RequestRun, RunError> {
    let mut runs = run_requests(part, refresh_phase, std::slice::from_ref(req))?;
    Ok(runs.pop().expect("one run per request"))
}

/// The LID of one request on a fresh model, without recording anything (for sweeps).
pub fn request_lid(part: Part, refresh_phase: u16, req: &Request) -> Result<u32, RunError> {
    let mut model = DramModel::new(part, refresh_phase);
    let done = drive(
        &mut model,
        std::slice::from_ref(req),
        req.cycle_bound(),
        |_, _, _| {},
    )?;
    let (_, t_d, out, _) = done[0];
    if out.done_error {
        Err(RunError::BadRequest { done_at: t_d })
    } else {
        Ok(out.done_lid)
    }
}

crate::ports!(DramIn {
    reset,
    req_valid,
    req_write,
    req_indexed,
    req_addr,
    req_words,
    req_period,
    req_count,
    req_tag,
    idx_valid,
    idx_addr
});
crate::ports!(DramOut {
    req_ready,
    idx_ready,
    cmd,
    cmd_bg,
    cmd_bank,
    cmd_row,
    cmd_col,
    dq_valid,
    dq_write,
    dq_bg,
    dq_bank,
    dq_row,
    dq_col,
    dq_beat,
    dq_mask,
    done,
    done_error,
    done_tag,
    done_lid,
    ref_owed,
    ref_overflow
});

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

#[cfg(test)]
mod tests {
    use super::*;
    use proptest::prelude::*;

    const X16: Part = Part::DDR4_3200AA_X16;

    /// Every cycle's outputs of a back-to-back run of `reqs`, and the per-request results.
    fn trace(part: Part, phase: u16, reqs: &[Request]) -> (Vec<DramOut>, Vec<Completion>) {
        let mut model = DramModel::new(part, phase);
        let mut log = Vec::new();
        let done = drive(&mut model, reqs, 1_000_000, |t, out, _| {
            assert_eq!(t as usize, log.len());
            log.push(*out);
        })
        .expect("run finishes");
        (log, done)
    }

    /// Bank index (0..nB) of a command or DQ output.
    fn bank_of(part: &Part, bg: u8, bank: u8) -> usize {
        bank as usize * part.bank_groups as usize + bg as usize
    }

    /// (cycle, command, bank, row, col) of every command in `log`.
    fn commands(part: &Part, log: &[DramOut]) -> Vec<(u64, Command, usize, u32, u16)> {
        log.iter()
            .enumerate()
            .filter(|(_, o)| o.cmd != Command::Nop)
            .map(|(t, o)| {
                (
                    t as u64,
                    o.cmd,
                    bank_of(part, o.cmd_bg, o.cmd_bank),
                    o.cmd_row,
                    o.cmd_col,
                )
            })
            .collect()
    }

    /// The bursts moved on DQ in `log[from..=to]`: (bank, row, DDR4 column, mask, write),
    /// sorted. Panics if a reservation's beats are not 0, 1, 2, 3 in consecutive cycles.
    fn dq_bursts(
        part: &Part,
        log: &[DramOut],
        from: u64,
        to: u64,
    ) -> Vec<(usize, u32, u16, u16, bool)> {
        let mut v = Vec::new();
        let mut cur: Option<(usize, u32, u16, u16, bool)> = None;
        let mut expect_beat = 0u8;
        for o in &log[from as usize..=to as usize] {
            if !o.dq_valid {
                assert_eq!(expect_beat, 0, "a DQ reservation was cut short");
                continue;
            }
            assert_eq!(o.dq_beat, expect_beat, "DQ beats out of order");
            let key = (bank_of(part, o.dq_bg, o.dq_bank), o.dq_row, o.dq_col);
            if o.dq_beat == 0 {
                cur = Some((key.0, key.1, key.2, 0, o.dq_write));
            }
            let c = cur.as_mut().expect("beat 0 first");
            assert_eq!((c.0, c.1, c.2, c.4), (key.0, key.1, key.2, o.dq_write));
            c.3 |= u16::from(o.dq_mask) << (4 * o.dq_beat);
            expect_beat = (o.dq_beat + 1) % 4;
            if expect_beat == 0 {
                v.push(cur.take().unwrap());
            }
        }
        v.sort();
        v
    }

    /// The bursts a tile must move, from the address mapping of the contract (written out
    /// again here): (bank, row, DDR4 column, mask, write), sorted.
    fn expected_bursts(part: &Part, req: &Request) -> Vec<(usize, u32, u16, u16, bool)> {
        let p = (part.banks as u32 / 2).trailing_zeros();
        let mut m: std::collections::BTreeMap<u32, u16> = Default::default();
        for r in 0..u32::from(req.count) {
            for i in 0..req.words {
                let word = (req.addr + r * req.period + i) & WORD_MASK;
                *m.entry(word >> 4).or_default() |= 1 << (word & 15);
            }
        }
        let mut v: Vec<_> = m
            .into_iter()
            .map(|(k, mask)| {
                let a = k << 6; // byte address of the burst
                let bank = (((a >> 14) & ((1 << p) - 1)) << 1 | ((a >> 6) & 1)) as usize;
                let col = ((a >> 7) & 0x7f) as u16 * 8;
                let row = a >> (14 + p);
                (bank, row, col, mask, req.write)
            })
            .collect();
        v.sort();
        v
    }

    /// An independent DDR4 checker: the contract's timing table (plus WTR and RD→WR, which
    /// the completion rule must keep apart between requests), FAW, and bank states. Returns
    /// the first violation.
    fn check_timing(part: &Part, cmds: &[(u64, Command, usize, u32, u16)]) -> Result<(), String> {
        use Command::*;
        let p = part;
        let u = |x: u16| u64::from(x);
        let bg = |b: usize| b % p.bank_groups as usize;
        let is_cas = |c: Command| matches!(c, Rd | Rda | Wr | Wra);
        let is_rd = |c: Command| matches!(c, Rd | Rda);
        let is_wr = |c: Command| matches!(c, Wr | Wra);
        // The ACT that opened the row each command uses (for RDA/WRA), by command index.
        let mut open: [Option<(u32, u64)>; 16] = [None; 16];
        let mut act_of = vec![0u64; cmds.len()];
        let mut acts = Vec::new();
        for (j, &(t, c, b, row, _)) in cmds.iter().enumerate() {
            match c {
                Act => {
                    if open[b].is_some() {
                        return Err(format!("{t}: ACT to open bank {b}"));
                    }
                    open[b] = Some((row, t));
                    acts.push(t);
                    if acts.len() >= 5 {
                        let w = acts[acts.len() - 5];
                        if t < w + u(p.faw) {
                            return Err(format!("{t}: fifth ACT within FAW of {w}"));
                        }
                    }
                }
                Rd | Rda | Wr | Wra => match open[b] {
                    Some((r, ta)) if r == row => {
                        act_of[j] = ta;
                        if matches!(c, Rda | Wra) {
                            open[b] = None;
                        }
                    }
                    _ => {
                        return Err(format!(
                            "{t}: {c:?} to bank {b} row {row}, open {:?}",
                            open[b]
                        ))
                    }
                },
                Pre => {
                    if open[b].is_none() {
                        return Err(format!("{t}: PRE to closed bank {b}"));
                    }
                    open[b] = None;
                }
                Ref => {
                    if open.iter().any(Option::is_some) {
                        return Err(format!("{t}: REF with a bank open"));
                    }
                }
                Nop => unreachable!(),
            }
            // Pairwise rules against every earlier command within reach.
            for i in (0..j).rev() {
                let (tx, x, bx, _, _) = cmds[i];
                if tx + 2_000 < t {
                    break;
                }
                let same_bank = bx == b;
                let same_bg = bg(bx) == bg(b);
                let mut need: u64 = 0;
                let mut why = "";
                let mut req = |d: u64, w: &'static str| {
                    if d > need {
                        need = d;
                        why = w;
                    }
                };
                match x {
                    Act => {
                        if c == Act {
                            req(u(p.rrd_s), "RRD_S");
                            if same_bg {
                                req(u(p.rrd_l), "RRD_L");
                            }
                            if same_bank {
                                req(u(p.rc), "RC");
                            }
                        }
                        if is_cas(c) && same_bank {
                            req(u(p.rcd), "RCD");
                        }
                        if c == Pre && same_bank {
                            req(u(p.ras), "RAS");
                        }
                        if c == Ref {
                            req(u(p.rc), "ACT-REF RC");
                        }
                    }
                    Rd | Rda | Wr | Wra => {
                        if is_cas(c) {
                            req(u(if same_bg { p.ccd_l } else { p.ccd_s }), "CCD");
                        }
                        if is_rd(x) && is_wr(c) {
                            req(u(p.cl + p.bl + 2 - p.cwl), "RD-WR");
                        }
                        if is_wr(x) && is_rd(c) {
                            let wtr = if same_bg { p.wtr_l } else { p.wtr_s };
                            req(u(p.cwl + p.bl + wtr), "WTR");
                        }
                        let recover = if is_wr(x) {
                            u(p.cwl + p.bl + p.wr)
                        } else {
                            u(p.rtp)
                        };
                        if matches!(x, Rd | Wr) && c == Pre && same_bank {
                            req(recover, "RTP/WR");
                        }
                        if matches!(x, Rda | Wra) && ((c == Act && same_bank) || c == Ref) {
                            let pre = (tx + recover).max(act_of[i] + u(p.ras));
                            req(pre + u(p.rp) - tx, "auto-precharge + RP");
                        }
                    }
                    Pre => {
                        if (c == Act && same_bank) || c == Ref {
                            req(u(p.rp), "RP");
                        }
                    }
                    Ref => {
                        if matches!(c, Act | Ref) {
                            req(u(p.rfc), "RFC");
                        }
                    }
                    Nop => unreachable!(),
                }
                if t < tx + need {
                    return Err(format!(
                        "{t}: {c:?} bank {b} only {} after {x:?} bank {bx} at {tx} ({why} = {need})",
                        t - tx
                    ));
                }
            }
        }
        Ok(())
    }

    /// Every bank closed after the commands up to cycle `t` (by the checker's own count).
    fn all_closed_at(cmds: &[(u64, Command, usize, u32, u16)], t: u64) -> bool {
        let mut open = [false; 16];
        for &(tc, c, b, _, _) in cmds.iter().take_while(|c| c.0 <= t) {
            let _ = tc;
            match c {
                Command::Act => open[b] = true,
                Command::Pre | Command::Rda | Command::Wra => open[b] = false,
                _ => {}
            }
        }
        !open.iter().any(|&o| o)
    }

    // ------------------------------------------------------------------ Eq. 15 / 16 --

    /// Eq. 15's AC(b) (2 bank groups) or the reference's 4BG form.
    fn ac(p: &Part, b: u32) -> u32 {
        let (rrd, rcd, l, s) = (
            u32::from(p.rrd_s),
            u32::from(p.rcd),
            u32::from(p.ccd_l),
            u32::from(p.ccd_s),
        );
        if p.bank_groups > 2 {
            return rcd + (b - 1) * s;
        }
        match b {
            1..=4 => (b - 1) * rrd + rcd,
            5 | 6 => 2 * rrd + rcd + (b - 4) * l + s,
            7 | 8 => 3 * rrd + rcd + l + s,
            _ if b % 2 == 1 => rrd + rcd + 2 * l + (b - 4) * s,
            _ => 2 * rrd + rcd + l + (b - 5) * s,
        }
    }

    /// Eq. 15: tID_R(b), tID_W(b).
    fn tid(p: &Part, b: u32, write: bool) -> u32 {
        let u = u32::from;
        if write {
            ac(p, b) + u(p.cwl) + u(p.bl) + u(p.wr) + u(p.rp)
        } else {
            (ac(p, b) + u(p.rtp) + u(p.rp)).max((b - 1).min(3) * u(p.rrd_s) + u(p.ras) + u(p.rp))
        }
    }

    #[test]
    fn eq15_table_values() {
        // Eq. 15 evaluated by hand for DDR4-3200AA, to make sure the helper is Eq. 15 as printed.
        let want = [
            (1, 74, 88),
            (2, 83, 97),
            (4, 101, 115),
            (8, 101, 127),
            (16, 126, 158),
        ];
        for (b, r, w) in want {
            assert_eq!((tid(&X16, b, false), tid(&X16, b, true)), (r, w), "b = {b}");
        }
        assert_eq!(tid(&X16, 64, false), 318);
        assert_eq!(tid(&X16, 65, true), 357);
        assert_eq!(tid(&X16, 256, true), 1118);
        assert_eq!(tid(&Part::DDR4_1866M_X16, 64, false), 284);
        assert_eq!(tid(&Part::DDR4_1866M_X16, 64, true), 305);
    }

    // ------------------------------------------------------------------------- tests --

    #[test]
    fn fig3_tile_two_bursts() {
        // Fig. 3: start word 2 (byte 0x8), 5 words, period 7, 3 rows: rows cover words
        // 2..=6, 9..=13, 16..=20. Burst 0 (words 0..16): bits 2–6 = 0x007C and bits 9–13 =
        // 0x3E00 → 0x3E7C; burst 1 (words 16..32): bits 0–4 → 0x001F.
        let req = Request::tile(false, 2, 5, 7, 3);
        let (log, done) = trace(X16, 0, std::slice::from_ref(&req));
        let (t_a, t_d, out, dq) = done[0];
        let bursts = dq_bursts(&X16, &log, t_a, t_d);
        assert_eq!(
            bursts,
            vec![(0, 0, 0, 0x3E7C, false), (1, 0, 0, 0x001F, false)],
            "two bursts, bank 0 then bank 1 (a[6]), column 0"
        );
        assert_eq!(bursts, expected_bursts(&X16, &req));
        assert_eq!(dq, 8);
        // Segments: row 0 in cycle 1 (burst 0, merged), row 1 in cycle 2 (next segment in
        // burst 1: emits burst 0, successor burst 1 = same pair, same row → RD, ap = 0), row 2
        // in cycle 3 (last: emits burst 1 with ap = 1; the partner bank 0 is open in the
        // shadow table → a stand-alone PRE for bank 0).
        // ACT b0 in 3; ACT b1 (other BG) at 3 + RRD_S = 12; RD b0 at 3 + RCD = 25;
        // RDA b1 at 12 + RCD = 34; PRE b0 at max(3 + RAS, 25 + RTP) = 55.
        // REF legal: max(55 + RP = 77, max(34 + RTP, 12 + RAS) + RP = 86, 12 + RC = 86) = 86
        // → done in 84, LID 86.
        let c = commands(&X16, &log);
        assert_eq!(
            c,
            vec![
                (3, Command::Act, 0, 0, 0),
                (12, Command::Act, 1, 0, 0),
                (25, Command::Rd, 0, 0, 0),
                (34, Command::Rda, 1, 0, 0),
                (55, Command::Pre, 0, 0, 0),
            ]
        );
        assert_eq!((t_a, t_d, out.done_lid), (0, 84, 86));
        check_timing(&X16, &c).unwrap();
    }

    #[test]
    fn one_burst_read() {
        // Accepted in 0, segment processed and pushed in 1, head visible in 2: ACT in 2,
        // RDA in 2 + RCD = 24. REF legal at max(24 + RTP, 2 + RAS) + RP = max(36, 54) + 22 =
        // 76 (and ACT→REF: 2 + RC = 76) → done in 74, LID = 74 + 2 − 0 = 76.
        // Eq. 15 (b = 1): max(AC(1) + RTP + RP, 0·RRD_S + RAS + RP) = max(56, 74) = 74, from
        // the first command in 2: 2 + 74 = 76.
        let run = run_request(X16, 0, &Request::contiguous(false, 0, 16)).unwrap();
        let cmds: Vec<_> = run
            .commands
            .iter()
            .map(|(t, o)| (*t, o.cmd, o.cmd_bg, o.cmd_bank, o.cmd_row, o.cmd_col))
            .collect();
        assert_eq!(
            cmds,
            vec![
                (2, Command::Act, 0, 0, 0, 0),
                (24, Command::Rda, 0, 0, 0, 0)
            ]
        );
        assert_eq!((run.accepted_at, run.done_at, run.lid), (0, 74, 76));
        assert_eq!(run.lid, 2 + tid(&X16, 1, false));
        assert_eq!(run.dq_cycles, 4);
        assert!(!run.error);
        // DQ: RDA in 24 → beats in 24 + CL = 46..=49, all 16 words.
        let (log, _) = trace(X16, 0, &[Request::contiguous(false, 0, 16)]);
        for (t, o) in log.iter().enumerate() {
            let beat = (t as i64) - 46;
            if (0..4).contains(&beat) {
                assert!(o.dq_valid && !o.dq_write && o.dq_mask == 0xf && o.dq_beat == beat as u8);
            } else {
                assert!(!o.dq_valid && o.dq_mask == 0 && o.dq_beat == 0, "cycle {t}");
            }
        }
        assert!(log[74].done && log[74].done_tag == 0 && log[74].done_lid == 76);
        assert!(log.iter().filter(|o| o.done).count() == 1);
    }

    #[test]
    fn aligned_4k_read() {
        // 1024 words at word 0: 64 bursts, alternating banks 0 and 1 (pair 0, row 0).
        let run = run_request(X16, 0, &Request::contiguous(false, 0, 1024)).unwrap();
        println!("4 KiB aligned read on {}: LID {}", X16.name, run.lid);
        for (t, o) in run.commands.iter().take(12) {
            println!(
                "  {t:4} {:4} bg {} bank {} row {} col {}",
                o.cmd.name(),
                o.cmd_bg,
                o.cmd_bank,
                o.cmd_row,
                o.cmd_col
            );
        }
        // Eq. 15: tID_R(64) = 318 from the first command (cycle 2 here).
        assert_eq!(tid(&X16, 64, false), 318);
        assert!(run.lid <= 318 + 2, "LID {}", run.lid);
        let cas: Vec<_> = run
            .commands
            .iter()
            .filter(|(_, o)| matches!(o.cmd, Command::Rd | Command::Rda))
            .collect();
        assert_eq!(cas.len(), 64);
        // Only the last CAS (burst 63 → bank 1) auto-precharges; bank 0 closes with a PRE.
        assert_eq!(cas.last().unwrap().1.cmd, Command::Rda);
        assert_eq!(cas.last().unwrap().1.cmd_bg, 1);
        let pres: Vec<_> = run
            .commands
            .iter()
            .filter(|(_, o)| o.cmd == Command::Pre)
            .collect();
        assert_eq!(pres.len(), 1);
        assert_eq!((pres[0].1.cmd_bg, pres[0].1.cmd_bank), (0, 0));
        assert_eq!(run.dq_cycles, 256);
    }

    #[test]
    fn refresh_without_request() {
        let p = X16;
        let mut m = DramModel::new(p, p.refi - 5);
        // The counter holds tREFI − 5 in cycle 0, tREFI − 1 in cycle 4: owed = 1 from cycle 5,
        // where REF is legal (power-up: all bounds met) → REF in 5, owed back to 0 in 6.
        let mut owed = Vec::new();
        for t in 0..40u64 {
            let o = m.step(&DramIn::default());
            owed.push(o.ref_owed);
            if t == 5 {
                assert_eq!(o.cmd, Command::Ref);
                assert!(!o.req_ready, "no acceptance while owed > 0");
            } else {
                assert_eq!(o.cmd, Command::Nop, "cycle {t}");
            }
        }
        assert_eq!(&owed[..8], &[0, 0, 0, 0, 0, 1, 0, 0]);
        // Next due tREFI cycles later.
        let mut m = DramModel::new(p, p.refi - 5);
        let mut refs = Vec::new();
        for t in 0..(2 * u64::from(p.refi) + 10) {
            if m.step(&DramIn::default()).cmd == Command::Ref {
                refs.push(t);
            }
        }
        assert_eq!(
            refs,
            vec![5, 5 + u64::from(p.refi), 5 + 2 * u64::from(p.refi)]
        );
    }

    #[test]
    fn refresh_waits_for_done_and_blocks_acceptance() {
        let p = X16;
        // The 4 KiB read runs 0..=t_d (t_d ≈ 316); refresh falls due at the edge of cycle
        // 99 (counter tREFI − 100 in cycle 0), so owed = 1 from 100 while the request runs.
        let first = Request::contiguous(false, 0, 1024);
        let second = Request::contiguous(true, 4096, 16).with_tag(2);
        let (log, done) = trace(p, p.refi - 100, &[first, second]);
        let (_, t_d, _, _) = done[0];
        assert_eq!(log[99].ref_owed, 0);
        assert!((100..=t_d as usize).all(|t| log[t].ref_owed == 1));
        // Nothing refreshes while the request is in progress; the REF comes in t_d + 2 (REF
        // legal from t_d + 2 by the done rule, nothing in progress from t_d + 1).
        let refs: Vec<_> = (0..log.len())
            .filter(|&t| log[t].cmd == Command::Ref)
            .collect();
        assert_eq!(refs, vec![t_d as usize + 2]);
        // req_ready = 0 in t_d, t_d + 1, t_d + 2 (owed = 1); owed = 0 from t_d + 3, where the
        // second request (presented since cycle 0) is accepted.
        for t in t_d..=t_d + 2 {
            assert!(!log[t as usize].req_ready, "cycle {t}");
        }
        assert_eq!(log[t_d as usize + 3].ref_owed, 0);
        let (t_a2, _, out2, _) = done[1];
        assert_eq!(t_a2, t_d + 3);
        assert_eq!(out2.done_tag, 2);
        // Its ACT waits tRFC after the REF.
        let c = commands(&p, &log);
        let act = c.iter().find(|x| x.0 > t_d && x.1 == Command::Act).unwrap();
        assert_eq!(act.0, t_d + 2 + u64::from(p.rfc));
        check_timing(&p, &c).unwrap();
    }

    #[test]
    fn one_burst_write() {
        // WRA in 24 (as the read): DQ from 24 + CWL − 2 = 38 to 41. REF legal at
        // max(24 + CWL + BL + WR, 2 + RAS) + RP = max(68, 54) + 22 = 90 → LID 90 = Eq. 15's
        // tID_W(1) = 88, + 2.
        let (log, done) = trace(X16, 0, &[Request::contiguous(true, 0, 16)]);
        let c = commands(&X16, &log);
        assert_eq!(
            c,
            vec![(2, Command::Act, 0, 0, 0), (24, Command::Wra, 0, 0, 0)]
        );
        assert_eq!((done[0].1, done[0].2.done_lid), (88, 90));
        let dq: Vec<usize> = (0..log.len()).filter(|&t| log[t].dq_valid).collect();
        assert_eq!(dq, vec![38, 39, 40, 41]);
        assert!(dq.iter().all(|&t| log[t].dq_write && log[t].dq_mask == 0xf));
    }

    #[test]
    fn refresh_overflow() {
        let p = X16;
        // Due at the edges of cycles 0, tREFI, 2·tREFI, ...: a read of 30000 bursts (≥ 4
        // cycles each, so longer than 8·tREFI = 99840 cycles) sees more than eight refreshes
        // fall due: owed saturates at 8 and the ninth (edge of 8·tREFI) sets ref_overflow.
        let first = Request::contiguous(false, 0, 16 * 30_000);
        let second = Request::contiguous(false, 0, 16).with_tag(9);
        let (log, done) = trace(p, p.refi - 1, &[first, second]);
        let (_, t_d, _, _) = done[0];
        assert!(t_d > 8 * u64::from(p.refi));
        let first_overflow = log.iter().position(|o| o.ref_overflow).unwrap() as u64;
        assert_eq!(first_overflow, 8 * u64::from(p.refi) + 1);
        assert_eq!(log[first_overflow as usize - 1].ref_owed, 8);
        assert!(
            log[first_overflow as usize..]
                .iter()
                .all(|o| o.ref_overflow),
            "sticky"
        );
        assert!(log.iter().all(|o| o.ref_owed <= 8));
        // After done (t_d = 121228, after the dues at 0..=9·tREFI): eight REFs tRFC apart
        // from t_d + 2; the due at 10·tREFI = 124800 falls among them, so a ninth follows;
        // the second request is accepted when owed is back to 0, after the last REF.
        assert!(
            t_d < 10 * u64::from(p.refi) && t_d + 2 + 7 * u64::from(p.rfc) > 10 * u64::from(p.refi)
        );
        let refs: Vec<u64> = (0..log.len() as u64)
            .filter(|&t| log[t as usize].cmd == Command::Ref)
            .collect();
        let want: Vec<u64> = (0..9).map(|i| t_d + 2 + i * u64::from(p.rfc)).collect();
        assert_eq!(refs, want);
        assert_eq!(done[1].0, want[8] + 1);
        check_timing(&p, &commands(&p, &log)).unwrap();
    }

    #[test]
    fn bad_requests() {
        for (req, why) in [
            (Request::tile(false, 0, 0, 16, 1), "W = 0"),
            (Request::tile(true, 0, 16, 16, 0), "C = 0"),
            (Request::tile(false, 0, 16, 15, 2), "P < W with C > 1"),
            (
                Request {
                    period: 0,
                    ..Request::indexed(false, vec![1, 2])
                },
                "indexed, P < W with C > 1",
            ),
        ] {
            let mut m = DramModel::new(X16, 0);
            let o0 = m.step(&DramIn {
                req_tag: 0x77,
                ..req.inputs()
            });
            assert!(o0.req_ready && !o0.done, "{why}");
            // Completes in t_a + 1 = 1 with error, LID 0, tag echoed, ready again.
            let o1 = m.step(&DramIn::default());
            assert!(o1.done && o1.done_error, "{why}");
            assert_eq!((o1.done_lid, o1.done_tag), (0, 0x77), "{why}");
            assert!(o1.req_ready, "{why}");
            for _ in 0..300 {
                let o = m.step(&DramIn::default());
                assert_eq!(o.cmd, Command::Nop, "{why}");
                assert!(!o.done && !o.dq_valid && !o.idx_ready, "{why}");
            }
            assert!(!m.busy());
        }
        // Not bad: P < W with C = 1.
        let run = run_request(X16, 0, &Request::tile(false, 0, 16, 1, 1)).unwrap();
        assert_eq!((run.error, run.lid), (false, 76));
        // A bad request, then a good one accepted in t_a + 1 = 1 (its ACT in 3).
        let runs = run_requests(
            X16,
            0,
            &[
                Request::tile(false, 0, 0, 0, 1),
                Request::contiguous(false, 0, 16),
            ],
        )
        .unwrap();
        assert!(runs[0].error && runs[0].commands.is_empty());
        assert_eq!((runs[0].accepted_at, runs[0].done_at), (0, 1));
        assert_eq!(runs[1].accepted_at, 1);
        assert_eq!(runs[1].commands[0].0, 3);
        assert_eq!(runs[1].lid, 76);
        assert_eq!(
            request_lid(X16, 0, &Request::tile(false, 0, 0, 0, 1)),
            Err(RunError::BadRequest { done_at: 1 })
        );
    }

    /// The word address of (bank, row), column 0, on an 8-bank part.
    fn word_at(bank: u32, row: u32) -> u32 {
        // k = row·2^10 | pair·2^8 | bank[0]; word = 16·k.
        ((row << 10) | ((bank >> 1) << 8) | (bank & 1)) << 4
    }

    #[test]
    fn indexed_row_misses_one_bank() {
        // 4 indexes in rows 0..4 of bank 0. Index i is taken in 1 + i (idx_ready: register
        // empty, or emitted this cycle), emitted in 2 + i; entry 0 {ACT, RD}, entries 1..3
        // {PRE_PRE, ACT, RD} (shadow: another row open), entry 3 with ap (last).
        // ACT 3; RD 25; PRE max(3 + RAS, 25 + RTP) = 55; ACT max(55 + RP, 3 + RC) = 77; RD 99;
        // PRE max(77 + 52, 99 + 12) = 129; ACT 151; RD 173; PRE 203; ACT 225; RDA 247.
        // REF legal at max(247 + RTP, 225 + RAS) + RP = 299 (= 225 + RC) → done 297, LID 299.
        // (Eq. 16, rows > nB form: 4·(RAS + RP) = 296 from the first command in 3.)
        let idx: Vec<u32> = (0..4).map(|r| word_at(0, r) + 3 * r).collect();
        let (log, done) = trace(X16, 0, &[Request::indexed(false, idx)]);
        assert!(log[1..=4].iter().all(|o| o.idx_ready));
        assert!(!log[0].idx_ready && !log[5].idx_ready);
        let c: Vec<_> = commands(&X16, &log)
            .into_iter()
            .map(|(t, c, b, r, _)| (t, c, b, r))
            .collect();
        use Command::*;
        assert_eq!(
            c,
            vec![
                (3, Act, 0, 0),
                (25, Rd, 0, 0),
                (55, Pre, 0, 0),
                (77, Act, 0, 1),
                (99, Rd, 0, 1),
                (129, Pre, 0, 0),
                (151, Act, 0, 2),
                (173, Rd, 0, 2),
                (203, Pre, 0, 0),
                (225, Act, 0, 3),
                (247, Rda, 0, 3),
            ]
        );
        let (t_a, t_d, out, _) = done[0];
        assert_eq!((t_a, t_d, out.done_lid), (0, 297, 299));
        // One word per burst: word 3r of each.
        let b = dq_bursts(&X16, &log, t_a, t_d);
        let masks: Vec<u16> = b.iter().map(|x| x.3).collect();
        assert_eq!(masks, vec![1, 1 << 3, 1 << 6, 1 << 9]);
    }

    #[test]
    fn indexed_closes_every_other_bank() {
        // Bank 0 rows 0, 1, 2 interleaved with bank 2 row 5 and bank 3 row 7: at the last
        // burst (bank 0 row 2) banks 2 and 3 are open in the shadow table → stand-alone PREs
        // into their FIFOs; bank 0's row misses carry pre_pre.
        let idx = vec![
            word_at(0, 0),
            word_at(2, 5),
            word_at(0, 1),
            word_at(3, 7),
            word_at(0, 2),
        ];
        let (log, done) = trace(X16, 0, &[Request::indexed(true, idx)]);
        let (_, t_d, out, dq) = done[0];
        let c = commands(&X16, &log);
        check_timing(&X16, &c).unwrap();
        use Command::*;
        let count = |cmd: Command, b: usize| c.iter().filter(|x| x.1 == cmd && x.2 == b).count();
        assert_eq!((count(Act, 0), count(Act, 2), count(Act, 3)), (3, 1, 1));
        assert_eq!((count(Pre, 0), count(Pre, 2), count(Pre, 3)), (2, 1, 1));
        assert_eq!((count(Wr, 0), count(Wra, 0)), (2, 1));
        assert_eq!((count(Wr, 2), count(Wr, 3)), (1, 1));
        // Every bank-0 PRE directly precedes (among bank-0 commands) a row-miss ACT.
        let b0: Vec<_> = c.iter().filter(|x| x.2 == 0).map(|x| x.1).collect();
        assert_eq!(b0, vec![Act, Wr, Pre, Act, Wr, Pre, Act, Wra]);
        // The last CAS is WRA; the PREs of banks 2 and 3 come after their WRs.
        let last_cas = c
            .iter()
            .rev()
            .find(|x| matches!(x.1, Rd | Rda | Wr | Wra))
            .unwrap();
        assert_eq!((last_cas.1, last_cas.2), (Wra, 0));
        assert!(all_closed_at(&c, t_d));
        assert!(out.done && !out.done_error);
        assert_eq!(dq, 20);
        assert!(log[..=t_d as usize]
            .iter()
            .filter(|o| o.dq_valid)
            .all(|o| o.dq_write));
    }

    #[test]
    fn arbiter_priorities() {
        let p = X16;
        let cas = |ap: bool| Entry {
            ap,
            ..Entry::default()
        };
        let act = Entry {
            act: true,
            ..Entry::default()
        };
        // Rule 5: bank 6 (distance 6) has ACT + 3 CAS to the row, bank 0 (distance 0) ACT +
        // 1 CAS → bank 6 first.
        let mut m = DramModel::new(p, 0);
        m.cycle = 1000;
        m.fifo[0].push(act);
        m.fifo[0].push(Entry {
            act: true,
            ..cas(true)
        });
        m.fifo[6].push(act);
        m.fifo[6].push(cas(false));
        m.fifo[6].push(cas(false));
        m.fifo[6].push(cas(true));
        assert_eq!(m.act_count(0), 1);
        assert_eq!(m.act_count(6), 4);
        let o = m.outputs();
        assert_eq!(
            (o.cmd, bank_of(&p, o.cmd_bg, o.cmd_bank)),
            (Command::Act, 6)
        );
        // An entry with ap stops the count: ACT(ap) + CAS → 1.
        let mut m2 = DramModel::new(p, 0);
        m2.fifo[2].push(Entry {
            act: true,
            ap: true,
            ..Entry::default()
        });
        m2.fifo[2].push(cas(false));
        assert_eq!(m2.act_count(2), 1);
        // Equal counts → smaller rotational distance from cur_pair (4): bank 5 (1) over 3 (7).
        let mut m = DramModel::new(p, 0);
        m.cycle = 1000;
        m.cur_pair = 4;
        m.fifo[3].push(act);
        m.fifo[5].push(act);
        let o = m.outputs();
        assert_eq!(
            (o.cmd, bank_of(&p, o.cmd_bg, o.cmd_bank)),
            (Command::Act, 5)
        );
        // PRE_PRE (tier 2) over ACT (tier 1) over PRE_CLOSE (tier 0); CAS over all.
        let mut m = DramModel::new(p, 0);
        m.cycle = 1000;
        m.bank[1].open = Some(0);
        m.bank[2].open = Some(0);
        m.bank[7].open = Some(0);
        m.fifo[0].push(act);
        m.fifo[1].push(Entry::CLOSE);
        m.fifo[2].push(Entry {
            pre_pre: true,
            act: true,
            ..cas(false)
        });
        assert_eq!(m.outputs().cmd, Command::Pre);
        assert_eq!(m.decide().issue, Some((2, Step::PrePre)));
        m.fifo[7].push(cas(false));
        assert_eq!(m.decide().issue, Some((7, Step::Cas)));
        m.fifo[2] = Fifo::default();
        m.fifo[7] = Fifo::default();
        assert_eq!(m.decide().issue, Some((0, Step::Act)));
        m.fifo[0] = Fifo::default();
        assert_eq!(m.decide().issue, Some((1, Step::PreClose)));
        // cur_pair follows the last CAS (b & !1), and only CAS.
        let mut m = DramModel::new(p, 0);
        m.cycle = 1000;
        m.bank[5].open = Some(0);
        m.fifo[5].push(cas(false));
        assert_eq!(m.step(&DramIn::default()).cmd, Command::Rd);
        assert_eq!(m.cur_pair(), 4);
        m.bank[3].open = Some(0);
        m.fifo[3].push(Entry::CLOSE);
        m.fifo[6].push(act);
        m.step(&DramIn::default());
        m.step(&DramIn::default());
        // The PRE popped bank 3's entry, the ACT opened bank 6 (its CAS waits for RCD).
        assert_eq!((m.fifo_len(3), m.fifo_len(6), m.cur_pair()), (0, 1, 4));
        assert_eq!((m.bank_open(3), m.bank_open(6)), (None, Some(0)));
    }

    #[test]
    fn tile_row_change_in_same_pair() {
        // Two rows of 16 words, 16384 words (64 KiB) apart: burst 0 (bank 0, row 0) then burst
        // 1024 (bank 0, row 1). The successor is in the same pair but another row → RDA, and
        // the second burst needs an ACT to a closed bank. ACT 2, RDA 24, ACT max(2 + RC,
        // max(24 + RTP, 2 + RAS) + RP) = 76, RDA 98; REF legal max(98 + 12, 76 + 52) + 22 =
        // 150 → done 148, LID 150.
        let run = run_request(X16, 0, &Request::tile(false, 0, 16, 16384, 2)).unwrap();
        let c: Vec<_> = run
            .commands
            .iter()
            .map(|(t, o)| (*t, o.cmd, o.cmd_bg, o.cmd_bank, o.cmd_row))
            .collect();
        use Command::*;
        assert_eq!(
            c,
            vec![
                (2, Act, 0, 0, 0),
                (24, Rda, 0, 0, 0),
                (76, Act, 0, 0, 1),
                (98, Rda, 0, 0, 1)
            ]
        );
        assert_eq!((run.done_at, run.lid), (148, 150));
    }

    #[test]
    fn reset_returns_to_power_up() {
        let mut m = DramModel::new(X16, 123);
        let req = Request::contiguous(true, 40, 700);
        m.step(&req.inputs());
        for _ in 0..60 {
            m.step(&DramIn::default());
        }
        assert!(m.busy() && (0..8).any(|b| m.fifo_len(b) > 0 || m.bank_open(b).is_some()));
        m.step(&DramIn {
            reset: true,
            ..req.inputs()
        });
        let mut fresh = DramModel::new(X16, 123);
        fresh.cycle = m.cycle();
        assert_eq!(m, fresh);
    }

    #[test]
    fn fifo_full_stalls_the_front_end() {
        // Bursts 0, 2, 4, ... of a long read all go to banks 0/1; the FIFOs fill (8 entries)
        // and the front-end stalls, never overflowing (Fifo::push asserts).
        let mut m = DramModel::new(X16, 0);
        m.step(&Request::contiguous(false, 0, 2048).inputs());
        let mut max = 0;
        while !m.step(&DramIn::default()).done {
            max = max.max(m.fifo_len(0)).max(m.fifo_len(1));
        }
        assert_eq!(max, 8);
    }

    /// A contiguous request spanning exactly `bursts` bursts from word `16·k0 + off`.
    fn contiguous_case(write: bool, k0: u32, off: u32, bursts: u32, slack: u32) -> Request {
        let lo = (16 * (bursts - 1) + 1).saturating_sub(off).max(1);
        let hi = 16 * bursts - off;
        let words = lo + slack % (hi - lo + 1);
        Request::contiguous(write, (k0 << 4) | off, words)
    }

    /// Run `reqs` back to back and check every property the contract promises.
    fn check_run(part: Part, phase: u16, reqs: &[Request]) -> Result<(), TestCaseError> {
        let (log, done) = trace(part, phase, reqs);
        let c = commands(&part, &log);
        if let Err(e) = check_timing(&part, &c) {
            return Err(TestCaseError::fail(e));
        }
        for (req, &(t_a, t_d, out, dq)) in reqs.iter().zip(&done) {
            let want = expected_bursts(&part, req);
            let cas: Vec<_> = c
                .iter()
                .filter(|x| {
                    x.0 >= t_a
                        && x.0 <= t_d
                        && matches!(x.1, Command::Rd | Command::Rda | Command::Wr | Command::Wra)
                })
                .collect();
            prop_assert_eq!(cas.len(), want.len());
            prop_assert!(cas
                .iter()
                .all(|x| matches!(x.1, Command::Wr | Command::Wra) == req.write));
            prop_assert_eq!(dq as usize, 4 * want.len());
            prop_assert_eq!(dq_bursts(&part, &log, t_a, t_d), want);
            prop_assert!(all_closed_at(&c, t_d), "a bank open at done");
            prop_assert_eq!(out.done_lid as u64, t_d + 2 - t_a);
            prop_assert!(!out.done_error);
            // The next command of anyone comes no earlier than t_d + 2.
            if let Some(n) = c.iter().find(|x| x.0 > t_d) {
                prop_assert!(n.0 >= t_d + 2);
            }
        }
        Ok(())
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        #[test]
        fn contiguous_requests_respect_the_contract(
            part in 0usize..3,
            before_due in 0u16..4000,
            reqs in prop::collection::vec(
                (any::<bool>(), 0u32..(1 << 26), 0u32..16, 1u32..=200, any::<u32>()),
                1..=3,
            ),
        ) {
            let part = Part::ALL[part];
            let reqs: Vec<_> = reqs
                .into_iter()
                .map(|(w, k0, off, b, slack)| contiguous_case(w, k0, off, b, slack))
                .collect();
            check_run(part, part.refi - 1 - before_due, &reqs)?;
        }

        #[test]
        fn tiles_respect_the_contract(
            part in 0usize..3,
            before_due in 0u16..3000,
            tiles in prop::collection::vec(
                (
                    any::<bool>(),
                    0u32..(1 << 22),
                    1u32..80,
                    prop_oneof![0u32..3000, (1u32..5).prop_map(|m| m << 14)],
                    1u16..12,
                ),
                1..=3,
            ),
        ) {
            let part = Part::ALL[part];
            // The period is W + extra, or a multiple of 16384 words (64 KiB: the same bank in
            // another row on 8-bank parts, another pair on 16-bank parts).
            let reqs: Vec<_> = tiles
                .into_iter()
                .map(|(w, a, words, p, count)| {
                    let period = if p >= 1 << 14 { p } else { words + p };
                    Request::tile(w, a, words, period, count)
                })
                .collect();
            check_run(part, part.refi - 1 - before_due, &reqs)?;
        }
    }

    /// The LID table of the report: contiguous reads/writes of b bursts at word 0, the max
    /// over the 256 burst-aligned starts of a pair span, and over the starts 16s + 1 (b + 1
    /// bursts), next to Eq. 15 + 2. `cargo test --release -p rtgpu-hw lid_table -- --ignored
    /// --nocapture`.
    #[test]
    #[ignore]
    fn lid_table() {
        for part in Part::ALL {
            println!("{}", part.name);
            println!(
                "   b dir  @0  max-aligned  Eq15(b)+2 | max-misaligned(b+1 bursts)  Eq15(b+1)+2"
            );
            for b in [1u32, 2, 4, 8, 16, 32, 64, 128] {
                for write in [false, true] {
                    let lid = |addr: u32| {
                        request_lid(part, 0, &Request::contiguous(write, addr, 16 * b)).unwrap()
                    };
                    let at0 = lid(0);
                    let aligned = (0..256).map(|s| lid(16 * s)).max().unwrap();
                    let mis = (0..256).map(|s| lid(16 * s + 1)).max().unwrap();
                    println!(
                        "{b:4} {}  {at0:5}  {aligned:5}  {:5} | {mis:5}  {:5}",
                        if write { "W" } else { "R" },
                        tid(&part, b, write) + 2,
                        tid(&part, b + 1, write) + 2
                    );
                }
            }
        }
    }
}
