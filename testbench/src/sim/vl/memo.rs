//! The emitted Verilog of a block, remembered by the block's structure.
//!
//! rust-hdl's Verilog generator compiles a regular expression for every indexed identifier it
//! writes, so emitting all the blocks of `rtgpu run --rtl all` took about 3.5 s of every run,
//! although the models themselves come from the cache. The generator's whole input is the
//! block's hierarchy: every scope's name and `hdl()` body, every signal's name, width, kind,
//! type and (for constants) value. [`fingerprint`] hashes exactly that, without generating
//! anything, and [`verilog`] keeps the generated text under `target/verilator/verilog/`, one
//! file per fingerprint, so a block seen before is read back instead of emitted again.
//!
//! The fingerprint is salted with the generator's version: a different rust-hdl writes new
//! files. Deleting the folder only costs the next run its generation time.

use rust_hdl::core::atom::Atom;
use rust_hdl::core::block::Block;
use rust_hdl::core::probe::Probe;
use sha2::{Digest, Sha256};
use std::path::Path;

/// The generator whose output the memo holds (the fingerprint's salt).
const GENERATOR: &str = "rust-hdl-core 0.46 generate_verilog_unchecked";

/// Hashes the generator's input: the scopes, their `hdl()` bodies and every signal.
struct Hasher(Sha256);

impl Hasher {
    fn put(&mut self, tag: &str, text: &str) {
        self.0.update(tag.as_bytes());
        self.0.update((text.len() as u64).to_le_bytes());
        self.0.update(text.as_bytes());
    }
}

impl Probe for Hasher {
    fn visit_start_scope(&mut self, name: &str, node: &dyn Block) {
        self.put("scope", name);
        self.put("hdl", &format!("{:?}", node.hdl()));
    }
    fn visit_start_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.put("ns", name);
    }
    fn visit_atom(&mut self, name: &str, signal: &dyn Atom) {
        self.put("atom", name);
        let d = format!(
            "{}:{:?}:{:?}:{:?}",
            signal.bits(),
            signal.kind(),
            signal.descriptor(),
            signal.verilog()
        );
        self.put("sig", &d);
    }
    fn visit_end_namespace(&mut self, name: &str, _node: &dyn Block) {
        self.put("/ns", name);
    }
    fn visit_end_scope(&mut self, name: &str, _node: &dyn Block) {
        self.put("/scope", name);
    }
}

/// The block's structure as a hex digest: equal for two blocks whose emitted Verilog is equal
/// by construction (same hierarchy, bodies and signals).
pub fn fingerprint<B: Block>(uut: &B) -> String {
    let mut h = Hasher(Sha256::new());
    h.put("generator", GENERATOR);
    uut.accept("top", &mut h);
    h.0.finalize()
        .iter()
        .take(16)
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// The block's Verilog: read from `dir` when a block of the same structure was emitted before,
/// otherwise `emit`ted and written there (a failed write only costs the next run the time).
pub fn verilog<B: Block>(
    uut: &mut B,
    dir: &Path,
    emit: impl FnOnce(&mut B) -> Result<String, String>,
) -> Result<String, String> {
    uut.connect_all();
    let path = dir.join(format!("{}.v", fingerprint(uut)));
    if let Ok(text) = std::fs::read_to_string(&path) {
        return Ok(text);
    }
    let text = emit(uut)?;
    let tmp = path.with_extension(format!("v.tmp{}", std::process::id()));
    let saved = std::fs::create_dir_all(dir)
        .and_then(|()| std::fs::write(&tmp, &text))
        .and_then(|()| std::fs::rename(&tmp, &path));
    if saved.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    Ok(text)
}
