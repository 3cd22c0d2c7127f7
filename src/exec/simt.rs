//! The SIMT executor: runs a launch block by block, each block's warps in lock-step lanes, and
//! tells an [`Observer`] about every warp-level memory instruction as a [`MemRequest`].
//!
//! Semantics follow the PTX ISA: warps are formed from the linear thread index, x fastest
//! (CUDA Programming Guide, "Thread Hierarchy"); a block's warps run until each waits at a
//! barrier or exits, then the barrier releases (threads that exited count as arrived, as on
//! sm_70 and later). Threads waiting at different barrier instructions, or at a barrier that the
//! remaining threads cannot reach, are reported as a divergent barrier. Blocks run one after
//! another in linear order; each block's result depends only on memory, so blocks can later run
//! in parallel with identical results for race-free kernels.
//!
//! An instruction reaches the observer and the statistics only once it has executed: one that
//! faults adds nothing to any counter. Two instruction budgets bound a launch, one per block
//! (an endless loop) and one for all blocks together (a huge grid). Memory accesses that are
//! in bounds and aligned in every lane take a specialised path; [`Launch::fast_paths`] turns
//! the specialised paths off for differential testing (results and observer calls are equal).

use crate::exec::cvt::cvt;
use crate::exec::fault::{FaultKind, KernelFault};
use crate::exec::printf;
use crate::exec::warp::Warp;
use crate::ir::types::ScalarType;
use crate::ir::*;
use crate::mem::request::{AccessKind, MemRequest, Space};
use crate::mem::space::{self, read_le, write_le, GlobalMemory, PARAM_FRAME_BIT};

mod issue;
mod mbarrier;
mod sass;
mod tex;
pub(crate) mod warp_ops;

use warp_ops::{lanes, Participants};

/// Receives what the executor does.
pub trait Observer {
    /// A warp-level memory instruction (one call per state space it touches).
    fn mem(&mut self, req: &MemRequest);
    /// A warp-level instruction issued at `pc` for `active` lanes, of which `exec` passed the guard.
    #[inline(always)]
    fn inst(&mut self, _pc: u32, _active: u32, _exec: u32) {}
    /// Block `linear` (its index in the grid, x fastest) with `ctaid` starts running.
    #[inline(always)]
    fn block_begin(&mut self, _linear: u64, _ctaid: [u32; 3]) {}
    /// Block `linear` has finished: every thread exited.
    #[inline(always)]
    fn block_end(&mut self, _linear: u64) {}
    /// A warp-level texture or surface instruction (`tex`, `tld4`, `txq`, `suld`, `sust`):
    /// per active lane, the texels it read or wrote ([`crate::tex::event`]). Called before the
    /// instruction's [`Observer::inst`] call, only once it has executed without a fault.
    #[inline(always)]
    fn tex(&mut self, _req: &crate::tex::event::TexRequest<'_>) {}
    /// A SASS `LDC` (not `ULDC`) of a constant bank other than the user's constants (whose loads
    /// are [`Observer::mem`] requests) executed at `pc` for at least one lane: `requests`
    /// distinct addresses, the indexed constant cache's requests ([`crate::mem::constant`]).
    #[inline(always)]
    fn ldc(&mut self, _pc: u32, _requests: u32) {}
    /// A barrier of the running block released the threads waiting at it. Requests before this
    /// call happened before the barrier in every warp that waited; requests after it, after.
    #[inline(always)]
    fn barrier(&mut self) {}
    /// Whether the executor reports the bytes each lane stores through
    /// [`Observer::store_bytes`] (the sanitizers' observers; a constant, so the executor's
    /// store loops carry no cost when it is `false`).
    const STORE_BYTES: bool = false;
    /// Lane `lane` of warp `warp` stored `bytes` at `addr` of `space` (shared, global or local;
    /// generic addresses resolved) at `pc`. Called only when [`Observer::STORE_BYTES`] is true,
    /// before the instruction's [`Observer::inst`] call.
    #[inline(always)]
    fn store_bytes(
        &mut self,
        _space: Space,
        _pc: u32,
        _warp: u32,
        _lane: u32,
        _addr: u64,
        _bytes: &[u8],
    ) {
    }
    /// A lane's access faulted (out of bounds or misaligned): return true to skip that lane's
    /// access and go on (`--check memcheck --continue`; a skipped load leaves its destination
    /// unchanged), false to stop the launch with the fault (the default).
    #[cold]
    fn access_fault(
        &mut self,
        _kind: &FaultKind,
        _pc: u32,
        _block: [u32; 3],
        _thread: [u32; 3],
    ) -> bool {
        false
    }
}

/// An observer that ignores everything (for runs without memory models).
pub struct NoObserver;

impl Observer for NoObserver {
    #[inline(always)]
    fn mem(&mut self, _req: &MemRequest) {}
}

/// Grid and block shape and dynamic shared memory of a launch.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LaunchDims {
    /// Blocks per grid, x y z.
    pub grid: [u32; 3],
    /// Threads per block, x y z.
    pub block: [u32; 3],
    /// Dynamic shared memory per block in bytes.
    pub dynamic_shared: u32,
}

impl LaunchDims {
    /// Threads per block.
    pub fn threads_per_block(&self) -> u32 {
        self.block.iter().product()
    }
    /// Blocks in the grid.
    pub fn blocks(&self) -> u64 {
        self.grid.iter().map(|&g| g as u64).product()
    }
}

/// Everything one launch needs.
pub struct Launch<'a> {
    /// The kernel.
    pub kernel: &'a Kernel,
    /// The name to show in messages (the C++ name when known).
    pub display_name: &'a str,
    /// Shape.
    pub dims: LaunchDims,
    /// The parameter buffer.
    pub params: &'a [u8],
    /// Constant bank 0.
    pub consts: &'a [u8],
    /// Global memory.
    pub global: &'a mut GlobalMemory,
    /// Warp-instructions a block may execute before it is declared endless.
    pub budget_per_block: u64,
    /// Warp-instructions the whole launch may execute (all blocks together).
    pub budget_per_launch: u64,
    /// Take the specialised paths (in-bounds scalar and vector memory accesses, common ALU
    /// operand shapes). `false` runs every instruction through the general per-lane path, which
    /// must give the same results and the same observer calls (a differential test checks it).
    pub fast_paths: bool,
    /// SMs, for `%nsmid`/`%smid`.
    pub sm_count: u32,
    /// Shared memory the system reserves per block (1 KB on the H200), for `%aggr_smem_size`.
    pub reserved_shared_per_block: u32,
    /// `%gridid`.
    pub grid_id: u64,
    /// For each instruction (by pc), the byte offset in `params` of the pointer parameter its
    /// global address derives from, `u32::MAX` when none is known
    /// ([`crate::check::provenance::pointer_params`]; empty: none known for any). An access
    /// outside the allocation that pointer points into is a fault even when it lands in another
    /// allocation.
    pub provenance: &'a [u32],
    /// CUDA arrays and texture and surface objects (surface stores write the arrays).
    pub textures: &'a mut crate::tex::TexState,
}

/// What a launch did, counted by the executor itself.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct LaunchStats {
    /// Warp-level instructions issued.
    pub warp_instructions: u64,
    /// Of those, under SASS, the ones the H200 counts on no instruction of its Source page
    /// (the `Release` rules of `exec::simt::sass`): in the launch total, on no line.
    pub unattributed_warp_instructions: u64,
    /// Thread-level instructions whose guard passed.
    pub thread_instructions: u64,
    /// Blocks run.
    pub blocks: u64,
    /// What device `printf` printed, in execution order (each thread's call whole).
    pub printf: String,
    /// `printf` calls left out because the output reached [`printf::PRINTF_LIMIT`].
    pub printf_dropped: u64,
}

struct BlockMem {
    shared: Vec<u8>,
    local: Vec<u8>,
    local_bytes: usize,
    ctaid: [u32; 3],
    smid: u32,
    /// Threads arrived at each of the 16 named barriers that were given a thread count.
    arrived: [u32; 16],
    /// The thread count each counted barrier expects (0: none pending).
    expected: [u32; 16],
}

struct Ctx<'a, 'b, O: Observer> {
    l: &'b mut Launch<'a>,
    obs: &'b mut O,
    stats: LaunchStats,
    /// Warp-instructions this block may still issue: the smaller of the per-block budget and
    /// what is left of the launch's, so the hot loop counts down one number.
    block_budget: u64,
    /// What is left of the launch's budget when the current block started.
    launch_budget: u64,
    /// True when the current block's limit is the launch's remainder, not the per-block budget.
    launch_limited: bool,
    clock: u64,
    /// The warp running now (its index in the block), for [`MemRequest::warp`].
    warp: u32,
    /// Per pc, the global allocation (index) the instruction's pointer came from, `u32::MAX`
    /// when unknown; built at launch from [`Launch::provenance`].
    expect: Vec<u32>,
    /// `expect` of the memory instruction being executed.
    cur_expect: u32,
    /// The pc of the memory instruction being executed (for [`Observer::store_bytes`]).
    cur_pc: u32,
    /// The memory instruction being executed is an `LDGSTS`'s global read
    /// ([`MemRequest::ldgsts`]).
    cur_ldgsts: bool,
    /// The SASS instruction just run did not execute and must run again (a waiting
    /// `SYNCS.PHASECHK.TRANS64.TRYWAIT`).
    retry: bool,
    /// The block running now, for [`Observer::access_fault`].
    ctaid: [u32; 3],
    /// Constant bank 0 of a kernel that runs as SASS (empty for PTX).
    cbank0: Vec<u8>,
    /// The lanes of the texture instruction being executed (reused, no allocation per
    /// instruction).
    tex_lanes: Vec<crate::tex::event::TexLane>,
}

type Fault = (FaultKind, u32, u32); // kind, pc, lane

/// Why a launch did not run to the end.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// A fault inside the simulated kernel.
    #[error("{0}")]
    Fault(Box<KernelFault>),
    /// The host could not allocate the block's shared memory or local frames.
    #[error("cannot allocate {bytes} bytes of host memory for {what}")]
    OutOfMemory {
        /// What the memory was for.
        what: &'static str,
        /// How much was asked for.
        bytes: u64,
    },
}

/// A zeroed buffer of `n` bytes, or an error instead of an abort when the host has no memory.
fn try_zeroed(n: u64, what: &'static str) -> Result<Vec<u8>, ExecError> {
    let err = || ExecError::OutOfMemory { what, bytes: n };
    let len = usize::try_from(n).map_err(|_| err())?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| err())?;
    v.resize(len, 0);
    Ok(v)
}

/// Bytes of host memory a launch of `kernel` with `dims` holds for one block: its shared
/// memory, the local frames of all its threads, and its warps' register files (warps are
/// allocated whole). `None` on overflow.
pub fn block_memory_bytes(kernel: &Kernel, dims: &LaunchDims) -> Option<(u64, u64, u64)> {
    let warps = u64::from(dims.threads_per_block().div_ceil(32));
    let threads = warps.checked_mul(32)?;
    let shared = (kernel.dynamic_shared_offset as u64)
        .checked_add(u64::from(dims.dynamic_shared))?
        .max(kernel.static_shared);
    let shared = if kernel.reserved_smem {
        crate::ir::reserved_smem_base(shared).checked_add(crate::ir::RESERVED_SMEM_BYTES)?
    } else {
        shared
    };
    let local = kernel.local_bytes.checked_mul(threads)?;
    let regs = (kernel.num_regs as u64)
        .checked_mul(32 * 8)?
        .checked_add((kernel.num_preds as u64).checked_mul(4)?)?
        .checked_mul(warps)?;
    Some((shared, local, regs))
}

/// Where a block's reserved kilobyte of shared memory starts (see [`crate::ir::Kernel::reserved_smem`]).
pub(crate) fn reserved_base(kernel: &Kernel, dims: &LaunchDims) -> u64 {
    let own = (kernel.dynamic_shared_offset as u64)
        .saturating_add(u64::from(dims.dynamic_shared))
        .max(kernel.static_shared);
    crate::ir::reserved_smem_base(own)
}

/// Runs a launch to the end. `progress(done, total)` is called after each block.
pub fn run<O: Observer>(
    mut launch: Launch<'_>,
    obs: &mut O,
    progress: &mut dyn FnMut(u64, u64),
) -> Result<LaunchStats, ExecError> {
    let k = launch.kernel;
    let dims = launch.dims;
    let threads = dims.threads_per_block();
    let nwarps = threads.div_ceil(32);
    let mut warps: Vec<Warp> = (0..nwarps)
        .map(|i| Warp::try_new(i, k.num_regs, k.num_preds))
        .collect::<Option<_>>()
        .ok_or(ExecError::OutOfMemory {
            what: "register files",
            bytes: (k.num_regs as u64).saturating_mul(256 * u64::from(nwarps)),
        })?;
    let (shared_size, local_size, _) =
        block_memory_bytes(k, &dims).ok_or(ExecError::OutOfMemory {
            what: "the block's shared and local memory",
            bytes: u64::MAX,
        })?;
    let local_bytes = usize::try_from(k.local_bytes).map_err(|_| ExecError::OutOfMemory {
        what: "local memory",
        bytes: k.local_bytes,
    })?;
    let mut mem = BlockMem {
        shared: try_zeroed(shared_size, "shared memory")?,
        local: try_zeroed(local_size, "local memory frames")?,
        local_bytes,
        ctaid: [0; 3],
        smid: 0,
        arrived: [0; 16],
        expected: [0; 16],
    };
    // Thread indices per warp lane, x fastest.
    let [bx, by, _] = dims.block;
    for (wi, w) in warps.iter_mut().enumerate() {
        for l in 0..32u32 {
            let t = wi as u32 * 32 + l;
            w.tid[0][l as usize] = t % bx;
            w.tid[1][l as usize] = (t / bx) % by;
            w.tid[2][l as usize] = t / (bx * by);
        }
    }
    let total = dims.blocks();
    let mut ctx = Ctx {
        l: &mut launch,
        obs,
        stats: LaunchStats::default(),
        block_budget: 0,
        launch_budget: 0,
        launch_limited: false,
        clock: 0,
        warp: 0,
        expect: Vec::new(),
        cur_expect: u32::MAX,
        cur_pc: 0,
        cur_ldgsts: false,
        retry: false,
        ctaid: [0; 3],
        cbank0: Vec::new(),
        tex_lanes: Vec::with_capacity(32),
    };
    if k.sass.is_some() {
        ctx.cbank0 = sass::cbank0(ctx.l);
    }
    ctx.expect = expected_allocations(ctx.l);
    ctx.launch_budget = ctx.l.budget_per_launch;
    let [gx, gy, gz] = dims.grid;
    let mut done = 0u64;
    for z in 0..gz {
        for y in 0..gy {
            for x in 0..gx {
                mem.ctaid = [x, y, z];
                ctx.ctaid = [x, y, z];
                mem.smid = (done % ctx.l.sm_count.max(1) as u64) as u32;
                mem.shared.iter_mut().for_each(|b| *b = 0);
                mem.local.iter_mut().for_each(|b| *b = 0);
                mem.arrived = [0; 16];
                mem.expected = [0; 16];
                for w in warps.iter_mut() {
                    let first = w.id * 32;
                    let n = threads.saturating_sub(first).min(32);
                    let live = if n == 32 { !0 } else { (1u32 << n) - 1 };
                    match &k.sass {
                        Some(sc) => w.reset_ranges(live, &sc.reset),
                        None => w.reset(live),
                    }
                }
                ctx.launch_limited = ctx.launch_budget < ctx.l.budget_per_block;
                ctx.block_budget = ctx.l.budget_per_block.min(ctx.launch_budget);
                let start = ctx.block_budget;
                ctx.obs.block_begin(done, [x, y, z]);
                let result = ctx.run_block(&mut warps, &mut mem);
                ctx.launch_budget -= start - ctx.block_budget;
                if let Err((kind, pc, wl)) = result {
                    let w = (wl / 32) as usize;
                    let lane = (wl % 32) as usize;
                    let thread = match warps.get(w) {
                        Some(w) => [w.tid[0][lane], w.tid[1][lane], w.tid[2][lane]],
                        None => [0; 3],
                    };
                    let mut f = fault(ctx.l, kind, pc, [x, y, z], thread);
                    // What device printf printed before the fault, as CUDA flushes it.
                    f.printf = std::mem::take(&mut ctx.stats.printf);
                    return Err(ExecError::Fault(Box::new(f)));
                }
                ctx.obs.block_end(done);
                done += 1;
                ctx.stats.blocks += 1;
                progress(done, total);
            }
        }
    }
    Ok(ctx.stats)
}

/// For each pc, the index of the global allocation that the pointer parameter its address derives
/// from points into (`u32::MAX`: no known parameter, or a pointer outside every allocation).
fn expected_allocations(l: &Launch<'_>) -> Vec<u32> {
    if l.provenance.is_empty() {
        return Vec::new();
    }
    l.provenance
        .iter()
        .map(|&off| {
            if off == u32::MAX {
                return u32::MAX;
            }
            let o = off as usize;
            let Some(b) = l.params.get(o..o + 8) else {
                return u32::MAX;
            };
            let (sp, a) = space::resolve_generic(read_le(b, 8));
            if sp != Space::Global {
                return u32::MAX;
            }
            l.global
                .find(a, 1)
                .and_then(|i| u32::try_from(i).ok())
                .unwrap_or(u32::MAX)
        })
        .collect()
}

fn fault(
    l: &Launch<'_>,
    kind: FaultKind,
    pc: u32,
    block: [u32; 3],
    thread: [u32; 3],
) -> KernelFault {
    let k = l.kernel;
    let info = k.info.get(pc as usize).cloned().unwrap_or_default();
    let source = if info.src_line != 0 {
        let file = k
            .files
            .iter()
            .find(|(i, _)| *i == info.src_file)
            .map(|(_, f)| f.clone())
            .unwrap_or_else(|| "?".to_string());
        Some((file, info.src_line))
    } else {
        None
    };
    KernelFault {
        kernel: l.display_name.to_string(),
        block,
        thread,
        ptx_line: info.ptx_line,
        ptx_text: info.text,
        sass: k.sass.is_some(),
        source,
        kind,
        printf: String::new(),
    }
}

/// Where instruction `pc` of `k` is, for messages: `file.cu:8 (PTX line 47)`, or the PTX line
/// alone when the PTX has no `.loc` lines (`SASS line` when the kernel runs as SASS).
fn place(k: &Kernel, pc: u32) -> String {
    let isa = if k.sass.is_some() { "SASS" } else { "PTX" };
    let Some(info) = k.info.get(pc as usize) else {
        return "an unknown instruction".to_string();
    };
    match k.files.iter().find(|(i, _)| *i == info.src_file) {
        Some((_, f)) if info.src_line != 0 => {
            let name = f.rsplit('/').next().unwrap_or(f);
            format!("{name}:{} ({isa} line {})", info.src_line, info.ptx_line)
        }
        _ => format!("{isa} line {}", info.ptx_line),
    }
}

/// compute-sanitizer's word for an access kind.
fn kind_name(k: AccessKind) -> &'static str {
    match k {
        AccessKind::Load => "read",
        AccessKind::Store => "write",
        AccessKind::Atomic | AccessKind::Reduction => "atomic",
    }
}

/// The `N`-byte little-endian value at `data[o..o + N]` (one load for a constant `N`).
#[inline(always)]
fn load_le<const N: usize>(data: &[u8], o: usize) -> u64 {
    let mut v = [0u8; 8];
    v[..N].copy_from_slice(&data[o..o + N]);
    u64::from_le_bytes(v)
}

/// `regs[l]` = the `esize`-byte little-endian value at `data[addrs[l] - base]` for lanes `e`
/// (the caller has checked every lane in bounds), the size a constant in each loop.
#[inline(always)]
fn gather(data: &[u8], base: u64, addrs: &[u64; 32], e: u32, esize: u32, regs: &mut [u64]) {
    #[inline(always)]
    fn each<const N: usize>(data: &[u8], base: u64, addrs: &[u64; 32], e: u32, regs: &mut [u64]) {
        if e == u32::MAX {
            for (r, &a) in regs.iter_mut().zip(addrs) {
                *r = load_le::<N>(data, a.wrapping_sub(base) as usize);
            }
        } else {
            for l in lanes(e) {
                regs[l] = load_le::<N>(data, addrs[l].wrapping_sub(base) as usize);
            }
        }
    }
    match esize {
        1 => each::<1>(data, base, addrs, e, regs),
        2 => each::<2>(data, base, addrs, e, regs),
        4 => each::<4>(data, base, addrs, e, regs),
        _ => each::<8>(data, base, addrs, e, regs),
    }
}

/// Writes the low `esize` bytes of `v[l]` little-endian at `data[addrs[l] - base]` for lanes
/// `e`, in lane order (the caller has checked every lane in bounds).
#[inline(always)]
fn scatter(data: &mut [u8], base: u64, addrs: &[u64; 32], e: u32, esize: u32, v: &[u64; 32]) {
    #[inline(always)]
    fn each<const N: usize>(data: &mut [u8], base: u64, addrs: &[u64; 32], e: u32, v: &[u64; 32]) {
        for l in lanes(e) {
            let o = addrs[l].wrapping_sub(base) as usize;
            data[o..o + N].copy_from_slice(&v[l].to_le_bytes()[..N]);
        }
    }
    match esize {
        1 => each::<1>(data, base, addrs, e, v),
        2 => each::<2>(data, base, addrs, e, v),
        4 => each::<4>(data, base, addrs, e, v),
        _ => each::<8>(data, base, addrs, e, v),
    }
}

/// Whether every lane of `e` addresses `width` bytes inside `[base, base + len)` at an address
/// aligned to `align + 1` bytes, in one pass without early exits. An address below `base`
/// wraps to an offset above `len - width` (an allocation ends far below 2^64).
#[inline(always)]
fn in_bounds(addrs: &[u64; 32], e: u32, base: u64, len: u64, width: u64, align: u64) -> bool {
    if width > len {
        return false;
    }
    // The OR of the addresses has a low bit set where some address has; the largest offset
    // from `base` decides the range.
    let (mut or, mut max) = (0u64, 0u64);
    if e == u32::MAX {
        for &a in addrs {
            or |= a;
            max = max.max(a.wrapping_sub(base));
        }
    } else {
        for l in lanes(e) {
            or |= addrs[l];
            max = max.max(addrs[l].wrapping_sub(base));
        }
    }
    or & align == 0 && max <= len - width
}

#[inline(always)]
fn pred_mask(w: &Warp, p: PredSrc) -> u32 {
    let v = match p.reg {
        Some(r) => w.preds[r as usize],
        None => !0,
    };
    if p.neg {
        !v
    } else {
        v
    }
}

fn sign_extend(v: u64, from_bytes: u32, to_bytes: u32) -> u64 {
    let sh = 64 - from_bytes * 8;
    let x = ((v << sh) as i64 >> sh) as u64;
    if to_bytes >= 8 {
        x
    } else {
        x & ((1u64 << (to_bytes * 8)) - 1)
    }
}

impl<'a, 'b, O: Observer> Ctx<'a, 'b, O> {
    fn run_block(&mut self, warps: &mut [Warp], mem: &mut BlockMem) -> Result<(), Fault> {
        // The warp that goes first in the next round of CAS retries.
        let mut cas_next = 0u32;
        loop {
            let mut any_live = false;
            let mut yielded = false;
            for w in warps.iter_mut() {
                if w.ready() != 0 && !w.cas_park {
                    match &self.l.kernel.sass {
                        Some(sc) => self.run_warp_sass(w, mem, sc)?,
                        None => self.run_warp(w, mem)?,
                    }
                }
                any_live |= w.live != 0;
                yielded |= std::mem::take(&mut w.yielded);
            }
            if !any_live {
                return Ok(());
            }
            if warps.iter().any(|w| w.cas_park) {
                cas_next = self.cas_round(warps, mem, cas_next)?;
                continue;
            }
            // A warp that gave up its turn can still run: no barrier is due yet. (A spin that
            // never ends runs into the block's instruction budget.)
            if yielded {
                continue;
            }
            if warp_ops::barrier::release_counted(warps, mem) {
                self.obs.barrier();
                continue;
            }
            self.release_barrier(warps, mem)?;
            self.obs.barrier();
        }
    }

    /// One round of the block's CAS retry loops (SASS `ATOMS.CAST.SPIN.64`, ptxas's lowering of
    /// a shared 64-bit `atomicAdd` and the like): every warp waiting before its compare-and-store
    /// has done its loop's load; they store in turn, starting with the warp after the one that
    /// went first in the last round (`first`; warps in index order, wrapping), each running on
    /// until it waits again. So one lane of the first warp stores and the others' compares fail
    /// (their loads are older), as on the H200, whose Source page counts of one to four warps
    /// of 32 lanes on one word are those of this order exactly (tests/hw/h200/cas/, cas_probe's
    /// `spin_sh`: 32, 127 and 506 executions per block, 528, 2,080 and 8,256 thread
    /// executions; tests/hardware/cas.rs). Returns the warp that goes first next.
    fn cas_round(
        &mut self,
        warps: &mut [Warp],
        mem: &mut BlockMem,
        first: u32,
    ) -> Result<u32, Fault> {
        let n = warps.len() as u32;
        let mut order: Vec<usize> = (0..warps.len()).filter(|&i| warps[i].cas_park).collect();
        order.sort_by_key(|&i| (i as u32 + n - first % n.max(1)) % n.max(1));
        let next = order.first().map_or(first, |&i| (i as u32 + 1) % n.max(1));
        let Some(sc) = self.l.kernel.sass.clone() else {
            return Ok(next);
        };
        for i in order {
            let w = &mut warps[i];
            w.cas_park = false;
            w.cas_go = true;
            self.run_warp_sass(w, mem, &sc)?;
        }
        Ok(next)
    }

    /// All 32 lanes of a source: the register's own lanes, or `tmp` filled with the values.
    #[inline(always)]
    fn lanes_of<'r>(
        &self,
        w: &'r Warp,
        mem: &BlockMem,
        s: Src,
        tmp: &'r mut [u64; 32],
    ) -> &'r [u64] {
        match s {
            Src::Reg(r) => w.reg(r),
            Src::Imm(v) => {
                *tmp = [v; 32];
                &tmp[..]
            }
            _ => {
                for (l, t) in tmp.iter_mut().enumerate() {
                    *t = self.val(w, mem, s, l);
                }
                &tmp[..]
            }
        }
    }

    #[inline(always)]
    fn val(&self, w: &Warp, mem: &BlockMem, s: Src, lane: usize) -> u64 {
        match s {
            Src::Reg(r) => w.regs[r as usize * 32 + lane],
            Src::Imm(v) => v,
            Src::Pred(p) => (w.preds[p as usize] >> lane & 1) as u64,
            Src::Sreg(sr) => self.sreg(w, mem, sr, lane),
        }
    }

    fn sreg(&self, w: &Warp, mem: &BlockMem, sr: Sreg, lane: usize) -> u64 {
        let d = &self.l.dims;
        match sr {
            Sreg::Tid(i) => w.tid[i as usize][lane] as u64,
            Sreg::Ntid(i) => d.block[i as usize] as u64,
            Sreg::Ctaid(i) => mem.ctaid[i as usize] as u64,
            Sreg::Nctaid(i) => d.grid[i as usize] as u64,
            Sreg::LaneId => lane as u64,
            Sreg::WarpId => w.id as u64,
            Sreg::NWarpId => 64,
            Sreg::SmId => mem.smid as u64,
            Sreg::NSmId => self.l.sm_count as u64,
            Sreg::GridId => self.l.grid_id,
            Sreg::Clock => self.clock & 0xffff_ffff,
            Sreg::Clock64 | Sreg::GlobalTimer => self.clock,
            Sreg::LanemaskEq => 1u64 << lane,
            Sreg::LanemaskLe => (2u64 << lane) - 1,
            Sreg::LanemaskLt => (1u64 << lane) - 1,
            Sreg::LanemaskGe => !((1u64 << lane) - 1) & 0xffff_ffff,
            Sreg::LanemaskGt => !((2u64 << lane) - 1) & 0xffff_ffff,
            Sreg::DynamicSmemSize => d.dynamic_shared as u64,
            Sreg::TotalSmemSize => {
                (self.l.kernel.static_shared + d.dynamic_shared as u64).div_ceil(128) * 128
            }
            Sreg::AggrSmemSize => {
                self.l.reserved_shared_per_block as u64
                    + self.l.kernel.static_shared
                    + d.dynamic_shared as u64
            }
            Sreg::ReservedSmem(o) => reserved_base(self.l.kernel, &self.l.dims) + u64::from(o),
            Sreg::Zero => 0,
            Sreg::One => 1,
        }
    }

    /// The participants of a warp-collective executed by lanes `e` at `pc` with member mask
    /// `mask` (`None`: the legacy form without `.sync`, whose participants are `e`); see
    /// [`warp_ops::sync`].
    fn participants(
        &self,
        w: &Warp,
        mem: &BlockMem,
        mask: Option<Src>,
        e: u32,
        m: u32,
        pc: u32,
    ) -> Result<Participants, Fault> {
        let Some(mask) = mask else {
            return Ok(Participants::executing(e));
        };
        warp_ops::sync::of_masks(
            |l| self.val(w, mem, mask, l) as u32,
            e,
            m,
            w.live,
            w.waiting,
        )
        .map_err(|(kind, l)| (kind, pc, w.id * 32 + l as u32))
    }

    fn run_warp(&mut self, w: &mut Warp, mem: &mut BlockMem) -> Result<(), Fault> {
        let code = &self.l.kernel.code;
        self.warp = w.id;
        loop {
            let (pc, m) = w.select();
            if m == 0 {
                return Ok(());
            }
            let Some(inst) = code.get(pc as usize) else {
                // Fell off the end: exit.
                w.exit(m, m, pc);
                continue;
            };
            self.charge(w, pc, m)?;
            let e = match inst.guard {
                None => m,
                Some(p) => m & pred_mask(w, p),
            };
            // The instruction is counted once it has executed: one that faults (and so returns
            // early below) adds nothing to any counter.
            match &inst.op {
                Op::Alu {
                    f,
                    d,
                    a,
                    b,
                    c,
                    e: x,
                    w: wf,
                } => {
                    // Every lane function is total, so all 32 lanes are computed and only the
                    // active ones written back: a branch-free loop over operand slices, with the
                    // common shapes (registers first, immediates last) specialised.
                    let mut out = [0u64; 32];
                    let shape = if self.l.fast_paths {
                        (*a, *b, *c, *x)
                    } else {
                        // The general arm below handles every shape.
                        (Src::Pred(0), Src::Pred(0), Src::Pred(0), Src::Pred(0))
                    };
                    match shape {
                        // A lane function of one register with a warp form (the same bits).
                        (Src::Reg(ra), _, _, _) if wf.is_some() => {
                            if let Some(g) = wf {
                                g(w.reg(ra), &mut out);
                            }
                        }
                        (Src::Reg(ra), Src::Reg(rb), Src::Imm(cv), Src::Imm(xv)) => {
                            let (av, bv) = (w.reg(ra), w.reg(rb));
                            for l in 0..32 {
                                out[l] = f(av[l], bv[l], cv, xv);
                            }
                        }
                        (Src::Reg(ra), Src::Imm(bv), Src::Imm(cv), Src::Imm(xv)) => {
                            let av = w.reg(ra);
                            for l in 0..32 {
                                out[l] = f(av[l], bv, cv, xv);
                            }
                        }
                        (Src::Reg(ra), Src::Reg(rb), Src::Reg(rc), Src::Imm(xv)) => {
                            let (av, bv, cv) = (w.reg(ra), w.reg(rb), w.reg(rc));
                            for l in 0..32 {
                                out[l] = f(av[l], bv[l], cv[l], xv);
                            }
                        }
                        _ => {
                            let (mut ta, mut tb, mut tc, mut tx) =
                                ([0u64; 32], [0u64; 32], [0u64; 32], [0u64; 32]);
                            let av = self.lanes_of(w, mem, *a, &mut ta);
                            let bv = self.lanes_of(w, mem, *b, &mut tb);
                            let cv = self.lanes_of(w, mem, *c, &mut tc);
                            let xv = self.lanes_of(w, mem, *x, &mut tx);
                            for l in 0..32 {
                                out[l] = f(av[l], bv[l], cv[l], xv[l]);
                            }
                        }
                    }
                    let dst = w.reg_mut(*d);
                    if e == u32::MAX {
                        dst.copy_from_slice(&out);
                    } else {
                        for l in lanes(e) {
                            dst[l] = out[l];
                        }
                    }
                    w.advance(m, pc + 1);
                }
                Op::Carry {
                    f,
                    d,
                    a,
                    b,
                    c,
                    cin,
                    cout,
                    cc,
                } => {
                    for l in lanes(e) {
                        let ci = if *cin {
                            w.regs[*cc as usize * 32 + l]
                        } else {
                            0
                        };
                        let (v, co) = f(
                            self.val(w, mem, *a, l),
                            self.val(w, mem, *b, l),
                            self.val(w, mem, *c, l),
                            ci,
                        );
                        w.regs[*d as usize * 32 + l] = v;
                        if *cout {
                            w.regs[*cc as usize * 32 + l] = co;
                        }
                    }
                    w.advance(m, pc + 1);
                }
                Op::Cvt {
                    d,
                    a,
                    dst,
                    src,
                    rnd,
                    int_rnd,
                    sat,
                    ftz,
                } => {
                    for l in lanes(e) {
                        let v = cvt(
                            self.val(w, mem, *a, l),
                            *dst,
                            *src,
                            *rnd,
                            *int_rnd,
                            *sat,
                            *ftz,
                        );
                        w.regs[*d as usize * 32 + l] = v;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Setp {
                    cmp,
                    d,
                    d2,
                    a,
                    b,
                    bop,
                } => {
                    let mut t = 0u32;
                    for l in lanes(e) {
                        if cmp(self.val(w, mem, *a, l), self.val(w, mem, *b, l)) {
                            t |= 1 << l;
                        }
                    }
                    let mut f = e & !t;
                    if let Some((op, p)) = bop {
                        let c = pred_mask(w, *p);
                        let comb = |x: u32| match op {
                            BoolOp::And => x & c,
                            BoolOp::Or => x | c,
                            BoolOp::Xor => x ^ c,
                        };
                        let (t2, f2) = (comb(t) & e, comb(f) & e);
                        t = t2;
                        f = f2;
                    }
                    w.preds[*d as usize] = (w.preds[*d as usize] & !e) | t;
                    if let Some(d2) = d2 {
                        w.preds[*d2 as usize] = (w.preds[*d2 as usize] & !e) | f;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Set {
                    cmp,
                    d,
                    a,
                    b,
                    bop,
                    one,
                } => {
                    let c = bop.map(|(_, p)| pred_mask(w, p)).unwrap_or(0);
                    for l in lanes(e) {
                        let mut t = cmp(self.val(w, mem, *a, l), self.val(w, mem, *b, l));
                        if let Some((op, _)) = bop {
                            let cb = c >> l & 1 == 1;
                            t = match op {
                                BoolOp::And => t && cb,
                                BoolOp::Or => t || cb,
                                BoolOp::Xor => t != cb,
                            };
                        }
                        w.regs[*d as usize * 32 + l] = if t { *one } else { 0 };
                    }
                    w.advance(m, pc + 1);
                }
                Op::Selp { d, a, b, p } => {
                    let pm = pred_mask(w, *p);
                    for l in lanes(e) {
                        let v = if pm >> l & 1 == 1 {
                            self.val(w, mem, *a, l)
                        } else {
                            self.val(w, mem, *b, l)
                        };
                        w.regs[*d as usize * 32 + l] = v;
                    }
                    w.advance(m, pc + 1);
                }
                Op::PredOp { op, d, a, b } => {
                    let (x, y) = (pred_mask(w, *a), pred_mask(w, *b));
                    let v = match op {
                        PredLogic::And => x & y,
                        PredLogic::Or => x | y,
                        PredLogic::Xor => x ^ y,
                        PredLogic::Mov => x,
                    };
                    w.preds[*d as usize] = (w.preds[*d as usize] & !e) | (v & e);
                    w.advance(m, pc + 1);
                }
                Op::PredFromReg { d, a } => {
                    let mut v = 0u32;
                    for l in lanes(e) {
                        if self.val(w, mem, *a, l) != 0 {
                            v |= 1 << l;
                        }
                    }
                    w.preds[*d as usize] = (w.preds[*d as usize] & !e) | v;
                    w.advance(m, pc + 1);
                }
                Op::Cvta {
                    d,
                    a,
                    space,
                    to_generic,
                } => {
                    for l in lanes(e) {
                        let v = self.val(w, mem, *a, l);
                        w.regs[*d as usize * 32 + l] = if *to_generic {
                            space::to_generic(*space, v)
                        } else {
                            space::from_generic(*space, v)
                        };
                    }
                    w.advance(m, pc + 1);
                }
                Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } => {
                    self.memory(w, mem, inst, pc, e)?;
                    w.advance(m, pc + 1);
                }
                Op::Bra { target } => {
                    w.branch(m, e, pc, *target);
                }
                Op::Exit => {
                    w.exit(m, e, pc);
                }
                Op::Bar { id, count, arrive } => {
                    if e != 0 {
                        let lane0 = e.trailing_zeros() as usize;
                        let expected = match count {
                            Some(c) => self.val(w, mem, *c, lane0) as u32,
                            None => 0,
                        };
                        let id = self.val(w, mem, *id, lane0) as u32;
                        self.bar_arrive(w, mem, pc, m, e, id, expected, *arrive)?;
                    }
                    w.advance(m, pc + 1);
                }
                Op::BarRed { id, p, .. } => {
                    let lane0 = e.trailing_zeros() as usize;
                    let id = if e != 0 {
                        self.val(w, mem, *id, lane0) as u32
                    } else {
                        0
                    };
                    if w.converged && e != m {
                        w.lane_pc = [pc; 32];
                        w.converged = false;
                    }
                    w.red_pred |= pred_mask(w, *p) & e;
                    w.waiting |= e;
                    w.bar_pc = pc;
                    w.bar_id = id;
                    w.advance(m, pc + 1);
                }
                Op::Shfl {
                    mode,
                    d,
                    p,
                    a,
                    b,
                    c,
                    mask,
                } => {
                    // The mask selects who synchronises; the data comes from the source lane
                    // whatever the mask (PTX ISA §9.7.9.6).
                    self.participants(w, mem, *mask, e, m, pc)?;
                    let av: [u32; 32] = std::array::from_fn(|l| self.val(w, mem, *a, l) as u32);
                    let (mut bv, mut cv) = ([0u32; 32], [0u32; 32]);
                    for l in lanes(e) {
                        bv[l] = self.val(w, mem, *b, l) as u32;
                        cv[l] = self.val(w, mem, *c, l) as u32;
                    }
                    let (out, pv) = warp_ops::shfl::exchange(*mode, e, &av, &bv, &cv);
                    for l in lanes(e) {
                        w.regs[*d as usize * 32 + l] = out[l] as u64;
                    }
                    if let Some(p) = p {
                        w.preds[*p as usize] = (w.preds[*p as usize] & !e) | pv;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Vote { mode, d, a, mask } => {
                    let part = self.participants(w, mem, *mask, e, m, pc)?;
                    let v = warp_ops::vote::vote(*mode, pred_mask(w, *a), &part, e);
                    match (mode, d) {
                        (VoteMode::Ballot, Src::Reg(r)) => {
                            for l in lanes(e) {
                                w.regs[*r as usize * 32 + l] = v.ballot[l] as u64;
                            }
                        }
                        (_, Src::Pred(p)) => {
                            w.preds[*p as usize] = (w.preds[*p as usize] & !e) | v.pred;
                        }
                        _ => {}
                    }
                    w.advance(m, pc + 1);
                }
                Op::Match {
                    all,
                    d,
                    p,
                    a,
                    wide,
                    mask,
                } => {
                    let part = self.participants(w, mem, Some(*mask), e, m, pc)?;
                    let vals: [u64; 32] = std::array::from_fn(|l| {
                        let v = self.val(w, mem, *a, l);
                        if *wide {
                            v
                        } else {
                            v & 0xffff_ffff
                        }
                    });
                    let r = warp_ops::match_::match_(&vals, &part, e);
                    let out = if *all { &r.all } else { &r.any };
                    for l in lanes(e) {
                        w.regs[*d as usize * 32 + l] = out[l] as u64;
                    }
                    if let Some(p) = p {
                        w.preds[*p as usize] = (w.preds[*p as usize] & !e) | r.same;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Activemask { d } => {
                    for l in lanes(e) {
                        w.regs[*d as usize * 32 + l] = m as u64;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Redux {
                    op,
                    signed,
                    d,
                    a,
                    mask,
                } => {
                    let part = self.participants(w, mem, Some(*mask), e, m, pc)?;
                    let mut vals = [0u32; 32];
                    for l in lanes(e) {
                        vals[l] = self.val(w, mem, *a, l) as u32;
                    }
                    let out = warp_ops::redux::redux(*op, *signed, &vals, &part, e);
                    for l in lanes(e) {
                        w.regs[*d as usize * 32 + l] = out[l] as u64;
                    }
                    w.advance(m, pc + 1);
                }
                Op::Vprintf { format, args, ret } => {
                    for l in lanes(e) {
                        let r = self.vprintf(w, mem, l, *format, *args);
                        let r = r.map_err(|detail| {
                            (FaultKind::Unsupported { detail }, pc, w.id * 32 + l as u32)
                        })?;
                        if let Some(slot) = ret {
                            let b = self
                                .bytes_mut(mem, w, l, Space::Param, *slot, 4)
                                .map_err(|k| (k, pc, w.id * 32 + l as u32))?;
                            b.copy_from_slice(&r.to_le_bytes());
                        }
                    }
                    w.advance(m, pc + 1);
                }
                Op::AssertFail { args } => {
                    if let Some(l) = lanes(e).next() {
                        let kind = self.assert_fail(w, mem, l, *args);
                        return Err((kind, pc, w.id * 32 + l as u32));
                    }
                    w.advance(m, pc + 1);
                }
                Op::Trap => {
                    if e != 0 {
                        return Err((FaultKind::Trap, pc, w.id * 32 + e.trailing_zeros()));
                    }
                    w.advance(m, pc + 1);
                }
                Op::WarpSync { mask } => {
                    self.participants(w, mem, Some(*mask), e, m, pc)?;
                    w.advance(m, pc + 1);
                }
                Op::Nop => w.advance(m, pc + 1),
                Op::Mbarrier {
                    op,
                    d,
                    addr,
                    space,
                    b,
                    copy,
                } => {
                    self.mbarrier(w, mem, *op, *d, *addr, *space, *b, *copy, pc, e)?;
                    w.advance(m, pc + 1);
                }
                Op::CpAsyncStore { s, addr } => {
                    self.cp_async_queue(w, mem, s, *addr, e);
                    w.advance(m, pc + 1);
                }
                Op::CpAsyncCommit => {
                    Self::cp_async_commit(w, e);
                    w.advance(m, pc + 1);
                }
                Op::CpAsyncWait { n, all } => {
                    self.cp_async_land(w, mem, *n, *all, e, pc)?;
                    w.advance(m, pc + 1);
                }
                Op::Yield => {
                    // Not an instruction: nothing is counted.
                    self.block_budget += 1;
                    self.clock -= 1;
                    w.advance(m, pc + 1);
                    w.yielded = true;
                    return Ok(());
                }
                Op::Tex(t) => {
                    self.tex(w, mem, t, e, pc)?;
                    w.advance(m, pc + 1);
                }
            }
            self.retire(pc, m, e);
        }
    }

    /// Loads, stores and atomics: functional effect plus one request per state space.
    fn memory(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        inst: &Inst,
        pc: u32,
        e: u32,
    ) -> Result<(), Fault> {
        let addr = match &inst.op {
            Op::Ld { addr, .. } | Op::St { addr, .. } | Op::Atom { addr, .. } => *addr,
            _ => return Ok(()),
        };
        let off = addr.offset as u64;
        let mut addrs = [off; 32];
        if let Some(r) = addr.base {
            for (a, v) in addrs.iter_mut().zip(w.reg(r)) {
                *a = v.wrapping_add(off);
            }
        }
        // The global load of a PTX `cp.async` (the lowering puts its `CpAsyncStore` right
        // after it) is what SASS `LDGSTS` is: counted in its class ([`MemRequest::ldgsts`]).
        let next = self.l.kernel.code.get(pc as usize + 1).map(|i| &i.op);
        if !matches!(next, Some(Op::CpAsyncStore { .. })) {
            return self.memory_at(w, mem, inst, pc, e, addrs);
        }
        self.cur_ldgsts = true;
        let r = self.memory_at(w, mem, inst, pc, e, addrs);
        self.cur_ldgsts = false;
        r
    }

    /// The access of a load, store or atomic whose lanes `e` address `addrs`: the functional
    /// effect, then one request per state space (shared by the PTX and SASS paths).
    fn memory_at(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        inst: &Inst,
        pc: u32,
        e: u32,
        mut addrs: [u64; 32],
    ) -> Result<(), Fault> {
        let (sel, ety, n, kind, cache) = match &inst.op {
            Op::Ld {
                space,
                ty,
                d,
                cache,
                ..
            } => (*space, *ty, d.len() as u32, AccessKind::Load, *cache),
            Op::St {
                space,
                ty,
                s,
                cache,
                ..
            } => (*space, *ty, s.len() as u32, AccessKind::Store, *cache),
            Op::Atom {
                space, ty, kind, ..
            } => (*space, *ty, 1, *kind, Default::default()),
            _ => return Ok(()),
        };
        // A reduction ptxas performs from one elected lane (`Op::Atom::elected`) requests that
        // lane's sector only.
        let elected = matches!(inst.op, Op::Atom { elected: true, .. });
        // A fully predicated-off instruction requests nothing; Nsight Compute does not count it
        // either (tests/hw/h200/hw/ncu/k_global.csv, launch gl_pred_off: 0 instructions).
        if e == 0 {
            return Ok(());
        }
        self.cur_expect = self.expect.get(pc as usize).copied().unwrap_or(u32::MAX);
        self.cur_pc = pc;
        let esize = ety.size();
        let width = esize * n;
        if let SpaceSel::Space(s @ (Space::Shared | Space::Global | Space::Const | Space::Param)) =
            sel
        {
            if self.l.fast_paths
                && self.fast_scalar(w, mem, inst, s, &addrs, e, esize, pc, cache, kind)
            {
                return Ok(());
            }
        }
        // The request is emitted only after every lane has accessed memory without a fault, so
        // an instruction that faults is not counted.
        match sel {
            SpaceSel::Space(s) => {
                let mut hint = usize::MAX;
                let mut e = e;
                for l in lanes(e) {
                    if let Err(k) =
                        self.lane_access(w, mem, inst, l, s, addrs[l], esize, width, &mut hint)
                    {
                        let k = k.with_access(kind_name(kind));
                        if !self.continue_after(&k, pc, w, l) {
                            return Err((k, pc, w.id * 32 + l as u32));
                        }
                        e &= !(1 << l);
                    }
                }
                if s != Space::Param && e != 0 {
                    let mask = if elected { e & e.wrapping_neg() } else { e };
                    self.request(s, kind, width, addrs, mask, pc, cache);
                }
            }
            SpaceSel::Generic => {
                let mut spaces = [Space::Global; 32];
                let mut seen: u8 = 0;
                for l in lanes(e) {
                    let (sp, a) = space::resolve_generic(addrs[l]);
                    addrs[l] = a;
                    spaces[l] = sp;
                    seen |= 1 << sp as u8;
                }
                let mut hint = usize::MAX;
                let mut e = e;
                for l in lanes(e) {
                    if let Err(k) = self.lane_access(
                        w, mem, inst, l, spaces[l], addrs[l], esize, width, &mut hint,
                    ) {
                        let k = k.with_access(kind_name(kind));
                        if !self.continue_after(&k, pc, w, l) {
                            return Err((k, pc, w.id * 32 + l as u32));
                        }
                        e &= !(1 << l);
                    }
                }
                for sp in [Space::Global, Space::Shared, Space::Local, Space::Const] {
                    if seen >> sp as u8 & 1 == 0 {
                        continue;
                    }
                    let mask = lanes(e)
                        .filter(|&l| spaces[l] == sp)
                        .fold(0u32, |m, l| m | 1 << l);
                    self.request(sp, kind, width, addrs, mask, pc, cache);
                }
            }
        }
        Ok(())
    }

    /// Asks the observer whether to go on after lane `l`'s access faulted with `k`.
    #[cold]
    fn continue_after(&mut self, k: &FaultKind, pc: u32, w: &Warp, l: usize) -> bool {
        let thread = [w.tid[0][l], w.tid[1][l], w.tid[2][l]];
        self.obs.access_fault(k, pc, self.ctaid, thread)
    }

    /// The compare-and-swap form of the atomic at `pc` ([`crate::mem::request::Cas`]).
    fn cas_form(&self, kind: AccessKind, pc: u32) -> crate::mem::request::Cas {
        use crate::mem::request::Cas;
        if kind != AccessKind::Atomic {
            return Cas::No;
        }
        match self.l.kernel.code.get(pc as usize).map(|i| &i.op) {
            Some(Op::Atom {
                op: AtomOp::Cas, ..
            }) => {
                if sass::is_spin(self.l.kernel.sass.as_deref(), pc) {
                    Cas::Spin
                } else {
                    Cas::Swap
                }
            }
            _ => Cas::No,
        }
    }

    /// Tells the observer about one warp-level access.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn request(
        &mut self,
        space: Space,
        kind: AccessKind,
        width: u32,
        addrs: [u64; 32],
        mask: u32,
        pc: u32,
        cache_op: crate::mem::request::CacheOp,
    ) {
        let cas = self.cas_form(kind, pc);
        self.obs.mem(&MemRequest {
            warp: self.warp,
            space,
            kind,
            width,
            addrs,
            mask,
            pc,
            cache_op,
            cas,
            ldgsts: self.cur_ldgsts,
        });
    }

    /// Scalar loads and stores of shared or global memory whose every lane is in bounds and
    /// aligned: the common case, done without per-lane dispatch. Returns false (having done
    /// nothing) when the general path must run, which also reports faults.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn fast_scalar(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        inst: &Inst,
        s: Space,
        addrs: &[u64; 32],
        e: u32,
        esize: u32,
        pc: u32,
        cache: crate::mem::request::CacheOp,
        kind: AccessKind,
    ) -> bool {
        if !matches!(esize, 1 | 2 | 4 | 8) {
            return false;
        }
        let n = esize as u64;
        // Check every lane first: bounds and alignment.
        let mut hint = usize::MAX;
        let (base, len) = match s {
            Space::Shared => (0u64, mem.shared.len() as u64),
            Space::Const => (0u64, self.l.consts.len() as u64),
            Space::Param => {
                if addrs[e.trailing_zeros() as usize] & PARAM_FRAME_BIT != 0 {
                    return false;
                }
                (0u64, self.l.params.len() as u64)
            }
            _ => {
                let a0 = addrs[e.trailing_zeros() as usize];
                match self.global_index(a0, esize, &mut hint) {
                    Ok(i) => {
                        let al = self.l.global.alloc(i);
                        (al.base, al.data.len() as u64)
                    }
                    Err(_) => return false,
                }
            }
        };
        if !in_bounds(addrs, e, base, len, n, n - 1) {
            return false;
        }
        match &inst.op {
            Op::Ld {
                d, ty, dst_bytes, ..
            } if d.len() > 1
                && d.iter().all(Option::is_some)
                && !(ty.is_signed() && esize < *dst_bytes as u32) =>
            {
                // Vector load: every lane in bounds and aligned to the whole vector.
                let width = esize as u64 * d.len() as u64;
                let align = width.min(16) - 1;
                if !in_bounds(addrs, e, base, len, width, align) {
                    return false;
                }
                if s != Space::Param {
                    self.request(s, kind, width as u32, *addrs, e, pc, cache);
                }
                let data: &[u8] = match s {
                    Space::Shared => &mem.shared,
                    Space::Const => self.l.consts,
                    Space::Param => self.l.params,
                    _ => &self.l.global.alloc(hint).data,
                };
                for (k, r) in d.iter().enumerate() {
                    let Some(r) = r else { continue };
                    let regs = &mut w.regs[*r as usize * 32..*r as usize * 32 + 32];
                    let at = base.wrapping_sub(k as u64 * esize as u64);
                    gather(data, at, addrs, e, esize, regs);
                }
                true
            }
            Op::Ld {
                d, ty, dst_bytes, ..
            } if d.len() == 1 && !(ty.is_signed() && esize < *dst_bytes as u32) => {
                let Some(r) = d[0] else { return false };
                if s != Space::Param {
                    self.request(s, kind, esize, *addrs, e, pc, cache);
                }
                let data: &[u8] = match s {
                    Space::Shared => &mem.shared,
                    Space::Const => self.l.consts,
                    Space::Param => self.l.params,
                    _ => &self.l.global.alloc(hint).data,
                };
                let regs = &mut w.regs[r as usize * 32..r as usize * 32 + 32];
                gather(data, base, addrs, e, esize, regs);
                true
            }
            Op::St { s: srcs, .. }
                if srcs.len() == 1 && matches!(s, Space::Shared | Space::Global) =>
            {
                self.request(s, kind, esize, *addrs, e, pc, cache);
                let mut tmp = [0u64; 32];
                let vals = self.lanes_of(w, mem, srcs[0], &mut tmp);
                let mut v = [0u64; 32];
                v.copy_from_slice(vals);
                let data: &mut [u8] = match s {
                    Space::Shared => &mut mem.shared,
                    _ => &mut self.l.global.alloc_mut(hint).data,
                };
                scatter(data, base, addrs, e, esize, &v);
                if O::STORE_BYTES {
                    for l in lanes(e) {
                        let b = v[l].to_le_bytes();
                        let warp = self.warp;
                        self.obs
                            .store_bytes(s, pc, warp, l as u32, addrs[l], &b[..esize as usize]);
                    }
                }
                true
            }
            _ => false,
        }
    }

    /// One lane's load, store or atomic at address `a` of space `s`. `hint` remembers the
    /// global allocation the previous lane used.
    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn lane_access(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        inst: &Inst,
        l: usize,
        s: Space,
        a: u64,
        esize: u32,
        width: u32,
        hint: &mut usize,
    ) -> Result<(), FaultKind> {
        // PTX access widths are powers of two (1 to 16 bytes, v4.f64 aligned to 16).
        if width > 1 && a & (width.min(16) as u64 - 1) != 0 {
            return Err(FaultKind::Misaligned {
                access: "read",
                space: s.ptx_name(),
                addr: a,
                size: width,
            });
        }
        match &inst.op {
            Op::Ld {
                ty, d, dst_bytes, ..
            } => {
                let bytes: &[u8] = if s == Space::Global {
                    self.global_slice(a, width, hint)?
                } else {
                    self.bytes(mem, w, l, s, a, width)?
                };
                let signed = ty.is_signed() && esize < *dst_bytes as u32;
                for (k, r) in d.iter().enumerate() {
                    if let Some(r) = r {
                        let raw = read_le(&bytes[k * esize as usize..], esize.min(8) as usize);
                        let v = if signed {
                            sign_extend(raw, esize, *dst_bytes as u32)
                        } else {
                            raw
                        };
                        w.regs[*r as usize * 32 + l] = v;
                    }
                }
            }
            Op::St { s: srcs, .. } => {
                let mut buf = [0u8; 64];
                for (k, src) in srcs.iter().enumerate() {
                    let v = self.val(w, mem, *src, l);
                    write_le(&mut buf[k * esize as usize..], esize.min(8) as usize, v);
                }
                let dst = if s == Space::Global {
                    self.global_slice_mut(a, width, hint)?
                } else {
                    self.bytes_mut(mem, w, l, s, a, width)?
                };
                dst.copy_from_slice(&buf[..width as usize]);
                if O::STORE_BYTES {
                    let (warp, pc) = (self.warp, self.cur_pc);
                    self.obs
                        .store_bytes(s, pc, warp, l as u32, a, &buf[..width as usize]);
                }
            }
            Op::Atom {
                op, ty, d, b, c, ..
            } => {
                let bv = self.val(w, mem, *b, l);
                let cv = self.val(w, mem, *c, l);
                let (op, ty) = (*op, *ty);
                let cell = if s == Space::Global {
                    self.global_slice_mut(a, width, hint)?
                } else {
                    self.bytes_mut(mem, w, l, s, a, width)?
                };
                let old = read_le(cell, esize as usize);
                write_le(cell, esize as usize, atom_apply(op, ty, old, bv, cv));
                if let Some(d) = d {
                    w.regs[*d as usize * 32 + l] = old;
                }
            }
            _ => {}
        }
        Ok(())
    }

    /// Global bytes `[a, a+n)`, trying the allocation of the previous lane first.
    #[inline(always)]
    fn global_slice(&mut self, a: u64, n: u32, hint: &mut usize) -> Result<&[u8], FaultKind> {
        let i = self.global_index(a, n, hint)?;
        let al = self.l.global.alloc(i);
        let o = (a - al.base) as usize;
        Ok(&al.data[o..o + n as usize])
    }

    #[inline(always)]
    fn global_slice_mut(
        &mut self,
        a: u64,
        n: u32,
        hint: &mut usize,
    ) -> Result<&mut [u8], FaultKind> {
        let i = self.global_index(a, n, hint)?;
        let al = self.l.global.alloc_mut(i);
        let o = (a - al.base) as usize;
        Ok(&mut al.data[o..o + n as usize])
    }

    #[inline(always)]
    fn global_index(&self, a: u64, n: u32, hint: &mut usize) -> Result<usize, FaultKind> {
        if self.cur_expect != u32::MAX {
            // The pointer's own allocation, exactly: landing in a neighbour is a fault too.
            let i = self.cur_expect as usize;
            let al = self.l.global.alloc(i);
            let (len, n) = (al.data.len() as u64, n as u64);
            if a >= al.base && n <= len && a - al.base <= len - n {
                *hint = i;
                return Ok(i);
            }
            return Err(self.oob(Space::Global, a, n as u32));
        }
        if *hint != usize::MAX {
            let al = self.l.global.alloc(*hint);
            let (len, n) = (al.data.len() as u64, n as u64);
            if a >= al.base && n <= len && a - al.base <= len - n {
                return Ok(*hint);
            }
        }
        match self.l.global.find(a, n as u64) {
            Some(i) => {
                *hint = i;
                Ok(i)
            }
            None => Err(self.oob(Space::Global, a, n)),
        }
    }

    fn oob(&self, s: Space, a: u64, size: u32) -> FaultKind {
        let hint = match s {
            Space::Global => {
                let expected = (self.cur_expect != u32::MAX).then_some(self.cur_expect as usize);
                crate::check::memcheck::describe_global(self.l.global, expected, a, size)
            }
            Space::Shared => {
                let k = self.l.kernel;
                let total = (k.dynamic_shared_offset as u64)
                    .saturating_add(self.l.dims.dynamic_shared as u64)
                    .max(k.static_shared);
                crate::check::memcheck::describe_window("the block's shared memory", total, a, size)
            }
            Space::Local => crate::check::memcheck::describe_window(
                "the thread's local frame",
                self.l.kernel.local_bytes,
                a,
                size,
            ),
            _ => String::new(),
        };
        FaultKind::OutOfBounds {
            access: "read",
            space: s.ptx_name(),
            addr: a,
            size,
            hint,
        }
    }

    fn bytes<'m>(
        &'m self,
        mem: &'m BlockMem,
        w: &Warp,
        l: usize,
        s: Space,
        a: u64,
        n: u32,
    ) -> Result<&'m [u8], FaultKind> {
        let n64 = n as u64;
        let r: Option<&[u8]> = match s {
            Space::Global => self.l.global.slice(a, n64),
            Space::Shared => mem
                .shared
                .get(a as usize..(a as usize).saturating_add(n as usize)),
            Space::Local => local_range(mem, w, l, a, n).map(|r| &mem.local[r]),
            Space::Const => self
                .l
                .consts
                .get(a as usize..(a as usize).saturating_add(n as usize)),
            Space::Param => {
                if a & PARAM_FRAME_BIT != 0 {
                    local_range(mem, w, l, a & !PARAM_FRAME_BIT, n).map(|r| &mem.local[r])
                } else {
                    self.l
                        .params
                        .get(a as usize..(a as usize).saturating_add(n as usize))
                }
            }
        };
        r.ok_or_else(|| self.oob(s, a, n))
    }

    fn bytes_mut<'m>(
        &'m mut self,
        mem: &'m mut BlockMem,
        w: &Warp,
        l: usize,
        s: Space,
        a: u64,
        n: u32,
    ) -> Result<&'m mut [u8], FaultKind> {
        let n64 = n as u64;
        let ok = match s {
            Space::Global => self.l.global.find(a, n64).is_some(),
            Space::Shared => (a as usize)
                .checked_add(n as usize)
                .is_some_and(|e| e <= mem.shared.len()),
            Space::Local => local_range(mem, w, l, a, n).is_some(),
            Space::Param => {
                a & PARAM_FRAME_BIT != 0
                    && local_range(mem, w, l, a & !PARAM_FRAME_BIT, n).is_some()
            }
            Space::Const => false,
        };
        if !ok {
            if s == Space::Const || s == Space::Param {
                return Err(FaultKind::Unsupported {
                    detail: format!("store to read-only .{} memory at {a:#x}", s.ptx_name()),
                });
            }
            return Err(self.oob(s, a, n));
        }
        Ok(match s {
            Space::Global => self.l.global.slice_mut(a, n64).unwrap_or_default(),
            Space::Shared => &mut mem.shared[a as usize..a as usize + n as usize],
            Space::Local => {
                let r = local_range(mem, w, l, a, n).unwrap_or(0..0);
                &mut mem.local[r]
            }
            _ => {
                let r = local_range(mem, w, l, a & !PARAM_FRAME_BIT, n).unwrap_or(0..0);
                &mut mem.local[r]
            }
        })
    }
}

/// The device-runtime calls: `vprintf` and `__assertfail`.
impl<O: Observer> Ctx<'_, '_, O> {
    /// An 8- or 4-byte value of lane `l`'s call slot `slot`.
    fn slot(&self, w: &Warp, mem: &BlockMem, l: usize, slot: u64, n: u32) -> Result<u64, String> {
        let b = self
            .bytes(mem, w, l, Space::Param, slot, n)
            .map_err(|k| k.to_string())?;
        Ok(read_le(b, n as usize))
    }

    /// The NUL-terminated string at generic address `addr` (at most 64 KiB).
    fn c_string(&self, w: &Warp, mem: &BlockMem, l: usize, addr: u64) -> Result<Vec<u8>, String> {
        const MAX: u64 = 1 << 16;
        let (sp, a) = space::resolve_generic(addr);
        let mut out = Vec::new();
        for i in 0..MAX {
            let b = self
                .bytes(mem, w, l, sp, a + i, 1)
                .map_err(|k| format!("reading a string: {k}"))?;
            if b[0] == 0 {
                return Ok(out);
            }
            out.push(b[0]);
        }
        Err(format!(
            "string at {addr:#x} has no NUL in its first {MAX} bytes"
        ))
    }

    /// One lane's `vprintf`: appends its output to the launch's and returns `vprintf`'s result.
    fn vprintf(
        &mut self,
        w: &Warp,
        mem: &BlockMem,
        l: usize,
        format: u64,
        args: u64,
    ) -> Result<i32, String> {
        let fmt_addr = self.slot(w, mem, l, format, 8)?;
        let args_addr = self.slot(w, mem, l, args, 8)?;
        let fmt = self.c_string(w, mem, l, fmt_addr)?;
        struct LaneArgs<'c, 'a, 'b, 'm, O: Observer> {
            ctx: &'c Ctx<'a, 'b, O>,
            w: &'m Warp,
            mem: &'m BlockMem,
            l: usize,
            base: u64,
        }
        impl<O: Observer> printf::Args for LaneArgs<'_, '_, '_, '_, O> {
            fn read(&mut self, offset: u64, size: u64) -> Result<u64, String> {
                if self.base == 0 {
                    return Err("printf has more conversions than arguments".to_string());
                }
                let (sp, a) = space::resolve_generic(self.base + offset);
                let b = self
                    .ctx
                    .bytes(self.mem, self.w, self.l, sp, a, size as u32)
                    .map_err(|k| format!("reading printf arguments: {k}"))?;
                Ok(read_le(b, size as usize))
            }
            fn string(&mut self, addr: u64) -> Result<Vec<u8>, String> {
                self.ctx.c_string(self.w, self.mem, self.l, addr)
            }
        }
        let mut lane_args = LaneArgs {
            ctx: self,
            w,
            mem,
            l,
            base: args_addr,
        };
        let (text, n) = printf::format(&fmt, &mut lane_args)
            .map_err(|e| format!("printf(\"{}\"): {e}", String::from_utf8_lossy(&fmt)))?;
        if self.stats.printf.len() + text.len() > printf::PRINTF_LIMIT {
            self.stats.printf_dropped += 1;
        } else {
            self.stats.printf.push_str(&String::from_utf8_lossy(&text));
        }
        Ok(n)
    }

    /// The fault a failed `assert` raises, with the message, file, line and function that
    /// `__assertfail` was given.
    fn assert_fail(&self, w: &Warp, mem: &BlockMem, l: usize, args: [u64; 4]) -> FaultKind {
        let text = |slot: u64| -> String {
            self.slot(w, mem, l, slot, 8)
                .and_then(|a| self.c_string(w, mem, l, a))
                .map(|b| String::from_utf8_lossy(&b).into_owned())
                .unwrap_or_else(|e| format!("<{e}>"))
        };
        FaultKind::AssertFailed {
            message: text(args[0]),
            file: text(args[1]),
            line: self.slot(w, mem, l, args[2], 4).unwrap_or(0) as u32,
            function: text(args[3]),
        }
    }
}

fn local_range(
    mem: &BlockMem,
    w: &Warp,
    l: usize,
    a: u64,
    n: u32,
) -> Option<std::ops::Range<usize>> {
    let end = a.checked_add(n as u64)?;
    if end > mem.local_bytes as u64 {
        return None;
    }
    let base = (w.id as usize * 32 + l) * mem.local_bytes;
    Some(base + a as usize..base + end as usize)
}

/// The new value of an atomic's memory word (PTX ISA 9.7.13.5).
fn atom_apply(op: AtomOp, ty: ScalarType, old: u64, b: u64, c: u64) -> u64 {
    let bits = ty.bits();
    let mask = if bits >= 64 { !0 } else { (1u64 << bits) - 1 };
    let signed = ty.is_signed();
    let sx = |v: u64| -> i64 { ((v << (64 - bits)) as i64) >> (64 - bits) };
    let r = match op {
        AtomOp::Add => old.wrapping_add(b),
        AtomOp::FAdd => match ty {
            // atom.add.f32 rounds to nearest even and flushes subnormals (PTX ISA 9.7.13.5).
            ScalarType::F32 => {
                let f = |x: u64| {
                    let v = f32::from_bits(x as u32);
                    if v.is_subnormal() {
                        0.0f32.copysign(v)
                    } else {
                        v
                    }
                };
                let s = f(old) + f(b);
                let s = if s.is_subnormal() {
                    0.0f32.copysign(s)
                } else {
                    s
                };
                s.to_bits() as u64
            }
            ScalarType::F64 => (f64::from_bits(old) + f64::from_bits(b)).to_bits(),
            ScalarType::F16 => (half::f16::from_f64(
                half::f16::from_bits(old as u16).to_f64() + half::f16::from_bits(b as u16).to_f64(),
            ))
            .to_bits() as u64,
            _ => old,
        },
        AtomOp::Min => {
            if signed {
                sx(old).min(sx(b)) as u64
            } else {
                (old & mask).min(b & mask)
            }
        }
        AtomOp::Max => {
            if signed {
                sx(old).max(sx(b)) as u64
            } else {
                (old & mask).max(b & mask)
            }
        }
        AtomOp::Inc => {
            if (old & mask) >= (b & mask) {
                0
            } else {
                old + 1
            }
        }
        AtomOp::Dec => {
            if (old & mask) == 0 || (old & mask) > (b & mask) {
                b
            } else {
                old - 1
            }
        }
        AtomOp::Cas => {
            if (old & mask) == (b & mask) {
                c
            } else {
                old
            }
        }
        AtomOp::Exch => b,
        AtomOp::And => old & b,
        AtomOp::Or => old | b,
        AtomOp::Xor => old ^ b,
    };
    r & mask
}

#[cfg(test)]
mod tests {
    //! Bounds arithmetic at the edges of an allocation and of the address space. These run in
    //! the debug build of `cargo test`, where an overflowing subtraction panics.

    use crate::exec::simt::{LaunchDims, NoObserver};
    use crate::gpu::config::H200;
    use crate::runtime::{Device, KernelArg, LaunchOptions, RuntimeError};

    /// `ld.global.u32 [p + 4 * tid]` with `p` a `len`-byte allocation, run on 64 threads.
    const LOAD: &str = "
.version 8.0
.target sm_90
.address_size 64
.visible .entry ld(.param .u64 ld_param_0, .param .u64 ld_param_1)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<6>;
	ld.param.u64 	%rd1, [ld_param_0];
	ld.param.u64 	%rd2, [ld_param_1];
	mov.u32 	%r1, %tid.x;
	mul.wide.u32 	%rd3, %r1, 4;
	add.s64 	%rd4, %rd1, %rd3;
	ld.global.u32 	%r2, [%rd4];
	add.s64 	%rd5, %rd2, %rd3;
	st.global.u32 	[%rd5], %r2;
	ret;
}
";

    fn load(len: u64, fast_paths: bool) -> Result<(), RuntimeError> {
        let mut dev = Device::new(&H200);
        dev.load_ptx(LOAD, "ld.ptx")?;
        let src = dev.malloc(len, "src");
        let dst = dev.malloc(256, "dst");
        let opts = LaunchOptions {
            fast_paths,
            ..LaunchOptions::default()
        };
        let dims = LaunchDims {
            grid: [1, 1, 1],
            block: [64, 1, 1],
            dynamic_shared: 0,
        };
        let args = [KernelArg::U64(src), KernelArg::U64(dst)];
        dev.launch(
            "ld",
            "ld",
            dims,
            &args,
            opts,
            &mut NoObserver,
            &mut |_, _| {},
        )
        .map(|_| ())
    }

    #[test]
    fn an_access_straddling_the_end_is_reported_as_such() {
        for fast in [true, false] {
            // 254 bytes: thread 63 reads bytes 252..256, two of them past the end.
            let msg = load(254, fast).expect_err("straddles").to_string();
            assert!(
                msg.contains("straddles the end of allocation `src` at 0x")
                    && msg.contains("of 254 bytes (at offset 252)"),
                "{msg}"
            );
            assert!(
                msg.contains("Invalid __global__ read of size 4 bytes"),
                "{msg}"
            );
            assert!(msg.contains("thread (63,0,0)"), "{msg}");
            // 252 bytes: thread 63 reads bytes 252..256, all past the end (the first byte
            // past the end is 1 byte after it, as compute-sanitizer counts).
            let msg = load(252, fast).expect_err("past the end").to_string();
            assert!(
                msg.contains("1 bytes after the end of allocation `src` at 0x")
                    && msg.contains("of 252 bytes"),
                "{msg}"
            );
            load(256, fast).expect("in bounds");
        }
    }

    #[test]
    fn a_shared_address_at_the_top_of_the_address_space_faults() {
        let ptx = "
.version 8.0
.target sm_90
.address_size 64
.visible .entry wild()
{
	.shared .align 4 .b8 	sh[128];
	.reg .b32 	%r<2>;
	.reg .b64 	%rd<2>;
	mov.u64 	%rd1, 0xFFFFFFFFFFFFFFFC;
	ld.shared.u32 	%r1, [%rd1];
	ret;
}
";
        for fast in [true, false] {
            let mut dev = Device::new(&H200);
            dev.load_ptx(ptx, "wild.ptx").unwrap();
            let opts = LaunchOptions {
                fast_paths: fast,
                ..LaunchOptions::default()
            };
            let dims = LaunchDims {
                grid: [1, 1, 1],
                block: [32, 1, 1],
                dynamic_shared: 0,
            };
            let e = dev
                .launch(
                    "wild",
                    "wild",
                    dims,
                    &[],
                    opts,
                    &mut NoObserver,
                    &mut |_, _| {},
                )
                .expect_err("out of bounds");
            let msg = e.to_string();
            assert!(
                msg.contains("Invalid __shared__ read of size 4 bytes: out of bounds"),
                "{msg}"
            );
        }
    }
}
