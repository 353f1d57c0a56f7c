//! The DS opcode and offset decode.

use crate::hdl::k;
use crate::lds::op;
use rust_hdl::prelude::*;

/// Opcode classes and the two byte offsets, combinational.
#[derive(LogicBlock)]
pub struct LdsDecode {
    /// DS opcode.
    pub opcode: Signal<In, Bits<8>>,
    /// The decoder's `imm`: OFFSET1:OFFSET0 in bits \[15:0\].
    pub offset: Signal<In, Bits<32>>,
    /// The opcode is in the subset.
    pub legal: Signal<Out, Bit>,
    /// A load (`ds_read_b32`, `ds_read2_b32`).
    pub read: Signal<Out, Bit>,
    /// `ds_read2_b32`.
    pub read2: Signal<Out, Bit>,
    /// Two addresses per lane.
    pub two: Signal<Out, Bit>,
    /// The lanes' first words are written (`ds_add_u32`, `ds_write_b32`, `ds_write2_b32`).
    pub write: Signal<Out, Bit>,
    /// `ds_write2_b32`.
    pub write2: Signal<Out, Bit>,
    /// `ds_add_u32`.
    pub add: Signal<Out, Bit>,
    /// The first address's offset in bytes: the 16-bit offset, or 4·OFFSET0.
    pub off_a: Signal<Out, Bits<32>>,
    /// The second address's offset in bytes: 4·OFFSET1.
    pub off_b: Signal<Out, Bits<32>>,
    /// `ds_add_u32`.
    is_add: Signal<Local, Bit>,
    /// `ds_write_b32`.
    is_write: Signal<Local, Bit>,
    /// `ds_write2_b32`.
    is_write2: Signal<Local, Bit>,
    /// `ds_read_b32`.
    is_read: Signal<Local, Bit>,
    /// `ds_read2_b32`.
    is_read2: Signal<Local, Bit>,
    /// The first offset.
    oa: Signal<Local, Bits<32>>,
    /// Opcodes.
    k_add: Constant<Bits<8>>,
    /// Opcodes.
    k_write: Constant<Bits<8>>,
    /// Opcodes.
    k_write2: Constant<Bits<8>>,
    /// Opcodes.
    k_read: Constant<Bits<8>>,
    /// Opcodes.
    k_read2: Constant<Bits<8>>,
    /// 0xFFFF.
    m16: Constant<Bits<32>>,
    /// 0xFF.
    m8: Constant<Bits<32>>,
}

impl Default for LdsDecode {
    fn default() -> Self {
        Self {
            opcode: Default::default(),
            offset: Default::default(),
            legal: Default::default(),
            read: Default::default(),
            read2: Default::default(),
            two: Default::default(),
            write: Default::default(),
            write2: Default::default(),
            add: Default::default(),
            off_a: Default::default(),
            off_b: Default::default(),
            is_add: Default::default(),
            is_write: Default::default(),
            is_write2: Default::default(),
            is_read: Default::default(),
            is_read2: Default::default(),
            oa: Default::default(),
            k_add: k(op::ADD.into()),
            k_write: k(op::WRITE.into()),
            k_write2: k(op::WRITE2.into()),
            k_read: k(op::READ.into()),
            k_read2: k(op::READ2.into()),
            m16: k(0xFFFF),
            m8: k(0xFF),
        }
    }
}

impl Logic for LdsDecode {
    #[hdl_gen]
    fn update(&mut self) {
        self.is_add.next = self.opcode.val() == self.k_add.val();
        self.is_write.next = self.opcode.val() == self.k_write.val();
        self.is_write2.next = self.opcode.val() == self.k_write2.val();
        self.is_read.next = self.opcode.val() == self.k_read.val();
        self.is_read2.next = self.opcode.val() == self.k_read2.val();
        self.legal.next = self.is_add.val()
            | self.is_write.val()
            | self.is_write2.val()
            | self.is_read.val()
            | self.is_read2.val();
        self.read.next = self.is_read.val() | self.is_read2.val();
        self.read2.next = self.is_read2.val();
        self.two.next = self.is_write2.val() | self.is_read2.val();
        self.write.next = self.is_add.val() | self.is_write.val() | self.is_write2.val();
        self.write2.next = self.is_write2.val();
        self.add.next = self.is_add.val();
        self.oa.next = self.offset.val() & self.m16.val();
        if self.is_write2.val() | self.is_read2.val() {
            self.oa.next = (self.offset.val() & self.m8.val()) << 2;
        }
        self.off_a.next = self.oa.val();
        self.off_b.next = ((self.offset.val() >> 8) & self.m8.val()) << 2;
    }
}
