//! Independent random test stimulus: single lines of LLVM AMDGPU assembly for the GCN3
//! subset of the firmware assembler, in the syntax of `llvm-mc-14 -arch=amdgcn -mcpu=fiji`.
//!
//! Written without looking at the assembler, from llvm-mc's behaviour alone; every line is
//! meant to be accepted by llvm-mc (`tests/gen_selfcheck.rs` proves it). The llvm-mc rules
//! that shape a choice are noted next to it; the main ones:
//! - SGPR tuples are aligned (pairs even, quads to 4); VGPR tuples are not. s101 is the last
//!   SGPR (so the last quad is `s[96:99]`).
//! - A SOP instruction carries at most one literal *value* (the same value twice is fine).
//! - VOP3 on gfx8 takes no literal, and reads at most one distinct scalar register (constant
//!   bus); `s4` and `s[4:5]` count as two. A carry-in/condition pair occupies the bus itself,
//!   and so does the implicit `vcc` of `v_addc_u32_e32`/`v_cndmask_b32_e32` (their src0 is then
//!   a VGPR or an inline constant, never an SGPR nor a literal).
//! - 32-bit slots inline the float patterns (`0x3f800000` is `1.0`) and `0xffffffff` (`-1`);
//!   64-bit slots do not (there `0xffffffff` is a literal), and reject `0.15915494`.
//! - Source modifiers (neg/abs) only on float sources, `clamp` before `mul:N`/`div:2`.
//!
//! Usage from an integration test: `#[path = "support/gen.rs"] mod gen;`.
#![allow(dead_code)] // each test crate that includes this file uses only part of it

use rand::seq::SliceRandom;
use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::sync::OnceLock;

/// Every mnemonic form the generator knows (for coverage checks), e.g. "v_add_f32_e32",
/// "v_add_f32_e64", "s_load_dwordx2".
pub fn forms() -> Vec<&'static str> {
    table().iter().map(|f| f.name).collect()
}

/// One random line for the given form (a name from [`forms`]).
///
/// Panics on an unknown form name.
pub fn line_for(form: &str, rng: &mut impl Rng) -> String {
    let f = table()
        .iter()
        .find(|f| f.name == form)
        .unwrap_or_else(|| panic!("unknown form {form:?}"));
    render(f, rng)
}

/// `n` random lines covering the forms round-robin (line `i` is form `i % forms().len()`).
pub fn lines(seed: u64, n: usize) -> Vec<String> {
    let mut rng = ChaCha8Rng::seed_from_u64(seed);
    let t = table();
    (0..n).map(|i| render(&t[i % t.len()], &mut rng)).collect()
}

// ---------------------------------------------------------------------------------------
// Form table
// ---------------------------------------------------------------------------------------

/// One form: its coverage name, the mnemonic it is built on, and its operand shape.
struct Form {
    name: &'static str,
    op: &'static str,
    shape: Shape,
}

/// Operand width of a scalar slot.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Width {
    B32,
    B64,
}

/// Which VOP3 modifiers llvm-mc accepts for an opcode.
#[derive(Clone, Copy)]
struct Mods {
    /// Source negate/absolute value (`-v1`, `|v1|`, `neg(..)`, `abs(..)`).
    neg_abs: bool,
    /// Output `clamp`.
    clamp: bool,
    /// Output modifier `mul:2`, `mul:4`, `div:2`.
    omod: bool,
}

const NO_MODS: Mods = Mods {
    neg_abs: false,
    clamp: false,
    omod: false,
};
const CLAMP: Mods = Mods {
    neg_abs: false,
    clamp: true,
    omod: false,
};
/// Int-to-float conversions: clamp and omod, but no source modifiers.
const TO_FLOAT: Mods = Mods {
    neg_abs: false,
    clamp: true,
    omod: true,
};
const FLOAT: Mods = Mods {
    neg_abs: true,
    clamp: true,
    omod: true,
};
/// Float compares: source modifiers and clamp, no omod.
const CMP_FLOAT: Mods = Mods {
    neg_abs: true,
    clamp: true,
    omod: false,
};
/// `v_cndmask_b32_e64`: source modifiers only.
const SELECT: Mods = Mods {
    neg_abs: true,
    clamp: false,
    omod: false,
};

/// Operand layout of a form; `e64` selects the VOP3 encoding of a VOP1/VOP2/VOPC opcode.
#[derive(Clone, Copy)]
enum Shape {
    Sop2 { dst: Width, a: Width, b: Width },
    Sopk { signed: bool },
    Sop1 { width: Width },
    GetPc,
    SetPc,
    Sopc,
    Nop,
    Bare,
    Branch,
    Waitcnt,
    Sleep,
    SmemLoad { dwords: u32 },
    SmemStore,
    Vop1 { e64: bool, mods: Mods },
    ReadFirstLane,
    Vop2 { e64: bool, mods: Mods },
    Carry { e64: bool },
    Addc { e64: bool },
    Cndmask { e64: bool },
    Vopc { e64: bool, mods: Mods },
    Vopc64 { e64: bool },
    Vop3 { srcs: u32, mods: Mods },
    Lshl64,
    MadU64,
    FlatLoad { dwords: u32 },
    FlatStore { dwords: u32 },
    DsRead,
    DsWrite,
    DsRead2,
    DsWrite2,
}

/// The form table, built once.
fn table() -> &'static [Form] {
    static TABLE: OnceLock<Vec<Form>> = OnceLock::new();
    TABLE.get_or_init(|| {
        let mut t = Vec::new();
        scalar_forms(&mut t);
        vector_forms(&mut t);
        memory_forms(&mut t);
        t
    })
}

/// A `'static` copy of a built name (the table is built once, so this leaks a bounded amount).
fn leak(s: String) -> &'static str {
    Box::leak(s.into_boxed_str())
}

/// Adds a form named after its mnemonic.
fn push(t: &mut Vec<Form>, op: &'static str, shape: Shape) {
    t.push(Form {
        name: op,
        op,
        shape,
    });
}

/// Adds a form named `op` + `suffix`.
fn push_suffixed(t: &mut Vec<Form>, op: &'static str, suffix: &str, shape: Shape) {
    t.push(Form {
        name: leak(format!("{op}{suffix}")),
        op,
        shape,
    });
}

const COND6: [&str; 6] = ["eq", "lg", "gt", "ge", "lt", "le"];

/// SOP2, SOPK, SOP1, SOPC and SOPP forms.
fn scalar_forms(t: &mut Vec<Form>) {
    use Width::*;
    const SOP2_32: [&str; 21] = [
        "s_add_u32",
        "s_sub_u32",
        "s_addc_u32",
        "s_subb_u32",
        "s_add_i32",
        "s_sub_i32",
        "s_min_i32",
        "s_min_u32",
        "s_max_i32",
        "s_max_u32",
        "s_and_b32",
        "s_or_b32",
        "s_xor_b32",
        "s_andn2_b32",
        "s_orn2_b32",
        "s_lshl_b32",
        "s_lshr_b32",
        "s_ashr_i32",
        "s_mul_i32",
        "s_cselect_b32",
        "s_bfe_u32",
    ];
    const SOP2_64: [&str; 6] = [
        "s_and_b64",
        "s_or_b64",
        "s_xor_b64",
        "s_andn2_b64",
        "s_orn2_b64",
        "s_cselect_b64",
    ];
    for op in SOP2_32 {
        push(
            t,
            op,
            Shape::Sop2 {
                dst: B32,
                a: B32,
                b: B32,
            },
        );
    }
    for op in SOP2_64 {
        push(
            t,
            op,
            Shape::Sop2 {
                dst: B64,
                a: B64,
                b: B64,
            },
        );
    }
    // 64-bit shifts take a 32-bit shift amount.
    for op in ["s_lshl_b64", "s_lshr_b64", "s_ashr_i64"] {
        push(
            t,
            op,
            Shape::Sop2 {
                dst: B64,
                a: B64,
                b: B32,
            },
        );
    }
    for op in ["s_movk_i32", "s_addk_i32", "s_mulk_i32"] {
        push(t, op, Shape::Sopk { signed: true });
    }
    for c in COND6 {
        for ty in ["i32", "u32"] {
            let op = leak(format!("s_cmpk_{c}_{ty}"));
            push(
                t,
                op,
                Shape::Sopk {
                    signed: ty == "i32",
                },
            );
        }
    }
    for op in ["s_mov_b32", "s_not_b32"] {
        push(t, op, Shape::Sop1 { width: B32 });
    }
    for op in [
        "s_mov_b64",
        "s_not_b64",
        "s_and_saveexec_b64",
        "s_or_saveexec_b64",
        "s_xor_saveexec_b64",
        "s_swappc_b64",
    ] {
        push(t, op, Shape::Sop1 { width: B64 });
    }
    push(t, "s_getpc_b64", Shape::GetPc);
    push(t, "s_setpc_b64", Shape::SetPc);
    for c in COND6 {
        for ty in ["i32", "u32"] {
            push(t, leak(format!("s_cmp_{c}_{ty}")), Shape::Sopc);
        }
    }
    sopp_forms(t);
}

/// SOPP forms.
fn sopp_forms(t: &mut Vec<Form>) {
    push(t, "s_nop", Shape::Nop);
    push(t, "s_endpgm", Shape::Bare);
    push(t, "s_barrier", Shape::Bare);
    for op in [
        "s_branch",
        "s_cbranch_scc0",
        "s_cbranch_scc1",
        "s_cbranch_vccz",
        "s_cbranch_vccnz",
        "s_cbranch_execz",
        "s_cbranch_execnz",
    ] {
        push(t, op, Shape::Branch);
    }
    push(t, "s_waitcnt", Shape::Waitcnt);
    push(t, "s_sleep", Shape::Sleep);
}

/// Adds the `_e32` and `_e64` forms of one VOP1/VOP2/VOPC opcode.
fn push_e32_e64(t: &mut Vec<Form>, op: &'static str, shape: impl Fn(bool) -> Shape) {
    push_suffixed(t, op, "_e32", shape(false));
    push_suffixed(t, op, "_e64", shape(true));
}

/// VOP1, VOP2, VOPC and VOP3-only forms.
fn vector_forms(t: &mut Vec<Form>) {
    for (op, mods) in [
        ("v_mov_b32", NO_MODS),
        ("v_cvt_f32_i32", TO_FLOAT),
        ("v_cvt_f32_u32", TO_FLOAT),
        ("v_cvt_i32_f32", FLOAT),
        ("v_cvt_u32_f32", FLOAT),
        ("v_rcp_f32", FLOAT),
        ("v_rcp_iflag_f32", FLOAT),
        ("v_sqrt_f32", FLOAT),
        ("v_not_b32", NO_MODS),
    ] {
        push_e32_e64(t, op, |e64| Shape::Vop1 { e64, mods });
    }
    // llvm-mc has no e64 variant of v_readfirstlane_b32.
    push_suffixed(t, "v_readfirstlane_b32", "_e32", Shape::ReadFirstLane);
    for (op, mods) in [
        ("v_add_f32", FLOAT),
        ("v_sub_f32", FLOAT),
        ("v_subrev_f32", FLOAT),
        ("v_mul_f32", FLOAT),
        ("v_min_f32", FLOAT),
        ("v_max_f32", FLOAT),
        ("v_mac_f32", FLOAT),
        ("v_mul_u32_u24", CLAMP),
        ("v_and_b32", NO_MODS),
        ("v_or_b32", NO_MODS),
        ("v_xor_b32", NO_MODS),
        ("v_lshlrev_b32", NO_MODS),
        ("v_lshrrev_b32", NO_MODS),
        ("v_ashrrev_i32", NO_MODS),
        ("v_min_i32", NO_MODS),
        ("v_max_i32", NO_MODS),
        ("v_min_u32", NO_MODS),
        ("v_max_u32", NO_MODS),
    ] {
        push_e32_e64(t, op, |e64| Shape::Vop2 { e64, mods });
    }
    for op in ["v_add_u32", "v_sub_u32", "v_subrev_u32"] {
        push_e32_e64(t, op, |e64| Shape::Carry { e64 });
    }
    for op in ["v_addc_u32", "v_subb_u32", "v_subbrev_u32"] {
        push_e32_e64(t, op, |e64| Shape::Addc { e64 });
    }
    push_e32_e64(t, "v_cndmask_b32", |e64| Shape::Cndmask { e64 });
    vopc_forms(t);
    for (op, srcs, mods) in [
        ("v_mad_f32", 3, FLOAT),
        ("v_fma_f32", 3, FLOAT),
        ("v_mad_u32_u24", 3, CLAMP),
        ("v_mul_lo_u32", 2, NO_MODS),
        ("v_mul_hi_u32", 2, NO_MODS),
        ("v_bfe_u32", 3, NO_MODS),
        ("v_alignbit_b32", 3, NO_MODS),
        ("v_max3_i32", 3, NO_MODS),
    ] {
        push(t, op, Shape::Vop3 { srcs, mods });
    }
    push(t, "v_lshlrev_b64", Shape::Lshl64);
    push(t, "v_mad_u64_u32", Shape::MadU64);
}

/// All v_cmp/v_cmpx forms, e32 and e64.
fn vopc_forms(t: &mut Vec<Form>) {
    for prefix in ["v_cmp", "v_cmpx"] {
        for c in ["eq", "ne", "lt", "le", "gt", "ge"] {
            for ty in ["i32", "u32"] {
                let op = leak(format!("{prefix}_{c}_{ty}"));
                push_e32_e64(t, op, |e64| Shape::Vopc { e64, mods: NO_MODS });
            }
        }
        if prefix == "v_cmp" {
            for c in ["eq", "ne"] {
                let op = leak(format!("{prefix}_{c}_u64"));
                push_e32_e64(t, op, |e64| Shape::Vopc64 { e64 });
            }
        }
        for c in ["eq", "neq", "lt", "le", "gt", "ge"] {
            let op = leak(format!("{prefix}_{c}_f32"));
            push_e32_e64(t, op, |e64| Shape::Vopc {
                e64,
                mods: CMP_FLOAT,
            });
        }
    }
}

/// SMEM, FLAT and DS forms.
fn memory_forms(t: &mut Vec<Form>) {
    for (op, dwords) in [
        ("s_load_dword", 1),
        ("s_load_dwordx2", 2),
        ("s_load_dwordx4", 4),
    ] {
        push(t, op, Shape::SmemLoad { dwords });
    }
    push(t, "s_store_dword", Shape::SmemStore);
    for (op, dwords) in [
        ("flat_load_dword", 1),
        ("flat_load_dwordx2", 2),
        ("flat_load_dwordx4", 4),
    ] {
        push(t, op, Shape::FlatLoad { dwords });
    }
    for (op, dwords) in [
        ("flat_store_dword", 1),
        ("flat_store_dwordx2", 2),
        ("flat_store_dwordx4", 4),
    ] {
        push(t, op, Shape::FlatStore { dwords });
    }
    push(t, "ds_read_b32", Shape::DsRead);
    push(t, "ds_write_b32", Shape::DsWrite);
    push(t, "ds_add_u32", Shape::DsWrite);
    push(t, "ds_read2_b32", Shape::DsRead2);
    push(t, "ds_write2_b32", Shape::DsWrite2);
}

/// Renders one random line of form `f`.
fn render<R: Rng>(f: &Form, r: &mut R) -> String {
    let op = f.op;
    match f.shape {
        Shape::Sop2 { dst, a, b } => sop2(r, op, dst, a, b),
        Shape::Sopk { signed } => format!("{op} {}, {}", sdst32(r), simm16(r, signed)),
        Shape::Sop1 { width } => format!("{op} {}, {}", sdst(r, width), ssrc(r, width).text),
        Shape::GetPc => format!("{op} {}", sreg64(r)),
        Shape::SetPc => format!("{op} {}", sreg64(r)),
        Shape::Sopc => sopc(r, op),
        Shape::Nop => format!("{op} {}", small_or_u16(r, 15)),
        Shape::Bare => op.to_string(),
        Shape::Branch => format!("{op} {}", branch_offset(r)),
        Shape::Waitcnt => format!("{op} {}", waitcnt(r)),
        Shape::Sleep => format!("{op} {}", small_or_u16(r, 127)),
        Shape::SmemLoad { dwords } => smem_load(r, op, dwords),
        Shape::SmemStore => smem_store(r, op),
        Shape::Vop1 { e64, mods } => vop1(r, op, e64, mods),
        Shape::ReadFirstLane => format!("{} {}, {}", e32_name(r, op), sdst32(r), vgpr(r)),
        Shape::Vop2 { e64, mods } => vop2(r, op, e64, mods),
        Shape::Carry { e64 } => carry(r, op, e64),
        Shape::Addc { e64 } => addc(r, op, e64),
        Shape::Cndmask { e64 } => cndmask(r, op, e64),
        Shape::Vopc { e64, mods } => vopc(r, op, e64, mods),
        Shape::Vop3 { srcs, mods } => vop3(r, op, srcs, mods),
        Shape::Lshl64 => lshl64(r, op),
        Shape::MadU64 => mad_u64(r, op),
        Shape::Vopc64 { e64 } => vopc64(r, op, e64),
        Shape::FlatLoad { dwords } => {
            format!(
                "{op} {}, {}{}",
                vdata(r, dwords),
                vtuple(r, 2),
                flat_cache(r)
            )
        }
        Shape::FlatStore { dwords } => {
            format!(
                "{op} {}, {}{}",
                vtuple(r, 2),
                vdata(r, dwords),
                flat_cache(r)
            )
        }
        Shape::DsRead => format!("{op} {}, {}{}", vgpr(r), vgpr(r), ds_tail(r)),
        Shape::DsWrite => format!("{op} {}, {}{}", vgpr(r), vgpr(r), ds_tail(r)),
        Shape::DsRead2 => format!("{op} {}, {}{}", vtuple(r, 2), vgpr(r), ds2_tail(r)),
        Shape::DsWrite2 => {
            format!("{op} {}, {}, {}{}", vgpr(r), vgpr(r), vgpr(r), ds2_tail(r))
        }
    }
}

// ---------------------------------------------------------------------------------------
// Registers
// ---------------------------------------------------------------------------------------

/// Highest SGPR on fiji (`s102` is "not available on this GPU").
const MAX_SGPR: u32 = 101;
/// 32-bit special scalar registers usable as SOP/VOP operands.
const SPECIAL32: [&str; 7] = [
    "vcc_lo",
    "vcc_hi",
    "exec_lo",
    "exec_hi",
    "m0",
    "flat_scratch_lo",
    "flat_scratch_hi",
];
/// 64-bit special scalar register pairs.
const SPECIAL64: [&str; 3] = ["vcc", "exec", "flat_scratch"];

/// One of `items`.
fn pick<R: Rng, T: Copy>(r: &mut R, items: &[T]) -> T {
    *items.choose(r).expect("non-empty choice")
}

/// A register index in `0..=max`, biased towards both ends.
fn reg_index<R: Rng>(r: &mut R, max: u32) -> u32 {
    match r.gen_range(0..10) {
        0 => 0,
        1 => max,
        _ => r.gen_range(0..=max),
    }
}

/// A single register `{prefix}{n}`, sometimes spelled `{prefix}[n]` or `{prefix}[n:n]`.
fn single_reg<R: Rng>(r: &mut R, prefix: char, n: u32) -> String {
    match r.gen_range(0..40) {
        0 => format!("{prefix}[{n}]"),
        1 => format!("{prefix}[{n}:{n}]"),
        _ => format!("{prefix}{n}"),
    }
}

/// A VGPR `v0..v255`.
fn vgpr<R: Rng>(r: &mut R) -> String {
    let n = reg_index(r, 255);
    single_reg(r, 'v', n)
}

/// A VGPR tuple `v[a:a+k-1]` of `k >= 2` registers (no alignment needed).
fn vtuple<R: Rng>(r: &mut R, k: u32) -> String {
    let a = reg_index(r, 256 - k);
    format!("v[{a}:{}]", a + k - 1)
}

/// The data operand of a memory access of `dwords` dwords.
fn vdata<R: Rng>(r: &mut R, dwords: u32) -> String {
    if dwords == 1 {
        vgpr(r)
    } else {
        vtuple(r, dwords)
    }
}

/// An SGPR `s0..s101`.
fn sgpr<R: Rng>(r: &mut R) -> String {
    let n = reg_index(r, MAX_SGPR);
    single_reg(r, 's', n)
}

/// An aligned SGPR tuple of `k` (2 or 4) registers.
fn stuple<R: Rng>(r: &mut R, k: u32) -> String {
    let a = k * reg_index(r, (MAX_SGPR + 1) / k - 1);
    format!("s[{a}:{}]", a + k - 1)
}

/// A 32-bit scalar register: an SGPR or a 32-bit special register.
fn sdst32<R: Rng>(r: &mut R) -> String {
    if r.gen_bool(0.75) {
        sgpr(r)
    } else {
        pick(r, &SPECIAL32).to_string()
    }
}

/// A 64-bit scalar register: an aligned SGPR pair, `vcc`, `exec` or `flat_scratch`.
fn sreg64<R: Rng>(r: &mut R) -> String {
    if r.gen_bool(0.75) {
        stuple(r, 2)
    } else {
        pick(r, &SPECIAL64).to_string()
    }
}

/// A scalar destination of the given width.
fn sdst<R: Rng>(r: &mut R, width: Width) -> String {
    match width {
        Width::B32 => sdst32(r),
        Width::B64 => sreg64(r),
    }
}

// ---------------------------------------------------------------------------------------
// Constants
// ---------------------------------------------------------------------------------------

/// A rendered source operand and the 32-bit literal llvm-mc appends for it, if any.
struct Src {
    text: String,
    lit: Option<u32>,
}

impl Src {
    /// An operand encoded without literal (register or inline constant).
    fn plain(text: String) -> Self {
        Src { text, lit: None }
    }
}

/// Bit patterns of the f32 inline constants ±0.5, ±1, ±2, ±4 and 1/(2π).
const INLINE_F32_BITS: [u32; 9] = [
    0x3f00_0000,
    0xbf00_0000,
    0x3f80_0000,
    0xbf80_0000,
    0x4000_0000,
    0xc000_0000,
    0x4080_0000,
    0xc080_0000,
    0x3e22_f983,
];

/// Whether a 32-bit slot encodes `v` as an inline constant.
fn is_inline32(v: u32) -> bool {
    (-16..=64).contains(&(v as i32)) || INLINE_F32_BITS.contains(&v)
}

/// An integer written as `text` with value `value`, classified for a slot of `width`:
/// 32-bit slots inline by bit pattern, 64-bit slots only the integers -16..=64.
fn int_src(width: Width, value: i64, text: String) -> Src {
    let bits = value as u32;
    let inline = match width {
        Width::B32 => is_inline32(bits),
        Width::B64 => (-16..=64).contains(&value),
    };
    Src {
        text,
        lit: (!inline).then_some(bits),
    }
}

/// `v` in hex, usually `0x1f`, sometimes `0x1F` or `0X1f`.
fn hex<R: Rng>(r: &mut R, v: u64) -> String {
    match r.gen_range(0..10) {
        0 => format!("0x{v:X}"),
        1 => format!("0X{v:x}"),
        _ => format!("0x{v:x}"),
    }
}

/// An inline integer constant -16..=64, in decimal.
fn inline_int<R: Rng>(r: &mut R) -> String {
    r.gen_range(-16..=64).to_string()
}

/// An inline float constant; 64-bit slots reject 1/(2π).
fn inline_float<R: Rng>(r: &mut R, width: Width) -> String {
    const F: [&str; 10] = [
        "0.5",
        "-0.5",
        "1.0",
        "-1.0",
        "2.0",
        "-2.0",
        "4.0",
        "-4.0",
        "0.0",
        "0.15915494",
    ];
    let n = if width == Width::B32 {
        F.len()
    } else {
        F.len() - 1
    };
    F[r.gen_range(0..n)].to_string()
}

/// A spelling of a 32-bit inline constant that does not look like one: a float's bit
/// pattern (`0x3f800000`), a negative integer as unsigned (`0xfffffff0`, `4294967295`) or a
/// small integer in hex (`0x40`).
fn disguised_inline<R: Rng>(r: &mut R) -> String {
    match r.gen_range(0..4) {
        0 | 1 => {
            let v = pick(r, &INLINE_F32_BITS);
            hex(r, v.into())
        }
        2 => {
            let v = r.gen_range(-16..=-1i32) as u32;
            if r.gen_bool(0.5) {
                hex(r, v.into())
            } else {
                v.to_string()
            }
        }
        _ => {
            let v = r.gen_range(0..=64u64);
            hex(r, v)
        }
    }
}

/// A float literal for a 32-bit slot: usually the shortest decimal of a short dyadic f32
/// (`3.5`, `-0.0625`), sometimes a decimal that rounds (`0.1`). llvm-mc parses a double and
/// rounds it to f32 (nearest-even); `lit` is computed the same way.
fn float_literal<R: Rng>(r: &mut R) -> Src {
    const ROUNDED: [&str; 8] = [
        "0.1", "-0.3", "3.14159", "2.71828", "1e10", "-1.5e-3", "6.02e23", "0.15915",
    ];
    let text = if r.gen_bool(0.25) {
        pick(r, &ROUNDED).to_string()
    } else {
        let k = r.gen_range(1..=4095u32) as f32;
        let f = k / (1u32 << r.gen_range(0..=8)) as f32;
        let f = if r.gen_bool(0.5) { -f } else { f };
        format!("{f:?}")
    };
    let bits = (text.parse::<f64>().expect("float literal") as f32).to_bits();
    Src {
        text,
        lit: (!is_inline32(bits)).then_some(bits),
    }
}

/// Interesting integer boundaries around the inline range and the 32-bit range.
const EDGES: [i64; 10] = [
    65,
    -17,
    100,
    0xffff,
    0x1_0000,
    0x7fff_ffff,
    0x8000_0000,
    0xffff_ffef,
    -0x8000_0000,
    -12345,
];

/// An integer constant that usually needs a literal; may come out inline (e.g. `0x3f800000`
/// in a 32-bit slot), which `lit` records.
fn literal<R: Rng>(r: &mut R, width: Width) -> Src {
    match r.gen_range(0..12) {
        0..=2 => {
            let v: u32 = r.gen();
            int_src(width, v.into(), hex(r, v.into()))
        }
        3 | 4 => {
            let v: u32 = r.gen();
            int_src(width, v.into(), v.to_string())
        }
        5 | 6 => {
            let v = r.gen_range(i32::MIN..0);
            int_src(width, v.into(), v.to_string())
        }
        7 => {
            let v = pick(r, &EDGES);
            let text = if v < 0 {
                v.to_string()
            } else {
                hex(r, v as u64)
            };
            int_src(width, v, text)
        }
        8 | 9 if width == Width::B32 => float_literal(r),
        10 if width == Width::B32 => Src::plain(disguised_inline(r)),
        _ if width == Width::B64 && r.gen_bool(0.5) => {
            // 64-bit slots also take a sign-extended 64-bit hex spelling.
            let v = r.gen_range(i32::MIN..0);
            int_src(width, v.into(), format!("0x{:x}", i64::from(v) as u64))
        }
        _ => {
            let v = r.gen_range(65..=0xffffu32);
            int_src(width, v.into(), hex(r, v.into()))
        }
    }
}

/// The literal `bits` spelled afresh for a slot of `width` (hex, decimal or negative
/// decimal); used to give a second operand the instruction's one literal value.
fn respell<R: Rng>(r: &mut R, width: Width, bits: u32) -> Src {
    match r.gen_range(0..3) {
        0 => int_src(width, bits.into(), hex(r, bits.into())),
        1 => int_src(width, bits.into(), bits.to_string()),
        _ => {
            let v = bits as i32;
            let text = if v < 0 {
                v.to_string()
            } else {
                hex(r, bits.into())
            };
            int_src(width, v.into(), text)
        }
    }
}

// ---------------------------------------------------------------------------------------
// Scalar instructions
// ---------------------------------------------------------------------------------------

/// A scalar source of `width`: register, special register, inline constant or literal.
fn ssrc<R: Rng>(r: &mut R, width: Width) -> Src {
    match r.gen_range(0..10) {
        0..=2 => Src::plain(sdst(r, width)),
        3 => Src::plain(match width {
            Width::B32 => pick(r, &SPECIAL32).to_string(),
            Width::B64 => pick(r, &SPECIAL64).to_string(),
        }),
        4 | 5 => Src::plain(inline_int(r)),
        6 => Src::plain(inline_float(r, width)),
        _ => literal(r, width),
    }
}

/// A second scalar source that respects the one-literal-value rule given the first one.
fn ssrc_after<R: Rng>(r: &mut R, width: Width, first: &Src) -> Src {
    if let Some(bits) = first.lit {
        if r.gen_bool(0.3) {
            return respell(r, width, bits);
        }
    }
    loop {
        let s = ssrc(r, width);
        match (first.lit, s.lit) {
            (Some(a), Some(b)) if a != b => continue,
            _ => return s,
        }
    }
}

/// `op sdst, ssrc0, ssrc1`.
fn sop2<R: Rng>(r: &mut R, op: &str, dst: Width, a: Width, b: Width) -> String {
    let d = sdst(r, dst);
    let s0 = ssrc(r, a);
    let s1 = ssrc_after(r, b, &s0);
    format!("{op} {d}, {}, {}", s0.text, s1.text)
}

/// `op ssrc0, ssrc1` (32-bit compare).
fn sopc<R: Rng>(r: &mut R, op: &str) -> String {
    let s0 = ssrc(r, Width::B32);
    let s1 = ssrc_after(r, Width::B32, &s0);
    format!("{op} {}, {}", s0.text, s1.text)
}

/// A SOPK immediate: 0..=0xffff, and for signed opcodes also -32768..=-1 (`s_cmpk_*_u32`
/// rejects negative values).
fn simm16<R: Rng>(r: &mut R, signed: bool) -> String {
    if signed && r.gen_bool(0.3) {
        let v = match r.gen_range(0..4) {
            0 => -32768,
            1 => -1,
            _ => r.gen_range(-32768..0),
        };
        return v.to_string();
    }
    let v: u32 = match r.gen_range(0..5) {
        0 => pick(r, &[0, 0x7fff, 0x8000, 0xffff]),
        1 => r.gen_range(0..=64),
        _ => r.gen_range(0..=0xffff),
    };
    if r.gen_bool(0.5) {
        hex(r, v.into())
    } else {
        v.to_string()
    }
}

/// A 16-bit immediate, usually in `0..=small`: `s_nop`/`s_sleep` (llvm-mc takes the whole
/// 16 bits although the hardware only looks at the low ones).
fn small_or_u16<R: Rng>(r: &mut R, small: u32) -> String {
    let v = if r.gen_bool(0.85) {
        r.gen_range(0..=small)
    } else {
        r.gen_range(0..=0xffff)
    };
    if r.gen_bool(0.2) {
        hex(r, v.into())
    } else {
        v.to_string()
    }
}

/// A branch offset in dwords, -32768..=32767 (non-negative ones sometimes in hex).
fn branch_offset<R: Rng>(r: &mut R) -> String {
    let v: i32 = match r.gen_range(0..4) {
        0 => pick(r, &[-32768, -1, 0, 1, 32767]),
        1 => r.gen_range(-64..=64),
        _ => r.gen_range(-32768..=32767),
    };
    if v >= 0 && r.gen_bool(0.2) {
        hex(r, v as u64)
    } else {
        v.to_string()
    }
}

/// `s_waitcnt` operand: a non-empty subset of vmcnt(0..15)/expcnt(0..7)/lgkmcnt(0..15) in
/// any order, joined by spaces, `&` or `,`; or a raw 16-bit integer.
fn waitcnt<R: Rng>(r: &mut R) -> String {
    if r.gen_bool(0.2) {
        let v: u16 = r.gen();
        return if r.gen_bool(0.5) {
            hex(r, v.into())
        } else {
            v.to_string()
        };
    }
    let mut parts = Vec::new();
    for (name, max) in [("vmcnt", 15), ("expcnt", 7), ("lgkmcnt", 15)] {
        if r.gen_bool(0.6) {
            parts.push(format!("{name}({})", r.gen_range(0..=max)));
        }
    }
    if parts.is_empty() {
        parts.push(format!("lgkmcnt({})", r.gen_range(0..=15)));
    }
    parts.shuffle(r);
    let mut out = parts[0].clone();
    for p in &parts[1..] {
        out.push_str(pick(r, &[" ", " & ", "&", ", ", ","]));
        out.push_str(p);
    }
    out
}

// ---------------------------------------------------------------------------------------
// Scalar memory
// ---------------------------------------------------------------------------------------

/// SMEM base address: an aligned SGPR pair, `vcc`, `exec` or `flat_scratch`.
fn smem_base<R: Rng>(r: &mut R) -> String {
    sreg64(r)
}

/// SMEM offset: a 20-bit unsigned immediate or an soffset register; optional `glc`.
fn smem_tail<R: Rng>(r: &mut R) -> String {
    let off = if r.gen_bool(0.6) {
        let v = match r.gen_range(0..4) {
            0 => pick(r, &[0, 4, 0xfffff]),
            1 => 4 * r.gen_range(0..=64),
            _ => r.gen_range(0..=0xfffff),
        };
        if r.gen_bool(0.7) {
            hex(r, v)
        } else {
            v.to_string()
        }
    } else {
        sdst32(r)
    };
    let glc = if r.gen_bool(0.3) { " glc" } else { "" };
    format!("{off}{glc}")
}

/// An SMEM 32-bit data register (not m0, not exec).
fn smem_data32<R: Rng>(r: &mut R) -> String {
    if r.gen_bool(0.8) {
        sgpr(r)
    } else {
        pick(
            r,
            &["vcc_lo", "vcc_hi", "flat_scratch_lo", "flat_scratch_hi"],
        )
        .to_string()
    }
}

/// `s_load_dword{,x2,x4} sdst, sbase, offset [glc]`.
fn smem_load<R: Rng>(r: &mut R, op: &str, dwords: u32) -> String {
    let dst = match dwords {
        1 => smem_data32(r),
        2 if r.gen_bool(0.2) => pick(r, &["vcc", "flat_scratch"]).to_string(),
        _ => stuple(r, dwords),
    };
    format!("{op} {dst}, {}, {}", smem_base(r), smem_tail(r))
}

/// `s_store_dword sdata, sbase, offset [glc]`.
fn smem_store<R: Rng>(r: &mut R, op: &str) -> String {
    format!(
        "{op} {}, {}, {}",
        smem_data32(r),
        smem_base(r),
        smem_tail(r)
    )
}

// ---------------------------------------------------------------------------------------
// Vector ALU
// ---------------------------------------------------------------------------------------

/// The mnemonic of an e32 form: bare (llvm-mc picks e32) or with `_e32`.
fn e32_name<R: Rng>(r: &mut R, op: &str) -> String {
    if r.gen_bool(0.5) {
        op.to_string()
    } else {
        format!("{op}_e32")
    }
}

/// An e32 src0: VGPR, SGPR, special register, inline constant or literal.
fn vsrc_e32<R: Rng>(r: &mut R) -> String {
    match r.gen_range(0..10) {
        0..=2 => vgpr(r),
        3 => sgpr(r),
        4 => pick(r, &SPECIAL32).to_string(),
        5 => inline_int(r),
        6 => inline_float(r, Width::B32),
        _ => literal(r, Width::B32).text,
    }
}

/// A 32-bit inline constant in any spelling.
fn inline_any<R: Rng>(r: &mut R) -> String {
    match r.gen_range(0..3) {
        0 => inline_int(r),
        1 => inline_float(r, Width::B32),
        _ => disguised_inline(r),
    }
}

/// src0 of an e32 opcode that reads `vcc` implicitly: VGPR or inline constant only.
fn vsrc_no_bus<R: Rng>(r: &mut R) -> String {
    if r.gen_bool(0.6) {
        vgpr(r)
    } else {
        inline_any(r)
    }
}

/// The constant bus of one VOP3 instruction: at most one distinct scalar register.
struct Bus {
    /// Whether a source may still read a scalar register.
    open: bool,
    /// The 32-bit scalar register already chosen, shared by later 32-bit sources.
    reg: Option<String>,
}

impl Bus {
    /// A bus that sources may use, or a closed one (when a carry/condition pair owns it).
    fn new(open: bool) -> Self {
        Bus { open, reg: None }
    }

    /// The instruction's 32-bit scalar register, if the bus allows one.
    fn scalar32<R: Rng>(&mut self, r: &mut R) -> Option<String> {
        if !self.open {
            return None;
        }
        Some(self.reg.get_or_insert_with(|| sdst32(r)).clone())
    }

    /// A 64-bit scalar source, if no scalar is in use yet; closes the bus.
    fn scalar64<R: Rng>(&mut self, r: &mut R) -> Option<String> {
        if !self.open || self.reg.is_some() {
            return None;
        }
        self.open = false;
        Some(sreg64(r))
    }
}

/// A VOP3 source of `width` (no literals on gfx8), with neg/abs when `neg_abs`.
fn vop3_src<R: Rng>(r: &mut R, bus: &mut Bus, width: Width, neg_abs: bool) -> String {
    let vreg = |r: &mut R| {
        if width == Width::B32 {
            vgpr(r)
        } else {
            vtuple(r, 2)
        }
    };
    let (base, is_reg) = match r.gen_range(0..10) {
        0..=3 => (vreg(r), true),
        4 | 5 => {
            let s = match width {
                Width::B32 => bus.scalar32(r),
                Width::B64 => bus.scalar64(r),
            };
            (s.unwrap_or_else(|| vreg(r)), true)
        }
        6 => (inline_int(r), false),
        7 | 8 => (inline_float(r, width), false),
        _ if width == Width::B32 => (disguised_inline(r), false),
        _ => {
            let v = r.gen_range(0..=64);
            (hex(r, v), false)
        }
    };
    if !neg_abs {
        return base;
    }
    let (neg, abs) = (r.gen_bool(0.3), r.gen_bool(0.3));
    with_src_mods(r, &base, is_reg, neg, abs)
}

/// Wraps `base` in neg/abs modifiers, in llvm-mc's various spellings. A constant is never
/// negated with a bare `-` (that would read as a different, negative constant).
fn with_src_mods<R: Rng>(r: &mut R, base: &str, is_reg: bool, neg: bool, abs: bool) -> String {
    let abs_text = if abs {
        if r.gen_bool(0.7) {
            format!("|{base}|")
        } else {
            format!("abs({base})")
        }
    } else {
        base.to_string()
    };
    if !neg {
        return abs_text;
    }
    if (abs || is_reg) && r.gen_bool(0.7) {
        format!("-{abs_text}")
    } else {
        format!("neg({abs_text})")
    }
}

/// Output modifier spellings, weighted; `mul:1` and `div:1` are accepted no-ops
/// (`div:4` is refused).
const OMODS: [&str; 8] = [
    " mul:2", " mul:4", " div:2", " mul:2", " mul:4", " div:2", " mul:1", " div:1",
];

/// Output modifiers allowed by `mods`: optional `clamp`, then optional omod.
fn out_mods<R: Rng>(r: &mut R, mods: Mods) -> String {
    let mut s = String::new();
    if mods.clamp && r.gen_bool(0.3) {
        s.push_str(" clamp");
    }
    if mods.omod && r.gen_bool(0.4) {
        s.push_str(pick(r, &OMODS));
    }
    s
}

/// `n` VOP3 sources sharing one bus, comma-separated.
fn vop3_srcs<R: Rng>(r: &mut R, bus: &mut Bus, n: u32, neg_abs: bool) -> String {
    (0..n)
        .map(|_| vop3_src(r, bus, Width::B32, neg_abs))
        .collect::<Vec<_>>()
        .join(", ")
}

/// VOP1: `op vdst, src0` (e32) or `op_e64 vdst, src0 [mods]`.
fn vop1<R: Rng>(r: &mut R, op: &str, e64: bool, mods: Mods) -> String {
    if e64 {
        let src = vop3_srcs(r, &mut Bus::new(true), 1, mods.neg_abs);
        format!("{op}_e64 {}, {src}{}", vgpr(r), out_mods(r, mods))
    } else {
        format!("{} {}, {}", e32_name(r, op), vgpr(r), vsrc_e32(r))
    }
}

/// VOP2: `op vdst, src0, vsrc1` (e32) or `op_e64 vdst, src0, src1 [mods]`.
fn vop2<R: Rng>(r: &mut R, op: &str, e64: bool, mods: Mods) -> String {
    if e64 {
        let srcs = vop3_srcs(r, &mut Bus::new(true), 2, mods.neg_abs);
        format!("{op}_e64 {}, {srcs}{}", vgpr(r), out_mods(r, mods))
    } else {
        format!(
            "{} {}, {}, {}",
            e32_name(r, op),
            vgpr(r),
            vsrc_e32(r),
            vgpr(r)
        )
    }
}

/// Carry-out adds: `op vdst, vcc, src0, vsrc1` (e32; the `vcc` is mandatory on gfx8) or
/// `op_e64 vdst, sdst64, src0, src1 [clamp]`.
fn carry<R: Rng>(r: &mut R, op: &str, e64: bool) -> String {
    if e64 {
        let srcs = vop3_srcs(r, &mut Bus::new(true), 2, false);
        format!(
            "{op}_e64 {}, {}, {srcs}{}",
            vgpr(r),
            sreg64(r),
            out_mods(r, CLAMP)
        )
    } else {
        format!(
            "{} {}, vcc, {}, {}",
            e32_name(r, op),
            vgpr(r),
            vsrc_e32(r),
            vgpr(r)
        )
    }
}

/// `v_addc_u32 vdst, vcc, src0, vsrc1, vcc` (e32) or
/// `v_addc_u32_e64 vdst, sdst64, src0, src1, ssrc64 [clamp]`; the carry-in owns the bus.
fn addc<R: Rng>(r: &mut R, op: &str, e64: bool) -> String {
    if e64 {
        let srcs = vop3_srcs(r, &mut Bus::new(false), 2, false);
        let (d, co, ci) = (vgpr(r), sreg64(r), sreg64(r));
        format!("{op}_e64 {d}, {co}, {srcs}, {ci}{}", out_mods(r, CLAMP))
    } else {
        let (d, s0, s1) = (vgpr(r), vsrc_no_bus(r), vgpr(r));
        format!("{} {d}, vcc, {s0}, {s1}, vcc", e32_name(r, op))
    }
}

/// `v_cndmask_b32 vdst, src0, vsrc1[, vcc]` (e32) or
/// `v_cndmask_b32_e64 vdst, src0, src1, ssrc64` (neg/abs only); the condition owns the bus.
fn cndmask<R: Rng>(r: &mut R, op: &str, e64: bool) -> String {
    if e64 {
        let srcs = vop3_srcs(r, &mut Bus::new(false), 2, SELECT.neg_abs);
        format!("{op}_e64 {}, {srcs}, {}", vgpr(r), sreg64(r))
    } else {
        let (d, s0, s1) = (vgpr(r), vsrc_no_bus(r), vgpr(r));
        let vcc = if r.gen_bool(0.7) { ", vcc" } else { "" };
        format!("{} {d}, {s0}, {s1}{vcc}", e32_name(r, op))
    }
}

/// VOPC: `op [vcc, ]src0, vsrc1` (e32; `vcc` may be left out) or
/// `op_e64 sdst64, src0, src1 [clamp]`.
fn vopc<R: Rng>(r: &mut R, op: &str, e64: bool, mods: Mods) -> String {
    if e64 {
        let srcs = vop3_srcs(r, &mut Bus::new(true), 2, mods.neg_abs);
        format!("{op}_e64 {}, {srcs}{}", sreg64(r), out_mods(r, mods))
    } else {
        let vcc = if r.gen_bool(0.7) { "vcc, " } else { "" };
        format!("{} {vcc}{}, {}", e32_name(r, op), vsrc_e32(r), vgpr(r))
    }
}

/// The mnemonic of a VOP3-only opcode: bare or, sometimes, with `_e64`.
fn vop3_name<R: Rng>(r: &mut R, op: &str) -> String {
    if r.gen_bool(0.2) {
        format!("{op}_e64")
    } else {
        op.to_string()
    }
}

/// VOP3-only: `op vdst, src0, src1[, src2] [mods]`.
fn vop3<R: Rng>(r: &mut R, op: &str, srcs: u32, mods: Mods) -> String {
    let name = vop3_name(r, op);
    let s = vop3_srcs(r, &mut Bus::new(true), srcs, mods.neg_abs);
    format!("{name} {}, {s}{}", vgpr(r), out_mods(r, mods))
}

/// `v_lshlrev_b64 vdst64, src0 (32-bit), src1 (64-bit)`.
fn lshl64<R: Rng>(r: &mut R, op: &str) -> String {
    let name = vop3_name(r, op);
    let mut bus = Bus::new(true);
    let s0 = vop3_src(r, &mut bus, Width::B32, false);
    let s1 = vop3_src(r, &mut bus, Width::B64, false);
    format!("{name} {}, {s0}, {s1}", vtuple(r, 2))
}

/// `v_mad_u64_u32 vdst64, sdst64, src0, src1, src2 (64-bit) [clamp]` (VOP3b).
fn mad_u64<R: Rng>(r: &mut R, op: &str) -> String {
    let name = vop3_name(r, op);
    let mut bus = Bus::new(true);
    let s0 = vop3_src(r, &mut bus, Width::B32, false);
    let s1 = vop3_src(r, &mut bus, Width::B32, false);
    let s2 = vop3_src(r, &mut bus, Width::B64, false);
    let (d, co) = (vtuple(r, 2), sreg64(r));
    format!("{name} {d}, {co}, {s0}, {s1}, {s2}{}", out_mods(r, CLAMP))
}

/// 64-bit VOPC: `op [vcc, ]src0 (64-bit), vsrc1 (VGPR pair)` (e32) or
/// `op_e64 sdst64, src0, src1` (both 64-bit).
fn vopc64<R: Rng>(r: &mut R, op: &str, e64: bool) -> String {
    let mut bus = Bus::new(true);
    let s0 = vop3_src(r, &mut bus, Width::B64, false);
    if e64 {
        let s1 = vop3_src(r, &mut bus, Width::B64, false);
        format!("{op}_e64 {}, {s0}, {s1}", sreg64(r))
    } else {
        let vcc = if r.gen_bool(0.7) { "vcc, " } else { "" };
        format!("{} {vcc}{s0}, {}", e32_name(r, op), vtuple(r, 2))
    }
}

// ---------------------------------------------------------------------------------------
// Vector memory
// ---------------------------------------------------------------------------------------

/// FLAT cache bits: any subset of `glc`/`slc` in any order; rarely a leading `offset:0`
/// (the only offset gfx8 accepts).
fn flat_cache<R: Rng>(r: &mut R) -> String {
    let mut s = String::new();
    if r.gen_bool(0.05) {
        s.push_str(" offset:0");
    }
    let mut bits: Vec<&str> = ["glc", "slc"]
        .into_iter()
        .filter(|_| r.gen_bool(0.4))
        .collect();
    bits.shuffle(r);
    for b in bits {
        s.push(' ');
        s.push_str(b);
    }
    s
}

/// Optional ` gds`.
fn gds<R: Rng>(r: &mut R) -> &'static str {
    if r.gen_bool(0.2) {
        " gds"
    } else {
        ""
    }
}

/// An unsigned offset `0..=max`, in decimal or hex.
fn offset_value<R: Rng>(r: &mut R, max: u32) -> String {
    let v = match r.gen_range(0..4) {
        0 => pick(r, &[0, max]),
        1 => 4 * r.gen_range(0..=max / 4),
        _ => r.gen_range(0..=max),
    };
    if r.gen_bool(0.2) {
        hex(r, v.into())
    } else {
        v.to_string()
    }
}

/// DS single-address tail: optional `offset:N` (16 bits), then optional `gds`.
fn ds_tail<R: Rng>(r: &mut R) -> String {
    let off = if r.gen_bool(0.6) {
        format!(" offset:{}", offset_value(r, 0xffff))
    } else {
        String::new()
    };
    format!("{off}{}", gds(r))
}

/// DS two-address tail: optional `offset0:N`, optional `offset1:M` (8 bits each, in that
/// order), then optional `gds`.
fn ds2_tail<R: Rng>(r: &mut R) -> String {
    let mut s = String::new();
    for name in ["offset0", "offset1"] {
        if r.gen_bool(0.6) {
            s.push_str(&format!(" {name}:{}", offset_value(r, 255)));
        }
    }
    s.push_str(gds(r));
    s
}
