//! The reordering unit on the testbench side: the RTL in the harness, random launches for the
//! tests (`testkit`), and the model against the static release order (a unit test).

#[cfg(test)]
mod release_order;
pub mod rtl;
pub mod testkit;
