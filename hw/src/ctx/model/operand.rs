//! The operand codes of the contract ([`crate::ctx`]): what a source code reads and what a
//! destination code writes, on one context's scalar registers.

use crate::ctx::INLINE_FLOATS;
use crate::cu::regfile::Sregs;

/// The integer inline constant of code 128..=208: 0..=64, then −1..=−16.
fn int_const(code: u16) -> i64 {
    let n = i64::from(code) - 128;
    if n <= 64 {
        n
    } else {
        64 - n
    }
}

/// The float constant of code 240..=248 as a double.
fn float_const(code: u16) -> f64 {
    INLINE_FLOATS[usize::from(code - 240)]
}

/// Half `hi` of a 64-bit register.
fn half(v: u64, hi: bool) -> u32 {
    (if hi { v >> 32 } else { v }) as u32
}

/// The 32-bit value of source `code` (`literal` for 255); `None` when it is not a 32-bit
/// source.
pub fn read32(r: &Sregs, code: u16, literal: u32) -> Option<u32> {
    Some(match code {
        0..=101 => r.s[usize::from(code)],
        106 | 107 => half(r.vcc, code == 107),
        124 => r.m0,
        126 | 127 => half(r.exec, code == 127),
        128..=208 => int_const(code) as u32,
        240..=248 => (float_const(code) as f32).to_bits(),
        251 => u32::from(r.vcc == 0),
        252 => u32::from(r.exec == 0),
        253 => u32::from(r.scc),
        255 => literal,
        _ => return None,
    })
}

/// The 64-bit value of pair source `code`; `None` when it is not a 64-bit source.
pub fn read64(r: &Sregs, code: u16, literal: u32) -> Option<u64> {
    Some(match code {
        0..=100 => {
            let n = usize::from(code);
            u64::from(r.s[n + 1]) << 32 | u64::from(r.s[n])
        }
        106 => r.vcc,
        126 => r.exec,
        128..=208 => int_const(code) as u64,
        240..=248 => float_const(code).to_bits(),
        255 => u64::from(literal),
        _ => return None,
    })
}

/// Whether `code` is a scalar destination of that width.
pub fn dst_ok(code: u8, wide: bool) -> bool {
    match wide {
        false => matches!(code, 0..=101 | 106 | 107 | 124 | 126 | 127),
        true => matches!(code, 0..=100 | 106 | 126),
    }
}

/// Sets half `hi` of a 64-bit register.
fn set_half(reg: &mut u64, hi: bool, v: u32) {
    let shift = if hi { 32 } else { 0 };
    *reg = *reg & !(0xFFFF_FFFF << shift) | u64::from(v) << shift;
}

/// Writes `d` (its low half unless `wide`) to destination `code`; false (nothing written)
/// when the code is not a destination of that width.
pub fn write(r: &mut Sregs, code: u8, wide: bool, d: u64) -> bool {
    let n = usize::from(code);
    match (wide, code) {
        (false, 0..=101) => r.s[n] = d as u32,
        (false, 106 | 107) => set_half(&mut r.vcc, code == 107, d as u32),
        (false, 124) => r.m0 = d as u32,
        (false, 126 | 127) => set_half(&mut r.exec, code == 127, d as u32),
        (true, 0..=100) => {
            r.s[n] = d as u32;
            r.s[n + 1] = (d >> 32) as u32;
        }
        (true, 106) => r.vcc = d,
        (true, 126) => r.exec = d,
        _ => return false,
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A splitmix64 stream (the crate has no random-number dependency).
    struct Mix(u64);

    impl Mix {
        fn next(&mut self) -> u64 {
            self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
            let z = (self.0 ^ self.0 >> 30).wrapping_mul(0xBF58_476D_1CE4_E5B9);
            let z = (z ^ z >> 27).wrapping_mul(0x94D0_49BB_1331_11EB);
            z ^ z >> 31
        }

        /// A 64-bit value, 0 one time in four (so that VCCZ and EXECZ are seen set).
        fn mask(&mut self) -> u64 {
            let v = self.next();
            if v.is_multiple_of(4) {
                0
            } else {
                v
            }
        }
    }

    /// Random registers.
    fn random_sregs(rng: &mut Mix) -> Sregs {
        let mut r = Sregs::default();
        r.s.iter_mut().for_each(|s| *s = rng.next() as u32);
        r.vcc = rng.mask();
        r.exec = rng.mask();
        r.m0 = rng.next() as u32;
        r.scc = rng.next() & 1 == 1;
        r
    }

    /// Every code 0..=511, both widths, on random registers: the contract's resolution is the
    /// behavioural unit's (`Sregs::read`, `Sregs::read64`), errors included. Mutation caught
    /// (applied, seen failing, restored): code 248 read as 1/π instead of 1/(2π).
    #[test]
    fn every_code_reads_as_the_behavioural_unit() {
        let mut rng = Mix(95);
        for _ in 0..32 {
            let r = random_sregs(&mut rng);
            let lit = rng.next() as u32;
            for code in 0..=511u16 {
                assert_eq!(read32(&r, code, lit), r.read(code, lit).ok(), "code {code}");
                assert_eq!(
                    read64(&r, code, lit),
                    r.read64(code, lit).ok(),
                    "code {code}"
                );
            }
        }
    }

    /// Every destination code, both widths: the contract's write is the behavioural unit's
    /// (`Sregs::write`, `Sregs::write64`), refusals included.
    #[test]
    fn every_destination_writes_as_the_behavioural_unit() {
        let mut rng = Mix(96);
        for code in 0..=127u8 {
            for wide in [false, true] {
                let r = random_sregs(&mut rng);
                let d = rng.next();
                let (mut ours, mut theirs) = (r.clone(), r);
                let ok = write(&mut ours, code, wide, d);
                let want = match wide {
                    false => theirs.write(u16::from(code), d as u32),
                    true => theirs.write64(u16::from(code), d),
                };
                assert_eq!((ok, dst_ok(code, wide)), (want.is_ok(), want.is_ok()));
                assert_eq!(ours, theirs, "code {code} wide {wide}");
            }
        }
    }
}
