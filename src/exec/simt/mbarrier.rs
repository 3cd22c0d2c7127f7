//! `mbarrier` objects and the bulk copy that completes on one (PTX ISA "Parallel
//! Synchronization and Communication Instructions: mbarrier", "cp.async.bulk"): what
//! `cuda::barrier` and `cuda::pipeline` compile to.
//!
//! An mbarrier is an 8-byte object in shared memory. Its layout on the hardware is opaque (the
//! PTX ISA gives none, and a program may only use it through `mbarrier` instructions), so
//! gpumemsim keeps its own: bits 0-19 the arrivals still pending in the current phase, bits
//! 20-39 the expected arrivals per phase, bits 40-62 the transaction count (bytes expected
//! minus bytes completed, 23-bit two's complement), bit 63 the current phase's parity. A phase
//! completes when its pending arrivals and its transaction count are both zero: the parity
//! flips and the pending arrivals are reset to the expected count.
//!
//! Every copy completes when it is issued (see `cp.async` in [`crate::ptx::lower`]), so a
//! bulk copy's bytes complete at once. No memory request is made for an mbarrier operation
//! (gpumemsim does not model what the hardware counts for them).

use super::*;
use crate::ir::MbarOp;

const COUNT_MASK: u64 = (1 << 20) - 1;
const TX_SHIFT: u32 = 40;
const TX_MASK: u64 = (1 << 23) - 1;
const PHASE: u64 = 1 << 63;

/// The state after `arrivals` more arrivals and `tx` more transaction bytes expected
/// (negative: completed), with the phase completed when both counts are zero.
fn update(state: u64, arrivals: u64, tx: i64) -> u64 {
    let pending = (state & COUNT_MASK).wrapping_sub(arrivals) & COUNT_MASK;
    let expected = state >> 20 & COUNT_MASK;
    let txc = ((state >> TX_SHIFT & TX_MASK) as i64).wrapping_add(tx) as u64 & TX_MASK;
    let phase = state & PHASE;
    if pending == 0 && txc == 0 {
        return (phase ^ PHASE) | expected << 20 | expected;
    }
    phase | txc << TX_SHIFT | expected << 20 | pending
}

impl<O: Observer> Ctx<'_, '_, O> {
    /// `Op::Mbarrier` for lanes `e`, one lane after another.
    #[allow(clippy::too_many_arguments)]
    pub(super) fn mbarrier(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        op: MbarOp,
        d: Src,
        addr: Addr,
        space: SpaceSel,
        b: Src,
        copy: Option<(Addr, Addr)>,
        pc: u32,
        e: u32,
    ) -> Result<(), Fault> {
        let at = |w: &Warp, a: Addr, l: usize| {
            let base = a.base.map_or(0, |r| w.regs[r as usize * 32 + l]);
            base.wrapping_add(a.offset as u64)
        };
        for l in lanes(e) {
            let thread = w.id * 32 + l as u32;
            let mut a = at(w, addr, l);
            if matches!(space, SpaceSel::Generic) {
                let (sp, o) = space::resolve_generic(a);
                if sp != Space::Shared {
                    let detail = format!("mbarrier object at {a:#x} is not in shared memory");
                    return Err((FaultKind::Unsupported { detail }, pc, thread));
                }
                a = o;
            }
            let bv = self.val(w, mem, b, l);
            if let (MbarOp::BulkCopy, Some((dst, src))) = (op, copy) {
                let (dst, src) = (at(w, dst, l), at(w, src, l));
                let mut hint = usize::MAX;
                let bytes = self
                    .global_slice(src, bv as u32, &mut hint)
                    .map_err(|k| (k.with_access("read"), pc, thread))?
                    .to_vec();
                let out = self
                    .bytes_mut(mem, w, l, Space::Shared, dst, bv as u32)
                    .map_err(|k| (k.with_access("write"), pc, thread))?;
                out.copy_from_slice(&bytes);
            }
            let cell = self
                .bytes_mut(mem, w, l, Space::Shared, a, 8)
                .map_err(|k| (k.with_access("read-modify-write"), pc, thread))?;
            let state = read_le(cell, 8);
            let (new, result) = match op {
                MbarOp::Init => {
                    let n = bv & COUNT_MASK;
                    (n << 20 | n, 0)
                }
                MbarOp::Inval => (0, 0),
                MbarOp::Arrive => (update(state, bv, 0), state),
                MbarOp::ExpectTx => (update(state, 0, bv as u32 as i64), 0),
                MbarOp::BulkCopy => (update(state, 0, -(bv as u32 as i64)), 0),
                MbarOp::TryWait => (state, u64::from((state ^ bv) & PHASE != 0)),
                MbarOp::TryWaitParity => (state, u64::from((state >> 63) != (bv & 1))),
            };
            write_le(cell, 8, new);
            match d {
                Src::Reg(r) => w.regs[r as usize * 32 + l] = result,
                Src::Pred(p) => {
                    let bit = 1u32 << l;
                    let v = &mut w.preds[p as usize];
                    *v = if result != 0 { *v | bit } else { *v & !bit };
                }
                _ => {}
            }
        }
        Ok(())
    }
}

/// `cp.async`'s queue ([`crate::ir::Op::CpAsyncStore`]).
impl<O: Observer> Ctx<'_, '_, O> {
    /// Queues lanes `e`'s copies of the bytes in `s` to shared `addr`.
    pub(super) fn cp_async_queue(
        &mut self,
        w: &mut Warp,
        mem: &BlockMem,
        s: &[Src],
        addr: Addr,
        e: u32,
    ) {
        let mut addrs = [0u64; 32];
        for l in lanes(e) {
            let base = addr.base.map_or(0, |r| w.regs[r as usize * 32 + l]);
            addrs[l] = base.wrapping_add(addr.offset as u64);
        }
        self.cp_async_queue_at(w, mem, s, &addrs, e);
    }

    /// Queues lanes `e`'s copies of the bytes in `s` to the shared addresses `addrs` (the
    /// PTX path's `cp.async` and SASS `LDGSTS` alike).
    pub(super) fn cp_async_queue_at(
        &mut self,
        w: &mut Warp,
        mem: &BlockMem,
        s: &[Src],
        addrs: &[u64; 32],
        e: u32,
    ) {
        for l in lanes(e) {
            let mut data = [0u8; 16];
            for (k, r) in s.iter().enumerate().take(4) {
                let v = self.val(w, mem, *r, l) as u32;
                data[4 * k..4 * k + 4].copy_from_slice(&v.to_le_bytes());
            }
            w.copies.push(crate::exec::warp::PendingCopy {
                lane: l as u8,
                group: u32::MAX,
                addr: addrs[l],
                data,
                len: (4 * s.len().min(4)) as u8,
            });
        }
    }

    /// `cp.async.commit_group` for lanes `e`: their queued copies become their newest group.
    pub(super) fn cp_async_commit(w: &mut Warp, e: u32) {
        for l in lanes(e) {
            for c in w.copies.iter_mut() {
                if c.lane as usize == l && c.group == u32::MAX {
                    c.group = w.copy_groups[l];
                }
            }
            w.copy_groups[l] += 1;
        }
    }

    /// Lands lanes `e`'s queued copies but those of their `n` newest groups (`all`: every
    /// one, uncommitted ones included), in issue order.
    pub(super) fn cp_async_land(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        n: u32,
        all: bool,
        e: u32,
        pc: u32,
    ) -> Result<(), Fault> {
        let copies = std::mem::take(&mut w.copies);
        let mut keep = Vec::with_capacity(copies.len());
        let mut result = Ok(());
        for c in copies {
            let l = c.lane as usize;
            let due =
                e >> l & 1 == 1 && (all || (c.group != u32::MAX && c.group + n < w.copy_groups[l]));
            if !due || result.is_err() {
                keep.push(c);
                continue;
            }
            let len = u32::from(c.len);
            match self.bytes_mut(mem, w, l, Space::Shared, c.addr, len) {
                Ok(out) => out.copy_from_slice(&c.data[..len as usize]),
                Err(k) => result = Err((k.with_access("write"), pc, w.id * 32 + l as u32)),
            }
        }
        w.copies = keep;
        result
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_phase_completes_when_arrivals_and_bytes_are_both_done() {
        let init = 2u64 << 20 | 2;
        // One arrival of two: still pending.
        let s = update(init, 1, 0);
        assert_eq!(s & PHASE, 0);
        // Bytes completed before they were expected (the bulk copy before expect_tx).
        let s = update(s, 0, -64);
        let s = update(s, 1, 0);
        assert_eq!(s & PHASE, 0, "64 bytes still outstanding the other way");
        let s = update(s, 0, 64);
        assert_eq!(s & PHASE, PHASE, "phase 0 completed");
        assert_eq!(s & COUNT_MASK, 2, "pending reset to the expected count");
    }
}
