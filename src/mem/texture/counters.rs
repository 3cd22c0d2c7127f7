//! The texture pipe's counters of one instruction (or a launch) before the caches, as
//! [`Counts`] slots under Nsight Compute's names (the names `ncu --query-metrics` lists on the
//! H200: tests/hw/h200/texture_mem/ncu/query_metrics.txt.gz; the rows are in
//! [`crate::metrics`]). The L1 lookup hits and misses of these sectors, and what L2 and DRAM
//! then do, are counted by the caches ([`crate::mem::cache`]). Surface stores have no data-stage
//! wavefronts (measured: `l1tex__data_pipe_tex_wavefronts_mem_surface` is 0 for
//! `surf_write_*`).

use super::request::{TexAccess, TexCost};
use crate::metrics::{Counts, Metric as M};

impl Counts {
    /// One warp-level texture or surface instruction of `access` that cost `c`.
    pub fn add_tex(&mut self, access: TexAccess, c: &TexCost) {
        self[M::TexTexels] += c.texels;
        self[M::TexLaneFetches] += c.lanes;
        match access {
            TexAccess::Texture | TexAccess::Fetch => {
                self[M::TexInst] += 1;
                self[M::TexRequests] += c.requests;
                self[M::TexSectors] += c.sectors;
                self[M::TexSetAccesses] += c.set_accesses;
                self[M::TexSetConflicts] += c.set_conflicts;
                self[M::TexWavefronts] += c.wavefronts;
                self[M::TexTexinRequests] += c.texin_requests;
            }
            TexAccess::SurfaceLoad => {
                self[M::SurfLdInst] += 1;
                self[M::SurfLdRequests] += c.requests;
                self[M::SurfLdSectors] += c.sectors;
                self[M::SurfLdSetConflicts] += c.set_conflicts;
                self[M::SurfWavefronts] += c.wavefronts;
                self[M::SurfTexinRequests] += c.texin_requests;
            }
            TexAccess::SurfaceStore => {
                self[M::SurfStInst] += 1;
                self[M::SurfStRequests] += c.requests;
                self[M::SurfStSectors] += c.sectors;
                self[M::SurfStSetConflicts] += c.set_conflicts;
                self[M::SurfTexinRequests] += c.texin_requests;
            }
        }
    }

    /// An uncoalesced 2D global load that touched `row_major` sectors and would touch
    /// `block_linear` as a texture fetch ([`super::advice`]).
    pub fn add_global_2d(&mut self, row_major: u64, block_linear: u64) {
        self[M::Gld2dRequests] += 1;
        self[M::Gld2dSectors] += row_major;
        self[M::Gld2dSectorsBlockLinear] += block_linear;
    }
}
