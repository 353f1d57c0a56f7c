//! The parsers' fuzz targets, a short run of each (the full million per target is `rtgpu fuzz
//! --cases 1000000`), and the inputs that once made them panic or misbehave.

use rtgpu_firmware::isa::assemble;
use rtgpu_testbench::fuzz::{self, Target};

#[test]
fn no_target_panics_on_a_short_run() {
    for t in Target::ALL {
        if let Err(f) = fuzz::run(t, 5000, 7, &|_| {}) {
            panic!("{}: {}", f.target.name(), f.message);
        }
    }
}

#[test]
fn inputs_that_once_panicked_or_misbehaved() {
    let error = |src: &str| assemble(src, "k.s").unwrap_err().msg;
    // A register number at u32::MAX overflowed `first + width` (a panic with debug
    // assertions; without them it wrapped into s255).
    fuzz::asm_one("s_mov_b32 s4294967295, 0");
    assert!(error("s_mov_b32 s4294967295, 0").contains("s0..s101"));
    // Past u32 the number read as a label name ("unknown operand").
    assert!(error("v_mov_b32 v0, v4294967296").contains("VGPRs are v0..v255"));
    // The negation wrapped: -9223372036854775809 read as 9223372036854775807.
    assert!(error("s_mov_b32 s0, -9223372036854775809").contains("-9223372036854775809"));
    // A float past single precision became the literal +inf.
    assert!(error("v_mov_b32 v0, 1e39").contains("single precision"));
    fuzz::config_one("mem_bytes = 18446744073709551615");
    fuzz::ptx_one("");
}
