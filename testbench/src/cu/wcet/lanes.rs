//! How many 128-byte lines a FLAT access may touch, from its lanes' addresses: a forward
//! dataflow over the instruction graph keeps, per VGPR, what is known of its value across the
//! 64 lanes of a wavefront (full wavefronts only: `wg` a multiple of 64):
//!
//! - `Uniform`: the same in every lane (an SGPR, a constant, or built from them);
//! - `Lane(s)`: `u + s · lane (mod 2^32)` for a uniform u (`v0` is `64w + lane`);
//! - `Carry`: `u + c` with c ∈ {0, 1} per lane (`v_addc_u32` of two uniform values);
//! - `Any`: anything.
//!
//! A write while EXEC may be partial (after any instruction that may write EXEC: `split`,
//! `merge`, a VOPC, a `*_saveexec`, a scalar write to `exec`) leaves the lanes it skips with
//! their old values, so it gives `Any`; every control-flow edge is taken by the whole
//! wavefront (divergence is only EXEC), so a join keeps a kind both sides agree on.
//!
//! A FLAT whose address pair is (`Lane(s)` or `Uniform`, `Uniform` or `Carry`) touches at most
//! hi · runs · (⌈(63·|s| + 4n) / 128⌉ + 1) lines: hi ≤ 2 high halves, the low halves of the
//! lanes in ≤ 2 runs (one wrap of 2^32), each run within 63·|s| + 4n bytes; otherwise one line
//! per lane (two for wider than a dword).

use super::graph::Graph;
use rtgpu_hw::isa::insn_model::{format, unit, InsnFields};

/// What is known of a VGPR across the lanes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Val {
    Uniform,
    Lane(i64),
    Carry,
    Any,
}

/// Per VGPR, and whether EXEC is still the launch's.
#[derive(Clone, Debug, PartialEq, Eq)]
struct St {
    v: Vec<Val>,
    exec_full: bool,
}

impl St {
    fn join(&self, o: &St) -> St {
        St {
            v: self
                .v
                .iter()
                .zip(&o.v)
                .map(|(&a, &b)| if a == b { a } else { Val::Any })
                .collect(),
            exec_full: self.exec_full && o.exec_full,
        }
    }
}

/// A 9-bit source operand's value kind.
fn src(s: &St, code: u16) -> Val {
    match code {
        0..=255 => Val::Uniform,
        256..=511 => s.v[usize::from(code - 256)],
        _ => Val::Any,
    }
}

/// An inline integer constant (128..=208) or the literal.
fn konst(f: &InsnFields, code: u16) -> Option<i64> {
    match code {
        128..=192 => Some(i64::from(code) - 128),
        193..=208 => Some(128 - i64::from(code)),
        255 => Some(i64::from(f.imm)),
        _ => None,
    }
}

fn add(a: Val, b: Val) -> Val {
    match (a, b) {
        (Val::Uniform, Val::Uniform) => Val::Uniform,
        (Val::Uniform, Val::Lane(s)) | (Val::Lane(s), Val::Uniform) => Val::Lane(s),
        (Val::Lane(s), Val::Lane(t)) => lane(s + t),
        _ => Val::Any,
    }
}

/// `Lane(s)`, or `Any` when |s| is not below 2^32 (then the lanes' values may wrap more than
/// once).
fn lane(s: i64) -> Val {
    match s.unsigned_abs() < 1 << 32 {
        true => Val::Lane(s),
        false => Val::Any,
    }
}

/// Whether `f` may write EXEC.
pub(super) fn writes_exec(f: &InsnFields) -> bool {
    let salu = matches!(f.format, format::SOP1 | format::SOP2 | format::SOPK);
    // A compare writes EXEC when it is a `v_cmpx_*` (or, VOP3, names EXEC as its SGPR
    // destination); `v_cmp_*` writes VCC or an SGPR pair only.
    let cmpx = match f.opcode {
        0x10..=0x15 => f.opcode & 1 == 1,
        0x20..=0xff => f.opcode & 0x10 != 0,
        _ => false,
    };
    f.unit == unit::PWS
        || (f.format == format::VOPC && cmpx)
        || (f.format == format::VOP3 && f.opcode < 0x100 && (cmpx || matches!(f.dst, 126 | 127)))
        || (salu && matches!(f.dst, 126 | 127))
        || (f.format == format::SOP1 && (0x20..=0x27).contains(&f.opcode))
}

/// The value `f` writes to its VGPR `dst`, when it is one of the recognised forms.
fn value(s: &St, f: &InsnFields) -> Option<Val> {
    let plain = f.abs == 0 && f.neg == 0 && !f.clamp && f.omod == 0;
    // VOP2 opcode o is VOP3 0x100 + o; VOP1 o is 0x140 + o.
    let op = match f.format {
        format::VOP1 => 0x140 + f.opcode,
        format::VOP2 => 0x100 + f.opcode,
        format::VOP3 if plain => f.opcode,
        _ => return None,
    };
    let (a, b) = (
        src(s, f.src0),
        src(s, f.src1 | if f.format == format::VOP2 { 256 } else { 0 }),
    );
    Some(match op {
        0x141 => a,
        0x119 => add(a, b),
        0x11C => match (a, b) {
            (Val::Uniform, Val::Uniform) => Val::Carry,
            _ => Val::Any,
        },
        0x112 => match (konst(f, f.src0), b) {
            (Some(k), Val::Lane(t)) if (0..32).contains(&k) => lane(t << k),
            (Some(_), Val::Uniform) => Val::Uniform,
            _ => Val::Any,
        },
        _ => return None,
    })
}

/// The state after `f`.
fn step(s: &St, f: &InsnFields) -> St {
    let mut o = s.clone();
    let d = usize::from(f.dst);
    let mut set = |r: usize, v: Val| {
        if let Some(x) = o.v.get_mut(r) {
            *x = if s.exec_full { v } else { Val::Any };
        }
    };
    match f.unit {
        unit::VALU if f.format != format::VOPC => match value(s, f) {
            Some(v) => set(d, v),
            None => {
                set(d, Val::Any);
                set(d + 1, Val::Any);
            }
        },
        unit::VMEM | unit::LDS => (0..4).for_each(|k| set(d + k, Val::Any)),
        _ => {}
    }
    o.exec_full = s.exec_full && !writes_exec(f);
    o
}

/// Per node of `g`, the most lines its FLAT access may touch (0 for other instructions);
/// `wg` lanes per work-group.
pub fn lines_per_access(g: &Graph, wg: u32) -> Vec<u64> {
    let lanes = u64::from(wg.clamp(1, 64));
    let per_lane = |n: usize| lanes * if n > 1 { 2 } else { 1 };
    let n = g.nodes.len();
    let states = states(g);
    (0..n)
        .map(|i| {
            let f = &g.nodes[i].f;
            if f.unit != unit::VMEM {
                return 0;
            }
            let dw = rtgpu_hw::cu::memory::dwords(f);
            let full = wg.is_multiple_of(64);
            let tight = states[i]
                .as_ref()
                .filter(|_| full)
                .and_then(|s| address_lines(s, f, dw));
            tight.map_or(per_lane(dw), |t| t.min(per_lane(dw)))
        })
        .collect()
}

/// The lines of an access with address pair `v[src0:src0+1]` in state `s`, if bounded.
fn address_lines(s: &St, f: &InsnFields, dwords: usize) -> Option<u64> {
    let a = usize::from(f.src0);
    let stride = match *s.v.get(a)? {
        Val::Uniform => 0,
        Val::Lane(t) => t,
        _ => return None,
    };
    let hi = match *s.v.get(a + 1)? {
        Val::Uniform => 1,
        Val::Carry => 2,
        _ => return None,
    };
    let span = 63 * stride.unsigned_abs() + 4 * dwords as u64;
    Some(hi * 2 * (span.div_ceil(128) + 1))
}

/// The state before each node (`None`: unreachable).
fn states(g: &Graph) -> Vec<Option<St>> {
    let n = g.nodes.len();
    let mut before: Vec<Option<St>> = vec![None; n];
    if n == 0 {
        return before;
    }
    let mut entry = St {
        v: vec![Val::Any; 256],
        exec_full: true,
    };
    entry.v[0] = Val::Lane(1);
    before[0] = Some(entry);
    let mut work = vec![0usize];
    while let Some(i) = work.pop() {
        let after = step(before[i].as_ref().expect("queued"), &g.nodes[i].f);
        for &j in &g.succs[i] {
            let joined = before[j].as_ref().map_or(after.clone(), |o| o.join(&after));
            if before[j].as_ref() != Some(&joined) {
                before[j] = Some(joined);
                work.push(j);
            }
        }
    }
    before
}
