//! The order in which the caches see a launch's requests: blocks assigned to SMs as the H200's
//! block scheduler assigns them, and the warps of the blocks resident on an SM interleaved.
//!
//! The functional executor may run blocks in any order (today: one after another, in grid
//! order); what it reports goes through this seam. [`Replay`] records each block's global and
//! local accesses per warp, split at barriers, as compact line lists ([`LineAccess`]); then it
//! replays them in the modelled order into the [`Hierarchy`]:
//!
//! - Blocks go to SMs in grid order, one per SM before any SM gets its second, until every SM
//!   holds as many as the occupancy allows; then each new block takes the slot of the block that
//!   finished first. Measured (tests/hw/h200/cache2/outputs/k_sched/sched_map.bin, `%smid` of
//!   4,224 blocks of 256 threads, 8 resident per SM): the first 1,056 blocks start within
//!   0.16 µs and occupy every SM exactly 8 times; later blocks start where earlier ones ended.
//!   The hardware visits SMs in an order that interleaves GPCs and TPCs (124-131, 0, 1, 16, 17,
//!   32, 33, ...); that order only matters for which L2 partition is near, and the model uses SM
//!   index order.
//! - Time is not modelled: in each step every resident warp of every SM (SM 0 first) issues its
//!   next access, and a warp at a barrier waits until every warp of its block has reached it or
//!   finished. So warps progress at equal speed; a timing model will replace these steps.
//!
//! The replay only ever decides with the next block in grid order available: when a slot is
//! free and that block has not finished executing, it waits. So its result depends on the
//! recorded accesses alone, never on how the executor batches its work, and blocks can later
//! execute on several threads with identical counters.
//!
//! A measured placement ([`Replay::with_placement`]) replaces the SM choice: block `i` runs on
//! the SM the H200 ran it on (`%smid` recorded per block), taking a slot of that SM when one
//! is free, blocks of one SM in grid order. The H200's own placement is not a fixed function of
//! the block index: tests/hw/h200/texture_mem/run3/smid.txt records 5 runs of each of
//! tex_probe's grid shapes, and for 256 blocks of 256 threads the number of blocks `b < 128`
//! sharing an SM with block `b + 128` is 15 in 6 of the 10 runs and 1 or 39 in the others.

use std::collections::VecDeque;

use crate::mem::cache::{AccessInfo, Hierarchy, LineAccess, LINE_BYTES};
use crate::mem::request::{AccessKind, CacheOp, MemRequest, Space};
use crate::mem::texture::request::TexAccess;

/// First line of the region local memory is mapped to (above any global address).
const LOCAL_BASE_LINE: u64 = 1 << 44;
/// Lines of local memory per resident warp slot (512 KB per thread, ptxas's limit, is 131,072
/// words, one 128-byte line per word of a warp).
const LOCAL_LINES_PER_WARP: u64 = 1 << 17;

#[derive(Clone, Copy, Debug)]
enum Event {
    Access {
        info: AccessInfo,
        start: u32,
        len: u32,
    },
    Barrier,
    /// A texture or surface instruction: its requests are `reqs[first..first + n]`.
    Tex {
        pc: u32,
        access: TexAccess,
        first: u32,
        n: u32,
    },
}

#[derive(Clone, Debug, Default)]
struct WarpTrace {
    events: Vec<Event>,
    lines: Vec<LineAccess>,
    /// Texture requests: ranges of `lines`.
    reqs: Vec<(u32, u32)>,
    /// The L2 group of each texture line (parallel to `lines` up to the last texture
    /// instruction; [`crate::mem::texture::request::Splitter::l2_groups`]).
    groups: Vec<u32>,
}

#[derive(Clone, Debug)]
struct Resident {
    slot: usize,
    warps: Vec<WarpTrace>,
    /// Next event per warp.
    pos: Vec<usize>,
}

/// The block scheduler and warp interleaving in front of the caches.
#[derive(Clone, Debug)]
pub struct Replay {
    hierarchy: Hierarchy,
    sms: usize,
    warps_per_block: usize,
    /// Warp slots per SM (for local-memory addresses).
    slots_per_sm: usize,
    /// The block being recorded.
    current: Vec<WarpTrace>,
    recording: bool,
    /// Blocks executed and not yet assigned, in grid order.
    pending: VecDeque<Vec<WarpTrace>>,
    /// Free (sm, slot) pairs in the order they are handed out.
    free: VecDeque<(usize, usize)>,
    resident: Vec<Vec<Resident>>,
    scratch: Vec<LineAccess>,
    cover: Vec<[u32; 4]>,
    /// A measured SM per block in grid order ([`Replay::with_placement`]).
    placement: Option<Vec<usize>>,
}

impl Replay {
    /// A replay into `hierarchy` for `sms` SMs holding `blocks_per_sm` blocks of
    /// `warps_per_block` warps each.
    pub fn new(
        hierarchy: Hierarchy,
        sms: usize,
        blocks_per_sm: usize,
        warps_per_block: usize,
    ) -> Self {
        let sms = sms.max(1);
        let bps = blocks_per_sm.max(1);
        let mut free = VecDeque::with_capacity(sms * bps);
        for slot in 0..bps {
            for sm in 0..sms {
                free.push_back((sm, slot));
            }
        }
        Replay {
            hierarchy,
            sms,
            warps_per_block: warps_per_block.max(1),
            slots_per_sm: bps * warps_per_block.max(1),
            current: Vec::new(),
            recording: false,
            pending: VecDeque::new(),
            free,
            resident: (0..sms).map(|_| Vec::new()).collect(),
            scratch: Vec::new(),
            cover: Vec::new(),
            placement: None,
        }
    }

    /// Places block `i` (in grid order) on SM `sm_of_block[i]`, as recorded on the H200, instead
    /// of the modelled order; an SM index past the last SM and blocks past the list's end wrap
    /// around (`i` modulo the list's length, the SM modulo the SM count). Every block is then
    /// replayed when the launch finishes, since an SM's next block may come late in grid order.
    pub fn with_placement(mut self, sm_of_block: Vec<usize>) -> Self {
        if !sm_of_block.is_empty() {
            let sms = self.sms;
            self.placement = Some(sm_of_block.into_iter().map(|s| s % sms).collect());
        }
        self
    }

    /// A block starts executing.
    pub fn block_begin(&mut self) {
        self.current = vec![WarpTrace::default(); self.warps_per_block];
        self.recording = true;
    }

    /// The running block passed a barrier.
    pub fn barrier(&mut self) {
        for w in &mut self.current {
            w.events.push(Event::Barrier);
        }
    }

    /// The running block finished: it is ready to be scheduled.
    pub fn block_end(&mut self) {
        self.recording = false;
        let trace = std::mem::take(&mut self.current);
        self.pending.push_back(trace);
        self.advance(false);
    }

    /// The launch finished: replays what is left and returns the hierarchy.
    pub fn finish(mut self) -> Hierarchy {
        self.advance(true);
        self.hierarchy
    }

    /// Records one warp-level access of the running block.
    pub fn mem(&mut self, req: &MemRequest) {
        if !self.recording || req.mask == 0 {
            return;
        }
        let local = match req.space {
            Space::Global => false,
            Space::Local => true,
            _ => return,
        };
        let Some(w) = self.current.get_mut(req.warp as usize) else {
            return;
        };
        // `.cg`, `.cv` and a global `.lu` bypass L1; a local `.lu` (the SASS `LDL.LU` ptxas
        // reloads spilled registers with) is looked up like any local load: measured on the
        // H200, `local_spill`'s 1,104 `LDL.LU` sectors all hit on the lines its `STL`s wrote
        // (tests/hw/h200/cache2/ncu/k_local.csv launch 4), where a global `__ldlu` re-read hits
        // on none (k_cache.csv launch 13).
        let l1_allocate = match req.cache_op {
            CacheOp::Cg | CacheOp::Cv => false,
            CacheOp::Lu => local,
            _ => true,
        };
        let info = AccessInfo {
            pc: req.pc,
            kind: req.kind,
            local,
            l1_allocate,
        };
        let start = w.lines.len();
        self.scratch.clear();
        self.cover.clear();
        if local {
            local_lines(req, &mut self.scratch, &mut self.cover);
        } else if matches!(req.kind, AccessKind::Atomic | AccessKind::Reduction) {
            atomic_lines(req, &mut self.scratch);
        } else {
            global_lines(req, &mut self.scratch, &mut self.cover);
        }
        w.lines.extend_from_slice(&self.scratch);
        w.events.push(Event::Access {
            info,
            start: start as u32,
            len: self.scratch.len() as u32,
        });
    }

    /// Records one warp-level texture or surface instruction of the running block: its
    /// requests, each a range of `lines` (as [`crate::mem::texture::request::Splitter`] makes
    /// them), looked up in order when the warp's turn comes; `groups` is each line's L2 group
    /// (missing entries 0).
    pub fn tex(
        &mut self,
        warp: u32,
        pc: u32,
        access: TexAccess,
        lines: &[LineAccess],
        groups: &[u32],
        requests: &[(u32, u32)],
    ) {
        if !self.recording || requests.is_empty() {
            return;
        }
        let Some(w) = self.current.get_mut(warp as usize) else {
            return;
        };
        let base = w.lines.len() as u32;
        w.lines.extend_from_slice(lines);
        w.groups.resize(base as usize, 0);
        w.groups
            .extend((0..lines.len()).map(|k| groups.get(k).copied().unwrap_or(0)));
        let first = w.reqs.len() as u32;
        w.reqs.extend(requests.iter().map(|&(s, n)| (base + s, n)));
        w.events.push(Event::Tex {
            pc,
            access,
            first,
            n: requests.len() as u32,
        });
    }

    fn advance(&mut self, last: bool) {
        if self.placement.is_some() {
            if last {
                self.advance_placed();
            }
            return;
        }
        loop {
            while !self.pending.is_empty() {
                let Some((sm, slot)) = self.free.pop_front() else {
                    break;
                };
                let warps = self.pending.pop_front().unwrap_or_default();
                let pos = vec![0; warps.len()];
                self.resident[sm].push(Resident { slot, warps, pos });
            }
            if !last && !self.free.is_empty() && self.pending.is_empty() {
                return;
            }
            if self.resident.iter().all(|r| r.is_empty()) {
                return;
            }
            self.step();
        }
    }

    /// The replay with a measured placement: every block waits in its SM's queue, and an SM
    /// starts its next block when a slot of it is free.
    fn advance_placed(&mut self) {
        let Some(placement) = self.placement.take() else {
            return;
        };
        let mut queues: Vec<VecDeque<Vec<WarpTrace>>> = vec![VecDeque::new(); self.sms];
        for (i, block) in self.pending.drain(..).enumerate() {
            queues[placement[i % placement.len()]].push_back(block);
        }
        loop {
            let mut keep = VecDeque::with_capacity(self.free.len());
            while let Some((sm, slot)) = self.free.pop_front() {
                match queues[sm].pop_front() {
                    Some(warps) => {
                        let pos = vec![0; warps.len()];
                        self.resident[sm].push(Resident { slot, warps, pos });
                    }
                    None => keep.push_back((sm, slot)),
                }
            }
            self.free = keep;
            if self.resident.iter().all(|r| r.is_empty()) {
                break;
            }
            self.step();
        }
        self.placement = Some(placement);
    }

    /// Every resident warp issues its next access; finished blocks free their slots.
    fn step(&mut self) {
        for sm in 0..self.sms {
            let mut i = 0;
            while i < self.resident[sm].len() {
                let done = self.step_block(sm, i);
                if done {
                    let b = self.resident[sm].remove(i);
                    self.free.push_back((sm, b.slot));
                } else {
                    i += 1;
                }
            }
            self.hierarchy.end_step(sm);
        }
    }

    /// One step of block `i` on `sm`; true when the block has finished.
    fn step_block(&mut self, sm: usize, i: usize) -> bool {
        let b = &mut self.resident[sm][i];
        let mut all_waiting = true;
        let mut finished = true;
        for (w, trace) in b.warps.iter().enumerate() {
            let p = b.pos[w];
            match trace.events.get(p) {
                None => {}
                Some(Event::Barrier) => finished = false,
                Some(Event::Tex {
                    pc,
                    access,
                    first,
                    n,
                }) => {
                    finished = false;
                    all_waiting = false;
                    let reqs = &trace.reqs[*first as usize..(*first + *n) as usize];
                    self.hierarchy
                        .tex_access(sm, *pc, *access, &trace.lines, &trace.groups, reqs);
                    b.pos[w] = p + 1;
                }
                Some(Event::Access { info, start, len }) => {
                    finished = false;
                    all_waiting = false;
                    let lines = &trace.lines[*start as usize..(*start + *len) as usize];
                    if info.local {
                        let base = LOCAL_BASE_LINE
                            + ((sm * self.slots_per_sm + b.slot * self.warps_per_block + w) as u64)
                                * LOCAL_LINES_PER_WARP;
                        self.scratch.clear();
                        self.scratch.extend(lines.iter().map(|l| LineAccess {
                            line: base + l.line,
                            ..*l
                        }));
                        self.hierarchy.access(sm, info, &self.scratch);
                    } else {
                        self.hierarchy.access(sm, info, lines);
                    }
                    b.pos[w] = p + 1;
                }
            }
        }
        if finished {
            return true;
        }
        if all_waiting {
            // Every unfinished warp is at a barrier: release them all.
            for (w, trace) in b.warps.iter().enumerate() {
                if matches!(trace.events.get(b.pos[w]), Some(Event::Barrier)) {
                    b.pos[w] += 1;
                }
            }
        }
        false
    }
}

/// Adds `bytes` at byte `offset` of sector `sector` of `line` to `out` (merging with an entry
/// of the same line), tracking full coverage in `cover` (32 bits per sector, parallel to `out`).
fn add_range(out: &mut Vec<LineAccess>, cover: &mut Vec<[u32; 4]>, addr: u64, bytes: u64) {
    let end = addr.saturating_add(bytes);
    let mut a = addr;
    while a < end {
        let line = a / LINE_BYTES;
        let line_end = ((line + 1) * LINE_BYTES).min(end);
        let idx = match out.iter().rposition(|l| l.line == line) {
            Some(i) => i,
            None => {
                out.push(LineAccess {
                    line,
                    sectors: 0,
                    full: 0,
                });
                cover.push([0; 4]);
                out.len() - 1
            }
        };
        let mut b = a;
        while b < line_end {
            let off = (b % LINE_BYTES) as u32;
            let sector = (off / 32) as usize;
            let sector_end = (((b / 32) + 1) * 32).min(line_end);
            let lo = off % 32;
            let n = (sector_end - b) as u32;
            let bits = if n >= 32 {
                u32::MAX
            } else {
                ((1u32 << n) - 1) << lo
            };
            cover[idx][sector] |= bits;
            out[idx].sectors |= 1 << sector;
            if cover[idx][sector] == u32::MAX {
                out[idx].full |= 1 << sector;
            }
            b = sector_end;
        }
        a = line_end;
    }
}

/// The lines and sectors of a global load or store.
fn global_lines(req: &MemRequest, out: &mut Vec<LineAccess>, cover: &mut Vec<[u32; 4]>) {
    // The common case: every lane active, lane i at the first address plus i widths.
    let w = u64::from(req.width);
    let a0 = req.addrs[0];
    if req.mask == u32::MAX
        && (1..32).all(|i| req.addrs[i] == a0.wrapping_add(w * i as u64))
        && a0.checked_add(32 * w).is_some()
    {
        add_range(out, cover, a0, 32 * w);
        return;
    }
    for l in req.active_lanes() {
        add_range(out, cover, req.addrs[l], u64::from(req.width));
    }
}

/// The lines of a global atomic or reduction: lanes on the same address are served in
/// successive rounds (see `mem::coalesce`), each round one request per line it touches.
fn atomic_lines(req: &MemRequest, out: &mut Vec<LineAccess>) {
    let mut addrs: Vec<u64> = req.active_lanes().map(|l| req.addrs[l]).collect();
    addrs.sort_unstable();
    let mut groups: Vec<(u64, usize)> = Vec::new();
    for a in addrs {
        match groups.last_mut() {
            Some((g, n)) if *g == a => *n += 1,
            _ => groups.push((a, 1)),
        }
    }
    let rounds = groups.iter().map(|g| g.1).max().unwrap_or(0);
    for r in 0..rounds {
        let mut cover = Vec::new();
        let mut round = Vec::new();
        for &(a, n) in &groups {
            if n > r {
                add_range(&mut round, &mut cover, a, u64::from(req.width));
            }
        }
        out.extend(round);
    }
}

/// The lines of a local access, relative to the warp's local region: word `w` of every lane of
/// the warp is one 128-byte line (lane `l` at bytes `4 l ..`), the interleaving described in
/// `mem::coalesce`.
fn local_lines(req: &MemRequest, out: &mut Vec<LineAccess>, cover: &mut Vec<[u32; 4]>) {
    for l in req.active_lanes() {
        let off = req.addrs[l];
        let end = off.saturating_add(u64::from(req.width));
        let mut b = off;
        while b < end {
            let word = b / 4;
            let word_end = ((word + 1) * 4).min(end);
            let addr = word * LINE_BYTES + (l as u64) * 4 + b % 4;
            add_range(out, cover, addr, word_end - b);
            b = word_end;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn req(kind: AccessKind, width: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (i, a) in addrs.iter_mut().enumerate() {
            *a = addr(i as u64);
        }
        MemRequest {
            warp: 0,
            space: Space::Global,
            kind,
            width,
            addrs,
            mask: !0,
            pc: 0,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    #[test]
    fn a_coalesced_store_writes_one_full_line() {
        let mut out = Vec::new();
        global_lines(
            &req(AccessKind::Store, 4, |i| 4096 + 4 * i),
            &mut out,
            &mut Vec::new(),
        );
        assert_eq!(
            out,
            vec![LineAccess {
                line: 32,
                sectors: 0b1111,
                full: 0b1111
            }]
        );
    }

    #[test]
    fn a_strided_store_touches_sectors_partially() {
        let mut out = Vec::new();
        global_lines(
            &req(AccessKind::Store, 4, |i| 32 * i),
            &mut out,
            &mut Vec::new(),
        );
        assert_eq!(out.len(), 8);
        assert!(out.iter().all(|l| l.sectors == 0b1111 && l.full == 0));
    }

    #[test]
    fn same_address_atomics_take_one_round_per_lane() {
        let mut out = Vec::new();
        atomic_lines(&req(AccessKind::Reduction, 4, |_| 64), &mut out);
        assert_eq!(out.len(), 32);
        let mut out = Vec::new();
        atomic_lines(&req(AccessKind::Atomic, 4, |i| 4 * i), &mut out);
        assert_eq!(out.len(), 1);
    }

    /// Two one-warp blocks load the same 128 bytes, one block per SM at a time: in the modelled
    /// order the second runs on SM 1 and misses; placed on SM 0 it waits for the first and hits.
    #[test]
    fn a_placement_puts_blocks_on_the_recorded_sm() {
        let run = |placement: Option<Vec<usize>>| {
            let h = Hierarchy::new(2, 128 << 10, 1 << 20, 1);
            let mut r = Replay::new(h, 2, 1, 1);
            if let Some(p) = placement {
                r = r.with_placement(p);
            }
            for _ in 0..2 {
                r.block_begin();
                r.mem(&req(AccessKind::Load, 4, |i| 4096 + 4 * i));
                r.block_end();
            }
            let t = r.finish().totals();
            (
                t[crate::metrics::Metric::L1GlobalLdHit],
                t[crate::metrics::Metric::L1GlobalLdMiss],
            )
        };
        assert_eq!(run(None), (0, 8));
        assert_eq!(run(Some(vec![0, 0])), (4, 4));
        // SM indices wrap around the SM count, blocks around the list.
        assert_eq!(run(Some(vec![2])), (4, 4));
    }

    #[test]
    fn local_words_of_a_warp_share_a_line() {
        let mut r = req(AccessKind::Load, 4, |_| 8);
        r.space = Space::Local;
        let mut out = Vec::new();
        local_lines(&r, &mut out, &mut Vec::new());
        assert_eq!(
            out,
            vec![LineAccess {
                line: 2,
                sectors: 0b1111,
                full: 0b1111
            }]
        );
    }
}
