//! The sample recorder: one representative warp instance per memory instruction, for the HTML
//! report's bank diagrams and sector maps.
//!
//! [`Sampler`] wraps the launch's observer (the [`Profile`](super::profile::Profile)) and
//! forwards every call to it unchanged, so the counters are the same with and without it. For
//! each warp-level request with at least one active lane it asks the memory model what the
//! instruction cost (shared: wavefronts, [`shared_wavefronts`]; global: sectors,
//! [`global_sectors`]; local: sectors, [`local_sectors`]; constant: requests,
//! [`constant_requests`]), keeps how many executions had each cost, and the lanes' addresses of
//! the FIRST execution with each cost. When the launch is done, [`Sampler::finish`] names two of
//! them: the worst (the highest cost) and the typical one (the cost most executions had).
//!
//! Kernel-parameter loads (`ld.param`) are not sampled: they are warp-uniform by construction
//! and say nothing about the memory system.
//!
//! The recorder is off the hot path: a run without `--html` never constructs it (the executor is
//! generic over its observer, so the plain `Profile` instantiation is the code that ran before),
//! and with it the extra work is one model evaluation per memory request.

use serde::Serialize;

use crate::exec::simt::Observer;
use crate::gpu::config::GpuConfig;
use crate::mem::coalesce::{global_sectors, local_sectors};
use crate::mem::constant::constant_requests;
use crate::mem::request::{AccessKind, MemRequest, Space};
use crate::mem::shared_banks::shared_wavefronts;

/// One warp's execution of a memory instruction, as the memory model saw it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct WarpInstance {
    /// What the model charged for it: wavefronts (shared), sectors (global, local) or
    /// requests (constant).
    pub cost: u32,
    /// How many executions of the instruction had this cost.
    pub executions: u64,
    /// The block (`%ctaid`) the warp belongs to.
    pub block: [u32; 3],
    /// The warp's index in its block.
    pub warp: u32,
    /// Bit `i` set when lane `i` took part.
    pub mask: u32,
    /// Lane `i`'s byte address in its state space (0 for an inactive lane).
    pub addrs: [u64; 32],
}

/// The recorded executions of one memory instruction.
#[derive(Clone, Debug, Serialize)]
pub struct InstSample {
    /// The instruction's index in its kernel.
    pub pc: u32,
    /// `shared`, `global`, `local` or `const` (the PTX state space).
    pub space: &'static str,
    /// `ld`, `st`, `atom` or `red`.
    pub op: &'static str,
    /// Bytes per lane (vector width included).
    pub width: u32,
    /// What [`WarpInstance::cost`] counts: `wavefronts`, `sectors` or `requests`.
    pub unit: &'static str,
    /// Executions with at least one active lane.
    pub executions: u64,
    /// The total cost over all executions.
    pub total_cost: u64,
    /// How many executions had each cost, lowest cost first.
    pub histogram: Vec<(u32, u64)>,
    /// The execution with the highest cost (the first one seen).
    pub worst: WarpInstance,
    /// The first execution with the cost most executions had (ties: the lower cost).
    pub typical: WarpInstance,
}

#[derive(Clone, Debug, Default)]
struct PcRecord {
    space: Option<Space>,
    kind: Option<AccessKind>,
    width: u32,
    /// The first execution with each cost seen, with the count of executions of that cost.
    seen: Vec<WarpInstance>,
}

/// Observer wrapper that records representative warp instances (see the module docs).
pub struct Sampler<'o, O: Observer> {
    inner: &'o mut O,
    gpu: &'static GpuConfig,
    ctaid: [u32; 3],
    per_pc: Vec<PcRecord>,
}

impl<'o, O: Observer> Sampler<'o, O> {
    /// Wraps `inner` for a kernel of `code_len` instructions.
    pub fn new(inner: &'o mut O, gpu: &'static GpuConfig, code_len: usize) -> Self {
        Sampler {
            inner,
            gpu,
            ctaid: [0; 3],
            per_pc: vec![PcRecord::default(); code_len],
        }
    }

    /// What the model charges for `req` (`None`: not sampled).
    fn cost(&self, req: &MemRequest) -> Option<u32> {
        Some(match req.space {
            Space::Shared => shared_wavefronts(req, self.gpu).wavefronts,
            Space::Global => global_sectors(req, self.gpu).sectors,
            Space::Local => local_sectors(req, self.gpu).sectors,
            Space::Const => constant_requests(req),
            Space::Param => return None,
        })
    }

    /// The samples of every memory instruction that executed with an active lane, in
    /// instruction order.
    pub fn finish(self) -> Vec<InstSample> {
        let mut out = Vec::new();
        for (pc, r) in self.per_pc.into_iter().enumerate() {
            let (Some(space), Some(kind)) = (r.space, r.kind) else {
                continue;
            };
            if r.seen.is_empty() {
                continue;
            }
            let mut seen = r.seen;
            seen.sort_by_key(|s| s.cost);
            let executions = seen.iter().map(|s| s.executions).sum();
            let total_cost = seen.iter().map(|s| u64::from(s.cost) * s.executions).sum();
            let histogram = seen.iter().map(|s| (s.cost, s.executions)).collect();
            let worst = seen[seen.len() - 1].clone();
            // Most executions; on a tie the lower cost (the first in ascending order).
            let mut typical = &seen[0];
            for s in &seen {
                if s.executions > typical.executions {
                    typical = s;
                }
            }
            let typical = typical.clone();
            let unit = match space {
                Space::Shared => "wavefronts",
                Space::Const | Space::Param => "requests",
                Space::Global | Space::Local => "sectors",
            };
            out.push(InstSample {
                pc: pc as u32,
                space: space.ptx_name(),
                op: match kind {
                    AccessKind::Load => "ld",
                    AccessKind::Store => "st",
                    AccessKind::Atomic => "atom",
                    AccessKind::Reduction => "red",
                },
                width: r.width,
                unit,
                executions,
                total_cost,
                histogram,
                worst,
                typical,
            });
        }
        out
    }
}

impl<O: Observer> Observer for Sampler<'_, O> {
    fn mem(&mut self, req: &MemRequest) {
        self.inner.mem(req);
        if req.mask == 0 {
            return;
        }
        let Some(cost) = self.cost(req) else {
            return;
        };
        let ctaid = self.ctaid;
        let Some(r) = self.per_pc.get_mut(req.pc as usize) else {
            return;
        };
        r.space = Some(req.space);
        r.kind = Some(req.kind);
        r.width = r.width.max(req.width);
        match r.seen.iter_mut().find(|s| s.cost == cost) {
            Some(s) => s.executions += 1,
            None => {
                let mut addrs = [0u64; 32];
                for l in req.active_lanes() {
                    addrs[l] = req.addrs[l];
                }
                r.seen.push(WarpInstance {
                    cost,
                    executions: 1,
                    block: ctaid,
                    warp: req.warp,
                    mask: req.mask,
                    addrs,
                })
            }
        }
    }

    #[inline(always)]
    fn tex(&mut self, req: &crate::tex::event::TexRequest<'_>) {
        self.inner.tex(req);
    }

    #[inline]
    fn inst(&mut self, pc: u32, active: u32, exec: u32) {
        self.inner.inst(pc, active, exec);
    }

    fn block_begin(&mut self, linear: u64, ctaid: [u32; 3]) {
        self.ctaid = ctaid;
        self.inner.block_begin(linear, ctaid);
    }

    fn block_end(&mut self, linear: u64) {
        self.inner.block_end(linear);
    }

    fn barrier(&mut self) {
        self.inner.barrier();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::simt::NoObserver;
    use crate::gpu::config::H200;
    use crate::mem::request::CacheOp;

    fn req(pc: u32, warp: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp,
            space: Space::Shared,
            kind: AccessKind::Load,
            width: 4,
            addrs,
            mask: u32::MAX,
            pc,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    #[test]
    fn worst_and_typical() {
        let mut inner = NoObserver;
        let mut s = Sampler::new(&mut inner, &H200, 2);
        s.block_begin(0, [0, 0, 0]);
        // pc 0: three conflict-free executions and one 32-way one (stride 32 words).
        s.mem(&req(0, 0, |l| l * 4));
        s.mem(&req(0, 1, |l| l * 4 + 128));
        s.block_begin(1, [1, 0, 0]);
        s.mem(&req(0, 2, |l| l * 128));
        s.mem(&req(0, 3, |l| l * 4));
        // A predicated-off execution is not sampled.
        let mut off = req(1, 0, |l| l * 4);
        off.mask = 0;
        s.mem(&off);
        let v = s.finish();
        assert_eq!(v.len(), 1);
        let i = &v[0];
        assert_eq!(
            (i.pc, i.space, i.op, i.unit),
            (0, "shared", "ld", "wavefronts")
        );
        assert_eq!(i.executions, 4);
        assert_eq!(i.total_cost, 3 + 32);
        assert_eq!(i.histogram, vec![(1, 3), (32, 1)]);
        assert_eq!(
            (i.worst.cost, i.worst.block, i.worst.warp),
            (32, [1, 0, 0], 2)
        );
        assert_eq!(i.worst.addrs[1], 128);
        assert_eq!(
            (i.typical.cost, i.typical.warp, i.typical.executions),
            (1, 0, 3)
        );
    }
}
