//! Sim-D's closed-form worst-case LIDs (Eq. 15 and 16, docs/works/simd.md#eq-15), in DRAM
//! cycles from the request's first command. Add [`FRONT_END`] for the LID from the trigger
//! that the controller reports.

use rtgpu_hw::dram::Part;

/// Cycles from the trigger to the earliest first command: the request is registered at the
/// trigger edge, its first burst is generated in the next cycle and its command issues from
/// the bank FIFO one cycle later (hw/src/dram, "Completion").
pub const FRONT_END: u32 = 2;

/// AC(b): activate-to-last-CAS delay of a b-burst 1D tile (b ≥ 1). The paper gives it for
/// 2 bank groups; for 4 bank groups the reference implementation uses RCD + (b − 1)·CCD_S.
pub fn ac(p: &Part, b: u32) -> u32 {
    let (rrd_s, rcd, ccd_s, ccd_l) = (p.rrd_s as u32, p.rcd as u32, p.ccd_s as u32, p.ccd_l as u32);
    if p.bank_groups > 2 {
        return rcd + (b - 1) * ccd_s;
    }
    match b {
        0 => 0,
        1..=4 => (b - 1) * rrd_s + rcd,
        5 | 6 => 2 * rrd_s + rcd + (b - 4) * ccd_l + ccd_s,
        7 | 8 => 3 * rrd_s + rcd + ccd_l + ccd_s,
        _ if b % 2 == 1 => rrd_s + rcd + 2 * ccd_l + (b - 4) * ccd_s,
        _ => 2 * rrd_s + rcd + ccd_l + (b - 5) * ccd_s,
    }
}

/// Eq. 15: tID_R(b) or tID_W(b), the worst-case LID of a b-burst tile from its first command.
pub fn tid(p: &Part, write: bool, b: u32) -> u32 {
    let a = ac(p, b);
    if write {
        a + p.cwl as u32 + p.bl as u32 + p.wr as u32 + p.rp as u32
    } else {
        let act_bound = (b.saturating_sub(1)).min(3) * p.rrd_s as u32 + p.ras as u32 + p.rp as u32;
        (a + p.rtp as u32 + p.rp as u32).max(act_bound)
    }
}

/// The bursts a request of `words` contiguous words spans in the worst alignment:
/// ⌈words / 16⌉ + 1 unless it fits one burst exactly at every alignment (never for words > 1).
pub fn worst_bursts(words: u32) -> u32 {
    if words <= 1 {
        words
    } else {
        words.div_ceil(16) + 1
    }
}

/// rows(s) of Eq. 16 as the reference implementation counts them: 1 if s = 1, 2 if s ≤ 17,
/// else 2 + ⌈(s − 17) / 2048⌉.
pub fn rows(s: u32) -> u32 {
    match s {
        0 | 1 => 1,
        2..=17 => 2,
        _ => 2 + (s - 17).div_ceil(2048),
    }
}

/// Eq. 16: the worst-case LID of an iterative indexed request of b bursts into a buffer of s
/// words, from its first command.
pub fn tiid(p: &Part, write: bool, b: u32, s: u32) -> u32 {
    let (rcd, rp, ras) = (p.rcd as u32, p.rp as u32, p.ras as u32);
    let tail_w = p.cwl as u32 + p.bl as u32 + p.wr as u32 + rp;
    let r = rows(s);
    if r > p.banks as u32 {
        return if write {
            b * (rcd + tail_w)
        } else {
            b * (ras + rp)
        };
    }
    let ccd_l = p.ccd_l as u32;
    let iiac = if r == 1 {
        rcd + (b - 1) * ccd_l
    } else if r <= p.bank_groups as u32 {
        rcd + p.rrd_s as u32 + (b.saturating_sub(2)) * ccd_l
    } else {
        rcd + p.rrd_l as u32 + p.rrd_s as u32 - 1 + (b.saturating_sub(3)) * ccd_l
    };
    if write {
        iiac + tail_w
    } else {
        iiac + p.rtp as u32 + rp
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Eq. 15 evaluated by hand (DDR4-3200AA, 2 bank groups).
    #[test]
    fn eq15_matches_the_hand_computed_table() {
        let p = Part::DDR4_3200AA_X16;
        for (b, ac_b, r, w) in [
            (1, 22, 74, 88),
            (2, 31, 83, 97),
            (4, 49, 101, 115),
            (8, 61, 101, 127),
            (16, 92, 126, 158),
            (32, 156, 190, 222),
            (64, 284, 318, 350),
            (65, 291, 325, 357),
            (128, 540, 574, 606),
            (256, 1052, 1086, 1118),
        ] {
            assert_eq!(ac(&p, b), ac_b, "AC({b})");
            assert_eq!(tid(&p, false, b), r, "tID_R({b})");
            assert_eq!(tid(&p, true, b), w, "tID_W({b})");
        }
        // 1866M: tID_R(64) = 284, tID_W(64) = 305.
        let m = Part::DDR4_1866M_X16;
        assert_eq!((tid(&m, false, 64), tid(&m, true, 64)), (284, 305));
    }

    /// Eq. 16 by hand: b = 1024 iterative indexed, 3200AA: 75 776 / 90 112 cycles beyond 8 rows,
    /// 8240–8243 / 8272–8275 within.
    #[test]
    fn eq16_matches_hand_computed_values() {
        let p = Part::DDR4_3200AA_X16;
        assert_eq!(tiid(&p, false, 1024, 1 << 20), 75_776);
        assert_eq!(tiid(&p, true, 1024, 1 << 20), 90_112);
        assert_eq!(tiid(&p, false, 1024, 1), 22 + 1023 * 8 + 12 + 22);
        let within: Vec<u32> = [2, 17, 18, 4000]
            .iter()
            .map(|&s| tiid(&p, false, 1024, s))
            .collect();
        assert!(
            within.iter().all(|&v| (8240..=8243).contains(&v)),
            "{within:?}"
        );
        let within_w: Vec<u32> = [2, 17, 18, 4000]
            .iter()
            .map(|&s| tiid(&p, true, 1024, s))
            .collect();
        assert!(
            within_w.iter().all(|&v| (8272..=8275).contains(&v)),
            "{within_w:?}"
        );
    }
}
