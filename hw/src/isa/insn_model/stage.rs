//! The decode stage's cycle-level model: one register holding the decode of the last word
//! presented with `valid`.

use super::{decode_fields, InsnDecodeIn, InsnDecodeOut};

/// Cycle-level model of the one-stage decode register.
#[derive(Clone, Debug, Default)]
pub struct InsnDecodeModel {
    /// The register contents.
    held: InsnDecodeOut,
}

impl InsnDecodeModel {
    /// A stage in its power-up state (empty, all outputs 0).
    pub fn new() -> Self {
        Self::default()
    }

    /// Outputs during the current cycle (the register contents).
    pub fn outputs(&self) -> InsnDecodeOut {
        self.held
    }

    /// Rising edge with these inputs.
    pub fn clock(&mut self, input: InsnDecodeIn) {
        self.held = if input.reset || !input.valid {
            InsnDecodeOut::default()
        } else {
            InsnDecodeOut {
                out_valid: true,
                fields: decode_fields(input.word0, input.word1),
            }
        };
    }
}

impl crate::block::Clocked for InsnDecodeModel {
    type In = InsnDecodeIn;
    type Out = InsnDecodeOut;

    /// The stage's outputs are its register: they do not depend on the cycle's inputs.
    fn outputs(&self, _input: &InsnDecodeIn) -> InsnDecodeOut {
        InsnDecodeModel::outputs(self)
    }

    fn step(&mut self, input: &InsnDecodeIn) {
        self.clock(*input);
    }
}
