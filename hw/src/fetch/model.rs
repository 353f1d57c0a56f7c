//! Reference model of the fetch block ([`crate::fetch`]), written from its documented
//! behaviour: a vector of dwords and a vector of buffers; the predecode is the decoder's
//! reference model.

use super::{Buffer, FetchIn, FetchOut};
use crate::isa::insn_model::decode_fields;

/// The fetch block's state.
#[derive(Clone, Debug)]
pub struct FetchModel {
    /// The instruction memory.
    mem: Vec<u32>,
    /// One buffer per context.
    buffers: Vec<Buffer>,
}

impl FetchModel {
    /// `contexts` empty buffers over `words` zeroed dwords.
    pub fn new(contexts: usize, words: usize) -> Self {
        Self {
            mem: vec![0; words],
            buffers: vec![Buffer::default(); contexts],
        }
    }

    /// Dword `i` (0 past the end).
    fn word(&self, i: u64) -> u32 {
        usize::try_from(i)
            .ok()
            .and_then(|i| self.mem.get(i))
            .copied()
            .unwrap_or(0)
    }

    /// The buffer a fetch at byte address `pc` loads.
    pub fn fetched(&self, pc: u32) -> Buffer {
        let i = u64::from(pc / 4);
        let (w0, w1) = (self.word(i), self.word(i + 1));
        let f = decode_fields(w0, w1);
        Buffer {
            valid: true,
            w0,
            w1,
            unit: if f.illegal { 0 } else { f.unit },
            illegal: f.illegal,
            oob: i >= self.mem.len() as u64,
        }
    }

    /// The outputs in the current cycle for the read address `raddr`.
    pub fn outputs(&self, raddr: u32) -> FetchOut {
        FetchOut {
            rdata: self.word(u64::from(raddr)),
            buffers: self.buffers.clone(),
        }
    }

    /// The rising edge that ends a cycle with inputs `i`.
    pub fn clock(&mut self, i: &FetchIn) {
        if i.reset {
            self.buffers.fill(Buffer::default());
        } else {
            // (A copy from a context that does not exist copies an empty buffer.)
            let copied = self.buffers.get(usize::from(i.copy_from)).copied();
            let mut next = self.buffers.clone();
            if let (true, Some(to)) = (i.copy, next.get_mut(usize::from(i.copy_to))) {
                *to = copied.unwrap_or_default();
            }
            for p in &i.ports {
                let b = self.fetched(p.pc);
                for (c, slot) in next.iter_mut().enumerate() {
                    if p.sel >> c & 1 == 1 {
                        *slot = b;
                    }
                }
            }
            self.buffers = next;
        }
        if let (true, Some(w)) = (i.wen, self.mem.get_mut(i.waddr as usize)) {
            *w = i.wdata;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::fetch::FetchPort;
    use crate::isa::formats::unit;

    /// `s_endpgm`.
    const ENDPGM: u32 = 0xBF81_0000;
    /// `v_mov_b32 v1, v0` (VOP1).
    const V_MOV: u32 = 0x7E02_0300;
    /// `s_load_dword s2, s[0:1], 0x0` (SMEM, two dwords).
    const S_LOAD: [u32; 2] = [0xC002_0080, 0x0000_0000];

    /// A model with the program in dwords 0.. loaded through the write port.
    fn loaded(contexts: usize, words: usize, program: &[u32]) -> FetchModel {
        let mut m = FetchModel::new(contexts, words);
        for (a, &w) in program.iter().enumerate() {
            m.clock(&FetchIn {
                wen: true,
                waddr: a as u32,
                wdata: w,
                ..FetchIn::default()
            });
        }
        m
    }

    fn port(sel: u128, pc: u32) -> FetchPort {
        FetchPort { sel, pc }
    }

    fn fetch(m: &mut FetchModel, ports: Vec<FetchPort>) {
        m.clock(&FetchIn {
            ports,
            ..FetchIn::default()
        });
    }

    #[test]
    fn a_fetch_shows_the_predecoded_instruction_the_next_cycle() {
        let mut m = loaded(4, 8, &[V_MOV, S_LOAD[0], S_LOAD[1], ENDPGM]);
        assert!(!m.outputs(0).buffers[2].valid);
        fetch(&mut m, vec![port(1 << 2, 4)]);
        let b = m.outputs(0).buffers[2];
        assert_eq!((b.valid, b.w0, b.w1), (true, S_LOAD[0], S_LOAD[1]));
        assert_eq!(
            (u64::from(b.unit), b.illegal, b.oob),
            (unit::SMEM, false, false)
        );
        // One port loads every context it selects (the dispatcher's broadcast).
        fetch(&mut m, vec![port(0b1011, 0)]);
        let out = m.outputs(0).buffers;
        for c in [0, 1, 3] {
            assert_eq!((out[c].w0, u64::from(out[c].unit)), (V_MOV, unit::VALU));
        }
        assert_eq!(
            out[2].w0, S_LOAD[0],
            "an unselected buffer keeps its instruction"
        );
    }

    #[test]
    fn the_highest_port_wins_and_a_port_beats_the_copy() {
        let mut m = loaded(4, 8, &[V_MOV, ENDPGM]);
        fetch(&mut m, vec![port(1, 4)]);
        m.clock(&FetchIn {
            ports: vec![port(0b10, 0), port(0b10, 4)],
            copy: true,
            copy_from: 0,
            copy_to: 1,
            ..FetchIn::default()
        });
        assert_eq!(m.outputs(0).buffers[1].w0, ENDPGM);
        m.clock(&FetchIn {
            ports: vec![port(0b100, 0)],
            copy: true,
            copy_from: 1,
            copy_to: 3,
            ..FetchIn::default()
        });
        let out = m.outputs(0).buffers;
        assert_eq!((out[2].w0, out[3].w0), (V_MOV, ENDPGM));
    }

    #[test]
    fn past_the_end_reads_zero_and_is_flagged() {
        let mut m = loaded(2, 4, &[0, 0, 0, V_MOV]);
        // The last dword: its second dword is past the end.
        fetch(&mut m, vec![port(1, 12), port(2, 16)]);
        let out = m.outputs(4).buffers;
        assert_eq!((out[0].w0, out[0].w1, out[0].oob), (V_MOV, 0, false));
        assert_eq!((out[1].w0, out[1].oob), (0, true));
        assert_eq!(m.outputs(4).rdata, 0);
        assert_eq!(m.outputs(3).rdata, V_MOV);
    }

    #[test]
    fn a_write_is_seen_by_later_fetches_only_and_reset_keeps_the_code() {
        let mut m = loaded(1, 4, &[V_MOV]);
        m.clock(&FetchIn {
            wen: true,
            waddr: 0,
            wdata: ENDPGM,
            ports: vec![port(1, 0)],
            ..FetchIn::default()
        });
        assert_eq!(m.outputs(0).buffers[0].w0, V_MOV, "the old dword");
        m.clock(&FetchIn {
            reset: true,
            ..FetchIn::default()
        });
        assert_eq!(m.outputs(0).buffers[0], Buffer::default());
        fetch(&mut m, vec![port(1, 0)]);
        assert_eq!(m.outputs(0).buffers[0].w0, ENDPGM);
    }

    #[test]
    fn an_illegal_word_has_no_unit() {
        let mut m = loaded(1, 2, &[0xFFFF_FFFF]);
        fetch(&mut m, vec![port(1, 0)]);
        let b = m.outputs(0).buffers[0];
        assert_eq!((b.valid, b.illegal, b.unit), (true, true, 0));
    }
}
