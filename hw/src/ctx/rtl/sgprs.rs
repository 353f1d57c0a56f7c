//! The SGPR words of `C` contexts (`N` = 102 · `C` words, context-major): the copy, init,
//! write-port and reset steps of the edge ([`crate::ctx`]) and, for each read port, the words
//! `code` and `code + 1` of the context read.
//!
//! A memory primitive, like rust-hdl's own `RAM` and the VGPR lanes: [`Logic`] written by
//! hand, a Rust `update` for rust-hdl's simulation (the words in a vector) and hand-written
//! Verilog in two descriptions: an indexed array for the simulators (Icarus, Verilator) and a
//! register per word for Yosys (`ifdef SYNTHESIS`). Written as `N` rust-hdl flip-flops, every
//! word's next value compared every write port's context and code and every read port
//! compared every word, all of it evaluated by Verilator at every edge: a third of the RTL
//! system's simulation time. The Rust and both descriptions take the edge's steps in the same
//! order (the last step that writes a word wins).

use crate::ctx::{INIT_SGPRS, SGPRS};
use crate::hdl::{index_bits, zeroes};
use rust_hdl::prelude::*;
use std::fmt::Write;

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
    /// The words, context-major, for rust-hdl's simulation (not a signal).
    _words: Vec<u32>,
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Default
    for SgprFile<C, N, R, W>
{
    fn default() -> Self {
        assert!((1..=128).contains(&C), "1 to 128 contexts");
        assert_eq!(N, SGPRS * C, "N = 102 · C words");
        Self {
            clock: Default::default(),
            reset: Default::default(),
            init: Default::default(),
            init_ctx: Default::default(),
            init_s: array_init::array_init(|_| Default::default()),
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
            _words: vec![0; N],
        }
    }
}

/// The last SGPR that starts a pair (s100:s101).
const LAST_PAIR: usize = SGPRS - 2;

/// Word `k`'s register in Verilog.
fn word(k: usize) -> String {
    format!("w{k}")
}

/// A 7-bit SGPR code `code` zero-extended to an index of `bits` (at least 7) in Verilog.
fn widen(code: &str, bits: usize) -> String {
    match bits - 7 {
        0 => code.to_string(),
        pad => format!("{{{{{pad}{{1'b0}}}}, {code}}}"),
    }
}

/// The value an init writes to SGPR `i`: `init_s[i]` for s0..s23, else 0.
fn init_value(i: usize) -> String {
    match i < INIT_SGPRS {
        true => format!("init_s${i}"),
        false => "32'h0".to_string(),
    }
}

/// Write port `p` writes `wlo` (a 32-bit SGPR, or a pair's first word) at this edge, if its
/// context exists and its code is an SGPR.
fn lo_writes(p: usize) -> String {
    format!("wen${p} && (!wwide${p} || wcode${p} <= 7'd{LAST_PAIR})")
}

/// Write port `p` writes `whi` (a pair's second word) at this edge, if its context exists.
fn hi_writes(p: usize) -> String {
    format!("wen${p} && wwide${p} && wcode${p} <= 7'd{LAST_PAIR}")
}

/// [`lo_writes`] with the context and code checked: the array's write enable.
fn lo_write(p: usize) -> String {
    format!("{} && w{p}_ok && wcode${p} < 7'd{SGPRS}", lo_writes(p))
}

/// [`hi_writes`] with the context checked.
fn hi_write(p: usize) -> String {
    format!("{} && w{p}_ok", hi_writes(p))
}

/// Read port `p`'s `lo` is an SGPR.
fn lo_read(p: usize) -> String {
    format!("r{p}_ok && rcode${p} < 9'd{SGPRS}")
}

/// Read port `p`'s `hi` is an SGPR (its code starts a pair).
fn hi_read(p: usize) -> String {
    format!("r{p}_ok && rcode${p} <= 9'd{LAST_PAIR}")
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> SgprFile<C, N, R, W> {
    /// The first word of context `c`, if it exists.
    fn base(c: Bits<8>) -> Option<usize> {
        let c = c.index();
        (c < C).then_some(c * SGPRS)
    }

    /// Word `code` of context `c` (0 when not an SGPR of an existing context).
    fn word(&self, c: Bits<8>, code: usize) -> Bits<32> {
        let w = Self::base(c)
            .filter(|_| code < SGPRS)
            .map(|b| self._words[b + code]);
        Bits::from(u64::from(w.unwrap_or(0)))
    }

    /// The steps of an edge: the copy, the init, write ports 0, 1, … (each its `wlo`, then
    /// its `whi`), the reset.
    fn edge(&mut self) {
        if let (true, Some(to)) = (self.copy.val(), Self::base(self.copy_to.val())) {
            let from: Vec<u32> = match Self::base(self.copy_from.val()) {
                Some(f) => self._words[f..f + SGPRS].to_vec(),
                None => vec![0; SGPRS],
            };
            self._words[to..to + SGPRS].copy_from_slice(&from);
        }
        if let (true, Some(b)) = (self.init.val(), Self::base(self.init_ctx.val())) {
            self._words[b..b + SGPRS].fill(0);
            for i in 0..INIT_SGPRS {
                self._words[b + i] = self.init_s[i].val().index() as u32;
            }
        }
        for p in 0..W {
            let (code, wide) = (self.wcode[p].val().index(), self.wwide[p].val());
            let Some(b) = Self::base(self.wctx[p].val()).filter(|_| self.wen[p].val()) else {
                continue;
            };
            if code < SGPRS && (!wide || code <= LAST_PAIR) {
                self._words[b + code] = self.wlo[p].val().index() as u32;
            }
            if wide && code <= LAST_PAIR {
                self._words[b + code + 1] = self.whi[p].val().index() as u32;
            }
        }
        if self.reset.val() {
            self._words.fill(0);
        }
    }

    /// The Verilog, in two descriptions of the same edge and reads. Simulators (Icarus,
    /// Verilator) get [`SgprFile::verilog_array`]; Yosys, which defines `SYNTHESIS`, gets
    /// [`SgprFile::verilog_flops`]. The cosimulation replays the block's testbench on both
    /// (Icarus with and without `SYNTHESIS`), so each is checked against the Rust run cycle
    /// by cycle.
    fn verilog(&self) -> String {
        format!(
            "`ifdef SYNTHESIS\n{}`else\n{}`endif\n",
            self.verilog_flops(),
            self.verilog_array()
        )
    }

    /// For simulators: the words in an array `mem[N]`, every access indexed. Each port costs
    /// Verilator an index computation, where rust-hdl's flip-flops (a comparison of every
    /// word with every port, evaluated at every edge) made the SGPR file a third of the RTL
    /// system's simulation time; a copy or an init writes a context's 102 words as 102
    /// indexed writes. Yosys' memory passes did not finish in 15 minutes on those 400 write
    /// ports, hence [`SgprFile::verilog_flops`] for synthesis.
    fn verilog_array(&self) -> String {
        let top = index_bits(N) - 1;
        let mut v = format!(
            "reg [31:0] mem [0:{last}];\ninteger i;\n\
             initial begin\n   for (i = 0; i < {N}; i = i + 1) mem[i] = 32'h0;\nend\n",
            last = N - 1
        );
        v.push_str(&self.verilog_indices());
        let at = |base: &str, i: usize| format!("{base}_row[{top}:0] + {}'d{i}", top + 1);
        let _ = writeln!(
            v,
            "always @(posedge clock) begin\n   if (copy && to_ok) begin"
        );
        for i in 0..SGPRS {
            let (to, from) = (at("to", i), at("from", i));
            let _ = writeln!(v, "      mem[{to}] <= from_ok ? mem[{from}] : 32'h0;");
        }
        v.push_str("   end\n   if (init && ini_ok) begin\n");
        for i in 0..SGPRS {
            let _ = writeln!(v, "      mem[{}] <= {};", at("ini", i), init_value(i));
        }
        v.push_str("   end\n");
        for p in 0..W {
            let _ = writeln!(
                v,
                "   if ({}) mem[wlo{p}_at[{top}:0]] <= wlo${p};\n   \
                 if ({}) mem[whi{p}_at[{top}:0]] <= whi${p};",
                lo_write(p),
                hi_write(p)
            );
        }
        v.push_str("   if (reset) begin\n");
        v.push_str(&zeroes(0..N));
        v.push_str("   end\nend\n\nalways @(*) begin\n");
        for p in 0..R {
            let _ = writeln!(
                v,
                "   lo${p} = ({}) ? mem[rlo{p}_at[{top}:0]] : 32'h0;\n   \
                 hi${p} = ({}) ? mem[rhi{p}_at[{top}:0]] : 32'h0;",
                lo_read(p),
                hi_read(p)
            );
        }
        v.push_str("end\n");
        v
    }

    /// The array's indices: each context port's first word (`NAME_row`) and whether the
    /// context exists (`NAME_ok`), each write and read port's two words (`wloP_at`,
    /// `whiP_at`, `rloP_at`, `rhiP_at`).
    fn verilog_indices(&self) -> String {
        let bits = index_bits(N);
        let mut v = String::new();
        let base = |v: &mut String, name: &str, ctx: &str| {
            let _ = writeln!(
                v,
                "wire [15:0] {name}_row = {{8'h0, {ctx}}} * 16'd{SGPRS};\n\
                 wire {name}_ok = {ctx} < 8'd{C};"
            );
        };
        let mut rows = Vec::new();
        for (name, ctx) in [
            ("from", "copy_from"),
            ("to", "copy_to"),
            ("ini", "init_ctx"),
        ] {
            base(&mut v, name, ctx);
            rows.push(format!("{name}_row"));
        }
        for (p, kind, code) in (0..W)
            .map(|p| (p, 'w', format!("wcode${p}")))
            .chain((0..R).map(|p| (p, 'r', format!("rcode${p}[6:0]"))))
        {
            base(&mut v, &format!("{kind}{p}"), &format!("{kind}ctx${p}"));
            let code = widen(&code, 16);
            let _ = writeln!(
                v,
                "wire [15:0] {kind}lo{p}_at = {kind}{p}_row + {code};\n\
                 wire [15:0] {kind}hi{p}_at = {kind}lo{p}_at + 16'd1;"
            );
            rows.extend([format!("{kind}lo{p}_at"), format!("{kind}hi{p}_at")]);
        }
        if bits < 16 {
            let unused: Vec<_> = rows.iter().map(|r| format!("{r}[15:{bits}]")).collect();
            let _ = writeln!(
                v,
                "// Index bits past the words; Verilator's lint skips `unused*` names.\n\
                 wire unused_index_bits = &{{1'b0, {}}};",
                unused.join(", ")
            );
        }
        v
    }

    /// For Yosys: a register per word (`w0` … `wN-1`), each in an `always` block of its own
    /// whose `if`/`else if` chain takes the edge's steps from the last (the reset) to the
    /// first (the copy). Every port decodes its context (`C` wires) and its code (102 wires)
    /// once; a word's write enable is the AND of the two. The copy's source is chosen once
    /// per code (a `C`-way choice by `copy_from`) and each read port picks its context's row
    /// once, then `lo` and `hi` from it. So the description is linear in the words, where a
    /// `case` over all `N` words per port, in one `always` block, kept Yosys' `proc` and
    /// `opt` passes busy past 26 CPU-minutes on the four-unit top without an end.
    fn verilog_flops(&self) -> String {
        let mut v: String = (0..N)
            .map(|k| format!("reg [31:0] {};\n", word(k)))
            .collect();
        v.push_str("initial begin\n");
        for k in 0..N {
            let _ = writeln!(v, "   {} = 32'h0;", word(k));
        }
        v.push_str("end\n");
        v.push_str(&Self::verilog_decoders());
        for i in 0..SGPRS {
            let col = Self::pick("from_c", |c| word(c * SGPRS + i));
            let _ = writeln!(v, "wire [31:0] src{i} = {col};");
        }
        for k in 0..N {
            v.push_str(&Self::verilog_word(k));
        }
        v.push_str(&Self::verilog_reads());
        v
    }

    /// The one-hot decoders: per context port (`from_c`, `to_c`, `ini_c`; the latter two
    /// only when the step happens) and write port `p` (`wP_c`) the context, all zero when it
    /// does not exist; per write port the code its `wlo` (`wloP_k`) and its `whi` (`whiP_k`)
    /// writes, all zero when the port does not write that word.
    fn verilog_decoders() -> String {
        let one = |w: usize, cond: &str, index: &str| match cond {
            "" => format!("{w}'d1 << {index}"),
            _ => format!("({cond}) ? {w}'d1 << {index} : {w}'d0"),
        };
        let mut v = String::new();
        for (name, cond, ctx) in [
            ("from", "", "copy_from"),
            ("to", "copy", "copy_to"),
            ("ini", "init", "init_ctx"),
        ] {
            let _ = writeln!(v, "wire [{}:0] {name}_c = {};", C - 1, one(C, cond, ctx));
        }
        for p in 0..W {
            let _ = writeln!(
                v,
                "wire [{c}:0] w{p}_c = {};\nwire [{s}:0] wlo{p}_k = {};\n\
                 wire [{s}:0] whi{p}_k = ({}) ? {SGPRS}'d2 << wcode${p} : {SGPRS}'d0;",
                one(C, "", &format!("wctx${p}")),
                one(SGPRS, &lo_writes(p), &format!("wcode${p}")),
                hi_writes(p),
                c = C - 1,
                s = SGPRS - 1,
            );
        }
        v
    }

    /// `({32{onehot[0]}} & word(0)) | …`: the word of the hot bit (of `C` contexts).
    fn pick(onehot: &str, word: impl Fn(usize) -> String) -> String {
        (0..C)
            .map(|c| format!("({{32{{{onehot}[{c}]}}}} & {})", word(c)))
            .collect::<Vec<_>>()
            .join(" | ")
    }

    /// Word `k`'s register: the reset, write ports `W-1` … 0 (each its `whi`, then its
    /// `wlo`), the init, the copy; the first that applies wins.
    fn verilog_word(k: usize) -> String {
        let (c, i, w) = (k / SGPRS, k % SGPRS, word(k));
        let mut v = format!("always @(posedge clock)\n   if (reset) {w} <= 32'h0;\n");
        for p in (0..W).rev() {
            for half in ["hi", "lo"] {
                let _ = writeln!(
                    v,
                    "   else if (w{p}_c[{c}] && w{half}{p}_k[{i}]) {w} <= w{half}${p};"
                );
            }
        }
        let _ = writeln!(
            v,
            "   else if (ini_c[{c}]) {w} <= {};\n   else if (to_c[{c}]) {w} <= src{i};",
            init_value(i)
        );
        v
    }

    /// The reads: per port its context's row (`rP_I`, one per code `I`), then `lo` the
    /// row's word of the code and `hi` the next, from the one-hot code `rP_k` (all zero past
    /// the SGPRs; `hi` none for the last).
    fn verilog_reads() -> String {
        let mut v = String::new();
        for p in 0..R {
            let _ = writeln!(
                v,
                "wire [{c}:0] r{p}_c = {C}'d1 << rctx${p};\n\
                 wire [{s}:0] r{p}_k = {SGPRS}'d1 << rcode${p};",
                c = C - 1,
                s = SGPRS - 1
            );
            for i in 0..SGPRS {
                let row = Self::pick(&format!("r{p}_c"), |c| word(c * SGPRS + i));
                let _ = writeln!(v, "wire [31:0] r{p}_{i} = {row};");
            }
        }
        v.push_str("always @(*) begin\n");
        for p in 0..R {
            let of = |shift: usize| {
                (0..SGPRS - shift)
                    .map(|i| format!("({{32{{r{p}_k[{i}]}}}} & r{p}_{})", i + shift))
                    .collect::<Vec<_>>()
                    .join(" | ")
            };
            let _ = writeln!(v, "   lo${p} = {};\n   hi${p} = {};", of(0), of(1));
        }
        v.push_str("end\n");
        v
    }
}

impl<const C: usize, const N: usize, const R: usize, const W: usize> Logic
    for SgprFile<C, N, R, W>
{
    fn update(&mut self) {
        if self.clock.pos_edge() {
            self.edge();
        }
        for p in 0..R {
            let (c, code) = (self.rctx[p].val(), self.rcode[p].val().index());
            self.lo[p].next = self.word(c, code);
            self.hi[p].next = self.word(c, code + 1);
        }
    }

    fn connect(&mut self) {
        for p in 0..R {
            self.lo[p].connect();
            self.hi[p].connect();
        }
    }

    fn hdl(&self) -> Verilog {
        Verilog::Custom(self.verilog())
    }
}
