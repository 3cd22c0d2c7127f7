//! `mbarrier` objects and the bulk copy that completes on one (PTX ISA "Parallel
//! Synchronization and Communication Instructions: mbarrier", "cp.async.bulk"): what
//! `cuda::barrier` and `cuda::pipeline` compile to.
//!
//! An mbarrier is an 8-byte object in shared memory. The PTX ISA calls its layout opaque, but
//! sm_90 SASS builds and reads the word itself (`mbarrier.init` is `SYNCS.EXCH.64` of a word
//! ptxas computes; a try-wait tests bit 31 of the high word an arrive returned), so gpumemsim
//! keeps the H200's layout, measured by tests/hw/mbarrier/mbar_probe.cu
//! (tests/hw/h200/mbarrier/mbar_words.txt; the decoding is in its README):
//! - bits 1-20: the arrival count a phase starts with, as `2^20 - count`;
//! - bits 21-41: the transaction count, bytes completed minus bytes expected (21-bit two's
//!   complement: `expect_tx(48)` reads as -48);
//! - bits 43-62: the arrivals of the current phase, as `2^20 - pending`: each arrival adds 1,
//!   and 0 means none pending;
//! - bit 63: the current phase's parity; bits 0 and 42 are 0.
//!
//! A phase completes when its pending arrivals and its transaction count are both zero: the
//! parity flips and bits 43-62 are reloaded from bits 1-20. An arrive returns the high word of
//! the state before it (the SASS writes it to the odd register of the destination pair; the
//! PTX state is that word in bits 32-63, 0 below). A wait on a state is done when the word's
//! bit 63 differs from the state's. An arrive on a word with no pending arrivals (an object
//! never initialised: the H200 stops the launch, "unspecified launch failure", case 24 of the
//! recording) or more arrivals than pending is a located fault.
//!
//! On the H200 a plain `ld.shared` of a live mbarrier does not see these updates (the
//! recording reads back the word stored before `init` until `mbarrier.inval`, which writes
//! the live state back); gpumemsim keeps the live word in shared memory, so such a load sees
//! the state itself. No memory request is made for an mbarrier operation.

use super::*;
use crate::ir::MbarOp;

const M20: u64 = (1 << 20) - 1;
const M21: u64 = (1 << 21) - 1;
const PHASE: u64 = 1 << 63;

/// The word `mbarrier.init` writes for `count` arrivals (what ptxas computes for
/// `SYNCS.EXCH.64`: `(2^20 - count) << 1` low, `<< 11` high).
pub(super) fn init_word(count: u64) -> u64 {
    let c = (1u64 << 20).wrapping_sub(count) & M20;
    c << 43 | c << 1
}

/// The state after `arrivals` more arrivals, `expect` more transaction bytes expected and
/// `complete` more completed, with the phase completed when both counts are zero.
pub(super) fn update(state: u64, arrivals: u64, expect: u64, complete: u64) -> Result<u64, String> {
    let count = state >> 43 & M20;
    let pending = (1 << 20) - count;
    if arrivals > 0 && count == 0 {
        return Err(format!(
            "arrive on an mbarrier with no pending arrivals (word {state:#018x}: not initialised?)"
        ));
    }
    if arrivals > pending {
        return Err(format!(
            "{arrivals} arrivals on an mbarrier with {pending} pending (word {state:#018x})"
        ));
    }
    let count = (count + arrivals) & M20;
    let tx = (state >> 21).wrapping_sub(expect).wrapping_add(complete) & M21;
    let reload = state >> 1 & M20;
    let phase = state & PHASE;
    if count == 0 && tx == 0 {
        return Ok((phase ^ PHASE) | reload << 43 | reload << 1);
    }
    Ok(phase | count << 43 | tx << 21 | reload << 1)
}

/// Whether the phase of the state whose high word is `hi` (an arrive's result, or a parity
/// in bit 31) completed in the barrier whose word is `state`.
pub(super) fn phase_done(state: u64, hi: u32) -> bool {
    ((state >> 32) as u32 ^ hi) >> 31 != 0
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
                self.cur_expect = u32::MAX;
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
            let fault = |d: String| (FaultKind::Mbarrier { detail: d }, pc, thread);
            let (new, result) = match op {
                MbarOp::Init => {
                    if bv == 0 || bv > M20 {
                        return Err(fault(format!("mbarrier.init count {bv} is not in 1..2^20")));
                    }
                    (init_word(bv), 0)
                }
                // The H200 leaves the live state in the word (tests/hw/h200/mbarrier, step 25).
                MbarOp::Inval => (state, 0),
                MbarOp::Arrive => (
                    update(state, bv, 0, 0).map_err(fault)?,
                    state & 0xffff_ffff_0000_0000,
                ),
                MbarOp::ArriveExpectTx => (
                    update(state, 1, bv & 0xffff_ffff, 0).map_err(fault)?,
                    state & 0xffff_ffff_0000_0000,
                ),
                MbarOp::ExpectTx => (update(state, 0, bv & 0xffff_ffff, 0).map_err(fault)?, 0),
                MbarOp::BulkCopy => (update(state, 0, 0, bv & 0xffff_ffff).map_err(fault)?, 0),
                MbarOp::TryWait => (state, u64::from(phase_done(state, (bv >> 32) as u32))),
                MbarOp::TryWaitParity => (state, u64::from(phase_done(state, (bv as u32) << 31))),
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

/// The SASS forms (`SYNCS.*`, `ARRIVES.LDGSTSBAR`, `UBLKCP`) act on the same word.
impl<O: Observer> Ctx<'_, '_, O> {
    /// Lane `l`'s read-modify-write of the mbarrier word at shared offset `a` with `f`;
    /// returns the word before.
    pub(super) fn mbar_rmw(
        &mut self,
        w: &Warp,
        mem: &mut BlockMem,
        l: usize,
        a: u64,
        pc: u32,
        f: impl FnOnce(u64) -> Result<u64, String>,
    ) -> Result<u64, Fault> {
        let thread = w.id * 32 + l as u32;
        let cell = self
            .bytes_mut(mem, w, l, Space::Shared, a, 8)
            .map_err(|k| (k.with_access("read-modify-write"), pc, thread))?;
        let old = read_le(cell, 8);
        let new = f(old).map_err(|detail| (FaultKind::Mbarrier { detail }, pc, thread))?;
        write_le(cell, 8, new);
        Ok(old)
    }

    /// `UBLKCP.S.G`: lane `l` copies `bytes` from global `src` to shared `dst`, then completes
    /// that many transaction bytes on the mbarrier at shared `bar` (the PTX path's
    /// `cp.async.bulk`, [`MbarOp::BulkCopy`], copies at issue too).
    #[allow(clippy::too_many_arguments)]
    pub(super) fn bulk_copy(
        &mut self,
        w: &Warp,
        mem: &mut BlockMem,
        l: usize,
        dst: u64,
        src: u64,
        bar: u64,
        bytes: u32,
        pc: u32,
    ) -> Result<(), Fault> {
        let thread = w.id * 32 + l as u32;
        let mut hint = usize::MAX;
        // No pointer provenance for the copy engine's source (the last memory instruction's
        // does not apply).
        self.cur_expect = u32::MAX;
        let data = self
            .global_slice(src, bytes, &mut hint)
            .map_err(|k| (k.with_access("read"), pc, thread))?
            .to_vec();
        let out = self
            .bytes_mut(mem, w, l, Space::Shared, dst, bytes)
            .map_err(|k| (k.with_access("write"), pc, thread))?;
        out.copy_from_slice(&data);
        self.mbar_rmw(w, mem, l, bar, pc, |s| update(s, 0, 0, u64::from(bytes)))?;
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

    /// Words of tests/hw/h200/mbarrier/mbar_words.txt, case 2 (count 3, tx 64, 16 completed
    /// first): the high words the arrives returned, and the word after `mbarrier.inval`.
    #[test]
    fn the_h200s_words() {
        let s = init_word(3);
        assert_eq!(s >> 32, 0x7fffe800, "step 5: the first arrive's state");
        let s = update(s, 1, 0, 0).unwrap();
        let s = update(s, 0, 64, 0).unwrap();
        let s = update(s, 0, 0, 16).unwrap();
        assert_eq!(s >> 32, 0x7ffff3ff, "step 10");
        let s = update(s, 1, 0, 0).unwrap();
        let s = update(s, 0, 0, 48).unwrap();
        assert_eq!(s >> 32, 0x7ffff800, "step 14");
        assert!(!phase_done(s, 0x7fffe800));
        let s = update(s, 1, 0, 0).unwrap();
        assert!(phase_done(s, 0x7fffe800), "step 15: phase 0 completed");
        assert_eq!(s >> 32, 0xffffe800, "step 19: phase 1, counts reloaded");
        let s = update(s, 1, 64, 0).unwrap();
        let s = update(s, 0, 0, 64).unwrap();
        assert_eq!(s >> 32, 0xfffff000, "step 22");
        let s = update(s, 2, 0, 0).unwrap();
        assert_eq!(s, 0x7fffe800_001ffffa, "step 25: the word after inval");
        // Count 2^20 - 1, tx 2^20 - 1 with 2^19 completed (case 9, step 10).
        let s = update(init_word(M20), 1, M20, 1 << 19).unwrap();
        assert_eq!(s >> 32, 0x00001300);
        // The zero word (case 24) faults; so do more arrivals than pending.
        assert!(update(0, 1, 0, 0).is_err());
        assert!(update(init_word(2), 3, 0, 0).is_err());
    }
}
