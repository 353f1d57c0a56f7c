//! The Sim-D real-time DRAM controller (Section 3.2 of the Sim-D paper, docs/works/simd.md): a
//! front-end that turns one whole-tile request into 64-byte bursts, a command generator with
//! a shadow open-row table, per-bank command FIFOs, the six-rule command arbiter with every
//! DDR4 timing of the Ramulator DDR4 rule set, refresh between requests, and a DQ scheduler. One
//! 64-bit channel, one rank; the block runs in the DRAM command clock domain (625 ps at 3200).
//!
//! The reference model is [`model::DramModel`]; this text is the contract both follow, cycle
//! for cycle and output for output.
//!
//! # Ports
//!
//! Inputs (sampled at the rising edge that ends the cycle): `reset`; `req_valid`,
//! `req_write`, `req_indexed`, `req_addr` (30 bits), `req_words` (30), `req_period` (30),
//! `req_count` (16), `req_tag` (8); `idx_valid`, `idx_addr` (30 bits).
//!
//! Outputs (every one a function of the registered state only, so valid all cycle):
//! - `req_ready`, `idx_ready`: handshakes (below).
//! - `cmd` (3 bits, [`Command`]), `cmd_bg` (2), `cmd_bank` (4, the bank *within* its group,
//!   as the trace format wants), `cmd_row` (16), `cmd_col` (10): the command issued in this
//!   cycle. ACT: row, col 0. RD/RDA/WR/WRA: row and column (`col · 8`). PRE, REF, NOP: bank
//!   fields as the command's bank (0 for REF/NOP), row 0, col 0.
//! - `dq_valid`, `dq_write`, `dq_bg`, `dq_bank`, `dq_row`, `dq_col`, `dq_beat` (2 bits),
//!   `dq_mask` (4 bits): the data bus (DQ scheduler); all 0 when not valid.
//! - `done`, `done_error`, `done_tag` (8), `done_lid` (32): request completion, all 0 when
//!   `done = 0`.
//! - `ref_owed` (4 bits), `ref_overflow`.
//!
//! # Parameters
//!
//! - `NB`: banks (8 or 16); must equal `part.banks`.
//! - `part` ([`Part`]): every timing of Sim-D's Table 1 (plus Ramulator values)
//!   in command cycles; constants in the Verilog.
//! - `refresh_phase`: the refresh interval counter's value after reset (0 ≤ phase < tREFI).
//!
//! # Address mapping
//!
//! Requests address 32-bit words; byte address `a = 4 · word` (32 bits, wrapping). A burst
//! is 64 bytes = 16 words; burst index `k = word >> 4`. With `p` = [`Part::pair_bits`]
//! (2 for 8 banks, 3 for 16):
//! - `bank[0] = a[6]` (the bank within its pair), `col = a[13:7]` (burst within the row;
//!   the DDR4 column address is `col · 8`), `bank[p:1] = a[13+p:14]` (the pair),
//!   `row = a[31:14+p]` (16 bits with 8 banks, 15 with 16).
//! - Bank group `bg = bank % nBG`, bank within group `bank / nBG`. A pair (2j, 2j+1) is always
//!   in two bank groups; consecutive bursts alternate between the two banks of a pair; a pair
//!   covers 16 KiB of consecutive addresses.
//!
//! # Requests
//!
//! A request is presented on the `req_*` inputs with `req_valid`; it is *accepted* in a cycle
//! t_a in which `req_valid && req_ready`. Two kinds (`req_indexed`):
//!
//! **Tile** (`req_indexed = 0`; also the snoopy indexed transfer of Section 3.2.3 of the Sim-D
//! paper, which is a tile over
//! the index buffer for the controller): `req_addr` A (start word, 30 bits), `req_words` W
//! (words per row, 30 bits), `req_period` P (words from one row's start to the next, 30 bits),
//! `req_count` C (rows, 16 bits). Row r covers words `[A + r·P, A + r·P + W)`.
//!
//! **Iterative indexed** (`req_indexed = 1`, Section 3.2.1 of the Sim-D paper, Eq. 16): `req_count`
//! C indexes (word addresses) follow on the `idx_*` port; `req_words`, `req_period` are ignored
//! (but must be non-zero, see below).
//!
//! `req_write` is the direction (0 read, 1 write), `req_tag` (8 bits) is echoed on completion.
//!
//! **Bad requests**: W = 0, C = 0, or P < W with C > 1 (rows must not overlap). A bad request
//! is accepted like any other and completes in t_a + 1 with `done = 1`, `done_error = 1`,
//! `done_lid = 0`, the tag echoed; it issues no command and the controller is ready again in
//! t_a + 1. (Out-of-range addresses cannot be expressed: addresses wrap; the driver and the
//! CLI check ranges.)
//!
//! # The front-end: bursts
//!
//! **Tile.** The *segments* of a request are, for each row r in order and within the row in
//! ascending address order, the intersection of the row with one burst: segment =
//! (burst k, mask of the row's words in burst k; bit i = word 16k + i). The segments of one burst
//! are consecutive (rows do not overlap, P ≥ W); the burst's *mask* is the OR of theirs (rows
//! closer than 16 words share bursts: Fig. 3's 5×3 tile from a 7-word period gives 2 bursts,
//! masks 0x3E7C and 0x001F). The front-end offers one burst per cycle, the first in t_a + 1:
//! in each cycle it offers the burst of its current segment with the mask merged over every
//! segment of that burst (up to 16 rows), to the command generator; if the generator accepts
//! it (below), the front-end moves to the first segment of the next burst, else it stays (a
//! stall) and offers the same burst in the next cycle. Bursts without a word of the request are
//! never offered. Since P ≥ W, bursts are emitted in strictly ascending address order; each
//! burst carries its *successor*: the next burst the request emits, or none for the last.
//!
//! **Indexed.** `idx_ready` = 1 in a cycle (from t_a + 1 on) when the request still needs
//! indexes and the
//! front-end's one-entry index register is empty or its index is emitted in this cycle. An
//! index taken in cycle t (`idx_valid && idx_ready`) is in the register from t + 1 and emitted
//! as a burst (mask: the one word) when the generator accepts it, at the earliest in t + 1.
//! The C-th index is the last burst. Indexes are never coalesced (one burst per index).
//!
//! # The command generator (combinational, in the emit cycle)
//!
//! For a burst to bank b, row R, column c, the generator consults its shadow table
//! (`open[b]`, `open_row[b]`; all closed after reset) and builds the compound command
//! `{pre_pre, act, cas, ap}` (cas is always 1; RD or WR by the request's direction):
//! - `act = !(open[b] && open_row[b] == R)`.
//! - Tile (LINEAR policy): `pre_pre = 0`; `ap = 1` when the burst is the last, or its
//!   successor lies in another pair (`bank >> 1`) or another row; then if the partner bank
//!   `b ^ 1` is open in the shadow table, a stand-alone PRE is also pushed into the partner's
//!   FIFO and the partner marked closed.
//! - Indexed (ALAP policy): `pre_pre = open[b] && open_row[b] != R`; `ap = 1` on the last
//!   burst only; with the last burst a stand-alone PRE is pushed into the FIFO of every other
//!   bank open in the shadow table, and all are marked closed.
//! - Afterwards `open[b] = !ap`, `open_row[b] = R`.
//!
//! The generator *accepts* the burst iff every FIFO it pushes into holds fewer than 8 entries
//! at the start of the cycle (pops in the same cycle do not make room). Pushed entries are
//! visible at the FIFO heads from the next cycle.
//!
//! # Bank FIFOs and the arbiter (one command per cycle)
//!
//! Each bank has an 8-entry FIFO of commands: compound entries (above) and stand-alone PREs.
//! The *step* of a bank is that of its head entry: PRE_CLOSE for a stand-alone PRE, else the
//! first of `pre_pre` (PRE_PRE), `act` (ACT), CAS still set. Issuing a step clears it in the
//! head; issuing the CAS (or the stand-alone PRE) pops the entry. No step when the FIFO is
//! empty.
//!
//! In each cycle t the arbiter looks at every bank's step, keeps those *legal* in t (timing
//! below), and issues the one with the highest key, compared lexicographically:
//! 1. tier: CAS 3 > PRE_PRE 2 > ACT 1 > PRE_CLOSE 0 (rules 1, 3, 4; the pre-activate PRE
//!    ranks above ACT as in the reference implementation);
//! 2. for ACT only (rule 5): the number of CAS queued for the row being opened:
//!    1 + the largest n such that FIFO entries 1..=n are all compound entries with
//!    `pre_pre = act = 0` and entries 0..n (head included, entry n excluded) all have `ap = 0`
//!    (0 for every other tier);
//! 3. the smaller rotational distance `(b − cur_pair) mod NB` (rules 2 and 5's tie-break).
//!
//! `cur_pair` (reset 0) becomes `b & !1` when a CAS to bank b issues. A CAS issues as RDA/WRA
//! when its `ap` is set, else RD/WR. The issued command is on the `cmd_*` outputs in the same
//! cycle t (the outputs are combinational from registered state); its effects on the state
//! take place at the edge ending t.
//!
//! **REF** (rule 6) issues in t, when no bank step is issued, `ref_owed > 0`, no request is in
//! progress (between `done` and the next acceptance), every FIFO is empty, every bank is
//! closed, and REF is legal.
//!
//! # Timing, as "earliest legal cycle" bounds
//!
//! A command X issued in cycle t makes a later command Y legal from t + d:
//!
//! | X | Y (scope) | d |
//! |---|---|---|
//! | ACT b | ACT (same bank) / RD, WR (same bank) / PRE (same bank) | RC / RCD / RAS |
//! | ACT b | ACT (same bank group) / ACT (rank) | RRD_L / RRD_S |
//! | ACT b | ACT: at most 4 ACTs in any FAW window | t_{4th last ACT} + FAW |
//! | ACT b | REF | RC |
//! | RD/RDA b | RD, WR (same bank group) / (rank) | CCD_L / CCD_S |
//! | RD b | PRE (same bank) | RTP |
//! | WR/WRA b | RD, WR (same bank group) / (rank) | CCD_L / CCD_S |
//! | WR b | PRE (same bank) | CWL + BL + WR |
//! | RDA b | ACT (same bank), REF | max(t + RTP, t_ACT(b) + RAS) + RP − t |
//! | WRA b | ACT (same bank), REF | max(t + CWL + BL + WR, t_ACT(b) + RAS) + RP − t |
//! | PRE b | ACT (same bank), REF | RP |
//! | REF | ACT, REF | RFC |
//!
//! (t_ACT(b) + RAS is the PRE bound that ACT b left; the RDA/WRA rows are our
//! internal-precharge rule: the paper never mentions auto-precharge.) Within a request every CAS
//! has the request's direction; between requests the completion rule below keeps WTR and RD→WR
//! apart, so the arbiter does not track them (the testbench's checker does).
//!
//! # Completion
//!
//! A request is *in progress* from acceptance until its `done` cycle t_d: the first cycle in
//! which the front-end has emitted the last burst, every FIFO is empty, every bank is closed
//! and REF would be legal in t_d + 2. Then `done = 1`, `done_tag`, `done_error = 0` and
//! `done_lid = t_d + 2 − t_a`: the LID measured from the trigger, i.e. the first cycle the
//! next request's first command could issue minus the acceptance cycle. `req_ready` is 1 in t_d
//! itself (the pipeline refills in two cycles: a request accepted in t has its first command
//! in t + 2 at the earliest), so requests can run back to back at their LIDs.
//!
//! `req_ready = (no request in progress || done) && ref_owed == 0`.
//!
//! # Refresh
//!
//! The interval counter starts at `refresh_phase`; each cycle it counts up, and in a cycle in
//! which it holds tREFI − 1 it returns to 0 and `ref_owed` increments at the edge (a REF in
//! the same cycle decrements it: +1 − 1). `ref_owed` saturates at 8; a ninth owed refresh sets
//! the sticky `ref_overflow` output (a request longer than 8·(tREFI − tRFC)).
//!
//! # DQ scheduler
//!
//! A CAS issued in t reserves the data bus from t + CL (read) or t + CWL − 2 (write: the
//! SRAM read leads by 2 cycles) for BL = 4 cycles: in beat i (i = 0..3) of the reservation,
//! `dq_valid = 1`, `dq_write`, `dq_bank`, `dq_row`, `dq_col`, `dq_beat = i` and
//! `dq_mask` = bits 4i..4i+3 of the burst's word mask (the 4 words moved in that cycle).
//!
//! # Reset
//!
//! `reset` is synchronous: the edge of a cycle with `reset = 1` returns every register to its
//! power-up value (FIFOs empty, shadow table and banks closed, all timing bounds met,
//! cur_pair 0, `ref_owed` 0, interval counter = `refresh_phase`, no request, no DQ
//! reservation); outputs in that cycle are don't-care and the cycle's inputs are ignored.

pub mod rtl;
pub use rtl::bank;
pub use rtl::cmdgen;
pub use rtl::dq;
pub use rtl::frontend;
pub use rtl::snoop;
pub mod model;
mod part;

pub use part::Part;
pub use rtl::ctrl::DramCtrl;

/// The controller for the default part (DDR4-3200AA x16, 8 banks).
pub type DramCtrl8 = DramCtrl<8>;
/// The controller for the 16-bank DDR4-3200AA x8.
pub type DramCtrl16 = DramCtrl<16>;

/// Command codes on `cmd` (and names in command traces).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Command {
    /// No command (0).
    Nop = 0,
    /// Activate (1).
    Act = 1,
    /// Precharge one bank (2).
    Pre = 2,
    /// Read (3).
    Rd = 3,
    /// Read with auto-precharge (4).
    Rda = 4,
    /// Write (5).
    Wr = 5,
    /// Write with auto-precharge (6).
    Wra = 6,
    /// Refresh (7).
    Ref = 7,
}

impl crate::block::Ports for Command {
    /// The 3-bit command code.
    fn visit(&self, prefix: &str, v: crate::block::Visit) {
        v(prefix, 3, *self as u64);
    }
}

impl Command {
    /// Every code, indexed by its value.
    pub const ALL: [Command; 8] = [
        Command::Nop,
        Command::Act,
        Command::Pre,
        Command::Rd,
        Command::Rda,
        Command::Wr,
        Command::Wra,
        Command::Ref,
    ];

    /// The command with code `code` (3 bits).
    pub fn from_code(code: u64) -> Command {
        Self::ALL[(code & 7) as usize]
    }

    /// The trace name (`ACT PRE RD RDA WR WRA REF`; `NOP` for 0).
    pub const fn name(self) -> &'static str {
        match self {
            Command::Nop => "NOP",
            Command::Act => "ACT",
            Command::Pre => "PRE",
            Command::Rd => "RD",
            Command::Rda => "RDA",
            Command::Wr => "WR",
            Command::Wra => "WRA",
            Command::Ref => "REF",
        }
    }
}
