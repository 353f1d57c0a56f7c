//! The synthesizable register map: the top [`regmap::RegMap`] (bus, refusals, windows,
//! response registers, output wiring) over the address decode [`decode::RegDecode`], the read
//! multiplexer [`read::RegRead`] and three banks of launch registers [`bank::RegBank`]
//! (`ENTRY_PC`..`PGM_RSRC2`, `IDU_CLUSTER`, `USER_DATA`).
//!
//! As in the other blocks, every signal that leaves a block is assigned once per evaluation,
//! its conditional value built in a local first.

pub mod bank;
pub mod decode;
pub mod read;
pub mod regmap;
