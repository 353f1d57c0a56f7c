//! Timing-aware kernel scheduling on several compute units (the thesis' Chapter 5,
//! docs/works/thesis.md#chapter-5): applications ⟨kernels, priority, deadline, E(K, n)⟩
//! arrive over time ([`app`]); the workload splitter sizes each one's share of compute units
//! from its remaining-time estimate ([`response`], [`splitter`]: Eqs. 5.4–5.7, Algorithms
//! 6–8) and the execution schedule generator places the sub-kernels ([`schedgen`],
//! Algorithm 9); first-in first-out and EDF baselines ([`policy`]); the host loop and its
//! event log ([`engine`]) over the model GPU through the driver ([`model`]); the worked
//! example of Fig. 5.4 ([`fig54`]) and the random application sets of Section 5.4
//! ([`eval`]).

pub mod app;
pub mod engine;
pub mod eval;
pub mod fig54;
pub mod model;
pub mod policy;
pub mod report;
pub mod response;
pub mod schedgen;
pub mod splitter;
pub mod state;
