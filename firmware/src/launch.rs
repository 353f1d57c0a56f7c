//! Kernel launches: rtgpu's kernel ABI (dimensions, arguments, the data memory image a launch
//! starts from) and the `// @` header lines of a kernel source. The driver, the reference
//! interpreter, the tests and the CLI all build launches through this module; the ABI itself
//! is documented in `firmware/kernels/README.md`.

use rand::{Rng, SeedableRng};
use rand_chacha::ChaCha8Rng;
use std::fmt;

/// Lanes per wavefront (GCN3).
pub const WAVE: u32 = 64;
/// The most work-items in one work-group.
pub const MAX_WG: u32 = 1024;
/// Byte address of the kernel argument segment.
pub const KERNARG_ADDR: u64 = 0x1000;
/// Byte address of the first buffer.
pub const BUFFER_BASE: u64 = 0x1_0000;
/// Buffers start on multiples of this many bytes.
pub const BUFFER_ALIGN: u64 = 256;

/// A launch that cannot be built: bad sizes, a malformed argument or header line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct LaunchError(pub String);

impl fmt::Display for LaunchError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for LaunchError {}

fn err<T>(msg: impl Into<String>) -> Result<T, LaunchError> {
    Err(LaunchError(msg.into()))
}

/// A one-dimensional NDRange: `grid` work-items in work-groups of `wg`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Dims {
    /// Work-items in the whole launch (a multiple of `wg`).
    pub grid: u32,
    /// Work-items per work-group (1..=[`MAX_WG`]).
    pub wg: u32,
}

impl Dims {
    /// The sizes are usable: `wg` in 1..=MAX_WG, `grid` ≥ 1 and a multiple of `wg`.
    pub fn check(&self) -> Result<(), LaunchError> {
        if self.wg == 0 || self.wg > MAX_WG {
            return err(format!(
                "work-group size {} is outside 1..={MAX_WG}",
                self.wg
            ));
        }
        if self.grid == 0 || !self.grid.is_multiple_of(self.wg) {
            return err(format!(
                "grid size {} is not a positive multiple of the work-group size {}",
                self.grid, self.wg
            ));
        }
        Ok(())
    }

    /// Number of work-groups.
    pub fn groups(&self) -> u32 {
        self.grid / self.wg.max(1)
    }

    /// Wavefronts per work-group: ceil(wg / 64).
    pub fn waves_per_group(&self) -> u32 {
        self.wg.div_ceil(WAVE)
    }

    /// The lanes that exist in wave `wave` of a work-group (its initial EXEC): lane l holds
    /// local id 64·wave + l, present when that id is below `wg`.
    pub fn lanes(&self, wave: u32) -> u64 {
        let n = self.wg.saturating_sub(wave * WAVE).min(WAVE);
        rtgpu_hw::pws::lane_mask(n as usize)
    }
}

/// How a buffer's dwords start.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Init {
    /// All zero.
    Zero,
    /// Random integers in −100..=100 (as i32 bits).
    Int,
    /// Random floats in [−100, 100) (as f32 bits).
    Float,
    /// 0, 1, 2, …
    Iota,
}

/// A size that may name the launch's dimensions.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Count {
    /// A number.
    Fixed(u32),
    /// The grid size.
    Grid,
    /// The work-group size.
    Wg,
    /// The number of work-groups.
    Groups,
}

impl Count {
    /// The number this count stands for under `dims`.
    pub fn resolve(self, dims: Dims) -> u32 {
        match self {
            Count::Fixed(n) => n,
            Count::Grid => dims.grid,
            Count::Wg => dims.wg,
            Count::Groups => dims.groups(),
        }
    }
}

/// One kernel argument, as written on the command line or in an `// @args` header line:
/// `zero:N`, `int:N`, `float:N`, `iota:N` (a buffer of N dwords; N a number, `grid`, `wg` or
/// `groups`), `u32:V`, `i32:V`, `f32:V` or a bare number (a 32-bit scalar).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Arg {
    /// A buffer: its 64-bit address is passed (8 bytes, 8-aligned).
    Buffer {
        /// Size in dwords.
        dwords: Count,
        /// Initial contents.
        init: Init,
    },
    /// A 32-bit scalar (4 bytes).
    Scalar(u32),
}

impl Arg {
    /// Parses one argument (see the type's documentation).
    pub fn parse(text: &str) -> Result<Arg, LaunchError> {
        let bad = || {
            LaunchError(format!("bad kernel argument `{text}`: expected zero:N, int:N, float:N, iota:N, u32:V, i32:V, f32:V or a number"))
        };
        let Some((kind, value)) = text.split_once(':') else {
            return parse_int(text).map(Arg::Scalar).ok_or_else(bad);
        };
        let init = match kind {
            "zero" => Init::Zero,
            "int" => Init::Int,
            "float" => Init::Float,
            "iota" => Init::Iota,
            "u32" | "i32" => return parse_int(value).map(Arg::Scalar).ok_or_else(bad),
            "f32" => {
                return match value.parse::<f32>() {
                    Ok(f) if f.is_finite() => Ok(Arg::Scalar(f.to_bits())),
                    Ok(_) => Err(LaunchError(format!(
                        "bad kernel argument `{text}`: f32:V must be a finite single-precision \
                         number (at most about 3.4e38)"
                    ))),
                    Err(_) => Err(bad()),
                }
            }
            _ => return Err(bad()),
        };
        let dwords = match value {
            "grid" => Count::Grid,
            "wg" => Count::Wg,
            "groups" => Count::Groups,
            n => Count::Fixed(n.parse().map_err(|_| bad())?),
        };
        Ok(Arg::Buffer { dwords, init })
    }
}

/// A decimal (optionally negative) or `0x` hexadecimal 32-bit number.
fn parse_int(text: &str) -> Option<u32> {
    if let Some(hex) = text.strip_prefix("0x") {
        return u32::from_str_radix(hex, 16).ok();
    }
    text.parse::<u32>()
        .ok()
        .or_else(|| text.parse::<i32>().ok().map(|v| v as u32))
}

/// A buffer placed in the data memory.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Buffer {
    /// Byte address.
    pub addr: u64,
    /// Size in dwords.
    pub dwords: u32,
}

/// The data memory a launch starts from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Image {
    /// Dword i holds bytes 4i..4i+3 (little-endian), from address 0 to the end of the last
    /// buffer.
    pub mem: Vec<u32>,
    /// Byte address of the kernel argument segment ([`KERNARG_ADDR`]).
    pub kernarg: u64,
    /// How the wavefronts' registers start: rtgpu's simple ABI with `kernarg`, or (compiled
    /// kernels, [`crate::hsa`]) the HSA ABI.
    pub abi: rtgpu_hw::cu::Abi,
    /// The buffer arguments, in argument order.
    pub buffers: Vec<Buffer>,
}

impl Image {
    /// The bytes of data memory the launch's image takes (from address 0 to the end of the
    /// last buffer), checked before anything is allocated: `Err` when the argument segment
    /// outgrows its place below [`BUFFER_BASE`] or the image is larger than `mem_bytes` (the
    /// configuration's data memory). Call it before [`Image::build`].
    pub fn check(args: &[Arg], dims: Dims, mem_bytes: u64) -> Result<u64, LaunchError> {
        let mut segment = 0u64;
        let mut next = BUFFER_BASE;
        for arg in args {
            match *arg {
                Arg::Scalar(_) => segment += 1,
                Arg::Buffer { dwords, .. } => {
                    segment = segment.next_multiple_of(2) + 2;
                    next =
                        (next + 4 * u64::from(dwords.resolve(dims))).next_multiple_of(BUFFER_ALIGN);
                }
            }
        }
        let room = (BUFFER_BASE - KERNARG_ADDR) / 4;
        if segment > room {
            return err(format!(
                "the kernel arguments take {segment} dwords; the argument segment holds {room} \
                 (scalars take 1, buffers 2)"
            ));
        }
        if next > mem_bytes {
            return err(format!(
                "the launch's buffers need {next} bytes of data memory (up to the end of the last \
                 buffer) but the configuration has mem_bytes = {mem_bytes}: use a smaller grid \
                 or buffers, or raise mem_bytes with --config"
            ));
        }
        Ok(next)
    }

    /// Lays out the arguments: the argument segment at [`KERNARG_ADDR`] (buffers as 8-byte,
    /// 8-aligned addresses, scalars as 4 bytes), the buffers from [`BUFFER_BASE`], each
    /// [`BUFFER_ALIGN`]-aligned, filled from `seed`. It allocates the whole image: check its
    /// size with [`Image::check`] first.
    pub fn build(args: &[Arg], dims: Dims, seed: u64) -> Image {
        let (offsets, _) = Image::offsets(args);
        Image::build_at(args, &offsets, dims, seed)
    }

    /// The project's own argument layout (buffers as 8-aligned addresses, scalars as 4
    /// bytes): each argument's byte offset, and the segment's length in bytes.
    pub fn offsets(args: &[Arg]) -> (Vec<u32>, u32) {
        let mut at = 0u32;
        let offsets = args
            .iter()
            .map(|a| {
                let align = if matches!(a, Arg::Buffer { .. }) {
                    8
                } else {
                    4
                };
                let offset = at.next_multiple_of(align);
                at = offset + align;
                offset
            })
            .collect();
        (offsets, at)
    }

    /// [`Image::build`] with argument `i` at byte `offsets[i]` of the segment (4-aligned; a
    /// buffer's address takes 8 bytes, a scalar 4).
    pub fn build_at(args: &[Arg], offsets: &[u32], dims: Dims, seed: u64) -> Image {
        let mut rng = ChaCha8Rng::seed_from_u64(seed);
        let mut buffers = Vec::new();
        let mut contents: Vec<(u64, Vec<u32>)> = Vec::new();
        let mut next = BUFFER_BASE;
        let mut segment: Vec<(u32, u32)> = Vec::new();
        for (arg, &offset) in args.iter().zip(offsets) {
            let k = (KERNARG_ADDR / 4) as u32 + offset / 4;
            match *arg {
                Arg::Scalar(v) => segment.push((k, v)),
                Arg::Buffer { dwords, init } => {
                    let n = dwords.resolve(dims);
                    segment.extend([(k, next as u32), (k + 1, (next >> 32) as u32)]);
                    buffers.push(Buffer {
                        addr: next,
                        dwords: n,
                    });
                    contents.push((next, fill(init, n, &mut rng)));
                    next = (next + 4 * u64::from(n)).next_multiple_of(BUFFER_ALIGN);
                }
            }
        }
        let mut mem = vec![0u32; (next.max(BUFFER_BASE) / 4) as usize];
        for (k, v) in segment {
            mem[k as usize] = v;
        }
        for (addr, words) in contents {
            let a = (addr / 4) as usize;
            mem[a..a + words.len()].copy_from_slice(&words);
        }
        Image {
            mem,
            kernarg: KERNARG_ADDR,
            abi: KERNARG_ADDR.into(),
            buffers,
        }
    }

    /// The dwords of buffer `i` in a memory image `mem` laid out like this one.
    pub fn buffer<'m>(&self, mem: &'m [u32], i: usize) -> &'m [u32] {
        let b = self.buffers[i];
        let a = (b.addr / 4) as usize;
        &mem[a..a + b.dwords as usize]
    }
}

fn fill(init: Init, n: u32, rng: &mut ChaCha8Rng) -> Vec<u32> {
    (0..n)
        .map(|i| match init {
            Init::Zero => 0,
            Init::Int => rng.gen_range(-100i32..=100) as u32,
            Init::Float => rng.gen_range(-100.0f32..100.0).to_bits(),
            Init::Iota => i,
        })
        .collect()
}

/// The `// @` header lines of a kernel source: its default launch.
///
/// ```text
/// // @grid 256              work-items (default 64)
/// // @wg 64                 work-group size (default 64)
/// // @lds 1024              LDS bytes per work-group (default 0)
/// // @args float:grid zero:grid
/// // @min-s 2               PWS needs at least this many SpSIMDs per SIMD (default 1)
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct KernelMeta {
    /// Default dimensions.
    pub dims: Dims,
    /// LDS bytes per work-group.
    pub lds: u32,
    /// Default arguments.
    pub args: Vec<Arg>,
    /// The least S with which the kernel's `split`s fit under PWS (deeper nesting overflows,
    /// docs/assumptions.md#A9).
    pub min_s: u32,
}

impl KernelMeta {
    /// Reads the header lines of `source` (other lines are ignored).
    pub fn parse(source: &str) -> Result<KernelMeta, LaunchError> {
        let mut meta = KernelMeta {
            dims: Dims { grid: 64, wg: 64 },
            lds: 0,
            args: Vec::new(),
            min_s: 1,
        };
        for (n, line) in source.lines().enumerate() {
            let Some(rest) = line.trim().strip_prefix("// @") else {
                continue;
            };
            let (key, value) = rest.split_once(char::is_whitespace).unwrap_or((rest, ""));
            let value = value.trim();
            let number = || {
                parse_int(value).ok_or_else(|| {
                    LaunchError(format!(
                        "line {}: @{key} needs a number, got `{value}`",
                        n + 1
                    ))
                })
            };
            match key {
                "grid" => meta.dims.grid = number()?,
                "wg" => meta.dims.wg = number()?,
                "lds" => meta.lds = number()?,
                "min-s" => meta.min_s = number()?,
                "args" => {
                    meta.args = value
                        .split_whitespace()
                        .map(Arg::parse)
                        .collect::<Result<_, _>>()?
                }
                // Flow facts for `rtgpu wcet` (loop bounds, argument ranges): read there.
                "loop" | "range" => {}
                _ => return err(format!("line {}: unknown header `@{key}`", n + 1)),
            }
        }
        Ok(meta)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn dims_reject_bad_sizes() {
        assert!(Dims { grid: 128, wg: 64 }.check().is_ok());
        for (grid, wg) in [(0, 64), (64, 0), (100, 64), (2048, 2048)] {
            assert!(Dims { grid, wg }.check().is_err(), "{grid} {wg}");
        }
    }

    #[test]
    fn lanes_of_a_partial_wave() {
        let d = Dims { grid: 100, wg: 100 };
        assert_eq!(d.waves_per_group(), 2);
        assert_eq!(d.lanes(0), u64::MAX);
        assert_eq!(d.lanes(1), (1 << 36) - 1);
    }

    #[test]
    fn image_layout() {
        let args = [
            Arg::parse("iota:grid").unwrap(),
            Arg::parse("7").unwrap(),
            Arg::parse("zero:3").unwrap(),
        ];
        let dims = Dims { grid: 10, wg: 10 };
        let img = Image::build(&args, dims, 1);
        let k = (KERNARG_ADDR / 4) as usize;
        assert_eq!(&img.mem[k..k + 6], &[0x1_0000, 0, 7, 0, 0x1_0100, 0]);
        assert_eq!(img.buffer(&img.mem, 0), &[0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
        assert_eq!(img.buffers[1].addr, 0x1_0100);
        assert!(Arg::parse("buf:x").is_err());
        assert!(Arg::parse("f32:1e99").is_err());
    }

    #[test]
    fn image_size_is_checked_before_allocation() {
        let dims = Dims { grid: 10, wg: 10 };
        let args = [Arg::parse("iota:grid").unwrap()];
        assert_eq!(Image::check(&args, dims, 1 << 20), Ok(0x1_0100));
        let huge = Dims {
            grid: u32::MAX,
            wg: 1,
        };
        let e = Image::check(&[Arg::parse("zero:grid").unwrap(); 4], huge, 1 << 24);
        assert!(e.unwrap_err().0.contains("mem_bytes = 16777216"));
        let scalars = vec![Arg::Scalar(1); 15361];
        assert!(Image::check(&scalars, dims, 1 << 24)
            .unwrap_err()
            .0
            .contains("segment"));
        assert!(Image::check(&scalars[1..], dims, 1 << 24).is_ok());
    }

    #[test]
    fn header_lines() {
        let m =
            KernelMeta::parse("// @grid 128\n// @wg 64\n// @args float:grid zero:grid\nx").unwrap();
        assert_eq!(m.dims, Dims { grid: 128, wg: 64 });
        assert_eq!(m.args.len(), 2);
        assert!(KernelMeta::parse("// @bogus 1").is_err());
    }
}
