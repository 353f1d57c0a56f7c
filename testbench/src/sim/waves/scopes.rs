//! Waveform scopes asked for on the command line (`--vcd-scope`), checked against a block's
//! signals and named as the engine's waveform names them.
//!
//! A scope is a dotted path as GTKWave shows it: the harness names the block's root scope
//! after the block (`counter`, `counter.value`), Verilator puts the block under its wrapper
//! (`TOP.vtop.dut`, `TOP.vtop.dut.value`). Either form selects the same signals on either
//! engine (`counter.value` on Verilator is `TOP.vtop.dut.value`), so one command line works
//! on both. A path naming a signal selects that signal alone. A path that is in neither form
//! is an error naming the block's top-level scopes.

use crate::sim::signals::SignalInfo;
use crate::sim::vl::VL_ROOT;

/// Verilator's scopes above the block, which hold copies of its ports under plain names.
const VL_ABOVE: [&str; 2] = ["TOP", "TOP.vtop"];

/// Top-level scopes listed at most in an error.
const LISTED: usize = 24;

/// Checks every path of `asked` against `signals` (the block's, its root scope named `root`)
/// and returns them as the waveform names them: Verilator's form when `verilator`, else the
/// harness's. `Err`: the first path that names no scope or signal of the block, with the
/// block's top-level scopes (the root and the scopes right below it) in the engine's form.
pub fn resolve(
    signals: &[SignalInfo],
    root: &str,
    asked: &[String],
    verilator: bool,
) -> Result<Vec<String>, String> {
    let mut out = Vec::new();
    for a in asked {
        let a = a.trim();
        if verilator && VL_ABOVE.contains(&a) {
            out.push(a.to_string());
            continue;
        }
        let path = below(a, VL_ROOT).map_or_else(|| a.to_string(), |rest| format!("{root}{rest}"));
        let known = below(&path, root).is_some() && signals.iter().any(|s| s.is_in_scope(&path));
        if !known {
            return Err(format!(
                "--vcd-scope {a}: no such scope or signal in the waveform of `{root}`; its \
                 top-level scopes: {}",
                top_level(signals, root, verilator).join(", ")
            ));
        }
        out.push(match verilator {
            true => engine_form(&path, root),
            false => path,
        });
    }
    Ok(out)
}

/// The rest of `path` after `root` (`""` or `.x.y`), if `path` is `root` or below it.
fn below<'a>(path: &'a str, root: &str) -> Option<&'a str> {
    path.strip_prefix(root)
        .filter(|rest| rest.is_empty() || rest.starts_with('.'))
}

/// A harness path (`root...`) in Verilator's form (`TOP.vtop.dut...`).
fn engine_form(path: &str, root: &str) -> String {
    below(path, root).map_or_else(|| path.to_string(), |rest| format!("{VL_ROOT}{rest}"))
}

/// The root scope and the scopes right below it, in the engine's form (Verilator's when
/// `verilator`; at most 24, then a count of the rest).
pub fn top_level(signals: &[SignalInfo], root: &str, verilator: bool) -> Vec<String> {
    let mut scopes: Vec<String> = vec![root.to_string()];
    for s in signals {
        if s.scope.len() >= 2 {
            let sub = format!("{root}.{}", s.scope[1]);
            if !scopes.contains(&sub) {
                scopes.push(sub);
            }
        }
    }
    let total = scopes.len();
    let mut named: Vec<String> = match verilator {
        true => VL_ABOVE
            .iter()
            .map(|s| s.to_string())
            .chain(scopes.iter().take(LISTED).map(|p| engine_form(p, root)))
            .collect(),
        false => scopes.into_iter().take(LISTED).collect(),
    };
    if total > LISTED {
        named.push(format!("… ({} more)", total - LISTED));
    }
    named
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sim::signals::Role;

    fn sig(scope: &[&str], name: &str) -> SignalInfo {
        SignalInfo {
            scope: scope.iter().map(|s| s.to_string()).collect(),
            name: name.into(),
            width: 1,
            role: Role::Internal,
            variants: None,
            is_clock: false,
            index: 0,
        }
    }

    #[test]
    fn either_form_resolves_to_the_engines_and_unknown_paths_list_the_top_level() {
        let s = [sig(&["counter"], "count"), sig(&["counter", "value"], "q")];
        let ask = |a: &str, vl| resolve(&s, "counter", &[a.to_string()], vl);
        assert_eq!(ask("counter.value", false).unwrap(), ["counter.value"]);
        assert_eq!(ask("TOP.vtop.dut.value", false).unwrap(), ["counter.value"]);
        assert_eq!(ask("counter.value", true).unwrap(), ["TOP.vtop.dut.value"]);
        assert_eq!(ask("counter.count", true).unwrap(), ["TOP.vtop.dut.count"]);
        assert_eq!(ask("TOP.vtop", true).unwrap(), ["TOP.vtop"]);
        let e = ask("counter.val", false).unwrap_err();
        assert!(
            e.ends_with("top-level scopes: counter, counter.value"),
            "{e}"
        );
        let e = ask("TOP", false).unwrap_err();
        assert!(e.contains("--vcd-scope TOP:"), "{e}");
        let e = ask("nope", true).unwrap_err();
        assert!(
            e.ends_with("TOP, TOP.vtop, TOP.vtop.dut, TOP.vtop.dut.value"),
            "{e}"
        );
    }
}
