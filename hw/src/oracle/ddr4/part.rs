//! The checker's own copy of the DDR4 device parameters (Sim-D's Table 1 and the
//! extra Ramulator parameters). Deliberately not shared with the DRAM controller.

/// Organisation and timing of one DDR4 device configuration, in DRAM command-clock cycles.
///
/// All fields are public so that tests can build synthetic variants (e.g. to separate two rules
/// that coincide on every real part).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ddr4Part {
    /// Stable name, as accepted by [`Ddr4Part::by_name`].
    pub name: &'static str,
    /// Command-clock period in picoseconds (documentation only; the checker counts cycles).
    pub tck_ps: u32,
    /// Ranks on the channel (1 for every named part).
    pub ranks: u8,
    /// Bank groups per rank.
    pub bank_groups: u8,
    /// Banks per bank group.
    pub banks_per_group: u8,
    /// Rows per bank.
    pub rows: u32,
    /// Columns per row.
    pub columns: u32,
    /// CAS (read) latency CL: RD to first data beat.
    pub cl: u64,
    /// CAS write latency CWL: WR to first data beat.
    pub cwl: u64,
    /// tRCD: ACT to RD/WR, same bank.
    pub rcd: u64,
    /// tRP: PRE to ACT (and to REF), same bank.
    pub rp: u64,
    /// tRAS: ACT to PRE, same bank.
    pub ras: u64,
    /// tRC: ACT to ACT, same bank (and ACT to REF).
    pub rc: u64,
    /// tRTP: RD to PRE, same bank.
    pub rtp: u64,
    /// tWR: write recovery, counted from the end of the write burst.
    pub wr: u64,
    /// tCCD_S: CAS to CAS of the same direction, different bank group.
    pub ccd_s: u64,
    /// tCCD_L: CAS to CAS of the same direction, same bank group.
    pub ccd_l: u64,
    /// tRRD_S: ACT to ACT, different bank group.
    pub rrd_s: u64,
    /// tRRD_L: ACT to ACT, same bank group.
    pub rrd_l: u64,
    /// tFAW: window that may hold at most four ACTs (per rank).
    pub faw: u64,
    /// tWTR_S: end of write burst to RD, different bank group.
    pub wtr_s: u64,
    /// tWTR_L: end of write burst to RD, same bank group.
    pub wtr_l: u64,
    /// tRFC: REF to the next command (ACT, REF, PRE) of the rank.
    pub rfc: u64,
    /// tREFI: average refresh interval; one REF falls due every `refi` cycles.
    pub refi: u64,
    /// Burst length in command cycles (BL8 = 4 cycles).
    pub bl: u64,
    /// tRTRS: rank-to-rank switch. Not checked (all named parts have one rank).
    pub rtrs: u64,
}

/// Micron MT40A512M16JY-062E, DDR4-3200AA x16: 8 banks in 2 bank groups.
pub const DDR4_3200AA_X16: Ddr4Part = Ddr4Part {
    name: "ddr4-3200aa-x16",
    tck_ps: 625,
    ranks: 1,
    bank_groups: 2,
    banks_per_group: 4,
    rows: 65536,
    columns: 1024,
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
    rtrs: 2,
};

/// Micron MT40A1G8SA-062E, DDR4-3200AA x8: 16 banks in 4 bank groups.
pub const DDR4_3200AA_X8: Ddr4Part = Ddr4Part {
    name: "ddr4-3200aa-x8",
    bank_groups: 4,
    banks_per_group: 4,
    rrd_s: 4,
    rrd_l: 8,
    faw: 34,
    ..DDR4_3200AA_X16
};

/// JEDEC/Ramulator DDR4-1866M x16 profile: 8 banks in 2 bank groups, tCK = 1.0714 ns.
pub const DDR4_1866M_X16: Ddr4Part = Ddr4Part {
    name: "ddr4-1866m-x16",
    tck_ps: 1071,
    ranks: 1,
    bank_groups: 2,
    banks_per_group: 4,
    rows: 65536,
    columns: 1024,
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
    rtrs: 2,
};

impl Ddr4Part {
    /// The three named parts.
    pub const ALL: [Ddr4Part; 3] = [DDR4_3200AA_X16, DDR4_3200AA_X8, DDR4_1866M_X16];

    /// Look a part up by its name (`ddr4-3200aa-x16`, `ddr4-3200aa-x8`, `ddr4-1866m-x16`),
    /// ignoring ASCII case.
    pub fn by_name(name: &str) -> Option<Ddr4Part> {
        Self::ALL
            .iter()
            .find(|p| p.name.eq_ignore_ascii_case(name))
            .copied()
    }

    /// Banks per rank.
    pub fn banks(&self) -> usize {
        self.bank_groups as usize * self.banks_per_group as usize
    }

    /// RD/RDA to WR/WRA, same rank: CL + BL + 2 − CWL.
    pub fn rd_to_wr(&self) -> i64 {
        self.cl as i64 + self.bl as i64 + 2 - self.cwl as i64
    }

    /// WR/WRA to RD/RDA, different bank group: CWL + BL + tWTR_S.
    pub fn wr_to_rd_s(&self) -> u64 {
        self.cwl + self.bl + self.wtr_s
    }

    /// WR/WRA to RD/RDA, same bank group: CWL + BL + tWTR_L.
    pub fn wr_to_rd_l(&self) -> u64 {
        self.cwl + self.bl + self.wtr_l
    }

    /// WR/WRA to PRE of the same bank (write recovery): CWL + BL + tWR.
    pub fn wr_to_pre(&self) -> u64 {
        self.cwl + self.bl + self.wr
    }
}
