//! Warp-wide instructions (PTX ISA "Parallel Synchronization and Communication Instructions":
//! `activemask`, `vote`, `match.sync`, `redux.sync`; "Data Movement and Conversion
//! Instructions": `shfl.sync`), each one [`Op`] over the warp's active lanes.

use super::*;

impl KernelBuilder<'_> {
    /// `activemask` (PTX ISA "Parallel Synchronization and Communication Instructions:
    /// activemask").
    pub(super) fn activemask_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs { span, ops, .. } = *args;
        self.need(args, 1)?;
        Ok(Op::Activemask {
            d: self.dst(frame, &ops[0], span)?,
        })
    }

    /// `shfl.sync` (PTX ISA "Data Movement and Conversion Instructions: shfl.sync").
    pub(super) fn shfl_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 4)?;
        let mask = match ops.get(4) {
            Some(o) if mods.contains(&"sync") => Some(self.src(frame, o, ScalarType::B32, span)?),
            _ => None,
        };
        let mode = match mods
            .iter()
            .find(|m| matches!(**m, "up" | "down" | "bfly" | "idx"))
            .copied()
        {
            Some("up") => ShflMode::Up,
            Some("down") => ShflMode::Down,
            Some("bfly") => ShflMode::Bfly,
            Some("idx") => ShflMode::Idx,
            _ => return self.err(span, "shfl needs .up, .down, .bfly or .idx"),
        };
        let (d, p) = match &ops[0] {
            Operand::Pair(r, p) => (
                self.dst(frame, &Operand::Name(r.clone()), span)?,
                Some(self.pred_reg(frame, p, span)?),
            ),
            o => (self.dst(frame, o, span)?, None),
        };
        Ok(Op::Shfl {
            mode,
            d,
            p,
            a: self.src(frame, &ops[1], ScalarType::B32, span)?,
            b: self.src(frame, &ops[2], ScalarType::B32, span)?,
            c: self.src(frame, &ops[3], ScalarType::B32, span)?,
            mask,
        })
    }

    /// `vote` (PTX ISA "Parallel Synchronization and Communication Instructions: vote").
    pub(super) fn vote_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 2)?;
        let mode = match mods
            .iter()
            .find(|m| matches!(**m, "all" | "any" | "uni" | "ballot"))
            .copied()
        {
            Some("all") => VoteMode::All,
            Some("any") => VoteMode::Any,
            Some("uni") => VoteMode::Uni,
            Some("ballot") => VoteMode::Ballot,
            _ => return self.err(span, "vote needs .all, .any, .uni or .ballot"),
        };
        let d = if mode == VoteMode::Ballot {
            Src::Reg(self.dst(frame, &ops[0], span)?)
        } else {
            match &ops[0] {
                Operand::Name(n) => Src::Pred(self.pred_reg(frame, n, span)?),
                o => return self.err(span, format!("expected a predicate, found {}", describe(o))),
            }
        };
        let a = self.pred_src(frame, &ops[1], span)?;
        let mask = match ops.get(2) {
            Some(o) if mods.contains(&"sync") => Some(self.src(frame, o, ScalarType::B32, span)?),
            _ => None,
        };
        Ok(Op::Vote { mode, d, a, mask })
    }

    /// `match.sync` (PTX ISA "Parallel Synchronization and Communication Instructions:
    /// match.sync").
    pub(super) fn match_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 3)?;
        let all = mods.contains(&"all");
        let ty = self.need_ty(args)?;
        let (d, p) = match &ops[0] {
            Operand::Pair(r, p) => (
                self.dst(frame, &Operand::Name(r.clone()), span)?,
                Some(self.pred_reg(frame, p, span)?),
            ),
            o => (self.dst(frame, o, span)?, None),
        };
        Ok(Op::Match {
            all,
            d,
            p,
            a: self.src(frame, &ops[1], ty, span)?,
            wide: ty.bits() == 64,
            mask: self.src(frame, &ops[2], ScalarType::B32, span)?,
        })
    }

    /// `redux.sync` (PTX ISA "Parallel Synchronization and Communication Instructions:
    /// redux.sync").
    pub(super) fn redux_op(&self, args: &InstArgs, frame: &Frame) -> Result<Op, PtxError> {
        let InstArgs {
            span, mods, ops, ..
        } = *args;
        self.need(args, 3)?;
        let ty = self.need_ty(args)?;
        let op = match mods
            .iter()
            .find(|m| matches!(**m, "add" | "min" | "max" | "and" | "or" | "xor"))
            .copied()
        {
            Some("add") => ReduxOp::Add,
            Some("min") => ReduxOp::Min,
            Some("max") => ReduxOp::Max,
            Some("and") => ReduxOp::And,
            Some("or") => ReduxOp::Or,
            Some("xor") => ReduxOp::Xor,
            _ => return self.err(span, "unsupported redux.sync operation"),
        };
        Ok(Op::Redux {
            op,
            signed: ty.is_signed(),
            d: self.dst(frame, &ops[0], span)?,
            a: self.src(frame, &ops[1], ty, span)?,
            mask: self.src(frame, &ops[2], ScalarType::B32, span)?,
        })
    }
}
