//! Coalescing: how many L1TEX requests and 32-byte sectors one warp-level global or local
//! memory instruction generates.
//!
//! Rules and their sources:
//! - One request per warp-level instruction. Nsight Compute's L1TEX model: "When an SM executes a
//!   global/local/shared memory instruction for a warp, a single request is sent to L1TEX. This
//!   request communicates the information for all participating threads of this warp" (Magnus
//!   Strengert, NVIDIA Developer Forums, "What's the difference between wavefronts and
//!   sectors/req", thread 165293; Kernel Profiling Guide, "Memory Tables / L1/TEX Cache").
//!   Here a request is counted only when at least one lane is active. Greg Smith (NVIDIA forum,
//!   "Understanding L1/TEX Cache Sectors/Req", thread 312884) writes that a fully predicated-off
//!   instruction has "sectors/request = 0", which may mean such an instruction still sends a
//!   request: a **hypothesis** checked by `gl_pred_off` in `tests/hw/kernels/global.cu`. That 64-
//!   and 128-bit vector accesses also make exactly one request (not 2 or 4) is the same forum
//!   model, to be confirmed by the float2/float4 launches of `tests/hw/kernels/global.cu`.
//! - Sectors: the number of distinct 32-byte sectors ([`GpuConfig::sector_bytes`]) touched by the
//!   active lanes' byte ranges `[addr, addr + width)` (Greg Smith, same thread: one active thread
//!   gives 1 sector/request, 32 threads each in its own line give 32; CUDA C++ Programming Guide,
//!   "Device Memory Accesses": accesses are served in 32-byte transactions). Measured on an H200:
//!   stride 1/2/4/8+ 32-bit elements give 4/8/16/32 sectors, a one-element offset gives 5
//!   (`/work/shared/design.md`).
//! - Local memory: the address in a local request is the lane's offset in its OWN local window.
//!   The hardware interleaves the windows of a warp's lanes 4 bytes at a time: "local memory is
//!   ... organized such that consecutive 32-bit words are accessed by consecutive thread IDs.
//!   Accesses are therefore fully coalesced as long as all threads in a warp access the same
//!   relative address" (CUDA C++ Programming Guide, "Device Memory Accesses / Local Memory").
//!   So byte `b` of lane `l` sits at `(b / 4) * 4 * warp_size + l * 4 + b % 4` within the warp's
//!   slice (the slice base is sector-aligned, so it does not change the count).
//!   **Assumption for 8- and 16-byte local accesses**: the interleave stays 4 bytes wide, so a
//!   64-bit access touches two 128-byte rows (8 sectors for a full warp), a 128-bit one four
//!   (16 sectors); a single active lane touches 2 or 4 sectors. An interleave of the access width
//!   would give the same full-warp counts but 1 sector for one lane; `local.cu` tells them apart.
//!
//! All counting is allocation-free (stack buffers); a lane's access is clamped to 4 sectors
//! (widths up to 97 bytes) and 9 local words, far beyond PTX's largest access (32 bytes).

use crate::gpu::config::GpuConfig;
use crate::mem::request::MemRequest;

/// The L1TEX traffic of one warp-level global or local instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Coalesced {
    /// L1TEX requests (`l1tex__t_requests_pipe_lsu_mem_*`): 1, or 0 with no active lane.
    pub requests: u32,
    /// Distinct 32-byte sectors (`l1tex__t_sectors_pipe_lsu_mem_*`).
    pub sectors: u32,
}

const MAX_SECTORS_PER_LANE: u64 = 4;
const MAX_WORDS_PER_LANE: u64 = 9;

/// Requests and sectors of a global (or any flat-addressed) request.
pub fn global_sectors(req: &MemRequest, cfg: &GpuConfig) -> Coalesced {
    if req.mask == 0 {
        return Coalesced::default();
    }
    let sector = u64::from(cfg.sector_bytes.max(1));
    let width = u64::from(req.width.max(1));
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
        let s0 = addr / sector;
        let s1 = addr.saturating_add(width - 1) / sector;
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
        sectors: count_distinct(&mut buf[..n], sorted),
    }
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
        requests: 1,
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
            space,
            kind: AccessKind::Load,
            width,
            addrs,
            mask,
            pc: 0,
            cache_op: CacheOp::Default,
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
        // 8-byte and 16-byte at a uniform offset: 2 and 4 rows.
        assert_eq!(l(8, u32::MAX, &|_| 16).sectors, 8);
        assert_eq!(l(16, u32::MAX, &|_| 16).sectors, 16);
        // One lane: 1 sector for 4 bytes, 2 for 8, 4 for 16 (assumed 4-byte interleave).
        assert_eq!(l(4, 1, &|_| 0).sectors, 1);
        assert_eq!(l(8, 1, &|_| 0).sectors, 2);
        assert_eq!(l(16, 1, &|_| 0).sectors, 4);
        // Lanes 0..7 share one sector; lanes 0 and 8 need two.
        assert_eq!(l(4, 0xff, &|_| 0).sectors, 1);
        assert_eq!(l(4, 1 | 1 << 8, &|_| 0).sectors, 2);
        // Divergent offsets (dynamic indexing): lane l at word l: 32 different rows, lane l's
        // word is at row l, column l -> 32 sectors.
        assert_eq!(l(4, u32::MAX, &|x| x * 4).sectors, 32);
    }
}
