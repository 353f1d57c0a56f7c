//! `rtgpu list`: the blocks and their testbenches.

use crate::common::Fail;
use rtgpu_testbench::tb;

/// The arguments of `rtgpu list`.
#[derive(clap::Args)]
pub struct ListArgs {
    /// Print JSON instead of a table.
    #[arg(long)]
    json: bool,
}

/// Prints every block's name and description, as a table or a JSON array.
pub fn run(a: &ListArgs) -> Result<(), Fail> {
    if a.json {
        let items: Vec<_> = tb::all()
            .iter()
            .map(|t| serde_json::json!({"name": t.name(), "description": t.description()}))
            .collect();
        println!("{}", serde_json::Value::Array(items));
    } else {
        for t in tb::all() {
            println!("{:<10} {}", t.name(), t.description());
        }
    }
    Ok(())
}
