//! racecheck: shared-memory hazards between two barriers of a block.
//!
//! Every byte of the block's shared memory remembers its last writer (thread, instruction,
//! value) and up to two readers from different warps since the last barrier. A barrier
//! (`bar.sync`/`__syncthreads()` releasing: the executor's `barrier()` call) and the start of a
//! block begin a new epoch, and `bar.warp.sync` (`__syncwarp()`) a new warp epoch; accesses of
//! earlier epochs are ordered before every later access. Within an epoch, a conflict is two
//! accesses of one byte by two threads, at least one a write:
//!
//! - threads of **different warps**: an error (read-after-write, write-after-read, and
//!   write-after-write of different values), a warning for a write-after-write of the same value;
//! - threads of **one warp** with no `__syncwarp()` between: a warning (the lanes execute in
//!   lock step here and on the H200 today, but the ISA orders them only through
//!   `__syncwarp()`), except the lanes of one store instruction writing different values to
//!   one address, an error: which value survives is undefined (the seed notes' case).
//!
//! This is how compute-sanitizer's racecheck classifies the hazards of the planted bugs in
//! tests/sanitize/ on the H200 (tests/hw/h200/sanitize/*.racecheck.log): cross-warp hazards and
//! a warp's lanes storing different values to one word are errors, hazards inside a warp
//! warnings; it does not report one store of the same value by a warp's lanes, which we report
//! as a warning. Atomics neither race with each other nor are tracked. Each hazard is counted
//! once per access, grouped by the two instructions.

use super::{Recorder, Severity};
use crate::ir::{Kernel, Op};
use crate::mem::request::{AccessKind, MemRequest, Space};

/// The shadow of one shared byte.
#[derive(Clone, Copy, Default)]
struct Cell {
    w: Access,
    w_inst: u32,
    w_val: u8,
    r: Access,
    r2: Access,
}

/// One access: its epochs (0: none), thread and instruction.
#[derive(Clone, Copy, Default)]
struct Access {
    epoch: u32,
    wsync: u32,
    tid: u32,
    pc: u32,
}

impl Access {
    /// How an access by `tid` (of `warp`) now conflicts with this earlier one: `None` when it
    /// does not (ordered, or the same thread), else whether they are in different warps.
    #[inline]
    fn conflict(&self, epoch: u32, wsync: u32, tid: u32) -> Option<bool> {
        if self.epoch != epoch || self.tid == tid {
            return None;
        }
        if self.tid / 32 != tid / 32 {
            Some(true)
        } else if self.wsync == wsync {
            Some(false)
        } else {
            None
        }
    }
}

/// racecheck's state for one launch.
pub struct RaceCheck {
    cells: Vec<Cell>,
    epoch: u32,
    wsync: u32,
    inst: u32,
    block_dim: [u32; 3],
    /// Per pc: the instruction is `bar.warp.sync`.
    warp_syncs: Vec<bool>,
}

const WAW: &str = "Write-after-write hazard";
const RAW: &str = "Read-after-write hazard";
const WAR: &str = "Write-after-read hazard";

impl RaceCheck {
    /// An empty shadow for blocks of `block_dim` threads of kernel `k`.
    pub fn new(k: &Kernel, block_dim: [u32; 3]) -> Self {
        RaceCheck {
            cells: Vec::new(),
            epoch: 1,
            wsync: 1,
            inst: 0,
            block_dim,
            warp_syncs: k
                .code
                .iter()
                .map(|i| matches!(i.op, Op::WarpSync { .. }))
                .collect(),
        }
    }

    /// A new block: nothing of the last one conflicts with it.
    pub fn block_begin(&mut self) {
        self.epoch += 1;
    }

    /// A barrier released: what came before is ordered before what follows.
    pub fn barrier(&mut self) {
        self.epoch += 1;
    }

    /// Instruction `pc` finished (numbers the dynamic instructions, to tell the lanes of one
    /// store from two stores of one warp; `__syncwarp()` starts a warp epoch).
    pub fn inst(&mut self, pc: u32) {
        self.inst = self.inst.wrapping_add(1);
        if self.warp_syncs.get(pc as usize) == Some(&true) {
            self.wsync += 1;
        }
    }

    fn cell(&mut self, a: u64) -> Option<&mut Cell> {
        let a = usize::try_from(a).ok()?;
        if a >= self.cells.len() {
            // Shared memory is at most 227 KB per block (the executor checked the bounds).
            if a >= 1 << 20 {
                return None;
            }
            self.cells
                .resize((a + 1).next_power_of_two(), Cell::default());
        }
        self.cells.get_mut(a)
    }

    fn thread(&self, tid: u32) -> String {
        let [bx, by, _] = self.block_dim;
        let (bx, by) = (bx.max(1), by.max(1));
        format!("({},{},{})", tid % bx, (tid / bx) % by, tid / (bx * by))
    }

    fn severity(cross_warp: bool) -> Severity {
        if cross_warp {
            Severity::Error
        } else {
            Severity::Warning
        }
    }

    /// A shared load of a warp.
    pub fn mem(&mut self, req: &MemRequest, block: [u32; 3], out: &mut Recorder) {
        if req.space != Space::Shared || req.kind != AccessKind::Load {
            return;
        }
        let (epoch, wsync) = (self.epoch, self.wsync);
        for l in req.active_lanes() {
            let tid = req.warp * 32 + l as u32;
            let now = Access {
                epoch,
                wsync,
                tid,
                pc: req.pc,
            };
            let a0 = req.addrs[l];
            let mut raw: Option<(bool, Access)> = None;
            for b in 0..req.width as u64 {
                let Some(c) = self.cell(a0.wrapping_add(b)) else {
                    continue;
                };
                if let Some(cross) = c.w.conflict(epoch, wsync, tid) {
                    if raw.is_none_or(|(x, _)| cross && !x) {
                        raw = Some((cross, c.w));
                    }
                }
                if c.r.epoch != epoch || c.r.tid / 32 == tid / 32 {
                    c.r = now;
                } else if c.r2.epoch != epoch || c.r2.tid / 32 == tid / 32 {
                    c.r2 = now;
                }
            }
            if let Some((cross, w)) = raw {
                let ex = || {
                    format!(
                        "block ({},{},{}): thread {} reads shared address {a0:#x}, which thread {} wrote with no barrier between",
                        block[0], block[1], block[2], self.thread(tid), self.thread(w.tid)
                    )
                };
                out.add("racecheck", Self::severity(cross), RAW, req.pc, w.pc, 1, ex);
            }
        }
    }

    /// Lane `lane` of warp `warp` stored `bytes` at shared address `addr`.
    #[allow(clippy::too_many_arguments)]
    pub fn store(
        &mut self,
        pc: u32,
        warp: u32,
        lane: u32,
        addr: u64,
        bytes: &[u8],
        block: [u32; 3],
        out: &mut Recorder,
    ) {
        let (epoch, wsync, inst) = (self.epoch, self.wsync, self.inst);
        let tid = warp * 32 + lane;
        let now = Access {
            epoch,
            wsync,
            tid,
            pc,
        };
        // The earlier writer this store conflicts with (cross-warp?, same instruction?), and
        // whether every conflicting byte already held the value written.
        let mut waw: Option<(bool, bool, Access)> = None;
        let mut same = true;
        let mut war: Option<(bool, Access)> = None;
        for (i, &v) in bytes.iter().enumerate() {
            let Some(c) = self.cell(addr.wrapping_add(i as u64)) else {
                continue;
            };
            if let Some(cross) = c.w.conflict(epoch, wsync, tid) {
                let one_inst = !cross && c.w_inst == inst;
                if waw.is_none_or(|(x, _, _)| cross && !x) {
                    waw = Some((cross, one_inst, c.w));
                }
                same &= c.w_val == v;
            }
            for r in [c.r, c.r2] {
                if let Some(cross) = r.conflict(epoch, wsync, tid) {
                    if war.is_none_or(|(x, _)| cross && !x) {
                        war = Some((cross, r));
                    }
                }
            }
            c.w = now;
            c.w_inst = inst;
            c.w_val = v;
        }
        if let Some((cross, one_inst, w)) = waw {
            // Different values from two warps, or from the lanes of one store: an error. The
            // same value: benign, a warning. Two stores of one warp: a warning when the values
            // differ (ordered in lock step), nothing when they are the same.
            let sev = match (cross || one_inst, same) {
                (true, false) => Some(Severity::Error),
                (true, true) | (false, false) => Some(Severity::Warning),
                (false, true) => None,
            };
            if let Some(sev) = sev {
                let ex = || {
                    format!(
                        "block ({},{},{}): threads {} and {} write shared address {addr:#x}{}",
                        block[0],
                        block[1],
                        block[2],
                        self.thread(w.tid),
                        self.thread(tid),
                        if same {
                            " with the same value"
                        } else if one_inst {
                            " in one instruction with different values: which one survives is undefined"
                        } else {
                            " with different values"
                        }
                    )
                };
                out.add("racecheck", sev, WAW, pc, w.pc, 1, ex);
            }
        }
        if let Some((cross, r)) = war {
            let ex = || {
                format!(
                    "block ({},{},{}): thread {} writes shared address {addr:#x}, which thread {} read with no barrier between",
                    block[0], block[1], block[2], self.thread(tid), self.thread(r.tid)
                )
            };
            out.add("racecheck", Self::severity(cross), WAR, pc, r.pc, 1, ex);
        }
    }
}
