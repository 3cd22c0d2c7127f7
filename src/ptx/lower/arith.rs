//! Integer, floating-point, logic and shift, comparison and selection instructions (PTX ISA
//! "Integer Arithmetic Instructions", "Extended-Precision Integer Arithmetic Instructions",
//! "Floating-Point Instructions", "Comparison and Selection Instructions", "Logic and Shift
//! Instructions"). Each becomes a lane function chosen here, once ([`alu::select`],
//! [`fsel::select_warp`], [`fsel::select_testp`], [`alu::select_cmp`]), a carry operation on the
//! kernel's one hidden carry register, a comparison or a selection.

use super::*;

impl KernelBuilder<'_> {
    /// `and`, `or`, `xor`, `not` of predicates (PTX ISA "Logic and Shift Instructions").
    pub(super) fn pred_logic_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs { i, span, ops, .. } = *args;
        self.need(args, 2)?;
        let d = match &ops[0] {
            Operand::Name(n) => self.pred_reg(frame, n, span)?,
            o => return self.err(span, format!("expected a predicate, found {}", describe(o))),
        };
        let a = self.pred_src(frame, &ops[1], span)?;
        let (op, b) = match i.opcode.as_str() {
            "not" => (PredLogic::Mov, PredSrc::TRUE),
            o => {
                self.need(args, 3)?;
                let b = self.pred_src(frame, &ops[2], span)?;
                (
                    match o {
                        "and" => PredLogic::And,
                        "or" => PredLogic::Or,
                        _ => PredLogic::Xor,
                    },
                    b,
                )
            }
        };
        let a = if i.opcode == "not" {
            PredSrc {
                reg: a.reg,
                neg: !a.neg,
            }
        } else {
            a
        };
        Ok(Op::PredOp { op, d, a, b })
    }

    /// `add.cc`, `addc`, `sub.cc`, `subc`, `mad.cc`, `madc` (PTX ISA "Extended-Precision Integer
    /// Arithmetic Instructions"): arithmetic that reads or writes the carry flag, kept in one
    /// hidden register per kernel.
    pub(super) fn carry_op(&mut self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i, span, mods, ops, ..
        } = *args;
        let ty = self.need_ty(args)?;
        let cin = i.opcode.ends_with('c');
        let cout = mods.contains(&"cc");
        let base = i.opcode.trim_end_matches('c');
        let base = if base == "ma" { "mad" } else { base };
        let wide64 = ty.bits() == 64;
        let hi = mods.contains(&"hi");
        let f: fn(u64, u64, u64, u64) -> (u64, u64) = match (base, wide64, hi) {
            ("add", false, _) => |a, b, _, ci| {
                let s = (a & 0xffff_ffff) + (b & 0xffff_ffff) + ci;
                (s & 0xffff_ffff, s >> 32)
            },
            ("add", true, _) => |a, b, _, ci| {
                let (s1, c1) = a.overflowing_add(b);
                let (s2, c2) = s1.overflowing_add(ci);
                (s2, (c1 | c2) as u64)
            },
            ("sub", false, _) => |a, b, _, ci| {
                let s = (a & 0xffff_ffff)
                    .wrapping_sub(b & 0xffff_ffff)
                    .wrapping_sub(ci);
                (s & 0xffff_ffff, (s >> 63) & 1)
            },
            ("sub", true, _) => |a, b, _, ci| {
                let (s1, c1) = a.overflowing_sub(b);
                let (s2, c2) = s1.overflowing_sub(ci);
                (s2, (c1 | c2) as u64)
            },
            ("mad", false, false) => |a, b, c, ci| {
                let p = ((a as u32).wrapping_mul(b as u32)) as u64;
                let s = p + (c & 0xffff_ffff) + ci;
                (s & 0xffff_ffff, s >> 32)
            },
            ("mad", false, true) => |a, b, c, ci| {
                let p = ((a & 0xffff_ffff) * (b & 0xffff_ffff)) >> 32;
                let s = p + (c & 0xffff_ffff) + ci;
                (s & 0xffff_ffff, s >> 32)
            },
            ("mad", true, false) => |a, b, c, ci| {
                let s = (a.wrapping_mul(b) as u128) + c as u128 + ci as u128;
                (s as u64, (s >> 64) as u64)
            },
            ("mad", true, true) => |a, b, c, ci| {
                let p = ((a as u128 * b as u128) >> 64) as u64;
                let s = p as u128 + c as u128 + ci as u128;
                (s as u64, (s >> 64) as u64)
            },
            _ => {
                return self.err(
                    span,
                    format!(
                        "unsupported instruction '{}.{}'",
                        i.opcode,
                        i.mods.join(".")
                    ),
                )
            }
        };
        self.need(args, 3)?;
        let d = self.dst(frame, &ops[0], span)?;
        let a = self.src(frame, &ops[1], ty, span)?;
        let b = self.src(frame, &ops[2], ty, span)?;
        let c = match ops.get(3) {
            Some(o) => self.src(frame, o, ty, span)?,
            None => Src::Imm(0),
        };
        let cc = match self.carry_reg {
            Some(r) => r,
            None => {
                let r = self.new_reg(span)?;
                self.carry_reg = Some(r);
                r
            }
        };
        Ok(Op::Carry {
            f,
            d,
            a,
            b,
            c,
            cin,
            cout,
            cc,
        })
    }

    /// Integer, floating-point, logic and shift instructions that are one lane function
    /// ([`alu::select`]) of up to four sources (PTX ISA "Integer Arithmetic", "Floating-Point",
    /// "Logic and Shift Instructions").
    pub(super) fn alu_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i, span, mods, ops, ..
        } = *args;
        let ty = self.need_ty(args)?;
        let f = alu::select(&i.opcode, mods, ty).or_else(|e| self.err(span, e))?;
        self.need(args, 2)?;
        let d = self.dst(frame, &ops[0], span)?;
        // Source types: shifts and bfe/bfi take .u32 amounts; prmt/popc/clz use the type.
        let sty = |k: usize| -> ScalarType {
            match (i.opcode.as_str(), k) {
                ("shl" | "shr", 2) | ("bfe", 2 | 3) | ("bfi", 3 | 4) | ("shf", 3) => {
                    ScalarType::U32
                }
                _ => ty,
            }
        };
        let mut s = [Src::Imm(0); 4];
        for (k, o) in ops.iter().enumerate().skip(1).take(4) {
            s[k - 1] = self.src(frame, o, sty(k), span)?;
        }
        Ok(Op::Alu {
            f,
            d,
            a: s[0],
            b: s[1],
            c: s[2],
            e: s[3],
            w: fsel::select_warp(&i.opcode, mods, ty),
        })
    }

    /// `testp` (PTX ISA "Floating-Point Instructions: testp").
    pub(super) fn testp_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 2)?;
        let ty = self.need_ty(args)?;
        let mode = mods.first().copied().unwrap_or("");
        let cmp = fsel::select_testp(mode, ty).or_else(|e| self.err(span, e))?;
        let d = match &ops[0] {
            Operand::Name(n) => self.pred_reg(frame, n, span)?,
            o => return self.err(span, format!("expected a predicate, found {}", describe(o))),
        };
        let a = self.src(frame, &ops[1], ty, span)?;
        Ok(Op::Setp {
            cmp,
            d,
            d2: None,
            a,
            b: Src::Imm(0),
            bop: None,
        })
    }

    /// `setp`, `set` (PTX ISA "Comparison and Selection Instructions").
    pub(super) fn setp_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i,
            span,
            mods,
            types,
            ops,
            ..
        } = *args;
        self.need(args, 3)?;
        let sty = self.need_ty(args)?;
        let cmpname = mods.first().copied().unwrap_or("");
        let cmp =
            alu::select_cmp(cmpname, sty, mods.contains(&"ftz")).or_else(|e| self.err(span, e))?;
        let bop = match mods.get(1).copied() {
            Some("and") => Some(BoolOp::And),
            Some("or") => Some(BoolOp::Or),
            Some("xor") => Some(BoolOp::Xor),
            _ => None,
        };
        let bop = match bop {
            Some(b) => {
                self.need(args, 4)?;
                Some((b, self.pred_src(frame, &ops[3], span)?))
            }
            None => None,
        };
        let a = self.src(frame, &ops[1], sty, span)?;
        let b = self.src(frame, &ops[2], sty, span)?;
        Ok(if i.opcode == "setp" {
            let (d, d2) = match &ops[0] {
                Operand::Name(n) => (self.pred_reg(frame, n, span)?, None),
                Operand::Pair(p, q) => (
                    self.pred_reg(frame, p, span)?,
                    Some(self.pred_reg(frame, q, span)?),
                ),
                o => return self.err(span, format!("expected a predicate, found {}", describe(o))),
            };
            Op::Setp {
                cmp,
                d,
                d2,
                a,
                b,
                bop,
            }
        } else {
            let dty = types.first().copied().unwrap_or(ScalarType::U32);
            let one = if dty == ScalarType::F32 {
                1.0f32.to_bits() as u64
            } else {
                0xffff_ffff
            };
            let d = self.dst(frame, &ops[0], span)?;
            Op::Set {
                cmp,
                d,
                a,
                b,
                bop,
                one,
            }
        })
    }

    /// `selp` (PTX ISA "Comparison and Selection Instructions: selp").
    pub(super) fn selp_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs { span, ops, .. } = *args;
        self.need(args, 4)?;
        let ty = self.need_ty(args)?;
        let d = self.dst(frame, &ops[0], span)?;
        let a = self.src(frame, &ops[1], ty, span)?;
        let b = self.src(frame, &ops[2], ty, span)?;
        let p = self.pred_src(frame, &ops[3], span)?;
        Ok(Op::Selp { d, a, b, p })
    }

    /// `slct` (PTX ISA "Comparison and Selection Instructions: slct").
    pub(super) fn slct_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span,
            mods,
            types,
            ops,
            ..
        } = *args;
        self.need(args, 4)?;
        let dty = types.first().copied().unwrap_or(ScalarType::U32);
        let cty = self.need_ty(args)?;
        let f: LaneFn = if cty == ScalarType::F32 {
            if mods.contains(&"ftz") {
                |a, b, c, _| {
                    if f32::from_bits(crate::exec::float::ftz_in(
                        c,
                        crate::exec::float::Fmt::F32,
                        true,
                    ) as u32)
                        >= 0.0
                    {
                        a
                    } else {
                        b
                    }
                }
            } else {
                |a, b, c, _| {
                    if f32::from_bits(c as u32) >= 0.0 {
                        a
                    } else {
                        b
                    }
                }
            }
        } else {
            |a, b, c, _| if (c as i32) >= 0 { a } else { b }
        };
        let d = self.dst(frame, &ops[0], span)?;
        Ok(Op::Alu {
            f,
            d,
            a: self.src(frame, &ops[1], dty, span)?,
            b: self.src(frame, &ops[2], dty, span)?,
            c: self.src(frame, &ops[3], cty, span)?,
            e: Src::Imm(0),
            w: None,
        })
    }
}
