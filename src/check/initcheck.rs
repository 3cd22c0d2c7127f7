//! initcheck: reads of memory no one wrote.
//!
//! - **Global memory**: one bit per byte of every `cudaMalloc`'d buffer, set by the host's
//!   writes (a buffer's initial contents unless its spec says `init = "none"`, `memcpy` and
//!   `memset` steps) and by kernel stores and atomics. A kernel load of a byte whose bit is clear
//!   is an "Uninitialized __global__ memory read", as compute-sanitizer's initcheck reports it.
//!   Module variables (`__device__`, `__constant__`) are initialised by the module loader and
//!   not tracked.
//! - **Shared memory**: one bit per byte of the running block's shared memory, cleared when a
//!   block starts and set by its stores and atomics; a load of a byte no thread of this block
//!   wrote is an "Uninitialized __shared__ memory read". compute-sanitizer's initcheck does not
//!   track shared memory (tests/hw/h200/sanitize/uninit_shared.initcheck.log).

use std::collections::BTreeMap;

use super::{Recorder, Severity};
use crate::mem::request::{AccessKind, MemRequest, Space};

/// Which bytes of each global buffer have been written.
#[derive(Clone, Debug, Default)]
pub struct GlobalShadow {
    /// First address → (size, one bit per byte).
    bufs: BTreeMap<u64, (u64, Vec<u64>)>,
}

impl GlobalShadow {
    /// A new buffer of `len` bytes at `base`, written (`init`) or not.
    pub fn alloc(&mut self, base: u64, len: u64, init: bool) {
        let words = len.div_ceil(64) as usize;
        let mut bits = vec![if init { !0u64 } else { 0 }; words];
        if init && !len.is_multiple_of(64) {
            if let Some(last) = bits.last_mut() {
                *last = (1u64 << (len % 64)) - 1;
            }
        }
        self.bufs.insert(base, (len, bits));
    }

    /// The buffer at `base` was freed.
    pub fn free(&mut self, base: u64) {
        self.bufs.remove(&base);
    }

    /// Bytes `[addr, addr+n)` were written.
    pub fn write(&mut self, addr: u64, n: u64) {
        let Some((&base, (len, bits))) = self.bufs.range_mut(..=addr).next_back() else {
            return;
        };
        let start = addr - base;
        let end = start.saturating_add(n).min(*len);
        for o in start..end {
            bits[(o / 64) as usize] |= 1 << (o % 64);
        }
    }

    /// Whether some byte of `[addr, addr+n)` lies in a tracked buffer and was never written.
    pub fn any_unwritten(&self, addr: u64, n: u64) -> bool {
        let Some((&base, (len, bits))) = self.bufs.range(..=addr).next_back() else {
            return false;
        };
        let start = addr - base;
        let end = start.saturating_add(n).min(*len);
        (start..end).any(|o| bits[(o / 64) as usize] >> (o % 64) & 1 == 0)
    }
}

/// initcheck's state for one launch.
pub struct InitCheck<'a> {
    global: &'a mut GlobalShadow,
    shared: Vec<u64>,
    block_dim: [u32; 3],
}

impl<'a> InitCheck<'a> {
    /// Checks reads against `global` (updated by this launch's stores).
    pub fn new(global: &'a mut GlobalShadow, block_dim: [u32; 3]) -> Self {
        InitCheck {
            global,
            shared: Vec::new(),
            block_dim,
        }
    }

    /// A new block: none of its shared memory is written yet.
    pub fn block_begin(&mut self) {
        self.shared.iter_mut().for_each(|w| *w = 0);
    }

    fn shared_unwritten(&self, a: u64, n: u64) -> bool {
        (a..a.saturating_add(n)).any(|o| {
            self.shared
                .get((o / 64) as usize)
                .is_none_or(|w| w >> (o % 64) & 1 == 0)
        })
    }

    fn shared_write(&mut self, a: u64, n: u64) {
        for o in a..a.saturating_add(n) {
            let i = (o / 64) as usize;
            if i >= self.shared.len() {
                if i >= (1 << 20) / 64 {
                    return;
                }
                self.shared.resize(i + 1, 0);
            }
            self.shared[i] |= 1 << (o % 64);
        }
    }

    /// A warp's access.
    pub fn mem(&mut self, req: &MemRequest, block: [u32; 3], out: &mut Recorder) {
        if !matches!(req.space, Space::Global | Space::Shared) {
            return;
        }
        let n = req.width as u64;
        let reads = matches!(
            req.kind,
            AccessKind::Load | AccessKind::Atomic | AccessKind::Reduction
        );
        let writes = req.kind != AccessKind::Load;
        if reads {
            let mut bad = 0u64;
            let mut first: Option<(usize, u64)> = None;
            for l in req.active_lanes() {
                let a = req.addrs[l];
                let unwritten = match req.space {
                    Space::Global => self.global.any_unwritten(a, n),
                    _ => self.shared_unwritten(a, n),
                };
                if unwritten {
                    bad += 1;
                    first.get_or_insert((l, a));
                }
            }
            if let Some((l, a)) = first {
                let space = req.space.ptx_name();
                let kind = format!("Uninitialized __{space}__ memory read of size {n} bytes");
                let tid = req.warp * 32 + l as u32;
                let [bx, by, _] = self.block_dim;
                let (bx, by) = (bx.max(1), by.max(1));
                let ex = || {
                    format!(
                        "block ({},{},{}), thread ({},{},{}) reads {space} address {a:#x}, which {}",
                        block[0],
                        block[1],
                        block[2],
                        tid % bx,
                        (tid / bx) % by,
                        tid / (bx * by),
                        if req.space == Space::Global {
                            "neither the host nor a kernel wrote"
                        } else {
                            "no thread of this block wrote"
                        }
                    )
                };
                out.add(
                    "initcheck",
                    Severity::Error,
                    &kind,
                    req.pc,
                    u32::MAX,
                    bad,
                    ex,
                );
            }
        }
        if writes {
            for l in req.active_lanes() {
                let a = req.addrs[l];
                match req.space {
                    Space::Global => self.global.write(a, n),
                    _ => self.shared_write(a, n),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::GlobalShadow;

    #[test]
    fn shadow_tracks_written_bytes() {
        let mut g = GlobalShadow::default();
        g.alloc(0x1000, 100, false);
        g.alloc(0x2000, 70, true);
        assert!(g.any_unwritten(0x1000, 4));
        g.write(0x1000, 8);
        assert!(!g.any_unwritten(0x1000, 8));
        assert!(g.any_unwritten(0x1004, 8));
        assert!(!g.any_unwritten(0x2000 + 64, 6));
        // Addresses outside tracked buffers are not reported.
        assert!(!g.any_unwritten(0x5000, 4));
        g.free(0x1000);
        assert!(!g.any_unwritten(0x1000, 4));
    }
}
