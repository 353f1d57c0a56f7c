//! Random Sim-D programs for the property tests and the bound's check: a sequence of phases
//! (compute phases of random length, tile loads of random shapes and alignments into the
//! scratchpad), then the final store of everything loaded to the work-group's own output
//! region. Inputs are only read, outputs are disjoint per work-group, so every legal schedule
//! leaves the same memory.

use rand::Rng;
use rtgpu_firmware::launch::KernelMeta;

/// The words of the input buffer the loads read from.
pub const IN_WORDS: u32 = 16384;
/// Scratchpad bytes per work-group.
pub const LDS_BYTES: u32 = 16384;

/// One load: words per row, rows, period, start word in the input.
#[derive(Clone, Copy, Debug)]
pub struct Load {
    /// Words per row.
    pub words: u32,
    /// Rows.
    pub rows: u32,
    /// Words from one row's start to the next.
    pub period: u32,
    /// First word in the input buffer.
    pub start: u32,
}

/// A random program: per phase pair, the compute length (`s_nop`s) before a load.
#[derive(Clone, Debug)]
pub struct SimdProgram {
    /// Work-items per work-group.
    pub wg: u32,
    /// Work-groups.
    pub groups: u32,
    /// (compute length, load) pairs, in order.
    pub phases: Vec<(u32, Load)>,
    /// The compute length before the final store.
    pub tail: u32,
}

impl SimdProgram {
    /// A random program.
    pub fn random(rng: &mut impl Rng) -> Self {
        let n = rng.gen_range(1..=3);
        let mut budget = LDS_BYTES / 4;
        let phases = (0..n)
            .map(|_| {
                let words = rng.gen_range(1..=96);
                let rows = rng.gen_range(1..=6u32).min(budget / n / words).max(1);
                budget -= words * rows;
                let period = words + rng.gen_range(0..=48);
                let span = (rows - 1) * period + words;
                let start = rng.gen_range(0..=IN_WORDS - span);
                (
                    rng.gen_range(0..=40),
                    Load {
                        words,
                        rows,
                        period,
                        start,
                    },
                )
            })
            .collect();
        SimdProgram {
            wg: 64 * rng.gen_range(1..=4),
            groups: rng.gen_range(2..=5),
            phases,
            tail: rng.gen_range(0..=40),
        }
    }

    /// Words the program loads (and stores at the end).
    pub fn loaded(&self) -> u32 {
        self.phases.iter().map(|(_, l)| l.words * l.rows).sum()
    }

    /// The assembled kernel and its header.
    pub fn kernel(&self) -> Result<(Vec<u32>, KernelMeta), String> {
        let (prog, meta) = super::run::assemble_kernel(&self.source(), "random Sim-D program")?;
        Ok((prog.words(), meta))
    }

    /// The kernel source (GCN3 + `tile_ld`/`tile_st`, with its `// @` header).
    pub fn source(&self) -> String {
        let total = self.loaded();
        let mut s = format!(
            "// @grid {}\n// @wg {}\n// @lds {LDS_BYTES}\n// @args int:{IN_WORDS} zero:{}\n",
            self.wg * self.groups,
            self.wg,
            total * self.groups
        );
        s += "    s_load_dwordx4 s[8:11], s[0:1], 0x0\n    s_waitcnt lgkmcnt(0)\n";
        let mut lds = 0;
        for (c, l) in &self.phases {
            s += &compute(*c);
            s += &format!(
                "    s_add_u32 s16, s8, {}\n    s_mov_b32 s17, {}\n    s_mov_b32 s18, {}\n    \
                 s_mov_b32 s19, {}\n    tile_ld s[16:19]\n",
                4 * l.start,
                4 * lds,
                l.words | l.rows << 16,
                l.period
            );
            lds += l.words * l.rows;
        }
        s += &compute(self.tail);
        s += &format!(
            "    s_mul_i32 s5, s2, {}\n    s_add_u32 s20, s10, s5\n    s_mov_b32 s21, 0\n    \
             s_mov_b32 s22, {}\n    s_mov_b32 s23, {total}\n    tile_st s[20:23]\n    s_endpgm\n",
            4 * total,
            total | 1 << 16
        );
        s
    }
}

/// A compute phase of `n` steps: VALU work and short `s_nop`s.
fn compute(n: u32) -> String {
    (0..n)
        .map(|i| match i % 3 {
            0 => "    v_add_u32 v1, vcc, 1, v1\n".to_string(),
            1 => format!("    s_nop {}\n", i % 8),
            _ => "    v_mul_u32_u24 v2, v1, v0\n".to_string(),
        })
        .collect()
}
