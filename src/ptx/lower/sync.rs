//! Synchronization through memory (PTX ISA "Parallel Synchronization and Communication
//! Instructions"): atomics and reductions (`atom`, `red`), CTA barriers (`bar`, `barrier`,
//! `bar.red`, `bar.warp.sync`) and `mbarrier` objects. Their semantics run in [`crate::exec`];
//! whether an `atom` counts as a reduction, or is performed by one elected lane, is decided
//! later by the ptxas-imitation passes ([`reduction`](super::reduction)).

use super::*;

impl KernelBuilder<'_> {
    /// `atom`, `red` (PTX ISA "Parallel Synchronization and Communication Instructions: atom,
    /// red").
    pub(super) fn atom_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i, span, mods, ops, ..
        } = *args;
        let is_red = i.opcode == "red";
        let ty = self.need_ty(args)?;
        let space = space_of(mods);
        let opname = mods
            .iter()
            .find(|m| {
                matches!(
                    **m,
                    "add" | "min" | "max" | "inc" | "dec" | "cas" | "exch" | "and" | "or" | "xor"
                )
            })
            .copied()
            .unwrap_or("");
        let aop = match opname {
            "add" if ty.is_float() => AtomOp::FAdd,
            "add" => AtomOp::Add,
            "min" => AtomOp::Min,
            "max" => AtomOp::Max,
            "inc" => AtomOp::Inc,
            "dec" => AtomOp::Dec,
            "cas" => AtomOp::Cas,
            "exch" => AtomOp::Exch,
            "and" => AtomOp::And,
            "or" => AtomOp::Or,
            "xor" => AtomOp::Xor,
            _ => {
                return self.err(
                    span,
                    format!("unsupported atomic operation '{}'", i.mods.join(".")),
                )
            }
        };
        if mods.iter().any(|m| m.starts_with('v') && m.len() == 2) {
            return self.err(span, "vector atomics are not supported");
        }
        let (d, rest) = if is_red {
            (None, ops)
        } else {
            self.need(args, 3)?;
            (Some(self.dst(frame, &ops[0], span)?), &ops[1..])
        };
        if rest.len() < 2 {
            return self.err(span, "atomic needs an address and a value");
        }
        let addr = self.addr(frame, &rest[0], span)?;
        let b = self.src(frame, &rest[1], ty, span)?;
        let c = match rest.get(2) {
            Some(o) => self.src(frame, o, ty, span)?,
            None => Src::Imm(0),
        };
        if aop == AtomOp::Cas && rest.len() < 3 {
            return self.err(span, "atom.cas needs a compare and a swap value");
        }
        Ok(Op::Atom {
            space,
            op: aop,
            ty,
            d,
            addr,
            b,
            c,
            kind: if is_red {
                AccessKind::Reduction
            } else {
                AccessKind::Atomic
            },
            elected: false,
        })
    }

    /// `bar`, `barrier` (PTX ISA "Parallel Synchronization and Communication Instructions: bar,
    /// barrier"), `bar.warp.sync` and `bar.red` included.
    pub(super) fn bar_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        let m0 = mods.first().copied().unwrap_or("sync");
        Ok(if m0 == "warp" {
            self.need(args, 1)?;
            Op::WarpSync {
                mask: self.src(frame, &ops[0], ScalarType::B32, span)?,
            }
        } else if m0 == "red" {
            let opn = mods.get(1).copied().unwrap_or("");
            let op = match opn {
                "popc" => ReduxOp::Add,
                "and" => ReduxOp::And,
                "or" => ReduxOp::Or,
                _ => return self.err(span, format!("unsupported bar.red.{opn}")),
            };
            self.need(args, 3)?;
            let d = match (&ops[0], op) {
                (Operand::Name(n), ReduxOp::Add) => {
                    Src::Reg(self.dst(frame, &Operand::Name(n.clone()), span)?)
                }
                (Operand::Name(n), _) => Src::Pred(self.pred_reg(frame, n, span)?),
                (o, _) => return self.err(span, format!("unexpected {}", describe(o))),
            };
            let id = self.src(frame, &ops[1], ScalarType::U32, span)?;
            let p = self.pred_src(frame, ops.last().unwrap_or(&ops[2]), span)?;
            Op::BarRed { d, op, id, p }
        } else {
            let arrive = m0 == "arrive";
            let id = match ops.first() {
                Some(o) => self.src(frame, o, ScalarType::U32, span)?,
                None => Src::Imm(0),
            };
            let count = match ops.get(1) {
                Some(o) => Some(self.src(frame, o, ScalarType::U32, span)?),
                None => None,
            };
            Op::Bar { id, count, arrive }
        })
    }

    /// `mbarrier` (PTX ISA "Parallel Synchronization and Communication Instructions: mbarrier");
    /// run in [`crate::exec`] (`simt/mbarrier.rs`).
    pub(super) fn mbarrier_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            i, span, mods, ops, ..
        } = *args;
        let space = if mods.iter().any(|m| m.starts_with("shared")) {
            SpaceSel::Space(Space::Shared)
        } else {
            SpaceSel::Generic
        };
        let kind = mods.first().copied().unwrap_or("");
        let parity = mods.contains(&"parity");
        let (op, d, a, b) = match kind {
            "init" => {
                self.need(args, 2)?;
                (MbarOp::Init, Src::Imm(0), &ops[0], Some(&ops[1]))
            }
            "inval" => {
                self.need(args, 1)?;
                (MbarOp::Inval, Src::Imm(0), &ops[0], None)
            }
            "expect_tx" => {
                self.need(args, 2)?;
                (MbarOp::ExpectTx, Src::Imm(0), &ops[0], Some(&ops[1]))
            }
            "complete_tx" => {
                self.need(args, 2)?;
                (MbarOp::BulkCopy, Src::Imm(0), &ops[0], Some(&ops[1]))
            }
            "arrive" if mods.get(1) == Some(&"expect_tx") => {
                self.need(args, 3)?;
                let d = match &ops[0] {
                    Operand::Name(n) if n == "_" => Src::Imm(0),
                    o => Src::Reg(self.dst(frame, o, span)?),
                };
                (MbarOp::ArriveExpectTx, d, &ops[1], Some(&ops[2]))
            }
            "arrive"
                if !mods
                    .iter()
                    .any(|m| m.starts_with("expect_tx") || *m == "noComplete") =>
            {
                self.need(args, 2)?;
                let d = match &ops[0] {
                    Operand::Name(n) if n == "_" => Src::Imm(0),
                    o => Src::Reg(self.dst(frame, o, span)?),
                };
                (MbarOp::Arrive, d, &ops[1], ops.get(2))
            }
            "try_wait" | "test_wait" => {
                self.need(args, 3)?;
                let p = self.pred_reg(
                    frame,
                    match &ops[0] {
                        Operand::Name(n) => n,
                        _ => {
                            return self
                                .err(span, "mbarrier.try_wait needs a predicate destination")
                        }
                    },
                    span,
                )?;
                let op = if parity {
                    MbarOp::TryWaitParity
                } else {
                    MbarOp::TryWait
                };
                (op, Src::Pred(p), &ops[1], Some(&ops[2]))
            }
            _ => return Err(self.unsupported(span, &format!("mbarrier.{}", i.mods.join(".")))),
        };
        let b = match b {
            Some(o) => self.src(frame, o, ScalarType::U64, span)?,
            None => Src::Imm(1),
        };
        Ok(Op::Mbarrier {
            op,
            d,
            addr: self.addr(frame, a, span)?,
            space,
            b,
            copy: None,
        })
    }
}
