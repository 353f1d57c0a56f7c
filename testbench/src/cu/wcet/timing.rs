//! Input-independent instruction costs from the compute unit's timing rules
//! (`hw/src/cu`): the most cycles from one instruction's issue to its wavefront's next issue,
//! per edge of the instruction graph, for a wavefront alone on its unit.
//!
//! The rules: an instruction's wavefront may issue again `latency` cycles after it (SALU,
//! `split`/`merge`, `s_waitcnt` and `s_barrier`: `salu`; VALU: `valu`; a branch, taken or not:
//! `branch`; a memory instruction: 1; `s_nop N`: 1 + N; `s_sleep N`: 64·max(N, 1)); a VALU
//! instruction also waits for its unit's VALU, busy `issue_period` cycles after the previous
//! VALU issue; a DS instruction waits for the LDS, busy `lds_period` cycles after the
//! previous DS issue (docs/assumptions.md#A104); `s_waitcnt` waits until the counts are at
//! most its fields; a FLAT access completes `flat` cycles after its issue, SMEM `smem`, LDS
//! `lds` (fixed latencies, the hierarchy off). Data never changes these: taken and untaken
//! branches cost the same.
//!
//! A forward dataflow over the graph keeps, after each instruction, an upper bound on what is
//! still pending, relative to that instruction's issue: per counter (vm, lgkm) how many
//! accesses may be outstanding (capped at 16: a 4-bit field cannot ask for fewer) and when the
//! last of them completes, and when the VALU and the LDS are free. Joins take the maximum, so the state at
//! a node bounds every path to it. Between two issues at least the first one's latency
//! passes, and the state is moved on by that much only: the real time between them may be
//! longer (another wavefront's instruction, a shared pipe), which only makes the real pending
//! times shorter. An `s_waitcnt` whose field is 0 leaves nothing pending on its counter; one
//! with a larger field caps the count but keeps the completion time.
//!
//! The cost of edge (i → j) is then max(latency(i), what j waits for) plus, when j uses the
//! global or scalar memory pipe, the (units − 1) cycles it may wait for it
//! (docs/assumptions.md#A30). Other wavefronts' DS instructions are not in the edges: each
//! keeps the LDS at most `lds_period` cycles, and the analyses charge them per round, phase
//! or launch ([`lds_interference`], docs/assumptions.md#A105). A
//! barrier's wait for the other wavefronts is not in its edge: it is bounded at the level of
//! the wavefront (every wavefront of the work-group runs at most the longest path to the
//! barrier, see [`super::static_costs`]).

use super::graph::{Graph, Node};
use rtgpu_hw::cu::Latencies;
use rtgpu_hw::isa::insn_model::unit;

/// The most accesses a counter state tells apart (a 4-bit `s_waitcnt` field is at most 15).
const CAP: u8 = 16;

/// Accesses pending on one counter.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
struct Pending {
    /// How many may be outstanding (at most [`CAP`]).
    n: u8,
    /// Cycles until the last of them has completed.
    rem: u64,
}

impl Pending {
    fn join(self, o: Pending) -> Pending {
        Pending {
            n: self.n.max(o.n),
            rem: self.rem.max(o.rem),
        }
    }

    fn advance(self, g: u64) -> Pending {
        match self.rem.saturating_sub(g) {
            0 => Pending::default(),
            rem => Pending { n: self.n, rem },
        }
    }

    /// The cycles an `s_waitcnt` with `field` waits, and the state after it.
    fn wait(self, field: u32) -> (u64, Pending) {
        if u32::from(self.n) <= field {
            return (0, self);
        }
        match field {
            0 => (self.rem, Pending::default()),
            f => (self.rem, Pending { n: f as u8, ..self }),
        }
    }

    fn issue(self, latency: u64) -> Pending {
        Pending {
            n: (self.n + 1).min(CAP),
            rem: self.rem.max(latency),
        }
    }
}

/// What may be pending right after an instruction's issue, relative to it.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct State {
    vm: Pending,
    lgkm: Pending,
    valu: u64,
    /// Cycles until the LDS takes a DS instruction again after this wavefront's last one.
    lds: u64,
}

impl State {
    fn join(self, o: State) -> State {
        State {
            vm: self.vm.join(o.vm),
            lgkm: self.lgkm.join(o.lgkm),
            valu: self.valu.max(o.valu),
            lds: self.lds.max(o.lds),
        }
    }

    fn advance(self, g: u64) -> State {
        State {
            vm: self.vm.advance(g),
            lgkm: self.lgkm.advance(g),
            valu: self.valu.saturating_sub(g),
            lds: self.lds.saturating_sub(g),
        }
    }
}

/// The timing rules of one configuration.
#[derive(Clone, Copy, Debug)]
pub struct Rules {
    /// Class latencies.
    pub lat: Latencies,
    /// Cycles a global or scalar memory instruction may wait for its shared pipe (units − 1).
    pub pipe_wait: u64,
    /// Cycles more a global (FLAT) instruction may wait for the memory hierarchy to take it
    /// (0 with fixed latencies; [`super::memory::MemBound::accept`]).
    pub vmem_wait: u64,
}

fn is_waitcnt(n: &Node) -> bool {
    n.f.unit == unit::SYNC && n.f.opcode == 0x0C
}

/// `n` is a DS (LDS) instruction.
pub fn is_ds(n: &Node) -> bool {
    n.f.unit == unit::LDS
}

/// The most cycles `others` wavefronts' DS instructions, at most `ds` each, may keep the LDS
/// from a wavefront: `lds_period` per instruction (docs/assumptions.md#A105). The issue
/// rotation does not bound one DS instruction's wait by the number of units (with
/// `lds_period` and the units a common factor, the same unit may find the LDS free every
/// time), so the analyses count the DS instructions that may be issued beside it instead.
pub fn lds_interference(lat: &Latencies, others: u64, ds: u64) -> u64 {
    u64::from(lat.lds_period)
        .saturating_mul(others)
        .saturating_mul(ds)
}

impl Rules {
    /// Cycles from `n`'s issue until its wavefront may issue again.
    pub fn latency(&self, n: &Node) -> u64 {
        let l = &self.lat;
        let f = &n.f;
        let c = match f.unit {
            unit::VALU => l.valu,
            unit::VMEM | unit::SMEM | unit::LDS => 1,
            unit::BRANCH => l.branch,
            unit::PROGRAM if f.opcode == 0x00 => 1 + (f.imm & 0xF),
            unit::PROGRAM if f.opcode == 0x0E => 64 * (f.imm & 0x7F).max(1),
            _ => l.salu,
        };
        u64::from(c.max(1))
    }

    /// The cycles `n` waits for its own state (VALU, counters) given the state `s` before it
    /// (relative to the previous issue), and the state after those waits.
    fn waits(&self, n: &Node, s: State) -> (u64, State) {
        if n.f.unit == unit::VALU {
            return (s.valu, s);
        }
        if is_ds(n) {
            return (s.lds, s);
        }
        if !is_waitcnt(n) {
            return (0, s);
        }
        let (wv, vm) = s.vm.wait(n.f.imm & 0xF);
        let (wl, lgkm) = s.lgkm.wait((n.f.imm >> 8) & 0xF);
        (wv.max(wl), State { vm, lgkm, ..s })
    }

    fn pipe(&self, n: &Node) -> u64 {
        match n.f.unit {
            unit::VMEM => self.pipe_wait + self.vmem_wait,
            unit::SMEM => self.pipe_wait,
            _ => 0,
        }
    }

    /// The most cycles from `i`'s issue to `j`'s, given the state `after_i`.
    pub fn edge(&self, i: &Node, after_i: State, j: &Node) -> u64 {
        let (w, _) = self.waits(j, after_i);
        self.latency(i).max(w) + self.pipe(j)
    }

    /// The state right after `j` issues, when `prev` (with state `after_prev`) issued before
    /// it; `None` for the first instruction.
    fn after(&self, prev: Option<(&Node, State)>, j: &Node) -> State {
        let before = prev.map_or(State::default(), |(p, s)| s.advance(self.latency(p)));
        let (_, mut s) = self.waits(j, before);
        let l = &self.lat;
        match j.f.unit {
            unit::VMEM => s.vm = s.vm.issue(u64::from(l.flat)),
            unit::SMEM => s.lgkm = s.lgkm.issue(u64::from(l.smem)),
            unit::LDS => {
                s.lgkm = s.lgkm.issue(u64::from(l.lds));
                s.lds = u64::from(l.lds_period);
            }
            unit::VALU => s.valu = u64::from(l.issue_period),
            _ => {}
        }
        s
    }

    /// The most global accesses a wavefront may have outstanding at once on any path, when
    /// no access ever completes by itself (only `s_waitcnt` retires them): the P of
    /// [`super::memory::Traffic`].
    pub fn most_pending(&self, g: &Graph) -> u64 {
        let mut never = *self;
        never.lat.flat = u32::MAX / 2;
        let s = never.states(g);
        match s.iter().map(|x| x.vm.n).max().unwrap_or(0) {
            // The count saturated: no `s_waitcnt` limits it (the path's capacity does).
            CAP => 1 << 20,
            n => u64::from(n).max(1),
        }
    }

    /// The isolated issue cycle of every instruction of one path (a wavefront alone, its
    /// first issue at 0): each issue follows the previous one by its edge cost, the state
    /// carried along the path itself.
    pub fn walk(&self, path: &[Node]) -> Vec<u64> {
        let mut t = Vec::with_capacity(path.len());
        let mut prev: Option<(&Node, State, u64)> = None;
        for n in path {
            let at = prev.map_or(0, |(p, s, at)| at + self.edge(p, s, n));
            let s = self.after(prev.map(|(p, s, _)| (p, s)), n);
            t.push(at);
            prev = Some((n, s, at));
        }
        t
    }

    /// Cycles from `n`'s issue to its completion: a memory access its latency, any other
    /// instruction its issue latency.
    pub fn completion(&self, n: &Node) -> u64 {
        let l = &self.lat;
        match n.f.unit {
            unit::VMEM => u64::from(l.flat),
            unit::SMEM => u64::from(l.smem),
            unit::LDS => u64::from(l.lds),
            _ => self.latency(n),
        }
    }

    /// The fixed point: per node, the state after its issue over every path from the entry.
    pub fn states(&self, g: &Graph) -> Vec<State> {
        let n = g.nodes.len();
        let mut st: Vec<Option<State>> = vec![None; n];
        if n == 0 {
            return Vec::new();
        }
        st[0] = Some(self.after(None, &g.nodes[0]));
        let mut work = vec![0usize];
        while let Some(i) = work.pop() {
            let s = st[i].expect("queued nodes have a state");
            for &j in &g.succs[i] {
                let new = self.after(Some((&g.nodes[i], s)), &g.nodes[j]);
                let joined = st[j].map_or(new, |o| o.join(new));
                if st[j] != Some(joined) {
                    st[j] = Some(joined);
                    work.push(j);
                }
            }
        }
        st.into_iter().map(Option::unwrap_or_default).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtgpu_firmware::isa::assemble;

    fn costs(src: &str) -> Vec<u64> {
        let g = Graph::new(&assemble(src, "t").unwrap().words()).unwrap();
        let r = Rules {
            lat: Latencies::default(),
            pipe_wait: 0,
            vmem_wait: 0,
        };
        let s = r.states(&g);
        (0..g.nodes.len().saturating_sub(1))
            .map(|i| r.edge(&g.nodes[i], s[i], &g.nodes[i + 1]))
            .collect()
    }

    #[test]
    fn a_waitcnt_pays_the_rest_of_the_load_and_a_valu_waits_for_its_unit() {
        // flat 64: the load issues at 0, the add at 1; the edge into the wait pays the rest
        // of the load (64 − 1), so the wait issues at 64.
        let c = costs(
            "flat_load_dword v1, v[2:3]\nv_add_u32 v4, vcc, v5, v6\ns_waitcnt vmcnt(0)\n\
             v_mov_b32 v7, v1\ns_endpgm\n",
        );
        assert_eq!(c, [1, 63, 1, 4]);
        // A waitcnt that allows one outstanding access does not wait for one.
        let c = costs("flat_load_dword v1, v[2:3]\ns_waitcnt vmcnt(1)\ns_endpgm\n");
        assert_eq!(c, [1, 1]);
    }

    /// Back-to-back DS instructions wait for the LDS: `lds_period` (4) cycles apart; a DS
    /// instruction after other work waits only for the rest of the period (the mutation that
    /// leaves `lds` out of `waits` makes the first edges 1).
    #[test]
    fn a_ds_instruction_waits_for_the_lds_period_of_the_previous_one() {
        let c = costs(
            "ds_read_b32 v1, v2
ds_read_b32 v3, v2
s_mov_b32 s1, 0
ds_read_b32 v4, v2
             s_endpgm
",
        );
        assert_eq!(c, [4, 1, 3, 1]);
    }

    #[test]
    fn pending_loads_across_a_loop_are_bounded_by_the_fixed_point() {
        let c = costs(
            "s_mov_b32 s1, 0\nl:\nflat_load_dword v1, v[2:3]\ns_add_u32 s1, s1, 1\n\
             s_cmp_lt_u32 s1, 4\ns_cbranch_scc1 l\ns_waitcnt vmcnt(0)\ns_endpgm\n",
        );
        // The wait after the loop, from the branch's issue: the last load issued 3 cycles
        // before it at the least, so at most 64 − 3.
        assert_eq!(c[4], 61);
    }
}
