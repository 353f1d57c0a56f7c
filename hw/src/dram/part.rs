//! DDR4 parts: organisation and timing in DRAM command-clock cycles (Sim-D's
//! Table 1, docs/works/simd.md#table-1, plus the Ramulator values for what the paper omits).
//!
//! These are data, shared by the controller RTL ([`super::DramCtrl`]) and its reference model
//! ([`super::model`]). The testbench's DDR4 timing checker deliberately carries its own copy.

/// One DDR4 part: one 64-bit channel, one rank, 64-byte bursts (BL8 = 4 command cycles).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Part {
    /// The part's name on the command line (`ddr4-3200aa-x16`, ...).
    pub name: &'static str,
    /// Command clock period in picoseconds (625 at 3200, 1071 at 1866).
    pub tck_ps: u32,
    /// Banks per rank (nB): 8 or 16.
    pub banks: u8,
    /// Bank groups per rank (nBG): 2 or 4. Bank b is in group `b % bank_groups`.
    pub bank_groups: u8,
    /// RD → first data (CL, nCAS).
    pub cl: u16,
    /// WR → first data (CWL, nCWD).
    pub cwl: u16,
    /// ACT → RD/WR, same bank.
    pub rcd: u16,
    /// PRE → ACT, same bank.
    pub rp: u16,
    /// ACT → PRE, same bank.
    pub ras: u16,
    /// ACT → ACT, same bank.
    pub rc: u16,
    /// RD → PRE, same bank.
    pub rtp: u16,
    /// Write recovery: end of write data → PRE.
    pub wr: u16,
    /// CAS → CAS, different bank groups.
    pub ccd_s: u16,
    /// CAS → CAS, same bank group.
    pub ccd_l: u16,
    /// ACT → ACT, different bank groups.
    pub rrd_s: u16,
    /// ACT → ACT, same bank group.
    pub rrd_l: u16,
    /// Four-activate window.
    pub faw: u16,
    /// End of write data → RD, different bank groups.
    pub wtr_s: u16,
    /// End of write data → RD, same bank group.
    pub wtr_l: u16,
    /// REF → ACT / REF.
    pub rfc: u16,
    /// Refresh interval.
    pub refi: u16,
    /// Burst length on the bus in command cycles (BL8 = 4).
    pub bl: u16,
}

impl Part {
    /// Micron MT40A512M16JY-062E: DDR4-3200AA x16, 2 bank groups, 8 banks (the default).
    pub const DDR4_3200AA_X16: Part = Part {
        name: "ddr4-3200aa-x16",
        tck_ps: 625,
        banks: 8,
        bank_groups: 2,
        cl: 22,
        cwl: 16,
        rcd: 22,
        rp: 22,
        ras: 52,
        rc: 74,
        rtp: 12,
        wr: 24,
        ccd_s: 4,
        ccd_l: 8,
        rrd_s: 9,
        rrd_l: 11,
        faw: 48,
        wtr_s: 4,
        wtr_l: 12,
        rfc: 560,
        refi: 12480,
        bl: 4,
    };

    /// Micron MT40A1G8SA-062E: DDR4-3200AA x8, 4 bank groups, 16 banks.
    pub const DDR4_3200AA_X8: Part = Part {
        name: "ddr4-3200aa-x8",
        banks: 16,
        bank_groups: 4,
        rrd_s: 4,
        rrd_l: 8,
        faw: 34,
        ..Self::DDR4_3200AA_X16
    };

    /// JEDEC DDR4-1866M x16, 2 bank groups, 8 banks (Ramulator's profile).
    pub const DDR4_1866M_X16: Part = Part {
        name: "ddr4-1866m-x16",
        tck_ps: 1071,
        banks: 8,
        bank_groups: 2,
        cl: 13,
        cwl: 10,
        rcd: 13,
        rp: 13,
        ras: 32,
        rc: 45,
        rtp: 7,
        wr: 14,
        ccd_s: 4,
        ccd_l: 5,
        rrd_s: 5,
        rrd_l: 6,
        faw: 28,
        wtr_s: 3,
        wtr_l: 7,
        rfc: 327,
        refi: 7280,
        bl: 4,
    };

    /// Every supported part.
    pub const ALL: [Part; 3] = [
        Self::DDR4_3200AA_X16,
        Self::DDR4_3200AA_X8,
        Self::DDR4_1866M_X16,
    ];

    /// The part called `name`, or an error listing the known names.
    pub fn by_name(name: &str) -> Result<Part, String> {
        Self::ALL
            .iter()
            .find(|p| p.name == name)
            .copied()
            .ok_or_else(|| {
                let known: Vec<&str> = Self::ALL.iter().map(|p| p.name).collect();
                format!("unknown DRAM part `{name}` (known: {})", known.join(", "))
            })
    }

    /// The bank group of bank `b`.
    pub fn bg(&self, bank: usize) -> usize {
        bank % self.bank_groups as usize
    }

    /// Bits of the bank-pair index in a byte address (2 for 8 banks, 3 for 16).
    pub fn pair_bits(&self) -> u32 {
        (self.banks as u32 / 2).trailing_zeros()
    }

    /// The burst index (word address >> 4) of (bank group, bank within the group, row,
    /// DDR4 column): the inverse of the address mapping in [`super`].
    pub fn burst_of(&self, bg: u8, bank: u8, row: u32, col: u16) -> u32 {
        let b = u32::from(bank) * u32::from(self.bank_groups) + u32::from(bg);
        (row << (8 + self.pair_bits())) | ((b >> 1) << 8) | (u32::from(col >> 3) << 1) | (b & 1)
    }

    /// WR → PRE, same bank: CWL + BL + WR.
    pub fn write_to_pre(&self) -> u16 {
        self.cwl + self.bl + self.wr
    }
}

impl Default for Part {
    fn default() -> Self {
        Self::DDR4_3200AA_X16
    }
}
