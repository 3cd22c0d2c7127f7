//! Operands and modifiers resolved at load time: registers, predicates and immediates (the
//! literal's bits converted to the instruction's type), special registers (PTX ISA "Special
//! Registers"; the reserved shared-memory offsets as the H200 reads them,
//! tests/hw/h200/sregs/sregs.txt), symbols and addresses, and the state space and cache
//! operator a memory instruction names (PTX ISA "State Spaces", "Cache Operators").

use super::*;

pub(super) fn sreg(name: &str) -> Option<Sreg> {
    let dim = |s: &str| match s {
        "x" => Some(0u8),
        "y" => Some(1),
        "z" => Some(2),
        _ => None,
    };
    if let Some((base, d)) = name.split_once('.') {
        let d = dim(d)?;
        return Some(match base {
            "%tid" => Sreg::Tid(d),
            "%ntid" => Sreg::Ntid(d),
            "%ctaid" => Sreg::Ctaid(d),
            "%nctaid" => Sreg::Nctaid(d),
            // A launch without a cluster dimension runs each block as a cluster of one
            // (PTX ISA §10 "%cluster_ctaid", "%clusterid"): the cluster grid is the grid.
            "%clusterid" => Sreg::Ctaid(d),
            "%nclusterid" => Sreg::Nctaid(d),
            "%cluster_ctaid" => Sreg::Zero,
            "%cluster_nctaid" => Sreg::One,
            _ => return None,
        });
    }
    Some(match name {
        "%laneid" => Sreg::LaneId,
        "%warpid" => Sreg::WarpId,
        "%nwarpid" => Sreg::NWarpId,
        "%smid" => Sreg::SmId,
        "%nsmid" => Sreg::NSmId,
        "%gridid" => Sreg::GridId,
        "%clock" => Sreg::Clock,
        "%clock64" => Sreg::Clock64,
        "%globaltimer" => Sreg::GlobalTimer,
        "%lanemask_eq" => Sreg::LanemaskEq,
        "%lanemask_le" => Sreg::LanemaskLe,
        "%lanemask_lt" => Sreg::LanemaskLt,
        "%lanemask_ge" => Sreg::LanemaskGe,
        "%lanemask_gt" => Sreg::LanemaskGt,
        "%dynamic_smem_size" => Sreg::DynamicSmemSize,
        "%total_smem_size" => Sreg::TotalSmemSize,
        "%aggr_smem_size" => Sreg::AggrSmemSize,
        "%globaltimer_lo" => Sreg::Clock,
        "%globaltimer_hi" => Sreg::Zero,
        "%cluster_ctarank" => Sreg::Zero,
        "%cluster_nctarank" => Sreg::One,
        "%is_explicit_cluster" => Sreg::Zero,
        // Offsets into the system's reserved kilobyte, as the H200 reads them
        // (tests/hw/h200/sregs/sregs.txt); see `Sreg::ReservedSmem`.
        "%reserved_smem_offset_begin" => Sreg::ReservedSmem(0),
        "%reserved_smem_offset_end" => Sreg::ReservedSmem(288),
        "%reserved_smem_offset_cap" => Sreg::ReservedSmem(1024),
        "%reserved_smem_offset_0" => Sreg::ReservedSmem(0),
        "%reserved_smem_offset_1" => Sreg::ReservedSmem(0),
        _ => return None,
    })
}

/// Converts literal bits to the bits of type `ty`.
pub(super) fn imm_bits(op: &Operand, ty: ScalarType) -> Option<u64> {
    let bits = ty.bits().min(64);
    let mask = alu::low_mask(bits);
    Some(match (op, ty) {
        (Operand::Int(v), ScalarType::F32) => (*v as f32).to_bits() as u64,
        (Operand::Int(v), ScalarType::F64) => (*v as f64).to_bits(),
        (Operand::Int(v), _) => (*v as u64) & mask,
        (Operand::F32(b), ScalarType::F64) => (f32::from_bits(*b) as f64).to_bits(),
        (Operand::F32(b), _) => *b as u64 & mask,
        (Operand::F64(b), ScalarType::F32) => (f64::from_bits(*b) as f32).to_bits() as u64,
        (Operand::F64(b), ScalarType::F64) => *b,
        (Operand::F64(b), _) => *b & mask,
        _ => return None,
    })
}

pub(super) fn cache_op(mods: &[&str]) -> CacheOp {
    for m in mods {
        return match *m {
            "ca" => CacheOp::Ca,
            "cg" => CacheOp::Cg,
            "cs" => CacheOp::Cs,
            "lu" => CacheOp::Lu,
            "cv" => CacheOp::Cv,
            "wb" => CacheOp::Wb,
            "wt" => CacheOp::Wt,
            "nc" => CacheOp::Nc,
            _ => continue,
        };
    }
    CacheOp::Default
}

pub(super) fn space_of(mods: &[&str]) -> SpaceSel {
    for m in mods {
        let base = m.split("::").next().unwrap_or(m);
        return match base {
            "global" => SpaceSel::Space(Space::Global),
            "shared" => SpaceSel::Space(Space::Shared),
            "local" => SpaceSel::Space(Space::Local),
            "const" => SpaceSel::Space(Space::Const),
            "param" => SpaceSel::Space(Space::Param),
            _ => continue,
        };
    }
    SpaceSel::Generic
}

impl KernelBuilder<'_> {
    /// The address of a symbol in its own space.
    pub(super) fn sym_addr(&self, frame: &Frame, name: &str) -> Option<(Space, u64)> {
        if let Some(&a) = frame.locals.get(name) {
            return Some((Space::Local, a));
        }
        if let Some(&a) = frame.params.get(name) {
            return Some((Space::Param, a));
        }
        if let Some(&a) = self.shared.get(name) {
            return Some((Space::Shared, a));
        }
        match self.syms.get(name)? {
            ModSym::Global(a) => Some((Space::Global, *a)),
            ModSym::Const(a) => Some((Space::Const, *a)),
            ModSym::ExternShared { .. } => Some((Space::Shared, self.dyn_offset)),
            ModSym::Shared { .. } => self.shared.get(name).map(|a| (Space::Shared, *a)),
        }
    }

    pub(super) fn gen_reg(
        &self,
        frame: &Frame,
        op: &Operand,
        span: Span,
    ) -> Result<(Reg, u8), PtxError> {
        match op {
            Operand::Name(n) => match frame.regs.get(n) {
                Some(RegKind::Gen(r, b)) => Ok((*r, *b)),
                Some(RegKind::Pred(_)) => self.err(
                    span,
                    format!("'{n}' is a predicate where a register is needed"),
                ),
                None => self.err(span, format!("unknown register '{n}'")),
            },
            _ => self.err(span, format!("expected a register, found {}", describe(op))),
        }
    }

    pub(super) fn dst(&self, frame: &Frame, op: &Operand, span: Span) -> Result<Reg, PtxError> {
        self.gen_reg(frame, op, span).map(|r| r.0)
    }

    pub(super) fn pred_reg(
        &self,
        frame: &Frame,
        name: &str,
        span: Span,
    ) -> Result<PredReg, PtxError> {
        match frame.regs.get(name) {
            Some(RegKind::Pred(p)) => Ok(*p),
            Some(_) => self.err(span, format!("'{name}' is not a predicate")),
            None => self.err(span, format!("unknown predicate '{name}'")),
        }
    }

    pub(super) fn pred_src(
        &self,
        frame: &Frame,
        op: &Operand,
        span: Span,
    ) -> Result<PredSrc, PtxError> {
        match op {
            Operand::Name(n) => Ok(PredSrc {
                reg: Some(self.pred_reg(frame, n, span)?),
                neg: false,
            }),
            Operand::Not(n) => Ok(PredSrc {
                reg: Some(self.pred_reg(frame, n, span)?),
                neg: true,
            }),
            Operand::Int(v) => Ok(PredSrc {
                reg: None,
                neg: *v == 0,
            }),
            _ => self.err(
                span,
                format!("expected a predicate, found {}", describe(op)),
            ),
        }
    }

    pub(super) fn src(
        &self,
        frame: &Frame,
        op: &Operand,
        ty: ScalarType,
        span: Span,
    ) -> Result<Src, PtxError> {
        if let Some(b) = imm_bits(op, ty) {
            return Ok(Src::Imm(b));
        }
        match op {
            Operand::Name(n) => {
                if let Some(k) = frame.regs.get(n) {
                    return Ok(match k {
                        RegKind::Gen(r, _) => Src::Reg(*r),
                        RegKind::Pred(p) => Src::Pred(*p),
                    });
                }
                if let Some(s) = sreg(n) {
                    return Ok(Src::Sreg(s));
                }
                // `WARP_SZ`, the predefined constant `warpSize` compiles to (PTX ISA §5.4
                // "Predefined Identifiers"): 32 threads on every architecture.
                if n == "WARP_SZ" {
                    return Ok(Src::Imm(32));
                }
                if let Some((_, a)) = self.sym_addr(frame, n) {
                    return Ok(Src::Imm(a));
                }
                if self.funcs.contains_key(n.as_str()) {
                    return self.err(
                        span,
                        format!("function addresses ('{n}') are not supported"),
                    );
                }
                self.err(span, format!("unknown register or symbol '{n}'"))
            }
            Operand::SymOffset(n, off) => match self.sym_addr(frame, n) {
                Some((_, a)) => Ok(Src::Imm(a.wrapping_add(*off as u64))),
                None => self.err(span, format!("unknown symbol '{n}'")),
            },
            _ => self.err(span, format!("unexpected operand {}", describe(op))),
        }
    }

    pub(super) fn addr(&self, frame: &Frame, op: &Operand, span: Span) -> Result<Addr, PtxError> {
        match op {
            Operand::Address(None, off) => Ok(Addr {
                base: None,
                offset: *off,
            }),
            Operand::Address(Some(n), off) => {
                if let Some(k) = frame.regs.get(n) {
                    return match k {
                        RegKind::Gen(r, _) => Ok(Addr {
                            base: Some(*r),
                            offset: *off,
                        }),
                        RegKind::Pred(_) => {
                            self.err(span, format!("predicate '{n}' used as an address"))
                        }
                    };
                }
                match self.sym_addr(frame, n) {
                    Some((_, a)) => Ok(Addr {
                        base: None,
                        offset: (a as i64).wrapping_add(*off),
                    }),
                    None => self.err(span, format!("unknown register or symbol '{n}' in address")),
                }
            }
            _ => self.err(
                span,
                format!("expected an address [..], found {}", describe(op)),
            ),
        }
    }
}

pub(super) fn bits_ty(ty: ScalarType) -> ScalarType {
    match ty.bits() {
        8 | 16 => ScalarType::B16,
        32 => ScalarType::B32,
        _ => ScalarType::B64,
    }
}

pub(super) fn describe(op: &Operand) -> String {
    match op {
        Operand::Name(n) => format!("'{n}'"),
        Operand::Not(n) => format!("'!{n}'"),
        Operand::Int(v) => format!("'{v}'"),
        Operand::F32(b) => format!("'0f{b:08X}'"),
        Operand::F64(b) => format!("'0d{b:016X}'"),
        Operand::SymOffset(n, o) => format!("'{n}+{o}'"),
        Operand::Address(..) => "an address".to_string(),
        Operand::Vector(_) => "a vector".to_string(),
        Operand::Pair(a, b) => format!("'{a}|{b}'"),
        Operand::VectorPair(_, p) => format!("a vector|'{p}'"),
        Operand::List(_) => "a list".to_string(),
        Operand::TexRef(_) => "a texture reference".to_string(),
    }
}
