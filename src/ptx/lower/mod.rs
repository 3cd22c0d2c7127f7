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
//!
//! The parts: this file lays out the module's variables and lowers each entry; `builder.rs`
//! holds a kernel's state and walks its body; `operand.rs` resolves operands and modifiers;
//! `inst.rs` dispatches each opcode to its family (`arith.rs`, `data.rs`, `sync.rs`,
//! `warp.rs`, `control.rs`, `tex.rs`); `reduction.rs` and `fuse.rs` are the ptxas-imitation
//! passes.

use std::collections::{HashMap, HashSet};

mod arith;
mod builder;
mod control;
mod data;
mod fuse;
mod inst;
mod operand;
mod reduction;
mod sync;
mod tex;
mod warp;

use super::ast::{self, DeclSpace, InitValue, Operand, Statement};
use super::error::{LineIndex, PtxError, Span};
use crate::exec::{alu, fsel};
use crate::ir::types::ScalarType;
use crate::ir::*;
use crate::mem::request::{AccessKind, CacheOp, Space};
use crate::mem::space::{GLOBAL_VARS_BASE, PARAM_FRAME_BIT};
use builder::*;
use fuse::*;
use inst::*;
use operand::*;
use reduction::*;

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
    /// First address of the module's `.global` variables ([`GLOBAL_VARS_BASE`] for the first
    /// module of a device; `runtime::Device` places later modules above the earlier ones').
    pub global_vars_base: u64,
}

impl Default for LowerOptions {
    fn default() -> Self {
        LowerOptions {
            ptxas_passes: true,
            max_global_var_bytes: DEFAULT_MAX_GLOBAL_VAR_BYTES,
            global_vars_base: GLOBAL_VARS_BASE,
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
    let mut global_top = opts.global_vars_base;
    let global_limit = opts
        .global_vars_base
        .saturating_add(opts.max_global_var_bytes);
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
                                (e - opts.global_vars_base).to_string()
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
