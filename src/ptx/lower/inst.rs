//! The one dispatch from an instruction's opcode to the function that lowers it, each in the
//! file of its family (PTX ISA chapter 9.7, "Instructions"): [`arith`](super::arith) (integer,
//! floating-point, logic, comparison and selection), [`data`](super::data) (data movement and
//! conversion, `cp.async`), [`sync`](super::sync) (atomics, barriers, `mbarrier`),
//! [`warp`](super::warp) (shuffle, vote, match, redux), [`control`](super::control) (branches,
//! returns, inlined calls) and [`tex`](super::tex) (textures and surfaces). After each
//! instruction come its alignment rule for the shared-load fusion ([`fuse`](super::fuse)) and,
//! after a strong load or an `mbarrier` wait, an uncounted [`Op::Yield`].

use super::*;

/// What every family reads of one instruction, taken apart once: its span, guard, modifiers,
/// type suffixes (the last is the instruction's type) and operands.
#[derive(Clone, Copy)]
pub(super) struct InstArgs<'i> {
    pub(super) i: &'i ast::Instruction,
    pub(super) span: Span,
    pub(super) guard: Option<PredSrc>,
    pub(super) mods: &'i [&'i str],
    pub(super) types: &'i [ScalarType],
    pub(super) ty: Option<ScalarType>,
    pub(super) ops: &'i [Operand],
}

impl KernelBuilder<'_> {
    /// Refuses an instruction with fewer than `n` operands.
    pub(super) fn need(&self, args: &InstArgs, n: usize) -> Result<(), PtxError> {
        let InstArgs { i, span, ops, .. } = *args;
        if ops.len() < n {
            Err(self.error(
                span,
                format!("'{}' needs {n} operands, found {}", i.opcode, ops.len()),
            ))
        } else {
            Ok(())
        }
    }

    /// The instruction's type (its last type suffix), or a located error when it has none.
    pub(super) fn need_ty(&self, args: &InstArgs) -> Result<ScalarType, PtxError> {
        let InstArgs { i, span, ty, .. } = *args;
        ty.ok_or_else(|| {
            self.error(
                span,
                format!("'{}' needs a type suffix such as .u32", i.opcode),
            )
        })
    }

    /// Lowers one instruction: its guard and modifiers, then the function of its family, then
    /// the instruction pushed (after any it pushed itself) with its alignment rule.
    pub(super) fn inst(&mut self, i: &ast::Instruction, frame: &mut Frame) -> Result<(), PtxError> {
        let span = i.span;
        let guard = match &i.guard {
            None => None,
            Some((neg, p)) => Some(PredSrc {
                reg: Some(self.pred_reg(frame, p, span)?),
                neg: *neg,
            }),
        };
        let mods: Vec<&str> = i.mods.iter().map(|s| s.as_str()).collect();
        let types: Vec<ScalarType> = mods
            .iter()
            .filter_map(|m| ScalarType::from_suffix(m))
            .collect();
        let ty = types.last().copied();
        let ops = &i.operands;
        let args = InstArgs {
            i,
            span,
            guard,
            mods: &mods,
            types: &types,
            ty,
            ops,
        };
        let op = match i.opcode.as_str() {
            "ld" | "ldu" => self.ld_op(&args, frame)?,
            "st" => self.st_op(&args, frame)?,
            "atom" | "red" => self.atom_op(&args, frame)?,
            "mov" => match self.mov_op(&args, frame)? {
                Some(op) => op,
                None => return Ok(()),
            },
            "and" | "or" | "xor" | "not" if ty == Some(ScalarType::Pred) => {
                self.pred_logic_op(&args, frame)?
            }
            "add" | "sub" | "mad" | "addc" | "subc" | "madc"
                if mods.contains(&"cc") || i.opcode.ends_with('c') && i.opcode != "mad" =>
            {
                self.carry_op(&args, frame)?
            }
            "add" | "sub" | "mul" | "mad" | "mul24" | "mad24" | "div" | "rem" | "abs" | "neg"
            | "min" | "max" | "popc" | "clz" | "brev" | "and" | "or" | "xor" | "not" | "cnot"
            | "shl" | "shr" | "bfe" | "bfi" | "bfind" | "fns" | "prmt" | "shf" | "sad" | "fma"
            | "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" | "tanh" | "copysign" => {
                self.alu_op(&args, frame)?
            }
            "testp" => self.testp_op(&args, frame)?,
            "setp" | "set" => self.setp_op(&args, frame)?,
            "selp" => self.selp_op(&args, frame)?,
            "slct" => self.slct_op(&args, frame)?,
            "cvt" => self.cvt_op(&args, frame)?,
            "cvta" => self.cvta_op(&args, frame)?,
            "bra" | "brx" => self.bra_op(&args, frame)?,
            "ret" => self.ret_op(frame)?,
            "exit" => Op::Exit,
            "trap" => Op::Trap,
            "call" => return self.call(i, frame, guard),
            "bar" | "barrier" => self.bar_op(&args, frame)?,
            "membar" | "fence" | "nanosleep" | "prefetch" | "prefetchu" | "pmevent" | "discard"
            | "applypriority" => Op::Nop,
            "cp" if mods.first() == Some(&"async") => self.cp_async_op(&args, frame)?,
            "mbarrier" => self.mbarrier_op(&args, frame)?,
            "activemask" => self.activemask_op(&args, frame)?,
            "shfl" => self.shfl_op(&args, frame)?,
            "vote" => self.vote_op(&args, frame)?,
            "match" => self.match_op(&args, frame)?,
            "redux" => self.redux_op(&args, frame)?,
            "tex" | "tld4" | "txq" | "suld" | "sust" => self.tex_op(i, frame, &mods)?,
            other => {
                let full = if i.mods.is_empty() {
                    other.to_string()
                } else {
                    format!("{other}.{}", i.mods.join("."))
                };
                return Err(self.unsupported(span, &full));
            }
        };
        let rule = align_rule(&i.opcode, &mods, &op);
        self.align_rules.push((self.code.len(), rule));
        self.push(op, guard, span)?;
        // A strong load is what a spin-wait polls (cg::block_tile_memory's barrier spins on
        // `ld.acquire`): the warp lets the block's other warps run before it goes on.
        let wait = i.opcode == "mbarrier" && mods.iter().any(|m| m.ends_with("_wait"));
        if wait || (i.opcode == "ld" && mods.iter().any(|m| *m == "acquire" || *m == "relaxed")) {
            self.push(Op::Yield, None, span)?;
        }
        Ok(())
    }
}
