//! `rtgpu config`: the compute unit configuration that `rtgpu run --config` and the other
//! commands take, in full.

use crate::common::{file_fail, Fail};
use rtgpu_hw::cu::CuConfig;
use rtgpu_testbench::cu::load_config;
use std::path::PathBuf;

/// The arguments of `rtgpu config`.
#[derive(clap::Args)]
#[command(group(clap::ArgGroup::new("what").required(true).args(["file", "defaults"])))]
pub struct ConfigArgs {
    /// A configuration file (TOML if it ends in .toml, else JSON) to check and print in full,
    /// every field it leaves out filled in with its default.
    file: Option<PathBuf>,
    /// Print the default configuration, every field.
    #[arg(long)]
    defaults: bool,
    /// Print JSON instead of TOML.
    #[arg(long)]
    json: bool,
}

/// Prints the configuration; exit 2 when the file cannot be read or is not a valid
/// configuration (unknown field, value out of range).
pub fn run(a: &ConfigArgs) -> Result<(), Fail> {
    let cfg = match &a.file {
        Some(p) => load_config(p).map_err(|e| Fail(2, e))?,
        None => CuConfig::default(),
    };
    let text = if a.json {
        serde_json::to_string_pretty(&cfg)? + "\n"
    } else {
        let path = a.file.clone().unwrap_or_default();
        toml::to_string_pretty(&cfg).map_err(file_fail(1, &path))?
    };
    print!("{text}");
    Ok(())
}
