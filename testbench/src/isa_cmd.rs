//! `rtgpu asm` and `rtgpu disasm`.

use rtgpu_firmware::isa::{assemble, disassemble};
use std::path::Path;

/// Assembles `src`; prints `ADDR: WORD(S)  TEXT` per instruction; writes the little-endian
/// image to `out` if given.
pub fn asm(src: &Path, out: Option<&Path>) -> Result<(), String> {
    let text = std::fs::read_to_string(src).map_err(|e| format!("{}: {e}", src.display()))?;
    let program = assemble(&text, &src.display().to_string()).map_err(|e| e.to_string())?;
    for item in &program.items {
        let words: Vec<String> = item.words.iter().map(|w| format!("{w:08X}")).collect();
        println!("{:04x}: {:<18} {}", item.addr, words.join(" "), item.insn);
    }
    if let Some(out) = out {
        std::fs::write(out, program.bytes()).map_err(|e| format!("{}: {e}", out.display()))?;
    }
    Ok(())
}

/// Disassembles a little-endian code image; the output reassembles to the same words.
pub fn disasm(bin: &Path) -> Result<(), String> {
    let bytes = std::fs::read(bin).map_err(|e| format!("{}: {e}", bin.display()))?;
    if bytes.len() % 4 != 0 {
        return Err(format!(
            "{}: {} bytes is not a whole number of dwords",
            bin.display(),
            bytes.len()
        ));
    }
    let words: Vec<u32> = bytes
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect();
    let items = disassemble(&words).map_err(|e| format!("{}: {e}", bin.display()))?;
    items.iter().for_each(|d| println!("{d}"));
    Ok(())
}
