//! Instruction issue, shared by both instruction sets' warp loops: the budgets that bound a
//! launch (one per block against an endless loop, one for the whole launch against a huge
//! grid) and the accounting of an executed instruction (the launch statistics and the
//! [`Observer::inst`] call). An instruction is counted only once it has executed: one that
//! faults adds nothing to any counter.

use super::*;

impl<O: Observer> Ctx<'_, '_, O> {
    /// Takes one instruction of the block's budget (and one clock tick) for the group `m` of
    /// warp `w` about to execute the instruction at `pc`; the budget fault when none is left.
    #[inline(always)]
    pub(super) fn charge(&mut self, w: &Warp, pc: u32, m: u32) -> Result<(), Fault> {
        if self.block_budget == 0 {
            return Err(self.budget_fault(w, pc, m));
        }
        self.block_budget -= 1;
        self.clock += 1;
        Ok(())
    }

    #[cold]
    fn budget_fault(&self, w: &Warp, pc: u32, m: u32) -> Fault {
        let kind = if self.launch_limited {
            FaultKind::LaunchBudget {
                budget: self.l.budget_per_launch,
            }
        } else {
            FaultKind::Budget {
                budget: self.l.budget_per_block,
            }
        };
        (kind, pc, w.id * 32 + m.trailing_zeros())
    }

    /// The instruction at `pc` executed for the group `m`, lanes `e` passing its guard.
    #[inline(always)]
    pub(super) fn retire(&mut self, pc: u32, m: u32, e: u32) {
        self.stats.warp_instructions += 1;
        self.stats.thread_instructions += e.count_ones() as u64;
        self.obs.inst(pc, m, e);
    }
}
