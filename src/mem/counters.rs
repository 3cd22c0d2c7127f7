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
//! Metric names are those of the Nsight Compute Kernel Profiling Guide, "Metrics Reference"
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
use crate::mem::texture::counters::TexCounters;

/// Totals of every memory metric gpumemsim reports. All fields are plain event counts.
#[allow(missing_docs)] // each field is documented by its metric name in `metrics()`
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct MemCounters {
    pub shared_ld_inst: u64,
    pub shared_st_inst: u64,
    pub shared_atom_inst: u64,
    pub shared_ld_wavefronts: u64,
    pub shared_st_wavefronts: u64,
    pub shared_atom_wavefronts: u64,
    pub shared_ld_conflicts: u64,
    pub shared_st_conflicts: u64,
    pub shared_atom_conflicts: u64,

    pub global_ld_inst: u64,
    pub global_st_inst: u64,
    pub global_atom_inst: u64,
    pub global_red_inst: u64,
    pub global_ld_requests: u64,
    pub global_ld_sectors: u64,
    pub global_st_requests: u64,
    pub global_st_sectors: u64,
    pub global_atom_requests: u64,
    pub global_atom_sectors: u64,
    pub global_red_requests: u64,
    pub global_red_sectors: u64,
    /// The distinct sectors of the global atomics and reductions (not a hardware counter:
    /// the Source page's measure, [`crate::mem::coalesce::distinct_sectors`]).
    pub global_atom_red_distinct_sectors: u64,
    /// `LDGSTS` instructions ([`MemRequest::ldgsts`]), all and by cache operator (`.BYPASS`,
    /// `cp.async.cg`: the bypass class; else the access class), and their global requests.
    pub ldgsts_inst: u64,
    pub ldgsts_access_inst: u64,
    pub ldgsts_bypass_inst: u64,
    pub ldgsts_requests: u64,

    pub local_ld_inst: u64,
    pub local_st_inst: u64,
    pub local_ld_requests: u64,
    pub local_ld_sectors: u64,
    pub local_st_requests: u64,
    pub local_st_sectors: u64,

    pub const_inst: u64,
    pub const_requests: u64,
    pub const_serialization: u64,

    /// Worst N-way bank conflict seen (a maximum, not a sum; 0 when no shared access).
    pub shared_max_way: u32,

    /// The texture pipe: texture and surface instructions ([`crate::mem::texture`]).
    pub tex: TexCounters,
}

impl MemCounters {
    /// Counts one warp-level memory instruction.
    pub fn add_request(&mut self, req: &MemRequest, cfg: &GpuConfig) {
        self.add_request_with(req, cfg, true)
    }

    /// [`MemCounters::add_request`], with the models' shortcuts taken or not (`fast_paths`,
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
                self.shared_max_way = self.shared_max_way.max(a.max_way);
                match req.kind {
                    AccessKind::Load => {
                        self.shared_ld_inst += 1;
                        self.shared_ld_wavefronts += wf;
                        self.shared_ld_conflicts += conflicts;
                    }
                    AccessKind::Store => {
                        self.shared_st_inst += 1;
                        self.shared_st_wavefronts += wf;
                        self.shared_st_conflicts += conflicts;
                    }
                    AccessKind::Atomic | AccessKind::Reduction => {
                        self.shared_atom_inst += 1;
                        self.shared_atom_wavefronts += wf;
                        self.shared_atom_conflicts += conflicts;
                    }
                }
            }
            Space::Global => {
                let c = global_sectors_with(req, cfg, fast_paths);
                let (rq, sc) = (u64::from(c.requests), u64::from(c.sectors));
                let (inst, requests, sectors) = match req.kind {
                    AccessKind::Load if req.ldgsts => {
                        self.ldgsts_requests += rq;
                        if req.cache_op == CacheOp::Cg {
                            self.ldgsts_bypass_inst += 1;
                        } else {
                            self.ldgsts_access_inst += 1;
                        }
                        (
                            &mut self.ldgsts_inst,
                            &mut self.global_ld_requests,
                            &mut self.global_ld_sectors,
                        )
                    }
                    AccessKind::Load => (
                        &mut self.global_ld_inst,
                        &mut self.global_ld_requests,
                        &mut self.global_ld_sectors,
                    ),
                    AccessKind::Store => (
                        &mut self.global_st_inst,
                        &mut self.global_st_requests,
                        &mut self.global_st_sectors,
                    ),
                    AccessKind::Atomic => (
                        &mut self.global_atom_inst,
                        &mut self.global_atom_requests,
                        &mut self.global_atom_sectors,
                    ),
                    AccessKind::Reduction => (
                        &mut self.global_red_inst,
                        &mut self.global_red_requests,
                        &mut self.global_red_sectors,
                    ),
                };
                *inst += 1;
                *requests += rq;
                *sectors += sc;
                if matches!(req.kind, AccessKind::Atomic | AccessKind::Reduction) {
                    self.global_atom_red_distinct_sectors += u64::from(distinct_sectors(req, cfg));
                }
            }
            Space::Local => {
                let c = local_sectors(req, cfg);
                let (rq, sc) = (u64::from(c.requests), u64::from(c.sectors));
                match req.kind {
                    AccessKind::Load => {
                        self.local_ld_inst += 1;
                        self.local_ld_requests += rq;
                        self.local_ld_sectors += sc;
                    }
                    AccessKind::Store => {
                        self.local_st_inst += 1;
                        self.local_st_requests += rq;
                        self.local_st_sectors += sc;
                    }
                    // PTX defines no atomics on .local (PTX ISA, "atom": .global and .shared
                    // only); an executor never emits one, and it is not counted.
                    AccessKind::Atomic | AccessKind::Reduction => {}
                }
            }
            Space::Const | Space::Param => {
                if req.kind == AccessKind::Load {
                    let r = u64::from(constant_requests_with(req, fast_paths));
                    self.const_inst += 1;
                    self.const_requests += r;
                    self.const_serialization += r.saturating_sub(1);
                }
            }
        }
    }

    /// The worst N-way bank conflict of the shared accesses counted (1 when conflict-free).
    pub fn shared_max_way(&self) -> u32 {
        self.shared_max_way.max(1)
    }

    /// Adds every counter of `other` to `self` (maxima are combined as maxima).
    pub fn merge(&mut self, other: &Self) {
        self.shared_max_way = self.shared_max_way.max(other.shared_max_way);
        let Self {
            shared_ld_inst,
            shared_st_inst,
            shared_atom_inst,
            shared_ld_wavefronts,
            shared_st_wavefronts,
            shared_atom_wavefronts,
            shared_ld_conflicts,
            shared_st_conflicts,
            shared_atom_conflicts,
            global_ld_inst,
            global_st_inst,
            global_atom_inst,
            global_red_inst,
            global_ld_requests,
            global_ld_sectors,
            global_st_requests,
            global_st_sectors,
            global_atom_requests,
            global_atom_sectors,
            global_red_requests,
            global_red_sectors,
            global_atom_red_distinct_sectors,
            ldgsts_inst,
            ldgsts_access_inst,
            ldgsts_bypass_inst,
            ldgsts_requests,
            local_ld_inst,
            local_st_inst,
            local_ld_requests,
            local_ld_sectors,
            local_st_requests,
            local_st_sectors,
            const_inst,
            const_requests,
            const_serialization,
            shared_max_way: _,
            tex,
        } = other;
        self.tex.merge(tex);
        self.shared_ld_inst += shared_ld_inst;
        self.shared_st_inst += shared_st_inst;
        self.shared_atom_inst += shared_atom_inst;
        self.shared_ld_wavefronts += shared_ld_wavefronts;
        self.shared_st_wavefronts += shared_st_wavefronts;
        self.shared_atom_wavefronts += shared_atom_wavefronts;
        self.shared_ld_conflicts += shared_ld_conflicts;
        self.shared_st_conflicts += shared_st_conflicts;
        self.shared_atom_conflicts += shared_atom_conflicts;
        self.global_ld_inst += global_ld_inst;
        self.global_st_inst += global_st_inst;
        self.global_atom_inst += global_atom_inst;
        self.global_red_inst += global_red_inst;
        self.global_ld_requests += global_ld_requests;
        self.global_ld_sectors += global_ld_sectors;
        self.global_st_requests += global_st_requests;
        self.global_st_sectors += global_st_sectors;
        self.global_atom_requests += global_atom_requests;
        self.global_atom_sectors += global_atom_sectors;
        self.global_red_requests += global_red_requests;
        self.global_red_sectors += global_red_sectors;
        self.global_atom_red_distinct_sectors += global_atom_red_distinct_sectors;
        self.ldgsts_inst += ldgsts_inst;
        self.ldgsts_access_inst += ldgsts_access_inst;
        self.ldgsts_bypass_inst += ldgsts_bypass_inst;
        self.ldgsts_requests += ldgsts_requests;
        self.local_ld_inst += local_ld_inst;
        self.local_st_inst += local_st_inst;
        self.local_ld_requests += local_ld_requests;
        self.local_ld_sectors += local_ld_sectors;
        self.local_st_requests += local_st_requests;
        self.local_st_sectors += local_st_sectors;
        self.const_inst += const_inst;
        self.const_requests += const_requests;
        self.const_serialization += const_serialization;
    }

    /// Every counter with its metric name, in a fixed order; the `LDGSTS` class only when the
    /// kernel ran an `LDGSTS` (or a PTX `cp.async`), the texture pipe's only when it ran a
    /// texture or surface instruction.
    pub fn metrics(&self) -> Vec<(&'static str, u64)> {
        let mut m = self.base_metrics();
        if self.ldgsts_inst > 0 {
            m.extend([
                ("smsp__sass_inst_executed_op_ldgsts.sum", self.ldgsts_inst),
                (
                    "smsp__sass_inst_executed_op_ldgsts_cache_access.sum",
                    self.ldgsts_access_inst,
                ),
                (
                    "smsp__sass_inst_executed_op_ldgsts_cache_bypass.sum",
                    self.ldgsts_bypass_inst,
                ),
                (
                    "smsp__sass_l1tex_t_requests_pipe_lsu_mem_global_op_ldgsts.sum",
                    self.ldgsts_requests,
                ),
            ]);
        }
        m.extend(self.tex.metrics());
        m
    }

    fn base_metrics(&self) -> Vec<(&'static str, u64)> {
        vec![
            (
                "smsp__sass_inst_executed_op_shared_ld.sum",
                self.shared_ld_inst,
            ),
            (
                "smsp__sass_inst_executed_op_shared_st.sum",
                self.shared_st_inst,
            ),
            (
                "smsp__sass_inst_executed_op_shared_atom.sum",
                self.shared_atom_inst,
            ),
            (
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
                self.shared_ld_wavefronts,
            ),
            (
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
                self.shared_st_wavefronts,
            ),
            (
                "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
                self.shared_atom_wavefronts,
            ),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_ld.sum",
                self.shared_ld_conflicts,
            ),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
                self.shared_st_conflicts,
            ),
            (
                "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
                self.shared_atom_conflicts,
            ),
            (
                "smsp__sass_inst_executed_op_global_ld.sum",
                self.global_ld_inst,
            ),
            (
                "smsp__sass_inst_executed_op_global_st.sum",
                self.global_st_inst,
            ),
            (
                "smsp__sass_inst_executed_op_global_atom.sum",
                self.global_atom_inst,
            ),
            (
                "smsp__sass_inst_executed_op_global_red.sum",
                self.global_red_inst,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
                self.global_ld_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
                self.global_ld_sectors,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
                self.global_st_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum",
                self.global_st_sectors,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum",
                self.global_atom_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum",
                self.global_atom_sectors,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_global_op_red.sum",
                self.global_red_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_global_op_red.sum",
                self.global_red_sectors,
            ),
            (
                "smsp__sass_inst_executed_op_local_ld.sum",
                self.local_ld_inst,
            ),
            (
                "smsp__sass_inst_executed_op_local_st.sum",
                self.local_st_inst,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
                self.local_ld_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
                self.local_ld_sectors,
            ),
            (
                "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
                self.local_st_requests,
            ),
            (
                "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
                self.local_st_sectors,
            ),
            ("gpumemsim__const_inst_executed.sum", self.const_inst),
            ("gpumemsim__const_requests.sum", self.const_requests),
            (
                "gpumemsim__const_serialization.sum",
                self.const_serialization,
            ),
        ]
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
        c.metrics()
            .into_iter()
            .find(|(n, _)| *n == name)
            .map_or(u64::MAX, |(_, v)| v)
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
        for ((n1, v1), (n2, v2)) in c.metrics().into_iter().zip(twice.metrics()) {
            assert_eq!(n1, n2);
            assert_eq!(v2, 2 * v1, "{n1}");
        }
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
        // Reported only where an LDGSTS ran.
        let none = MemCounters::default().metrics();
        assert!(none.iter().all(|(n, _)| !n.contains("ldgsts")));
    }

    #[test]
    fn metric_names_are_unique() {
        let m = MemCounters::default().metrics();
        for (i, (a, _)) in m.iter().enumerate() {
            assert!(m[i + 1..].iter().all(|(b, _)| a != b), "{a} twice");
        }
    }
}
