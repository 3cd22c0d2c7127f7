//! Data movement and conversion (PTX ISA "Data Movement and Conversion Instructions"): `mov`,
//! `ld`, `ldu`, `st`, `cvt`, `cvta` and `cp.async`. An asynchronous copy becomes a global load
//! at issue and a queued shared store that lands at the `cp.async.wait_group`/`wait_all` that
//! needs it, as late as the PTX ISA allows; `cp.async.bulk` becomes an [`MbarOp::BulkCopy`],
//! run in [`crate::exec`] (`simt/mbarrier.rs`).

use super::*;

impl KernelBuilder<'_> {
    /// `ld`, `ldu` (PTX ISA "Data Movement and Conversion Instructions: ld, ldu"): a load, scalar
    /// or vector; `ldu` reads through the non-coherent path.
    pub(super) fn ld_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i, span, mods, ops, ..
        } = *args;
        self.need(args, 2)?;
        let ty = self.need_ty(args)?;
        let space = space_of(mods);
        let mut cache = cache_op(mods);
        if i.opcode == "ldu" {
            cache = CacheOp::Nc;
        }
        let dregs: Vec<&Operand> = match &ops[0] {
            Operand::Vector(v) => v.iter().collect(),
            o => vec![o],
        };
        let mut d = Vec::new();
        let mut dst_bytes = 8u8;
        for o in dregs {
            if matches!(o, Operand::Name(n) if n == "_") {
                d.push(None);
            } else {
                let (r, b) = self.gen_reg(frame, o, span)?;
                dst_bytes = b;
                d.push(Some(r));
            }
        }
        let addr = self.addr(frame, &ops[1], span)?;
        Ok(Op::Ld {
            space,
            ty,
            d,
            dst_bytes,
            addr,
            cache,
        })
    }

    /// `st` (PTX ISA "Data Movement and Conversion Instructions: st"): a store, scalar or vector.
    pub(super) fn st_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 2)?;
        let ty = self.need_ty(args)?;
        let space = space_of(mods);
        let s: Vec<Src> = match &ops[1] {
            Operand::Vector(v) => v
                .iter()
                .map(|o| self.src(frame, o, ty, span))
                .collect::<Result<_, _>>()?,
            o => vec![self.src(frame, o, ty, span)?],
        };
        let addr = self.addr(frame, &ops[0], span)?;
        Ok(Op::St {
            space,
            ty,
            s,
            addr,
            cache: cache_op(mods),
        })
    }

    /// `mov` (PTX ISA "Data Movement and Conversion Instructions: mov"): a copy, a predicate copy,
    /// or a pack or unpack of a vector. An unpack is one instruction per part, pushed here: then
    /// `None`.
    pub(super) fn mov_op(
        &mut self,
        args: &InstArgs,
        frame: &Frame,
    ) -> Result<Option<Op>, PtxError> {
        let InstArgs {
            span, guard, ops, ..
        } = *args;
        self.need(args, 2)?;
        let ty = self.need_ty(args)?;
        Ok(Some(if ty == ScalarType::Pred {
            let d = match &ops[0] {
                Operand::Name(n) => self.pred_reg(frame, n, span)?,
                o => return self.err(span, format!("expected a predicate, found {}", describe(o))),
            };
            let a = self.pred_src(frame, &ops[1], span)?;
            Op::PredOp {
                op: PredLogic::Mov,
                d,
                a,
                b: PredSrc::TRUE,
            }
        } else if let Operand::Vector(parts) = &ops[1] {
            // Pack: mov.b64 %rd, {%r1, %r2}
            let d = self.dst(frame, &ops[0], span)?;
            let n = parts.len();
            let ety = match (ty.bits(), n) {
                (64, 2) => ScalarType::B32,
                (32, 2) | (64, 4) => ScalarType::B16,
                (32, 4) => ScalarType::B8,
                _ => return self.err(span, "unsupported vector mov"),
            };
            let srcs: Vec<Src> = parts
                .iter()
                .map(|o| self.src(frame, o, ety, span))
                .collect::<Result<_, _>>()?;
            let f: LaneFn = match (ety.bits(), n) {
                (32, 2) => |a, b, _, _| (a & 0xffff_ffff) | (b << 32),
                (16, 2) => |a, b, _, _| (a & 0xffff) | ((b & 0xffff) << 16),
                (16, 4) => |a, b, c, e| {
                    (a & 0xffff)
                        | ((b & 0xffff) << 16)
                        | ((c & 0xffff) << 32)
                        | ((e & 0xffff) << 48)
                },
                _ => |a, b, c, e| {
                    (a & 0xff) | ((b & 0xff) << 8) | ((c & 0xff) << 16) | ((e & 0xff) << 24)
                },
            };
            let g = |k: usize| srcs.get(k).copied().unwrap_or(Src::Imm(0));
            Op::Alu {
                f,
                d,
                a: g(0),
                b: g(1),
                c: g(2),
                e: g(3),
                w: None,
            }
        } else if let Operand::Vector(parts) = &ops[0] {
            // Unpack: mov.b64 {%r1, %r2}, %rd
            let a = self.src(frame, &ops[1], ty, span)?;
            let n = parts.len() as u32;
            if !matches!((ty.bits(), n), (64, 2) | (32, 2) | (64, 4) | (32, 4)) {
                return self.err(span, "unsupported vector mov");
            }
            let w = ty.bits() / n;
            for (k, p) in parts.iter().enumerate() {
                if matches!(p, Operand::Name(n) if n == "_") {
                    continue;
                }
                let d = self.dst(frame, p, span)?;
                let f: LaneFn = match w {
                    32 => |a, sh, _, _| (a >> sh) & 0xffff_ffff,
                    16 => |a, sh, _, _| (a >> sh) & 0xffff,
                    _ => |a, sh, _, _| (a >> sh) & 0xff,
                };
                self.push(
                    Op::Alu {
                        f,
                        d,
                        a,
                        b: Src::Imm((k as u32 * w) as u64),
                        c: Src::Imm(0),
                        e: Src::Imm(0),
                        w: None,
                    },
                    guard,
                    span,
                )?;
            }
            return Ok(None);
        } else {
            let d = self.dst(frame, &ops[0], span)?;
            let a = self.src(frame, &ops[1], ty, span)?;
            let f = alu::select("mov", &[], if ty.is_float() { ty } else { bits_ty(ty) })
                .or_else(|e| self.err(span, e))?;
            Op::Alu {
                f,
                d,
                a,
                b: Src::Imm(0),
                c: Src::Imm(0),
                e: Src::Imm(0),
                w: None,
            }
        }))
    }

    /// `cvt` (PTX ISA "Data Movement and Conversion Instructions: cvt"), packed half pairs
    /// included.
    pub(super) fn cvt_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span,
            mods,
            types,
            ops,
            ..
        } = *args;
        self.need(args, 2)?;
        if types.len() < 2 {
            return self.err(span, "cvt needs a destination and a source type");
        }
        let (dst, srct) = (types[0], types[1]);
        let rnd = alu::rounding(mods);
        let int_rnd = mods
            .iter()
            .any(|m| matches!(*m, "rni" | "rzi" | "rmi" | "rpi"));
        let d = self.dst(frame, &ops[0], span)?;
        Ok(if matches!(dst, ScalarType::F16x2 | ScalarType::BF16x2) {
            self.need(args, 3)?;
            let a = self.src(frame, &ops[1], srct, span)?;
            let b = self.src(frame, &ops[2], srct, span)?;
            use crate::exec::cvt::{cvt_bf16x2_f32, cvt_f16x2_f32};
            use crate::ir::types::Rounding as R;
            let relu = mods.contains(&"relu");
            let f: LaneFn = match (dst == ScalarType::F16x2, rnd.unwrap_or(R::Rn), relu) {
                (true, R::Rz, _) => {
                    |a, b, _, _| cvt_f16x2_f32(a as u32, b as u32, R::Rz, false) as u64
                }
                (true, _, false) => {
                    |a, b, _, _| cvt_f16x2_f32(a as u32, b as u32, R::Rn, false) as u64
                }
                (true, _, true) => {
                    |a, b, _, _| cvt_f16x2_f32(a as u32, b as u32, R::Rn, true) as u64
                }
                (false, R::Rz, _) => {
                    |a, b, _, _| cvt_bf16x2_f32(a as u32, b as u32, R::Rz, false) as u64
                }
                (false, _, false) => {
                    |a, b, _, _| cvt_bf16x2_f32(a as u32, b as u32, R::Rn, false) as u64
                }
                (false, _, true) => {
                    |a, b, _, _| cvt_bf16x2_f32(a as u32, b as u32, R::Rn, true) as u64
                }
            };
            Op::Alu {
                f,
                d,
                a,
                b,
                c: Src::Imm(0),
                e: Src::Imm(0),
                w: None,
            }
        } else {
            let a = self.src(frame, &ops[1], srct, span)?;
            Op::Cvt {
                d,
                a,
                dst,
                src: srct,
                rnd,
                int_rnd,
                sat: mods.contains(&"sat"),
                ftz: mods.contains(&"ftz"),
            }
        })
    }

    /// `cvta` (PTX ISA "Data Movement and Conversion Instructions: cvta"): between a state space's
    /// addresses and generic ones.
    pub(super) fn cvta_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 2)?;
        let to = mods.first() == Some(&"to");
        let space = match space_of(mods) {
            SpaceSel::Space(s) => s,
            SpaceSel::Generic => return self.err(span, "cvta needs a state space"),
        };
        let d = self.dst(frame, &ops[0], span)?;
        let a = self.src(frame, &ops[1], ScalarType::U64, span)?;
        Ok(Op::Cvta {
            d,
            a,
            space,
            to_generic: !to,
        })
    }

    /// `cp.async` (PTX ISA "Data Movement and Conversion Instructions: cp.async"). Asynchronous
    /// copies complete when they are issued (PTX ISA "Data Movement and Conversion Instructions:
    /// cp.async"): a correct program waits for them before it reads the data, so what it computes
    /// cannot tell. `commit_group`, `wait_group` and `wait_all` then have nothing to wait for.
    pub(super) fn cp_async_op(&mut self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i,
            span,
            guard,
            mods,
            ops,
            ..
        } = *args;
        let rest = &mods[1..];
        Ok(if rest == ["commit_group"] {
            Op::CpAsyncCommit
        } else if rest == ["wait_all"] {
            Op::CpAsyncWait { n: 0, all: true }
        } else if rest == ["wait_group"] {
            self.need(args, 1)?;
            let Some(n) = imm_bits(&ops[0], ScalarType::U32) else {
                return self.err(span, "cp.async.wait_group needs a constant group count");
            };
            Op::CpAsyncWait {
                n: n as u32,
                all: false,
            }
        } else if rest.first() == Some(&"mbarrier") {
            // `cp.async.mbarrier.arrive[.noinc]`: an arrive once the thread's copies
            // are done. Without `.noinc` the pending count is raised by one first, so
            // with the copies done it changes nothing.
            self.need(args, 1)?;
            // The thread's copies land first.
            self.align_rules.push((self.code.len(), AlignRule::Unknown));
            self.push(Op::CpAsyncWait { n: 0, all: true }, guard, span)?;
            if rest.contains(&"noinc") {
                Op::Mbarrier {
                    op: MbarOp::Arrive,
                    d: Src::Imm(0),
                    addr: self.addr(frame, &ops[0], span)?,
                    space: space_of(mods),
                    b: Src::Imm(1),
                    copy: None,
                }
            } else {
                Op::Nop
            }
        } else if rest.first() == Some(&"bulk")
            && rest.contains(&"global")
            && rest.iter().any(|m| m.starts_with("shared"))
            && rest.contains(&"mbarrier::complete_tx::bytes")
            && !rest
                .iter()
                .any(|m| m.starts_with("multicast") || m.starts_with("L2"))
        {
            self.need(args, 4)?;
            Op::Mbarrier {
                op: MbarOp::BulkCopy,
                d: Src::Imm(0),
                addr: self.addr(frame, &ops[3], span)?,
                space: SpaceSel::Space(Space::Shared),
                b: self.src(frame, &ops[2], ScalarType::U32, span)?,
                copy: Some((
                    self.addr(frame, &ops[0], span)?,
                    self.addr(frame, &ops[1], span)?,
                )),
            }
        } else if matches!(rest.first(), Some(&"ca") | Some(&"cg"))
            && rest.contains(&"shared")
            && rest.contains(&"global")
        {
            self.need(args, 3)?;
            let size = imm_bits(&ops[2], ScalarType::U32);
            let src_size = match ops.get(3) {
                None => size,
                Some(o) => imm_bits(o, ScalarType::U32),
            };
            let n = match (size, src_size) {
                (Some(s @ (4 | 8 | 16)), Some(t)) if s == t => s / 4,
                _ => {
                    return self.err(
                        span,
                        "cp.async with a source size other than its copy size (zero fill) or given in a register is not supported yet",
                    )
                }
            };
            let cache = if rest[0] == "cg" {
                CacheOp::Cg
            } else {
                CacheOp::Ca
            };
            let mut tmp = Vec::new();
            for _ in 0..n {
                tmp.push(self.new_reg(span)?);
            }
            let src = self.addr(frame, &ops[1], span)?;
            let dst = self.addr(frame, &ops[0], span)?;
            // A load of the global bytes into hidden registers at issue, then their
            // store, queued until a wait lands it in shared memory: two instructions
            // of the PTX path for one `cp.async`.
            let ld = Op::Ld {
                space: SpaceSel::Space(Space::Global),
                ty: ScalarType::B32,
                d: tmp.iter().map(|r| Some(*r)).collect(),
                dst_bytes: 4,
                addr: src,
                cache,
            };
            self.align_rules.push((self.code.len(), AlignRule::Unknown));
            self.push(ld, guard, span)?;
            Op::CpAsyncStore {
                s: tmp.iter().map(|r| Src::Reg(*r)).collect(),
                addr: dst,
            }
        } else {
            return Err(self.unsupported(span, &format!("cp.{}", i.mods.join("."))));
        })
    }
}
