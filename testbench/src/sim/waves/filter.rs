//! The GTKWave process filter that shows instruction words as assembly: GTKWave writes one
//! value a line (hexadecimal, as the trace shows it) and reads one line back per value.

use rtgpu_firmware::isa::decode;
use std::io::{self, BufRead, Write};

/// The assembly of the instruction word `value` (hexadecimal, with or without `0x`), as the
/// project's disassembler prints it. The first word of a two-word instruction decodes with
/// its second word unknown: its mnemonic and `…`. A word that is not an instruction of the
/// subset is `illegal WORD`; a value that is not hexadecimal (X, Z) comes back unchanged.
pub fn insn_text(value: &str) -> String {
    let v = value.trim();
    let digits = v
        .strip_prefix("0x")
        .or_else(|| v.strip_prefix("0X"))
        .unwrap_or(v);
    let Ok(word) = u32::from_str_radix(digits, 16) else {
        return v.to_string();
    };
    match decode(&[word]) {
        Ok((insn, _)) => insn.to_string(),
        Err(_) => match decode(&[word, 0]) {
            Ok((insn, _)) => {
                let text = insn.to_string();
                let mnemonic = text.split_whitespace().next().unwrap_or_default();
                format!("{mnemonic} …")
            }
            Err(_) => format!("illegal {word:08X}"),
        },
    }
}

/// Runs the filter: for every line of `input`, one line of [`insn_text`] on `output`,
/// flushed at once (GTKWave waits for each answer).
pub fn run(input: impl BufRead, mut output: impl Write) -> io::Result<()> {
    for line in input.lines() {
        writeln!(output, "{}", insn_text(&line?))?;
        output.flush()?;
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn words_become_assembly_and_the_rest_passes_through() {
        assert_eq!(insn_text("BF810000"), "s_endpgm");
        assert_eq!(insn_text("0xbf810000"), "s_endpgm");
        assert_eq!(insn_text("xxxxxxxx"), "xxxxxxxx");
        let mut out = Vec::new();
        run(&b"BF810000\nzz\n"[..], &mut out).unwrap();
        assert_eq!(String::from_utf8(out).unwrap(), "s_endpgm\nzz\n");
    }
}
