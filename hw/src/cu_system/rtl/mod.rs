//! The RTL system's top and its glue sub-blocks.

pub mod divider;
pub mod launch_check;
pub mod launch_ctl;
pub mod sub_kernel;
pub mod system;
