//! Block barriers (PTX ISA 9.0 §9.7.13.1 `bar`/`barrier`, `bar.red`; SASS `BAR.SYNC`,
//! `BAR.ARV`): lanes arrive at a barrier ([`Ctx::bar_arrive`], called by both instruction
//! sets), and once every warp of the block waits or has exited, the barrier releases them
//! (`release_barrier`) or, for a barrier with a thread count, as soon as that many threads have
//! arrived ([`release_counted`]). Threads that exited count as arrived, as on sm_70 and later
//! (CUDA Programming Guide, "Independent Thread Scheduling").

use super::super::*;

/// Releases the warps waiting at counted barriers whose thread count has arrived.
pub(in crate::exec::simt) fn release_counted(warps: &mut [Warp], mem: &mut BlockMem) -> bool {
    let mut released = false;
    for id in 0..16 {
        let need = mem.expected[id];
        if need == 0 || mem.arrived[id] < need {
            continue;
        }
        for w in warps.iter_mut() {
            if w.waiting != 0 && w.bar_expected > 0 && w.bar_id as usize % 16 == id {
                w.waiting = 0;
                w.bar_expected = 0;
            }
        }
        mem.arrived[id] -= need;
        if mem.arrived[id] == 0 {
            mem.expected[id] = 0;
        }
        released = true;
    }
    released
}

impl<O: Observer> Ctx<'_, '_, O> {
    /// All live threads wait: release the barrier they wait at, or report why it cannot be.
    pub(in crate::exec::simt) fn release_barrier(
        &mut self,
        warps: &mut [Warp],
        mem: &BlockMem,
    ) -> Result<(), Fault> {
        // A counted barrier (`bar.sync id, n`) still short of its threads can never complete now.
        if let Some(w) = warps.iter().find(|w| w.waiting != 0 && w.bar_expected > 0) {
            let id = w.bar_id as usize % 16;
            let detail = format!(
                "barrier {} expects {} threads, only {} arrived and no other thread can run",
                id, mem.expected[id], mem.arrived[id]
            );
            return Err((
                FaultKind::DivergentBarrier { detail },
                w.bar_pc,
                w.id * 32 + w.waiting.trailing_zeros(),
            ));
        }
        let mut first: Option<(u32, u32, u32)> = None; // pc, id, global lane
        for w in warps.iter() {
            if w.live == 0 {
                continue;
            }
            let lane = w.waiting.trailing_zeros();
            let here = (w.bar_pc, w.bar_id, w.id * 32 + lane);
            match first {
                None => first = Some(here),
                Some((pc, id, gl)) => {
                    if pc != w.bar_pc || id != w.bar_id {
                        let line = |p: u32| place(self.l.kernel, p);
                        let detail = format!(
                            "thread {} waits at the barrier at {} while thread {} waits at the barrier at {}",
                            gl,
                            line(pc),
                            here.2,
                            line(w.bar_pc)
                        );
                        return Err((FaultKind::DivergentBarrier { detail }, w.bar_pc, here.2));
                    }
                }
            }
        }
        // bar.red: reduce the predicates of every waiting thread.
        let popc: u32 = warps
            .iter()
            .map(|w| (w.red_pred & w.waiting).count_ones())
            .sum();
        let waiting: u32 = warps.iter().map(|w| w.waiting.count_ones()).sum();
        let pc = first.map(|f| f.0).unwrap_or(0);
        if let Some(Inst {
            op: Op::BarRed { d, op, .. },
            ..
        }) = self.l.kernel.code.get(pc as usize)
        {
            let (d, op) = (*d, *op);
            for w in warps.iter_mut() {
                let m = w.waiting;
                match (d, op) {
                    (Src::Reg(r), _) => {
                        let regs = w.reg_mut(r);
                        for l in lanes(m) {
                            regs[l] = popc as u64;
                        }
                    }
                    (Src::Pred(p), ReduxOp::And) => {
                        let v = if popc == waiting { m } else { 0 };
                        w.preds[p as usize] = (w.preds[p as usize] & !m) | v;
                    }
                    (Src::Pred(p), _) => {
                        let v = if popc > 0 { m } else { 0 };
                        w.preds[p as usize] = (w.preds[p as usize] & !m) | v;
                    }
                    _ => {}
                }
            }
        }
        for w in warps.iter_mut() {
            w.waiting = 0;
            w.red_pred = 0;
        }
        Ok(())
    }

    /// Lanes `e` of group `m` arrive at barrier `id` at `pc` (`expected` threads, 0 for all;
    /// `arrive`: without waiting). PTX ISA 9.7.13.1: with a thread count the barrier completes
    /// when that many threads have arrived.
    #[allow(clippy::too_many_arguments)]
    pub(in crate::exec::simt) fn bar_arrive(
        &mut self,
        w: &mut Warp,
        mem: &mut BlockMem,
        pc: u32,
        m: u32,
        e: u32,
        id: u32,
        expected: u32,
        arrive: bool,
    ) -> Result<(), Fault> {
        let lane0 = e.trailing_zeros() as usize;
        if expected > 0 {
            let slot = id as usize % 16;
            mem.arrived[slot] += e.count_ones();
            mem.expected[slot] = expected;
        }
        if !arrive {
            if w.waiting != 0 && (w.bar_pc != pc || w.bar_id != id) {
                let line = |p: u32| place(self.l.kernel, p);
                let detail = format!(
                    "threads of warp {} wait at two barriers, at {} and at {}",
                    w.id,
                    line(w.bar_pc),
                    line(pc)
                );
                return Err((
                    FaultKind::DivergentBarrier { detail },
                    pc,
                    w.id * 32 + lane0 as u32,
                ));
            }
            if w.converged && e != m {
                w.lane_pc = [pc; 32];
                w.converged = false;
            }
            w.waiting |= e;
            w.bar_pc = pc;
            w.bar_id = id;
            w.bar_expected = expected;
        }
        Ok(())
    }
}
