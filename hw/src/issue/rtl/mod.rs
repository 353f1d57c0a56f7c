//! The issue control block's RTL: one context's state and eligibility, and the unit around
//! them (VALU busy counter, stall reason, the warp scheduler).

pub mod issue;
pub mod issue_ctx;
pub mod position_pick;
