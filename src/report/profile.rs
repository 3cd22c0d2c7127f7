//! The profiling observer: feeds every memory request to the memory models and keeps the
//! counters per instruction, so a report can total them per launch and per source line.

use crate::exec::simt::Observer;
use crate::gpu::config::GpuConfig;
use crate::mem::cache::Hierarchy;
use crate::mem::counters::MemCounters;
use crate::mem::request::MemRequest;
use crate::mem::texture::advice;
use crate::mem::texture::path::TexturePath;
use crate::metrics::Metric;
use crate::sched::Replay;
use crate::tex::event::TexRequest;

/// Per-instruction counters of one launch.
#[derive(Clone, Debug)]
pub struct Profile {
    gpu: &'static GpuConfig,
    /// Memory counters by instruction index.
    pub per_pc: Vec<MemCounters>,
    /// Warp-level executions by instruction index.
    pub warp_inst: Vec<u64>,
    /// Thread-level executions (guard passed) by instruction index.
    pub thread_inst: Vec<u64>,
    /// Thread-level executions counting predicated-off lanes too (all active lanes).
    pub active_threads: u64,
    /// The same by instruction index.
    pub active_inst: Vec<u64>,
    /// Let the memory models take their shortcuts (the default); `false` for differential
    /// testing, with the same counts.
    pub fast_paths: bool,
    /// The caches, fed in the block scheduler's order (`None`: not modelled for this launch).
    pub caches: Option<Replay>,
    /// The texture pipe (requests of texture and surface instructions).
    pub tex: TexturePath,
}

impl Profile {
    /// An empty profile for a kernel of `code_len` instructions.
    pub fn new(gpu: &'static GpuConfig, code_len: usize) -> Self {
        Profile {
            gpu,
            per_pc: vec![MemCounters::default(); code_len],
            warp_inst: vec![0; code_len],
            thread_inst: vec![0; code_len],
            active_threads: 0,
            active_inst: vec![0; code_len],
            fast_paths: true,
            caches: None,
            tex: TexturePath::default(),
        }
    }

    /// Replays what the caches have not seen yet and returns them (`None` when not modelled).
    pub fn finish_caches(&mut self) -> Option<Hierarchy> {
        self.caches.take().map(Replay::finish)
    }

    /// The launch totals.
    pub fn totals(&self) -> MemCounters {
        let mut t = MemCounters::default();
        for c in &self.per_pc {
            t.merge(c);
        }
        t
    }
}

impl Observer for Profile {
    #[inline]
    fn mem(&mut self, req: &MemRequest) {
        if let Some(c) = self.per_pc.get_mut(req.pc as usize) {
            let before = c[Metric::GlobalLdSectors];
            c.add_request_with(req, self.gpu, self.fast_paths);
            // Only uncoalesced global loads can gain from a block-linear layout.
            if c[Metric::GlobalLdSectors] - before > 8 {
                if let Some((rm, bl)) = advice::block_linear_sectors(req) {
                    c.add_global_2d(rm, bl);
                }
            }
        }
        if let Some(r) = &mut self.caches {
            r.mem(req);
        }
    }

    fn tex(&mut self, req: &TexRequest<'_>) {
        let Some((access, cost)) = self.tex.instruction(req) else {
            return;
        };
        if let Some(c) = self.per_pc.get_mut(req.pc as usize) {
            c.add_tex(access, &cost);
        }
        if let Some(r) = &mut self.caches {
            let s = &self.tex.splitter;
            r.tex(
                req.warp,
                req.pc,
                access,
                &s.lines,
                &s.l2_groups,
                &s.requests,
            );
        }
    }

    fn block_begin(&mut self, _linear: u64, _ctaid: [u32; 3]) {
        if let Some(r) = &mut self.caches {
            r.block_begin();
        }
    }

    fn block_end(&mut self, _linear: u64) {
        if let Some(r) = &mut self.caches {
            r.block_end();
        }
    }

    fn barrier(&mut self) {
        if let Some(r) = &mut self.caches {
            r.barrier();
        }
    }

    fn ldc(&mut self, pc: u32, requests: u32) {
        if let Some(c) = self.per_pc.get_mut(pc as usize) {
            c[Metric::LdcInst] += 1;
            c[Metric::LdcBankRequests] += u64::from(requests);
        }
    }

    #[inline(always)]
    fn inst(&mut self, pc: u32, active: u32, exec: u32) {
        let a = active.count_ones() as u64;
        self.active_threads += a;
        if let Some(w) = self.warp_inst.get_mut(pc as usize) {
            *w += 1;
            self.thread_inst[pc as usize] += exec.count_ones() as u64;
            self.active_inst[pc as usize] += a;
        }
    }
}
