//! Per-wavefront coalescing: the lanes of one FLAT instruction become the 128-byte lines it
//! touches (the reordering paper's Algorithm 3 with 64-lane
//! wavefronts), ascending, each with the dword span it
//! touches in the line (a store writes that span to DRAM).
//!
//! The compute unit coalesces with the coalescer block (`crate::cache`, "Coalescer"), run to
//! its last line for each instruction; [`coalesce`] here is that block's oracle: the same lines
//! and spans in one function, which its model's and its testbench's checks compare against.

use crate::cache::model::LINE_SHIFT;

/// Dwords per 128-byte line.
pub const LINE_WORDS: u32 = 1 << (LINE_SHIFT - 2);

/// One line of an access.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineSpan {
    /// Line number (byte address >> 7).
    pub line: u32,
    /// First dword touched, within the line.
    pub first: u32,
    /// Dwords from `first` to the last dword touched, inclusive.
    pub words: u32,
}

impl LineSpan {
    /// The word address of the span's first dword.
    pub fn word_addr(&self) -> u32 {
        self.line * LINE_WORDS + self.first
    }
}

/// The lines touched by `n` dwords from each byte address of `addrs` (one per active lane),
/// ascending by line.
pub fn coalesce(addrs: impl IntoIterator<Item = u64>, n: usize) -> Vec<LineSpan> {
    let mut words: Vec<u64> = addrs
        .into_iter()
        .flat_map(|a| (0..n as u64).map(move |k| (a >> 2) + k))
        .collect();
    words.sort_unstable();
    words.dedup();
    let mut out: Vec<LineSpan> = Vec::new();
    for w in words {
        let line = (w / u64::from(LINE_WORDS)) as u32;
        let off = (w % u64::from(LINE_WORDS)) as u32;
        match out.last_mut() {
            Some(s) if s.line == line => s.words = off - s.first + 1,
            _ => out.push(LineSpan {
                line,
                first: off,
                words: 1,
            }),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sixty_four_consecutive_dwords_are_two_full_lines() {
        let v = coalesce((0..64u64).map(|l| 0x10000 + 4 * l), 1);
        assert_eq!(
            v,
            vec![
                LineSpan {
                    line: 0x200,
                    first: 0,
                    words: 32
                },
                LineSpan {
                    line: 0x201,
                    first: 0,
                    words: 32
                }
            ]
        );
        assert_eq!(v[1].word_addr(), 0x10080 / 4);
    }

    #[test]
    fn scattered_lanes_give_ascending_lines_and_spans() {
        let v = coalesce([0x1000 + 128 * 3 + 8, 0x1000 + 4, 0x1000 + 124], 2);
        assert_eq!(v.len(), 3);
        assert_eq!(
            v[0],
            LineSpan {
                line: 0x20,
                first: 1,
                words: 31
            }
        );
        assert_eq!(v[1].line, 0x21);
        assert_eq!((v[1].first, v[1].words), (0, 1));
        assert_eq!((v[2].line, v[2].first, v[2].words), (0x23, 2, 2));
    }

    #[test]
    fn no_lane_no_line() {
        assert!(coalesce([], 4).is_empty());
    }
}
