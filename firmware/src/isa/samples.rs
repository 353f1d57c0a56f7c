//! Sample assembly lines of instructions, for tests that run one instruction at a time.

use super::{Op, Sig};

/// Two assembly lines of a two-source vector ALU instruction with fixed registers, for tests
/// that run one instruction on chosen rows: its 32-bit encoding and its `_e64` form (sources
/// v1 and v2, VGPR destination v3, mask destination VCC or s\[8:9\], mask source VCC or
/// s\[6:7\]; `v_readfirstlane_b32` reads v1 into s4 and v2 into s5, a VOP3-only operation
/// writes f(v1, v2) to v3 and f(v2, v1) to v4); `None` for the other signatures (scalar,
/// memory, three-source and 64-bit vector operations).
pub fn vector_alu_lines(op: Op) -> Option<[String; 2]> {
    let (name, sig) = (op.info().name, op.info().sig);
    let e64 = format!("{name}_e64");
    let pair = |a: String, b: String| Some([a, b]);
    match sig {
        Sig::Vop1 => pair(format!("{name} v3, v1"), format!("{e64} v3, v1")),
        Sig::ReadLane => pair(format!("{name} s4, v1"), format!("{name} s5, v2")),
        Sig::Vop2 => pair(format!("{name} v3, v1, v2"), format!("{e64} v3, v1, v2")),
        Sig::Carry => pair(
            format!("{name} v3, vcc, v1, v2"),
            format!("{e64} v3, s[8:9], v1, v2 clamp"),
        ),
        Sig::CarryIn => pair(
            format!("{name} v3, vcc, v1, v2, vcc"),
            format!("{e64} v3, s[8:9], v1, v2, s[6:7] clamp"),
        ),
        Sig::Cndmask => pair(
            format!("{name} v3, v1, v2, vcc"),
            format!("{e64} v3, v1, v2, s[6:7]"),
        ),
        Sig::Vopc => pair(
            format!("{name} vcc, v1, v2"),
            format!("{e64} s[8:9], v1, v2"),
        ),
        Sig::Vop3(1, 1, 1, 0) => pair(format!("{name} v3, v1, v2"), format!("{name} v4, v2, v1")),
        _ => None,
    }
}
