//! The thesis' application model (Section 5.2): an application ⟨K, P, T_dead, E(K, n)⟩ is a
//! strictly sequential list of kernels, a priority, a deadline and the kernels' profiled
//! execution times on n compute units.

use serde::Serialize;

/// An application's priority class (Table 5.1's three levels); lower is more urgent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum Priority {
    /// High priority.
    High = 0,
    /// Medium priority.
    Medium = 1,
    /// Low priority.
    Low = 2,
}

impl Priority {
    /// The three classes, most urgent first.
    pub const ALL: [Priority; 3] = [Priority::High, Priority::Medium, Priority::Low];

    /// "high", "medium" or "low".
    pub fn name(self) -> &'static str {
        ["high", "medium", "low"][self as usize]
    }
}

/// One kernel of an application.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct KernelSpec {
    /// Its name in the event log (Fig. 5.4: A … F).
    pub name: String,
    /// Its kind: the row of the [`Profile`] and the launch the GPU side runs.
    pub kind: usize,
    /// |K|: its work-groups (the thesis' thread blocks).
    pub tbs: u32,
}

/// An application as it arrives.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct AppSpec {
    /// Its name.
    pub name: String,
    /// P_i.
    pub priority: Priority,
    /// Arrival time (cycles).
    pub arrival: u64,
    /// Relative deadline (cycles); the absolute deadline is arrival + this
    /// (docs/assumptions.md#A80).
    pub deadline: u64,
    /// K_i, run strictly in order.
    pub kernels: Vec<KernelSpec>,
}

impl AppSpec {
    /// T_dead(i): the absolute deadline.
    pub fn abs_deadline(&self) -> u64 {
        self.arrival + self.deadline
    }
}

/// E(K, n): per kernel kind, its execution time (cycles) with its whole grid on n = 1..=N
/// compute units, measured on the model.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Profile {
    /// `times[kind][n - 1]`.
    pub times: Vec<Vec<u64>>,
}

impl Profile {
    /// E(K, n) of kind `kind` (n clamped to 1..=N).
    pub fn e(&self, kind: usize, n: u32) -> u64 {
        let row = &self.times[kind];
        row[(n.max(1) as usize).min(row.len()) - 1]
    }

    /// N: the compute units profiled.
    pub fn n_tot(&self) -> u32 {
        self.times.first().map_or(0, Vec::len) as u32
    }
}
