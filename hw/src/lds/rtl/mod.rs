//! The synthesizable LDS: the top [`lds::Lds`] (quarter counter, held instruction, fault
//! report, output wiring) over the RAM [`ram::LdsRam`], the datapath of one cycle
//! [`quarter::LdsQuarter`] (16 [`lane::LdsLane`]s and the `ds_add_u32` adder grid of
//! [`sum::LdsSumStep`]s), the opcode and offset decode [`decode::LdsDecode`] and the delay
//! line [`pipe::LdsPipe`].
//!
//! As in the SALU and the VALU, every signal that leaves a block is assigned once per
//! evaluation, its conditional value built in a local first. rust-hdl's Verilog generator
//! resolves one array index per name, so arrays of sub-blocks have no array ports: the adder
//! grid is one flat array (`16·lane + term`), the pipeline one flat array per field.

pub mod decode;
pub mod lane;
pub mod lds;
pub mod pipe;
pub mod quarter;
pub mod ram;
pub mod sum;
