//! The SASS instruction set on the one SIMT core: the per-instruction semantics of
//! [`crate::ir::sass::SOp`]. Blocks, warps, the min-PC lane schedule, barriers, budgets, faults
//! and every memory access (through [`Ctx::memory_at`], the PTX path's own) are the parent
//! module's; this file only says what each SASS operation computes.
//!
//! Registers hold 32-bit values (zero-extended in the `u64` slots); 64-bit operands are
//! register pairs, low word first. Uniform registers and predicates are written in every lane
//! with the value of the first executing lane (the uniform datapath runs once per warp).

use super::*;
use crate::exec::sass_alu::lut3;
use crate::ir::sass::{
    Cmp, Opnd, PIn, PLogic, SInst, SOp, SassCode, SpecialReg, Src as SSrc, PSINK,
};

/// The shared window's reserved first kilobyte (see [`crate::sass`]).
const SHARED_RESERVED: u64 = 0x400;

/// A generic access (`LD`, `ST`, `ATOM`, `RED`): SASS forms a generic shared address as
/// `SR_SWINHI : (SR_CgaCtaId << 24) + 0x400 + offset` (the disassembly of
/// tests/fixtures/sass_generic), so in the shared window the 1 KB reserved window is taken
/// off, as for `LDS`, and the core sees the PTX path's generic address of the same byte. An
/// address inside the reserved kilobyte (gpumemsim does not model what the system keeps
/// there) is moved past the window's end, where the core reports it as a shared access out of
/// bounds. Other addresses are left to the core's windows.
#[inline(always)]
fn generic_shared_window(inst: &Inst, addrs: &mut [u64; 32]) {
    let generic = matches!(
        inst.op,
        Op::Ld {
            space: SpaceSel::Generic,
            ..
        } | Op::St {
            space: SpaceSel::Generic,
            ..
        } | Op::Atom {
            space: SpaceSel::Generic,
            ..
        }
    );
    if !generic {
        return;
    }
    for a in addrs.iter_mut() {
        let o = a.wrapping_sub(space::SHARED_WINDOW);
        if o < space::WINDOW_SIZE {
            *a = if o >= SHARED_RESERVED {
                *a - SHARED_RESERVED
            } else {
                space::SHARED_WINDOW + space::WINDOW_SIZE - 1
            };
        }
    }
}

/// Builds constant bank 0 of a launch (layout in [`crate::sass`]).
pub(super) fn cbank0(l: &Launch<'_>) -> Vec<u8> {
    let mut c = vec![0u8; 0x210 + l.params.len()];
    for i in 0..3 {
        c[4 * i..4 * i + 4].copy_from_slice(&l.dims.block[i].to_le_bytes());
        c[0xc + 4 * i..0x10 + 4 * i].copy_from_slice(&l.dims.grid[i].to_le_bytes());
    }
    // The local stack starts at the top of the thread's frame and grows down.
    let top = l.kernel.local_bytes as u32;
    c[0x28..0x2c].copy_from_slice(&top.to_le_bytes());
    // The generic address of local offset 0 (ptxas: `IADD3 R6, P1, R1, c[0x20]` and
    // `IMAD.X R7, RZ, RZ, c[0x24], P1` make the stack pointer generic): gpumemsim's local
    // window, so a generic local address is the same as under PTX.
    c[0x20..0x28].copy_from_slice(&crate::mem::space::LOCAL_WINDOW.to_le_bytes());
    // `%reserved_smem_offset_1` (`cg::block_tile_memory` reads it as `LDC c[0x0][0x6c]` and
    // makes a generic pointer of it with `SR_SWINHI`): a window offset, so the reserved kilobyte
    // taken off generic shared addresses is added back (H200: 0, the window's first byte).
    if l.kernel.reserved_smem {
        let at = reserved_base(l.kernel, &l.dims) + SHARED_RESERVED;
        c[0x6c..0x70].copy_from_slice(&(at as u32).to_le_bytes());
    }
    c[0x210..].copy_from_slice(l.params);
    c
}

#[inline(always)]
fn pbits(w: &Warp, p: PIn) -> u32 {
    let v = w.preds[p.idx as usize];
    if p.neg {
        !v
    } else {
        v
    }
}

/// Writes predicate slot `p` for lanes `e` from `bits`; a uniform predicate takes the first
/// executing lane's bit in every lane.
#[inline(always)]
fn put_pred(w: &mut Warp, p: u8, e: u32, bits: u32) {
    if (8..15).contains(&p) {
        if e != 0 {
            w.preds[p as usize] = if bits >> e.trailing_zeros() & 1 == 1 {
                !0
            } else {
                0
            };
        }
        return;
    }
    w.preds[p as usize] = (w.preds[p as usize] & !e) | (bits & e);
}

fn cmp_int(c: Cmp, a: u32, b: u32, unsigned: bool) -> bool {
    let o = if unsigned {
        a.cmp(&b)
    } else {
        (a as i32).cmp(&(b as i32))
    };
    use std::cmp::Ordering::*;
    match c {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => o == Less,
        Cmp::Eq => o == Equal,
        Cmp::Le => o != Greater,
        Cmp::Gt => o == Greater,
        Cmp::Ne => o != Equal,
        Cmp::Ge => o != Less,
        _ => false,
    }
}

fn cmp_float(c: Cmp, a: f64, b: f64) -> bool {
    let nan = a.is_nan() || b.is_nan();
    match c {
        Cmp::F => false,
        Cmp::T => true,
        Cmp::Lt => a < b,
        Cmp::Eq => a == b,
        Cmp::Le => a <= b,
        Cmp::Gt => a > b,
        Cmp::Ne => !nan && a != b,
        Cmp::Ge => a >= b,
        Cmp::Num => !nan,
        Cmp::Nan => nan,
        Cmp::Ltu => nan || a < b,
        Cmp::Equ => nan || a == b,
        Cmp::Leu => nan || a <= b,
        Cmp::Gtu => nan || a > b,
        Cmp::Neu => nan || a != b,
        Cmp::Geu => nan || a >= b,
    }
}

fn logic(op: PLogic, t: bool, p: bool) -> bool {
    match op {
        PLogic::And => t && p,
        PLogic::Or => t || p,
        PLogic::Xor => t != p,
    }
}

/// Whether the instruction at `pc` is ptxas's `ATOMS.CAST.SPIN.64` (the compare-and-store of a
/// retry loop).
pub(super) fn is_spin(sc: Option<&SassCode>, pc: u32) -> bool {
    matches!(
        sc.and_then(|sc| sc.insts.get(pc as usize)).map(|i| &i.op),
        Some(SOp::Atom64 { spin: true, .. })
    )
}

/// Lanes waiting at a `BSYNC`.
#[inline(always)]
fn parked(w: &Warp, sc: &SassCode) -> u32 {
    w.regs[sc.aux as usize * 32] as u32
}

fn set_parked(w: &mut Warp, sc: &SassCode, v: u32) {
    w.regs[sc.aux as usize * 32] = v as u64;
}

/// The next group to run: of the ready lanes not waiting at a `BSYNC`, those at the lowest
/// instruction index, and of them the group of the lowest lane.
#[inline(always)]
fn select(w: &mut Warp, sc: &SassCode) -> (u32, u32) {
    let parked = parked(w, sc);
    let ready = w.ready() & !parked;
    if ready == 0 || w.converged {
        return (w.pc, ready);
    }
    // The partitions a `WARPSYNC.EXCLUSIVE` released run one at a time, each until it waits
    // at the `BSYNC` that closes the block (the H200 runs them so: the partitions of
    // warpAggregatedAtomicsCG's labeled reduction each read the uniform register their own
    // `REDUX` wrote); otherwise the lanes at the lowest instruction index.
    let (pool_at, cur_at) = (sc.aux as usize * 32 + 2, sc.aux as usize * 32 + 3);
    // The partition running is remembered by its group id (a lane set would go stale when
    // a later `WARPSYNC.EXCLUSIVE` re-partitions the same lanes).
    let gid = sc.gid as usize * 32;
    let exclusive = w.regs[pool_at] as u32 & ready;
    let cur_g = w.regs[cur_at];
    let cur = if cur_g == 0 {
        0
    } else {
        lanes(exclusive).fold(0u32, |a, l| a | ((w.regs[gid + l] == cur_g) as u32) << l)
    };
    let pool = if cur != 0 {
        cur
    } else if exclusive != 0 {
        exclusive
    } else {
        ready
    };
    let mut min = u32::MAX;
    let mut m = 0u32;
    for l in lanes(pool) {
        let p = w.lane_pc[l];
        if p < min {
            min = p;
            m = 1 << l;
        } else if p == min {
            m |= 1 << l;
        }
    }
    let g0 = w.regs[gid + m.trailing_zeros() as usize];
    let mut mg = 0u32;
    for l in lanes(m) {
        if w.regs[gid + l] == g0 {
            mg |= 1 << l;
        }
    }
    if mg == ready && w.waiting == 0 && parked == 0 {
        w.converged = true;
        w.pc = min;
    }
    if exclusive != 0 {
        w.regs[cur_at] = g0;
    }
    (min, mg)
}

/// The wait record of a lane parked at a `BSYNC` or `WARPSYNC` (slot `wsync`, one per lane):
/// bit 63 set, bits 56..63 the barrier (its B register number, [`WARPSYNC_BAR`] for a
/// `WARPSYNC`), bits 32..56 the instruction index, the low word the mask it waits for.
#[inline(always)]
fn wait_record(bar: u32, pc: u32, mask: u32) -> u64 {
    1 << 63 | (bar as u64 & 0x7f) << 56 | (pc as u64 & 0xff_ffff) << 32 | mask as u64
}

/// The barrier number of a `WARPSYNC`'s wait record.
const WARPSYNC_BAR: u32 = 0x7f;
/// The barrier number of a `WARPSYNC.EXCLUSIVE`'s (or `.COLLECTIVE`'s) wait record.
const EXCLUSIVE_BAR: u32 = 0x7e;

/// Parks lanes `e` of group `m` at `pc`, each waiting for the lanes of `masks[lane]` at
/// barrier `bar`; the lanes of `m` whose guard failed go on. Releases what is complete (and
/// returns what [`release_complete`] returns).
#[must_use]
fn park(
    w: &mut Warp,
    sc: &SassCode,
    m: u32,
    e: u32,
    pc: u32,
    bar: u32,
    masks: &[u32; 32],
) -> Release {
    if w.converged {
        w.lane_pc = [pc; 32];
        w.converged = false;
    }
    let base = sc.wsync as usize * 32;
    // A `WARPSYNC.EXCLUSIVE` (or `.COLLECTIVE`) splits the arriving lanes into their
    // partitions: one unattributed warp-instruction per partition past the first
    // ([`Release::unattributed`]).
    let mut split = 0u32;
    if bar == EXCLUSIVE_BAR {
        let mut rest = e;
        while rest != 0 {
            let mk = masks[rest.trailing_zeros() as usize];
            rest &= !lanes(rest).fold(0u32, |a, l| a | ((masks[l] == mk) as u32) << l);
            split += 1;
        }
    }
    for l in lanes(e) {
        w.regs[base + l] = wait_record(bar, pc, masks[l]);
    }
    let p = parked(w, sc) | e;
    set_parked(w, sc, p);
    w.advance(m & !e, pc + 1);
    let mut r = release_complete(w, sc);
    r.unattributed += split.saturating_sub(1);
    r
}

/// Releases every parked lane whose wait is over: at a `BSYNC`, every live lane of its
/// barrier mask waits at that barrier too (lanes that left it by `BREAK` or exited are no
/// longer in the mask or live); at a `WARPSYNC`, every live lane of its mask waits at a
/// `WARPSYNC` of the same mask. The lanes released together go on as one group, at the
/// instruction after the one they waited at: at a `WARPSYNC`, those of the same mask; at a
/// `BSYNC`, all of them, whatever barrier mask each lane's `BSSY` gave it.
///
/// Returns the `BSYNC` (its instruction index) that released lanes of more than one barrier
/// mask: the H200 executes it once more, with no thread. Measured on the H200's Source page
/// (tests/hw/h200/source/sconv/k_warp_masks_1w.csv, one warp of mask_intrinsics): the `BSSY
/// B0` at 0x0e90 runs in two groups (the even and the odd lanes that `WARPSYNC.EXCLUSIVE R9`
/// made), the collective in between regroups them into halves, and the `BSYNC B0` at 0x0f50
/// then executes 3 times with 32 threads in all, after which the warp runs as one group (every
/// later instruction once); a `BSYNC` whose `BSSY` ran in one group executes once per
/// arriving group (0x0250: 5 label groups, 5 times; 0x0ce0: 2 halves, 2 times).
#[must_use]
fn release_complete(w: &mut Warp, sc: &SassCode) -> Release {
    let parked_ = parked(w, sc);
    if parked_ == 0 {
        return Release::default();
    }
    let base = sc.wsync as usize * 32;
    let rec = |w: &Warp, l: usize| w.regs[base + l];
    let mut released = 0u32;
    for l in lanes(parked_ & w.live) {
        let r = rec(w, l);
        let (bar, mask) = ((r >> 56) as u32 & 0x7f, r as u32);
        let need = mask & w.live;
        let ok = lanes(need).all(|j| {
            let q = rec(w, j);
            parked_ >> j & 1 == 1
                && (q >> 56) as u32 & 0x7f == bar
                && (bar < EXCLUSIVE_BAR || q as u32 == mask)
        });
        if ok {
            released |= 1 << l;
        }
    }
    let mut rest = released;
    let mut again = None;
    let mut unattributed = 0u32;
    while rest != 0 {
        let l0 = rest.trailing_zeros() as usize;
        // A WARPSYNC's lanes group by mask, a BSYNC's by instruction.
        let bsync = ((rec(w, l0) >> 56) as u32 & 0x7f) < EXCLUSIVE_BAR;
        let strip = if bsync { 0xffff_ffff } else { 0xff_ffff << 32 };
        let key = rec(w, l0) & !strip;
        let part = lanes(rest).fold(0u32, |a, l| a | ((rec(w, l) & !strip == key) as u32) << l);
        rest &= !part;
        if bsync && lanes(part).any(|l| rec(w, l) as u32 != rec(w, l0) as u32) {
            again = Some((rec(w, l0) >> 32) as u32 & 0xff_ffff);
        }
        // A `WARPSYNC` partition assembled from lanes of more than one group.
        let gid = sc.gid as usize * 32;
        let g0 = w.regs[gid + part.trailing_zeros() as usize];
        if !bsync && lanes(part).any(|l| w.regs[gid + l] != g0) {
            unattributed += 1;
        }
        new_group(w, sc, part);
        let pool_at = sc.aux as usize * 32 + 2;
        if (key >> 56) as u32 & 0x7f == EXCLUSIVE_BAR {
            w.regs[pool_at] |= part as u64;
        } else {
            w.regs[pool_at] &= !(part as u64);
        }
        for l in lanes(part) {
            w.lane_pc[l] = ((rec(w, l) >> 32) as u32 & 0xff_ffff) + 1;
            w.regs[base + l] = 0;
        }
    }
    set_parked(w, sc, parked_ & !released);
    Release {
        again,
        unattributed,
    }
}

/// What [`park`] and [`release_complete`] did beyond moving lanes: the `BSYNC` that executes
/// once more (`again`), and the warp-instructions the H200 counts in `smsp__inst_executed.sum`
/// but on no instruction of its Source page (`unattributed`).
#[derive(Default)]
struct Release {
    again: Option<u32>,
    /// Measured on the H200 (tests/hw/h200/source/sattr/: the probes of
    /// tests/hw/kernels/sattr_probes.toml, launch counter minus Source-page sum, 53 launches):
    /// a group arriving at a `WARPSYNC.EXCLUSIVE` or `.COLLECTIVE` whose lanes name `d`
    /// different masks costs `d - 1` (labeled_partition of one warp into 2, 3, 5, 8, 32
    /// partitions: 1, 2, 4, 7, 31; collectives over masks of 2, 4, 8 lane groups: 1, 3, 7),
    /// and a `WARPSYNC` (any kind) that lets go a partition made of lanes of more than one
    /// arriving group costs 1 for it (`WARPSYNC.ALL` reached by 2 to 8 groups: 1 per trip,
    /// as binaryPartitionCG's 512). For `.EXCLUSIVE` the second rule rests on one kernel,
    /// mask_intrinsics (tests/hw/h200/source/sconv/k_warp_masks_1w.csv: 65 per warp = 31 for
    /// its splits of one group + 34 for its 5 `WARPSYNC.EXCLUSIVE`s reached by 2, 4 or 5
    /// groups). tests/hw/h200/source/sattr2/ (docs/notes/issue-9-sprobe2.md) confirms both
    /// rules for `.EXCLUSIVE` and `.COLLECTIVE` reached by several groups: 23 launches of
    /// reduces, votes, `MATCH`, shuffles, `__syncwarp(mask)` and tiled partitions after a split
    /// of the warp into 1 to 4 groups, over halves, quarters, eighths, odd/even and lane % 4
    /// masks, 3 to 21 per launch, every one equal.
    unattributed: u32,
}

/// A branch of group `m` whose lanes `taken` go to `target`; the taken lanes of a divergent
/// branch become a group of their own.
#[inline(always)]
fn branch(w: &mut Warp, sc: &SassCode, m: u32, taken: u32, pc: u32, target: u32) {
    if taken != m && taken != 0 {
        new_group(w, sc, taken);
    }
    w.branch(m, taken, pc, target);
}

fn new_group(w: &mut Warp, sc: &SassCode, lanes_: u32) {
    let counter = sc.aux as usize * 32 + 1;
    let g = w.regs[counter] + 1;
    w.regs[counter] = g;
    for l in lanes(lanes_) {
        w.regs[sc.gid as usize * 32 + l] = g;
    }
}

/// Lanes `e` of group `m` jump to their own `tgt[lane]`; lanes going to another place than
/// the first's become groups of their own, the rest of `m` goes on at `pc + 1`.
///
/// Returns the warp-instructions the H200 counts for it beyond the one on its Source page: one
/// per target past the first (tests/hw/h200/source/sattr/: p_ifelse's `BRX` to 2 and 3 targets
/// costs 1 and 2). Only the executing lanes' targets count: lanes diverged away from the `BRX`
/// or exited before it add none (tests/hw/h200/source/sattr2/, b_div and b_exit: a `BRX` over a
/// 3-entry table reached by 1, 2, 3, 5, 7, 9, 13, 16, 17, 20, 21 or 32 lanes costs one less
/// than the executing lanes' targets, e.g. 1 with 2 lanes of 4 groups, 0 with 1 lane; 19
/// launches, docs/notes/issue-9-sprobe2.md). ptxas 13.0 never predicates a `BRX` (a guarded
/// `brx.idx` becomes `@P BRA` around it), so the predicated-off lanes here (going on at
/// `pc + 1`, counted as costing nothing) are not measured.
#[must_use]
fn jump(w: &mut Warp, sc: &SassCode, m: u32, e: u32, pc: u32, tgt: &[u32; 32]) -> u32 {
    if e == 0 {
        w.advance(m, pc + 1);
        return 0;
    }
    let t0 = tgt[e.trailing_zeros() as usize];
    let same = lanes(e).fold(0u32, |a, l| a | ((tgt[l] == t0) as u32) << l);
    if same == e {
        branch(w, sc, m, e, pc, t0);
        return 0;
    }
    if w.converged {
        w.lane_pc = [pc; 32];
        w.converged = false;
    }
    for l in lanes(m & !e) {
        w.lane_pc[l] = pc + 1;
    }
    let mut rest = e;
    let mut first = true;
    let mut targets = 0u32;
    while rest != 0 {
        targets += 1;
        let t = tgt[rest.trailing_zeros() as usize];
        let part = lanes(rest).fold(0u32, |a, l| a | ((tgt[l] == t) as u32) << l);
        if !(first && part == m) {
            new_group(w, sc, part);
        }
        first = false;
        for l in lanes(part) {
            w.lane_pc[l] = t;
        }
        rest &= !part;
    }
    targets - 1
}

impl<O: Observer> Ctx<'_, '_, O> {
    /// A word of constant bank `bank` at byte `off` (0 past its end: load-time checks keep
    /// bank-0 offsets inside the layout).
    #[inline(always)]
    fn cword(&self, bank: u8, off: u32, n: usize) -> Option<u64> {
        let b: &[u8] = match bank {
            0 => &self.cbank0,
            4 => self
                .l
                .kernel
                .sass
                .as_ref()
                .map_or(&[][..], |s| &s.bank4[..]),
            2 => self
                .l
                .kernel
                .sass
                .as_ref()
                .map_or(&[][..], |s| &s.bank2[..]),
            _ => self.l.consts,
        };
        let o = off as usize;
        b.get(o..o.checked_add(n)?).map(|s| read_le(s, n))
    }

    /// All 32 lanes of a source operand, modifiers applied.
    #[inline(always)]
    fn vals(&self, w: &Warp, s: SSrc) -> [u32; 32] {
        let v: [u32; 32] = match s.o {
            Opnd::R(r) => {
                let b = r as usize * 32;
                let mut v = [0u32; 32];
                for (o, &x) in v.iter_mut().zip(&w.regs[b..b + 32]) {
                    *o = x as u32;
                }
                v
            }
            Opnd::Imm(v) => [v; 32],
            Opnd::C { bank, off } => [self.cword(bank, off, 4).unwrap_or(0) as u32; 32],
        };
        if s.m != 0 {
            v.map(|x| s.apply(x))
        } else {
            v
        }
    }

    #[inline(always)]
    fn one(&self, w: &Warp, s: SSrc, l: usize) -> u32 {
        let v = match s.o {
            Opnd::R(r) => w.regs[r as usize * 32 + l] as u32,
            Opnd::Imm(v) => v,
            Opnd::C { bank, off } => self.cword(bank, off, 4).unwrap_or(0) as u32,
        };
        s.apply(v)
    }

    /// A 64-bit pair source (`IMAD.WIDE`'s addend).
    #[inline(always)]
    fn pair(&self, w: &Warp, s: SSrc, l: usize, sc: &SassCode) -> u64 {
        match s.o {
            Opnd::R(r) if r == sc.zero => 0,
            Opnd::R(r) => {
                w.regs[r as usize * 32 + l] & 0xffff_ffff
                    | (w.regs[(r as usize + 1) * 32 + l] & 0xffff_ffff) << 32
            }
            Opnd::Imm(v) => v as u64,
            Opnd::C { bank, off } => self.cword(bank, off, 8).unwrap_or(0),
        }
    }

    /// A 64-bit source of an f64 or 64-bit integer instruction: a register pair, a 32-bit
    /// immediate as the high word (`float`) or the low word, or 8 bytes of a constant bank;
    /// `-`/`|..|` act on bit 63.
    #[inline(always)]
    fn dpair(&self, w: &Warp, s: SSrc, l: usize, sc: &SassCode, float: bool) -> u64 {
        let v = match s.o {
            Opnd::Imm(v) if float => (v as u64) << 32,
            _ => self.pair(w, s, l, sc),
        };
        let mut v = v;
        if s.m & SSrc::FABS != 0 {
            v &= !(1 << 63);
        }
        if s.m & SSrc::FNEG != 0 {
            v ^= 1 << 63;
        }
        v
    }

    /// A source of `DADD`/`DMUL`/`DFMA`: as [`Self::dpair`], except that a NaN passes the
    /// `-`/`|..|` modifiers unchanged, so the NaN the instruction propagates keeps the sign it
    /// has in the register. Measured on the H200: `__dsqrt_ru(fabs(x))` of a negative NaN `x`
    /// (tests/hw/kernels/isa.cu result 138, 4 threads of tests/hw/h200/hw/outputs/k_isa) runs
    /// `DADD R8, -RZ, |R10|` and then the square root's NaN path, and the H200 returns the NaN
    /// with its sign set (0xfffc3861_e0000000, 0xfff80000_00000000), where clearing it first
    /// gives 0x7ffc... and 0x7ff8....
    #[inline(always)]
    fn darith(&self, w: &Warp, s: SSrc, l: usize, sc: &SassCode) -> u64 {
        let raw = match s.o {
            Opnd::Imm(v) => (v as u64) << 32,
            _ => self.pair(w, s, l, sc),
        };
        if crate::exec::float::Fmt::F64.is_nan(raw) {
            raw
        } else {
            self.dpair(w, s, l, sc, true)
        }
    }

    /// Writes a 64-bit value per lane to the pair `d:d+1` for lanes `e`.
    fn put64(&self, w: &mut Warp, sc: &SassCode, d: u16, e: u32, v: &[u64; 32]) {
        let lo: [u32; 32] = std::array::from_fn(|l| v[l] as u32);
        let hi: [u32; 32] = std::array::from_fn(|l| (v[l] >> 32) as u32);
        self.put(w, sc, d, e, &lo);
        let d2 = if d == sc.sink { d } else { d + 1 };
        self.put(w, sc, d2, e, &hi);
    }

    /// The 32 addresses of a memory operand (see [`SOp::Mem`]).
    #[inline(always)]
    fn sass_addrs(&self, w: &Warp, sc: &SassCode, op: &SOp) -> [u64; 32] {
        let SOp::Mem {
            base,
            wide,
            ubase,
            off,
            shared,
        } = op
        else {
            return [0; 32];
        };
        let (b0, u0) = (*base as usize * 32, *ubase as usize * 32);
        let lo: &[u64] = &w.regs[b0..b0 + 32];
        let ub: &[u64] = &w.regs[u0..u0 + 32];
        let off = (*off as i64 as u64).wrapping_sub(if *shared { SHARED_RESERVED } else { 0 });
        // Plain loops over the 32 lanes, which the compiler vectorises.
        let mut out = [0u64; 32];
        if *wide && *base != sc.zero {
            let hi: &[u64] = &w.regs[b0 + 32..b0 + 64];
            for (l, o) in out.iter_mut().enumerate() {
                *o = ((lo[l] & 0xffff_ffff) | (hi[l] & 0xffff_ffff) << 32)
                    .wrapping_add(ub[l] & 0xffff_ffff)
                    .wrapping_add(off);
            }
        } else {
            for (l, o) in out.iter_mut().enumerate() {
                *o = (lo[l] & 0xffff_ffff)
                    .wrapping_add(ub[l] & 0xffff_ffff)
                    .wrapping_add(off);
            }
        }
        out
    }

    /// Writes `out` to register slot `d` for lanes `e` (every lane for a uniform register).
    #[inline(always)]
    fn put(&self, w: &mut Warp, sc: &SassCode, d: u16, e: u32, out: &[u32; 32]) {
        let regs = &mut w.regs[d as usize * 32..d as usize * 32 + 32];
        if d > sc.zero && d < sc.b {
            if e != 0 {
                let v = out[e.trailing_zeros() as usize] as u64;
                regs.iter_mut().for_each(|r| *r = v);
            }
        } else if e == u32::MAX {
            for (r, &o) in regs.iter_mut().zip(out) {
                *r = o as u64;
            }
        } else {
            for l in lanes(e) {
                regs[l] = out[l] as u64;
            }
        }
    }

    pub(super) fn run_warp_sass(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        sc: &SassCode,
    ) -> Result<(), Fault> {
        self.warp = w.id;
        w.preds[crate::ir::sass::PT as usize] = !0;
        loop {
            let (pc, m) = select(w, sc);
            if m == 0 {
                let stuck = parked(w, sc);
                if stuck != 0 && w.waiting == 0 && w.live & !stuck == 0 {
                    let detail = format!(
                        "lanes {stuck:#010x} wait at a BSYNC for lanes of their convergence barrier that can never arrive"
                    );
                    let pc = w.lane_pc[stuck.trailing_zeros() as usize];
                    return Err((
                        FaultKind::Unsupported { detail },
                        pc,
                        w.id * 32 + stuck.trailing_zeros(),
                    ));
                }
                return Ok(());
            }
            let Some(si) = sc.insts.get(pc as usize) else {
                w.exit(m, m, pc);
                continue;
            };
            // The retry loop's compare-and-store waits for the block's round
            // (`Ctx::cas_round`).
            if let SOp::Atom64 { spin: true, .. } = si.op {
                if !std::mem::take(&mut w.cas_go) {
                    w.cas_park = true;
                    return Ok(());
                }
            }
            self.charge(w, pc, m)?;
            let e = m & pbits(w, si.guard);
            self.sass_op(w, mem, sc, si, pc, m, e)?;
            if std::mem::take(&mut self.retry) {
                // Not executed yet (a `.TRYWAIT` that waits): neither counted nor advanced.
                self.clock -= 1;
                return Ok(());
            }
            self.retire(pc, m, e);
            if w.yielded {
                return Ok(());
            }
        }
    }

    /// The `BSYNC` at `r.again` executes once more, with no thread (see [`release_complete`]);
    /// `r.unattributed` warp-instructions count in the launch total only, on no instruction
    /// (the H200's Source page shows them nowhere: [`Release::unattributed`]).
    fn bsync_again(&mut self, r: Release) {
        if let Some(pc) = r.again {
            self.stats.warp_instructions += 1;
            self.obs.inst(pc, 0, 0);
        }
        self.stats.warp_instructions += r.unattributed as u64;
        self.stats.unattributed_warp_instructions += r.unattributed as u64;
    }

    #[allow(clippy::too_many_arguments)]
    #[inline(always)]
    fn sass_op(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        sc: &SassCode,
        si: &SInst,
        pc: u32,
        m: u32,
        e: u32,
    ) -> Result<(), Fault> {
        match &si.op {
            SOp::Alu {
                f,
                d,
                a: sa,
                b: sb,
                c: sc_,
                k,
            } => {
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let k = *k;
                let out: [u32; 32] = std::array::from_fn(|l| f(a[l], b[l], c[l], k));
                self.put(w, sc, *d, e, &out);
            }
            SOp::AluW {
                f,
                d,
                a: sa,
                b: sb,
                c: sc_,
            } => {
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let mut out = [0u32; 32];
                f(&a, &b, &c, &mut out);
                self.put(w, sc, *d, e, &out);
            }
            SOp::AluP {
                f,
                d,
                a: sa,
                b: sb,
                c: sc_,
                p,
            } => {
                let mut out = [0u32; 32];
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let pm = pbits(w, *p);
                for l in 0..32 {
                    out[l] = f(a[l], b[l], c[l], pm >> l & 1);
                }
                self.put(w, sc, *d, e, &out);
            }
            SOp::Alu64 {
                f,
                d,
                a: sa,
                b: sb,
                c: sc_,
                k,
            } => {
                let mut out = [0u64; 32];
                for l in lanes(e) {
                    out[l] = f(
                        self.darith(w, *sa, l, sc),
                        self.darith(w, *sb, l, sc),
                        self.darith(w, *sc_, l, sc),
                        *k,
                    );
                }
                self.put64(w, sc, *d, e, &out);
            }
            SOp::Cvt {
                d,
                a: sa,
                dst,
                src,
                rnd,
                int_rnd,
                ftz,
            } => {
                let mut out = [0u64; 32];
                for l in lanes(e) {
                    let v = if src.size() == 8 {
                        self.dpair(w, *sa, l, sc, src.is_float())
                    } else {
                        self.one(w, *sa, l) as u64
                    };
                    out[l] = crate::exec::cvt::cvt(v, *dst, *src, *rnd, *int_rnd, false, *ftz);
                }
                if dst.size() == 8 {
                    self.put64(w, sc, *d, e, &out);
                } else {
                    let lo: [u32; 32] = std::array::from_fn(|l| out[l] as u32);
                    self.put(w, sc, *d, e, &lo);
                }
            }
            SOp::Fchk { p, a: sa, b: sb } => {
                let (a, b) = (self.vals(w, *sa), self.vals(w, *sb));
                let mut bits = 0u32;
                for l in lanes(e) {
                    bits |= (crate::exec::sass_alu::fchk(a[l], b[l]) as u32) << l;
                }
                put_pred(w, *p, e, bits);
            }
            SOp::P2r { d, a: sa, mask } => {
                let a = self.vals(w, *sa);
                let out: [u32; 32] = std::array::from_fn(|l| {
                    let pr = (0..7).fold(0u32, |acc, i| acc | (w.preds[i] >> l & 1) << i);
                    (pr & mask) | (a[l] & !mask)
                });
                self.put(w, sc, *d, e, &out);
            }
            SOp::Match {
                all,
                wide,
                p,
                d,
                a: ra,
            } => {
                let v: [u64; 32] = std::array::from_fn(|l| {
                    if *wide {
                        self.pair(w, SSrc::of(Opnd::R(*ra)), l, sc)
                    } else {
                        w.regs[*ra as usize * 32 + l] & 0xffff_ffff
                    }
                });
                let r = warp_ops::match_::match_(&v, &Participants::executing(e), e);
                if *all {
                    self.put(w, sc, *d, e, &r.all);
                    put_pred(w, *p, e, r.same);
                } else {
                    self.put(w, sc, *d, e, &r.any);
                }
            }
            SOp::BraDiv { mask, target } => {
                // A uniform divergence check: the whole group branches unless the guard holds
                // in every lane of it and the group is exactly the live lanes of the mask.
                let taken = if e != 0 {
                    let mv = self.one(w, *mask, e.trailing_zeros() as usize);
                    if e != m || mv & w.live != m {
                        m
                    } else {
                        0
                    }
                } else {
                    0
                };
                branch(w, sc, m, taken, pc, *target);
                return Ok(());
            }
            SOp::BraAny { target } => {
                branch(w, sc, m, if e != 0 { m } else { 0 }, pc, *target);
                return Ok(());
            }
            SOp::Jmp { r, off } => {
                let mut tgt = [0u32; 32];
                for l in lanes(e) {
                    let a = (w.regs[*r as usize * 32 + l] as u32).wrapping_add(*off);
                    if a % 16 != 0 || (a / 16) as usize >= sc.insts.len() {
                        let detail = format!(
                            "an indirect jump to {a:#x}, which is not an instruction of the kernel"
                        );
                        return Err((FaultKind::Unsupported { detail }, pc, w.id * 32 + l as u32));
                    }
                    tgt[l] = a / 16;
                }
                let extra = jump(w, sc, m, e, pc, &tgt);
                self.stats.warp_instructions += extra as u64;
                self.stats.unattributed_warp_instructions += extra as u64;
                return Ok(());
            }
            SOp::WarpsyncNop { mask } => {
                for l in lanes(e) {
                    if let Some(kind) = warp_ops::sync::mask_excludes_lane(l, self.one(w, *mask, l))
                    {
                        return Err((kind, pc, w.id * 32 + l as u32));
                    }
                }
            }
            SOp::Warpsync { mask, exclusive } => {
                if e != 0 {
                    let mv: [u32; 32] = std::array::from_fn(|l| self.one(w, *mask, l));
                    for l in lanes(e) {
                        if let Some(kind) = warp_ops::sync::mask_excludes_lane(l, mv[l]) {
                            return Err((kind, pc, w.id * 32 + l as u32));
                        }
                    }
                    let first = mv[e.trailing_zeros() as usize];
                    let uniform = lanes(e).all(|l| mv[l] == first);
                    // The common case: the mask's lanes are all here (and, for .EXCLUSIVE,
                    // they are the whole group).
                    let here = uniform && first & w.live == e && (e == m || !*exclusive);
                    let all_here = !*exclusive && lanes(e).all(|l| mv[l] & w.live & !e == 0);
                    if !here && !all_here {
                        let bar = if *exclusive {
                            EXCLUSIVE_BAR
                        } else {
                            WARPSYNC_BAR
                        };
                        let again = park(w, sc, m, e, pc, bar, &mv);
                        self.bsync_again(again);
                        return Ok(());
                    }
                }
            }
            SOp::Atom64 {
                addr,
                b,
                c,
                d,
                spin,
            } => {
                if e != 0 {
                    let wb = sc.wide as usize * 32;
                    for l in lanes(e) {
                        w.regs[wb + l] = self.pair(w, SSrc::of(Opnd::R(*b)), l, sc);
                        w.regs[wb + 32 + l] = self.pair(w, SSrc::of(Opnd::R(*c)), l, sc);
                    }
                    let mut addrs = self.sass_addrs(w, sc, addr);
                    let inst = &self.l.kernel.code[pc as usize];
                    generic_shared_window(inst, &mut addrs);
                    self.memory_at(w, mem, inst, pc, e, addrs)?;
                    if *d != sc.sink {
                        let mut out = [0u64; 32];
                        for l in lanes(e) {
                            let old = w.regs[wb + 64 + l];
                            out[l] = if *spin {
                                (old == w.regs[wb + l]) as u64
                            } else {
                                old
                            };
                        }
                        self.put64(w, sc, *d, e, &out);
                    }
                }
            }
            SOp::ImadWide {
                d,
                a: sa,
                b: sb,
                c: sc_,
                signed,
                hi: only_hi,
                cin,
                cout,
            } => {
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let carry_in = pbits(w, *cin);
                // The addend pair: a register pair, or a 64-bit constant or immediate.
                let (clo, chi): ([u32; 32], [u32; 32]) = match sc_.o {
                    Opnd::R(r) if r == sc.zero => ([0; 32], [0; 32]),
                    Opnd::R(r) => (
                        self.vals(w, SSrc::of(Opnd::R(r))),
                        self.vals(w, SSrc::of(Opnd::R(r + 1))),
                    ),
                    _ => {
                        let v = self.pair(w, *sc_, 0, sc);
                        ([v as u32; 32], [(v >> 32) as u32; 32])
                    }
                };
                let signed = *signed;
                let mut carries = 0u32;
                let v: [u64; 32] = std::array::from_fn(|l| {
                    let p = if signed {
                        (a[l] as i32 as i64).wrapping_mul(b[l] as i32 as i64) as u64
                    } else {
                        a[l] as u64 * b[l] as u64
                    };
                    // The sum as 128 bits: its bit 64 is the carry out (the product of two
                    // unsigned words plus a pair and a carry never exceeds 2^65).
                    let s = p as u128
                        + (clo[l] as u64 | (chi[l] as u64) << 32) as u128
                        + (carry_in >> l & 1) as u128;
                    carries |= ((s >> 64) as u32 & 1) << l;
                    s as u64
                });
                if *cout != PSINK {
                    put_pred(w, *cout, e, carries);
                }
                let out: [u32; 32] = std::array::from_fn(|l| v[l] as u32);
                let hi: [u32; 32] = std::array::from_fn(|l| (v[l] >> 32) as u32);
                if *only_hi {
                    self.put(w, sc, *d, e, &hi);
                    w.advance(m, pc + 1);
                    return Ok(());
                }
                self.put(w, sc, *d, e, &out);
                let d2 = if *d == sc.sink { *d } else { *d + 1 };
                self.put(w, sc, d2, e, &hi);
            }
            SOp::AddCarry {
                f,
                d,
                a: sa,
                b: sb,
                c: sc_,
                k,
                cin,
                cout,
            } => {
                let mut out = [0u32; 32];
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let (c0, c1) = (pbits(w, cin[0]), pbits(w, cin[1]));
                let (mut p0, mut p1) = (0u32, 0u32);
                for l in 0..32 {
                    let s = f(a[l], b[l], c[l], *k) + (c0 >> l & 1) as u64 + (c1 >> l & 1) as u64;
                    out[l] = s as u32;
                    let carry = s >> 32;
                    p0 |= ((carry >= 1) as u32) << l;
                    p1 |= ((carry >= 2) as u32) << l;
                }
                self.put(w, sc, *d, e, &out);
                put_pred(w, cout[0], e, p0);
                put_pred(w, cout[1], e, p1);
            }
            SOp::Lop3P {
                p,
                d,
                a: sa,
                b: sb,
                c: sc_,
                lut,
            } => {
                let mut out = [0u32; 32];
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let mut bits = 0u32;
                for l in 0..32 {
                    out[l] = lut3(a[l], b[l], c[l], *lut as u32);
                    bits |= ((out[l] != 0) as u32) << l;
                }
                self.put(w, sc, *d, e, &out);
                put_pred(w, *p, e, bits);
            }
            SOp::Isetp {
                cmp,
                unsigned,
                op,
                p,
                q,
                a: sa,
                b: sb,
                pin,
                ex,
            } => {
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let pm = pbits(w, *pin);
                let xm = ex.map(|x| pbits(w, x));
                let (mut pt, mut qt) = (0u32, 0u32);
                for l in 0..32 {
                    let mut t = cmp_int(*cmp, a[l], b[l], *unsigned);
                    if let Some(xm) = xm {
                        let low = xm >> l & 1 == 1;
                        let eq = a[l] == b[l];
                        t = match cmp {
                            Cmp::Eq => eq && low,
                            Cmp::Ne => !eq || low,
                            Cmp::F | Cmp::T => t,
                            // Ordered: the high words decide unless equal.
                            _ => (t && !eq) || (eq && low),
                        };
                    }
                    let pv = pm >> l & 1 == 1;
                    pt |= (logic(*op, t, pv) as u32) << l;
                    qt |= (logic(*op, !t, pv) as u32) << l;
                }
                put_pred(w, *p, e, pt);
                put_pred(w, *q, e, qt);
            }
            SOp::Fsetp {
                cmp,
                op,
                ftz,
                f64: true,
                p,
                q,
                a: sa,
                b: sb,
                pin,
                ..
            } => {
                let _ = ftz;
                let pm = pbits(w, *pin);
                let (mut pt, mut qt) = (0u32, 0u32);
                for l in lanes(e) {
                    let a = f64::from_bits(self.dpair(w, *sa, l, sc, true));
                    let b = f64::from_bits(self.dpair(w, *sb, l, sc, true));
                    let t = cmp_float(*cmp, a, b);
                    let pv = pm >> l & 1 == 1;
                    pt |= (logic(*op, t, pv) as u32) << l;
                    qt |= (logic(*op, !t, pv) as u32) << l;
                }
                put_pred(w, *p, e, pt);
                put_pred(w, *q, e, qt);
            }
            SOp::Fsetp {
                cmp,
                op,
                ftz,
                half,
                p,
                q,
                a: sa,
                b: sb,
                pin,
                ..
            } => {
                let a = self.vals(w, *sa);
                let b = self.vals(w, *sb);
                let pm = pbits(w, *pin);
                let (mut pt, mut qt) = (0u32, 0u32);
                let f = |x: u32| -> f64 {
                    if *half {
                        return crate::exec::sass_half::low_half(x);
                    }
                    let v = f32::from_bits(x);
                    if *ftz && v.is_subnormal() {
                        0.0
                    } else {
                        v as f64
                    }
                };
                for l in 0..32 {
                    let t = cmp_float(*cmp, f(a[l]), f(b[l]));
                    let pv = pm >> l & 1 == 1;
                    pt |= (logic(*op, t, pv) as u32) << l;
                    qt |= (logic(*op, !t, pv) as u32) << l;
                }
                put_pred(w, *p, e, pt);
                put_pred(w, *q, e, qt);
            }
            SOp::DsetpMinMax {
                max,
                op,
                p,
                q,
                a: sa,
                b: sb,
                pin,
            } => {
                let pm = pbits(w, *pin);
                let (mut pt, mut qt) = (0u32, 0u32);
                for l in lanes(e) {
                    let a = f64::from_bits(self.dpair(w, *sa, l, sc, true));
                    let b = f64::from_bits(self.dpair(w, *sb, l, sc, true));
                    let (pick_a, both_nan) = crate::exec::sass_half::dsetp_minmax(a, b, *max);
                    let pv = pm >> l & 1 == 1;
                    pt |= (logic(*op, pick_a, pv) as u32) << l;
                    qt |= (logic(*op, both_nan, pv) as u32) << l;
                }
                put_pred(w, *p, e, pt);
                put_pred(w, *q, e, qt);
            }
            SOp::Plop3 { p, q, s, lut } => {
                let (x, y, z) = (pbits(w, s[0]), pbits(w, s[1]), pbits(w, s[2]));
                put_pred(w, *p, e, lut3(x, y, z, lut[0] as u32));
                put_pred(w, *q, e, lut3(x, y, z, lut[1] as u32));
            }
            SOp::S2r { d, sr, .. } => {
                // Only the thread index, the lane id and the lane masks differ between lanes.
                let out: [u32; 32] = match sr {
                    SpecialReg::Ptx(Sreg::Tid(i)) => w.tid[*i as usize],
                    SpecialReg::Ptx(
                        s @ (Sreg::LaneId
                        | Sreg::LanemaskEq
                        | Sreg::LanemaskLe
                        | Sreg::LanemaskLt
                        | Sreg::LanemaskGe
                        | Sreg::LanemaskGt),
                    ) => std::array::from_fn(|l| self.sreg(w, mem, *s, l) as u32),
                    SpecialReg::Ptx(s) => [self.sreg(w, mem, *s, 0) as u32; 32],
                    SpecialReg::CgaCtaId | SpecialReg::Zero => [0; 32],
                    SpecialReg::SwinHi => [(space::SHARED_WINDOW >> 32) as u32; 32],
                };
                self.put(w, sc, *d, e, &out);
            }
            SOp::Ldc {
                d,
                bank,
                r,
                off,
                bytes,
                signed,
                uniform,
            } => {
                let mut out = [0u32; 32];
                let n = *bytes as usize;
                let mut hi = [0u32; 32];
                // An index that is the same in every lane (`RZ`, a uniform register; every
                // `ULDC`) reads the bank once.
                let uniform_index = *r == sc.zero || (*r > sc.zero && *r < sc.b);
                let each = if uniform_index && e != 0 {
                    e & e.wrapping_neg()
                } else {
                    e
                };
                for l in lanes(each) {
                    let idx = w.regs[*r as usize * 32 + l] as u32;
                    let at = off.wrapping_add(idx);
                    let v = self.cword(*bank, at, n).ok_or_else(|| {
                        (
                            FaultKind::OutOfBounds {
                                access: "read",
                                space: "const",
                                addr: at as u64,
                                size: n as u32,
                                hint: format!("constant bank {bank}"),
                            },
                            pc,
                            w.id * 32 + l as u32,
                        )
                    })?;
                    let v = if *signed {
                        sign_extend(v, n as u32, 4)
                    } else {
                        v
                    };
                    out[l] = v as u32;
                    hi[l] = (v >> 32) as u32;
                }
                if !*uniform && e != 0 {
                    // The indexed constant cache's requests: one per distinct address.
                    let mut at = [0u32; 32];
                    let mut n = 0;
                    for l in lanes(each) {
                        let a = off.wrapping_add(w.regs[*r as usize * 32 + l] as u32);
                        if !at[..n].contains(&a) {
                            at[n] = a;
                            n += 1;
                        }
                    }
                    self.obs.ldc(pc, n as u32);
                }
                if each != e {
                    let l0 = each.trailing_zeros() as usize;
                    out = [out[l0]; 32];
                    hi = [hi[l0]; 32];
                }
                self.put(w, sc, *d, e, &out);
                if n == 8 {
                    let d2 = if *d == sc.sink { *d } else { *d + 1 };
                    self.put(w, sc, d2, e, &hi);
                }
            }
            SOp::R2ur { d, a: ra, p, or } => {
                if e != 0 {
                    let regs = &w.regs[*ra as usize * 32..*ra as usize * 32 + 32];
                    let first = regs[e.trailing_zeros() as usize] as u32;
                    // The uniform register gets the first executing lane's value; the
                    // predicate is set in the lanes whose value differs from it, and `.OR`
                    // ORs that into the predicate's old value. Measured: with the predicate
                    // set where the values are equal, binaryPartitionCG's `R2UR P0, URZ, R7;
                    // @!P0 BRA.DIV` gave 2,080,233 for smsp__sass_thread_inst_executed_pred_on
                    // against the H200's 2,096,617, with it set where they differ exactly
                    // 2,096,617 (tests/front/sass.rs). ptxas's loops that make a per-lane 64-bit
                    // value uniform (`@P1 R2UR P0, UR6, R2; @P1 R2UR.OR P0, UR7, R3; @!P0 TEX
                    // ..., UR6`: a texture handle that differs between lanes,
                    // tests/fixtures/tex_forms) run the instruction for the lanes whose both
                    // words equal the uniform pair, as this gives.
                    let differ =
                        lanes(e).fold(0u32, |a, l| a | ((regs[l] as u32 != first) as u32) << l);
                    let old = if *or { w.preds[*p as usize] } else { 0 };
                    self.put(w, sc, *d, e, &[first; 32]);
                    put_pred(w, *p, e, differ | old);
                }
            }
            SOp::Tex { aoffi, nonresident } => {
                self.sass_tex(w, mem, sc, pc, e, *aoffi)?;
                // Every texel is resident: a sparse fetch's predicate is cleared.
                put_pred(w, *nonresident, e, 0);
            }
            SOp::Mem { .. } => {
                if e != 0 {
                    let mut addrs = self.sass_addrs(w, sc, &si.op);
                    let inst = &self.l.kernel.code[pc as usize];
                    generic_shared_window(inst, &mut addrs);
                    self.memory_at(w, mem, inst, pc, e, addrs)?;
                }
            }
            SOp::Shfl {
                mode,
                p,
                d,
                a: ra,
                b: sb,
                c: sc_,
            } => {
                let b = self.vals(w, *sb);
                let c = self.vals(w, *sc_);
                let src: [u32; 32] = std::array::from_fn(|l| w.regs[*ra as usize * 32 + l] as u32);
                let (out, pv) = warp_ops::shfl::exchange(*mode, e, &src, &b, &c);
                self.put(w, sc, *d, e, &out);
                put_pred(w, *p, e, pv);
            }
            SOp::Vote {
                mode, d, p, a: pa, ..
            } => {
                let v = warp_ops::vote::vote(*mode, pbits(w, *pa), &Participants::executing(e), e);
                self.put(w, sc, *d, e, &v.ballot);
                put_pred(w, *p, e, v.pred);
            }
            SOp::Redux {
                op,
                signed,
                d,
                a: ra,
            } => {
                let mut vals = [0u32; 32];
                for l in lanes(e) {
                    vals[l] = w.regs[*ra as usize * 32 + l] as u32;
                }
                let out =
                    warp_ops::redux::redux(*op, *signed, &vals, &Participants::executing(e), e);
                self.put(w, sc, *d, e, &out);
            }
            SOp::Bra { target, cond } => {
                let taken = e & pbits(w, *cond);
                branch(w, sc, m, taken, pc, *target);
                return Ok(());
            }
            SOp::Exit => {
                w.exit(m, e, pc);
                let again = release_complete(w, sc);
                self.bsync_again(again);
                return Ok(());
            }
            SOp::Bssy { b: bar } => {
                let base = *bar as usize * 32;
                for l in lanes(e) {
                    w.regs[base + l] = e as u64;
                }
            }
            SOp::Bsync { b: bar } => {
                // Each lane waits until every live lane of its barrier mask has arrived.
                let base = *bar as usize * 32;
                if e != 0 {
                    let masks: [u32; 32] = std::array::from_fn(|l| w.regs[base + l] as u32);
                    if lanes(e).any(|l| masks[l] & w.live & !e != 0) {
                        let again = park(w, sc, m, e, pc, (*bar - sc.b) as u32, &masks);
                        self.bsync_again(again);
                        return Ok(());
                    }
                }
            }
            SOp::Break { b: bar } => {
                // The executing lanes leave the barrier, in every lane's copy of it.
                let base = *bar as usize * 32;
                for l in 0..32 {
                    w.regs[base + l] &= !(e as u64);
                }
                let again = release_complete(w, sc);
                self.bsync_again(again);
            }
            SOp::Bar { id, count, arrive } => {
                if e != 0 {
                    let lane0 = e.trailing_zeros() as usize;
                    let id = self.one(w, *id, lane0);
                    let expected = match count {
                        Some(c) => self.one(w, *c, lane0),
                        None => 0,
                    };
                    if !*arrive && w.waiting != 0 && w.bar_pc == pc {
                        // Lanes of this warp already wait at this barrier: the H200 resumes
                        // them together, as one group (shfl_scan's and binaryPartitionCG's
                        // instruction counts).
                        let gid = sc.gid as usize * 32;
                        let g = w.regs[gid + w.waiting.trailing_zeros() as usize];
                        for l in lanes(e) {
                            w.regs[gid + l] = g;
                        }
                    }
                    self.bar_arrive(w, mem, pc, m, e, id, expected, *arrive)?;
                }
            }
            SOp::LdgSts { global, shared, n } => {
                if e != 0 {
                    let addrs = self.sass_addrs(w, sc, global);
                    let inst = &self.l.kernel.code[pc as usize];
                    self.cur_ldgsts = true;
                    let r = self.memory_at(w, mem, inst, pc, e, addrs);
                    self.cur_ldgsts = false;
                    r?;
                    let dst = self.sass_addrs(w, sc, shared);
                    let s: Vec<crate::ir::Src> = (0..u32::from(*n))
                        .map(|k| crate::ir::Src::Reg(u32::from(sc.stage) + k))
                        .collect();
                    self.cp_async_queue_at(w, mem, &s, &dst, e);
                }
            }
            SOp::SyncsExch { d, addr, s } => {
                if e != 0 {
                    let l = e.trailing_zeros() as usize;
                    let a = self.sass_addrs(w, sc, addr)[l];
                    let (lo, hi) = (*s as usize * 32 + l, (*s as usize + 1) * 32 + l);
                    let v = w.regs[lo] & 0xffff_ffff | (w.regs[hi] & 0xffff_ffff) << 32;
                    let old = self.mbar_rmw(w, mem, l, a, pc, |_| Ok(v))?;
                    if *d != sc.sink {
                        self.put(w, sc, *d, e, &[old as u32; 32]);
                        self.put(w, sc, d + 1, e, &[(old >> 32) as u32; 32]);
                    }
                }
            }
            SOp::SyncsArrive {
                d,
                addr,
                b,
                arrive,
                expect,
                complete,
            } => {
                let addrs = self.sass_addrs(w, sc, addr);
                let mut out = [0u32; 32];
                for l in lanes(e) {
                    let bv = w.regs[*b as usize * 32 + l] & 0xffff_ffff;
                    let amt = |k: u8| match k {
                        0 => 0,
                        1 => 1,
                        _ => bv,
                    };
                    let (n, x, c) = (amt(*arrive), amt(*expect), amt(*complete));
                    let old = self.mbar_rmw(w, mem, l, addrs[l], pc, |st| {
                        super::mbarrier::update(st, n, x, c)
                    })?;
                    out[l] = (old >> 32) as u32;
                }
                // The high word of the state to the odd register; the even one keeps its
                // value (tests/hw/h200/mbarrier: case 17's token is 0x100, the size operand
                // in the same register, in its low word).
                if *d != sc.sink {
                    self.put(w, sc, d + 1, e, &out);
                }
            }
            SOp::PhaseChk {
                trywait,
                p,
                addr,
                b,
            } => {
                let addrs = self.sass_addrs(w, sc, addr);
                let mut done = 0u32;
                for l in lanes(e) {
                    let st = self.mbar_rmw(w, mem, l, addrs[l], pc, Ok)?;
                    let hi = w.regs[*b as usize * 32 + l] as u32;
                    done |= u32::from(super::mbarrier::phase_done(st, hi)) << l;
                }
                if done != e {
                    // A wait that is not over gives the other warps their turn; a try-wait
                    // runs again (a wait that can never end runs into the block's budget).
                    w.yielded = true;
                    if *trywait {
                        self.retry = true;
                        return Ok(());
                    }
                }
                put_pred(w, *p, e, done);
            }
            SOp::LdgstsBar { addr, arrive } => {
                self.cp_async_land(w, mem, 0, true, e, pc)?;
                let addrs = self.sass_addrs(w, sc, addr);
                let (n, c) = if *arrive { (1, 0) } else { (0, 1) };
                for l in lanes(e) {
                    self.mbar_rmw(w, mem, l, addrs[l], pc, |st| {
                        super::mbarrier::update(st, n, 0, c)
                    })?;
                }
            }
            SOp::Ublkcp { dst, src, size } => {
                if e != 0 {
                    let l = e.trailing_zeros() as usize;
                    let r = |s: u16| w.regs[s as usize * 32 + l] & 0xffff_ffff;
                    let to = r(*dst).wrapping_sub(SHARED_RESERVED);
                    let bar = r(dst + 1).wrapping_sub(SHARED_RESERVED);
                    let from = r(*src) | r(src + 1) << 32;
                    let bytes = (r(*size) as u32 & 0xffff) * 16;
                    self.bulk_copy(w, mem, l, to, from, bar, bytes, pc)?;
                }
            }
            SOp::Elect { p, d, q } => {
                let cand = e & pbits(w, *q);
                if cand != 0 {
                    let l = cand.trailing_zeros();
                    put_pred(w, *p, e, 1 << l);
                    self.put(w, sc, *d, e, &[l; 32]);
                } else {
                    put_pred(w, *p, e, 0);
                }
            }
            SOp::Timer64 { d } => {
                let t = self.clock;
                self.put(w, sc, *d, e, &[t as u32; 32]);
                self.put(w, sc, d + 1, e, &[(t >> 32) as u32; 32]);
            }
            SOp::CpAsyncCommit => Self::cp_async_commit(w, e),
            SOp::CpAsyncWait { n } => self.cp_async_land(w, mem, *n, false, e, pc)?,
            SOp::Nop => {}
            SOp::Yield => {
                // The yielding lanes leave every convergence barrier they are in, in every
                // lane's copy of it (as a `BREAK` of each), and wait at none of them (their
                // own copies emptied): from there they run on as the groups they are,
                // meeting again only at a later `BSSY`'s `BSYNC` or a `WARPSYNC`. Measured on the H200's Source page (tests/hw/h200/cas, the
                // one-warp user `atomicCAS` loops of cas_probe, whose loop holds a `YIELD`):
                // with n lanes in the loop, the `BSYNC B1` closing it executes n times with n
                // threads, the `BSYNC B0` after it n + 1 times (n times for 32 lanes), and
                // every instruction up to `EXIT` once per leaving lane plus once for the lanes
                // that skipped the loop (1 lane: 2 times, 32 threads; 2 lanes: 3 times); the
                // same loop shape without `YIELD` (spin_sh's `ATOMS.CAST.SPIN.64` loop)
                // merges at `BSYNC B0`, after which the code runs once.
                if e != 0 {
                    let (b0, b1) = (sc.b as usize * 32, sc.wsync as usize * 32);
                    for (i, r) in w.regs[b0..b1].iter_mut().enumerate() {
                        // A yielding lane's own copy: it waits for no lane.
                        *r = if e >> (i % 32) & 1 == 1 {
                            0
                        } else {
                            *r & !(e as u64)
                        };
                    }
                    let again = release_complete(w, sc);
                    self.bsync_again(again);
                }
                w.yielded = true;
            }
        }
        w.advance(m, pc + 1);
        Ok(())
    }
}
