//! Control flow (PTX ISA "Control Flow Instructions"): branches, returns and calls. A `.func`
//! call is inlined: each call site gets its own registers, locals and parameter slots, calls
//! nest at most [`MAX_CALL_DEPTH`] deep and recursion is refused. A call of an extern function
//! without a body is one of the system calls of CUDA's device runtime (`vprintf` for `printf`,
//! `__assertfail` for `assert`), which become their own instructions.

use super::*;

impl KernelBuilder<'_> {
    /// `bra` (PTX ISA "Control Flow Instructions: bra"); its target is patched once the body's
    /// labels are known.
    pub(super) fn bra_op(&self, args: &InstArgs, frame: &mut Frame) -> Result<Op, PtxError> {
        let InstArgs { i, span, ops, .. } = *args;
        if i.opcode == "brx" {
            return self.err(span, "brx.idx is not supported");
        }
        self.need(args, 1)?;
        let label = match &ops[0] {
            Operand::Name(n) => n.clone(),
            o => return self.err(span, format!("expected a label, found {}", describe(o))),
        };
        frame.fixups.push((self.code.len(), label, span));
        Ok(Op::Bra { target: 0 })
    }

    /// `ret`: the kernel's exit, or in an inlined body a branch to its end (patched by
    /// [`KernelBuilder::call`]).
    pub(super) fn ret_op(&self, frame: &mut Frame) -> Result<Op, PtxError> {
        Ok(if frame.inlined {
            frame.rets.push(self.code.len());
            Op::Bra { target: 0 }
        } else {
            Op::Exit
        })
    }

    /// Inlines `call (rets), func, (args);`.
    pub(super) fn call(
        &mut self,
        i: &ast::Instruction,
        frame: &mut Frame,
        guard: Option<PredSrc>,
    ) -> Result<(), PtxError> {
        let span = i.span;
        if guard.is_some() {
            return self.err(span, "predicated calls are not supported");
        }
        // Operands: [ (rets) ,] name [, (args)] [, prototype]
        let mut it = i.operands.iter();
        let mut rets: Vec<&Operand> = Vec::new();
        let mut first = it.next();
        if let Some(Operand::List(r)) = first {
            rets = r.iter().collect();
            first = it.next();
        }
        let name = match first {
            Some(Operand::Name(n)) => n.clone(),
            _ => return self.err(span, "call needs a function name"),
        };
        let args: Vec<&Operand> = match it.next() {
            Some(Operand::List(a)) => a.iter().collect(),
            _ => Vec::new(),
        };
        let Some(&f) = self.funcs.get(name.as_str()) else {
            if frame.regs.contains_key(&name) {
                return self.err(span, "indirect calls are not supported");
            }
            return self.err(span, format!("call to unknown function '{name}'"));
        };
        let Some(body) = f.body.as_deref() else {
            return self.extern_call(&name, &rets, &args, frame, span);
        };
        if self.call_stack.contains(&name) {
            return self.err(span, format!("recursive call to '{name}' is not supported"));
        }
        if self.call_stack.len() > MAX_CALL_DEPTH {
            return self.err(
                span,
                format!("call to '{name}' nests calls more than {MAX_CALL_DEPTH} deep, the front end's limit on inlining"),
            );
        }
        let mut callee = Frame {
            inlined: true,
            ..Frame::default()
        };
        let bind = |decls: &[ast::VarDecl],
                    ops: &[&Operand],
                    callee: &mut Frame,
                    kb: &Self|
         -> Result<(), PtxError> {
            if decls.len() != ops.len() {
                return kb.err(
                    span,
                    format!(
                        "'{name}' takes {} values here, {} given",
                        decls.len(),
                        ops.len()
                    ),
                );
            }
            for (d, o) in decls.iter().zip(ops) {
                match o {
                    Operand::Name(n) => match frame.params.get(n) {
                        Some(&a) => {
                            callee.params.insert(d.name.clone(), a);
                        }
                        None => {
                            return kb.err(
                                span,
                                format!("call argument '{n}' must be a .param variable"),
                            )
                        }
                    },
                    _ => return kb.err(span, "call arguments must be .param variables"),
                }
            }
            Ok(())
        };
        bind(&f.returns, &rets, &mut callee, self)?;
        bind(&f.params, &args, &mut callee, self)?;
        self.call_stack.push(name);
        let saved_loc = self.loc;
        self.body(body, &mut callee)?;
        self.loc = saved_loc;
        self.call_stack.pop();
        let end = self.code.len() as u32;
        for pc in callee.rets {
            if let Op::Bra { target } = &mut self.code[pc].op {
                *target = end;
            }
        }
        Ok(())
    }

    /// A call of an extern function without a body: the system calls CUDA's device runtime
    /// provides (`vprintf` for `printf`, `__assertfail` for `assert`) become their own
    /// instructions; any other is refused.
    pub(super) fn extern_call(
        &mut self,
        name: &str,
        rets: &[&Operand],
        args: &[&Operand],
        frame: &Frame,
        span: Span,
    ) -> Result<(), PtxError> {
        let slot = |o: &Operand, kb: &Self| -> Result<u64, PtxError> {
            match o {
                Operand::Name(n) => match frame.params.get(n) {
                    Some(&a) => Ok(a),
                    None => kb.err(
                        span,
                        format!("call argument '{n}' must be a .param variable"),
                    ),
                },
                _ => kb.err(span, "call arguments must be .param variables"),
            }
        };
        let op = match (name, args.len()) {
            ("vprintf", 2) => Op::Vprintf {
                format: slot(args[0], self)?,
                args: slot(args[1], self)?,
                ret: match rets.first() {
                    Some(r) => Some(slot(r, self)?),
                    None => None,
                },
            },
            ("__assertfail", 5) => Op::AssertFail {
                args: [
                    slot(args[0], self)?,
                    slot(args[1], self)?,
                    slot(args[2], self)?,
                    slot(args[3], self)?,
                ],
            },
            ("malloc" | "free", _) => {
                return self.err(
                    span,
                    format!("device-side {name}() is not supported yet (the device heap is not modelled)"),
                )
            }
            _ => {
                return self.err(
                    span,
                    format!("call to '{name}', which has no body in this module (of the extern functions only vprintf and __assertfail are supported)"),
                )
            }
        };
        self.push(op, None, span)?;
        Ok(())
    }
}
