//! Finished Yosys runs of `rtgpu synth cu`, kept on disk so that a later run synthesizes only
//! the sub-blocks that changed (and an interrupted run resumes where it stopped): the run over
//! the contexts' register file alone takes about half an hour on the four-unit top.
//!
//! A run is keyed by everything its result depends on: Yosys' version, the script and the
//! Verilog it reads. For a sub-block that Verilog is its module tree with the module's own
//! name as `@` ([`super::by_sub_block::trees`]), so the key and the kept `stat` section do
//! not depend on where the sub-block sits; for the top's glue it is the whole `top.v`.

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};

/// The folder, under the synthesis directory, that keeps the runs.
pub const MEMO_DIR: &str = "yosys-memo";

/// The runs kept in `dir/yosys-memo`.
pub struct SynthMemo {
    dir: PathBuf,
}

impl SynthMemo {
    /// The runs kept under the synthesis directory `dir`.
    pub fn new(dir: &Path) -> Self {
        SynthMemo {
            dir: dir.join(MEMO_DIR),
        }
    }

    /// The key of a run: the digest of `parts` (each length-prefixed, so that no two lists
    /// of parts give one text).
    pub fn key(parts: &[&str]) -> String {
        let mut h = Sha256::new();
        for p in parts {
            h.update((p.len() as u64).to_le_bytes());
            h.update(p.as_bytes());
        }
        format!("{:x}", h.finalize())
    }

    fn path(&self, key: &str) -> PathBuf {
        self.dir.join(format!("{key}.stat"))
    }

    /// The run kept under `key`: module `name`'s cells and its `stat` section (with `@` read
    /// as `name`), if a run with that key finished before.
    pub fn load(&self, key: &str, name: &str) -> Option<(u64, String)> {
        let text = std::fs::read_to_string(self.path(key)).ok()?;
        let (cells, stat) = text.split_once('\n')?;
        Some((cells.parse().ok()?, stat.replace('@', name)))
    }

    /// Keeps the finished run `out` of module `name` under `key` (`name` written as `@`). A
    /// failure to write only costs the next run its time, so it is not an error.
    pub fn store(&self, key: &str, name: &str, out: &(u64, String)) {
        let text = format!("{}\n{}", out.0, out.1.replace(name, "@"));
        let tmp = self.dir.join(format!("{key}.tmp"));
        let kept = std::fs::create_dir_all(&self.dir)
            .and_then(|_| std::fs::write(&tmp, text))
            .and_then(|_| std::fs::rename(&tmp, self.path(key)));
        if let Err(e) = kept {
            eprintln!("rtgpu: could not keep the Yosys run of {name}: {e}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_kept_run_is_found_under_its_key_with_the_name_put_back() {
        let dir = std::env::temp_dir().join(format!("rtgpu-memo-{}", std::process::id()));
        let memo = SynthMemo::new(&dir);
        let key = SynthMemo::key(&["yosys 0.9", "script @", "module @(a);"]);
        assert_eq!(memo.load(&key, "top$u0"), None);
        let stat = "=== top$u0 ===\n   Number of cells: 12\n".to_string();
        memo.store(&key, "top$u0", &(12, stat));
        let back = memo.load(&key, "top$u1").expect("kept");
        assert_eq!(
            back,
            (12, "=== top$u1 ===\n   Number of cells: 12\n".into())
        );
        let other = SynthMemo::key(&["yosys 0.9", "script @", "module @(b);"]);
        assert_eq!(memo.load(&other, "top$u0"), None);
        assert_ne!(SynthMemo::key(&["ab", "c"]), SynthMemo::key(&["a", "bc"]));
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
