//! Lowering: the PTX syntax tree to decoded kernels ([`crate::ir`]).
//!
//! Done once per module load, so the executor never looks at a string: registers become
//! indices, symbols become addresses in their state space, labels become instruction indices,
//! arithmetic becomes a function pointer, and `.func` calls are inlined (each call site gets its
//! own registers, locals and parameter slots; recursion is reported as unsupported).
//! Every unsupported instruction is found here, at load time, with its line and column; the
//! kernel that holds it is set aside ([`Program::unloadable`]) and the error is reported when that
//! kernel is launched, so the module's other kernels still run.
//!
//! Memory layout decisions (PTX ISA 5.1 "State Spaces"):
//! - `.const` variables are packed in declaration order at their alignment into constant bank 0,
//!   addresses starting at 0.
//! - `.global` variables are packed from [`GLOBAL_VARS_BASE`].
//! - A kernel's static shared memory holds the `.shared` variables it (or a function it calls)
//!   references, in declaration order; `extern .shared` arrays start after them at their alignment.
//! - `.local` variables and call parameters form a per-thread frame starting at 0.
//!
//! Asynchronous copies (`cp.async`) become a global load at issue and a queued shared store
//! that lands at the `cp.async.wait_group`/`wait_all` that needs it, as late as the PTX ISA
//! allows; `mbarrier` and `cp.async.bulk` run in [`crate::exec`] (`simt/mbarrier.rs`). A
//! strong load (`ld.acquire`/`ld.relaxed`) or an `mbarrier.try_wait` is followed by the
//! uncounted [`Op::Yield`], so that a spin-wait lets the warp it waits for run.
//!
//! Sizes are 64-bit and checked before anything is allocated: against ptxas's 48 KB of static
//! shared memory per kernel (refused with ptxas's message), the 64 KB constant bank, CUDA's
//! 512 KB of local memory per thread and 32,764 bytes of kernel parameters, and the front end's
//! own limits
//! ([`MAX_REGS_PER_KERNEL`], [`MAX_PREDS_PER_KERNEL`], [`MAX_INSTS_PER_KERNEL`],
//! [`LowerOptions::max_global_var_bytes`]).
//!
//! Three passes imitate ptxas where the hardware counters show its work ([`LowerOptions::ptxas_passes`]):
//! an `atom` whose result is never read counts as a reduction; a global reduction at an address
//! proven warp-uniform is performed by one elected lane (`REDUX` + `REDG`); and runs of 4-byte
//! shared loads proven aligned become one vector load. None may change what a program computes:
//! the first two change only what a request counts, the third fuses only what its analysis proves.

use std::collections::{HashMap, HashSet};

mod tex;

use super::ast::{self, DeclSpace, InitValue, Operand, Statement};
use super::error::{LineIndex, PtxError, Span};
use crate::exec::{alu, fsel};
use crate::ir::types::ScalarType;
use crate::ir::*;
use crate::mem::request::{AccessKind, CacheOp, Space};
use crate::mem::space::{GLOBAL_VARS_BASE, PARAM_FRAME_BIT};

/// Maximum depth of inlined calls.
const MAX_CALL_DEPTH: usize = 32;

/// General registers a kernel may declare, calls inlined. Each costs 256 bytes per warp in the
/// executor (32 lanes of 64 bits).
pub const MAX_REGS_PER_KERNEL: u64 = 1 << 18;

/// Predicate registers a kernel may declare, calls inlined: all that a [`PredReg`] indexes
/// (kept at 16 bits so that a guard stays small in every decoded instruction).
pub const MAX_PREDS_PER_KERNEL: u64 = PredReg::MAX as u64 + 1;

/// Instructions a kernel may have after inlining (each inlined call copies its callee's body).
pub const MAX_INSTS_PER_KERNEL: usize = 1 << 20;

/// Static shared memory per kernel ptxas accepts: "Entry function 'k' uses too much shared data
/// (0x... bytes, 0xc000 max)".
pub const MAX_STATIC_SHARED: u64 = 0xc000;

/// Constant bank 0 a module may fill with `.const` variables (PTX ISA 5.1.3 "Constant State
/// Space": 64 KB).
pub const MAX_CONST_BYTES: u64 = 0x1_0000;

/// Local memory per thread (CUDA C++ Programming Guide, "Features and Technical Specifications":
/// 512 KB for every compute capability since 2.0).
pub const MAX_LOCAL_BYTES: u64 = 512 * 1024;

/// Kernel parameter space (CUDA 12.1 and later on Volta and newer: 32,764 bytes).
pub const MAX_PARAM_BYTES: u64 = 32_764;

/// Default for [`LowerOptions::max_global_var_bytes`].
pub const DEFAULT_MAX_GLOBAL_VAR_BYTES: u64 = 4 << 30;

/// How a module is lowered.
#[derive(Clone, Debug)]
pub struct LowerOptions {
    /// Run the passes that imitate ptxas (unused atomics as reductions, fused shared loads).
    /// They change counters, never outputs; turning them off is for checking exactly that.
    pub ptxas_passes: bool,
    /// Bytes the module-scope `.global` variables may take together. Their initial contents
    /// are built in host memory at load time, so a limit far below the GPU's memory applies.
    pub max_global_var_bytes: u64,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            ptxas_passes: true,
            max_global_var_bytes: DEFAULT_MAX_GLOBAL_VAR_BYTES,
        }
    }
}

#[derive(Clone, Debug)]
enum ModSym {
    Global(u64),
    Const(u64),
    Shared { size: u64, align: u64 },
    ExternShared { align: u64 },
}

/// Lowers a parsed module with the default [`LowerOptions`]. `src` is the PTX text, for error
/// positions.
pub fn lower(m: &ast::Module, src: &str) -> Result<Program, PtxError> {
    lower_with(m, src, &LowerOptions::default())
}

/// The size in bytes of a declaration, or a located error when it does not fit in 64 bits.
fn decl_bytes(v: &ast::VarDecl, lines: &LineIndex, src: &str) -> Result<u64, PtxError> {
    v.bytes().ok_or_else(|| {
        PtxError::at_indexed(
            src,
            lines,
            v.span,
            format!("the size of '{}' does not fit in 64 bits", v.name),
        )
    })
}

/// The parameter layout of entry `f`: each parameter at its alignment, in order (PTX ISA
/// "Kernel Function Parameters"), within the bytes a kernel may take.
fn entry_params(f: &ast::Function, lines: &LineIndex, src: &str) -> Result<Vec<Param>, PtxError> {
    let mut params = Vec::new();
    let mut off = 0u64;
    for p in &f.params {
        let size = decl_bytes(p, lines, src)?;
        let align = p.align.unwrap_or(p.ty.size()).max(1);
        let placed = place(off, align as u64, size).filter(|&(_, e)| e <= MAX_PARAM_BYTES);
        let Some((at, end)) = placed else {
            return Err(PtxError::at_indexed(
                src,
                lines,
                p.span,
                format!(
                    "kernel '{}' needs more than {MAX_PARAM_BYTES} bytes of parameters with '{}', more than a kernel may take",
                    f.name, p.name
                ),
            ));
        };
        // Both below MAX_PARAM_BYTES.
        params.push(Param {
            name: p.name.clone(),
            ty: p.ty,
            size: size as u32,
            offset: at as u32,
            align,
        });
        off = end;
    }
    Ok(params)
}

/// `top` rounded up to `align`, then `size` more: the address a variable gets and the new top;
/// `None` on overflow.
fn place(top: u64, align: u64, size: u64) -> Option<(u64, u64)> {
    let align = align.max(1);
    let addr = top.div_ceil(align).checked_mul(align)?;
    Some((addr, addr.checked_add(size)?))
}

/// Lowers a parsed module. `src` is the PTX text, for error positions.
pub fn lower_with(m: &ast::Module, src: &str, opts: &LowerOptions) -> Result<Program, PtxError> {
    let lines = LineIndex::new(src);
    let lines = &lines;
    let mut syms: HashMap<String, ModSym> = HashMap::new();
    let mut shared_order: Vec<String> = Vec::new();
    let mut vars = Vec::new();
    let mut const_top = 0u64;
    let mut global_top = GLOBAL_VARS_BASE;
    let global_limit = GLOBAL_VARS_BASE.saturating_add(opts.max_global_var_bytes);
    for v in &m.vars {
        let size = decl_bytes(v, lines, src)?;
        let align = v.align.unwrap_or(v.ty.size()).max(1) as u64;
        match v.space {
            DeclSpace::Const | DeclSpace::Global => {
                let is_const = v.space == DeclSpace::Const;
                let top = if is_const {
                    &mut const_top
                } else {
                    &mut global_top
                };
                let limit = if is_const {
                    MAX_CONST_BYTES
                } else {
                    global_limit
                };
                // Checked before the variable's bytes are allocated.
                let (addr, new_top) = match place(*top, align, size) {
                    Some((addr, end)) if end <= limit => (addr, end),
                    end => {
                        let message = if is_const {
                            let need =
                                end.map_or("more than 2^64".into(), |(_, e)| format!("{e:#x}"));
                            format!(
                                "the module uses too much constant data with '{}' ({need} bytes, {MAX_CONST_BYTES:#x} max: the 64 KB constant bank)",
                                v.name
                            )
                        } else {
                            let need = end.map_or("more than 2^64".into(), |(_, e)| {
                                (e - GLOBAL_VARS_BASE).to_string()
                            });
                            format!(
                                "module-scope .global variables up to '{}' take {need} bytes, more than the {}-byte limit of the front end on module variables (LowerOptions::max_global_var_bytes)",
                                v.name, opts.max_global_var_bytes
                            )
                        };
                        return Err(PtxError::at_indexed(src, lines, v.span, message));
                    }
                };
                *top = new_top;
                let init = init_bytes(v, size, src, lines, &syms)?;
                syms.insert(
                    v.name.clone(),
                    if is_const {
                        ModSym::Const(addr)
                    } else {
                        ModSym::Global(addr)
                    },
                );
                vars.push(ModuleVar {
                    name: v.name.clone(),
                    space: if is_const {
                        Space::Const
                    } else {
                        Space::Global
                    },
                    addr,
                    size,
                    init,
                });
            }
            DeclSpace::Shared => {
                if v.is_extern || v.dims.iter().any(|d| d.is_none()) {
                    syms.insert(v.name.clone(), ModSym::ExternShared { align });
                } else {
                    syms.insert(v.name.clone(), ModSym::Shared { size, align });
                    shared_order.push(v.name.clone());
                }
            }
            _ => {
                return Err(PtxError::at_indexed(
                    src,
                    lines,
                    v.span,
                    format!(
                        "a '.{:?}' variable cannot be declared at module scope",
                        v.space
                    )
                    .to_lowercase(),
                ))
            }
        }
    }
    let funcs: HashMap<&str, &ast::Function> = m
        .functions
        .iter()
        .filter(|f| !f.is_entry)
        .map(|f| (f.name.as_str(), f))
        .collect();
    let mut kernels = Vec::new();
    let mut unloadable = Vec::new();
    for f in m.functions.iter().filter(|f| f.is_entry) {
        if f.body.is_none() {
            continue;
        }
        let mut kb = KernelBuilder {
            src,
            lines,
            opts,
            syms: &syms,
            shared_order: &shared_order,
            funcs: &funcs,
            code: Vec::new(),
            info: Vec::new(),
            num_regs: 0,
            num_preds: 0,
            local_top: 0,
            shared: HashMap::new(),
            shared_top: 0,
            dyn_offset: 0,
            loc: (0, 0),
            loc_sites: HashMap::new(),
            system_files: m
                .files
                .iter()
                .filter(|(_, path)| is_system_header(path))
                .map(|(i, _)| *i)
                .collect(),
            call_stack: Vec::new(),
            carry_reg: None,
            align_rules: Vec::new(),
        };
        // A kernel that cannot be lowered (an instruction gpumemsim does not run, a limit) does
        // not take the module's other kernels with it: its error is kept and reported when it
        // is launched, before any block runs.
        match kb.kernel(f, m) {
            Ok(k) => kernels.push(k),
            Err(error) => unloadable.push(Unloadable {
                name: f.name.clone(),
                error,
                params: entry_params(f, lines, src).ok(),
            }),
        }
    }
    Ok(Program {
        kernels,
        unloadable,
        vars,
        const_bytes: const_top,
    })
}

fn init_bytes(
    v: &ast::VarDecl,
    size: u64,
    src: &str,
    lines: &LineIndex,
    syms: &HashMap<String, ModSym>,
) -> Result<Vec<u8>, PtxError> {
    let Ok(size) = usize::try_from(size) else {
        return Err(PtxError::at_indexed(
            src,
            lines,
            v.span,
            format!(
                "'{}' of {size} bytes does not fit in this host's memory",
                v.name
            ),
        ));
    };
    let mut out = vec![0u8; size];
    let es = v.ty.size() as usize;
    for (i, val) in v.init.iter().enumerate() {
        let bits = match val {
            InitValue::Bits(b) => *b,
            InitValue::Symbol(name, off) => match syms.get(name) {
                Some(ModSym::Global(a)) => a.wrapping_add(*off as u64),
                Some(ModSym::Const(a)) => {
                    crate::mem::space::to_generic(Space::Const, *a).wrapping_add(*off as u64)
                }
                _ => {
                    return Err(PtxError::at_indexed(
                        src,
                        lines,
                        v.span,
                        format!("initializer refers to unknown or unsupported symbol '{name}'"),
                    ))
                }
            },
        };
        let at = i * es;
        if at + es > out.len() {
            return Err(PtxError::at_indexed(
                src,
                lines,
                v.span,
                "too many initializer values",
            ));
        }
        out[at..at + es].copy_from_slice(&bits.to_le_bytes()[..es]);
    }
    Ok(out)
}

#[derive(Clone, Copy, Debug)]
enum RegKind {
    Gen(Reg, u8),
    Pred(PredReg),
}

#[derive(Default)]
struct Frame {
    regs: HashMap<String, RegKind>,
    labels: HashMap<String, u32>,
    fixups: Vec<(usize, String, Span)>,
    /// Parameter symbol to its address in `.param` space.
    params: HashMap<String, u64>,
    locals: HashMap<String, u64>,
    /// Instruction indices of `ret`s to patch to the end of an inlined body.
    rets: Vec<usize>,
    inlined: bool,
}

struct KernelBuilder<'a> {
    src: &'a str,
    /// Line starts of `src`.
    lines: &'a LineIndex,
    opts: &'a LowerOptions,
    syms: &'a HashMap<String, ModSym>,
    shared_order: &'a [String],
    funcs: &'a HashMap<&'a str, &'a ast::Function>,
    code: Vec<Inst>,
    info: Vec<InstInfo>,
    num_regs: u32,
    num_preds: u32,
    local_top: u64,
    shared: HashMap<String, u64>,
    shared_top: u64,
    dyn_offset: u64,
    loc: (u32, u32),
    /// The line each `.loc` seen so far is reported at (see [`KernelBuilder::source_loc`]).
    loc_sites: HashMap<(u32, u32, u32), (u32, u32)>,
    /// The `.file` indices of CUDA's own headers (NVRTC's builtin header, the toolkit's
    /// `include/`).
    system_files: HashSet<u32>,
    call_stack: Vec<String>,
    carry_reg: Option<Reg>,
    /// How each arithmetic instruction's result alignment follows from its sources (by pc).
    align_rules: Vec<(usize, AlignRule)>,
}

fn sreg(name: &str) -> Option<Sreg> {
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
fn imm_bits(op: &Operand, ty: ScalarType) -> Option<u64> {
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

fn cache_op(mods: &[&str]) -> CacheOp {
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

fn space_of(mods: &[&str]) -> SpaceSel {
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

impl<'a> KernelBuilder<'a> {
    fn err<T>(&self, span: Span, msg: impl Into<String>) -> Result<T, PtxError> {
        Err(self.error(span, msg))
    }

    fn error(&self, span: Span, msg: impl Into<String>) -> PtxError {
        PtxError::at_indexed(self.src, self.lines, span, msg)
    }

    /// The located error of an instruction gpumemsim does not run (`full`: opcode and
    /// modifiers), naming the feature when it is a known one.
    fn unsupported(&self, span: Span, full: &str) -> PtxError {
        match unsupported_feature(full) {
            Some(feature) => self.error(
                span,
                format!("unsupported instruction '{full}': {feature} not supported yet"),
            ),
            None => self.error(span, format!("unsupported instruction '{full}'")),
        }
    }

    fn kernel(&mut self, f: &'a ast::Function, m: &ast::Module) -> Result<Kernel, PtxError> {
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
    fn place_shared(
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
    fn call_tree(&self, f: &'a ast::Function) -> Vec<&'a ast::Function> {
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

    fn push(&mut self, op: Op, guard: Option<PredSrc>, span: Span) -> Result<(), PtxError> {
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
    fn reserve_regs(&self, pred: bool, n: u64, span: Span) -> Result<(), PtxError> {
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
    fn source_loc(
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

    fn new_reg(&mut self, span: Span) -> Result<Reg, PtxError> {
        self.reserve_regs(false, 1, span)?;
        let r = self.num_regs as Reg;
        self.num_regs += 1;
        Ok(r)
    }

    fn body(&mut self, body: &[Statement], frame: &mut Frame) -> Result<(), PtxError> {
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

    fn decl(&mut self, d: &ast::VarDecl, frame: &mut Frame, func: &str) -> Result<(), PtxError> {
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
    fn place_local(&mut self, d: &ast::VarDecl, param: bool) -> Result<u64, PtxError> {
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

    /// The address of a symbol in its own space.
    fn sym_addr(&self, frame: &Frame, name: &str) -> Option<(Space, u64)> {
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

    fn gen_reg(&self, frame: &Frame, op: &Operand, span: Span) -> Result<(Reg, u8), PtxError> {
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

    fn dst(&self, frame: &Frame, op: &Operand, span: Span) -> Result<Reg, PtxError> {
        self.gen_reg(frame, op, span).map(|r| r.0)
    }

    fn pred_reg(&self, frame: &Frame, name: &str, span: Span) -> Result<PredReg, PtxError> {
        match frame.regs.get(name) {
            Some(RegKind::Pred(p)) => Ok(*p),
            Some(_) => self.err(span, format!("'{name}' is not a predicate")),
            None => self.err(span, format!("unknown predicate '{name}'")),
        }
    }

    fn pred_src(&self, frame: &Frame, op: &Operand, span: Span) -> Result<PredSrc, PtxError> {
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

    fn src(
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

    fn addr(&self, frame: &Frame, op: &Operand, span: Span) -> Result<Addr, PtxError> {
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

    fn inst(&mut self, i: &ast::Instruction, frame: &mut Frame) -> Result<(), PtxError> {
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
        let need = |n: usize| -> Result<(), PtxError> {
            if ops.len() < n {
                Err(self.error(
                    span,
                    format!("'{}' needs {n} operands, found {}", i.opcode, ops.len()),
                ))
            } else {
                Ok(())
            }
        };
        let need_ty = || -> Result<ScalarType, PtxError> {
            ty.ok_or_else(|| {
                self.error(
                    span,
                    format!("'{}' needs a type suffix such as .u32", i.opcode),
                )
            })
        };
        let op = match i.opcode.as_str() {
            "ld" | "ldu" => {
                need(2)?;
                let ty = need_ty()?;
                let space = space_of(&mods);
                let mut cache = cache_op(&mods);
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
                Op::Ld {
                    space,
                    ty,
                    d,
                    dst_bytes,
                    addr,
                    cache,
                }
            }
            "st" => {
                need(2)?;
                let ty = need_ty()?;
                let space = space_of(&mods);
                let s: Vec<Src> = match &ops[1] {
                    Operand::Vector(v) => v
                        .iter()
                        .map(|o| self.src(frame, o, ty, span))
                        .collect::<Result<_, _>>()?,
                    o => vec![self.src(frame, o, ty, span)?],
                };
                let addr = self.addr(frame, &ops[0], span)?;
                Op::St {
                    space,
                    ty,
                    s,
                    addr,
                    cache: cache_op(&mods),
                }
            }
            "atom" | "red" => {
                let is_red = i.opcode == "red";
                let ty = need_ty()?;
                let space = space_of(&mods);
                let opname = mods
                    .iter()
                    .find(|m| {
                        matches!(
                            **m,
                            "add"
                                | "min"
                                | "max"
                                | "inc"
                                | "dec"
                                | "cas"
                                | "exch"
                                | "and"
                                | "or"
                                | "xor"
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
                    (None, &ops[..])
                } else {
                    need(3)?;
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
                Op::Atom {
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
                }
            }
            "mov" => {
                need(2)?;
                let ty = need_ty()?;
                if ty == ScalarType::Pred {
                    let d = match &ops[0] {
                        Operand::Name(n) => self.pred_reg(frame, n, span)?,
                        o => {
                            return self
                                .err(span, format!("expected a predicate, found {}", describe(o)))
                        }
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
                    return Ok(());
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
                }
            }
            "and" | "or" | "xor" | "not" if ty == Some(ScalarType::Pred) => {
                need(2)?;
                let d = match &ops[0] {
                    Operand::Name(n) => self.pred_reg(frame, n, span)?,
                    o => {
                        return self
                            .err(span, format!("expected a predicate, found {}", describe(o)))
                    }
                };
                let a = self.pred_src(frame, &ops[1], span)?;
                let (op, b) = match i.opcode.as_str() {
                    "not" => (PredLogic::Mov, PredSrc::TRUE),
                    o => {
                        need(3)?;
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
                Op::PredOp { op, d, a, b }
            }
            "add" | "sub" | "mad" | "addc" | "subc" | "madc"
                if mods.contains(&"cc") || i.opcode.ends_with('c') && i.opcode != "mad" =>
            {
                let ty = need_ty()?;
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
                need(3)?;
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
                Op::Carry {
                    f,
                    d,
                    a,
                    b,
                    c,
                    cin,
                    cout,
                    cc,
                }
            }
            "add" | "sub" | "mul" | "mad" | "mul24" | "mad24" | "div" | "rem" | "abs" | "neg"
            | "min" | "max" | "popc" | "clz" | "brev" | "and" | "or" | "xor" | "not" | "cnot"
            | "shl" | "shr" | "bfe" | "bfi" | "bfind" | "fns" | "prmt" | "shf" | "sad" | "fma"
            | "rcp" | "sqrt" | "rsqrt" | "sin" | "cos" | "lg2" | "ex2" | "tanh" | "copysign" => {
                let ty = need_ty()?;
                let f = alu::select(&i.opcode, &mods, ty).or_else(|e| self.err(span, e))?;
                need(2)?;
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
                Op::Alu {
                    f,
                    d,
                    a: s[0],
                    b: s[1],
                    c: s[2],
                    e: s[3],
                    w: fsel::select_warp(&i.opcode, &mods, ty),
                }
            }
            "testp" => {
                need(2)?;
                let ty = need_ty()?;
                let mode = mods.first().copied().unwrap_or("");
                let cmp = fsel::select_testp(mode, ty).or_else(|e| self.err(span, e))?;
                let d = match &ops[0] {
                    Operand::Name(n) => self.pred_reg(frame, n, span)?,
                    o => {
                        return self
                            .err(span, format!("expected a predicate, found {}", describe(o)))
                    }
                };
                let a = self.src(frame, &ops[1], ty, span)?;
                Op::Setp {
                    cmp,
                    d,
                    d2: None,
                    a,
                    b: Src::Imm(0),
                    bop: None,
                }
            }
            "setp" | "set" => {
                need(3)?;
                let sty = need_ty()?;
                let cmpname = mods.first().copied().unwrap_or("");
                let cmp = alu::select_cmp(cmpname, sty, mods.contains(&"ftz"))
                    .or_else(|e| self.err(span, e))?;
                let bop = match mods.get(1).copied() {
                    Some("and") => Some(BoolOp::And),
                    Some("or") => Some(BoolOp::Or),
                    Some("xor") => Some(BoolOp::Xor),
                    _ => None,
                };
                let bop = match bop {
                    Some(b) => {
                        need(4)?;
                        Some((b, self.pred_src(frame, &ops[3], span)?))
                    }
                    None => None,
                };
                let a = self.src(frame, &ops[1], sty, span)?;
                let b = self.src(frame, &ops[2], sty, span)?;
                if i.opcode == "setp" {
                    let (d, d2) = match &ops[0] {
                        Operand::Name(n) => (self.pred_reg(frame, n, span)?, None),
                        Operand::Pair(p, q) => (
                            self.pred_reg(frame, p, span)?,
                            Some(self.pred_reg(frame, q, span)?),
                        ),
                        o => {
                            return self
                                .err(span, format!("expected a predicate, found {}", describe(o)))
                        }
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
                }
            }
            "selp" => {
                need(4)?;
                let ty = need_ty()?;
                let d = self.dst(frame, &ops[0], span)?;
                let a = self.src(frame, &ops[1], ty, span)?;
                let b = self.src(frame, &ops[2], ty, span)?;
                let p = self.pred_src(frame, &ops[3], span)?;
                Op::Selp { d, a, b, p }
            }
            "slct" => {
                need(4)?;
                let dty = types.first().copied().unwrap_or(ScalarType::U32);
                let cty = need_ty()?;
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
                Op::Alu {
                    f,
                    d,
                    a: self.src(frame, &ops[1], dty, span)?,
                    b: self.src(frame, &ops[2], dty, span)?,
                    c: self.src(frame, &ops[3], cty, span)?,
                    e: Src::Imm(0),
                    w: None,
                }
            }
            "cvt" => {
                need(2)?;
                if types.len() < 2 {
                    return self.err(span, "cvt needs a destination and a source type");
                }
                let (dst, srct) = (types[0], types[1]);
                let rnd = alu::rounding(&mods);
                let int_rnd = mods
                    .iter()
                    .any(|m| matches!(*m, "rni" | "rzi" | "rmi" | "rpi"));
                let d = self.dst(frame, &ops[0], span)?;
                if matches!(dst, ScalarType::F16x2 | ScalarType::BF16x2) {
                    need(3)?;
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
                }
            }
            "cvta" => {
                need(2)?;
                let to = mods.first() == Some(&"to");
                let space = match space_of(&mods) {
                    SpaceSel::Space(s) => s,
                    SpaceSel::Generic => return self.err(span, "cvta needs a state space"),
                };
                let d = self.dst(frame, &ops[0], span)?;
                let a = self.src(frame, &ops[1], ScalarType::U64, span)?;
                Op::Cvta {
                    d,
                    a,
                    space,
                    to_generic: !to,
                }
            }
            "bra" | "brx" => {
                if i.opcode == "brx" {
                    return self.err(span, "brx.idx is not supported");
                }
                need(1)?;
                let label = match &ops[0] {
                    Operand::Name(n) => n.clone(),
                    o => return self.err(span, format!("expected a label, found {}", describe(o))),
                };
                frame.fixups.push((self.code.len(), label, span));
                Op::Bra { target: 0 }
            }
            "ret" => {
                if frame.inlined {
                    frame.rets.push(self.code.len());
                    Op::Bra { target: 0 }
                } else {
                    Op::Exit
                }
            }
            "exit" => Op::Exit,
            "trap" => Op::Trap,
            "call" => return self.call(i, frame, guard),
            "bar" | "barrier" => {
                let m0 = mods.first().copied().unwrap_or("sync");
                if m0 == "warp" {
                    need(1)?;
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
                    need(3)?;
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
                }
            }
            "membar" | "fence" | "nanosleep" | "prefetch" | "prefetchu" | "pmevent" | "discard"
            | "applypriority" => Op::Nop,
            // Asynchronous copies complete when they are issued (PTX ISA "Data Movement and
            // Conversion Instructions: cp.async"): a correct program waits for them before it
            // reads the data, so what it computes cannot tell. `commit_group`, `wait_group`
            // and `wait_all` then have nothing to wait for.
            "cp" if mods.first() == Some(&"async") => {
                let rest = &mods[1..];
                if rest == ["commit_group"] {
                    Op::CpAsyncCommit
                } else if rest == ["wait_all"] {
                    Op::CpAsyncWait { n: 0, all: true }
                } else if rest == ["wait_group"] {
                    need(1)?;
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
                    need(1)?;
                    // The thread's copies land first.
                    self.align_rules.push((self.code.len(), AlignRule::Unknown));
                    self.push(Op::CpAsyncWait { n: 0, all: true }, guard, span)?;
                    if rest.contains(&"noinc") {
                        Op::Mbarrier {
                            op: MbarOp::Arrive,
                            d: Src::Imm(0),
                            addr: self.addr(frame, &ops[0], span)?,
                            space: space_of(&mods),
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
                    need(4)?;
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
                    need(3)?;
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
                }
            }
            "mbarrier" => {
                let space = if mods.iter().any(|m| m.starts_with("shared")) {
                    SpaceSel::Space(Space::Shared)
                } else {
                    SpaceSel::Generic
                };
                let kind = mods.first().copied().unwrap_or("");
                let parity = mods.contains(&"parity");
                let (op, d, a, b) = match kind {
                    "init" => {
                        need(2)?;
                        (MbarOp::Init, Src::Imm(0), &ops[0], Some(&ops[1]))
                    }
                    "inval" => {
                        need(1)?;
                        (MbarOp::Inval, Src::Imm(0), &ops[0], None)
                    }
                    "expect_tx" => {
                        need(2)?;
                        (MbarOp::ExpectTx, Src::Imm(0), &ops[0], Some(&ops[1]))
                    }
                    "complete_tx" => {
                        need(2)?;
                        (MbarOp::BulkCopy, Src::Imm(0), &ops[0], Some(&ops[1]))
                    }
                    "arrive" if mods.get(1) == Some(&"expect_tx") => {
                        need(3)?;
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
                        need(2)?;
                        let d = match &ops[0] {
                            Operand::Name(n) if n == "_" => Src::Imm(0),
                            o => Src::Reg(self.dst(frame, o, span)?),
                        };
                        (MbarOp::Arrive, d, &ops[1], ops.get(2))
                    }
                    "try_wait" | "test_wait" => {
                        need(3)?;
                        let p = self.pred_reg(
                            frame,
                            match &ops[0] {
                                Operand::Name(n) => n,
                                _ => {
                                    return self.err(
                                        span,
                                        "mbarrier.try_wait needs a predicate destination",
                                    )
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
                    _ => {
                        return Err(
                            self.unsupported(span, &format!("mbarrier.{}", i.mods.join(".")))
                        )
                    }
                };
                let b = match b {
                    Some(o) => self.src(frame, o, ScalarType::U64, span)?,
                    None => Src::Imm(1),
                };
                Op::Mbarrier {
                    op,
                    d,
                    addr: self.addr(frame, a, span)?,
                    space,
                    b,
                    copy: None,
                }
            }
            "activemask" => {
                need(1)?;
                Op::Activemask {
                    d: self.dst(frame, &ops[0], span)?,
                }
            }
            "shfl" => {
                need(4)?;
                let mask = match ops.get(4) {
                    Some(o) if mods.contains(&"sync") => {
                        Some(self.src(frame, o, ScalarType::B32, span)?)
                    }
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
                Op::Shfl {
                    mode,
                    d,
                    p,
                    a: self.src(frame, &ops[1], ScalarType::B32, span)?,
                    b: self.src(frame, &ops[2], ScalarType::B32, span)?,
                    c: self.src(frame, &ops[3], ScalarType::B32, span)?,
                    mask,
                }
            }
            "vote" => {
                need(2)?;
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
                        o => {
                            return self
                                .err(span, format!("expected a predicate, found {}", describe(o)))
                        }
                    }
                };
                let a = self.pred_src(frame, &ops[1], span)?;
                let mask = match ops.get(2) {
                    Some(o) if mods.contains(&"sync") => {
                        Some(self.src(frame, o, ScalarType::B32, span)?)
                    }
                    _ => None,
                };
                Op::Vote { mode, d, a, mask }
            }
            "match" => {
                need(3)?;
                let all = mods.contains(&"all");
                let ty = need_ty()?;
                let (d, p) = match &ops[0] {
                    Operand::Pair(r, p) => (
                        self.dst(frame, &Operand::Name(r.clone()), span)?,
                        Some(self.pred_reg(frame, p, span)?),
                    ),
                    o => (self.dst(frame, o, span)?, None),
                };
                Op::Match {
                    all,
                    d,
                    p,
                    a: self.src(frame, &ops[1], ty, span)?,
                    wide: ty.bits() == 64,
                    mask: self.src(frame, &ops[2], ScalarType::B32, span)?,
                }
            }
            "redux" => {
                need(3)?;
                let ty = need_ty()?;
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
                Op::Redux {
                    op,
                    signed: ty.is_signed(),
                    d: self.dst(frame, &ops[0], span)?,
                    a: self.src(frame, &ops[1], ty, span)?,
                    mask: self.src(frame, &ops[2], ScalarType::B32, span)?,
                }
            }
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

    /// Inlines `call (rets), func, (args);`.
    fn call(
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
}

impl KernelBuilder<'_> {
    /// A call of an extern function without a body: the system calls CUDA's device runtime
    /// provides (`vprintf` for `printf`, `__assertfail` for `assert`) become their own
    /// instructions; any other is refused.
    fn extern_call(
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

/// The names `f`'s instructions mention (operands, addresses), symbols among them.
fn collect_refs<'f>(f: &'f ast::Function, refs: &mut HashSet<&'f str>) {
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
fn unsupported_feature(full: &str) -> Option<&'static str> {
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

fn bits_ty(ty: ScalarType) -> ScalarType {
    match ty.bits() {
        8 | 16 => ScalarType::B16,
        32 => ScalarType::B32,
        _ => ScalarType::B64,
    }
}

fn describe(op: &Operand) -> String {
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

/// ptxas turns an `atom` whose result no instruction reads into a `RED` (SASS `RED.E.ADD`), and
/// Nsight Compute counts it as a reduction (tests/hw/h200/hw/ncu/histogram.csv: the global
/// `atomicAdd` without a used result shows under `op_red`). Mark those atomics as reductions so
/// the requests they make carry the same kind.
///
/// This changes what is counted, never what is computed: the atomic still reads, modifies and
/// writes memory and still writes its destination, and the executor uses `kind` only to label
/// the request it reports. The read set is every register any instruction reads
/// ([`regs_of`]), on any path, guarded or not, so a destination read anywhere keeps its atomic.
fn mark_unused_atomics(code: &mut [Inst]) {
    let read: HashSet<Reg> = code.iter().flat_map(|i| regs_of(&i.op).0).collect();
    for i in code.iter_mut() {
        if let Op::Atom { d, kind, .. } = &mut i.op {
            if d.is_none_or(|r| !read.contains(&r)) {
                *kind = AccessKind::Reduction;
            }
        }
    }
}

/// ptxas turns a global reduction (an `atom` whose result is unused, or a `red`) whose address
/// it proves the same for every lane of the warp, and whose operation `REDUX` can compute (32-bit
/// integer add, min, max, and, or, xor; `inc` with the limit 0xffffffff is an add of 1), into a
/// warp-wide `REDUX` and one `REDG` predicated on a single lane: one sector instead of 32
/// (tests/hw/h200/hw/logs/k_isa.sass, `isa_atom`: `REDUX.SUM` ... `@P0 REDG.E.ADD`; Nsight
/// Compute counts 16 warps x 10 such reductions as 160 sectors, tests/hw/h200/hw/ncu/k_isa.csv).
/// The proof here is a conservative warp-uniformity analysis: a register is uniform when its one
/// definition is unpredicated and computes from immediates, uniform special registers
/// (`%ctaid`, `%nctaid`, `%ntid`, ...), kernel parameters or constant memory at uniform addresses,
/// and other uniform registers. Counting only: the reduction's effect is the same.
///
/// An integer `atom.add` whose result is used, at a uniform address, is aggregated the same way:
/// ptxas computes the lanes' prefix sums with `SHFL.UP` and one elected lane performs the
/// `ATOMG.E.ADD`, each lane's result being the old value plus its prefix (measured:
/// tests/hw/h200/cache2/logs/k_cache.sass, `atom_same`; Nsight Compute counts 8,192 sectors for
/// 8,192 such warp instructions, tests/hw/h200/cache2/ncu/k_cache.csv launch 26). The executor
/// performs the lanes' additions in lane order, which gives those same results.
fn mark_elected_reductions(code: &mut [Inst]) {
    use crate::ir::types::ScalarType as T;
    let uniform = uniform_registers(code);
    for i in code.iter_mut() {
        if i.guard.is_some() {
            continue;
        }
        if let Op::Atom {
            space,
            op,
            ty,
            addr,
            b,
            kind,
            elected,
            ..
        } = &mut i.op
        {
            let global = matches!(space, SpaceSel::Space(Space::Global));
            let word = matches!(ty, T::U32 | T::S32 | T::B32);
            let redux_op = match op {
                AtomOp::Add
                | AtomOp::Min
                | AtomOp::Max
                | AtomOp::And
                | AtomOp::Or
                | AtomOp::Xor => true,
                AtomOp::Inc => *b == Src::Imm(0xffff_ffff),
                _ => false,
            };
            let addr_uniform = addr.base.is_none_or(|r| uniform.contains(&r));
            let aggregated = *kind == AccessKind::Reduction
                || (*kind == AccessKind::Atomic && *op == AtomOp::Add);
            if global && word && redux_op && addr_uniform && aggregated {
                *elected = true;
            }
        }
    }
}

/// Special registers that hold one value for the whole warp.
fn uniform_sreg(sr: Sreg) -> bool {
    matches!(
        sr,
        Sreg::Ntid(_)
            | Sreg::Ctaid(_)
            | Sreg::Nctaid(_)
            | Sreg::NSmId
            | Sreg::GridId
            | Sreg::NWarpId
            | Sreg::DynamicSmemSize
            | Sreg::TotalSmemSize
            | Sreg::AggrSmemSize
            | Sreg::Zero
            | Sreg::One
    )
}

/// Registers proven warp-uniform (see [`mark_elected_reductions`]): the least fixpoint over
/// registers with exactly one, unpredicated, definition.
fn uniform_registers(code: &[Inst]) -> HashSet<Reg> {
    let mut defs: HashMap<Reg, usize> = HashMap::new();
    let mut def_at: HashMap<Reg, usize> = HashMap::new();
    for (pc, i) in code.iter().enumerate() {
        for r in regs_of(&i.op).1 {
            *defs.entry(r).or_default() += 1;
            def_at.insert(r, pc);
        }
    }
    let candidates: Vec<(Reg, usize)> = def_at
        .iter()
        .filter(|(r, pc)| defs[r] == 1 && code[**pc].guard.is_none())
        .map(|(r, pc)| (*r, *pc))
        .collect();
    let mut uniform: HashSet<Reg> = HashSet::new();
    loop {
        let before = uniform.len();
        for &(r, pc) in &candidates {
            if uniform.contains(&r) {
                continue;
            }
            let u = |s: &Src| match s {
                Src::Imm(_) => true,
                Src::Reg(x) => uniform.contains(x),
                Src::Sreg(sr) => uniform_sreg(*sr),
                Src::Pred(_) => false,
            };
            let addr_u = |a: &Addr| a.base.is_none_or(|b| uniform.contains(&b));
            let ok = match &code[pc].op {
                Op::Alu { a, b, c, e, .. } => u(a) && u(b) && u(c) && u(e),
                Op::Cvt { a, .. } | Op::Cvta { a, .. } => u(a),
                // A kernel parameter (not a callee's per-thread frame slot), or constant memory
                // at a uniform address.
                Op::Ld {
                    space: SpaceSel::Space(Space::Param),
                    d,
                    addr,
                    ..
                } => {
                    d.len() == 1
                        && addr.base.is_none()
                        && (addr.offset as u64) & crate::mem::space::PARAM_FRAME_BIT == 0
                }
                Op::Ld {
                    space: SpaceSel::Space(Space::Const),
                    d,
                    addr,
                    ..
                } => d.len() == 1 && addr_u(addr),
                _ => false,
            };
            if ok {
                uniform.insert(r);
            }
        }
        if uniform.len() == before {
            return uniform;
        }
    }
}

/// Registers an operation reads and writes.
fn regs_of(op: &Op) -> (Vec<Reg>, Vec<Reg>) {
    let mut srcs: Vec<Src> = Vec::new();
    let mut reads: Vec<Reg> = Vec::new();
    let mut writes: Vec<Reg> = Vec::new();
    match op {
        Op::Alu { d, a, b, c, e, .. } => {
            srcs.extend([*a, *b, *c, *e]);
            writes.push(*d);
        }
        Op::Carry { d, a, b, c, cc, .. } => {
            srcs.extend([*a, *b, *c]);
            reads.push(*cc);
            writes.extend([*d, *cc]);
        }
        Op::Shfl {
            d, a, b, c, mask, ..
        } => {
            srcs.extend([*a, *b, *c]);
            srcs.extend(mask.iter().copied());
            writes.push(*d);
        }
        Op::Match { d, a, mask, .. } | Op::Redux { d, a, mask, .. } => {
            srcs.extend([*a, *mask]);
            writes.push(*d);
        }
        Op::Cvt { d, a, .. } | Op::Cvta { d, a, .. } => {
            srcs.push(*a);
            writes.push(*d);
        }
        Op::PredFromReg { a, .. } => srcs.push(*a),
        Op::Setp { a, b, .. } => srcs.extend([*a, *b]),
        Op::Set { d, a, b, .. } | Op::Selp { d, a, b, .. } => {
            srcs.extend([*a, *b]);
            writes.push(*d);
        }
        Op::Ld { addr, d, .. } => {
            reads.extend(addr.base);
            writes.extend(d.iter().flatten());
        }
        Op::St { s, addr, .. } => {
            srcs.extend(s.iter().copied());
            reads.extend(addr.base);
        }
        Op::Atom { addr, b, c, d, .. } => {
            srcs.extend([*b, *c]);
            reads.extend(addr.base);
            writes.extend(d.iter().copied());
        }
        Op::Bar { id, count, .. } => {
            srcs.push(*id);
            srcs.extend(count.iter().copied());
        }
        Op::BarRed { id, d, .. } => {
            srcs.push(*id);
            if let Src::Reg(r) = d {
                writes.push(*r);
            }
        }
        Op::Vote { d, mask, .. } => {
            srcs.extend(mask.iter().copied());
            if let Src::Reg(r) = d {
                writes.push(*r);
            }
        }
        Op::WarpSync { mask } => srcs.push(*mask),
        Op::Activemask { d } => writes.push(*d),
        Op::Tex(t) => {
            srcs.push(t.handle);
            srcs.extend(t.coords);
            srcs.extend(t.lod);
            srcs.extend(t.s.iter().copied());
            writes.extend(t.d.iter().flatten());
        }
        _ => {}
    }
    reads.extend(srcs.iter().filter_map(|s| match s {
        Src::Reg(r) => Some(*r),
        _ => None,
    }));
    (reads, writes)
}

/// How an instruction's result alignment (the largest power of two dividing it) follows from
/// its sources; used to find the shared loads ptxas fuses.
#[derive(Clone, Copy, Debug)]
enum AlignRule {
    Unknown,
    Copy(Src),
    Add(Src, Src),
    Mul(Src, Src),
    Mad(Src, Src, Src),
    Shl(Src, Src),
    And(Src, Src),
}

fn align_rule(opcode: &str, mods: &[&str], op: &Op) -> AlignRule {
    let float = mods
        .iter()
        .any(|m| m.starts_with('f') && ScalarType::from_suffix(m).is_some_and(|t| t.is_float()));
    if float || mods.contains(&"hi") {
        return AlignRule::Unknown;
    }
    match op {
        Op::Alu { a, b, c, .. } => match opcode {
            "mov" => AlignRule::Copy(*a),
            "add" | "sub" => AlignRule::Add(*a, *b),
            "mul" => AlignRule::Mul(*a, *b),
            "mad" => AlignRule::Mad(*a, *b, *c),
            "shl" => AlignRule::Shl(*a, *b),
            "and" => AlignRule::And(*a, *b),
            _ => AlignRule::Unknown,
        },
        Op::Cvt { a, dst, src, .. } if !dst.is_float() && !src.is_float() => AlignRule::Copy(*a),
        Op::Cvta { a, .. } => AlignRule::Copy(*a),
        _ => AlignRule::Unknown,
    }
}

const ALIGN_CAP: u64 = 64;

fn lowbit(v: u64) -> u64 {
    if v == 0 {
        ALIGN_CAP
    } else {
        (1u64 << v.trailing_zeros()).min(ALIGN_CAP)
    }
}

/// The width a 4-byte load of type `ty` into a `dst_bytes`-wide register sign-extends to, if it
/// does (as the executor loads: a signed type into a wider register); otherwise it zero-extends.
fn sign_extension(ty: ScalarType, dst_bytes: u8) -> Option<u8> {
    (ty.is_signed() && ty.size() < dst_bytes as u32).then_some(dst_bytes)
}

/// The sources an alignment rule reads.
fn rule_srcs(rule: AlignRule) -> [Option<Src>; 3] {
    match rule {
        AlignRule::Unknown => [None; 3],
        AlignRule::Copy(x) => [Some(x), None, None],
        AlignRule::Add(x, y)
        | AlignRule::Mul(x, y)
        | AlignRule::Shl(x, y)
        | AlignRule::And(x, y) => [Some(x), Some(y), None],
        AlignRule::Mad(x, y, z) => [Some(x), Some(y), Some(z)],
    }
}

/// Proven alignment of every register: the largest power of two (up to [`ALIGN_CAP`]) that
/// divides every value any definition can give it, computed to the least fixpoint over all
/// definitions (flow-insensitive, so it holds at every instruction). `None` when the analysis
/// did not settle within its step budget, which proves nothing.
///
/// A worklist re-evaluates a definition only when one of its sources has dropped. Each
/// register's value only drops, through at most `log2(ALIGN_CAP) + 1` levels, so the evaluations
/// are bounded by `definitions + levels * uses`: that bound, computed from the code's size, is
/// the budget.
fn register_alignment(
    code: &[Inst],
    rules: &[(usize, AlignRule)],
    num_regs: usize,
) -> Option<Vec<u64>> {
    let rule_at: HashMap<usize, AlignRule> = rules.iter().copied().collect();
    // (the registers a definition writes, its rule) for every instruction that writes one.
    let mut defs: Vec<(Vec<Reg>, AlignRule)> = Vec::new();
    let mut users: Vec<Vec<usize>> = vec![Vec::new(); num_regs];
    let mut uses = 0usize;
    for (pc, i) in code.iter().enumerate() {
        let writes = regs_of(&i.op).1;
        if writes.is_empty() {
            continue;
        }
        let rule = if i.guard.is_none() || matches!(i.op, Op::Alu { .. }) {
            rule_at.get(&pc).copied().unwrap_or(AlignRule::Unknown)
        } else {
            AlignRule::Unknown
        };
        for s in rule_srcs(rule).into_iter().flatten() {
            if let Src::Reg(r) = s {
                users.get_mut(r as usize)?.push(defs.len());
                uses += 1;
            }
        }
        defs.push((writes, rule));
    }
    let levels = ALIGN_CAP.trailing_zeros() as usize + 1;
    let budget = defs.len() + levels * uses + 1;
    let mut align = vec![ALIGN_CAP; num_regs];
    let val = |s: Src, align: &[u64]| -> u64 {
        match s {
            Src::Reg(r) => align.get(r as usize).copied().unwrap_or(1),
            Src::Imm(v) => lowbit(v),
            _ => 1,
        }
    };
    let mut todo: Vec<usize> = (0..defs.len()).rev().collect();
    let mut queued = vec![true; defs.len()];
    let mut steps = 0usize;
    while let Some(k) = todo.pop() {
        queued[k] = false;
        steps += 1;
        if steps > budget {
            return None;
        }
        let (writes, rule) = &defs[k];
        let a = match *rule {
            AlignRule::Unknown => 1,
            AlignRule::Copy(s) => val(s, &align),
            AlignRule::Add(x, y) => val(x, &align).min(val(y, &align)),
            AlignRule::Mul(x, y) => (val(x, &align) * val(y, &align)).min(ALIGN_CAP),
            AlignRule::Mad(x, y, z) => (val(x, &align) * val(y, &align))
                .min(ALIGN_CAP)
                .min(val(z, &align)),
            AlignRule::Shl(x, Src::Imm(k)) => (val(x, &align) << k.min(6)).min(ALIGN_CAP),
            AlignRule::Shl(x, _) => val(x, &align),
            AlignRule::And(x, y) => val(x, &align).max(val(y, &align)),
        };
        for &w in writes {
            let slot = align.get_mut(w as usize)?;
            if a < *slot {
                *slot = a;
                for &u in &users[w as usize] {
                    if !queued[u] {
                        queued[u] = true;
                        todo.push(u);
                    }
                }
            }
        }
    }
    Some(align)
}

/// ptxas turns runs of 4-byte shared loads from one 16- (or 8-) byte aligned base at
/// consecutive offsets into one 128-bit (64-bit) load (`LDS.128`), as the H200's SASS of the
/// tiled matrix multiply shows (tests/hw/h200/hw/logs/matmul.sass: the `As[ty][k]` row loads
/// become `LDS.128`; Nsight Compute counts 20 shared loads per thread and tile, not 32). The
/// pass proves the base's alignment with a dataflow over integer arithmetic run to its fixpoint
/// ([`register_alignment`]; when it does not settle nothing is fused), then hoists the later
/// loads of a run to the first (leaving `Nop`s, so instruction indices stay), but only inside
/// one basic block, with no store, atomic or barrier in between, when the loads have the same
/// type and destination width, when the first does not overwrite the base, and when no
/// instruction in between touches the hoisted loads' destinations or the base register.
fn fuse_shared_loads(code: &mut [Inst], rules: &[(usize, AlignRule)], num_regs: usize) {
    let Some(align) = register_alignment(code, rules, num_regs) else {
        return;
    };
    let targets: std::collections::HashSet<u32> = code
        .iter()
        .filter_map(|i| match i.op {
            Op::Bra { target } => Some(target),
            _ => None,
        })
        .collect();
    // (destination, offset, base, type, destination width) of an unguarded scalar 4-byte load.
    let shared_scalar = |i: &Inst| -> Option<(Reg, i64, Reg, ScalarType, u8)> {
        match &i.op {
            Op::Ld {
                space: SpaceSel::Space(Space::Shared),
                ty,
                d,
                dst_bytes,
                addr:
                    Addr {
                        base: Some(b),
                        offset,
                    },
                ..
            } if i.guard.is_none() && d.len() == 1 && ty.size() == 4 => {
                d[0].map(|r| (r, *offset, *b, *ty, *dst_bytes))
            }
            _ => None,
        }
    };
    let mut pc = 0;
    while pc < code.len() {
        let Some((d0, off0, base, ty, bytes0)) = shared_scalar(&code[pc]) else {
            pc += 1;
            continue;
        };
        // A first load that overwrites its base changes the later loads' addresses.
        if d0 == base {
            pc += 1;
            continue;
        }
        let a = align.get(base as usize).copied().unwrap_or(1);
        for (n, need) in [(4usize, 16u64), (2, 8)] {
            if a < need || off0.rem_euclid(need as i64) != 0 {
                continue;
            }
            // Find the loads at off0+4, +8, ... within the block.
            let mut found: Vec<(usize, Reg)> = Vec::new();
            let mut q = pc + 1;
            while q < code.len() && q < pc + 64 && found.len() < n - 1 {
                if targets.contains(&(q as u32)) {
                    break;
                }
                match &code[q].op {
                    Op::St { .. }
                    | Op::Atom { .. }
                    | Op::Bar { .. }
                    | Op::BarRed { .. }
                    | Op::Bra { .. }
                    | Op::Exit => break,
                    _ => {}
                }
                if let Some((dq, offq, bq, tq, bytesq)) = shared_scalar(&code[q]) {
                    if bq == base
                        && sign_extension(tq, bytesq) == sign_extension(ty, bytes0)
                        && Some(offq) == off0.checked_add(4 * (found.len() as i64 + 1))
                    {
                        found.push((q, dq));
                    }
                }
                if regs_of(&code[q].op).1.contains(&base) {
                    break;
                }
                q += 1;
            }
            if found.len() != n - 1 {
                continue;
            }
            // The hoisted destinations must be untouched between the first load and their own.
            let mut dests = vec![d0];
            let ok = found.iter().all(|&(qpc, dq)| {
                if dests.contains(&dq) {
                    return false;
                }
                dests.push(dq);
                (pc + 1..qpc).all(|k| {
                    let (r, w) = regs_of(&code[k].op);
                    !r.contains(&dq) && !w.contains(&dq)
                })
            });
            if !ok {
                continue;
            }
            if let Op::Ld { d, .. } = &mut code[pc].op {
                *d = dests.iter().map(|&r| Some(r)).collect();
            }
            for &(qpc, _) in &found {
                code[qpc].op = Op::Nop;
            }
            break;
        }
        pc += 1;
    }
}

/// Whether a `.file` path is one of CUDA's own headers: NVRTC's builtin header or a file of a
/// toolkit `include/` folder (`crt/`, `sm_*_intrinsics.h`, `texture_fetch_functions.h`, ...).
fn is_system_header(path: &str) -> bool {
    let name = path.rsplit(['/', '\\']).next().unwrap_or(path);
    name.starts_with("__nv_nvrtc_builtin_header")
        || path.contains("/include/crt/")
        || path.contains("/cuda/include/")
        || path.contains("/cu13/include/")
        || path.contains("/cu12/include/")
        || path.contains("/targets/x86_64-linux/include/")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn mov(d: Reg, a: Src) -> Inst {
        Inst {
            op: Op::Alu {
                f: |a, _, _, _| a,
                d,
                a,
                b: Src::Imm(0),
                c: Src::Imm(0),
                e: Src::Imm(0),
                w: None,
            },
            guard: None,
        }
    }

    /// `r_k = r_{k-1}` for k = n..1 laid out last link first, then `r_0 = 4`: an in-order sweep
    /// learns one link per pass; the fixpoint knows every register is 4-aligned, no more.
    #[test]
    fn alignment_reaches_the_fixpoint_of_a_long_reversed_chain() {
        let n: Reg = 10_000;
        let mut code = Vec::new();
        let mut rules = Vec::new();
        for k in (1..=n).rev() {
            rules.push((code.len(), AlignRule::Copy(Src::Reg(k - 1))));
            code.push(mov(k, Src::Reg(k - 1)));
        }
        rules.push((code.len(), AlignRule::Copy(Src::Imm(4))));
        code.push(mov(0, Src::Imm(4)));
        let align = register_alignment(&code, &rules, n as usize + 1).expect("settles");
        assert!(align.iter().all(|&a| a == 4), "{:?}", &align[..8]);
    }

    #[test]
    fn alignment_is_the_minimum_over_every_definition() {
        // r1 = 16, r1 = r1 + 8 (a loop's increment): 8-aligned, not 16.
        let code = vec![mov(1, Src::Imm(16)), mov(1, Src::Reg(1))];
        let rules = vec![
            (0, AlignRule::Copy(Src::Imm(16))),
            (1, AlignRule::Add(Src::Reg(1), Src::Imm(8))),
        ];
        assert_eq!(register_alignment(&code, &rules, 2), Some(vec![64, 8]));
    }

    #[test]
    fn only_reductions_at_a_uniform_address_are_elected() {
        // red at [param] (uniform), at [param + tid * 4] (per lane), and an atom.inc with a
        // limit (not a REDUX operation) at [param].
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
            .visible .entry k(.param .u64 p)\n{\n\
            \t.reg .b32 %r<4>;\n\t.reg .b64 %rd<5>;\n\
            \tld.param.u64 %rd1, [p];\n\tcvta.to.global.u64 %rd2, %rd1;\n\
            \tmov.u32 %r1, %tid.x;\n\tmul.wide.u32 %rd3, %r1, 4;\n\
            \tadd.s64 %rd4, %rd2, %rd3;\n\
            \tred.global.add.u32 [%rd2], %r1;\n\
            \tred.global.max.u32 [%rd4], %r1;\n\
            \tatom.global.inc.u32 %r2, [%rd2+4], 99;\n\
            \tatom.global.add.u32 %r2, [%rd2+8], %r1;\n\
            \tatom.global.max.u32 %r3, [%rd2+12], %r1;\n\
            \tadd.u32 %r2, %r2, %r3;\n\tst.global.u32 [%rd4], %r2;\n\
            \tret;\n}\n";
        let m = crate::ptx::parse::parse(ptx).expect("parse");
        let p = lower(&m, ptx).expect("lower");
        let elected: Vec<bool> = p.kernels[0]
            .code
            .iter()
            .filter_map(|i| match i.op {
                Op::Atom { elected, .. } => Some(elected),
                _ => None,
            })
            .collect();
        // The used atom.add at [param + 8] is aggregated; the used atom.max is not.
        assert_eq!(elected, vec![true, false, false, true, false]);
    }
}
