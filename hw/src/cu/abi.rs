//! How a wavefront's scalar registers start: the two kernel ABIs the compute unit (and the
//! reference interpreter) set up at dispatch. Both give `v0` the local work-item id
//! (64·wave + lane) and every other VGPR 0.
//!
//! - [`Abi::Rtgpu`], the project's simple ABI for hand-written kernels
//!   (firmware/kernels/README.md): `s[0:1]` the kernel argument segment, `s2` the work-group
//!   id, `s3` the work-group size, `s4` the wave index within the work-group.
//! - [`Abi::Hsa`], the AMDHSA ABI clang compiles for (docs/opencl.md), as the GCN3 hardware
//!   sets it up from `COMPUTE_PGM_RSRC2` and `COMPUTE_USER_DATA_*`: the first `USER_SGPR`
//!   SGPRs hold the user data the driver wrote (private segment buffer, dispatch packet
//!   pointer, kernarg pointer, …, as the kernel descriptor enables them), then, each when its
//!   enable bit is set, the work-group id x, y, z, the work-group info and the scratch wave
//!   offset. A one-dimensional launch has work-group ids y and z 0 and work-item ids y and
//!   z (`v1`, `v2`) 0.

/// `PGM_RSRC2` bit 0: the scratch wave offset SGPR is set up (0; rtgpu has no scratch).
pub const RSRC2_SCRATCH_EN: u32 = 1;
/// `PGM_RSRC2` bits 5:1: how many user SGPRs (0..=16) come from the user data registers.
pub const RSRC2_USER_SGPR_SHIFT: u32 = 1;
/// `PGM_RSRC2` bit 7: the work-group id x SGPR.
pub const RSRC2_TGID_X_EN: u32 = 1 << 7;
/// `PGM_RSRC2` bit 8: the work-group id y SGPR.
pub const RSRC2_TGID_Y_EN: u32 = 1 << 8;
/// `PGM_RSRC2` bit 9: the work-group id z SGPR.
pub const RSRC2_TGID_Z_EN: u32 = 1 << 9;
/// `PGM_RSRC2` bit 10: the work-group info SGPR (bit 31: first wave of the group; bits 5:0:
/// wavefronts in the group).
pub const RSRC2_TG_SIZE_EN: u32 = 1 << 10;
/// The most user SGPRs.
pub const MAX_USER_SGPRS: usize = 16;

/// Which registers a wavefront starts with (written by the driver into the `ABI`,
/// `PGM_RSRC2` and `USER_DATA` registers, [`crate::gpu::regs`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Abi {
    /// rtgpu's simple ABI, with the kernel argument segment's address.
    Rtgpu {
        /// Byte address of the kernel argument segment (into `s[0:1]`).
        kernarg: u64,
    },
    /// The AMDHSA ABI.
    Hsa {
        /// `COMPUTE_PGM_RSRC2`: the `RSRC2_*` fields.
        rsrc2: u32,
        /// The user SGPRs' values (the first `USER_SGPR` are used).
        user: [u32; MAX_USER_SGPRS],
    },
}

impl Default for Abi {
    fn default() -> Self {
        Abi::Rtgpu { kernarg: 0 }
    }
}

impl From<u64> for Abi {
    /// The simple ABI with this kernel argument segment address.
    fn from(kernarg: u64) -> Self {
        Abi::Rtgpu { kernarg }
    }
}

/// Where a wavefront sits in its launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WavePlace {
    /// Work-group id.
    pub group: u32,
    /// Work-items per work-group.
    pub wg: u32,
    /// Wave index within the work-group.
    pub wave: u32,
}

impl Abi {
    /// Writes the initial SGPRs of a wavefront at `at` into `s` (SGPR n is `s[n]`; the others
    /// are left as they are, 0 at dispatch).
    pub fn init_sgprs(&self, at: WavePlace, s: &mut [u32]) {
        match *self {
            Abi::Rtgpu { kernarg } => {
                let vals = [
                    kernarg as u32,
                    (kernarg >> 32) as u32,
                    at.group,
                    at.wg,
                    at.wave,
                ];
                s[..vals.len()].copy_from_slice(&vals);
            }
            Abi::Hsa { rsrc2, user } => {
                let n = user_sgprs(rsrc2);
                s[..n].copy_from_slice(&user[..n]);
                let info = u32::from(at.wave == 0) << 31 | at.wg.div_ceil(64);
                let system = [
                    (RSRC2_TGID_X_EN, at.group),
                    (RSRC2_TGID_Y_EN, 0),
                    (RSRC2_TGID_Z_EN, 0),
                    (RSRC2_TG_SIZE_EN, info),
                    (RSRC2_SCRATCH_EN, 0),
                ];
                let enabled = system.iter().filter(|(bit, _)| rsrc2 & bit != 0);
                for (reg, &(_, value)) in s[n..].iter_mut().zip(enabled) {
                    *reg = value;
                }
            }
        }
    }
}

/// The user SGPR count of a `PGM_RSRC2` value (at most [`MAX_USER_SGPRS`]).
pub fn user_sgprs(rsrc2: u32) -> usize {
    ((rsrc2 >> RSRC2_USER_SGPR_SHIFT & 0x1F) as usize).min(MAX_USER_SGPRS)
}

#[cfg(test)]
mod tests {
    use super::*;

    const AT: WavePlace = WavePlace {
        group: 5,
        wg: 128,
        wave: 1,
    };

    #[test]
    fn simple_abi() {
        let mut s = [0u32; 8];
        Abi::from(0x1_0000_1000).init_sgprs(AT, &mut s);
        assert_eq!(s, [0x1000, 1, 5, 128, 1, 0, 0, 0]);
    }

    #[test]
    fn hsa_abi_places_system_sgprs_after_the_user_ones() {
        let mut user = [0; MAX_USER_SGPRS];
        user[..3].copy_from_slice(&[7, 8, 9]);
        let rsrc2 = 3 << RSRC2_USER_SGPR_SHIFT | RSRC2_TGID_X_EN | RSRC2_TG_SIZE_EN;
        let mut s = [0xEE; 8];
        Abi::Hsa { rsrc2, user }.init_sgprs(AT, &mut s);
        assert_eq!(s, [7, 8, 9, 5, 2, 0xEE, 0xEE, 0xEE]);
        let first = WavePlace { wave: 0, ..AT };
        Abi::Hsa {
            rsrc2: RSRC2_TGID_Y_EN | RSRC2_SCRATCH_EN | RSRC2_TG_SIZE_EN,
            user,
        }
        .init_sgprs(first, &mut s);
        assert_eq!(&s[..3], &[0, 1 << 31 | 2, 0]);
    }
}
