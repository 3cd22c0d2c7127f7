//! Memory counters: the per-kernel (or per-instruction) totals the report prints, under Nsight
//! Compute's metric names.
//!
//! [`MemCounters::add_request`] dispatches one [`MemRequest`] to the models
//! ([`shared_banks`](crate::mem::shared_banks), [`coalesce`](crate::mem::coalesce),
//! [`constant`](crate::mem::constant)) and adds plain integers; it allocates nothing.
//!
//! Working assumption: one `MemRequest` is one SASS instruction, so it adds 1 to the matching
//! `smsp__sass_inst_executed_op_*` counter. PTX `ld.shared.v4.f32` is one `LDS.128`, but ptxas may
//! split other PTX accesses (e.g. a misaligned vector, or `ld.v4.b64`) into several SASS
//! instructions, and it may turn a PTX `atom` whose result is unused into `RED`; where it does,
//! the instruction counts here differ from the hardware's (the sector and wavefront totals may
//! still agree). A request whose mask is empty counts nothing, not even the instruction: the H200
//! does not count a fully predicated-off warp instruction in `smsp__sass_inst_executed_op_*`
//! (measured, `tests/hw/h200/hw/ncu/k_global.csv` launch 48, `gl_pred_off`: 0 global loads
//! executed, 0 requests).
//!
//! The counters are [`Counts`] slots ([`crate::metrics`] defines each metric once: its name,
//! unit and description). Metric names are those of the Nsight Compute Kernel Profiling Guide, "Metrics Reference"
//! (`smsp__sass_inst_executed_op_*`, `l1tex__t_{requests,sectors}_pipe_lsu_mem_*`,
//! `l1tex__data_pipe_lsu_wavefronts_mem_shared_op_*`,
//! `l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_*`). Shared-memory atomics and reductions
//! report wavefronts and conflicts under the `op_atom` names, with the bank rules of
//! [`shared_banks`](crate::mem::shared_banks) (atomics with a result serialize same-word lanes,
//! reductions do not).
//!
//! The constant cache has no matching `l1tex` metric. Nsight Compute's `idc__requests` counts
//! requests to the indexed constant cache that serves `LDC`; measured on the H200
//! (`tests/hw/h200/hw/ncu/k_constant.csv`, see [`constant`](crate::mem::constant)) it also counts
//! the SASS's own constant operands, so the counts are reported under gpumemsim's own names: `gpumemsim__const_requests.sum` (requests
//! after splitting by distinct address) and `gpumemsim__const_serialization.sum` (requests beyond
//! one per instruction). `gpumemsim__const_inst_executed.sum` counts the warp-level constant
//! loads themselves (kernel-parameter loads included).

use crate::gpu::config::GpuConfig;
use crate::mem::coalesce::{distinct_sectors, global_sectors_with, local_sectors};
use crate::mem::constant::constant_requests_with;
use crate::mem::request::{AccessKind, CacheOp, MemRequest, Space};
use crate::mem::shared_banks::shared_wavefronts_with;
use crate::metrics::{Counts, Metric as M};

/// The memory counters of one instruction, one line or one launch: [`Counts`], whose LSU,
/// texture and cache slots the models fill.
pub type MemCounters = Counts;

impl Counts {
    /// Counts one warp-level memory instruction.
    pub fn add_request(&mut self, req: &MemRequest, cfg: &GpuConfig) {
        self.add_request_with(req, cfg, true)
    }

    /// [`Counts::add_request`], with the models' shortcuts taken or not (`fast_paths`,
    /// for differential testing; the counts are the same either way).
    pub fn add_request_with(&mut self, req: &MemRequest, cfg: &GpuConfig, fast_paths: bool) {
        if req.mask == 0 {
            // A fully predicated-off instruction is not executed as far as the counters go.
            return;
        }
        match req.space {
            Space::Shared => {
                let a = shared_wavefronts_with(req, cfg, fast_paths);
                let (wf, conflicts) = (u64::from(a.wavefronts), u64::from(a.conflicts()));
                self[M::SharedMaxWay] = self[M::SharedMaxWay].max(u64::from(a.max_way));
                let (inst, wavefronts, bank_conflicts) = match req.kind {
                    AccessKind::Load => {
                        (M::SharedLdInst, M::SharedLdWavefronts, M::SharedLdConflicts)
                    }
                    AccessKind::Store => {
                        (M::SharedStInst, M::SharedStWavefronts, M::SharedStConflicts)
                    }
                    AccessKind::Atomic | AccessKind::Reduction => (
                        M::SharedAtomInst,
                        M::SharedAtomWavefronts,
                        M::SharedAtomConflicts,
                    ),
                };
                self[inst] += 1;
                self[wavefronts] += wf;
                self[bank_conflicts] += conflicts;
            }
            Space::Global => {
                let c = global_sectors_with(req, cfg, fast_paths);
                let (rq, sc) = (u64::from(c.requests), u64::from(c.sectors));
                let (inst, requests, sectors) = match req.kind {
                    AccessKind::Load if req.ldgsts => {
                        self[M::LdgstsRequests] += rq;
                        if req.cache_op == CacheOp::Cg {
                            self[M::LdgstsBypassInst] += 1;
                        } else {
                            self[M::LdgstsAccessInst] += 1;
                        }
                        (M::LdgstsInst, M::GlobalLdRequests, M::GlobalLdSectors)
                    }
                    AccessKind::Load => (M::GlobalLdInst, M::GlobalLdRequests, M::GlobalLdSectors),
                    AccessKind::Store => (M::GlobalStInst, M::GlobalStRequests, M::GlobalStSectors),
                    AccessKind::Atomic => (
                        M::GlobalAtomInst,
                        M::GlobalAtomRequests,
                        M::GlobalAtomSectors,
                    ),
                    AccessKind::Reduction => {
                        (M::GlobalRedInst, M::GlobalRedRequests, M::GlobalRedSectors)
                    }
                };
                self[inst] += 1;
                self[requests] += rq;
                self[sectors] += sc;
                if matches!(req.kind, AccessKind::Atomic | AccessKind::Reduction) {
                    self[M::GlobalAtomRedDistinctSectors] += u64::from(distinct_sectors(req, cfg));
                }
            }
            Space::Local => {
                let c = local_sectors(req, cfg);
                let (rq, sc) = (u64::from(c.requests), u64::from(c.sectors));
                let (inst, requests, sectors) = match req.kind {
                    AccessKind::Load => (M::LocalLdInst, M::LocalLdRequests, M::LocalLdSectors),
                    AccessKind::Store => (M::LocalStInst, M::LocalStRequests, M::LocalStSectors),
                    // PTX defines no atomics on .local (PTX ISA, "atom": .global and .shared
                    // only); an executor never emits one, and it is not counted.
                    AccessKind::Atomic | AccessKind::Reduction => return,
                };
                self[inst] += 1;
                self[requests] += rq;
                self[sectors] += sc;
            }
            Space::Const | Space::Param => {
                if req.kind == AccessKind::Load {
                    let r = u64::from(constant_requests_with(req, fast_paths));
                    self[M::ConstInst] += 1;
                    if req.space == Space::Const {
                        // Under SASS a constant-space load is an `LDC` of the user's bank
                        // (the metric is reported under SASS only).
                        self[M::LdcInst] += 1;
                    }
                    self[M::ConstRequests] += r;
                    self[M::ConstSerialization] += r.saturating_sub(1);
                }
            }
        }
    }

    /// The worst N-way bank conflict of the shared accesses counted (1 when conflict-free).
    pub fn shared_max_way(&self) -> u32 {
        (self[M::SharedMaxWay] as u32).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::gpu::config::H200;
    use crate::mem::request::CacheOp;

    fn req(space: Space, kind: AccessKind, width: u32, addr: impl Fn(u64) -> u64) -> MemRequest {
        let mut addrs = [0u64; 32];
        for (l, a) in addrs.iter_mut().enumerate() {
            *a = addr(l as u64);
        }
        MemRequest {
            warp: 0,
            space,
            kind,
            width,
            addrs,
            mask: u32::MAX,
            pc: 0,
            cache_op: CacheOp::Default,
            cas: crate::mem::request::Cas::No,
            ldgsts: false,
        }
    }

    fn get(c: &MemCounters, name: &str) -> u64 {
        c[M::by_name(name).expect("a metric of the table")]
    }

    #[test]
    fn small_stream() {
        use AccessKind::*;
        use Space::*;
        let base = 0x1000_0000u64;
        let stream = [
            // Shared store stride 1 (1 wf), load stride 2 (2 wf), load [32][32] column (32 wf).
            req(Shared, Store, 4, |l| l * 4),
            req(Shared, Load, 4, |l| l * 8),
            req(Shared, Load, 4, |l| l * 128),
            // Shared atomic with a result, all lanes on one word: 32 wf, 31 conflicts
            // (k_shared_patterns.csv launch 13).
            req(Shared, Atomic, 4, |_| 0),
            // Global: load stride 1 (4 sectors), load +1 element (5), store float4 (16).
            req(Global, Load, 4, |l| base + l * 4),
            req(Global, Load, 4, |l| base + 4 + l * 4),
            req(Global, Store, 16, |l| base + l * 16),
            // Global atomic, all lanes on one word (32 sectors, k_global.csv launch 49),
            // reduction at stride 8 elements (32).
            req(Global, Atomic, 4, |_| base),
            req(Global, Reduction, 4, |l| base + l * 32),
            // Local spill store and reload at a uniform offset (4 sectors each).
            req(Local, Store, 4, |_| 8),
            req(Local, Load, 4, |_| 8),
            // Constant: uniform (1 request), 4 distinct addresses (4 requests).
            req(Const, Load, 4, |_| 0),
            req(Const, Load, 4, |l| (l % 4) * 4),
        ];
        let mut c = MemCounters::default();
        for r in &stream {
            c.add_request(r, &H200);
        }
        let expect = [
            ("smsp__sass_inst_executed_op_shared_ld.sum", 2),
            ("smsp__sass_inst_executed_op_shared_st.sum", 1),
            ("smsp__sass_inst_executed_op_shared_atom.sum", 1),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum", 32),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                31,
            ),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum", 34),
            ("l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum", 1),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                32,
            ),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                0,
            ),
            ("smsp__sass_inst_executed_op_global_ld.sum", 2),
            ("smsp__sass_inst_executed_op_global_st.sum", 1),
            ("l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum", 2),
            ("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum", 9),
            ("l1tex__t_requests_pipe_lsu_mem_global_op_st.sum", 1),
            ("l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum", 16),
            ("l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum", 1),
            ("l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum", 32),
            ("l1tex__t_requests_pipe_lsu_mem_global_op_red.sum", 1),
            ("l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum", 32),
            ("smsp__sass_inst_executed_op_local_ld.sum", 1),
            ("smsp__sass_inst_executed_op_local_st.sum", 1),
            ("l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum", 4),
            ("l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum", 4),
            ("gpumemsim__const_inst_executed.sum", 2),
            ("gpumemsim__const_requests.sum", 5),
            ("gpumemsim__const_serialization.sum", 3),
        ];
        for (name, v) in expect {
            assert_eq!(get(&c, name), v, "{name}");
        }

        // merge doubles every counter.
        let mut twice = c.clone();
        twice.merge(&c);
        for m in M::all().filter(|m| *m != M::SharedMaxWay) {
            assert_eq!(twice[m], 2 * c[m], "{}", m.name());
        }
        assert_eq!(twice[M::SharedMaxWay], c[M::SharedMaxWay]);
    }

    #[test]
    fn empty_mask_counts_nothing() {
        // k_global.csv launch 48 (gl_pred_off): a fully predicated-off LDG is not counted as
        // executed. Every space and kind: all counters stay 0.
        use AccessKind::*;
        use Space::*;
        let mut c = MemCounters::default();
        for space in [Shared, Global, Local, Const, Param] {
            for kind in [Load, Store, Atomic, Reduction] {
                let mut r = req(space, kind, 4, |l| l * 4);
                r.mask = 0;
                c.add_request(&r, &H200);
            }
        }
        assert_eq!(c, MemCounters::default());
    }

    #[test]
    fn ldgsts_is_its_own_instruction_class() {
        // corpus4: the H200 counts LDGSTS in op_ldgsts (by cache operator), its requests and
        // sectors in global op_ld.
        let mut c = MemCounters::default();
        let mut r = req(Space::Global, AccessKind::Load, 16, |l| l * 16);
        r.ldgsts = true;
        r.cache_op = CacheOp::Cg;
        c.add_request(&r, &H200);
        r.cache_op = CacheOp::Ca;
        c.add_request(&r, &H200);
        assert_eq!(get(&c, "smsp__sass_inst_executed_op_ldgsts.sum"), 2);
        assert_eq!(
            get(&c, "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum"),
            1
        );
        assert_eq!(
            get(&c, "smsp__sass_inst_executed_op_ldgsts_cache_access.sum"),
            1
        );
        assert_eq!(get(&c, "smsp__sass_inst_executed_op_global_ld.sum"), 0);
        assert_eq!(
            get(&c, "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum"),
            32
        );
    }
}
