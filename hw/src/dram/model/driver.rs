//! Drivers of the DRAM controller model: a [`Request`] presented on the ports, run back to
//! back on a fresh model until done ([`run_requests`], [`run_request`], [`request_lid`]).

use std::fmt;

use super::super::{Command, Part};
use super::{DramIn, DramModel, DramOut, LEN_MASK};

/// A request for the drivers ([`run_request`], [`run_requests`], [`request_lid`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Request {
    /// Direction: `false` read, `true` write.
    pub write: bool,
    /// Iterative indexed (the indexes are in `indexes`) rather than a tile.
    pub indexed: bool,
    /// Tile: start word (30 bits).
    pub addr: u32,
    /// Tile: words per row (30 bits; must be ≥ 1 for indexed requests too).
    pub words: u32,
    /// Tile: words from one row's start to the next (30 bits; ≥ `words` when `count > 1`,
    /// for indexed requests too).
    pub period: u32,
    /// Tile: rows; indexed: the number of indexes the controller expects.
    pub count: u16,
    /// Echoed on completion.
    pub tag: u8,
    /// Indexed: the word addresses fed on the `idx_*` port (at most `count` are fed).
    pub indexes: Vec<u32>,
}

impl Request {
    /// A tile: `count` rows of `words` words, `period` words apart, from word `addr`.
    pub fn tile(write: bool, addr: u32, words: u32, period: u32, count: u16) -> Self {
        Self {
            write,
            indexed: false,
            addr,
            words,
            period,
            count,
            tag: 0,
            indexes: Vec::new(),
        }
    }

    /// `words` consecutive words from word `addr` (a one-row tile with period = words).
    pub fn contiguous(write: bool, addr: u32, words: u32) -> Self {
        Self::tile(write, addr, words, words, 1)
    }

    /// An iterative indexed request over `indexes` (word addresses); W = P = 1 so that the
    /// request is not bad (the contract's bad-request rule applies to every request).
    /// Panics if there are more than 65535 indexes.
    pub fn indexed(write: bool, indexes: Vec<u32>) -> Self {
        let count = u16::try_from(indexes.len()).expect("at most 65535 indexes");
        Self {
            write,
            indexed: true,
            addr: 0,
            words: 1,
            period: 1,
            count,
            tag: 0,
            indexes,
        }
    }

    /// The same request with tag `tag`.
    pub fn with_tag(mut self, tag: u8) -> Self {
        self.tag = tag;
        self
    }

    /// The `req_*` inputs presenting this request.
    pub(super) fn inputs(&self) -> DramIn {
        DramIn {
            req_valid: true,
            req_write: self.write,
            req_indexed: self.indexed,
            req_addr: self.addr,
            req_words: self.words,
            req_period: self.period,
            req_count: self.count,
            req_tag: self.tag,
            ..DramIn::default()
        }
    }

    /// A generous bound on the cycles the request can take.
    fn cycle_bound(&self) -> u64 {
        let bursts = if self.indexed {
            u64::from(self.count)
        } else {
            u64::from(self.count) * (u64::from(self.words & LEN_MASK) / 16 + 2)
        };
        200_000 + 1_000 * bursts
    }
}

/// What one request did (cycle numbers count from the model's construction).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RequestRun {
    /// `done_lid` (0 for a bad request).
    pub lid: u32,
    /// The acceptance cycle t_a.
    pub accepted_at: u64,
    /// The `done` cycle t_d.
    pub done_at: u64,
    /// The request was bad (`done_error`).
    pub error: bool,
    /// The cycles from t_a to t_d (inclusive) with a command, and that cycle's outputs
    /// (empty when the driver was asked not to record).
    pub commands: Vec<(u64, DramOut)>,
    /// Cycles from t_a to t_d (inclusive) with `dq_valid`.
    pub dq_cycles: u32,
}

/// Why a driver gave up.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum RunError {
    /// Not every request was done after `cycles` cycles (a model bug or a livelock).
    Timeout {
        /// Cycles stepped.
        cycles: u64,
        /// Requests completed by then.
        completed: usize,
    },
    /// The request was bad (`done_error`), so it has no LID ([`request_lid`] only).
    BadRequest {
        /// The `done` cycle.
        done_at: u64,
    },
}

impl fmt::Display for RunError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            RunError::Timeout { cycles, completed } => write!(
                f,
                "DRAM model: requests not done after {cycles} cycles ({completed} completed)"
            ),
            RunError::BadRequest { done_at } => {
                write!(f, "DRAM model: bad request (done_error in cycle {done_at})")
            }
        }
    }
}

impl std::error::Error for RunError {}

/// One completed request in [`drive`]: (t_a, t_d, the `done` cycle's outputs, DQ cycles).
pub(super) type Completion = (u64, u64, DramOut, u32);

/// Run `reqs` back to back on `model`: request i is presented (req_valid held) from the
/// cycle request i − 1 was accepted (from the current cycle for the first), indexes are fed
/// whenever `idx_ready`, and the run stops in the cycle the last request is done. `on_cycle`
/// sees every cycle's outputs. Returns per request (t_a, t_d, done output, dq cycles).
pub(super) fn drive(
    model: &mut DramModel,
    reqs: &[Request],
    limit: u64,
    mut on_cycle: impl FnMut(u64, &DramOut, Option<usize>),
) -> Result<Vec<Completion>, RunError> {
    let start = model.cycle();
    let mut result = Vec::with_capacity(reqs.len());
    let mut next = 0usize; // next request to present
    let mut cur: Option<usize> = None; // request in progress
    let mut accepted_at = 0u64;
    let mut fed = 0usize; // indexes fed for `cur`
    let mut dq = 0u32;
    while result.len() < reqs.len() {
        let t = model.cycle();
        if t - start >= limit {
            return Err(RunError::Timeout {
                cycles: t - start,
                completed: result.len(),
            });
        }
        let mut presented = false;
        let mut idx_fed = false;
        let out = model.step_with(|out| {
            let mut inp = match reqs.get(next) {
                Some(r) => {
                    presented = true;
                    r.inputs()
                }
                None => DramIn::default(),
            };
            if let Some(c) = cur {
                let r = &reqs[c];
                if r.indexed && fed < r.indexes.len() {
                    inp.idx_valid = true;
                    inp.idx_addr = r.indexes[fed];
                    idx_fed = out.idx_ready;
                }
            }
            inp
        });
        on_cycle(t, &out, cur);
        if out.dq_valid {
            dq += 1;
        }
        if idx_fed {
            fed += 1;
        }
        if out.done {
            result.push((accepted_at, t, out, dq));
            cur = None;
        }
        if presented && out.req_ready {
            cur = Some(next);
            next += 1;
            accepted_at = t;
            fed = 0;
            dq = 0;
        }
    }
    Ok(result)
}

/// Run `reqs` back to back on a fresh model (`part`, `refresh_phase`): each request is
/// presented from the cycle its predecessor was accepted (the first from cycle 0), indexes
/// are fed as soon as `idx_ready`, and the run ends with the last request's `done`. Each
/// [`RequestRun`] records the commands of its cycles t_a..=t_d (a REF between two requests
/// belongs to none).
pub fn run_requests(
    part: Part,
    refresh_phase: u16,
    reqs: &[Request],
) -> Result<Vec<RequestRun>, RunError> {
    let mut model = DramModel::new(part, refresh_phase);
    let limit = reqs.iter().map(Request::cycle_bound).sum();
    let mut cmds: Vec<Vec<(u64, DramOut)>> = vec![Vec::new(); reqs.len()];
    let done = drive(&mut model, reqs, limit, |t, out, cur| {
        if let Some(c) = cur {
            if out.cmd != Command::Nop {
                cmds[c].push((t, *out));
            }
        }
    })?;
    Ok(done
        .into_iter()
        .zip(cmds)
        .map(|((a, d, out, dq), commands)| RequestRun {
            lid: out.done_lid,
            accepted_at: a,
            done_at: d,
            error: out.done_error,
            commands,
            dq_cycles: dq,
        })
        .collect())
}

/// Run one request on a fresh model (`part`, `refresh_phase`), presented from cycle 0 (so
/// accepted in cycle 0), until its `done`. A bad request gives `Ok` with `error` set.
pub fn run_request(part: Part, refresh_phase: u16, req: &Request) -> Result<RequestRun, RunError> {
    let mut runs = run_requests(part, refresh_phase, std::slice::from_ref(req))?;
    Ok(runs.pop().expect("one run per request"))
}

/// The LID of one request on a fresh model, without recording anything (for sweeps).
pub fn request_lid(part: Part, refresh_phase: u16, req: &Request) -> Result<u32, RunError> {
    let mut model = DramModel::new(part, refresh_phase);
    let done = drive(
        &mut model,
        std::slice::from_ref(req),
        req.cycle_bound(),
        |_, _, _| {},
    )?;
    let (_, t_d, out, _) = done[0];
    if out.done_error {
        Err(RunError::BadRequest { done_at: t_d })
    } else {
        Ok(out.done_lid)
    }
}
