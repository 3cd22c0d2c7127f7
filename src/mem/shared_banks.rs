//! Shared-memory banks: how many wavefronts one warp-level shared-memory instruction needs.
//!
//! What is modelled, and where each rule comes from:
//! - Shared memory is 32 banks of 4 bytes; 4-byte word `w` lives in bank `w % 32`
//!   ([`GpuConfig::shared_banks`], [`GpuConfig::bank_width`]; CUDA C++ Programming Guide,
//!   "Compute Capability 5.x and later / Shared Memory", which 9.0 inherits).
//! - 32-bit and narrower loads and stores: the instruction takes as many wavefronts as the largest
//!   number of DISTINCT 4-byte words requested in one bank; lanes reading the same word are served
//!   at once (broadcast / multicast), and so are lanes touching different bytes of one word
//!   (Programming Guide, same section: "a shared memory request for a warp does not generate a bank
//!   conflict between two threads that access any address within the same 32-bit word").
//!   Measured on an H200 with Nsight Compute: a stride of `k` words costs `gcd(k, 32)` wavefronts
//!   (`tests/hw/h200/hw/ncu/k_shared_stride.csv`, every launch; kernels in
//!   `tests/hw/kernels/shared_stride.cu`).
//! - Bank conflicts are wavefronts beyond the ideal count: Nsight Compute defines
//!   `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st,atom}` that way (Kernel Profiling
//!   Guide, "Memory Tables / Shared Memory"). [`SharedAccess::conflicts`] is that difference.
//! - 64- and 128-bit accesses (**measured**, `tests/hw/h200/hw/ncu/k_shared_wide.csv`, launches
//!   1–37 of `tests/hw/kernels/shared_wide.toml`, all 37 explained): an access of `n = width / 4`
//!   words per lane is processed in `n` phases of `32 / n` consecutive lanes (64-bit: half-warps
//!   0–15 and 16–31; 128-bit: quarter-warps of 8). Each phase costs the largest number of distinct
//!   words in one bank among ITS lanes; phases add up; a phase with no active lane costs nothing
//!   (launches 24, 25, 31, 32: only lanes 0–15 / 0–7 / lane 0 active give 1 wavefront, not 2 or
//!   4). Lanes of different phases never share a wavefront, even when they read the same words
//!   (launch 22, lanes `t` and `t+16` equal: 2; launch 36, all quarter-warps equal: 4), and they
//!   never conflict with each other (launch 30: 4; launch 21, each half-warp using 16 banks
//!   twice: 4, where a whole-warp rule would give 2).
//! - **Uniform-pair packing** for wide LOADS (measured, same CSV): when, for every pair of active
//!   lanes (`Tn`, `Tn^1`), both lanes have the same address, or the same holds for every pair
//!   (`Tn`, `Tn^2`) (a pair with an inactive lane does not break the condition, so one active
//!   lane, or all active lanes on one address, qualify), the returned registers are packed two
//!   lanes per 32-bit slot and the phases are twice as wide: 64-bit loads then form ONE phase of
//!   32 lanes and 128-bit loads two half-warp phases. Launch 23 (`idx_v2_pairs`) and 26
//!   (`idx_v2_broadcast`): 1 wavefront, not 2; launches 33 (`idx_v4_broadcast`), 34
//!   (`idx_v4_pairs`, `Tn == Tn^1`) and 35 (`idx_v4_pairs2`, `Tn == Tn^2`): 2, not 4; all with 0
//!   conflicts, so the ideal count is halved too. This is the rule NVIDIA's forum answer states
//!   for compute capability 7.x ("Unexpected shared memory bank conflict", thread 77228: "Thread
//!   pairs (Tn and Tn^1) have the same addresses for all active threads ..., or Thread pairs (Tn
//!   and Tn^2) ...", "the requests/instruction should reduce from 4 to 2"); the H200 keeps it.
//!   Not measured: the `Tn^2` form for 64-bit loads (applied as the forum states), and packing
//!   for stores (not applied: the forum speaks of loads, and no store launch has uniform pairs).
//! - Shared ATOMICS whose result is used (`atom`, SASS `ATOMS.ADD` with a destination) do not
//!   broadcast: every active lane is a separate access, so the cost is the largest number of
//!   active lanes addressing one bank, same word or not. `tests/hw/h200/hw/ncu/k_shared_patterns.csv`
//!   launches 13–15 (`sh_atomic`, SASS in `tests/hw/h200/hw/logs/k_shared_patterns.sass`): 32
//!   lanes on one word give 32 wavefronts (31 conflicts), lane `t` on word `t` gives 1, lane `t`
//!   on word `32t` gives 32. The distinct-word rule would give 1 for the first.
//! - Shared REDUCTIONS (`red`, or `atom` whose result is unused, which ptxas compiles without a
//!   destination) use the distinct-word rule of loads: `tests/hw/h200/hw/ncu/histogram.csv`
//!   launch 2 (`histogram256` over one repeated byte, `atomicAdd(&sh[b], 1)` compiled to
//!   `ATOMS.POPC.INC.32`, `tests/hw/h200/hw/logs/histogram.sass`): all 32 lanes on one word cost
//!   1 wavefront per instruction (32768 for 32768 instructions), and launch 1 (random bytes)
//!   matches the distinct-word count exactly (103158). Only this increment-by-one form is
//!   measured; whether an unused-result `ATOMS.ADD` of a variable value aggregates the same way
//!   is an assumption.
//! - Shared COMPARE-AND-SWAP (measured, `tests/hw/h200/cas/`, Source page of
//!   `tests/hw/cas/cas_probe.toml`, `tests/hw/h200/cas/source.csv` launches 42-43 (0-based),
//!   `cas_pat`, compare equal and unequal alike):
//!   `ATOMS.CAS` costs twice the wavefronts and twice the ideal wavefronts of the other atomics
//!   on the same addresses: 32-bit, 32 lanes on one word 64 (ideal 2), on consecutive words 2,
//!   stride 2 words 4, one bank 64; 64-bit: one word 64 (ideal 4), consecutive 4, stride 2 8,
//!   one bank 64; the user CAS loops of launches 1-23 (one warp, 1-32 lanes on one u64) 2 per
//!   active lane. ptxas's `ATOMS.CAST.SPIN.64` (the retry loop of a shared 64-bit
//!   `atomicAdd`) does not serialize its same-address lanes: 2 wavefronts per half-warp with
//!   an active lane, equal to the ideal (launches 0-21 of one warp: 32 lanes 96 for 32
//!   executions, 31 lanes 94, 16 lanes 32; and every multi-warp launch once the retry order of
//!   `crate::exec` is applied).
//! - Stores use the load rule without packing (k_shared_wide.csv launches 15–20, `STS.64` /
//!   `STS.128` strides, and every `STS` of the other kernels).
//!
//! Widths above 32 bytes per lane do not exist for shared memory in PTX ISA 9.x; a lane's access
//! is clamped to 9 words (a misaligned 32-byte access) so the counting stays allocation-free.

use crate::gpu::config::GpuConfig;
use crate::mem::request::{AccessKind, Cas, MemRequest};

/// The cost of one warp-level shared-memory instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct SharedAccess {
    /// Wavefronts the instruction takes (Nsight Compute
    /// `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`).
    pub wavefronts: u32,
    /// Wavefronts it would take without any bank conflict.
    pub ideal_wavefronts: u32,
    /// The worst N-way conflict: the largest number of distinct words one bank had to serve in
    /// one phase (1 = conflict-free; 0 = no active lane).
    pub max_way: u32,
}

impl SharedAccess {
    /// Bank conflicts as Nsight Compute counts them: wavefronts beyond the ideal.
    pub fn conflicts(&self) -> u32 {
        self.wavefronts.saturating_sub(self.ideal_wavefronts)
    }
}

/// Most words one lane's access can cover (a misaligned 32-byte access).
const MAX_WORDS_PER_LANE: usize = 9;

/// Wavefronts for `req` (see the module docs for the rules).
pub fn shared_wavefronts(req: &MemRequest, cfg: &GpuConfig) -> SharedAccess {
    shared_wavefronts_with(req, cfg, true)
}

/// [`shared_wavefronts`], with its shortcuts for conflict-free accesses taken or not
/// (`fast_paths`); the answer is the same either way.
pub fn shared_wavefronts_with(req: &MemRequest, cfg: &GpuConfig, fast_paths: bool) -> SharedAccess {
    if req.mask == 0 {
        return SharedAccess::default();
    }
    let bank_width = u64::from(cfg.bank_width.max(1));
    let banks = u64::from(cfg.shared_banks.max(1));
    let width = u64::from(req.width.max(1));
    // Atomics with a result serialize every lane; everything else merges equal words.
    let merge_equal_words = req.kind != AccessKind::Atomic;
    // Passes a full warp needs to move its data: one per 32-bit register returned.
    let mut passes = width.div_ceil(bank_width).clamp(1, 32) as u32;
    if passes > 1 && req.kind == AccessKind::Load && uniform_pairs(req) {
        passes /= 2;
    }

    let lanes_per_phase = 32u32.div_ceil(passes);
    let mut out = SharedAccess::default();
    let mut first = 0u32;
    while first < 32 {
        let end = (first + lanes_per_phase).min(32);
        let phase_mask = lane_range_mask(first, end);
        if req.mask & phase_mask != 0 {
            let worst = max_words_per_bank(
                req,
                first,
                end,
                bank_width,
                banks,
                merge_equal_words,
                fast_paths,
            );
            out.wavefronts += worst;
            out.ideal_wavefronts += 1;
            out.max_way = out.max_way.max(worst);
        }
        first = end;
    }
    match req.cas {
        Cas::No => {}
        // Two words per lane's word: the compare value and the new value.
        Cas::Swap => {
            out.wavefronts *= 2;
            out.ideal_wavefronts *= 2;
        }
        // Same-address lanes do not serialize: two per phase with an active lane.
        Cas::Spin => {
            out.ideal_wavefronts *= 2;
            out.wavefronts = out.ideal_wavefronts;
            out.max_way = out.max_way.min(1);
        }
    }
    out
}

/// The forum's packing condition: every pair (`Tn`, `Tn^1`) of active lanes has one address, or
/// every pair (`Tn`, `Tn^2`) does. A pair with an inactive lane does not break it.
fn uniform_pairs(req: &MemRequest) -> bool {
    [1usize, 2].iter().any(|&x| {
        (0..32usize).all(|n| {
            let m = n ^ x;
            req.mask >> n & 1 == 0 || req.mask >> m & 1 == 0 || req.addrs[n] == req.addrs[m]
        })
    })
}

/// Bits `first..end` set.
fn lane_range_mask(first: u32, end: u32) -> u32 {
    let upper = if end >= 32 {
        u32::MAX
    } else {
        (1u32 << end) - 1
    };
    let lower = if first >= 32 {
        u32::MAX
    } else {
        (1u32 << first) - 1
    };
    upper & !lower
}

/// The largest number of distinct words requested in one bank by the active lanes in
/// `first..end` (with `merge_equal_words` false: the largest number of lane-word accesses to one
/// bank, equal words counted each time). Allocation-free: words are gathered in a stack buffer.
fn max_words_per_bank(
    req: &MemRequest,
    first: u32,
    end: u32,
    bank_width: u64,
    banks: u64,
    merge_equal_words: bool,
    fast_paths: bool,
) -> u32 {
    let width = u64::from(req.width.max(1));
    // Word and bank of an address; shifts and masks when the sizes are powers of two (4-byte
    // words and 32 banks on the H200: `GpuConfig::bank_width`/`shared_banks`, CUDA C++
    // Programming Guide, "Shared Memory"), divisions otherwise.
    let pow2 = bank_width.is_power_of_two() && banks.is_power_of_two();
    let (wshift, bmask) = (bank_width.trailing_zeros(), banks.wrapping_sub(1));
    let word = |a: u64| if pow2 { a >> wshift } else { a / bank_width };
    let bank = |w: u64| if pow2 { w & bmask } else { w % banks };
    // Fastest path (4-byte words, 32 banks): no bank sees two different words.
    if fast_paths && pow2 && banks == 32 && wshift == 2 {
        let phase = req.mask & lane_range_mask(first, end);
        if phase == 0 {
            return 0;
        }
        // Quickest test: all the words fall in 32 consecutive words, which lie in 32 different
        // banks (broadcast, unit stride, any permutation inside one 128-byte span).
        if merge_equal_words {
            let (mut lo, mut hi) = (u64::MAX, 0u64);
            for lane in first as usize..end as usize {
                let a = req.addrs[lane];
                let on = phase >> lane & 1 == 1;
                lo = if on { lo.min(a) } else { lo };
                hi = if on { hi.max(a) } else { hi };
            }
            if (hi.saturating_add(width - 1) >> 2) < (lo >> 2) + 32 {
                return 1;
            }
        }
        let mut seen = [u32::MAX; 32];
        let mut m = phase;
        let span = ((width + 3) >> 2).min(MAX_WORDS_PER_LANE as u64) as u32;
        let mut clash = false;
        'lanes: while m != 0 {
            let lane = m.trailing_zeros() as usize;
            m &= m - 1;
            let w0 = (req.addrs[lane] >> 2) as u32;
            let words = if req.addrs[lane] & 3 == 0 {
                span
            } else {
                span + 1
            };
            for w in w0..w0 + words {
                let b = (w & 31) as usize;
                if seen[b] == u32::MAX {
                    seen[b] = w;
                } else if seen[b] != w || !merge_equal_words {
                    clash = true;
                    break 'lanes;
                }
            }
        }
        if !clash {
            return 1;
        }
    }
    // Fast path: every bank sees at most one distinct word (the common, conflict-free case).
    if fast_paths && banks <= 64 {
        let mut seen = [u64::MAX; 64];
        let mut fast = true;
        let mut any = false;
        'lanes: for lane in first..end {
            if req.mask >> lane & 1 == 0 {
                continue;
            }
            any = true;
            let addr = req.addrs[lane as usize];
            let w0 = word(addr);
            let w1 = word(addr.saturating_add(width - 1));
            for w in w0..=w1.min(w0 + MAX_WORDS_PER_LANE as u64 - 1) {
                let b = bank(w) as usize;
                if seen[b] == u64::MAX {
                    seen[b] = w;
                } else if seen[b] != w || !merge_equal_words {
                    fast = false;
                    break 'lanes;
                }
            }
        }
        if !any {
            return 0;
        }
        if fast {
            return 1;
        }
    }
    let mut buf = [0u64; 32 * MAX_WORDS_PER_LANE];
    let mut n = 0usize;
    for lane in first..end {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let addr = req.addrs[lane as usize];
        let w0 = word(addr);
        let w1 = word(addr.saturating_add(width - 1));
        let count = (w1 - w0 + 1).min(MAX_WORDS_PER_LANE as u64);
        for w in w0..w0 + count {
            buf[n] = w;
            n += 1;
        }
    }
    if n == 0 {
        return 0;
    }
    let words = &mut buf[..n];
    // Order by (bank, word): equal words become adjacent, and so do the words of one bank.
    words.sort_unstable_by_key(|&w| (bank(w), w));
    let mut worst = 0u32;
    let mut run = 0u32;
    let mut prev: Option<u64> = None;
    for &w in words.iter() {
        match prev {
            Some(p) if p == w && merge_equal_words => continue,
            Some(p) if bank(p) == bank(w) => run += 1,
            _ => run = 1,
        }
        worst = worst.max(run);
        prev = Some(w);
    }
    worst
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;
    use crate::mem::request::{AccessKind, CacheOp, Space};

    fn req(width: u32, mask: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp: 0,
            space: Space::Shared,
            kind: AccessKind::Load,
            width,
            addrs,
            mask,
            pc: 0,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    fn wf(r: &MemRequest) -> u32 {
        shared_wavefronts(r, &H200).wavefronts
    }

    fn gcd(a: u64, b: u64) -> u64 {
        if b == 0 {
            a
        } else {
            gcd(b, a % b)
        }
    }

    #[test]
    fn stride_1_to_33_follows_gcd() {
        // Lane l reads word l*k; bank (l*k) % 32. Lanes l and l' collide iff 32 | (l-l')*k,
        // i.e. iff (l-l') is a multiple of 32/gcd(k,32): each used bank holds gcd(k,32) words.
        for k in 1..=33u64 {
            let r = req(4, u32::MAX, |l| l * k * 4);
            let a = shared_wavefronts(&r, &H200);
            assert_eq!(u64::from(a.wavefronts), gcd(k, 32), "stride {k}");
            assert_eq!(a.ideal_wavefronts, 1);
            assert_eq!(u64::from(a.conflicts()), gcd(k, 32) - 1);
            assert_eq!(u64::from(a.max_way), gcd(k, 32));
        }
    }

    #[test]
    fn column_of_32x32_is_32_way_and_32x33_is_free() {
        // float s[32][32]; s[l][k]: word 32l+k, bank k for every lane.
        assert_eq!(wf(&req(4, u32::MAX, |l| (32 * l + 5) * 4)), 32);
        // float s[32][33]; s[l][k]: word 33l+k, bank (l+k)%32, all different.
        assert_eq!(wf(&req(4, u32::MAX, |l| (33 * l + 5) * 4)), 1);
    }

    #[test]
    fn broadcast_and_multicast_are_free() {
        assert_eq!(wf(&req(4, u32::MAX, |_| 64)), 1);
        // Multicast: lanes in pairs read the same word, 16 words in 16 banks.
        assert_eq!(wf(&req(4, u32::MAX, |l| (l / 2) * 4)), 1);
        // Different bytes of one word: u8 loads s[l] for l<32 touch words 0..7, one each bank.
        assert_eq!(wf(&req(1, u32::MAX, |l| l)), 1);
        // u16 at byte (l/2)*128 + (l%2)*2: lanes 2j and 2j+1 share word 32j, all in bank 0:
        // 16 distinct words in one bank.
        assert_eq!(wf(&req(2, u32::MAX, |l| (l / 2) * 128 + (l % 2) * 2)), 16);
    }

    #[test]
    fn two_words_in_one_bank() {
        // Lanes 0..31 read word l, except lane 31 reads word 32 (bank 0, besides word 0).
        let r = req(4, u32::MAX, |l| if l == 31 { 128 } else { l * 4 });
        let a = shared_wavefronts(&r, &H200);
        assert_eq!((a.wavefronts, a.conflicts(), a.max_way), (2, 1, 2));
    }

    #[test]
    fn inactive_lanes_do_not_count() {
        // Stride 32 (32-way) but only lanes 0 and 16 active: 2 words in bank 0.
        let r = req(4, 1 | 1 << 16, |l| l * 128);
        assert_eq!(wf(&r), 2);
        let none = req(4, 0, |l| l * 128);
        assert_eq!(shared_wavefronts(&none, &H200), SharedAccess::default());
    }

    #[test]
    fn wide_strides_under_phases() {
        // 64-bit, stride s (in 8-byte units): lane l covers words 2sl, 2sl+1. Within a half-warp
        // (16 lanes) the 32 words have bank pattern of stride 2s: a half-warp's 16 lanes use
        // 16/gcd(s,16) distinct bank pairs, so each bank holds gcd(s,16) words.
        for (s, per_phase) in [
            (1u64, 1u32),
            (2, 2),
            (3, 1),
            (4, 4),
            (8, 8),
            (16, 16),
            (32, 16),
        ] {
            let r = req(8, u32::MAX, |l| l * s * 8);
            let a = shared_wavefronts(&r, &H200);
            assert_eq!(a.wavefronts, 2 * per_phase, "64-bit stride {s}");
            assert_eq!(a.ideal_wavefronts, 2);
        }
        // 128-bit, stride s (16-byte units): quarter-warp of 8 lanes, words 4sl..4sl+3; each bank
        // holds gcd(s,8) words.
        for (s, per_phase) in [
            (1u64, 1u32),
            (2, 2),
            (3, 1),
            (4, 4),
            (8, 8),
            (16, 8),
            (32, 8),
        ] {
            let r = req(16, u32::MAX, |l| l * s * 16);
            let a = shared_wavefronts(&r, &H200);
            assert_eq!(a.wavefronts, 4 * per_phase, "128-bit stride {s}");
            assert_eq!(a.ideal_wavefronts, 4);
        }
    }

    /// A 64-bit (`e` = float2 index) or 128-bit (float4 index) load from a table of element
    /// indices, `-1` = inactive lane, as in `tests/hw/kernels/shared_wide.toml`.
    fn table(width: u32, idx: [i64; 32]) -> SharedAccess {
        let mut mask = 0u32;
        for (l, &e) in idx.iter().enumerate() {
            if e >= 0 {
                mask |= 1 << l;
            }
        }
        let r = req(width, mask, |l| {
            idx[l as usize].max(0) as u64 * u64::from(width)
        });
        shared_wavefronts(&r, &H200)
    }

    fn lanes(f: impl Fn(i64) -> i64) -> [i64; 32] {
        let mut v = [0i64; 32];
        for (l, e) in v.iter_mut().enumerate() {
            *e = f(l as i64);
        }
        v
    }

    /// Lane -> element index, expected wavefronts, expected conflicts.
    type Case = (fn(i64) -> i64, u32, u32);

    #[test]
    fn wide_tables_match_h200() {
        // (element index of lane l, hardware wavefronts, hardware conflicts) from
        // tests/hw/h200/hw/ncu/k_shared_wide.csv, launches 21-37.
        let v2: [Case; 8] = [
            // 21 idx_v2_split: each half-warp uses 16 banks twice -> 2 + 2.
            (|l| [0, 16, 8, 24][(l / 8) as usize] + l % 8, 4, 2),
            (|l| l % 16, 2, 0), // 22 dup_halves: no cross-phase merge
            (|l| l / 2, 1, 0),  // 23 pairs Tn == Tn^1: packed
            (|l| if l < 16 { l } else { -1 }, 1, 0), // 24 one_half
            (|l| if l == 0 { 0 } else { -1 }, 1, 0), // 25 one_lane
            (|_| 0, 1, 0),      // 26 broadcast: packed
            (|l| l, 2, 0),      // 27 cross_bank (stride 1)
            // 28 conflict_half0: half 0 on elements 16l (words 32l, 32l+1: 16 in banks 0 and
            // 1), half 1 all on element 8: 16 + 1.
            (|l| if l < 16 { 16 * l } else { 8 }, 17, 15),
        ];
        for (i, (f, wf, c)) in v2.iter().enumerate() {
            let a = table(8, lanes(f));
            assert_eq!(
                (a.wavefronts, a.conflicts()),
                (*wf, *c),
                "v2 launch {}",
                21 + i
            );
        }
        let v4: [Case; 9] = [
            (|l| 8 * (l % 4) + l / 4, 16, 12), // 29 transposed: 4-way in each quarter
            (|l| 32 * (l / 8) + l % 8, 4, 0),  // 30 quarter_cross
            (|l| if l < 8 { l } else { -1 }, 1, 0), // 31 one_quarter
            (|l| if l == 0 { 0 } else { -1 }, 1, 0), // 32 one_lane
            (|_| 0, 2, 0),                     // 33 broadcast: packed into half-warps
            (|l| l / 2, 2, 0),                 // 34 pairs Tn == Tn^1
            (|l| (l / 4) * 2 + l % 2, 2, 0),   // 35 pairs2 Tn == Tn^2
            (|l| l % 8, 4, 0),                 // 36 dup_quarters: no merge
            (|l| l, 4, 0),                     // 37 half_split (stride 1)
        ];
        for (i, (f, wf, c)) in v4.iter().enumerate() {
            let a = table(16, lanes(f));
            assert_eq!(
                (a.wavefronts, a.conflicts()),
                (*wf, *c),
                "v4 launch {}",
                29 + i
            );
        }
    }

    #[test]
    fn packing_is_for_loads_only() {
        // A 128-bit store with all lanes on one address: 4 quarter-warps of 1 wavefront each.
        let mut r = req(16, u32::MAX, |_| 0);
        r.kind = AccessKind::Store;
        assert_eq!(wf(&r), 4);
        r.kind = AccessKind::Load;
        assert_eq!(wf(&r), 2);
    }

    #[test]
    fn one_unequal_pair_prevents_packing() {
        // Pairs (2i, 2i+1) equal except lanes 30 and 31: neither condition holds, so the 64-bit
        // load keeps its two half-warp phases (1 each).
        let r = req(8, u32::MAX, |l| if l == 31 { 8 * 16 } else { (l / 2) * 8 });
        assert_eq!(wf(&r), 2);
    }

    #[test]
    fn shared_atomics_serialize_every_lane() {
        // tests/hw/h200/hw/ncu/k_shared_patterns.csv launches 13-15 (sh_atomic, ATOMS.ADD with
        // a result): one word for all lanes 32 (31 conflicts), word t 1, word 32t 32 (31).
        for (addr, wfs, c) in [
            (Box::new(|_| 20u64) as Box<dyn Fn(u64) -> u64>, 32, 31),
            (Box::new(|l| (l + 5) * 4), 1, 0),
            (Box::new(|l| (32 * l + 5) * 4), 32, 31),
        ] {
            let mut r = req(4, u32::MAX, addr);
            r.kind = AccessKind::Atomic;
            let a = shared_wavefronts(&r, &H200);
            assert_eq!((a.wavefronts, a.conflicts()), (wfs, c));
        }
    }

    #[test]
    fn shared_reductions_merge_equal_words() {
        // tests/hw/h200/hw/ncu/histogram.csv launch 2: ATOMS.POPC.INC with every lane on one
        // bin: 1 wavefront per instruction.
        let mut r = req(4, u32::MAX, |_| 28);
        r.kind = AccessKind::Reduction;
        assert_eq!(wf(&r), 1);
        // Two distinct words in bank 0 still conflict: 2.
        let mut r = req(4, u32::MAX, |l| if l < 16 { 0 } else { 128 });
        r.kind = AccessKind::Reduction;
        assert_eq!(wf(&r), 2);
    }
}
