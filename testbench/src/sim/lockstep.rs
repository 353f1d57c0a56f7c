//! The lock-step checker: two implementations of one block, driven with the same inputs and
//! compared port by port every cycle.

use rtgpu_hw::block::{BlockFault, Clocked, FaultKind, Ports, WindowRow};
use std::cell::RefCell;
use std::collections::VecDeque;

/// Cycles of inputs and outputs kept for the waveform of a mismatch.
pub const WINDOW: usize = 32;

/// A reference implementation and one under test, run together. It behaves as the
/// reference (its outputs are the reference's), and remembers the first cycle at which the
/// two differ on any output port, which [`Clocked::check`] then reports.
pub struct LockStep<R: Clocked, U: Clocked<In = R::In, Out = R::Out>> {
    name: String,
    reference: R,
    under_test: U,
    cycle: u64,
    /// The last [`WINDOW`] cycles: (inputs, expected, got).
    window: VecDeque<(R::In, R::Out, R::Out)>,
    fault: RefCell<Option<Box<BlockFault>>>,
}

impl<R: Clocked, U: Clocked<In = R::In, Out = R::Out>> LockStep<R, U> {
    /// `under_test` checked against `reference` as block `name`.
    pub fn new(name: &str, reference: R, under_test: U) -> Self {
        LockStep {
            name: name.to_string(),
            reference,
            under_test,
            cycle: 0,
            window: VecDeque::with_capacity(WINDOW + 1),
            fault: RefCell::new(None),
        }
    }

    /// The two implementations back (the reference first), e.g. to close an RTL engine.
    pub fn into_parts(self) -> (R, U) {
        (self.reference, self.under_test)
    }

    /// Compares one evaluation; the first difference (or engine failure) is kept.
    fn compare(&self, input: &R::In, expected: &R::Out, got: &R::Out) {
        if self.fault.borrow().is_some() {
            return;
        }
        if let Err(f) = self.under_test.check() {
            *self.fault.borrow_mut() = Some(f);
            return;
        }
        if expected == got {
            return;
        }
        let (e, g) = (expected.flatten(), got.flatten());
        let (port, expected, got) = e
            .iter()
            .zip(&g)
            .find(|(a, b)| a.2 != b.2)
            .map(|(a, b)| (a.0.clone(), a.2, b.2))
            .unwrap_or_else(|| ("(port list)".into(), e.len() as u64, g.len() as u64));
        let mut window: Vec<WindowRow> = self.rows();
        window.push(row(self.cycle, input, &e, &g));
        *self.fault.borrow_mut() = Some(Box::new(BlockFault {
            block: self.name.clone(),
            cycle: self.cycle,
            kind: FaultKind::Mismatch {
                port,
                expected,
                got,
            },
            window,
        }));
    }

    /// The kept cycles as port lists.
    fn rows(&self) -> Vec<WindowRow> {
        let first = self.cycle - self.window.len() as u64;
        self.window
            .iter()
            .enumerate()
            .map(|(i, (inp, e, g))| row(first + i as u64, inp, &e.flatten(), &g.flatten()))
            .collect()
    }
}

fn row<I: Ports>(
    cycle: u64,
    input: &I,
    expected: &[(String, u32, u64)],
    got: &[(String, u32, u64)],
) -> WindowRow {
    WindowRow {
        cycle,
        inputs: input.flatten(),
        expected: expected.to_vec(),
        got: got.to_vec(),
    }
}

impl<R: Clocked, U: Clocked<In = R::In, Out = R::Out>> Clocked for LockStep<R, U> {
    type In = R::In;
    type Out = R::Out;

    fn outputs(&self, input: &R::In) -> R::Out {
        let expected = self.reference.outputs(input);
        let got = self.under_test.outputs(input);
        self.compare(input, &expected, &got);
        expected
    }

    fn step(&mut self, input: &R::In) {
        self.cycle(input);
    }

    fn cycle(&mut self, input: &R::In) -> R::Out {
        let expected = self.reference.cycle(input);
        let got = self.under_test.cycle(input);
        self.compare(input, &expected, &got);
        if self.window.len() == WINDOW {
            self.window.pop_front();
        }
        self.window
            .push_back((input.clone(), expected.clone(), got));
        self.cycle += 1;
        expected
    }

    fn check(&self) -> Result<(), Box<BlockFault>> {
        match &*self.fault.borrow() {
            Some(f) => Err(f.clone()),
            None => Ok(()),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rtgpu_hw::cache::model::{CacheIn, CacheModel, CacheOut};

    /// A cache whose `hit` output is inverted from cycle `from` on: a wrong implementation.
    struct Broken {
        inner: CacheModel,
        from: u64,
        cycle: u64,
    }

    impl Clocked for Broken {
        type In = CacheIn;
        type Out = CacheOut;
        fn outputs(&self, i: &CacheIn) -> CacheOut {
            let mut o = self.inner.outputs(i);
            o.hit ^= self.cycle >= self.from;
            o
        }
        fn step(&mut self, i: &CacheIn) {
            self.inner.step(i);
            self.cycle += 1;
        }
    }

    fn access(line: u32) -> CacheIn {
        CacheIn {
            req_valid: true,
            req_line: line,
            ..CacheIn::default()
        }
    }

    #[test]
    fn equal_implementations_never_fault() {
        let mut ls = LockStep::new(
            "l1",
            CacheModel::new(4, 2).unwrap(),
            CacheModel::new(4, 2).unwrap(),
        );
        for k in 0..100 {
            ls.cycle(&access(k % 7));
        }
        assert!(ls.check().is_ok());
    }

    #[test]
    fn the_first_wrong_port_is_reported_with_its_cycle_and_window() {
        let broken = Broken {
            inner: CacheModel::new(4, 2).unwrap(),
            from: 40,
            cycle: 0,
        };
        let mut ls = LockStep::new("l1", CacheModel::new(4, 2).unwrap(), broken);
        for k in 0..100 {
            ls.cycle(&access(k % 7));
        }
        let f = ls.check().unwrap_err();
        assert_eq!((f.block.as_str(), f.cycle), ("l1", 40));
        let FaultKind::Mismatch {
            port,
            expected,
            got,
        } = &f.kind
        else {
            panic!("{f}");
        };
        assert_eq!(port, "hit");
        assert_ne!(expected, got);
        assert_eq!(f.window.len(), WINDOW + 1);
        assert_eq!(f.window.last().unwrap().cycle, 40);
        assert_eq!(f.window[0].cycle, 40 - WINDOW as u64);
        assert!(f
            .to_string()
            .starts_with("block l1, cycle 40, port hit, expected"));
    }
}
