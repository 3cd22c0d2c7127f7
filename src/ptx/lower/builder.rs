//! The kernel builder: the state one kernel's lowering carries (its registers, the frame of
//! each inlined body, the code with each instruction's source line, the shared and local
//! layout) and the walk over a body's statements.
//!
//! A kernel's static shared memory holds the `.shared` variables its call tree references, in
//! declaration order, then the function-scope ones as a depth-first walk meets them; it is
//! refused past ptxas's 48 KB ([`MAX_STATIC_SHARED`]). `.local` variables and call parameters
//! form a per-thread frame, refused past CUDA's 512 KB ([`MAX_LOCAL_BYTES`]); registers are
//! refused past the front end's own limits ([`MAX_REGS_PER_KERNEL`], [`MAX_PREDS_PER_KERNEL`]),
//! instructions past [`MAX_INSTS_PER_KERNEL`]. The source of each limit is at its constant.

use super::*;

#[derive(Clone, Copy, Debug)]
pub(super) enum RegKind {
    Gen(Reg, u8),
    Pred(PredReg),
}

#[derive(Default)]
pub(super) struct Frame {
    pub(super) regs: HashMap<String, RegKind>,
    pub(super) labels: HashMap<String, u32>,
    pub(super) fixups: Vec<(usize, String, Span)>,
    /// Parameter symbol to its address in `.param` space.
    pub(super) params: HashMap<String, u64>,
    pub(super) locals: HashMap<String, u64>,
    /// Instruction indices of `ret`s to patch to the end of an inlined body.
    pub(super) rets: Vec<usize>,
    pub(super) inlined: bool,
}

pub(super) struct KernelBuilder<'a> {
    pub(super) src: &'a str,
    /// Line starts of `src`.
    pub(super) lines: &'a LineIndex,
    pub(super) opts: &'a LowerOptions,
    pub(super) syms: &'a HashMap<String, ModSym>,
    pub(super) shared_order: &'a [String],
    pub(super) funcs: &'a HashMap<&'a str, &'a ast::Function>,
    pub(super) code: Vec<Inst>,
    pub(super) info: Vec<InstInfo>,
    pub(super) num_regs: u32,
    pub(super) num_preds: u32,
    pub(super) local_top: u64,
    pub(super) shared: HashMap<String, u64>,
    pub(super) shared_top: u64,
    pub(super) dyn_offset: u64,
    pub(super) loc: (u32, u32),
    /// The line each `.loc` seen so far is reported at (see [`KernelBuilder::source_loc`]).
    pub(super) loc_sites: HashMap<(u32, u32, u32), (u32, u32)>,
    /// The `.file` indices of CUDA's own headers (NVRTC's builtin header, the toolkit's
    /// `include/`).
    pub(super) system_files: HashSet<u32>,
    pub(super) call_stack: Vec<String>,
    pub(super) carry_reg: Option<Reg>,
    /// How each arithmetic instruction's result alignment follows from its sources (by pc).
    pub(super) align_rules: Vec<(usize, AlignRule)>,
}

impl<'a> KernelBuilder<'a> {
    pub(super) fn err<T>(&self, span: Span, msg: impl Into<String>) -> Result<T, PtxError> {
        Err(self.error(span, msg))
    }

    pub(super) fn error(&self, span: Span, msg: impl Into<String>) -> PtxError {
        PtxError::at_indexed(self.src, self.lines, span, msg)
    }

    /// The located error of an instruction gpumemsim does not run (`full`: opcode and
    /// modifiers), naming the feature when it is a known one.
    pub(super) fn unsupported(&self, span: Span, full: &str) -> PtxError {
        match unsupported_feature(full) {
            Some(feature) => self.error(
                span,
                format!("unsupported instruction '{full}': {feature} not supported yet"),
            ),
            None => self.error(span, format!("unsupported instruction '{full}'")),
        }
    }

    pub(super) fn kernel(
        &mut self,
        f: &'a ast::Function,
        m: &ast::Module,
    ) -> Result<Kernel, PtxError> {
        // Every function the kernel may call, each once, in the order first met (an explicit
        // worklist: call chains of any length cost no stack).
        let called = self.call_tree(f);
        // Shared layout: referenced module variables first, then function-scope ones as met.
        let mut refs: HashSet<&str> = HashSet::new();
        for g in &called {
            collect_refs(g, &mut refs);
        }
        for name in self.shared_order {
            if refs.contains(name.as_str()) {
                if let Some(ModSym::Shared { size, align }) = self.syms.get(name) {
                    self.place_shared(name, *size, *align, f)?;
                }
            }
        }
        // Function-scope `.shared` declarations (demoted variables) anywhere in the call tree,
        // in the order a depth-first walk meets them: a callee's at the first call to it.
        let mut visited: HashSet<&str> = HashSet::new();
        visited.insert(f.name.as_str());
        // (function, next statement, next operand of that statement)
        let mut stack: Vec<(&ast::Function, usize, usize)> = vec![(f, 0, 0)];
        while let Some(top) = stack.last_mut() {
            let (g, si, oi) = (top.0, top.1, top.2);
            let Some(st) = g.body.as_deref().unwrap_or(&[]).get(si) else {
                stack.pop();
                continue;
            };
            match st {
                Statement::Decl(d) if d.space == DeclSpace::Shared => {
                    top.1 += 1;
                    let size = decl_bytes(d, self.lines, self.src)?;
                    let align = d.align.unwrap_or(d.ty.size()).max(1) as u64;
                    let key = format!("{}::{}", g.name, d.name);
                    self.place_shared(&key, size, align, f)?;
                }
                Statement::Instr(i) if i.opcode == "call" && oi < i.operands.len() => {
                    top.2 += 1;
                    if let Operand::Name(n) = &i.operands[oi] {
                        if let Some(&h) = self.funcs.get(n.as_str()) {
                            if visited.insert(h.name.as_str()) {
                                stack.push((h, 0, 0));
                            }
                        }
                    }
                }
                _ => {
                    top.1 += 1;
                    top.2 = 0;
                }
            }
        }
        let mut dyn_align = 16u64;
        for name in &refs {
            if let Some(ModSym::ExternShared { align }) = self.syms.get(*name) {
                dyn_align = dyn_align.max(*align);
            }
        }
        // `shared_top` is at most 48 KB here and alignments are below 2^32: no overflow.
        self.dyn_offset = self.shared_top.div_ceil(dyn_align) * dyn_align;
        let dynamic_shared_offset = u32::try_from(self.dyn_offset).or_else(|_| {
            self.err(
                f.span,
                format!(
                    "dynamic shared memory of '{}' would start at byte {}, beyond the shared window",
                    f.name, self.dyn_offset
                ),
            )
        })?;

        let params = entry_params(f, self.lines, self.src)?;
        let mut frame = Frame::default();
        for p in &params {
            frame.params.insert(p.name.clone(), p.offset as u64);
        }
        let body = f.body.as_deref().unwrap_or(&[]);
        self.call_stack.push(f.name.clone());
        self.body(body, &mut frame)?;
        if self.opts.ptxas_passes {
            mark_unused_atomics(&mut self.code);
            mark_elected_reductions(&mut self.code);
            let rules = std::mem::take(&mut self.align_rules);
            fuse_shared_loads(&mut self.code, &rules, self.num_regs as usize);
        }
        // A kernel that falls off its end exits.
        self.push(Op::Exit, None, f.span)?;
        self.call_stack.pop();
        let reqntid = match f.directives.iter().find(|(d, _)| d == ".reqntid") {
            None => None,
            Some((_, v)) => {
                let mut dims = [1u32; 3];
                for (k, d) in dims.iter_mut().enumerate() {
                    let n = v.get(k).copied().unwrap_or(1);
                    *d = u32::try_from(n).or_else(|_| {
                        self.err(
                            f.span,
                            format!(".reqntid {n} of '{}' does not fit in 32 bits", f.name),
                        )
                    })?;
                }
                Some(dims)
            }
        };
        let reserved_smem = self
            .info
            .iter()
            .any(|i| i.text.contains("%reserved_smem_offset_"));
        Ok(Kernel {
            reserved_smem,
            name: f.name.clone(),
            code: std::mem::take(&mut self.code),
            info: std::mem::take(&mut self.info),
            num_regs: self.num_regs,
            num_preds: self.num_preds,
            param_bytes: params.last().map_or(0, |p| p.offset + p.size),
            params,
            static_shared: self.shared_top,
            dynamic_shared_offset,
            local_bytes: self.local_top,
            files: m.files.clone(),
            reqntid,
            sass: None,
        })
    }

    /// Places a shared variable of kernel `k`, refusing the kernel when its static shared memory
    /// passes ptxas's 48 KB.
    pub(super) fn place_shared(
        &mut self,
        key: &str,
        size: u64,
        align: u64,
        k: &ast::Function,
    ) -> Result<u64, PtxError> {
        if let Some(&a) = self.shared.get(key) {
            return Ok(a);
        }
        match place(self.shared_top, align, size) {
            Some((addr, end)) if end <= MAX_STATIC_SHARED => {
                self.shared_top = end;
                self.shared.insert(key.to_string(), addr);
                Ok(addr)
            }
            end => {
                let need = end.map_or("more than 2^64".into(), |(_, e)| format!("{e:#x}"));
                self.err(
                    k.span,
                    format!(
                        "Entry function '{}' uses too much shared data ({need} bytes, {MAX_STATIC_SHARED:#x} max)",
                        k.name
                    ),
                )
            }
        }
    }

    /// `f` and every function it calls, directly or not, each once, in the order first met.
    pub(super) fn call_tree(&self, f: &'a ast::Function) -> Vec<&'a ast::Function> {
        let mut seen: HashSet<&str> = HashSet::new();
        let mut out = Vec::new();
        let mut todo = vec![f];
        seen.insert(f.name.as_str());
        while let Some(g) = todo.pop() {
            out.push(g);
            let mut callees = Vec::new();
            for s in g.body.as_deref().unwrap_or(&[]) {
                if let Statement::Instr(i) = s {
                    if i.opcode == "call" {
                        for o in &i.operands {
                            if let Operand::Name(n) = o {
                                if let Some(&h) = self.funcs.get(n.as_str()) {
                                    if seen.insert(h.name.as_str()) {
                                        callees.push(h);
                                    }
                                }
                            }
                        }
                    }
                }
            }
            // Reversed so that the first callee is visited next (depth-first, source order).
            todo.extend(callees.into_iter().rev());
        }
        out
    }

    pub(super) fn push(
        &mut self,
        op: Op,
        guard: Option<PredSrc>,
        span: Span,
    ) -> Result<(), PtxError> {
        if self.code.len() >= MAX_INSTS_PER_KERNEL {
            let k = self.call_stack.first().map(String::as_str).unwrap_or("");
            return self.err(
                span,
                format!("kernel '{k}' has more than {MAX_INSTS_PER_KERNEL} instructions with its calls inlined, the front end's limit"),
            );
        }
        let (line, _) = self.lines.line_col(span.start);
        let text = self
            .src
            .get(span.start as usize..span.end as usize)
            .unwrap_or("")
            .split_whitespace()
            .collect::<Vec<_>>()
            .join(" ");
        self.code.push(Inst { op, guard });
        self.info.push(InstInfo {
            ptx_line: line,
            src_file: self.loc.0,
            src_line: self.loc.1,
            text,
        });
        Ok(())
    }

    /// Makes room for `n` more registers (predicates when `pred`), refusing the kernel when that
    /// would pass [`MAX_REGS_PER_KERNEL`] ([`MAX_PREDS_PER_KERNEL`]). Called before any is made.
    pub(super) fn reserve_regs(&self, pred: bool, n: u64, span: Span) -> Result<(), PtxError> {
        let (have, max, what) = if pred {
            (self.num_preds, MAX_PREDS_PER_KERNEL, "predicate")
        } else {
            (self.num_regs, MAX_REGS_PER_KERNEL, "general")
        };
        if (have as u64).saturating_add(n) > max {
            let f = self.call_stack.first().map(String::as_str).unwrap_or("");
            return self.err(
                span,
                format!(
                    "kernel '{f}' declares more than {max} {what} registers (calls inlined), the front end's limit"
                ),
            );
        }
        Ok(())
    }

    /// The source line an instruction after `.loc loc` is reported at. Code CUDA's headers
    /// inlined into the program (`tex2D`, the atomics and warp intrinsics of
    /// `sm_*_intrinsics.h`, ...) is reported at the user's call site, following the `inlined_at`
    /// chain, so that a finding names a line of the user's program (a reporting choice, not a
    /// hardware fact); inlined functions of the program's own files keep their own lines.
    pub(super) fn source_loc(
        &mut self,
        loc: (u32, u32, u32),
        inlined_at: Option<(u32, u32, u32)>,
    ) -> (u32, u32) {
        let own = (loc.0, loc.1);
        let site = match inlined_at {
            Some(at) if self.system_files.contains(&loc.0) => {
                self.loc_sites.get(&at).copied().unwrap_or((at.0, at.1))
            }
            _ => own,
        };
        self.loc_sites.insert(loc, site);
        site
    }

    pub(super) fn new_reg(&mut self, span: Span) -> Result<Reg, PtxError> {
        self.reserve_regs(false, 1, span)?;
        let r = self.num_regs as Reg;
        self.num_regs += 1;
        Ok(r)
    }

    pub(super) fn body(&mut self, body: &[Statement], frame: &mut Frame) -> Result<(), PtxError> {
        let func_name = self.call_stack.last().cloned().unwrap_or_default();
        for s in body {
            match s {
                Statement::Decl(d) => self.decl(d, frame, &func_name)?,
                Statement::Label(l, _) => {
                    frame.labels.insert(l.clone(), self.code.len() as u32);
                }
                Statement::Loc {
                    file,
                    line,
                    col,
                    inlined_at,
                } => {
                    if *line != 0 {
                        self.loc = self.source_loc((*file, *line, *col), *inlined_at);
                    }
                }
                Statement::Open | Statement::Close => {}
                Statement::Instr(i) => self.inst(i, frame)?,
                Statement::Bad(e) => return Err(e.clone()),
            }
        }
        for (pc, label, span) in std::mem::take(&mut frame.fixups) {
            let Some(&t) = frame.labels.get(&label) else {
                return self.err(span, format!("unknown label '{label}'"));
            };
            if let Op::Bra { target } = &mut self.code[pc].op {
                *target = t;
            }
        }
        Ok(())
    }

    pub(super) fn decl(
        &mut self,
        d: &ast::VarDecl,
        frame: &mut Frame,
        func: &str,
    ) -> Result<(), PtxError> {
        match d.space {
            DeclSpace::Reg => {
                let bytes = d.ty.size().min(8) as u8;
                if d.vector.is_some() {
                    return self.err(d.span, "vector registers are not supported");
                }
                let n = d.range.unwrap_or(1);
                let is_pred = d.ty == ScalarType::Pred;
                // All of them are checked against the limit before the first is made.
                self.reserve_regs(is_pred, n, d.span)?;
                let mut add = |name: String, kb: &mut Self| {
                    let k = if is_pred {
                        let p = kb.num_preds as PredReg;
                        kb.num_preds += 1;
                        RegKind::Pred(p)
                    } else {
                        let r = kb.num_regs as Reg;
                        kb.num_regs += 1;
                        RegKind::Gen(r, bytes)
                    };
                    frame.regs.insert(name, k);
                };
                match d.range {
                    Some(n) => {
                        for i in 0..n {
                            add(format!("{}{}", d.name, i), self);
                        }
                    }
                    None => add(d.name.clone(), self),
                }
            }
            DeclSpace::Local => {
                let addr = self.place_local(d, false)?;
                frame.locals.insert(d.name.clone(), addr);
            }
            DeclSpace::Param => {
                let addr = self.place_local(d, true)?;
                frame.params.insert(d.name.clone(), PARAM_FRAME_BIT | addr);
            }
            DeclSpace::Shared => {
                let key = format!("{func}::{}", d.name);
                let addr = self.shared.get(&key).copied().unwrap_or(0);
                frame.locals.remove(&d.name);
                self.shared.insert(d.name.clone(), addr);
            }
            DeclSpace::Global | DeclSpace::Const => {
                return self.err(
                    d.span,
                    "function-scope .global/.const variables are not supported",
                );
            }
        }
        Ok(())
    }

    /// Places a `.local` variable (or, `param`, a call's `.param` slot) in the per-thread frame,
    /// refusing a frame larger than [`MAX_LOCAL_BYTES`].
    pub(super) fn place_local(&mut self, d: &ast::VarDecl, param: bool) -> Result<u64, PtxError> {
        let size = decl_bytes(d, self.lines, self.src)?;
        let size = if param { size.max(1) } else { size };
        let align = d.align.unwrap_or(d.ty.size()).max(1) as u64;
        match place(self.local_top, align, size) {
            Some((addr, end)) if end <= MAX_LOCAL_BYTES => {
                self.local_top = end;
                Ok(addr)
            }
            end => {
                let need = end.map_or("more than 2^64".into(), |(_, e)| format!("{e:#x}"));
                let k = self.call_stack.first().map(String::as_str).unwrap_or("");
                self.err(
                    d.span,
                    format!(
                        "kernel '{k}' needs {need} bytes of local memory per thread with '{}', more than the {MAX_LOCAL_BYTES:#x} (512 KB) a thread may have",
                        d.name
                    ),
                )
            }
        }
    }
}

/// The names `f`'s instructions mention (operands, addresses), symbols among them.
pub(super) fn collect_refs<'f>(f: &'f ast::Function, refs: &mut HashSet<&'f str>) {
    let mut todo: Vec<&'f Operand> = Vec::new();
    for s in f.body.as_deref().unwrap_or(&[]) {
        if let Statement::Instr(i) = s {
            todo.extend(&i.operands);
        }
    }
    while let Some(op) = todo.pop() {
        match op {
            Operand::Name(n) | Operand::SymOffset(n, _) | Operand::Address(Some(n), _) => {
                refs.insert(n.as_str());
            }
            Operand::Vector(v) | Operand::List(v) | Operand::VectorPair(v, _) => todo.extend(v),
            _ => {}
        }
    }
}

/// The feature an instruction gpumemsim does not run belongs to, for the error message (the
/// README lists them under "Not modelled yet").
pub(super) fn unsupported_feature(full: &str) -> Option<&'static str> {
    const FEATURES: &[(&str, &str)] = &[
        (
            "cp.async.bulk.tensor",
            "Hopper's tensor-map bulk copies (TMA, cp.async.bulk.tensor) are",
        ),
        (
            "cp.reduce.async.bulk",
            "Hopper's asynchronous bulk reductions are",
        ),
        ("barrier.cluster", "thread-block clusters are"),
        ("mapa", "distributed shared memory (clusters) is"),
        ("getctarank", "distributed shared memory (clusters) is"),
        ("wgmma", "warpgroup tensor-core instructions (wgmma) are"),
        ("wmma", "tensor-core fragments (wmma) are"),
        ("mma", "tensor-core instructions (mma) are"),
        ("ldmatrix", "tensor-core fragment loads (ldmatrix) are"),
        ("stmatrix", "tensor-core fragment stores (stmatrix) are"),
        ("sured", "surface reductions are"),
        ("suq", "surface queries are"),
        ("elect", "elect.sync is"),
        ("griddepcontrol", "programmatic dependent launch is"),
        ("setmaxnreg", "register reallocation (setmaxnreg) is"),
        ("multimem", "multimem (NVLink multicast) is"),
    ];
    FEATURES
        .iter()
        .find(|(prefix, _)| {
            full.strip_prefix(prefix)
                .is_some_and(|rest| rest.is_empty() || rest.starts_with('.'))
        })
        .map(|(_, feature)| *feature)
}
