//! The constant cache: how many serialized requests one warp-level constant load needs.
//!
//! Rule: a constant-memory read is served at the rate of one address per request; when the lanes
//! of a warp read different addresses the request is split into as many requests as there are
//! distinct addresses (CUDA C++ Programming Guide, "Device Memory Accesses / Constant Memory":
//! "a request is then split into as many separate requests as there are different memory
//! addresses in the initial request, decreasing throughput by a factor equal to the number of
//! separate requests"). Measured on an H200 (`tests/hw/h200/hw/ncu/k_constant.csv`, launches
//! 1–6, `const_distinct<N>`: N distinct 4-byte words in one warp): `idc__requests` is N + 3, one
//! request per distinct address plus three that do not depend on N (the SASS's own constant-bank
//! operands, kernel parameters among them).
//!
//! "Different address" is the address at the access's own width, `addr / width`: lanes reading
//! different bytes of one word are different requests. Measured (the SASS is `LDC.S8`, one per
//! warp, tests/hw/h200/cache2/logs/k_cache.sass): `cst_bytes` with 1, 2, 4 and 32 distinct bytes
//! in one warp counts 5, 6, 8 and 36 `idc__requests` (k + 4: the SASS has four other `LDC`s of
//! kernel parameters and the stack pointer; tests/hw/h200/cache2/ncu/k_cache.csv launches
//! 35-38), and `const_bytes` in k_constant 34 and 6 for 32 and 4 bytes (k + 2).
//!
//! Nsight Compute has no metric that counts these per-address requests under the `l1tex` names,
//! so the counters report gpumemsim-own names (see `counters.rs`). `idc__requests` counts them
//! together with the SASS's other `LDC`s (kernel parameters and ptxas's constants indexed by a
//! register), which the executor reports through `Observer::ldc`; its sum is derived in
//! `metrics::Counts::value` (equal to the H200 on every recorded launch), while the cache's
//! lookup hits and misses are listed in `metrics::NOT_MODELLED`.

use crate::mem::request::MemRequest;

/// Constant-cache requests for `req`: the number of distinct aligned units (see module docs)
/// among the active lanes; 1 when the warp agrees, 0 with no active lane.
pub fn constant_requests(req: &MemRequest) -> u32 {
    constant_requests_with(req, true)
}

/// [`constant_requests`], with its shortcut for a uniform warp taken or not (`fast_paths`).
pub fn constant_requests_with(req: &MemRequest, fast_paths: bool) -> u32 {
    if req.mask == 0 {
        return 0;
    }
    let unit = u64::from(req.width.max(1));
    let mut buf = [0u64; 32];
    let mut n = 0usize;
    let mut uniform = true;
    for lane in 0..32 {
        if req.mask >> lane & 1 == 0 {
            continue;
        }
        let u = req.addrs[lane] / unit;
        if n > 0 && u != buf[0] {
            uniform = false;
        }
        buf[n] = u;
        n += 1;
    }
    if uniform && fast_paths {
        return 1;
    }
    let v = &mut buf[..n];
    v.sort_unstable();
    let mut count = 1u32;
    for i in 1..v.len() {
        if v[i] != v[i - 1] {
            count += 1;
        }
    }
    count
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::request::{AccessKind, CacheOp, Space};

    fn req(width: u32, mask: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp: 0,
            space: Space::Const,
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

    #[test]
    fn distinct_addresses() {
        // Lane l reads element l % d of a float array: d distinct addresses.
        for d in [1u64, 2, 4, 8, 16, 32] {
            assert_eq!(
                u64::from(constant_requests(&req(4, u32::MAX, |l| (l % d) * 4))),
                d
            );
        }
        // Reversed / scattered order does not matter.
        assert_eq!(
            constant_requests(&req(4, u32::MAX, |l| ((31 - l) % 3) * 400)),
            3
        );
    }

    #[test]
    fn distinct_bytes_are_distinct_requests() {
        // u8 loads of bytes 0..3 of one word: 4 requests; bytes 0..31: 32 (measured: k + 4
        // idc__requests for k distinct bytes, tests/hw/h200/cache2/ncu/k_cache.csv).
        assert_eq!(constant_requests(&req(1, u32::MAX, |l| l % 4)), 4);
        assert_eq!(constant_requests(&req(1, u32::MAX, |l| l)), 32);
        assert_eq!(constant_requests(&req(1, u32::MAX, |_| 5)), 1);
        // 8-byte loads at 0 and 8: two units.
        assert_eq!(constant_requests(&req(8, u32::MAX, |l| (l % 2) * 8)), 2);
    }

    #[test]
    fn inactive_lanes() {
        assert_eq!(constant_requests(&req(4, 0, |l| l * 4)), 0);
        // Only lanes 0 and 1 active: 2 addresses, the other 30 would have been 30 more.
        assert_eq!(constant_requests(&req(4, 0b11, |l| l * 4)), 2);
    }
}
