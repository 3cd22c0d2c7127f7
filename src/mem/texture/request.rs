//! How the texture unit splits one warp-level texture or surface instruction into L1 requests,
//! and what each request costs: sectors looked up, tag lookups (`set_accesses`) and data-stage
//! wavefronts.
//!
//! # Rules (measured on the H200)
//! Source: tests/hw/h200/texture_mem/ (`ncu/tex_probe.csv` and `run2/ncu/tex_probe2.csv`, the
//! kernels of tests/hw/texture_mem/tex_probe.cu; launches named in `launches.txt`).
//! - Requests (`l1tex__t_requests_pipe_tex_mem_*`): `tex` and `tld4` (`tex1D/2D/3D`,
//!   `tex2Dgather`) make one request per quad of lanes (lanes 4k to 4k+3) with at least one
//!   active lane: 8 per full warp, 4 for lanes 0-15, 2 for lanes 0 and 31, 8 for every other lane
//!   (`f32_point_row_1warp_mask*`). `tex1Dfetch` (linear memory) and surface loads and stores
//!   make one per group of 8 lanes: 4 per full warp, 1 for lanes 0-7, 4 for lanes 0, 8, 16 and 24
//!   (`fetch1d_1warp_mask*`, `surf_read_1warp_mask*`).
//! - Input-stage requests (`l1tex__texin_requests_mem_*`): one per quad with an active lane for
//!   every texture instruction, `tex1Dfetch` included (8 per full warp where its L1 requests are
//!   4; 2 for lanes 0-7, 4 for lanes 0, 8, 16 and 24: `fetch1d_1warp_mask*`); for surfaces the
//!   L1 requests themselves (`surf_read_1warp_mask*`, `surf_write_*`).
//! - Sectors (`l1tex__t_sectors_pipe_tex_mem_*`): the distinct 32-byte sectors the request's
//!   texels occupy (a row of 32 floats of a warp: 8 requests of 1 sector; a column: 8 of 2;
//!   bilinear filtering halfway between texel centres: 16 sectors for a row, of which 7 were
//!   looked up by an earlier request of the same instruction). A texel a filter weights by zero
//!   is not fetched: linear filtering exactly on texel centres costs what point sampling costs
//!   (`f32_linear_centre_*` against `f32_point_*`).
//! - Tag lookups (`l1tex__t_set_accesses_pipe_tex_mem_texture`): the distinct texel-space
//!   blocks of 32 bytes by 4 rows (one slice) of the request, the 128-byte lines of a
//!   block-linear array (`quadset_*`: two sectors of one line, 1; rows 0 and 4 of a GOB, 2), and
//!   the same blocks for pitch-linear memory, whose rows are lines apart (`pitch2d_point_col`: 4
//!   rows of a quad, 1 lookup); for `tex1Dfetch` the 128-byte lines (`fetch1d_stride32`: 8).
//! - Wavefronts (`l1tex__data_pipe_tex_wavefronts_mem_*`): for point sampling, the distinct
//!   texel-space blocks of 32 bytes by 8 rows (one slice) the request touches, whatever the
//!   memory layout: both lines of a half-GOB (rows 0-3 and 4-7) come in one wavefront, two GOBs
//!   side by side or stacked in two (`quadset_*`); four rows of a pitch-linear texture in one
//!   (`pitch2d_point_col`); for `tex1Dfetch`, 64-byte blocks (`fetch1d_stride2`: 8 floats 8 bytes
//!   apart, 1; `fetch1d_stride32`, 128 bytes apart, 8). A filtered or gathered request (lanes
//!   reading several texels) is one wavefront per slice of its footprint: bilinear and `tld4`
//!   quads 1, even where their footprints cross blocks (`f32_linear_half_*`, `f32_gather_*`,
//!   `rotate_1024`: 262,144 for 262,144 requests), trilinear 2 (`f32_3d_linear_half_*`: 2.1).
//!   Where the hardware does better: requests whose texels are scattered (`*_random`: 2.3 per
//!   4-sector request where this rule gives 4) and four consecutive slices of a 3D array (2,
//!   `f32_3d_point_colz`); these launches are listed in the hardware test with that cause.
//!
//! A lookup hits when the sector is valid in L1 or was requested by an earlier lookup of the same
//! SM (unlike the LSU path, whose misses in flight miss again: see
//! [`crate::mem::cache::Hierarchy::tex_access`]).

use crate::mem::cache::LineAccess;

/// Which of Nsight Compute's texture-pipe memories an access counts in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexAccess {
    /// `tex`, `tld4` (`mem_texture`).
    Texture,
    /// `tex.1d` on linear memory (`tex1Dfetch`): texture memory, 8-lane requests.
    Fetch,
    /// `suld` (`mem_surface_op_ld`).
    SurfaceLoad,
    /// `sust` (`mem_surface_op_st`).
    SurfaceStore,
}

impl TexAccess {
    /// Lanes per request.
    pub fn lanes_per_request(self) -> u32 {
        match self {
            TexAccess::Texture => 4,
            TexAccess::Fetch | TexAccess::SurfaceLoad | TexAccess::SurfaceStore => 8,
        }
    }
}

/// One texel a lane read or wrote: where it is in memory and in texel space.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Texel {
    /// Device byte address of its first byte.
    pub addr: u64,
    /// Its bytes (1 to 16).
    pub bytes: u32,
    /// Byte x (texel x times texel bytes), row and slice.
    pub x_byte: u64,
    /// Row.
    pub y: u32,
    /// Slice.
    pub z: u32,
    /// In pitch-linear memory (a pitch-2D texture), whose rows are `pitch` bytes apart: its
    /// sectors go to L2 grouped by texel-space tag block, not by line.
    pub pitch_linear: bool,
}

/// What one instruction cost in the texture pipe, before the caches.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct TexCost {
    /// L1 requests.
    pub requests: u64,
    /// Sector lookups (summed over requests).
    pub sectors: u64,
    /// Tag lookups: distinct lines per request.
    pub set_accesses: u64,
    /// Data-stage wavefronts.
    pub wavefronts: u64,
    /// Requests into the texture unit's input stage (`l1tex__texin_requests_mem_*`): one per quad
    /// with a lane that reads memory for `tex`, `tld4` and `tex1Dfetch` alike, one per L1 request
    /// for surfaces.
    pub texin_requests: u64,
    /// Texels the lanes read or wrote (a bilinear fetch 4 per lane).
    pub texels: u64,
    /// Lanes that read or wrote any.
    pub lanes: u64,
}

/// Splits warp-level texture instructions into requests; reuses its buffers.
#[derive(Clone, Debug, Default)]
pub struct Splitter {
    texels: Vec<(u8, Texel)>,
    /// Lines of every request, in request order.
    pub lines: Vec<LineAccess>,
    /// Each request's range in `lines`.
    pub requests: Vec<(u32, u32)>,
    /// The L2 group of each entry of `lines` (parallel to it): misses of one instruction go to
    /// L2 as one request per line and group ([`Texel::pitch_linear`]; 0 where tag blocks are
    /// lines).
    pub l2_groups: Vec<u32>,
    /// Sectors of the request and their L2 group.
    sectors: Vec<(u64, u32)>,
    groups: Vec<(u64, u32, u32)>,
    tags: Vec<(u64, u32, u32)>,
}

impl Splitter {
    /// Starts a new instruction.
    pub fn clear(&mut self) {
        self.texels.clear();
        self.lines.clear();
        self.requests.clear();
        self.l2_groups.clear();
    }

    /// Lane `lane` touched `texel` (lanes in ascending order).
    #[inline]
    pub fn push(&mut self, lane: u8, texel: Texel) {
        self.texels.push((lane, texel));
    }

    /// Groups the pushed texels into requests of `access`'s lane groups (lanes that touched no
    /// texel, such as border reads, make no request unless a lane of their group did) and
    /// returns the cost; `lines` and `requests` then hold each request's sectors.
    pub fn finish(&mut self, access: TexAccess) -> TexCost {
        let per = access.lanes_per_request() as u8;
        let fetch = access == TexAccess::Fetch;
        let mut cost = TexCost {
            texels: self.texels.len() as u64,
            lanes: self
                .texels
                .iter()
                .enumerate()
                .filter(|(k, t)| *k == 0 || self.texels[k - 1].0 != t.0)
                .count() as u64,
            ..TexCost::default()
        };
        cost.texin_requests = match access {
            TexAccess::Texture | TexAccess::Fetch => self
                .texels
                .iter()
                .enumerate()
                .filter(|(k, t)| *k == 0 || self.texels[k - 1].0 / 4 != t.0 / 4)
                .count() as u64,
            TexAccess::SurfaceLoad | TexAccess::SurfaceStore => 0,
        };
        let mut i = 0;
        while i < self.texels.len() {
            let group = self.texels[i].0 / per;
            self.sectors.clear();
            self.groups.clear();
            self.tags.clear();
            let mut filtered = false;
            let mut slices: [u32; 2] = [u32::MAX; 2];
            while i < self.texels.len() && self.texels[i].0 / per == group {
                let (lane, t) = self.texels[i];
                filtered |= i > 0 && self.texels[i - 1].0 == lane;
                let last = t.addr + u64::from(t.bytes.max(1)) - 1;
                // A tag block is 32 bytes wide: in pitch-linear memory each 32-byte column of a
                // row is its own block's part of the line.
                let l2_group = if t.pitch_linear {
                    (t.x_byte / 32) as u32 + 1
                } else {
                    0
                };
                for s in t.addr / 32..=last / 32 {
                    if !self.sectors.iter().any(|&(x, _)| x == s) {
                        self.sectors.push((s, l2_group));
                    }
                }
                let (g, tag) = if fetch {
                    ((t.x_byte / 64, 0, 0), (t.addr / 128, 0, 0))
                } else {
                    ((t.x_byte / 32, t.y / 8, t.z), (t.x_byte / 32, t.y / 4, t.z))
                };
                if !self.groups.contains(&g) {
                    self.groups.push(g);
                }
                if !self.tags.contains(&tag) {
                    self.tags.push(tag);
                }
                if slices[0] == u32::MAX {
                    slices[0] = t.z;
                } else if t.z != slices[0] {
                    slices[1] = t.z;
                }
                i += 1;
            }
            let start = self.lines.len();
            for &(s, g) in &self.sectors {
                let line = s / 4;
                let bit = 1u8 << (s % 4);
                let found = (start..self.lines.len())
                    .find(|&k| self.lines[k].line == line && self.l2_groups[k] == g);
                match found {
                    Some(k) => self.lines[k].sectors |= bit,
                    None => {
                        self.lines.push(LineAccess {
                            line,
                            sectors: bit,
                            full: 0,
                        });
                        self.l2_groups.push(g);
                    }
                }
            }
            self.requests
                .push((start as u32, (self.lines.len() - start) as u32));
            cost.requests += 1;
            if matches!(access, TexAccess::SurfaceLoad | TexAccess::SurfaceStore) {
                cost.texin_requests += 1;
            }
            cost.sectors += self.sectors.len() as u64;
            cost.set_accesses += self.tags.len() as u64;
            cost.wavefronts += if filtered {
                1 + u64::from(slices[1] != u32::MAX)
            } else {
                self.groups.len() as u64
            };
        }
        cost
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::mem::texture::layout::BlockLinear;

    /// Lane `l` of a warp reads float texel (x0 + dx[l], y0 + dy[l]) of a 1024 x 1024 array.
    fn warp(
        s: &mut Splitter,
        access: TexAccess,
        texels: impl Fn(u32) -> Vec<(u32, u32)>,
    ) -> TexCost {
        let l = BlockLinear::for_array(4, [1024, 1024, 1], 2);
        s.clear();
        for lane in 0..32u32 {
            for (x, y) in texels(lane) {
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(u64::from(x) * 4, y, 0),
                        bytes: 4,
                        x_byte: u64::from(x) * 4,
                        y,
                        z: 0,
                        pitch_linear: false,
                    },
                );
            }
        }
        s.finish(access)
    }

    #[test]
    fn a_row_is_8_requests_of_one_sector_and_a_column_8_of_two() {
        let mut s = Splitter::default();
        let row = warp(&mut s, TexAccess::Texture, |l| vec![(l, 0)]);
        assert_eq!((row.requests, row.sectors, row.wavefronts), (8, 8, 8));
        let col = warp(&mut s, TexAccess::Texture, |l| vec![(0, l)]);
        assert_eq!((col.requests, col.sectors, col.wavefronts), (8, 16, 8));
        // Bilinear halfway: 2 x 2 texels per lane, 16 sector lookups (9 distinct sectors).
        let lin = warp(&mut s, TexAccess::Texture, |l| {
            vec![(l, 0), (l + 1, 0), (l, 1), (l + 1, 1)]
        });
        assert_eq!((lin.requests, lin.sectors, lin.set_accesses), (8, 16, 12));
        let distinct: std::collections::HashSet<(u64, u8)> = s
            .lines
            .iter()
            .flat_map(|l| {
                (0..4)
                    .filter(move |b| l.sectors >> b & 1 == 1)
                    .map(move |b| (l.line, b))
            })
            .collect();
        assert_eq!(distinct.len(), 9);
    }

    #[test]
    fn half_gobs_are_one_wavefront_and_gobs_are_one_each() {
        let mut s = Splitter::default();
        // Rows 0 and 4 of a GOB: two lines, one wavefront.
        let c = warp(&mut s, TexAccess::Texture, |l| {
            vec![(64 * (l / 4), 4 * (l % 2))]
        });
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (16, 16, 8));
        // Rows 0, 8, 16, 24: four GOBs.
        let c = warp(&mut s, TexAccess::Texture, |l| {
            vec![(64 * (l / 4), 8 * (l % 4))]
        });
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (32, 32, 32));
    }

    /// A row of 32 floats: in a block-linear array one L2 group (the line), in pitch-linear
    /// memory one group per 32-byte column (4 tag blocks, 4 L2 requests).
    #[test]
    fn pitch_linear_sectors_go_to_l2_by_tag_block() {
        let mut s = Splitter::default();
        for pitch_linear in [false, true] {
            s.clear();
            for lane in 0..32u32 {
                let x_byte = u64::from(lane) * 4;
                let t = Texel {
                    addr: 1 << 20 | x_byte,
                    bytes: 4,
                    x_byte,
                    y: 0,
                    z: 0,
                    pitch_linear,
                };
                s.push(lane as u8, t);
            }
            let c = s.finish(TexAccess::Texture);
            assert_eq!((c.requests, c.sectors), (8, 8));
            assert_eq!(s.l2_groups.len(), s.lines.len());
            let mut g = s.l2_groups.clone();
            g.sort_unstable();
            g.dedup();
            assert_eq!(g.len(), if pitch_linear { 4 } else { 1 });
        }
    }

    #[test]
    fn fetches_and_surfaces_group_8_lanes() {
        let mut s = Splitter::default();
        let c = warp(&mut s, TexAccess::SurfaceLoad, |l| vec![(l, 0)]);
        assert_eq!((c.requests, c.sectors), (4, 8));
        let c = warp(&mut s, TexAccess::Fetch, |l| {
            if l % 8 == 0 {
                vec![(l, 0)]
            } else {
                vec![]
            }
        });
        assert_eq!(c.requests, 4);
    }
}
