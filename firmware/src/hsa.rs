//! Compiled kernels: the AMDHSA ABI clang compiles OpenCL C for (docs/opencl.md).
//!
//! A program with an `.amdhsa_kernel` descriptor is a compiled kernel: [`HsaKernel`] reads
//! its descriptor (which user and system SGPRs it expects, its LDS) and its
//! `.amdgpu_metadata` (the kernel argument layout, hidden arguments included). The launch
//! then places each user argument at the offset the metadata gives (hidden arguments 0),
//! writes a dispatch packet at [`DISPATCH_ADDR`], and starts every wavefront with the user
//! SGPRs the descriptor enables:
//!
//! | user SGPR (in this order, each when enabled) | dwords | value |
//! |---|---|---|
//! | private segment buffer | 4 | 0 (no scratch) |
//! | dispatch pointer | 2 | [`DISPATCH_ADDR`] |
//! | kernarg segment pointer | 2 | [`KERNARG_ADDR`] |
//! | dispatch id | 2 | 0 |
//! | flat scratch init | 2 | 0 |
//! | private segment size | 1 | 0 |
//!
//! then the work-group ids and info the descriptor enables ([`rtgpu_hw::cu::abi`]).
//! Kernels that need the queue pointer or private (scratch) memory are refused.

use crate::isa::{AsmError, KernelDescriptor, Program};
use crate::launch::{Arg, Dims, Image, LaunchError, KERNARG_ADDR};
use rtgpu_hw::cu::abi::{self, Abi, MAX_USER_SGPRS};

/// Byte address of the HSA dispatch packet (64 bytes, below the kernel argument segment).
pub const DISPATCH_ADDR: u64 = 0x800;

/// What an argument of the kernel's metadata is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ArgKind {
    /// `global_buffer`: a pointer to a buffer (8 bytes).
    Buffer,
    /// `by_value` of 4 bytes: a scalar.
    Scalar,
    /// A `hidden_*` argument the runtime fills: 0 here.
    Hidden,
}

/// One argument of the kernel argument segment.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct KernArg {
    /// Byte offset in the segment.
    pub offset: u32,
    /// Size in bytes.
    pub size: u32,
    /// Its kind.
    pub kind: ArgKind,
}

/// A compiled kernel's launch interface.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct HsaKernel {
    /// The kernel's name.
    pub name: String,
    /// Its arguments in order (hidden ones last, as clang emits them).
    pub args: Vec<KernArg>,
    /// LDS bytes per work-group the kernel declares (`group_segment_fixed_size`).
    pub lds: u32,
    /// `PGM_RSRC2` for the descriptor.
    pub rsrc2: u32,
    /// The user SGPR values.
    pub user: [u32; MAX_USER_SGPRS],
}

/// The user SGPR fields of a descriptor, in their order, with their sizes in dwords.
const USER_SGPRS: [(&str, usize); 7] = [
    ("user_sgpr_private_segment_buffer", 4),
    ("user_sgpr_dispatch_ptr", 2),
    ("user_sgpr_queue_ptr", 2),
    ("user_sgpr_kernarg_segment_ptr", 2),
    ("user_sgpr_dispatch_id", 2),
    ("user_sgpr_flat_scratch_init", 2),
    ("user_sgpr_private_segment_size", 1),
];

impl HsaKernel {
    /// The compiled kernel of `prog`, `None` for a hand-written one (no descriptor). `file`
    /// names the source in errors, which point at the descriptor or metadata line.
    pub fn of(prog: &Program, file: &str) -> Result<Option<HsaKernel>, AsmError> {
        let Some(k) = &prog.kernel else {
            return Ok(None);
        };
        let fail = |line: usize, msg: String| AsmError {
            file: file.into(),
            line,
            col: 1,
            msg,
        };
        let (rsrc2, user) = registers(k).map_err(|m| fail(k.line, m))?;
        let md = prog.metadata.as_ref().ok_or_else(|| {
            fail(
                k.line,
                "a compiled kernel needs its .amdgpu_metadata block (the argument layout)".into(),
            )
        })?;
        let args = parse_args(&md.yaml).map_err(|(l, m)| fail(md.line + l, m))?;
        Ok(Some(HsaKernel {
            name: k.name.clone(),
            args,
            lds: k.get("group_segment_fixed_size") as u32,
            rsrc2,
            user,
        }))
    }

    /// The arguments a user passes (hidden ones excluded), in order.
    pub fn user_args(&self) -> impl Iterator<Item = &KernArg> {
        self.args.iter().filter(|a| a.kind != ArgKind::Hidden)
    }

    /// The launch's memory image: `args` (one per user argument, of the matching kind) at
    /// the metadata's offsets, the buffers as for hand-written kernels, and the dispatch
    /// packet for `dims` and `lds`. Check the sizes with [`Image::check`] first.
    pub fn image(
        &self,
        args: &[Arg],
        dims: Dims,
        lds: u32,
        seed: u64,
    ) -> Result<Image, LaunchError> {
        let params: Vec<&KernArg> = self.user_args().collect();
        if params.len() != args.len() {
            return Err(LaunchError(format!(
                "kernel {} takes {} arguments, {} given",
                self.name,
                params.len(),
                args.len()
            )));
        }
        for (i, (p, a)) in params.iter().zip(args).enumerate() {
            let fits = matches!(
                (&p.kind, a),
                (ArgKind::Buffer, Arg::Buffer { .. }) | (ArgKind::Scalar, Arg::Scalar(_))
            );
            if !fits {
                let want = if p.kind == ArgKind::Buffer {
                    "a buffer (zero:N, int:N, float:N, iota:N)"
                } else {
                    "a scalar (u32:V, i32:V, f32:V or a number)"
                };
                return Err(LaunchError(format!(
                    "argument {i} of kernel {} must be {want}",
                    self.name
                )));
            }
        }
        let offsets: Vec<u32> = params.iter().map(|p| p.offset).collect();
        let mut image = Image::build_at(args, &offsets, dims, seed);
        image.abi = Abi::Hsa {
            rsrc2: self.rsrc2,
            user: self.user,
        };
        let at = (DISPATCH_ADDR / 4) as usize;
        image.mem[at..at + 16].copy_from_slice(&dispatch_packet(dims, lds));
        Ok(image)
    }
}

/// The HSA kernel dispatch packet of a one-dimensional launch, as 16 dwords.
pub fn dispatch_packet(dims: Dims, lds: u32) -> [u32; 16] {
    const KERNEL_DISPATCH: u32 = 2;
    let mut p = [0u32; 16];
    p[0] = KERNEL_DISPATCH | 1 << 16; // header, setup: 1 dimension
    p[1] = dims.wg | 1 << 16; // workgroup_size_x, _y
    p[2] = 1; // workgroup_size_z
    p[3] = dims.grid; // grid_size_x
    p[4] = 1; // grid_size_y
    p[5] = 1; // grid_size_z
    p[7] = lds; // group_segment_size
    p[10] = KERNARG_ADDR as u32; // kernarg_address
    p[11] = (KERNARG_ADDR >> 32) as u32;
    p
}

/// `PGM_RSRC2` and the user SGPR values a descriptor asks for.
fn registers(k: &KernelDescriptor) -> Result<(u32, [u32; MAX_USER_SGPRS]), String> {
    if k.get("private_segment_fixed_size") > 0 {
        return Err(format!(
            "kernel {} needs {} bytes of private (scratch) memory per work-item, which rtgpu \
             does not model (large private arrays or spills)",
            k.name,
            k.get("private_segment_fixed_size")
        ));
    }
    if k.get("user_sgpr_queue_ptr") != 0 {
        return Err(format!(
            "kernel {} needs the HSA queue pointer, which rtgpu does not provide",
            k.name
        ));
    }
    let mut user = Vec::new();
    for (field, dwords) in USER_SGPRS {
        if k.get(field) != 0 {
            let value = match field {
                "user_sgpr_dispatch_ptr" => DISPATCH_ADDR,
                "user_sgpr_kernarg_segment_ptr" => KERNARG_ADDR,
                _ => 0,
            };
            user.extend(
                [value as u32, (value >> 32) as u32, 0, 0]
                    .iter()
                    .take(dwords),
            );
        }
    }
    let count = k
        .fields
        .get("user_sgpr_count")
        .map_or(user.len(), |&c| c as usize);
    if count != user.len() || count > MAX_USER_SGPRS {
        return Err(format!(
            "kernel {}: .amdhsa_user_sgpr_count {count} does not match the {} user SGPRs the \
             descriptor enables",
            k.name,
            user.len()
        ));
    }
    let mut values = [0u32; MAX_USER_SGPRS];
    values[..count].copy_from_slice(&user);
    let system = [
        ("system_sgpr_workgroup_id_x", abi::RSRC2_TGID_X_EN),
        ("system_sgpr_workgroup_id_y", abi::RSRC2_TGID_Y_EN),
        ("system_sgpr_workgroup_id_z", abi::RSRC2_TGID_Z_EN),
        ("system_sgpr_workgroup_info", abi::RSRC2_TG_SIZE_EN),
        (
            "system_sgpr_private_segment_wavefront_offset",
            abi::RSRC2_SCRATCH_EN,
        ),
    ];
    let rsrc2 = system.iter().filter(|(f, _)| k.get(f) != 0).fold(
        (count as u32) << abi::RSRC2_USER_SGPR_SHIFT,
        |r, (_, bit)| r | bit,
    );
    Ok((rsrc2, values))
}

/// The `.args` list of the (only) kernel in the metadata YAML: per item its `.offset`,
/// `.size` and `.value_kind`. Errors carry the 0-based line within the YAML.
fn parse_args(yaml: &str) -> Result<Vec<KernArg>, (usize, String)> {
    let mut args = Vec::new();
    let mut inside = false;
    // The column of the items' `-`: a field line is indented further.
    let mut dash = usize::MAX;
    let mut item: Option<(usize, Vec<(String, String)>)> = None;
    for (n, line) in yaml.lines().enumerate() {
        let depth = line.len() - line.trim_start().len();
        let text = line.trim();
        if text.ends_with(".args:") {
            inside = true;
            continue;
        }
        if !inside {
            continue;
        }
        let entry = match text.strip_prefix("- ") {
            Some(rest) => {
                flush(&mut item, &mut args)?;
                dash = depth;
                item = Some((n, Vec::new()));
                rest
            }
            None if depth <= dash => {
                inside = false;
                continue;
            }
            None => text,
        };
        if let (Some((_, fields)), Some((key, value))) = (item.as_mut(), entry.split_once(':')) {
            fields.push((key.trim().to_string(), value.trim().to_string()));
        }
    }
    flush(&mut item, &mut args)?;
    Ok(args)
}

/// Turns a collected `.args` item into a [`KernArg`].
fn flush(
    item: &mut Option<(usize, Vec<(String, String)>)>,
    args: &mut Vec<KernArg>,
) -> Result<(), (usize, String)> {
    let Some((line, fields)) = item.take() else {
        return Ok(());
    };
    let get = |k: &str| {
        fields
            .iter()
            .find(|(key, _)| key == k)
            .map(|(_, v)| v.as_str())
    };
    let num = |k: &str| {
        get(k)
            .and_then(|v| v.parse::<u32>().ok())
            .ok_or((line, format!("argument {} has no {k}", args.len())))
    };
    let (offset, size) = (num(".offset")?, num(".size")?);
    let kind = match get(".value_kind") {
        Some("global_buffer") if size == 8 => ArgKind::Buffer,
        Some("by_value") if size == 4 => ArgKind::Scalar,
        Some(k) if k.starts_with("hidden_") => ArgKind::Hidden,
        other => {
            return Err((
                line,
                format!(
                    "argument {} ({} of {size} bytes) is not supported: rtgpu passes global \
                     buffers and 4-byte scalars",
                    args.len(),
                    other.unwrap_or("no .value_kind")
                ),
            ))
        }
    };
    args.push(KernArg { offset, size, kind });
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    const YAML: &str = "---
amdhsa.kernels:
  - .args:
      - .address_space:  global
        .offset:         0
        .size:           8
        .value_kind:     global_buffer
      - .offset:         8
        .size:           4
        .type_name:      uint
        .value_kind:     by_value
      - .offset:         16
        .size:           8
        .value_kind:     hidden_global_offset_x
    .group_segment_fixed_size: 0
    .kernarg_segment_size: 24
    .name:           k
...
";

    #[test]
    fn metadata_arguments() {
        let args = parse_args(YAML).unwrap();
        let kinds: Vec<_> = args.iter().map(|a| (a.offset, a.kind.clone())).collect();
        assert_eq!(
            kinds,
            [
                (0, ArgKind::Buffer),
                (8, ArgKind::Scalar),
                (16, ArgKind::Hidden)
            ]
        );
        let bad = YAML.replace("by_value", "dynamic_shared_pointer");
        let e = parse_args(&bad).unwrap_err();
        assert!(e.1.contains("dynamic_shared_pointer"), "{e:?}");
        assert_eq!(e.0, 7);
    }

    fn descriptor(fields: &[(&str, u64)]) -> KernelDescriptor {
        KernelDescriptor {
            name: "k".into(),
            line: 1,
            fields: fields.iter().map(|(k, v)| (k.to_string(), *v)).collect(),
        }
    }

    #[test]
    fn descriptor_registers() {
        let k = descriptor(&[
            ("user_sgpr_count", 8),
            ("user_sgpr_private_segment_buffer", 1),
            ("user_sgpr_dispatch_ptr", 1),
            ("user_sgpr_kernarg_segment_ptr", 1),
            ("system_sgpr_workgroup_id_x", 1),
        ]);
        let (rsrc2, user) = registers(&k).unwrap();
        assert_eq!(rsrc2, 8 << 1 | abi::RSRC2_TGID_X_EN);
        assert_eq!(&user[..8], &[0, 0, 0, 0, 0x800, 0, 0x1000, 0]);
        let wrong = descriptor(&[("user_sgpr_count", 6), ("user_sgpr_dispatch_ptr", 1)]);
        assert!(registers(&wrong).unwrap_err().contains("user_sgpr_count 6"));
        let scratch = descriptor(&[("private_segment_fixed_size", 16)]);
        assert!(registers(&scratch).unwrap_err().contains("scratch"));
    }
}
