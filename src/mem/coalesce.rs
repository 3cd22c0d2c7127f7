//! Coalescing: how many L1TEX requests and 32-byte sectors one warp-level global or local
//! memory instruction generates.
//!
//! Rules and their sources:
//! - One request per warp-level instruction. Nsight Compute's L1TEX model: "When an SM executes a
//!   global/local/shared memory instruction for a warp, a single request is sent to L1TEX. This
//!   request communicates the information for all participating threads of this warp" (Magnus
//!   Strengert, NVIDIA Developer Forums, "What's the difference between wavefronts and
//!   sectors/req", thread 165293; Kernel Profiling Guide, "Memory Tables / L1/TEX Cache").
//!   A global instruction with no active lane makes no request and no sector (measured,
//!   `tests/hw/h200/hw/ncu/k_global.csv` launch 48, `gl_pred_off`: a fully predicated-off `LDG`
//!   counts 0 requests and 0 instructions). 64- and 128-bit vector accesses also make exactly
//!   one global request, not 2 or 4 (measured, same CSV, the `gl_v2_*` / `gl_v4_*` launches).
//!   Local accesses differ (below).
//! - Sectors: the number of distinct 32-byte sectors ([`GpuConfig::sector_bytes`]) touched by the
//!   active lanes' byte ranges `[addr, addr + width)` (Greg Smith, same thread: one active thread
//!   gives 1 sector/request, 32 threads each in its own line give 32; CUDA C++ Programming Guide,
//!   "Device Memory Accesses": accesses are served in 32-byte transactions). Measured on an H200
//!   (`tests/hw/h200/hw/ncu/k_global.csv`, `gl_stride<S>` launches 1–32): a stride of S 32-bit
//!   elements gives `4 * S` sectors up to S = 8 and 32 beyond; a warp of consecutive elements
//!   starting one element off a sector boundary gives 5 (launches 33–35).
//! - Atomics and reductions (`atom`, `red`; SASS `ATOMG` / `RED`): still one request, but lanes
//!   on the SAME address are not merged: each sector counts once per lane of its most-used
//!   address, i.e. the sum over distinct sectors of the largest number of active lanes sharing
//!   one address in that sector (equivalently: same-address lanes are served in successive
//!   rounds, each round counting its distinct sectors). Measured,
//!   `tests/hw/h200/hw/ncu/k_global.csv` launches 49–54 (`gl_atom` with the result used, `gl_red`
//!   without; `tests/hw/kernels/global.cu`): all 32 lanes on one element give 32 sectors; lane `t`
//!   on element `t` (8 lanes per sector, all addresses different) gives 4; lane `t` on element
//!   `8t` gives 32; one request each, for ATOMG and RED alike. Also consistent with
//!   `histogram.csv` and `warp_reduce.csv` (one lane per warp, or distinct bins).
//! - Local memory: the address in a local request is the lane's offset in its OWN local window.
//!   The hardware interleaves the windows of a warp's lanes 4 bytes at a time: "local memory is
//!   ... organized such that consecutive 32-bit words are accessed by consecutive thread IDs.
//!   Accesses are therefore fully coalesced as long as all threads in a warp access the same
//!   relative address" (CUDA C++ Programming Guide, "Device Memory Accesses / Local Memory").
//!   So byte `b` of lane `l` sits at `(b / 4) * 4 * warp_size + l * 4 + b % 4` within the warp's
//!   slice (the slice base is sector-aligned, so it does not change the count). The 4-byte
//!   interleave holds for wide accesses too (measured, `tests/hw/h200/hw/ncu/k_local.csv`
//!   launch 3, `local_v4`: one active lane's `LDL.128` touches 4 sectors, not 1; a full warp's
//!   `STL.128` at one offset 16).
//! - Local requests: one per 4 bytes of access width (`ceil(width / 4)`, at least 1), whatever
//!   the lanes' offsets: the 4-byte interleave makes a wide local access `width / 4` separate
//!   32-bit accesses. Measured, `k_local.csv`: launch 3 (`local_v4`) counts 4 requests for its one
//!   `LDL.128` (one active lane) and 64 for its 16 `STL.128` (full warp); launches 1–2
//!   (`local_array`, 32-bit) count 1 request per `STL`/`LDL`, also when the 32 lanes read 32
//!   different offsets (32 sectors, launch 2). Launch 4 (`local_spill`, SASS in
//!   `tests/hw/h200/hw/logs/k_local.sass`: 32-bit spills plus one `STL.64` and one `LDL.LU.64`)
//!   is consistent: requests exceed instructions by exactly 1 for stores and for loads.
//!
//! All counting is allocation-free (stack buffers); a lane's access is clamped to 4 sectors
//! (widths up to 97 bytes) and 9 local words, far beyond PTX's largest access (32 bytes).

use crate::gpu::config::GpuConfig;
use crate::mem::request::{AccessKind, MemRequest};

/// The L1TEX traffic of one warp-level global or local instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coalesced {
    /// L1TEX requests (`l1tex__t_requests_pipe_lsu_mem_*`): 0 with no active lane; otherwise 1
    /// for global accesses and `ceil(width / 4)` for local ones.
    pub requests: u32,
    /// Distinct 32-byte sectors (`l1tex__t_sectors_pipe_lsu_mem_*`).
    pub sectors: u32,
}

const MAX_SECTORS_PER_LANE: u64 = 4;
const MAX_WORDS_PER_LANE: u64 = 9;

/// Requests and sectors of a global (or any flat-addressed) request.
pub fn global_sectors(req: &MemRequest, cfg: &GpuConfig) -> Coalesced {
    global_sectors_with(req, cfg, true)
}

/// [`global_sectors`], with its shortcut for sectors already in order taken or not
/// (`fast_paths`); the answer is the same either way.
pub fn global_sectors_with(req: &MemRequest, cfg: &GpuConfig, fast_paths: bool) -> Coalesced {
    if req.mask == 0 {
        return Coalesced::default();
    }
    let sector = u64::from(cfg.sector_bytes.max(1));
    let width = u64::from(req.width.max(1));
    if matches!(req.kind, AccessKind::Atomic | AccessKind::Reduction) {
        return Coalesced {
            requests: 1,
            sectors: atomic_sectors(req, sector, width),
        };
    }
    let mut buf = [0u64; 32 * MAX_SECTORS_PER_LANE as usize];
    let mut n = 0usize;
    // Fast path: sectors non-decreasing in lane order (coalesced code) need no sort.
    let mut sorted = true;
    let mut prev = 0u64;
    for lane in 0..32 {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let addr = req.addrs[lane];
        // The sector size comes from `GpuConfig::sector_bytes` (32 on the H200: CUDA C++
        // Programming Guide, "Global Memory"); when it is a power of two, a shift replaces the division.
        let (s0, s1) = if sector.is_power_of_two() {
            let sh = sector.trailing_zeros();
            (addr >> sh, addr.saturating_add(width - 1) >> sh)
        } else {
            (addr / sector, addr.saturating_add(width - 1) / sector)
        };
        let count = (s1 - s0 + 1).min(MAX_SECTORS_PER_LANE);
        for s in s0..s0 + count {
            if n > 0 && s < prev {
                sorted = false;
            }
            prev = s;
            buf[n] = s;
            n += 1;
        }
    }
    Coalesced {
        requests: 1,
        sectors: count_distinct(&mut buf[..n], sorted && fast_paths),
    }
}

/// The distinct 32-byte sectors the active lanes of `req` touch, counted as for a load whatever
/// its kind: Nsight Compute's Source page counts these as an atomic's or reduction's "L2
/// Theoretical Sectors Global" (`memory_l2_theoretical_sectors_global`), not the serialized
/// [`global_sectors`]. Measured, tests/hw/h200/source/k_isa.csv launch 4 (`isa_atom`): the
/// `REDG.E.INC`, `.DEC`, `.ADD.64`, `.MIN.64`, `.MAX.64` of 32 lanes to one address (0x0400,
/// 0x0440, 0x0470, 0x04c0, 0x04f0, 0x0520, 0x0550) and the `REDG.E.INC` of 32 lanes to two
/// words of one sector (0x0490) are 16 sectors for 16 instructions, where the hardware counter
/// `l1tex__t_sectors_pipe_lsu_mem_global_op_red` of 32 lanes on one element is 32 per
/// instruction (`tests/hw/h200/hw/ncu/k_global.csv` ID 51, `gl_red` mode 0).
pub fn distinct_sectors(req: &MemRequest, cfg: &GpuConfig) -> u32 {
    let mut r = req.clone();
    r.kind = AccessKind::Load;
    global_sectors_with(&r, cfg, true).sectors
}

/// Sectors of an atomic or reduction: per distinct sector, the largest number of active lanes on
/// one address in it, summed (see the module docs).
fn atomic_sectors(req: &MemRequest, sector: u64, width: u64) -> u32 {
    let mut buf = [(0u64, 0u64); 32 * MAX_SECTORS_PER_LANE as usize];
    let mut n = 0usize;
    for lane in 0..32 {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let addr = req.addrs[lane];
        let s0 = addr / sector;
        let s1 = addr.saturating_add(width - 1) / sector;
        let count = (s1 - s0 + 1).min(MAX_SECTORS_PER_LANE);
        for s in s0..s0 + count {
            buf[n] = (s, addr);
            n += 1;
        }
    }
    let v = &mut buf[..n];
    v.sort_unstable();
    let mut total = 0u32;
    let mut i = 0usize;
    while i < v.len() {
        // One sector: v[i..j]; runs of equal addresses inside it.
        let s = v[i].0;
        let mut worst = 0u32;
        let mut j = i;
        while j < v.len() && v[j].0 == s {
            let mut k = j;
            while k < v.len() && v[k] == v[j] {
                k += 1;
            }
            worst = worst.max((k - j) as u32);
            j = k;
        }
        total += worst;
        i = j;
    }
    total
}

/// Requests and sectors of a local request; `addrs` are per-lane local offsets.
pub fn local_sectors(req: &MemRequest, cfg: &GpuConfig) -> Coalesced {
    if req.mask == 0 {
        return Coalesced::default();
    }
    let sector = u64::from(cfg.sector_bytes.max(4));
    let warp = u64::from(cfg.warp_size.max(1));
    let row = 4 * warp; // bytes of one interleaved 4-byte word across the warp
    let width = u64::from(req.width.max(1));
    let mut buf = [0u64; 32 * MAX_WORDS_PER_LANE as usize];
    let mut n = 0usize;
    for lane in 0..32u64 {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let off = req.addrs[lane as usize];
        let w0 = off / 4;
        let w1 = off.saturating_add(width - 1) / 4;
        let count = (w1 - w0 + 1).min(MAX_WORDS_PER_LANE);
        for w in w0..w0 + count {
            // Byte 0 of word w of this lane; the word's 4 bytes share its sector.
            let phys = w.saturating_mul(row).saturating_add(lane * 4);
            buf[n] = phys / sector;
            n += 1;
        }
    }
    Coalesced {
        requests: width.div_ceil(4).clamp(1, 32) as u32,
        sectors: count_distinct(&mut buf[..n], false),
    }
}

/// Distinct values in `v`; sorts it first unless `sorted` says it is non-decreasing.
fn count_distinct(v: &mut [u64], sorted: bool) -> u32 {
    if !sorted {
        v.sort_unstable();
    }
    let mut count = 0u32;
    let mut prev = None;
    for &x in v.iter() {
        if prev != Some(x) {
            count += 1;
            prev = Some(x);
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;
    use crate::mem::request::{AccessKind, CacheOp, Space};

    fn req(space: Space, width: u32, mask: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp: 0,
            space,
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

    fn g(width: u32, mask: u32, addr: impl Fn(u64) -> u64) -> Coalesced {
        global_sectors(&req(Space::Global, width, mask, addr), &H200)
    }

    const BASE: u64 = 0x7f00_0000_0000; // 256-byte aligned, like cudaMalloc

    #[test]
    fn global_strides_of_f32() {
        // 32 lanes x 4 bytes at stride k elements span 128k bytes; a 32-byte sector holds 8/k
        // accessed elements while k <= 8, one from k = 8 on.
        for (k, sectors) in [(1u64, 4u32), (2, 8), (4, 16), (8, 32), (16, 32), (32, 32)] {
            let c = g(4, u32::MAX, |l| BASE + l * k * 4);
            assert_eq!(
                c,
                Coalesced {
                    requests: 1,
                    sectors
                },
                "stride {k}"
            );
        }
        // Stride 3: bytes 0..380, lanes land in sectors floor(12l/32): 0..11 = 12 sectors.
        assert_eq!(g(4, u32::MAX, |l| BASE + l * 12).sectors, 12);
    }

    #[test]
    fn global_offset_by_one_element() {
        // Bytes 4..132 straddle sectors 0..4: 5 sectors.
        assert_eq!(g(4, u32::MAX, |l| BASE + 4 + l * 4).sectors, 5);
        // +2 and +4 elements also need 5; +8 elements (32 bytes) is aligned again: 4.
        assert_eq!(g(4, u32::MAX, |l| BASE + 8 + l * 4).sectors, 5);
        assert_eq!(g(4, u32::MAX, |l| BASE + 16 + l * 4).sectors, 5);
        assert_eq!(g(4, u32::MAX, |l| BASE + 32 + l * 4).sectors, 4);
    }

    #[test]
    fn global_vectors() {
        // float2: 256 bytes = 8 sectors; float4: 512 bytes = 16 sectors; still one request.
        assert_eq!(
            g(8, u32::MAX, |l| BASE + l * 8),
            Coalesced {
                requests: 1,
                sectors: 8
            }
        );
        assert_eq!(
            g(16, u32::MAX, |l| BASE + l * 16),
            Coalesced {
                requests: 1,
                sectors: 16
            }
        );
        // float4 at stride 2 float4s: every lane its own sector.
        assert_eq!(g(16, u32::MAX, |l| BASE + l * 32).sectors, 32);
        // A misaligned 8-byte access crossing a sector boundary touches both.
        assert_eq!(g(8, 1, |_| BASE + 28).sectors, 2);
    }

    #[test]
    fn global_predicated_and_reversed() {
        assert_eq!(g(4, 0, |l| BASE + l * 4), Coalesced::default());
        // Only lanes 0 and 31 at stride 1: sectors 0 and 3.
        assert_eq!(g(4, 1 | 1 << 31, |l| BASE + l * 4).sectors, 2);
        // Reversed order still touches 4 sectors (order within a warp does not matter).
        assert_eq!(g(4, u32::MAX, |l| BASE + (31 - l) * 4).sectors, 4);
        // All lanes on one word: 1 sector.
        assert_eq!(g(4, u32::MAX, |_| BASE + 100).sectors, 1);
    }

    #[test]
    fn local_interleave() {
        let l = |width: u32, mask: u32, off: &dyn Fn(u64) -> u64| {
            local_sectors(&req(Space::Local, width, mask, off), &H200)
        };
        // Same 4-byte offset for all lanes: one 128-byte row = 4 sectors.
        assert_eq!(
            l(4, u32::MAX, &|_| 12),
            Coalesced {
                requests: 1,
                sectors: 4
            }
        );
        // 8-byte and 16-byte at a uniform offset: 2 and 4 rows, 2 and 4 requests
        // (k_local.csv launch 3: 16 STL.128 -> 64 requests, 256 sectors).
        assert_eq!(
            l(8, u32::MAX, &|_| 16),
            Coalesced {
                requests: 2,
                sectors: 8
            }
        );
        assert_eq!(
            l(16, u32::MAX, &|_| 16),
            Coalesced {
                requests: 4,
                sectors: 16
            }
        );
        // k_local.csv launch 3: LDL.128 by lane 0 only: 4 requests, 4 sectors.
        assert_eq!(
            l(16, 1, &|_| 48),
            Coalesced {
                requests: 4,
                sectors: 4
            }
        );
        // Narrow accesses still make one request.
        assert_eq!(l(1, u32::MAX, &|_| 3).requests, 1);
        assert_eq!(l(16, 0, &|_| 0), Coalesced::default());
        // One lane: 1 sector for 4 bytes, 2 for 8, 4 for 16 (4-byte interleave).
        assert_eq!(l(4, 1, &|_| 0).sectors, 1);
        assert_eq!(l(8, 1, &|_| 0).sectors, 2);
        assert_eq!(l(16, 1, &|_| 0).sectors, 4);
        // Lanes 0..7 share one sector; lanes 0 and 8 need two.
        assert_eq!(l(4, 0xff, &|_| 0).sectors, 1);
        assert_eq!(l(4, 1 | 1 << 8, &|_| 0).sectors, 2);
        // Divergent offsets (dynamic indexing): lane l at word l: 32 different rows, lane l's
        // word is at row l, column l -> 32 sectors, still 1 request (k_local.csv launch 2).
        assert_eq!(
            l(4, u32::MAX, &|x| x * 4),
            Coalesced {
                requests: 1,
                sectors: 32
            }
        );
    }

    #[test]
    fn atomics_do_not_merge_equal_addresses() {
        // tests/hw/h200/hw/ncu/k_global.csv launches 49-54 (gl_atom / gl_red modes 0, 1, 2):
        // all lanes on element 0: 32 sectors; lane t on element t: 4; on element 8t: 32.
        for kind in [AccessKind::Atomic, AccessKind::Reduction] {
            for (addr, sectors) in [
                (Box::new(|_| BASE) as Box<dyn Fn(u64) -> u64>, 32),
                (Box::new(|l| BASE + 4 * l), 4),
                (Box::new(|l| BASE + 32 * l), 32),
            ] {
                let mut r = req(Space::Global, 4, u32::MAX, addr);
                r.kind = kind;
                assert_eq!(
                    global_sectors(&r, &H200),
                    Coalesced {
                        requests: 1,
                        sectors
                    }
                );
            }
        }
        // Hand-worked: lanes 0-2 on word 0, lanes 3-4 on word 1 (sector 0: 3), lane 5 alone in
        // sector 1 (1): 4 sectors.
        let mut r = req(Space::Global, 4, 0x3f, |l| match l {
            0..=2 => BASE,
            3 | 4 => BASE + 4,
            _ => BASE + 32,
        });
        r.kind = AccessKind::Atomic;
        assert_eq!(global_sectors(&r, &H200).sectors, 4);
        // No active lane: nothing.
        r.mask = 0;
        assert_eq!(global_sectors(&r, &H200), Coalesced::default());
    }
}
