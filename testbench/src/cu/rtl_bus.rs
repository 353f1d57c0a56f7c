//! The driver's [`Bus`] over an RTL system ([`SystemPorts`]: [`CuSystem`], [`CuSystem4`])
//! under the Verilator engine: the
//! firmware driver runs a kernel on the RTL by register accesses, as it does on the
//! behavioural GPU.
//!
//! Timing (the system's contract): a single access takes three clock cycles, the access cycle,
//! the cycle in which the register map sees it (the system registers its inputs) and the
//! response cycle; a burst issues one access a cycle and takes `n + 2` cycles (each response
//! is read in the cycle of the access two after it). [`Bus::tick`] clocks idle cycles.

use crate::sim::clock::Period;
use crate::sim::harness::{Harness, HarnessError};
use crate::sim::vl::{Engine, VlOptions, VlPorts};
use crate::tb::TB_PERIOD_PS;
use rtgpu_firmware::driver::Bus;
use rtgpu_hw::cu_system::{CuSystem, CuSystem4, CuSystemSim};
use rtgpu_hw::gpu::regmap::bus_error;
use rtgpu_hw::gpu::regs::BusError;
use rust_hdl::core::prelude::*;

/// An access on the bus: a write of the value, or a read.
#[derive(Clone, Copy, Debug)]
pub enum Access {
    /// A read at the address.
    Read(u32),
    /// A write of the value (second) at the address (first).
    Write(u32, u32),
}

/// The response the system gave in a cycle (`None`: no `ack`).
pub type Response = Option<Result<u32, BusError>>;

/// The cycles from an access to its response: the system's input stage registers the access,
/// the register map answers it the cycle after.
pub const RESPONSE_LATENCY: usize = 2;

/// An RTL system the driver's bus reaches: its clock, its bus inputs and its response.
pub trait SystemPorts: Block + VlPorts + Default {
    /// The harness's root name (the Verilator build's name).
    const ROOT: &'static str;
    /// The clock input.
    fn clock_pin(&mut self) -> &mut Signal<In, Clock>;
    /// Drives `reset` and one access (`rd`, `wr`, `addr`, `wdata`) for the cycle.
    fn drive(&mut self, reset: bool, access: Option<Access>);
    /// The response of the cycle (`None`: no `ack`).
    fn response(&self) -> Response;
}

/// [`SystemPorts`] of the RTL systems (the same ports on every top).
macro_rules! system_ports {
    ($($ty:ident $root:literal),+) => {$(
        impl<const A: usize> SystemPorts for $ty<A> {
            const ROOT: &'static str = $root;

            fn clock_pin(&mut self) -> &mut Signal<In, Clock> {
                &mut self.clock
            }

            fn drive(&mut self, reset: bool, access: Option<Access>) {
                let (rd, wr, a, v) = match access {
                    None => (false, false, 0, 0),
                    Some(Access::Read(a)) => (true, false, a, 0),
                    Some(Access::Write(a, v)) => (false, true, a, v),
                };
                self.reset.next = reset;
                self.rd.next = rd;
                self.wr.next = wr;
                self.addr.next = u64::from(a).to_bits();
                self.wdata.next = u64::from(v).to_bits();
            }

            fn response(&self) -> Response {
                let code = self.err_code.val().index() as u8;
                let word = self.rdata.val().index() as u32;
                self.ack
                    .val()
                    .then_some(if self.err.val() { Err(bus_error(code)) } else { Ok(word) })
            }
        }
    )+};
}

system_ports!(CuSystem "cu_system", CuSystem4 "cu_system4");

/// An RTL system (by default the simulated two-unit one, [`CuSystemSim`]) on the driver's
/// bus. Built and used on one thread with [`crate::sim::twin::RTL_STACK`] of stack (the block
/// is large).
pub struct RtlBus<S: SystemPorts = CuSystemSim> {
    h: Harness<S>,
    cycles: u64,
    failure: Option<String>,
}

impl<S: SystemPorts> RtlBus<S> {
    /// Verilates the system (cached under `target/verilator/`) and resets it.
    pub fn new(opts: &VlOptions) -> Result<Self, String> {
        let err = |e: HarnessError| e.to_string();
        let mut h =
            Harness::with_engine(S::default(), S::ROOT, Engine::Verilator, opts).map_err(err)?;
        h.add_clock("clock", Period::ps(TB_PERIOD_PS)?, |u| u.clock_pin())
            .map_err(err)?;
        Self::from_harness(h)
    }

    /// The system in harness `h` (its clock added; either engine), reset for one cycle.
    pub fn from_harness(mut h: Harness<S>) -> Result<Self, String> {
        h.cycle(|u| u.drive(true, None), |_| ())
            .map_err(|e| e.to_string())?;
        let mut bus = RtlBus {
            h,
            cycles: 1,
            failure: None,
        };
        bus.step(None);
        Ok(bus)
    }

    /// The harness back (to finish its waveform).
    pub fn into_harness(self) -> Harness<S> {
        self.h
    }

    /// Cycles clocked, the reset cycle included.
    pub fn cycles(&self) -> u64 {
        self.cycles
    }

    /// The simulation's failure, if one happened (the bus then refuses every access).
    pub fn failure(&self) -> Option<&str> {
        self.failure.as_deref()
    }

    /// One cycle with `access` on the bus (or none): the response to the previous cycle's
    /// access, read before the edge.
    fn step(&mut self, access: Option<Access>) -> Response {
        if self.failure.is_some() {
            return Some(Err(BusError::Unmapped));
        }
        let seen = self.h.cycle(|u| u.drive(false, access), |u| u.response());
        self.cycles += 1;
        match seen {
            Ok(r) => r,
            Err(e) => {
                self.failure = Some(e.to_string());
                Some(Err(BusError::Unmapped))
            }
        }
    }

    /// The response of an access whose response cycle this is (no `ack` is a failure).
    fn expect(&mut self, r: Response) -> Result<u32, BusError> {
        r.unwrap_or_else(|| {
            self.failure
                .get_or_insert_with(|| "the RTL system did not answer an access".into());
            Err(BusError::Unmapped)
        })
    }

    /// Accesses one a cycle, each response (in the cycle [`RESPONSE_LATENCY`] after its
    /// access) handed to `done` with the access's index; stops at the first refusal (the
    /// accesses after it were issued and are refused alike: the windows do not move on a
    /// refusal).
    fn burst(
        &mut self,
        n: usize,
        access: impl Fn(usize) -> Access,
        mut done: impl FnMut(usize, u32),
    ) -> Result<(), BusError> {
        for i in 0..n + RESPONSE_LATENCY {
            let r = self.step((i < n).then(|| access(i)));
            if i >= RESPONSE_LATENCY {
                let w = self.expect(r)?;
                done(i - RESPONSE_LATENCY, w);
            }
        }
        Ok(())
    }
}

impl<S: SystemPorts> Bus for RtlBus<S> {
    fn read(&mut self, a: u32) -> Result<u32, BusError> {
        let mut w = 0;
        self.burst(1, |_| Access::Read(a), |_, v| w = v)?;
        Ok(w)
    }

    fn write(&mut self, a: u32, v: u32) -> Result<(), BusError> {
        self.burst(1, |_| Access::Write(a, v), |_, _| ())
    }

    fn tick(&mut self, cycles: u64) {
        for _ in 0..cycles {
            self.step(None);
        }
    }

    fn read_burst(&mut self, a: u32, out: &mut [u32]) -> Result<(), BusError> {
        self.burst(out.len(), |_| Access::Read(a), |i, v| out[i] = v)
    }

    fn write_burst(&mut self, a: u32, words: &[u32]) -> Result<(), BusError> {
        self.burst(words.len(), |i| Access::Write(a, words[i]), |_, _| ())
    }
}
