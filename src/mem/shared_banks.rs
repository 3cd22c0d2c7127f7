//! Shared-memory banks: how many wavefronts one warp-level shared-memory instruction needs.
//!
//! What is modelled, and where each rule comes from:
//! - Shared memory is 32 banks of 4 bytes; 4-byte word `w` lives in bank `w % 32`
//!   ([`GpuConfig::shared_banks`], [`GpuConfig::bank_width`]; CUDA C++ Programming Guide,
//!   "Compute Capability 5.x and later / Shared Memory", which 9.0 inherits).
//! - 32-bit and narrower accesses: the instruction takes as many wavefronts as the largest number
//!   of DISTINCT 4-byte words requested in one bank; lanes reading the same word are served at
//!   once (broadcast / multicast), and so are lanes touching different bytes of one word
//!   (Programming Guide, same section: "a shared memory request for a warp does not generate a bank
//!   conflict between two threads that access any address within the same 32-bit word").
//!   Measured on an H200 with Nsight Compute: a stride of `k` words costs `gcd(k, 32)` wavefronts
//!   (`/work/shared/design.md`, "Facts measured on a real H200"; kernels in
//!   `tests/hw/kernels/shared_stride.cu`).
//! - Bank conflicts are wavefronts beyond the ideal count: Nsight Compute defines
//!   `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_{ld,st}` that way (Kernel Profiling Guide,
//!   "Memory Tables / Shared Memory": bank conflicts are the wavefronts beyond the ideal number).
//!   [`SharedAccess::conflicts`] is that difference.
//! - 64- and 128-bit accesses need at least 2 and 4 wavefronts (measured, design.md). HOW the
//!   lanes are grouped is NOT yet measured on the H200. Three candidate rules are implemented
//!   ([`WideRule`]); [`shared_wavefronts`] uses [`WideRule::Phases`], the most widely documented
//!   one, as a **hypothesis pending the H200 measurement** of `tests/hw/kernels/shared_wide.cu`,
//!   whose README lists the count each rule predicts for every launch:
//!   - [`WideRule::Phases`]: an access of `n = width / 4` words per lane is processed as `n`
//!     phases of `32 / n` consecutive lanes (64-bit: half-warps 0–15 and 16–31; 128-bit:
//!     quarter-warps of 8). Each phase costs the largest number of distinct words in one bank
//!     among ITS lanes; phases add up; a phase with no active lane costs nothing. Sources: the
//!     discussion in NVIDIA/cutlass issue #328 (a warp touches two 128-byte regions without
//!     penalty when each half-warp stays in one with 8-byte accesses, four regions per
//!     quarter-warp with 16-byte accesses); the per-instruction wavefront explanations that
//!     accompany Nsight Compute's ideal-wavefront counts (LDS.64: lanes 0–15 in the first
//!     wavefront, 16–31 in the second); Scott Gray in NervanaSystems/maxas issue #8 (for wide
//!     loads, only conflicts within the lower or upper 16 threads matter, Maxwell).
//!   - [`WideRule::FixedPhases`]: the same phases, but every phase costs at least one wavefront
//!     even with no active lane (the instruction always takes `n` passes).
//!   - [`WideRule::WholeWarp`]: any lanes may share a wavefront; the count is the largest number of
//!     distinct words in one bank over the whole warp, but at least `n`, because the data path
//!     returns one 32-bit register per lane per wavefront (NVIDIA forum, "Unexpected shared memory
//!     bank conflict", thread 77228: "the return bandwidth of L1 and shared memory is 128
//!     bytes/cycle == 1 register/cycle ... LDS.128 requires 4 requests per instruction").
//!
//!   The same forum answer reports that on compute capability 7.x an LDS.128 whose thread pairs
//!   (`Tn`, `Tn^1`) or (`Tn`, `Tn^2`) share addresses needs only 2 wavefronts. No rule here models
//!   that packing; `shared_wide.cu` has launches that would reveal it on the H200.
//! - Stores and atomics use the same bank rule: no document found describes a difference. This is
//!   also a hypothesis until the store and atomic launches are measured.
//!
//! Widths above 32 bytes per lane do not exist for shared memory in PTX ISA 9.x; a lane's access
//! is clamped to 9 words (a misaligned 32-byte access) so the counting stays allocation-free.

use crate::gpu::config::GpuConfig;
use crate::mem::request::MemRequest;

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

/// How lanes of a 64- or 128-bit access are grouped into wavefronts (see the module docs).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum WideRule {
    /// Half-warps (64-bit) or quarter-warps (128-bit), summed; empty phases are free.
    #[default]
    Phases,
    /// Like [`WideRule::Phases`], but every phase costs at least one wavefront.
    FixedPhases,
    /// Whole warp at once, at least `width / 4` wavefronts.
    WholeWarp,
}

/// Most words one lane's access can cover (a misaligned 32-byte access).
const MAX_WORDS_PER_LANE: usize = 9;

/// Wavefronts for `req` under the default rule ([`WideRule::Phases`]).
pub fn shared_wavefronts(req: &MemRequest, cfg: &GpuConfig) -> SharedAccess {
    shared_wavefronts_with(req, cfg, WideRule::Phases)
}

/// Wavefronts for `req` under an explicit rule for wide accesses. For accesses of one bank width
/// or less all rules agree.
pub fn shared_wavefronts_with(req: &MemRequest, cfg: &GpuConfig, rule: WideRule) -> SharedAccess {
    if req.mask == 0 {
        return SharedAccess::default();
    }
    let bank_width = u64::from(cfg.bank_width.max(1));
    let banks = u64::from(cfg.shared_banks.max(1));
    let width = u64::from(req.width.max(1));
    // Passes a full warp needs to move its data: one per 32-bit register returned.
    let passes = width.div_ceil(bank_width).clamp(1, 32) as u32;

    if passes == 1 || rule == WideRule::WholeWarp {
        let worst = max_words_per_bank(req, 0, 32, bank_width, banks);
        return SharedAccess {
            wavefronts: worst.max(passes),
            ideal_wavefronts: passes,
            max_way: worst,
        };
    }

    let lanes_per_phase = 32u32.div_ceil(passes);
    let mut out = SharedAccess::default();
    let mut first = 0u32;
    while first < 32 {
        let end = (first + lanes_per_phase).min(32);
        let phase_mask = lane_range_mask(first, end);
        if req.mask & phase_mask != 0 {
            let worst = max_words_per_bank(req, first, end, bank_width, banks);
            out.wavefronts += worst;
            out.ideal_wavefronts += 1;
            out.max_way = out.max_way.max(worst);
        } else if rule == WideRule::FixedPhases {
            out.wavefronts += 1;
            out.ideal_wavefronts += 1;
        }
        first = end;
    }
    out
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
/// `first..end`. Allocation-free: words are gathered in a stack buffer.
fn max_words_per_bank(req: &MemRequest, first: u32, end: u32, bank_width: u64, banks: u64) -> u32 {
    let mut buf = [0u64; 32 * MAX_WORDS_PER_LANE];
    let mut n = 0usize;
    let width = u64::from(req.width.max(1));
    // Fast path: every bank sees at most one distinct word (the common, conflict-free case).
    let mut seen = [u64::MAX; 64];
    let mut fast = banks <= 64;
    for lane in first..end {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let addr = req.addrs[lane as usize];
        let w0 = addr / bank_width;
        let w1 = addr.saturating_add(width - 1) / bank_width;
        let count = (w1 - w0 + 1).min(MAX_WORDS_PER_LANE as u64);
        for w in w0..w0 + count {
            buf[n] = w;
            n += 1;
            if fast {
                let b = (w % banks) as usize;
                if seen[b] == u64::MAX {
                    seen[b] = w;
                } else if seen[b] != w {
                    fast = false;
                }
            }
        }
    }
    if n == 0 {
        return 0;
    }
    if fast {
        return 1;
    }
    let words = &mut buf[..n];
    // Order by (bank, word): equal words become adjacent, and so do the words of one bank.
    words.sort_unstable_by_key(|&w| (w % banks, w));
    let mut worst = 0u32;
    let mut run = 0u32;
    let mut prev: Option<u64> = None;
    for &w in words.iter() {
        match prev {
            Some(p) if p == w => continue,
            Some(p) if p % banks == w % banks => run += 1,
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
            space: Space::Shared,
            kind: AccessKind::Load,
            width,
            addrs,
            mask,
            pc: 0,
            cache_op: CacheOp::Default,
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

    #[test]
    fn wide_rules_disagree_where_expected() {
        // 64-bit "split banks": lanes 0..15 read elements {0..7, 16..23} (banks 0..15 twice),
        // lanes 16..31 read elements {8..15, 24..31} (banks 16..31 twice).
        let split = req(8, u32::MAX, |l| {
            let e = match l {
                0..=7 => l,
                8..=15 => l + 8,
                16..=23 => l - 8,
                _ => l,
            };
            e * 8
        });
        let p = shared_wavefronts_with(&split, &H200, WideRule::Phases);
        let w = shared_wavefronts_with(&split, &H200, WideRule::WholeWarp);
        assert_eq!((p.wavefronts, p.conflicts()), (4, 2));
        assert_eq!((w.wavefronts, w.conflicts()), (2, 0));

        // 128-bit, only lanes 0..7 active, consecutive: one quarter.
        let q = req(16, 0xff, |l| l * 16);
        assert_eq!(
            shared_wavefronts_with(&q, &H200, WideRule::Phases).wavefronts,
            1
        );
        assert_eq!(
            shared_wavefronts_with(&q, &H200, WideRule::FixedPhases).wavefronts,
            4
        );
        assert_eq!(
            shared_wavefronts_with(&q, &H200, WideRule::WholeWarp).wavefronts,
            4
        );

        // 64-bit: lanes l and l+16 read the same element l: each half-warp is conflict-free.
        let dup = req(8, u32::MAX, |l| (l % 16) * 8);
        assert_eq!(
            shared_wavefronts_with(&dup, &H200, WideRule::Phases).wavefronts,
            2
        );
        assert_eq!(
            shared_wavefronts_with(&dup, &H200, WideRule::WholeWarp).wavefronts,
            2
        );
    }

    #[test]
    fn wide_transposed_quarters() {
        // 128-bit: lane l reads element 8*(l%4) + l/4 of a [4][8] float4 tile. Quarter q holds
        // slots 2q, 2q+1 (banks 8q..8q+7) at rows 0..3: 4 distinct words per bank per quarter.
        let r = req(16, u32::MAX, |l| (8 * (l % 4) + l / 4) * 16);
        let p = shared_wavefronts_with(&r, &H200, WideRule::Phases);
        assert_eq!((p.wavefronts, p.conflicts(), p.max_way), (16, 12, 4));
        // Whole warp: each bank holds 4 distinct words in total: max(4, 4) = 4.
        let w = shared_wavefronts_with(&r, &H200, WideRule::WholeWarp);
        assert_eq!((w.wavefronts, w.conflicts()), (4, 0));
    }

    #[test]
    fn wide_conflict_only_across_quarters() {
        // 128-bit: quarter q's lane i reads element 8*... all four quarters read elements 0..7 of
        // different 512-byte rows: row q -> element 32q + i. Banks repeat across quarters only.
        let r = req(16, u32::MAX, |l| (32 * (l / 8) + l % 8) * 16);
        assert_eq!(
            shared_wavefronts_with(&r, &H200, WideRule::Phases).wavefronts,
            4
        );
        // Whole warp: each bank holds 4 distinct words (one per quarter): max(4, 4) = 4.
        assert_eq!(
            shared_wavefronts_with(&r, &H200, WideRule::WholeWarp).wavefronts,
            4
        );
    }
}
