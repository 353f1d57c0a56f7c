//! The compute unit's coalescer: the swappable block (`Blocks::coalesce`, contract in
//! `crate::cache`, "Coalescer") run to `last` for each FLAT instruction that goes to the
//! memory hierarchy. Its cycles are hidden within the instruction's issue cycle: the hierarchy
//! gets the lines in that cycle, so the compute unit's cycle counts do not depend on them.

use crate::block::{BlockFault, Blocks, DynBlock};
use crate::cache::coal_model::{CoalescerIn, CoalescerOut, WAVE_LANES};
use crate::memsys::coalesce::LineSpan;

/// The most lines one instruction can give (every lane on two lines).
const MAX_LINES: usize = 2 * WAVE_LANES;

/// The coalescer block and its buffers (reused: an access allocates only its line list).
pub(super) struct Coalescing {
    block: DynBlock<CoalescerIn<WAVE_LANES>, CoalescerOut>,
    input: CoalescerIn<WAVE_LANES>,
}

impl Coalescing {
    /// The block from `blocks`, after its reset cycle.
    pub(super) fn new(blocks: &dyn Blocks) -> Result<Self, String> {
        let mut block = blocks.coalesce()?;
        let input = CoalescerIn {
            reset: true,
            ..CoalescerIn::default()
        };
        block.step(&input);
        Ok(Self { block, input })
    }

    /// The lines touched by `n` dwords (1..=4) from each lane's byte address (`addrs`: (lane,
    /// address) for the lanes of `eff`), ascending, each with its span: the block loads the
    /// instruction, then is advanced every cycle until `last` (an empty `eff` gives no line).
    /// The lines are written into `spans` (emptied first; a list the hierarchy gave back, see
    /// `MemSystem::take_lines`), which is returned.
    /// The memory port has checked every dword against the data memory (at most 1 GiB), so the
    /// addresses fit the block's 32 bits.
    pub(super) fn lines(
        &mut self,
        addrs: impl Iterator<Item = (usize, u64)>,
        eff: u64,
        n: usize,
        mut spans: Vec<LineSpan>,
    ) -> Vec<LineSpan> {
        let i = &mut self.input;
        i.reset = false;
        i.addr.fill(0);
        for (lane, a) in addrs {
            i.addr[lane] = a as u32;
        }
        (i.load, i.mask, i.size, i.next) = (true, eff, (n - 1) as u8, false);
        self.block.step(i);
        (i.load, i.next) = (false, true);
        spans.clear();
        for _ in 0..MAX_LINES {
            let out = self.block.cycle(i);
            if !out.busy {
                break;
            }
            spans.push(LineSpan {
                line: out.line,
                first: out.first,
                words: out.words,
            });
            if out.last {
                break;
            }
        }
        spans
    }

    /// The block's lock-step fault, if any.
    pub(super) fn check(&self) -> Result<(), Box<BlockFault>> {
        self.block.check()
    }
}
