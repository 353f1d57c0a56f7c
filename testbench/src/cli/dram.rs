//! `rtgpu dram`: the Sim-D DRAM controller (hw/src/dram/): one request's LID and command
//! trace, LID sweeps over all word alignments, per-size tables against Sim-D's Eq. 15.

use crate::common::{print_json_or, progress, Fail};
use clap::Subcommand;
use rtgpu_hw::dram::Part;
use rtgpu_testbench::tb::dram::cli::{self, CliError};
use rtgpu_testbench::tb::dram::sweep;
use std::path::PathBuf;

/// The arguments of `rtgpu dram`: a subcommand.
#[derive(clap::Args)]
pub struct DramArgs {
    /// The subcommand.
    #[command(subcommand)]
    cmd: DramCmd,
}

/// The subcommands of `rtgpu dram`.
#[derive(Subcommand)]
enum DramCmd {
    /// One tile request (or, with --indexes, an iterative indexed request) from an idle
    /// controller; prints
    /// `lid=<cycles> cmds=<n> acts=<n> cas=<n> util=<percent>` (LID in DRAM cycles from the
    /// trigger to the earliest next request; util = CAS · 4 cycles / LID).
    Request(RequestArgs),
    /// LID of a contiguous request over all 4096 word alignments of a bank-pair span; prints
    /// `min=<> max=<> bound=<> bounds=yes|no` (bound: Eq. 15 for the worst burst count +
    /// front-end; bounds=no when some alignment exceeds it).
    Sweep(SweepArgs),
    /// The sweep for every size from 1 to --max-bursts bursts: min, max, bound and gap.
    Table(TableArgs),
    /// 2D tiles: the LID of every --words × --rows × --period shape over the first 256 start
    /// words, with the data-bus use at the worst start (a table, --json or --csv).
    Tiles(TilesArgs),
}

/// The arguments of `rtgpu dram tiles`.
#[derive(clap::Args)]
struct TilesArgs {
    /// Part and direction.
    #[command(flatten)]
    target: Target,
    /// Words per row, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,8,16,32,64")]
    words: Vec<u64>,
    /// Rows, comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "4,16,64")]
    rows: Vec<u64>,
    /// Words from one row's start to the next (the width of the buffer the tile is cut
    /// from), comma-separated.
    #[arg(long, value_delimiter = ',', default_value = "1024")]
    period: Vec<u64>,
    /// Print JSON.
    #[arg(long, conflicts_with = "csv")]
    json: bool,
    /// Print CSV (`words,rows,period,min,max,worst_addr,util`).
    #[arg(long)]
    csv: bool,
}

/// The arguments of `rtgpu dram request`.
#[derive(clap::Args)]
struct RequestArgs {
    /// DDR4 part: ddr4-3200aa-x16, ddr4-3200aa-x8, ddr4-1866m-x16.
    #[arg(long, default_value = "ddr4-3200aa-x16")]
    part: String,
    /// read or write.
    #[arg(long, default_value = "read")]
    dir: String,
    /// First word address (32-bit words).
    #[arg(long, default_value_t = 0)]
    addr: u64,
    /// Words per row (required for a tile request).
    #[arg(long, required_unless_present = "indexes")]
    words: Option<u64>,
    /// An iterative indexed request instead of a tile: the word addresses in FILE (decimal or
    /// 0x hex, separated by white space or commas, `#` comments; 1 to 65,535).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["words", "period", "count", "addr"])]
    indexes: Option<PathBuf>,
    /// Words from one row's start to the next (default: --words).
    #[arg(long)]
    period: Option<u64>,
    /// Rows.
    #[arg(long, default_value_t = 1)]
    count: u64,
    /// Write the command trace (`cycle CMD rank bg bank row col`) here.
    #[arg(long)]
    trace: Option<PathBuf>,
    /// Run the RTL too and write this VCD (and a .gtkw beside it).
    #[arg(long)]
    vcd: Option<PathBuf>,
}

/// The part and direction of `rtgpu dram sweep` and `table`.
#[derive(clap::Args)]
struct Target {
    /// DDR4 part.
    #[arg(long, default_value = "ddr4-3200aa-x16")]
    part: String,
    /// read or write.
    #[arg(long, default_value = "read")]
    dir: String,
}

/// The arguments of `rtgpu dram sweep`.
#[derive(clap::Args)]
struct SweepArgs {
    /// Part and direction.
    #[command(flatten)]
    target: Target,
    /// Words per request.
    #[arg(long)]
    words: u64,
    /// Print JSON (with `bounded`: false where Eq. 15 does not bound the maximum).
    #[arg(long)]
    json: bool,
}

/// The arguments of `rtgpu dram table`.
#[derive(clap::Args)]
struct TableArgs {
    /// Part and direction.
    #[command(flatten)]
    target: Target,
    /// Largest size in bursts.
    #[arg(long, default_value_t = 128)]
    max_bursts: u32,
    /// Print JSON.
    #[arg(long)]
    json: bool,
}

/// Runs the subcommand.
pub fn run(a: &DramArgs) -> Result<(), Fail> {
    match &a.cmd {
        DramCmd::Request(r) => request(r),
        DramCmd::Sweep(s) => sweep(s),
        DramCmd::Table(t) => table(t),
        DramCmd::Tiles(t) => tiles(t),
    }
}

/// The failure of a [`CliError`], its exit code kept.
fn coded(e: CliError) -> Fail {
    Fail(e.0, e.1)
}

/// The `--part` and whether `--dir` is a write (exit code 2 if either is unknown).
fn part_dir(part: &str, dir: &str) -> Result<(Part, bool), Fail> {
    let part = cli::part(part).map_err(coded)?;
    Ok((part, cli::direction(dir).map_err(coded)?))
}

/// `request`: runs the tile request and prints its summary line.
fn request(r: &RequestArgs) -> Result<(), Fail> {
    let (part, write) = part_dir(&r.part, &r.dir)?;
    let req = match (&r.indexes, r.words) {
        (Some(path), _) => {
            let text = rtgpu_testbench::cu::read_input(path).map_err(|e| Fail(2, e))?;
            cli::indexes(write, &path.display().to_string(), &text).map_err(coded)?
        }
        (None, Some(words)) => cli::tile(write, r.addr, words, r.period, r.count).map_err(coded)?,
        (None, None) => return Err(Fail(2, "--words or --indexes is required".into())),
    };
    let line = cli::request(&part, &req, r.trace.as_deref(), r.vcd.as_deref()).map_err(coded)?;
    println!("{line}");
    Ok(())
}

/// `sweep`: prints the LID range over all alignments and the bound.
fn sweep(s: &SweepArgs) -> Result<(), Fail> {
    let (part, write) = part_dir(&s.target.part, &s.target.dir)?;
    let sweep = cli::sweep_words(&part, write, s.words).map_err(coded)?;
    print_json_or(s.json, &sweep, |s| format!("{}\n", cli::sweep_line(s)))
}

/// `table`: prints the sweep of every size as a table or JSON.
fn table(t: &TableArgs) -> Result<(), Fail> {
    let (part, write) = part_dir(&t.target.part, &t.target.dir)?;
    let rows = cli::table_rows(&part, write, t.max_bursts).map_err(coded)?;
    print_json_or(t.json, &rows, |rows| cli::render(rows))
}

/// `tiles`: the 2D tile sweep as a table or JSON.
fn tiles(t: &TilesArgs) -> Result<(), Fail> {
    let (part, write) = part_dir(&t.target.part, &t.target.dir)?;
    let shapes = cli::tile_shapes(write, &t.words, &t.rows, &t.period).map_err(coded)?;
    let bar = progress(shapes.len() as u64, "tiles");
    let rows = sweep::tiles(&part, write, &shapes, || bar.inc(1)).map_err(|e| Fail(1, e))?;
    bar.finish_and_clear();
    if t.csv {
        print!("{}", cli::tiles_csv(&rows));
        return Ok(());
    }
    print_json_or(t.json, &rows, |rows| cli::render_tiles(rows))
}
