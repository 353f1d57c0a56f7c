//! The waveform of a lock-step fault: the window of cycles before it, with the inputs, the
//! reference's outputs and the implementation's outputs of the block in three scopes.

use rtgpu_hw::block::{BlockFault, WindowRow};
use std::io;
use std::path::Path;
use vcd::{IdCode, SimulationCommand, TimescaleUnit, Value, VarType, Writer};

/// A VCD identifier-safe name for a port (`ctx[3].spm` → `ctx_3_spm`).
fn wire_name(port: &str) -> String {
    let s: String = port
        .chars()
        .map(|c| if c.is_ascii_alphanumeric() { c } else { '_' })
        .collect();
    s.trim_end_matches('_').to_string()
}

/// The bits of `v`, `width` of them, most significant first.
fn bits(v: u64, width: u32) -> Vec<Value> {
    (0..width)
        .rev()
        .map(|i| {
            if (v >> i) & 1 == 1 {
                Value::V1
            } else {
                Value::V0
            }
        })
        .collect()
}

/// Declares one scope of ports; returns their identifiers.
fn scope(
    w: &mut Writer<impl io::Write>,
    name: &str,
    ports: &[(String, u32, u64)],
) -> io::Result<Vec<IdCode>> {
    w.add_module(name)?;
    let ids = ports
        .iter()
        .map(|(n, width, _)| w.add_var(VarType::Wire, *width, &wire_name(n), None))
        .collect::<io::Result<Vec<_>>>()?;
    w.upscope()?;
    Ok(ids)
}

fn dump(
    w: &mut Writer<impl io::Write>,
    ids: &[IdCode],
    ports: &[(String, u32, u64)],
) -> io::Result<()> {
    for (id, (_, width, v)) in ids.iter().zip(ports) {
        if *width == 1 {
            w.change_scalar(*id, if *v == 1 { Value::V1 } else { Value::V0 })?;
        } else {
            w.change_vector(*id, bits(*v, *width))?;
        }
    }
    Ok(())
}

/// Writes `fault`'s window to `path` (one time unit of 1 ns per block cycle; the
/// mismatching cycle is the last). A fault without a window writes nothing.
pub fn write(fault: &BlockFault, path: &Path) -> io::Result<bool> {
    let Some(first) = fault.window.first() else {
        return Ok(false);
    };
    let file = io::BufWriter::new(std::fs::File::create(path)?);
    let mut w = Writer::new(file);
    w.timescale(1, TimescaleUnit::NS)?;
    w.add_module(&wire_name(&fault.block))?;
    let ids: [Vec<IdCode>; 3] = [
        scope(&mut w, "inputs", &first.inputs)?,
        scope(&mut w, "expected", &first.expected)?,
        scope(&mut w, "got", &first.got)?,
    ];
    w.upscope()?;
    w.enddefinitions()?;
    let mut last = 0;
    for WindowRow {
        cycle,
        inputs,
        expected,
        got,
    } in &fault.window
    {
        w.timestamp(*cycle)?;
        if *cycle == first.cycle {
            w.begin(SimulationCommand::Dumpvars)?;
        }
        for (ids, ports) in ids.iter().zip([inputs, expected, got]) {
            dump(&mut w, ids, ports)?;
        }
        if *cycle == first.cycle {
            w.end()?;
        }
        last = *cycle;
    }
    w.timestamp(last + 1)?;
    Ok(true)
}
