//! The DRAM command trace format (docs/architecture.md): one command per
//! line, `cycle CMD rank bg bank row col`, decimal, space separated.

use std::fmt;

/// A DDR4 command as it appears in a trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Cmd {
    /// ACTIVATE: open `row` in one bank.
    Act,
    /// PRECHARGE of one bank.
    Pre,
    /// PRECHARGE ALL banks of the rank (`bg`, `bank`, `row`, `col` are ignored).
    Prea,
    /// READ.
    Rd,
    /// READ with auto-precharge.
    Rda,
    /// WRITE.
    Wr,
    /// WRITE with auto-precharge.
    Wra,
    /// REFRESH of the whole rank (`bg`, `bank`, `row`, `col` are ignored).
    Ref,
}

impl Cmd {
    /// Every command, in a fixed order (the index order of [`Cmd::index`]).
    pub const ALL: [Cmd; 8] = [
        Cmd::Act,
        Cmd::Pre,
        Cmd::Prea,
        Cmd::Rd,
        Cmd::Rda,
        Cmd::Wr,
        Cmd::Wra,
        Cmd::Ref,
    ];

    /// The mnemonic used in traces: `ACT PRE PREA RD RDA WR WRA REF`.
    pub fn name(self) -> &'static str {
        match self {
            Cmd::Act => "ACT",
            Cmd::Pre => "PRE",
            Cmd::Prea => "PREA",
            Cmd::Rd => "RD",
            Cmd::Rda => "RDA",
            Cmd::Wr => "WR",
            Cmd::Wra => "WRA",
            Cmd::Ref => "REF",
        }
    }

    /// Parse a mnemonic (exact, upper case).
    pub fn from_name(s: &str) -> Option<Cmd> {
        Cmd::ALL.iter().copied().find(|c| c.name() == s)
    }

    /// Position in [`Cmd::ALL`].
    pub fn index(self) -> usize {
        self as usize
    }

    /// RD or RDA.
    pub fn is_read(self) -> bool {
        matches!(self, Cmd::Rd | Cmd::Rda)
    }

    /// WR or WRA.
    pub fn is_write(self) -> bool {
        matches!(self, Cmd::Wr | Cmd::Wra)
    }

    /// Any column command (RD, RDA, WR, WRA).
    pub fn is_cas(self) -> bool {
        self.is_read() || self.is_write()
    }

    /// RDA or WRA.
    pub fn auto_precharge(self) -> bool {
        matches!(self, Cmd::Rda | Cmd::Wra)
    }
}

impl fmt::Display for Cmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// One line of a command trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TraceCmd {
    /// DRAM command-clock cycle at which the command is on the bus.
    pub cycle: u64,
    /// The command.
    pub cmd: Cmd,
    /// Rank.
    pub rank: u8,
    /// Bank group.
    pub bg: u8,
    /// Bank within its bank group.
    pub bank: u8,
    /// Row (meaningful for ACT, RD, RDA, WR, WRA: a CAS names the row it expects to be open).
    pub row: u32,
    /// Column (meaningful for RD, RDA, WR, WRA).
    pub col: u32,
}

impl TraceCmd {
    /// Build a command.
    pub fn new(cycle: u64, cmd: Cmd, rank: u8, bg: u8, bank: u8, row: u32, col: u32) -> Self {
        TraceCmd {
            cycle,
            cmd,
            rank,
            bg,
            bank,
            row,
            col,
        }
    }
}

impl fmt::Display for TraceCmd {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&format_line(self))
    }
}

/// Format one command exactly as `cycle CMD rank bg bank row col` (no newline).
pub fn format_line(c: &TraceCmd) -> String {
    format!(
        "{} {} {} {} {} {} {}",
        c.cycle,
        c.cmd.name(),
        c.rank,
        c.bg,
        c.bank,
        c.row,
        c.col
    )
}

/// Format a whole trace, one [`format_line`] per line, each ending in `\n`.
pub fn format_trace(cmds: &[TraceCmd]) -> String {
    let mut s = String::new();
    for c in cmds {
        s.push_str(&format_line(c));
        s.push('\n');
    }
    s
}

/// A malformed trace line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// 1-based line number.
    pub line: usize,
    /// 1-based column (in characters) of the offending field, or of the end of the line when a
    /// field is missing.
    pub column: usize,
    /// What was wrong and what was expected.
    pub message: String,
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}: {}", self.line, self.column, self.message)
    }
}

impl std::error::Error for ParseError {}

const FIELDS: [&str; 7] = ["cycle", "CMD", "rank", "bg", "bank", "row", "col"];

/// Parse a trace. Blank lines are skipped, and `#` starts a comment that runs to the end of the
/// line. Every other line must hold exactly the seven fields `cycle CMD rank bg bank row col`
/// (decimal numbers; CMD one of `ACT PRE PREA RD RDA WR WRA REF`), separated by spaces or tabs.
/// Command order is not checked here (that is the [`Checker`](super::Checker)'s job).
pub fn parse_trace(text: &str) -> Result<Vec<TraceCmd>, ParseError> {
    let mut out = Vec::new();
    for (i, raw) in text.lines().enumerate() {
        let line_no = i + 1;
        let content = match raw.find('#') {
            Some(p) => &raw[..p],
            None => raw,
        };
        // (1-based char column, token)
        let mut toks: Vec<(usize, &str)> = Vec::new();
        let mut start: Option<usize> = None;
        for (bi, ch) in content.char_indices() {
            if ch.is_whitespace() {
                if let Some(s) = start.take() {
                    toks.push(s_tok(content, s, bi));
                }
            } else if start.is_none() {
                start = Some(bi);
            }
        }
        if let Some(s) = start {
            toks.push(s_tok(content, s, content.len()));
        }
        if toks.is_empty() {
            continue;
        }
        let end_col = content.trim_end().chars().count() + 1;
        if toks.len() < FIELDS.len() {
            return Err(ParseError {
                line: line_no,
                column: end_col,
                message: format!(
                    "expected 7 fields `cycle CMD rank bg bank row col`, found {}; missing `{}`",
                    toks.len(),
                    FIELDS[toks.len()]
                ),
            });
        }
        if toks.len() > FIELDS.len() {
            return Err(ParseError {
                line: line_no,
                column: toks[FIELDS.len()].0,
                message: format!(
                    "expected 7 fields `cycle CMD rank bg bank row col`, found {} (unexpected `{}`)",
                    toks.len(),
                    toks[FIELDS.len()].1
                ),
            });
        }
        let err = |k: usize, what: &str| ParseError {
            line: line_no,
            column: toks[k].0,
            message: format!(
                "field `{}`: expected {}, found `{}`",
                FIELDS[k], what, toks[k].1
            ),
        };
        let cycle: u64 = toks[0]
            .1
            .parse()
            .map_err(|_| err(0, "a decimal cycle number (u64)"))?;
        let cmd = Cmd::from_name(toks[1].1)
            .ok_or_else(|| err(1, "one of ACT PRE PREA RD RDA WR WRA REF"))?;
        let rank: u8 = toks[2]
            .1
            .parse()
            .map_err(|_| err(2, "a decimal number 0..=255"))?;
        let bg: u8 = toks[3]
            .1
            .parse()
            .map_err(|_| err(3, "a decimal number 0..=255"))?;
        let bank: u8 = toks[4]
            .1
            .parse()
            .map_err(|_| err(4, "a decimal number 0..=255"))?;
        let row: u32 = toks[5]
            .1
            .parse()
            .map_err(|_| err(5, "a decimal number (u32)"))?;
        let col: u32 = toks[6]
            .1
            .parse()
            .map_err(|_| err(6, "a decimal number (u32)"))?;
        out.push(TraceCmd {
            cycle,
            cmd,
            rank,
            bg,
            bank,
            row,
            col,
        });
    }
    Ok(out)
}

/// Token starting at byte `s` and ending at byte `e` of `content`, with its 1-based char column.
fn s_tok(content: &str, s: usize, e: usize) -> (usize, &str) {
    (content[..s].chars().count() + 1, &content[s..e])
}
