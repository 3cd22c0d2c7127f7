//! One warp's state: registers, predicates, which lanes live, and where each lane is.
//!
//! Reconvergence: a warp executes, at each step, the lanes whose next instruction has the
//! lowest index (the "min-PC" policy). For the structured code NVRTC emits, where the
//! reconvergence point of a branch is laid out after both of its sides, this groups lanes exactly
//! as an immediate-post-dominator stack does (both send diverged lanes back together at the first
//! instruction every path reaches), and it needs no stack. While all lanes agree, a single `pc`
//! is kept and the per-lane array is not touched.

/// Per-warp state.
#[derive(Clone, Debug)]
pub struct Warp {
    /// Index of the warp in its block.
    pub id: u32,
    /// Register file: register `r`, lane `l` at `r * 32 + l`.
    pub regs: Vec<u64>,
    /// Predicate file: one lane mask per predicate register.
    pub preds: Vec<u32>,
    /// Lanes that exist and have not exited.
    pub live: u32,
    /// Lanes waiting at a barrier.
    pub waiting: u32,
    /// The barrier instruction the waiting lanes wait at.
    pub bar_pc: u32,
    /// The barrier id they wait on.
    pub bar_id: u32,
    /// The thread count of that barrier (`bar.sync id, n`), 0 when all threads take part.
    pub bar_expected: u32,
    /// The common pc while converged.
    pub pc: u32,
    /// True while every live, non-waiting lane is at `pc`.
    pub converged: bool,
    /// Each lane's pc while diverged.
    pub lane_pc: [u32; 32],
    /// `%tid.{x,y,z}` per lane.
    pub tid: [[u32; 32]; 3],
    /// Pending `bar.red` input predicate of the waiting lanes.
    pub red_pred: u32,
    /// The warp gave up its turn (a spin-wait: SASS `YIELD`, PTX `ld.acquire`/`ld.relaxed`):
    /// the block's other warps run before it goes on.
    pub yielded: bool,
    /// The warp waits before an `ATOMS.CAST.SPIN.64` for the block's round of CAS retries
    /// (`crate::exec::simt`, the retry order).
    pub cas_park: bool,
    /// The round released the warp: its next `ATOMS.CAST.SPIN.64` executes.
    pub cas_go: bool,
    /// Queued `cp.async` copies, in issue order ([`crate::ir::Op::CpAsyncStore`]).
    pub copies: Vec<PendingCopy>,
    /// Per lane, how many `cp.async` groups it has committed.
    pub copy_groups: [u32; 32],
}

/// One lane's queued `cp.async` copy.
#[derive(Clone, Debug)]
pub struct PendingCopy {
    /// The lane.
    pub lane: u8,
    /// Its group (`u32::MAX`: not committed yet).
    pub group: u32,
    /// The shared destination.
    pub addr: u64,
    /// Bytes (the first `len`).
    pub data: [u8; 16],
    /// How many.
    pub len: u8,
}

impl Warp {
    /// A warp with `lanes` threads (the last warp of a block may be partial).
    pub fn new(id: u32, num_regs: u32, num_preds: u32) -> Self {
        Warp {
            id,
            regs: vec![0; num_regs as usize * 32],
            preds: vec![0; num_preds as usize],
            live: 0,
            waiting: 0,
            bar_pc: 0,
            bar_id: 0,
            bar_expected: 0,
            pc: 0,
            converged: true,
            lane_pc: [0; 32],
            tid: [[0; 32]; 3],
            red_pred: 0,
            yielded: false,
            cas_park: false,
            cas_go: false,
            copies: Vec::new(),
            copy_groups: [0; 32],
        }
    }

    /// [`Warp::new`], or `None` when the host cannot allocate the register file.
    pub fn try_new(id: u32, num_regs: u32, num_preds: u32) -> Option<Self> {
        fn zeroed<T: Clone + Default>(n: usize) -> Option<Vec<T>> {
            let mut v = Vec::new();
            v.try_reserve_exact(n).ok()?;
            v.resize(n, T::default());
            Some(v)
        }
        let regs: Vec<u64> = zeroed((num_regs as usize).checked_mul(32)?)?;
        let preds: Vec<u32> = zeroed(num_preds as usize)?;
        Some(Warp {
            regs,
            preds,
            ..Warp::new(id, 0, 0)
        })
    }

    /// Resets the warp for a new block.
    pub fn reset(&mut self, live: u32) {
        self.regs.iter_mut().for_each(|r| *r = 0);
        self.reset_state(live);
    }

    /// Resets the warp for a new block, zeroing only the register slots of `ranges`
    /// (`[start, end)` in registers): the others must be zero already, or never read before
    /// they are written.
    pub fn reset_ranges(&mut self, live: u32, ranges: &[(u16, u16)]) {
        for &(a, b) in ranges {
            if let Some(r) = self.regs.get_mut(a as usize * 32..b as usize * 32) {
                r.iter_mut().for_each(|r| *r = 0);
            }
        }
        self.reset_state(live);
    }

    fn reset_state(&mut self, live: u32) {
        self.preds.iter_mut().for_each(|p| *p = 0);
        self.live = live;
        self.waiting = 0;
        self.bar_expected = 0;
        self.pc = 0;
        self.converged = true;
        self.red_pred = 0;
        self.yielded = false;
        self.cas_park = false;
        self.cas_go = false;
        self.copies.clear();
        self.copy_groups = [0; 32];
    }

    /// Lanes that can run now.
    #[inline(always)]
    pub fn ready(&self) -> u32 {
        self.live & !self.waiting
    }

    /// The next group to run: its pc and lanes; lanes 0 when none can run.
    #[inline(always)]
    pub fn select(&mut self) -> (u32, u32) {
        let ready = self.ready();
        if ready == 0 || self.converged {
            return (self.pc, ready);
        }
        let mut min = u32::MAX;
        let mut m = 0u32;
        let mut r = ready;
        while r != 0 {
            let l = r.trailing_zeros();
            r &= r - 1;
            let p = self.lane_pc[l as usize];
            if p < min {
                min = p;
                m = 1 << l;
            } else if p == min {
                m |= 1 << l;
            }
        }
        if m == ready && self.waiting == 0 {
            self.converged = true;
            self.pc = min;
        }
        (min, m)
    }

    /// Lanes `m` (the group at `pc`) move on to `next`.
    #[inline(always)]
    pub fn advance(&mut self, m: u32, next: u32) {
        if self.converged {
            self.pc = next;
        } else {
            let mut r = m;
            while r != 0 {
                let l = r.trailing_zeros();
                r &= r - 1;
                self.lane_pc[l as usize] = next;
            }
        }
    }

    /// Of the group `m` at `pc`, lanes `taken` jump to `target`, the rest fall through.
    #[inline(always)]
    pub fn branch(&mut self, m: u32, taken: u32, pc: u32, target: u32) {
        if taken == m {
            self.advance(m, target);
        } else if taken == 0 {
            self.advance(m, pc + 1);
        } else {
            if self.converged {
                // Every live lane is in `m` while converged and nothing waits.
                self.lane_pc = [pc; 32];
                self.converged = false;
            }
            let mut r = m;
            while r != 0 {
                let l = r.trailing_zeros();
                r &= r - 1;
                self.lane_pc[l as usize] = if taken >> l & 1 == 1 { target } else { pc + 1 };
            }
        }
    }

    /// Lanes `e` exit; the rest of group `m` moves to `pc + 1`.
    #[inline(always)]
    pub fn exit(&mut self, m: u32, e: u32, pc: u32) {
        if e != m && self.converged {
            self.lane_pc = [pc; 32];
            self.converged = false;
        }
        self.live &= !e;
        self.advance(m & !e, pc + 1);
    }

    /// Register `r`'s lanes.
    #[inline(always)]
    pub fn reg(&self, r: crate::ir::Reg) -> &[u64] {
        let b = r as usize * 32;
        &self.regs[b..b + 32]
    }

    /// Register `r`'s lanes, mutably.
    #[inline(always)]
    pub fn reg_mut(&mut self, r: crate::ir::Reg) -> &mut [u64] {
        let b = r as usize * 32;
        &mut self.regs[b..b + 32]
    }
}
