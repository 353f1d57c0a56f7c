//! The command-line options that choose the RTL engine.

use super::Engine;

/// Which engine evaluates the RTL, and the waveform window of the Verilator engine.
#[derive(clap::Args, Clone, Debug)]
pub struct EngineArgs {
    /// The RTL engine: rust-hdl's own evaluation, or the block's Verilog Verilated (built
    /// once, cached under target/verilator/).
    #[arg(long, value_enum, default_value_t = Engine::Harness)]
    pub engine: Engine,
    /// Record only cycles FROM..=TO of the waveforms (either engine, and `rtgpu run --vcd`);
    /// the .gtkw opens on them. The files stay small on long runs.
    #[arg(long, value_name = "FROM:TO", value_parser = parse_window)]
    pub vcd_window: Option<(u64, u64)>,
    /// Record only the signals in this scope of the waveforms (repeatable, or a comma list):
    /// a dotted path as GTKWave shows it (`counter.value`, or Verilator's
    /// `TOP.vtop.dut.value`: either form on either engine). A scope in no waveform is an error
    /// naming the top-level scopes.
    #[arg(long, value_name = "SCOPE", value_delimiter = ',')]
    pub vcd_scope: Vec<String>,
}

impl EngineArgs {
    /// The waveform window in ps (block clocks run at 1 ns).
    pub fn window_ps(&self) -> (u64, u64) {
        let p = crate::tb::TB_PERIOD_PS;
        self.vcd_window.map_or((0, u64::MAX), |(a, b)| {
            (
                a.saturating_mul(p),
                b.saturating_mul(p).saturating_add(p - 1),
            )
        })
    }
}

/// `FROM:TO` in cycles, FROM ≤ TO.
fn parse_window(s: &str) -> Result<(u64, u64), String> {
    let (a, b) = s
        .split_once(':')
        .ok_or_else(|| format!("`{s}`: expected FROM:TO (cycles)"))?;
    let num = |x: &str| {
        x.trim()
            .parse::<u64>()
            .map_err(|e| format!("`{x}` in `{s}`: {e}"))
    };
    let (a, b) = (num(a)?, num(b)?);
    if a > b {
        return Err(format!("`{s}`: FROM is after TO"));
    }
    Ok((a, b))
}
