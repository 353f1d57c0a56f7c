//! A per-thread concrete interpreter for the [`ptx`](super::ptx) subset (the paper's
//! `UpdateRegisterValue` and `GetAddr`, Algorithms 2 and 3).
//!
//! Values are what the analyzer can know statically (the paper's assumption: addresses and branch
//! conditions depend only on thread/block IDs, parameters and constants). A register holds
//! `Some(bits)` (zero-extended to 64 bits) once written from known values, or `None` when its
//! value is *data*: never written, loaded from global or shared memory, or floating point (the
//! interpreter does no float arithmetic; `mov` copies float bit patterns exactly). Using a data
//! value as a global address or as a guard is an error ([`ExecError::DataDependent`]): that is
//! the paper's "statically unpredictable" case (its Section III-F).
//!
//! Integer semantics follow PTX: operations work on the type's width and the result is stored
//! zero-extended; signed types compare, divide and shift right as signed; shifts by the width or
//! more give 0 (or all sign bits for a signed `shr`); `mul.wide`/`mad.wide` give the full
//! product at twice the width; `cvt` sign- or zero-extends from the source type then truncates
//! to the destination type.
//!
//! Global accesses are 32-bit byte addresses (our choice): an address of 2^32 or more is an
//! error, and so is an address that is not a multiple of the access size (PTX requires natural
//! alignment; it also guarantees that one thread's access lies in one 128-byte line).

use std::fmt;

use super::ptx::{Address, BinOp, Cmp, Kernel, Op, Operand, Space, SpecialKind, Ty};

/// A register value: `Some(bits)` when statically known, `None` when it is data.
pub type Val = Option<u64>;

/// The IDs a thread sees through the special registers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadCtx {
    /// `%tid`
    pub tid: [u32; 3],
    /// `%ntid` (block dimensions)
    pub ntid: [u32; 3],
    /// `%ctaid`
    pub ctaid: [u32; 3],
    /// `%nctaid` (grid dimensions)
    pub nctaid: [u32; 3],
}

/// `linear` as an `(x, y, z)` index in `dims`, x fastest (CUDA order). `dims` must be non-zero.
pub fn unflatten(linear: u32, dims: [u32; 3]) -> [u32; 3] {
    let (dx, dy) = (dims[0].max(1), dims[1].max(1));
    [linear % dx, (linear / dx) % dy, linear / (dx * dy)]
}

/// A global memory access by one thread.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MemAccess {
    /// `st.global` (true) or `ld.global` (false).
    pub is_store: bool,
    /// The byte address.
    pub addr: u32,
    /// The access size in bytes.
    pub bytes: u32,
}

/// What executing one instruction did, for the caller's control flow.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Effect {
    /// Continue with the next instruction.
    Next,
    /// A branch: continue at this instruction index.
    Jump(usize),
    /// A global load or store (then continue with the next instruction).
    Mem(MemAccess),
    /// `bar.sync` (then continue with the next instruction).
    Barrier,
    /// `exit` / `ret`.
    Exit,
}

/// Why a thread could not execute. Variants with a `line` name the PTX source line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ExecError {
    /// The number of parameter values differs from the kernel's parameters.
    ParamCount {
        /// The kernel's parameter count.
        expected: usize,
        /// The number of values given.
        got: usize,
    },
    /// A data value (see the module doc) is used where a static value is needed.
    DataDependent {
        /// The line.
        line: usize,
        /// `"guard predicate"` or `"global address"`.
        what: &'static str,
    },
    /// A global address that is not a multiple of the access size.
    Misaligned {
        /// The line.
        line: usize,
        /// The address.
        addr: u64,
        /// The access size.
        bytes: u32,
    },
    /// A global address beyond the 32-bit address space.
    AddressRange {
        /// The line.
        line: usize,
        /// The address.
        addr: u64,
    },
    /// An integer division or remainder by zero.
    DivByZero {
        /// The line.
        line: usize,
    },
    /// The kernel structure is inconsistent (a hand-built [`Kernel`] naming a register, parameter
    /// or branch target that does not exist).
    Malformed {
        /// The line (0 when the instruction index itself is out of range).
        line: usize,
        /// What is wrong.
        what: String,
    },
    /// [`run_thread`] executed more instructions than its limit.
    StepLimit {
        /// The limit.
        limit: u64,
    },
}

impl fmt::Display for ExecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Self::ParamCount { expected, got } => write!(
                f,
                "the kernel has {expected} parameter(s) but {got} value(s) were given"
            ),
            Self::DataDependent { line, what } => write!(
                f,
                "line {line}: the {what} depends on data (a loaded, float or never-written \
                 value); the analyzer needs it statically known"
            ),
            Self::Misaligned { line, addr, bytes } => write!(
                f,
                "line {line}: global address {addr:#x} is not aligned to the access size \
                 ({bytes} bytes)"
            ),
            Self::AddressRange { line, addr } => write!(
                f,
                "line {line}: global address {addr:#x} is outside the 32-bit address space"
            ),
            Self::DivByZero { line } => write!(f, "line {line}: integer division by zero"),
            Self::Malformed { line, what } => write!(f, "line {line}: malformed kernel: {what}"),
            Self::StepLimit { limit } => {
                write!(f, "the thread executed more than {limit} instructions")
            }
        }
    }
}

impl std::error::Error for ExecError {}

fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

fn sext(v: u64, bits: u32) -> i64 {
    if bits >= 64 {
        v as i64
    } else {
        let shift = 64 - bits;
        ((v << shift) as i64) >> shift
    }
}

/// `v` read as type `ty`: sign- or zero-extended from its width to 64 bits.
fn extend(v: u64, ty: Ty) -> u64 {
    if ty.is_signed() {
        sext(v, ty.bits()) as u64
    } else {
        v & mask(ty.bits())
    }
}

fn shift(op: BinOp, ty: Ty, a: u64, amount: u64) -> u64 {
    let w = u64::from(ty.bits());
    let amount = amount & 0xFFFF_FFFF;
    match (op, ty.is_signed()) {
        (BinOp::Shl, _) if amount >= w => 0,
        (BinOp::Shl, _) => a << amount,
        (_, true) => (sext(a, ty.bits()) >> amount.min(63)) as u64,
        (_, false) if amount >= w => 0,
        (_, false) => (a & mask(ty.bits())) >> amount,
    }
}

/// An integer binary operation on type `ty`; `None` for a zero divisor.
fn int_bin(op: BinOp, ty: Ty, a: u64, b: u64) -> Option<u64> {
    let (w, signed) = (ty.bits(), ty.is_signed());
    let (ua, ub) = (a & mask(w), b & mask(w));
    let (sa, sb) = (sext(a, w), sext(b, w));
    let r = match op {
        BinOp::Add => ua.wrapping_add(ub),
        BinOp::Sub => ua.wrapping_sub(ub),
        BinOp::Mul => ua.wrapping_mul(ub),
        BinOp::Div | BinOp::Rem if ub == 0 => return None,
        BinOp::Div if signed => sa.wrapping_div(sb) as u64,
        BinOp::Div => ua / ub,
        BinOp::Rem if signed => sa.wrapping_rem(sb) as u64,
        BinOp::Rem => ua % ub,
        BinOp::Min if signed => sa.min(sb) as u64,
        BinOp::Min => ua.min(ub),
        BinOp::Max if signed => sa.max(sb) as u64,
        BinOp::Max => ua.max(ub),
        BinOp::And => ua & ub,
        BinOp::Or => ua | ub,
        BinOp::Xor => ua ^ ub,
        BinOp::Shl | BinOp::Shr => shift(op, ty, a, b),
    };
    Some(r & mask(w))
}

/// The full product of two `ty` values, at twice the width.
fn wide_mul(ty: Ty, a: u64, b: u64) -> u64 {
    (extend(a, ty).wrapping_mul(extend(b, ty))) & mask(2 * ty.bits())
}

fn compare(cmp: Cmp, ty: Ty, a: u64, b: u64) -> bool {
    let ord = if ty.is_signed() {
        sext(a, ty.bits()).cmp(&sext(b, ty.bits()))
    } else {
        (a & mask(ty.bits())).cmp(&(b & mask(ty.bits())))
    };
    match cmp {
        Cmp::Eq => ord.is_eq(),
        Cmp::Ne => ord.is_ne(),
        Cmp::Lt => ord.is_lt(),
        Cmp::Le => ord.is_le(),
        Cmp::Gt => ord.is_gt(),
        Cmp::Ge => ord.is_ge(),
    }
}

/// One thread's registers and IDs.
#[derive(Clone, Debug)]
pub struct Thread<'k> {
    kernel: &'k Kernel,
    params: &'k [u64],
    ctx: ThreadCtx,
    regs: Vec<Val>,
}

impl<'k> Thread<'k> {
    /// A thread with every register unwritten (`None`). `params` are the parameter values in
    /// declaration order (each truncated to the width it is loaded with).
    pub fn new(kernel: &'k Kernel, params: &'k [u64], ctx: ThreadCtx) -> Result<Self, ExecError> {
        if params.len() != kernel.params.len() {
            return Err(ExecError::ParamCount {
                expected: kernel.params.len(),
                got: params.len(),
            });
        }
        Ok(Thread {
            kernel,
            params,
            ctx,
            regs: vec![None; kernel.regs.len()],
        })
    }

    /// The thread's IDs.
    pub fn ctx(&self) -> ThreadCtx {
        self.ctx
    }

    /// Register `r`'s value (`None` for data or an unknown index).
    pub fn reg(&self, r: usize) -> Val {
        self.regs.get(r).copied().flatten()
    }

    fn malformed(line: usize, what: impl Into<String>) -> ExecError {
        ExecError::Malformed {
            line,
            what: what.into(),
        }
    }

    fn read(&self, line: usize, o: Operand) -> Result<Val, ExecError> {
        Ok(match o {
            Operand::Imm(v) => Some(v),
            Operand::Reg(r) => *self
                .regs
                .get(r)
                .ok_or_else(|| Self::malformed(line, format!("register index {r}")))?,
            Operand::Special(s) => {
                let v = match s.kind {
                    SpecialKind::Tid => self.ctx.tid,
                    SpecialKind::Ntid => self.ctx.ntid,
                    SpecialKind::Ctaid => self.ctx.ctaid,
                    SpecialKind::Nctaid => self.ctx.nctaid,
                };
                let d = v
                    .get(s.dim)
                    .ok_or_else(|| Self::malformed(line, "special dim"))?;
                Some(u64::from(*d))
            }
        })
    }

    fn write(&mut self, line: usize, dst: usize, v: Val) -> Result<(), ExecError> {
        let slot = self
            .regs
            .get_mut(dst)
            .ok_or_else(|| Self::malformed(line, format!("register index {dst}")))?;
        *slot = v;
        Ok(())
    }

    /// Whether the instruction's guard lets this thread execute it (true when unguarded).
    pub fn guard(&self, index: usize) -> Result<bool, ExecError> {
        let inst = self.inst(index)?;
        let Some(g) = inst.guard else {
            return Ok(true);
        };
        match self.read(inst.line, Operand::Reg(g.pred))? {
            Some(v) => Ok((v & 1 != 0) != g.negate),
            None => Err(ExecError::DataDependent {
                line: inst.line,
                what: "guard predicate",
            }),
        }
    }

    fn inst(&self, index: usize) -> Result<&'k super::ptx::Inst, ExecError> {
        self.kernel
            .insts
            .get(index)
            .ok_or_else(|| Self::malformed(0, format!("instruction index {index}")))
    }

    /// Executes instruction `index` for this thread, ignoring its guard (the caller checks
    /// [`Thread::guard`]).
    pub fn exec(&mut self, index: usize) -> Result<Effect, ExecError> {
        let inst = self.inst(index)?;
        let line = inst.line;
        match &inst.op {
            Op::Bra { target } => Ok(Effect::Jump(*target)),
            Op::Bar => Ok(Effect::Barrier),
            Op::Exit => Ok(Effect::Exit),
            Op::Ld {
                space,
                ty,
                dst,
                addr,
            } => {
                let eff = match space {
                    Space::Global => Effect::Mem(self.global(line, *addr, *ty, false)?),
                    Space::Shared => Effect::Next,
                };
                self.write(line, *dst, None)?;
                Ok(eff)
            }
            Op::St {
                space, ty, addr, ..
            } => match space {
                Space::Global => Ok(Effect::Mem(self.global(line, *addr, *ty, true)?)),
                Space::Shared => Ok(Effect::Next),
            },
            op => {
                let (dst, v) = self.compute(line, op)?;
                self.write(line, dst, v)?;
                Ok(Effect::Next)
            }
        }
    }

    fn global(
        &self,
        line: usize,
        a: Address,
        ty: Ty,
        is_store: bool,
    ) -> Result<MemAccess, ExecError> {
        let base = match a.base {
            Some(r) => self.read(line, Operand::Reg(r))?,
            None => Some(0),
        };
        let addr = base
            .ok_or(ExecError::DataDependent {
                line,
                what: "global address",
            })?
            .wrapping_add(a.offset as u64);
        let bytes = ty.bytes();
        let addr32 = u32::try_from(addr).map_err(|_| ExecError::AddressRange { line, addr })?;
        if addr % u64::from(bytes) != 0 {
            return Err(ExecError::Misaligned { line, addr, bytes });
        }
        Ok(MemAccess {
            is_store,
            addr: addr32,
            bytes,
        })
    }

    /// The destination and value of a computing instruction.
    fn compute(&self, line: usize, op: &Op) -> Result<(usize, Val), ExecError> {
        let rd = |o: Operand| self.read(line, o);
        Ok(match *op {
            Op::LdParam { ty, dst, param } => {
                let v = self
                    .params
                    .get(param)
                    .ok_or_else(|| Self::malformed(line, format!("parameter index {param}")))?;
                (dst, Some(v & mask(ty.bits())))
            }
            Op::Mov { ty, dst, src } => (dst, rd(src)?.map(|v| v & mask(ty.bits()))),
            Op::Cvt { dty, sty, dst, src } => {
                let v = rd(src)?.filter(|_| !dty.is_float() && !sty.is_float());
                (dst, v.map(|v| extend(v, sty) & mask(dty.bits())))
            }
            Op::Not { ty, dst, src } => {
                let v = rd(src)?.filter(|_| !ty.is_float());
                (dst, v.map(|v| !v & mask(ty.bits())))
            }
            Op::Bin { op, ty, dst, a, b } => (dst, self.bin(line, op, ty, rd(a)?, rd(b)?)?),
            Op::MulWide { ty, dst, a, b } => {
                (dst, both(rd(a)?, rd(b)?).map(|(a, b)| wide_mul(ty, a, b)))
            }
            Op::Mad {
                wide,
                ty,
                dst,
                a,
                b,
                c,
            } => (dst, self.mad(line, wide, ty, rd(a)?, rd(b)?, rd(c)?)?),
            Op::Setp { cmp, ty, dst, a, b } => {
                let v = both(rd(a)?, rd(b)?).filter(|_| !ty.is_float());
                (dst, v.map(|(a, b)| u64::from(compare(cmp, ty, a, b))))
            }
            _ => return Err(Self::malformed(line, "not a computing instruction")),
        })
    }

    fn bin(&self, line: usize, op: BinOp, ty: Ty, a: Val, b: Val) -> Result<Val, ExecError> {
        match both(a, b) {
            Some((a, b)) if !ty.is_float() => int_bin(op, ty, a, b)
                .map(Some)
                .ok_or(ExecError::DivByZero { line }),
            _ => Ok(None),
        }
    }

    fn mad(
        &self,
        line: usize,
        wide: bool,
        ty: Ty,
        a: Val,
        b: Val,
        c: Val,
    ) -> Result<Val, ExecError> {
        let (Some((a, b)), Some(c)) = (both(a, b), c) else {
            return Ok(None);
        };
        if ty.is_float() {
            return Ok(None);
        }
        if wide {
            let w2 = 2 * ty.bits();
            return Ok(Some(wide_mul(ty, a, b).wrapping_add(c) & mask(w2)));
        }
        let p = self.bin(line, BinOp::Mul, ty, Some(a), Some(b))?;
        self.bin(line, BinOp::Add, ty, p, Some(c))
    }
}

fn both(a: Val, b: Val) -> Option<(u64, u64)> {
    Some((a?, b?))
}

/// One global access of a thread run alone: the instruction index and the access.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ThreadAccess {
    /// The instruction index (PC / 8).
    pub index: usize,
    /// The access.
    pub access: MemAccess,
}

/// Runs one thread alone from instruction 0 to `exit` (or the end of the kernel) and returns
/// its global accesses in program order. Barriers are no-ops. More than `step_limit` executed
/// instructions is an error. This is the single-thread reference the SIMT analyzer is checked
/// against.
pub fn run_thread(
    kernel: &Kernel,
    params: &[u64],
    ctx: ThreadCtx,
    step_limit: u64,
) -> Result<Vec<ThreadAccess>, ExecError> {
    let mut t = Thread::new(kernel, params, ctx)?;
    let (mut pc, mut steps, mut out) = (0usize, 0u64, Vec::new());
    while pc < kernel.insts.len() {
        steps += 1;
        if steps > step_limit {
            return Err(ExecError::StepLimit { limit: step_limit });
        }
        if !t.guard(pc)? {
            pc += 1;
            continue;
        }
        match t.exec(pc)? {
            Effect::Next | Effect::Barrier => pc += 1,
            Effect::Jump(target) => pc = target,
            Effect::Mem(access) => {
                out.push(ThreadAccess { index: pc, access });
                pc += 1;
            }
            Effect::Exit => break,
        }
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn kernel(body: &str) -> Kernel {
        let src = format!(
            ".entry k ( .param .u64 p, .param .u32 n )\n{{\n.reg .u32 %r<8>; .reg .u64 %rd<8>; \
             .reg .s32 %s<4>; .reg .pred %p<4>; .reg .f32 %f<2>;\n{body}\n}}"
        );
        Kernel::parse(&src).unwrap()
    }

    fn ctx(tid: u32) -> ThreadCtx {
        ThreadCtx {
            tid: [tid, 0, 0],
            ntid: [64, 1, 1],
            ctaid: [1, 0, 0],
            nctaid: [2, 1, 1],
        }
    }

    /// Runs the body for thread 3 and returns its final registers.
    fn regs_after(body: &str) -> Vec<Val> {
        let k = kernel(body);
        let params = [0x1000u64, 0xFFFF_FFFF_0000_0007];
        let mut t = Thread::new(&k, &params, ctx(3)).unwrap();
        for i in 0..k.insts.len() {
            if t.guard(i).unwrap() {
                t.exec(i).unwrap();
            }
        }
        t.regs
    }

    #[test]
    fn integer_semantics() {
        // %r0..: u32, %rd: u64, %s: s32 (indices: r 0..8, rd 8..16, s 16..20, p 20..24)
        let r = regs_after(
            "ld.param.u32 %r0, [n];\n mov.s32 %s0, -6;\n shr.s32 %s1, %s0, 1;\n\
             shr.u32 %r1, %s0, 1;\n mul.wide.s32 %rd0, %s0, 1000;\n cvt.s64.s32 %rd1, %s0;\n\
             cvt.u64.u32 %rd2, %s0;\n div.s32 %s2, %s0, 4;\n rem.s32 %s3, %s0, 4;\n\
             setp.lt.s32 %p0, %s0, 0;\n setp.lt.u32 %p1, %s0, 0;\n shl.b32 %r2, 1, 40;\n\
             mad.lo.u32 %r3, %tid.x, %ntid.x, %ctaid.x;\n mad.wide.u32 %rd3, %r0, 16, 1;\n\
             min.s32 %r4, %s0, 2;\n max.u32 %r5, %s0, 2;\n xor.b32 %r6, %r0, 5;\n not.b32 %r7, 0;",
        );
        assert_eq!(r[0], Some(7));
        assert_eq!(r[16], Some(0xFFFF_FFFA));
        assert_eq!(r[17], Some(0xFFFF_FFFD)); // -3
        assert_eq!(r[1], Some(0x7FFF_FFFD));
        assert_eq!(r[8], Some((-6000i64) as u64));
        assert_eq!(r[9], Some((-6i64) as u64));
        assert_eq!(r[10], Some(0xFFFF_FFFA));
        assert_eq!(r[18], Some(0xFFFF_FFFF)); // -6 / 4 = -1
        assert_eq!(r[19], Some(0xFFFF_FFFE)); // -6 % 4 = -2
        assert_eq!((r[20], r[21]), (Some(1), Some(0)));
        assert_eq!(r[2], Some(0));
        assert_eq!(r[3], Some(3 * 64 + 1));
        assert_eq!(r[11], Some(7 * 16 + 1));
        assert_eq!(r[4], Some(0xFFFF_FFFA));
        assert_eq!(r[5], Some(0xFFFF_FFFA));
        assert_eq!(r[6], Some(2));
        assert_eq!(r[7], Some(0xFFFF_FFFF));
    }

    #[test]
    fn data_values_are_unknown() {
        let r = regs_after(
            "ld.param.u64 %rd0, [p];\n ld.global.u32 %r0, [%rd0];\n add.u32 %r1, %r0, 1;\n\
             mov.f32 %f0, 0f3F800000;\n add.f32 %f1, %f0, %f0;\n cvt.rn.f32.u32 %f0, %r1;",
        );
        assert_eq!((r[0], r[1]), (None, None));
        assert_eq!((r[20 + 4], r[20 + 5]), (None, None));
        assert_eq!(r[2], None); // never written
    }

    #[test]
    fn run_thread_follows_branches_and_guards() {
        let k = kernel(
            "ld.param.u64 %rd0, [p];\n mov.u32 %r0, 0;\n$L: mul.wide.u32 %rd1, %r0, 128;\n\
             add.u64 %rd2, %rd0, %rd1;\n setp.eq.u32 %p0, %r0, 1;\n @!%p0 st.global.u32 [%rd2], %r0;\n\
             add.u32 %r0, %r0, 1;\n setp.lt.u32 %p1, %r0, 3;\n @%p1 bra $L;\n exit;",
        );
        let acc = run_thread(&k, &[0x1000, 0], ctx(0), 1000).unwrap();
        let addrs: Vec<u32> = acc.iter().map(|a| a.access.addr).collect();
        assert_eq!(addrs, vec![0x1000, 0x1100]);
        assert!(acc.iter().all(|a| a.access.is_store && a.index == 5));
        assert_eq!(
            run_thread(&k, &[0, 0], ctx(0), 10),
            Err(ExecError::StepLimit { limit: 10 })
        );
    }

    #[test]
    fn execution_errors() {
        let run = |body: &str, params: &[u64]| run_thread(&kernel(body), params, ctx(1), 100);
        let p = [0u64, 0];
        assert!(matches!(
            run("ld.global.u32 %r0, [%rd0];", &p),
            Err(ExecError::DataDependent {
                what: "global address",
                ..
            })
        ));
        assert!(matches!(
            run("@%p0 exit;", &p),
            Err(ExecError::DataDependent {
                what: "guard predicate",
                ..
            })
        ));
        assert!(matches!(
            run("ld.param.u64 %rd0, [p]; ld.global.u32 %r0, [%rd0+2];", &p),
            Err(ExecError::Misaligned { .. })
        ));
        assert!(matches!(
            run(
                "ld.param.u64 %rd0, [p]; ld.global.u32 %r0, [%rd0];",
                &[1 << 32, 0]
            ),
            Err(ExecError::AddressRange { .. })
        ));
        assert!(matches!(
            run("div.u32 %r0, 1, 0;", &p),
            Err(ExecError::DivByZero { line: 4 })
        ));
        assert_eq!(
            run("exit;", &[0]),
            Err(ExecError::ParamCount {
                expected: 2,
                got: 1
            })
        );
        let mut k = kernel("mov.u32 %r0, 1;");
        k.insts[0].op = Op::Mov {
            ty: Ty::U32,
            dst: 999,
            src: Operand::Imm(0),
        };
        assert!(matches!(
            run_thread(&k, &p, ctx(0), 10),
            Err(ExecError::Malformed { .. })
        ));
        assert!(ExecError::DivByZero { line: 4 }
            .to_string()
            .contains("line 4"));
    }

    #[test]
    fn unflatten_is_x_fastest() {
        assert_eq!(unflatten(0, [16, 4, 1]), [0, 0, 0]);
        assert_eq!(unflatten(17, [16, 4, 1]), [1, 1, 0]);
        assert_eq!(unflatten(5, [1, 2, 3]), [0, 1, 2]);
    }
}
