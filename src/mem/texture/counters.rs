//! The texture pipe's counters of one instruction (or a launch) before the caches, under Nsight
//! Compute's names (the names `ncu --query-metrics` lists on the H200:
//! tests/hw/h200/texture_mem/ncu/query_metrics.txt.gz). The L1 lookup hits and misses of these
//! sectors, and what L2 and DRAM then do, are counted by the caches
//! ([`crate::mem::cache::CacheCounters`]).

use super::request::{TexAccess, TexCost};

/// Plain event counts.
#[allow(missing_docs)] // each field is documented by its metric name in `metrics()`
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct TexCounters {
    pub tex_inst: u64,
    pub tex_requests: u64,
    pub tex_sectors: u64,
    pub tex_set_accesses: u64,
    pub tex_set_conflicts: u64,
    pub tex_wavefronts: u64,
    pub tex_texin_requests: u64,
    pub surf_texin_requests: u64,
    pub surf_ld_inst: u64,
    pub surf_st_inst: u64,
    pub surf_ld_requests: u64,
    pub surf_ld_sectors: u64,
    pub surf_ld_set_conflicts: u64,
    pub surf_st_requests: u64,
    pub surf_st_sectors: u64,
    pub surf_st_set_conflicts: u64,
    pub surf_wavefronts: u64,
    pub texels: u64,
    pub lane_fetches: u64,
    pub gld2d_requests: u64,
    pub gld2d_sectors: u64,
    pub gld2d_sectors_block_linear: u64,
}

impl TexCounters {
    /// One warp-level instruction of `access` that cost `c`.
    pub fn add(&mut self, access: TexAccess, c: &TexCost) {
        self.texels += c.texels;
        self.lane_fetches += c.lanes;
        match access {
            TexAccess::Texture | TexAccess::Fetch => {
                self.tex_inst += 1;
                self.tex_requests += c.requests;
                self.tex_sectors += c.sectors;
                self.tex_set_accesses += c.set_accesses;
                self.tex_set_conflicts += c.set_conflicts;
                self.tex_wavefronts += c.wavefronts;
                self.tex_texin_requests += c.texin_requests;
            }
            TexAccess::SurfaceLoad => {
                self.surf_ld_inst += 1;
                self.surf_ld_requests += c.requests;
                self.surf_ld_sectors += c.sectors;
                self.surf_ld_set_conflicts += c.set_conflicts;
                self.surf_wavefronts += c.wavefronts;
                self.surf_texin_requests += c.texin_requests;
            }
            TexAccess::SurfaceStore => {
                self.surf_st_inst += 1;
                self.surf_st_requests += c.requests;
                self.surf_st_sectors += c.sectors;
                self.surf_st_set_conflicts += c.set_conflicts;
                self.surf_texin_requests += c.texin_requests;
            }
        }
    }

    /// Adds `o`.
    pub fn merge(&mut self, o: &Self) {
        self.tex_inst += o.tex_inst;
        self.tex_requests += o.tex_requests;
        self.tex_sectors += o.tex_sectors;
        self.tex_set_accesses += o.tex_set_accesses;
        self.tex_set_conflicts += o.tex_set_conflicts;
        self.tex_wavefronts += o.tex_wavefronts;
        self.tex_texin_requests += o.tex_texin_requests;
        self.surf_texin_requests += o.surf_texin_requests;
        self.surf_ld_inst += o.surf_ld_inst;
        self.surf_st_inst += o.surf_st_inst;
        self.surf_ld_requests += o.surf_ld_requests;
        self.surf_ld_sectors += o.surf_ld_sectors;
        self.surf_ld_set_conflicts += o.surf_ld_set_conflicts;
        self.surf_st_requests += o.surf_st_requests;
        self.surf_st_sectors += o.surf_st_sectors;
        self.surf_st_set_conflicts += o.surf_st_set_conflicts;
        self.surf_wavefronts += o.surf_wavefronts;
        self.texels += o.texels;
        self.lane_fetches += o.lane_fetches;
        self.gld2d_requests += o.gld2d_requests;
        self.gld2d_sectors += o.gld2d_sectors;
        self.gld2d_sectors_block_linear += o.gld2d_sectors_block_linear;
    }

    /// An uncoalesced 2D global load that touched `row_major` sectors and would touch
    /// `block_linear` as a texture fetch ([`super::advice`]).
    pub fn add_global_2d(&mut self, row_major: u64, block_linear: u64) {
        self.gld2d_requests += 1;
        self.gld2d_sectors += row_major;
        self.gld2d_sectors_block_linear += block_linear;
    }

    /// Whether anything was counted.
    pub fn is_empty(&self) -> bool {
        *self == Self::default()
    }

    /// Every counter under its Nsight Compute name, those of the texture pipe when it ran and the
    /// 2D global-load comparison when there was one (gpumemsim's own names: texels read or
    /// written, lanes that fetched, and the comparison's requests and sectors). Surface stores
    /// have no data-stage wavefronts (measured: `l1tex__data_pipe_tex_wavefronts_mem_surface` is
    /// 0 for `surf_write_*`).
    pub fn metrics(&self) -> Vec<(&'static str, u64)> {
        let mut m = Vec::new();
        if self.lane_fetches + self.tex_inst + self.surf_ld_inst + self.surf_st_inst > 0 {
            m.extend(self.pipe_metrics());
        }
        if self.gld2d_requests > 0 {
            m.extend([
                ("gpumemsim__global_ld_2d_requests.sum", self.gld2d_requests),
                ("gpumemsim__global_ld_2d_sectors.sum", self.gld2d_sectors),
                (
                    "gpumemsim__global_ld_2d_sectors_block_linear.sum",
                    self.gld2d_sectors_block_linear,
                ),
            ]);
        }
        m
    }

    fn pipe_metrics(&self) -> Vec<(&'static str, u64)> {
        vec![
            ("gpumemsim__tex_texels.sum", self.texels),
            ("gpumemsim__tex_lane_fetches.sum", self.lane_fetches),
            ("smsp__sass_inst_executed_op_texture.sum", self.tex_inst),
            (
                "l1tex__t_requests_pipe_tex_mem_texture.sum",
                self.tex_requests,
            ),
            (
                "l1tex__t_sectors_pipe_tex_mem_texture.sum",
                self.tex_sectors,
            ),
            (
                "l1tex__t_set_accesses_pipe_tex_mem_texture.sum",
                self.tex_set_accesses,
            ),
            (
                "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum",
                self.tex_set_conflicts,
            ),
            (
                "l1tex__data_pipe_tex_wavefronts_mem_texture.sum",
                self.tex_wavefronts,
            ),
            (
                "l1tex__texin_requests_mem_texture.sum",
                self.tex_texin_requests,
            ),
            (
                "l1tex__texin_requests_mem_surface.sum",
                self.surf_texin_requests,
            ),
            ("smsp__inst_executed_op_surface_ld.sum", self.surf_ld_inst),
            ("smsp__inst_executed_op_surface_st.sum", self.surf_st_inst),
            (
                "l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum",
                self.surf_ld_requests,
            ),
            (
                "l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum",
                self.surf_ld_sectors,
            ),
            (
                "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_ld.sum",
                self.surf_ld_set_conflicts,
            ),
            (
                "l1tex__t_requests_pipe_tex_mem_surface_op_st.sum",
                self.surf_st_requests,
            ),
            (
                "l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum",
                self.surf_st_sectors,
            ),
            (
                "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_st.sum",
                self.surf_st_set_conflicts,
            ),
            (
                "l1tex__data_pipe_tex_wavefronts_mem_surface.sum",
                self.surf_wavefronts,
            ),
        ]
    }
}
