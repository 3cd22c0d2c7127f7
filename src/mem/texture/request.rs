//! How the texture unit splits one warp-level texture or surface instruction into L1 requests,
//! and what each request costs: sectors looked up, tag lookups (`set_accesses`), tag-set
//! conflicts and data-stage wavefronts.
//!
//! Every rule here was measured on the H200 with Nsight Compute. How each was found (the
//! launches it was fitted on, those it was then tested on blind, and those it does not fit) is
//! recorded in docs/texture-history.md, next to the recordings' paths; the hardware tests list
//! the launches that do not fit, each with its measured cause (tests/memory/texture_3d.rs,
//! tests/memory/texture_fetch.rs, tests/memory/texture_partial.rs).
//!
//! # Rules
//! Recordings under tests/hw/h200/texture_mem/ (probe kernels under tests/hw/texture_mem/;
//! launches named in each recording's `launches.txt`).
//! - Requests (`l1tex__t_requests_pipe_tex_mem_*`): `tex` and `tld4` make one request per quad
//!   of lanes (lanes 4k to 4k+3) with an active lane; `tex1Dfetch` and surface loads and stores
//!   one per group of 8 lanes (`ncu/tex_probe.csv`, `run2/ncu/tex_probe2.csv`).
//! - Input-stage requests (`l1tex__texin_requests_mem_*`): one per quad with an active lane for
//!   every texture instruction, `tex1Dfetch` included; for surfaces the L1 requests themselves
//!   (`ncu/tex_probe.csv`).
//! - Sectors (`l1tex__t_sectors_pipe_tex_mem_*`): the distinct 32-byte sectors the request's
//!   texels occupy; a texel a filter weights by zero is not fetched (`ncu/tex_probe.csv`).
//! - Tag lookups (`l1tex__t_set_accesses_pipe_tex_mem_texture`): the distinct texel-space blocks
//!   of 32 bytes by 4 rows (one slice) of the request, pitch-linear memory alike; for
//!   `tex1Dfetch` the 128-byte lines (`ncu/tex_probe.csv`).
//! - Tag-set conflicts (`l1tex__t_set_conflicts_pipe_tex_mem_texture`): per pass, the most tag
//!   lookups in one of the L1's 4 tag sets, less 1. A `tex1Dfetch` line's set is bits 7-8 of its
//!   address (run5); a texel tag block's is its x and y parity, both flipped in odd slices, the x
//!   parity also in odd GOBs of a 2D array's block ([`Texel::block_gob`]; `ncu/tex_probe.csv`,
//!   tested blind on run12); 16-byte texels of 2D arrays flip the y parity by the GOB column
//!   instead ([`texel_set`]; run12, run13, run9).
//! - Wavefronts (`l1tex__data_pipe_tex_wavefronts_mem_*`): point sampling, the distinct blocks of
//!   32 bytes by 8 rows (one slice) the request touches (`ncu/tex_probe.csv`); `tex1Dfetch` of
//!   4-byte texels, the pair-class rule of [`fetch_wavefronts`] (run5, run8, run10, run11); a
//!   filtered or gathered request, one per slice of its footprint; point-sampled 16-byte texels,
//!   the tag-set and data-port rule of [`Splitter::point16_wavefronts`] (run13, run9).
//! - 3D arrays (run4; run6, run9, run13, run14): a filtered quad is looked up in two passes of
//!   two lanes each, chosen by where its lanes lie ([`column_passes`], run14), or in one where
//!   its active lanes fit one (run9); filtered 16-byte texels look each lane up twice, a pass's
//!   empty lane slot still taking a wavefront, texels on their centres included
//!   ([`Splitter::mark_linear`]; run9, run6); a pass's wavefronts are boxes of at most 2 sector
//!   columns of 16 bytes, 2 tag blocks along y and 3 slices, a box of n tag blocks taking
//!   `max(ceil(n / 4), c)`, c the most of them in one tag set (run4); 8-byte texels across
//!   slices take at least one wavefront per range of tag blocks along y (run6); point sampling
//!   reads the even and odd slices in one wavefront, one tag block of each per wavefront (run4),
//!   16-byte texels by the port rule above (run13).
//!
//! A lookup hits when the sector is valid in L1 or was requested by an earlier lookup of the same
//! SM (unlike the LSU path, whose misses in flight miss again: see
//! [`crate::mem::cache::Hierarchy::tex_access`]).

use crate::mem::cache::LineAccess;

/// L1 tag sets (see the module doc and [`tag_set`]).
const TAG_SETS: u64 = 4;

/// The L1 tag set of a tag lookup: for `tex1Dfetch` (`fetch`) `tag.0` is the 128-byte line,
/// whose address bits 7-8 give the set; for texels `tag` is the texel-space tag block (32-byte
/// column x_byte / 32, 4-row block y / 4, slice z), whose x and y parities give the set, both
/// flipped in odd slices, and the x parity also flipped in odd GOBs of a block (`block_gob`,
/// [`Texel::block_gob`]: in a 3D array the slice again, in a 2D array whose blocks are more
/// than one GOB high the GOB row y / 8).
fn tag_set(tag: (u64, u32, u32), fetch: bool, block_gob: u32) -> u64 {
    if fetch {
        return tag.0 % TAG_SETS;
    }
    let (x, y, z) = (tag.0 & 1, u64::from(tag.1 & 1), u64::from(tag.2 & 1));
    let g = u64::from(block_gob & 1);
    ((x ^ g) << 1) | (y ^ z)
}

/// The L1 tag set of texel `t`'s tag block `tag` ([`tag_set`]), except for 16-byte texels of 2D
/// (and 1D) arrays: there the GOB row flips nothing and the GOB column's parity (x_byte / 64)
/// flips the y parity instead (tests/hw/h200/texture_mem/run12, `rnd2_f32x4_256_*`; found
/// independently on run13's `f32x4_2d_set_*` and `f32x4_2d256_set_*`, and blind-tested on
/// run13/blind's 150 random f32x4 point launches: all their conflicts exact).
fn texel_set(t: &Texel, tag: (u64, u32, u32), fetch: bool) -> u64 {
    if !fetch && t.bytes == 16 && !t.volume && !t.pitch_linear {
        let (x, y) = (tag.0 & 1, u64::from(tag.1 & 1));
        return (x << 1) | (y ^ ((t.x_byte / 64) & 1));
    }
    tag_set(tag, fetch, t.block_gob)
}

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
    /// In a 3D array (depth above 1): its filtered quads are looked up in two passes of two
    /// lanes, and its point-sampled slices share wavefronts by the parity of z.
    pub volume: bool,
    /// The index of its GOB (64 bytes by 8 rows) within its block of a CUDA array (the
    /// [`crate::mem::texture::layout`] block's GOBs in y-then-z order: y / 8 within the block in
    /// a 2D array, the slice within the block in a 3D array; 0 in 1D arrays and in linear and
    /// pitch-linear memory). Its parity flips the x parity of the tag set ([`tag_set`]).
    pub block_gob: u32,
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
    /// Tag-set conflicts (`l1tex__t_set_conflicts_pipe_tex_mem_*`): per pass, the most tag
    /// lookups in one of the L1's 4 tag sets, less 1 ([`tag_set`]).
    pub set_conflicts: u64,
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
    /// Lanes (bit l: lane l) whose fetch filtered linearly ([`Splitter::mark_linear`]).
    linear: u32,
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
    /// The L1 tag set of each of `tags` ([`texel_set`]).
    tag_sets: Vec<u64>,
    /// Boxes of tag blocks of a filtered 3D pass (lowest and highest block along x, y, z) and
    /// each texel's (box, tag block, L1 tag set).
    boxes: Vec<([u64; 3], [u64; 3])>,
    box_tags: Vec<(usize, [u64; 3], u64)>,
    /// Each lane's (box, lowest and highest tag block along y) of that pass.
    box_lanes: Vec<(usize, [u64; 2])>,
    /// Each texel's (tag block, L1 tag set, data port, wavefront) of a point-sampled request of
    /// 16-byte texels ([`Splitter::point16_wavefronts`]).
    point_waves: Vec<PointTexel>,
}

/// A texel of a point-sampled 16-byte request: (tag block, L1 tag set, data port, wavefront).
type PointTexel = ((u64, u32, u32), u64, u32, u64);

impl Splitter {
    /// Starts a new instruction.
    pub fn clear(&mut self) {
        self.texels.clear();
        self.linear = 0;
        self.lines.clear();
        self.requests.clear();
        self.l2_groups.clear();
    }

    /// Lane `lane`'s fetch of a 2D or 3D array filtered linearly, whatever texels it read:
    /// exactly on a texel centre it reads one, and 16-byte texels are still costed as filtered
    /// (the module doc's four-channel float texels; run9 `f32x4_lin_same_h0_*`,
    /// `f32x4_2d_lin_same_h0_*`, run6 `f32x4_one_h0*`).
    #[inline]
    pub fn mark_linear(&mut self, lane: u8) {
        self.linear |= 1u32.checked_shl(u32::from(lane)).unwrap_or(0);
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
            let mut end = i;
            // A lane that reads several texels: a filtered or gathered fetch.
            let mut filtered = false;
            let mut volume = false;
            while end < self.texels.len() && self.texels[end].0 / per == group {
                filtered |= end > i && self.texels[end - 1].0 == self.texels[end].0;
                volume |= self.texels[end].1.volume;
                end += 1;
            }
            cost.requests += 1;
            if matches!(access, TexAccess::SurfaceLoad | TexAccess::SurfaceStore) {
                cost.texin_requests += 1;
            }
            // 16-byte texels are costed as filtered where the fetch filtered linearly, even on
            // texel centres (one texel per lane; narrower texels there cost point sampling).
            let linear = self.texels[i..end]
                .iter()
                .any(|t| self.linear >> (t.0 % 32) & 1 == 1);
            let wide = (filtered || linear) && self.texels[i..end].iter().any(|t| t.1.bytes == 16);
            if access == TexAccess::Texture && wide {
                // Four-channel float texels (16 bytes), filtered: passes of lane slots.
                if !self.wide_quad(i, end, volume, fetch, &mut cost) {
                    cost.requests -= 1;
                }
            } else if access == TexAccess::Texture && volume && filtered {
                // A filtered quad of a 3D array: passes of two lanes ([`quad_passes`]: lanes 4k
                // and 4k+1, then 4k+2 and 4k+3, where the lanes are not within one of those
                // pairs or one column), each looking its sectors and tags up on its own.
                let mask = quad_mask(&self.texels[i..end]);
                let (mut pass_of, _, _) = quad_passes(mask);
                if mask == 0b1111 && column_passes(&self.texels[i..end]) {
                    // Lanes 0 and 2, then 1 and 3: the lanes of a pass next to each other
                    // (stable, so each lane's texels keep their order).
                    pass_of = [0, 1, 0, 1];
                    self.texels[i..end].sort_by_key(|t| (pass_of[usize::from(t.0 % 4)], t.0 % 4));
                }
                let lane_pass = |t: &(u8, Texel)| pass_of[usize::from(t.0 % 4)];
                let mut j = i;
                while j < end {
                    let pass = lane_pass(&self.texels[j]);
                    let mut k = j;
                    while k < end && lane_pass(&self.texels[k]) == pass {
                        k += 1;
                    }
                    self.pass(j, k, fetch, &mut cost);
                    cost.wavefronts += self.box_wavefronts(j, k);
                    j = k;
                }
            } else {
                let (groups, filtered_slices) = self.pass(i, end, fetch, &mut cost);
                cost.wavefronts += match filtered_slices {
                    Some(slices) => slices,
                    None if access == TexAccess::Texture && self.point16(i) => {
                        self.point16_wavefronts(i, end)
                    }
                    None if access == TexAccess::Texture && volume => {
                        // Point sampling a 3D array: slices of even and odd z are read in the
                        // same wavefront; within each, one per tag block.
                        let odd = self.tags.iter().filter(|t| t.2 % 2 == 1).count();
                        odd.max(self.tags.len() - odd) as u64
                    }
                    // `tex1Dfetch` of 4-byte texels: the pair-class rule.
                    None if fetch && self.texels[i..end].iter().all(|t| t.1.bytes == 4) => {
                        fetch_wavefronts(&self.texels[i..end])
                    }
                    None => groups,
                };
            }
            i = end;
        }
        cost
    }

    /// A filtered quad of 16-byte texels, `self.texels[i..end]`, in passes of two lane slots
    /// ([`quad_passes`]), each pass looked up twice (once per pair of channels). In a 3D array
    /// each lane of a pass is its own lookup with its own box wavefronts, and a slot without a
    /// lane still takes one wavefront per lookup; in a 2D array the pass's lanes are looked up
    /// together, one wavefront per lookup. Returns whether the quad counts as a request (in a 3D
    /// array only where the last pass's second slot holds a lane; a 2D quad always).
    fn wide_quad(
        &mut self,
        i: usize,
        end: usize,
        volume: bool,
        fetch: bool,
        cost: &mut TexCost,
    ) -> bool {
        let mask = quad_mask(&self.texels[i..end]);
        let (pass_of, passes, counted) = quad_passes(mask);
        if volume {
            // Lanes in order, each its own lookup twice.
            let mut j = i;
            while j < end {
                let mut k = j;
                while k < end && self.texels[k].0 == self.texels[j].0 {
                    k += 1;
                }
                for _ in 0..2 {
                    self.pass(j, k, fetch, cost);
                    cost.wavefronts += self.box_wavefronts(j, k);
                }
                j = k;
            }
            let empty = 2 * passes - u64::from(mask.count_ones());
            cost.wavefronts += 2 * empty;
            return counted;
        }
        // The lanes of a pass are next to each other (lane order, passes 0 then 1).
        let mut j = i;
        while j < end {
            let p = pass_of[usize::from(self.texels[j].0 % 4)];
            let mut k = j;
            while k < end && pass_of[usize::from(self.texels[k].0 % 4)] == p {
                k += 1;
            }
            for _ in 0..2 {
                let (_, slices) = self.pass(j, k, fetch, cost);
                cost.wavefronts += slices.unwrap_or(1);
            }
            j = k;
        }
        true
    }

    /// Looks up the texels `self.texels[i..end]` as one pass of the data stage: adds its sectors
    /// and tag lookups to `cost`, its lines to [`Splitter::lines`] as one range of
    /// [`Splitter::requests`], and returns its point-sampling wavefront blocks
    /// and, where a lane read several texels (a filtered or gathered fetch), its slices.
    fn pass(
        &mut self,
        i: usize,
        end: usize,
        fetch: bool,
        cost: &mut TexCost,
    ) -> (u64, Option<u64>) {
        self.sectors.clear();
        self.groups.clear();
        self.tags.clear();
        self.tag_sets.clear();
        let mut filtered = false;
        let mut slices: [u32; 2] = [u32::MAX; 2];
        for k in i..end {
            let (lane, t) = self.texels[k];
            filtered |= k > i && self.texels[k - 1].0 == lane;
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
                self.tag_sets.push(texel_set(&t, tag, fetch));
            }
            if slices[0] == u32::MAX {
                slices[0] = t.z;
            } else if t.z != slices[0] {
                slices[1] = t.z;
            }
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
        cost.sectors += self.sectors.len() as u64;
        cost.set_accesses += self.tags.len() as u64;
        let mut sets = [0u64; TAG_SETS as usize];
        for &set in &self.tag_sets {
            // Below TAG_SETS by construction.
            sets[set as usize] += 1;
        }
        cost.set_conflicts += sets.iter().copied().max().unwrap_or(0).saturating_sub(1);
        let slices = filtered.then(|| 1 + u64::from(slices[1] != u32::MAX));
        (self.groups.len() as u64, slices)
    }

    /// Wavefronts of one pass of a filtered 3D quad, `self.texels[i..end]`: lanes in order join
    /// the first box that, with their texels, still spans at most 2 sector columns of 16 bytes
    /// along x, 2 tag blocks along y and 3 slices along z (else they open a new box), and a box
    /// of n tag blocks takes `max(ceil(n / 4), most blocks in one L1 tag set)` wavefronts, and
    /// for 8-byte texels at least [`Splitter::y_range_wavefronts`].
    fn box_wavefronts(&mut self, i: usize, end: usize) -> u64 {
        self.boxes.clear();
        self.box_tags.clear();
        self.box_lanes.clear();
        let mut k = i;
        while k < end {
            let lane = self.texels[k].0;
            let mut lo = [u64::MAX; 3];
            let mut hi = [0u64; 3];
            let first = self.box_tags.len();
            while k < end && self.texels[k].0 == lane {
                let t = self.texels[k].1;
                let tag = [t.x_byte / 32, u64::from(t.y / 4), u64::from(t.z)];
                // The box's width is measured in 16-byte columns (two of them at most).
                let last = t.x_byte + u64::from(t.bytes.max(1)) - 1;
                let span = [[t.x_byte / 16, last / 16], [tag[1]; 2], [tag[2]; 2]];
                for d in 0..3 {
                    lo[d] = lo[d].min(span[d][0]);
                    hi[d] = hi[d].max(span[d][1]);
                }
                self.box_tags.push((
                    usize::MAX,
                    tag,
                    tag_set((tag[0], tag[1] as u32, tag[2] as u32), false, t.block_gob),
                ));
                k += 1;
            }
            let fits = |b: &([u64; 3], [u64; 3])| {
                (0..3).all(|d| hi[d].max(b.1[d]) - lo[d].min(b.0[d]) <= if d == 2 { 2 } else { 1 })
            };
            let b = match self.boxes.iter().position(fits) {
                Some(b) => {
                    let bx = &mut self.boxes[b];
                    for d in 0..3 {
                        bx.0[d] = bx.0[d].min(lo[d]);
                        bx.1[d] = bx.1[d].max(hi[d]);
                    }
                    b
                }
                None => {
                    self.boxes.push((lo, hi));
                    self.boxes.len() - 1
                }
            };
            for e in &mut self.box_tags[first..] {
                e.0 = b;
            }
            self.box_lanes.push((b, [lo[1], hi[1]]));
        }
        self.box_tags.sort_unstable();
        self.box_tags.dedup();
        (0..self.boxes.len())
            .map(|b| {
                let mut sets = [0u64; TAG_SETS as usize];
                let mut blocks = 0u64;
                for e in self.box_tags.iter().filter(|e| e.0 == b) {
                    blocks += 1;
                    // `e.2 < TAG_SETS` by construction.
                    sets[e.2 as usize] += 1;
                }
                blocks
                    .div_ceil(4)
                    .max(sets.iter().copied().max().unwrap_or(0))
                    .max(self.y_range_wavefronts(i, b))
            })
            .sum()
    }

    /// Whether the request starting at `self.texels[i]` reads 16-byte texels of a block-linear
    /// array (point sampling: [`Splitter::point16_wavefronts`]).
    fn point16(&self, i: usize) -> bool {
        let t = self.texels[i].1;
        t.bytes == 16 && !t.pitch_linear
    }

    /// Wavefronts of a point-sampled request of 16-byte texels, `self.texels[i..end]`
    /// (tests/hw/h200/texture_mem/run13, module doc): texels in lane order join the first
    /// wavefront in which every texel of another tag block lies in another L1 tag set and on
    /// another data port, the port being (x_byte bit 4 ^ x_byte bit 5 ^ y bit 2, y bit 1 ^ z
    /// bit 0), 2D and 3D arrays alike.
    fn point16_wavefronts(&mut self, i: usize, end: usize) -> u64 {
        self.point_waves.clear();
        let mut waves = 0;
        for k in i..end {
            let t = self.texels[k].1;
            let tag = (t.x_byte / 32, t.y / 4, t.z);
            let set = texel_set(&t, tag, false);
            let port = ((t.x_byte >> 4 ^ t.x_byte >> 5) as u32 ^ t.y >> 2) & 1
                | ((t.y >> 1 ^ t.z) & 1) << 1;
            let fits = |w: u64| {
                self.point_waves
                    .iter()
                    .filter(|e| e.3 == w)
                    .all(|e| e.0 == tag || (e.1 != set && e.2 != port))
            };
            let w = (0..waves).find(|&w| fits(w)).unwrap_or(waves);
            waves = waves.max(w + 1);
            self.point_waves.push((tag, set, port, w));
        }
        waves
    }

    /// The least wavefronts of box `b` of the pass starting at `self.texels[i]` for 8-byte texels:
    /// where the box spans two slices or more, one per distinct range of tag blocks along y
    /// (rows / 4) of its lanes' footprints; otherwise, and for texels of other sizes, 0 (no
    /// floor). Source: tests/hw/h200/texture_mem/run6/ (module doc, 8-byte texels).
    fn y_range_wavefronts(&self, i: usize, b: usize) -> u64 {
        let (lo, hi) = self.boxes[b];
        if self.texels[i].1.bytes != 8 || hi[2] == lo[2] {
            return 0;
        }
        let mut ranges: Vec<[u64; 2]> = self
            .box_lanes
            .iter()
            .filter(|e| e.0 == b)
            .map(|e| e.1)
            .collect();
        ranges.sort_unstable();
        ranges.dedup();
        ranges.len() as u64
    }
}

/// Whether two lanes of one tag pass of a `tex1Dfetch` request of 4-byte texels cannot be served
/// in one data-stage wavefront (`(lane, byte address)`; source: tests/hw/h200/texture_mem/run11,
/// `pr_*`): lanes reading the same 8-byte word never conflict; the two lanes of a pair (2k,
/// 2k+1) conflict when address bits 3 and 5 are equal, on one line or two; other lanes when they
/// are on different 128-byte lines at the same 8-byte position of the line (address bits 3-6).
fn fetch_conflict((la, a): (u8, u64), (lb, b): (u8, u64)) -> bool {
    if a >> 3 == b >> 3 {
        return false;
    }
    if la / 2 == lb / 2 {
        return (a ^ b) >> 3 & 0b101 == 0;
    }
    a >> 7 != b >> 7 && a >> 3 & 15 == b >> 3 & 15
}

/// Data-stage wavefronts of one 8-lane `tex1Dfetch` request of 4-byte texels, one per lane in
/// ascending lane order (the pair-class rule, helper tscat5; tests/hw/texture_mem/
/// analyse_run11.py, exact on every single-request launch of run5, run8, run8/call2, run10, run11
/// and run11/call2):
/// 1. tag passes: per L1 tag set ([`tag_set`]) the k-th distinct line in lane order goes to pass
///    k; passes never share a wavefront;
/// 2. within a pass, lane 2k+1 is *split* when lane 2k is in the pass and the two conflict
///    ([`fetch_conflict`]); a split lane never shares a wavefront with a lane that is not;
/// 3. lanes in order join the first wavefront of the pass holding no lane they conflict with
///    (rules 1 and 2), else open one.
fn fetch_wavefronts(texels: &[(u8, Texel)]) -> u64 {
    // One texel per lane of an 8-lane request; wavefronts are bit sets of texel indices.
    const LANES: usize = 8;
    let n = texels.len().min(LANES);
    let texels = &texels[..n];
    let lane = |k: usize| (texels[k].0, texels[k].1.addr);
    // Each texel's pass: its line's rank among the distinct lines of its set, in lane order.
    let mut pass = [0usize; LANES];
    for k in 0..n {
        let line = texels[k].1.addr / 128;
        let set = tag_set((line, 0, 0), true, 0);
        // The line's first lane: the distinct lines of its set before it are its rank.
        let first = (0..k)
            .find(|&j| texels[j].1.addr / 128 == line)
            .unwrap_or(k);
        pass[k] = (0..first)
            .filter(|&j| {
                let l = texels[j].1.addr / 128;
                l != line
                    && tag_set((l, 0, 0), true, 0) == set
                    && (0..j).all(|i| texels[i].1.addr / 128 != l)
            })
            .count();
    }
    let mut split = [false; LANES];
    for k in 0..n {
        split[k] = texels[k].0 % 2 == 1
            && (0..n).any(|j| {
                pass[j] == pass[k]
                    && texels[j].0 + 1 == texels[k].0
                    && fetch_conflict(lane(j), lane(k))
            });
    }
    let mut total = 0u64;
    for p in 0..=pass[..n].iter().copied().max().unwrap_or(0) {
        let mut waves = [0u8; LANES];
        let mut open = 0;
        for k in (0..n).filter(|&k| pass[k] == p) {
            let fits = |w: u8| {
                (0..n)
                    .filter(|&j| w >> j & 1 == 1)
                    .all(|j| split[j] == split[k] && !fetch_conflict(lane(j), lane(k)))
            };
            match waves[..open].iter().position(|&w| fits(w)) {
                Some(w) => waves[w] |= 1 << k,
                None => {
                    waves[open] = 1 << k;
                    open += 1;
                }
            }
        }
        total += open as u64;
    }
    total
}

/// The active lanes of a quad's texels (bit l: lane 4k + l).
fn quad_mask(texels: &[(u8, Texel)]) -> u8 {
    texels.iter().fold(0u8, |m, t| m | 1 << (t.0 % 4))
}

/// Whether a whole filtered quad of a 3D array (all four lanes active), `texels` in lane order,
/// is looked up as lanes 0 and 2, then 1 and 3, rather than [`quad_passes`]'s lanes 0 and 1,
/// then 2 and 3. Each lane's place is its lowest row and slice; lane 0 pairs with lane 1 or lane
/// 2 (and the other two form the second pass) by, in order:
/// 1. the one in lane 0's slice, where the other is not;
/// 2. the one nearer in rows (|y - y0|);
/// 3. lane 2 where both are as near and lane 2 lies above lane 0 (y < y0), else lane 1.
///
/// Measured on the H200 (tests/hw/h200/texture_mem/run14, tests/hw/texture_mem/gen_run14.py):
/// fitted on the 516 single f32 quads of run14 and run12 whose two pairings differ in tag
/// lookups or set conflicts (every one exact; the rows alone, step 2 with ties to lane 1, fit
/// 470; lanes 0 and 1 always, the rule before, 142), then exact, without refitting, on the tags
/// and conflicts of all 220 replayed warps of run12 (`r3w_*`, 1,760 quads of f32_32x16x4,
/// f32_64, u8_64 and f32_100x60x24; tests/memory/texture_random.rs) and on the set conflicts of five
/// of run4's six random trilinear grids (f32x2_64_linear_random's tags agree, its conflicts
/// not: tests/memory/texture_3d.rs FOOTPRINT). Columns (x) play no part that these records show;
/// quads of three lanes keep [`quad_passes`]. Each pass's wavefronts are counted on these
/// passes too (run14: 305 of 485 quads exact, 159 on lanes 0-1/2-3).
fn column_passes(texels: &[(u8, Texel)]) -> bool {
    // (lowest row, lowest slice) of each lane.
    let mut at = [(u32::MAX, u32::MAX); 4];
    for (lane, t) in texels {
        let e = &mut at[usize::from(lane % 4)];
        e.0 = e.0.min(t.y);
        e.1 = e.1.min(t.z);
    }
    let (y0, z0) = at[0];
    let (in1, in2) = (at[1].1 == z0, at[2].1 == z0);
    if in1 != in2 {
        return in2;
    }
    let dy = |l: usize| i64::from(at[l].0) - i64::from(y0);
    let (a, b) = (dy(1), dy(2));
    if a.abs() != b.abs() {
        return b.abs() < a.abs();
    }
    b < 0
}

/// The passes of a filtered 3D quad (and a filtered 2D quad of 16-byte texels) whose active
/// lanes are `mask` (bit l: lane 4k + l), measured on the H200 (tests/hw/h200/texture_mem/run9,
/// every subset of a quad's lanes for f32x4, u16x4, u8x4, f32x2 and f32,
/// tests/memory/texture_partial.rs; run4's `pair_*` for whole quads): a pass has two lane slots;
/// lanes within {0, 2} or within {1, 3} take one pass (slots: the upper lane, the lower lane;
/// `*_same_h7_m00000005`: 2 sectors, as one lane), else lanes within {0, 1} or {2, 3} one pass,
/// else two passes, lanes 0 and 1, then 2 and 3 (diagonal pairs and three or four lanes; four
/// lanes of a 3D quad may pair as lanes 0 and 2, then 1 and 3 instead: [`column_passes`]; which
/// pairs three lanes form is not told apart by run9, whose footprints there are equal). Returns
/// each lane's pass (lanes of a pass stay next to each other in lane order), the passes, and
/// whether the last pass's second slot holds a lane (lane 2 or 3 in a column pass, lane 3 in
/// two passes): a 3D quad of 16-byte texels counts as a request only then (`f32x4_one_xyz`,
/// lane 0 alone, and lanes 0, 1 and 2: no request).
fn quad_passes(mask: u8) -> ([u8; 4], u64, bool) {
    if mask & 0b1010 == 0 || mask & 0b0101 == 0 {
        ([0; 4], 1, mask & 0b1100 != 0)
    } else if mask & 0b1100 == 0 || mask & 0b0011 == 0 {
        ([0; 4], 1, true)
    } else {
        ([0, 0, 1, 1], 2, mask & 0b1000 != 0)
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
                        volume: false,
                        block_gob: (y >> 3) & 15,
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
                    volume: false,
                    block_gob: 0,
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

    /// One warp on a 64 x 64 x 64 float 3D array: lane l reads the texels `texels(l)` (x, y, z).
    fn warp3d(s: &mut Splitter, texels: impl Fn(u32) -> Vec<[u32; 3]>) -> TexCost {
        let l = BlockLinear::for_array(4, [64, 64, 64], 3);
        s.clear();
        for lane in 0..32u32 {
            for [x, y, z] in texels(lane) {
                let x_byte = u64::from(x) * 4;
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(x_byte, y, z),
                        bytes: 4,
                        x_byte,
                        y,
                        z,
                        pitch_linear: false,
                        volume: true,
                        block_gob: z,
                    },
                );
            }
        }
        s.finish(TexAccess::Texture)
    }

    /// The 2 x 2 x 2 texels from (x, y, z).
    fn cube(x: u32, y: u32, z: u32) -> Vec<[u32; 3]> {
        (0..8)
            .map(|i| [x + (i & 1), y + (i >> 1 & 1), z + (i >> 2)])
            .collect()
    }

    /// tests/hw/h200/texture_mem/run4 (`pair_AABB`, `pair_ABAB`, `one_xycross_z`, `two_z_z`):
    /// lanes 0 and 1, then 2 and 3, of a trilinear quad are looked up together.
    #[test]
    fn trilinear_quads_are_two_passes_of_two_lanes() {
        let mut s = Splitter::default();
        let at = |xs: [u32; 4]| {
            move |l: u32| {
                if l < 4 {
                    cube(xs[l as usize], 0, 0)
                } else {
                    vec![]
                }
            }
        };
        let c = warp3d(&mut s, at([0, 1, 32, 33]));
        assert_eq!(
            (c.requests, c.sectors, c.set_accesses, c.wavefronts),
            (1, 4, 4, 2)
        );
        // pair_AABB: each pass one tag block per slice, no set conflict (H200: 0).
        assert_eq!(c.set_conflicts, 0);
        let c = warp3d(&mut s, at([0, 32, 1, 33]));
        assert_eq!(
            (c.requests, c.sectors, c.set_accesses, c.wavefronts),
            (1, 8, 8, 4)
        );
        // pair_ABAB: a pass reads 32-byte columns 0 and 4 (same x parity) in slices 0 and 1:
        // one conflict per slice pair, 2 in all (H200: 2).
        assert_eq!(c.set_conflicts, 2);
        // One lane crossing a 32-byte and a 4-row block: 8 tag blocks, 2 wavefronts.
        let c = warp3d(&mut s, |l| if l == 0 { cube(7, 3, 0) } else { vec![] });
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (8, 8, 2));
    }

    /// run4's `f32x4_quad_xyz`: each lane of a filtered four-channel float quad is its own pass,
    /// looked up twice.
    #[test]
    fn filtered_f32x4_lanes_are_looked_up_alone_twice() {
        let l = BlockLinear::for_array(16, [64, 64, 64], 3);
        let mut s = Splitter::default();
        for lane in 0..4u32 {
            for [x, y, z] in cube(lane, 0, 0) {
                let x_byte = u64::from(x) * 16;
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(x_byte, y, z),
                        bytes: 16,
                        x_byte,
                        y,
                        z,
                        pitch_linear: false,
                        volume: true,
                        block_gob: z,
                    },
                );
            }
        }
        let c = s.finish(TexAccess::Texture);
        assert_eq!(
            (c.requests, c.sectors, c.set_accesses, c.wavefronts),
            (1, 32, 24, 8)
        );
        assert_eq!(s.requests.len(), 8);
    }

    /// run9 (tests/hw/h200/texture_mem/run9, `f32x4_lin_same_h7_m*`): every subset of a filtered
    /// f32x4 quad's lanes at one point, (requests, sectors, tags, wavefronts) as the H200 counted
    /// them.
    #[test]
    fn partial_f32x4_quads_take_passes_of_two_slots() {
        let l = BlockLinear::for_array(16, [64, 64, 64], 3);
        let mut s = Splitter::default();
        let h200: [(u8, [u64; 4]); 7] = [
            (0b0001, [0, 8, 4, 4]),
            (0b0010, [0, 8, 4, 4]),
            (0b0100, [1, 8, 4, 4]),
            (0b0011, [1, 16, 8, 4]),
            (0b0110, [0, 16, 8, 8]),
            (0b0111, [0, 24, 12, 8]),
            (0b1111, [1, 32, 16, 8]),
        ];
        for (mask, want) in h200 {
            s.clear();
            for lane in (0..4u8).filter(|l| mask >> l & 1 == 1) {
                for [x, y, z] in cube(0, 0, 0) {
                    let x_byte = u64::from(x) * 16;
                    s.push(
                        lane,
                        Texel {
                            addr: l.offset(x_byte, y, z),
                            bytes: 16,
                            x_byte,
                            y,
                            z,
                            pitch_linear: false,
                            volume: true,
                            block_gob: z,
                        },
                    );
                }
            }
            let c = s.finish(TexAccess::Texture);
            assert_eq!(
                [c.requests, c.sectors, c.set_accesses, c.wavefronts],
                want,
                "mask {mask:04b}"
            );
        }
    }

    /// run9 (tests/hw/h200/texture_mem/run9, `f32x4_lin_same_h0_m*` and
    /// `f32x4_2d_lin_same_h0_m*`): lanes of a linear-filtered f32x4 quad exactly on texel
    /// centre (0, 0, 0), each reading one texel, cost as filtered (requests, sectors, tags and
    /// wavefronts as the H200 counted them); unmarked (point sampling) and 4-byte texels marked
    /// linear (run6 `f32_one_h0`: 1, 1, 1, 1) cost as point sampling.
    #[test]
    fn linear_f32x4_lanes_on_texel_centres_cost_as_filtered() {
        let mut s = Splitter::default();
        let mut quad = |bytes: u32, volume: bool, mask: u8, linear: bool| {
            let dims = if volume { 3 } else { 2 };
            let l = BlockLinear::for_array(bytes, [64, 64, if volume { 64 } else { 1 }], dims);
            s.clear();
            for lane in (0..4u8).filter(|l| mask >> l & 1 == 1) {
                if linear {
                    s.mark_linear(lane);
                }
                s.push(
                    lane,
                    Texel {
                        addr: l.offset(0, 0, 0),
                        bytes,
                        x_byte: 0,
                        y: 0,
                        z: 0,
                        pitch_linear: false,
                        volume,
                        block_gob: 0,
                    },
                );
            }
            let c = s.finish(TexAccess::Texture);
            [c.requests, c.sectors, c.set_accesses, c.wavefronts]
        };
        let h200: [(bool, u8, [u64; 4]); 6] = [
            (true, 0b0001, [0, 2, 2, 4]),
            (true, 0b0011, [1, 4, 4, 4]),
            (true, 0b0110, [0, 4, 4, 8]),
            (true, 0b1111, [1, 8, 8, 8]),
            (false, 0b0001, [1, 2, 2, 2]),
            (false, 0b1111, [1, 4, 4, 4]),
        ];
        for (volume, mask, want) in h200 {
            assert_eq!(
                quad(16, volume, mask, true),
                want,
                "volume {volume}, mask {mask:04b}"
            );
        }
        assert_eq!(quad(16, true, 0b0001, false), [1, 1, 1, 1]);
        assert_eq!(quad(4, true, 0b0001, true), [1, 1, 1, 1]);
        // `clear` forgets the marks: the next instruction is point sampling again.
        s.clear();
        s.push(
            0,
            Texel {
                addr: 0,
                bytes: 16,
                x_byte: 0,
                y: 0,
                z: 0,
                pitch_linear: false,
                volume: true,
                block_gob: 0,
            },
        );
        assert_eq!(s.finish(TexAccess::Texture).wavefronts, 1);
    }

    /// run13 (tests/hw/h200/texture_mem/run13): point-sampled f32x4 lanes of one quad at
    /// (x_byte, y, z), 3D (64 x 64 x 64) and 2D (64 x 64) arrays, (tags, set conflicts,
    /// wavefronts) as the H200 counted them.
    #[test]
    fn point_f32x4_blocks_share_wavefronts_on_other_sets_and_ports() {
        let mut s = Splitter::default();
        let mut quad = |volume: bool, lanes: &[(u64, u32, u32)]| {
            let l = BlockLinear::for_array(
                16,
                [64, 64, if volume { 64 } else { 1 }],
                2 + u32::from(volume),
            );
            s.clear();
            for (lane, &(x_byte, y, z)) in lanes.iter().enumerate() {
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(x_byte, y, z),
                        bytes: 16,
                        x_byte,
                        y,
                        z,
                        pitch_linear: false,
                        volume,
                        block_gob: l.gob_in_block(l.offset(x_byte, y, z)),
                    },
                );
            }
            let c = s.finish(TexAccess::Texture);
            [c.set_accesses, c.set_conflicts, c.wavefronts]
        };
        type Lanes<'a> = &'a [(u64, u32, u32)];
        let h200: [(bool, Lanes, [u64; 3]); 14] = [
            // pair_x0_d32, _d48, _d96, pair_x48_d16: ports 0 and 1 share, equal ports do not.
            (true, &[(0, 0, 0), (32, 0, 0)], [2, 0, 1]),
            (true, &[(0, 0, 0), (48, 0, 0)], [2, 0, 2]),
            (true, &[(0, 0, 0), (96, 0, 0)], [2, 0, 1]),
            (true, &[(48, 0, 0), (64, 0, 0)], [2, 0, 2]),
            // pair_x0_d64: the same set.
            (true, &[(0, 0, 0), (64, 0, 0)], [2, 1, 2]),
            // rows_dy4, rows32_dy1, rows32_dy4.
            (true, &[(0, 0, 0), (0, 4, 0)], [2, 0, 1]),
            (true, &[(0, 0, 0), (32, 1, 0)], [2, 0, 1]),
            (true, &[(0, 0, 0), (32, 4, 0)], [2, 0, 2]),
            // z_x32z02, z_z0123, sq_diag.
            (true, &[(0, 0, 0), (32, 0, 2)], [2, 0, 1]),
            (
                true,
                &[(0, 0, 0), (0, 0, 1), (0, 0, 2), (0, 0, 3)],
                [4, 1, 2],
            ),
            (
                true,
                &[(0, 0, 0), (32, 2, 0), (64, 4, 0), (96, 6, 0)],
                [4, 0, 1],
            ),
            // 2D: set_b2_0 (the next GOB column flips the y parity), run9's
            // f32x4_2d_pt_row_h0_m0000000f, sq_diag.
            (false, &[(0, 0, 0), (64, 0, 0)], [2, 0, 2]),
            (
                false,
                &[(0, 0, 0), (32, 0, 0), (64, 0, 0), (96, 0, 0)],
                [4, 0, 2],
            ),
            (
                false,
                &[(0, 0, 0), (32, 2, 0), (64, 4, 0), (96, 6, 0)],
                [4, 1, 2],
            ),
        ];
        for (volume, lanes, want) in h200 {
            assert_eq!(quad(volume, lanes), want, "volume {volume}, {lanes:?}");
        }
    }

    /// run4's `u8_pair_ABAB`: lanes 32 bytes apart (adjacent tag blocks, 3 sector columns) do
    /// not share a box.
    #[test]
    fn boxes_span_at_most_two_sector_columns() {
        let l = BlockLinear::for_array(1, [64, 64, 64], 3);
        let mut s = Splitter::default();
        for (lane, x0) in [(0u32, 0u32), (1, 32), (2, 0), (3, 32)] {
            for [x, y, z] in cube(x0, 0, 0) {
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(u64::from(x), y, z),
                        bytes: 1,
                        x_byte: u64::from(x),
                        y,
                        z,
                        pitch_linear: false,
                        volume: true,
                        block_gob: z,
                    },
                );
            }
        }
        let c = s.finish(TexAccess::Texture);
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (8, 8, 4));
        // Columns 0 and 1 have opposite x parity: no set conflict (H200: 0).
        assert_eq!(c.set_conflicts, 0);
    }

    /// A pass of run4's `f32_64_linear_colz` kind whose lanes cross a tag block along x and y:
    /// slices z, z + 1 and z + 2 in one box, 12 tag blocks, slices z and z + 2 in the same tag
    /// sets, so 3 wavefronts (the H200's colz grids equal passes plus set conflicts,
    /// tests/memory/texture_3d.rs; two boxes of 8 blocks would give 4).
    #[test]
    fn a_pass_three_slices_deep_costs_its_set_conflicts() {
        let mut s = Splitter::default();
        let c = warp3d(&mut s, |l| match l {
            0 => cube(7, 3, 0),
            1 => cube(7, 3, 1),
            _ => vec![],
        });
        assert_eq!((c.set_accesses, c.wavefronts), (12, 3));
    }

    /// Lanes `l` of a quad read the texels `texels(l)` (x, y, z) of a 64 x 64 x 64 array of
    /// `bytes`-byte texels.
    fn quad3d(bytes: u32, texels: impl Fn(u32) -> Vec<[u32; 3]>) -> TexCost {
        let l = BlockLinear::for_array(bytes, [64, 64, 64], 3);
        let mut s = Splitter::default();
        for lane in 0..4u32 {
            for [x, y, z] in texels(lane) {
                let x_byte = u64::from(x) * u64::from(bytes);
                s.push(
                    lane as u8,
                    Texel {
                        addr: l.offset(x_byte, y, z),
                        bytes,
                        x_byte,
                        y,
                        z,
                        pitch_linear: false,
                        volume: true,
                        block_gob: z,
                    },
                );
            }
        }
        s.finish(TexAccess::Texture)
    }

    /// run6's `f32x2_col_*` and `f32_col_*` (tests/hw/h200/texture_mem/run6): a trilinear f32x2
    /// quad down a column takes one wavefront per distinct y tag-block range of a pass's lanes,
    /// an f32 quad of the same footprints and a bilinear f32x2 quad in one slice do not.
    #[test]
    fn eight_byte_boxes_over_two_slices_take_a_wavefront_per_lane_row_range() {
        let col = |y0: u32, n: u32| move |l: u32| if l < n { cube(5, y0 + l, 3) } else { vec![] };
        // f32x2_col_h7_x5_y0_n4: 6 tags, 3 wavefronts; f32_col_h7_x5_y0_n4: 6 tags, 2.
        let c = quad3d(8, col(0, 4));
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (16, 6, 3));
        let c = quad3d(4, col(0, 4));
        assert_eq!((c.sectors, c.set_accesses, c.wavefronts), (8, 6, 2));
        // f32x2_col_h7_x5_y3_n1: one lane over rows 3 and 4, 1; *_y2_n2: 2; *_y32_n2: 1.
        assert_eq!(quad3d(8, col(3, 1)).wavefronts, 1);
        assert_eq!(quad3d(8, col(2, 2)).wavefronts, 2);
        assert_eq!(quad3d(8, col(32, 2)).wavefronts, 1);
        // f32x2_col_h7_x7_y0_n4: across a tag block along x too, 12 tags, 3.
        let c = quad3d(8, |l| cube(7, l, 3));
        assert_eq!((c.set_accesses, c.wavefronts), (12, 3));
        // f32x2_col_h3_x5_y0_n4: bilinear in x and y, one slice: 3 tags, 2 wavefronts.
        let c = quad3d(8, |l| {
            cube(5, l, 3).into_iter().filter(|t| t[2] == 3).collect()
        });
        assert_eq!((c.set_accesses, c.wavefronts), (3, 2));
    }

    /// run4's `pz_*`: point-sampled slices of opposite parity share a wavefront.
    #[test]
    fn point_slices_of_opposite_parity_share_a_wavefront() {
        let mut s = Splitter::default();
        for (zs, waves) in [
            (vec![0, 1], 1),
            (vec![0, 3], 1),
            (vec![0, 2], 2),
            (vec![0, 16], 2),
            (vec![0, 1, 2, 3], 2),
            (vec![0, 2, 4, 6], 4),
        ] {
            let c = warp3d(&mut s, |l| {
                zs.get(l as usize)
                    .map(|&z| vec![[0, 0, z]])
                    .unwrap_or_default()
            });
            assert_eq!(c.wavefronts, waves, "slices {zs:?}");
        }
    }

    /// run4's `mask_ABCD_3`, `_9` and `_6`: lanes 0-3 at 32-byte columns 0, 2, 4 and 6 (all of
    /// even x parity), two slices each. Lanes 0 and 1 share a pass and conflict once; lanes 0
    /// and 3, or 1 and 2, are in different passes and do not (H200: 1, 0, 0).
    #[test]
    fn set_conflicts_are_counted_per_pass() {
        let mut s = Splitter::default();
        for (lanes, conflicts) in [([0, 1], 1), ([0, 3], 0), ([1, 2], 0)] {
            let c = warp3d(&mut s, |l| {
                if lanes.contains(&l) {
                    cube(16 * l, 0, 0)
                } else {
                    vec![]
                }
            });
            assert_eq!(
                (c.set_accesses, c.set_conflicts),
                (4, conflicts),
                "{lanes:?}"
            );
        }
    }

    /// tests/hw/h200/texture_mem/ncu/tex_probe.csv: `f32_1d_point_stride32` (lanes 128 bytes
    /// apart: a quad's 4 tag blocks in one set, 3 conflicts per request, 49,152 for 16,384
    /// requests), `f32_point_row` (one block per quad: 0) and `f32_3d_point_colz` (a quad down
    /// z: slices of alternating parity, so 2 blocks per set, 1 conflict per request, 16,384).
    #[test]
    fn texel_sets_are_the_x_and_y_parity_flipped_in_odd_slices() {
        let mut s = Splitter::default();
        let c = warp(&mut s, TexAccess::Texture, |l| vec![(32 * l, 0)]);
        assert_eq!((c.requests, c.set_accesses, c.set_conflicts), (8, 32, 24));
        let c = warp(&mut s, TexAccess::Texture, |l| vec![(l, 0)]);
        assert_eq!((c.requests, c.set_conflicts), (8, 0));
        let c = warp3d(&mut s, |l| vec![[0, 0, l]]);
        assert_eq!((c.requests, c.set_accesses, c.set_conflicts), (8, 32, 8));
    }

    /// run12 (tests/hw/h200/texture_mem/run12, 2D point pairs in a 256 x 256 float array, whose
    /// blocks are 16 GOBs high): `pair2_f32_256_3`, texels (44, 224) and (92, 88), same x and y
    /// parity but GOB rows 28 and 11, no conflict; `pair2_f32_256_0`, (35, 103) and (202, 63),
    /// x parity 0 and 1 in GOB rows 12 and 7, 1 conflict (the H200's counts; without the GOB
    /// row's flip 1 and 0).
    #[test]
    fn texel_sets_flip_the_x_parity_in_odd_gob_rows_of_2d_arrays() {
        let mut s = Splitter::default();
        for (pair, conflicts) in [([(44, 224), (92, 88)], 0), ([(35, 103), (202, 63)], 1)] {
            let c = warp(&mut s, TexAccess::Texture, |l| {
                pair.get(l as usize).map(|&p| vec![p]).unwrap_or_default()
            });
            assert_eq!(
                (c.requests, c.set_accesses, c.set_conflicts),
                (1, 2, conflicts)
            );
        }
    }

    /// run9's `f32x4_2d_pt_row_h0_m0000000f` and `f32x4_pt_row_h0_m0000000f`: four 16-byte
    /// texels 32 bytes apart in row 0 (tag blocks 0 to 3, the last two in the next GOB column)
    /// make no conflict in a 2D array, whose GOB column flips the y parity of 16-byte texels
    /// (run12 `rnd2_f32x4_256_*`), and 1 in slice 0 of a 3D array.
    #[test]
    fn sixteen_byte_2d_texels_flip_the_y_parity_in_odd_gob_columns() {
        let mut s = Splitter::default();
        for (volume, conflicts) in [(false, 0), (true, 1)] {
            s.clear();
            for lane in 0..4u8 {
                let x_byte = 32 * u64::from(lane);
                s.push(
                    lane,
                    Texel {
                        addr: x_byte,
                        bytes: 16,
                        x_byte,
                        y: 0,
                        z: 0,
                        pitch_linear: false,
                        volume,
                        block_gob: 0,
                    },
                );
            }
            let c = s.finish(TexAccess::Texture);
            assert_eq!(
                (c.set_accesses, c.set_conflicts),
                (4, conflicts),
                "volume {volume}"
            );
        }
    }

    /// run5 (tests/hw/h200/texture_mem/run5): `n5_s128B` (lines 0-4: lines 0 and 4 share set
    /// 0, 1 conflict; 8 sets would give 0), `n8_s128B` (lines 0-7: 2 per set, 1) and `n3_s256B`
    /// (lines 0, 2, 4: 1), all in one 8-lane request.
    #[test]
    fn fetch_sets_are_address_bits_7_and_8() {
        let mut s = Splitter::default();
        for (idx, tags) in [
            (vec![0u64, 32, 64, 96, 128], 5),
            (vec![0, 32, 64, 96, 128, 160, 192, 224], 8),
            (vec![0, 64, 128], 3),
        ] {
            s.clear();
            for (lane, i) in idx.iter().enumerate() {
                let x_byte = 4 * i;
                s.push(
                    lane as u8,
                    Texel {
                        addr: (1 << 20) + x_byte,
                        bytes: 4,
                        x_byte,
                        y: 0,
                        z: 0,
                        pitch_linear: false,
                        volume: false,
                        block_gob: 0,
                    },
                );
            }
            let c = s.finish(TexAccess::Fetch);
            assert_eq!(
                (c.requests, c.set_accesses, c.set_conflicts),
                (1, tags, 1),
                "{idx:?}"
            );
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

    /// tex1Dfetch of floats at element indices (`None`: lane inactive); wavefronts.
    fn fetch_waves(s: &mut Splitter, idx: &[Option<u64>]) -> u64 {
        s.clear();
        for (lane, i) in idx.iter().enumerate() {
            if let Some(i) = *i {
                s.push(
                    lane as u8,
                    Texel {
                        addr: (1 << 24) + 4 * i,
                        bytes: 4,
                        x_byte: 4 * i,
                        y: 0,
                        z: 0,
                        pitch_linear: false,
                        volume: false,
                        block_gob: 0,
                    },
                );
            }
        }
        s.finish(TexAccess::Fetch).wavefronts
    }

    /// The pair-class rule against launches the H200 counted (tests/hw/h200/texture_mem/run11
    /// and run8/call2; the element of word w of line L is 32 L + w).
    #[test]
    fn fetch_wavefronts_follow_the_pair_class_rule() {
        let mut s = Splitter::default();
        let (b, d) = (0x2000 * 32, 0x2001 * 32);
        let e = |l: u64, w: u64| Some(l + w);
        let n = None;
        let h200: [(&str, Vec<Option<u64>>, u64); 9] = [
            // Other lanes: a conflict on different lines at one 8-byte position only.
            ("pr_02_BD_0_1", vec![e(b, 0), n, e(d, 1)], 2),
            ("pr_02_BD_0_2", vec![e(b, 0), n, e(d, 2)], 1),
            ("pr_02_BB_0_16", vec![e(b, 0), n, e(b, 16)], 1),
            // A pair: a conflict where address bits 3 and 5 are equal, one line or two.
            ("pr_01_BB_0_4", vec![e(b, 0), e(b, 4)], 2),
            ("pr_01_BD_5_8", vec![e(b, 5), e(d, 8)], 1),
            ("pr_01_BD_0_17", vec![e(b, 0), e(d, 17)], 2),
            // Lane 1 is split: lane 2 cannot join it, though it reads the same element.
            ("t3_012_acc", vec![e(b, 0), e(d, 0), e(d, 0)], 3),
            // Split lanes 1 and 3 share a wavefront (run8/call2 q4_0123_0002).
            (
                "q4_0123_0002",
                vec![e(16 * 32, 0), e(37 * 32, 0), e(74 * 32, 0), e(127 * 32, 16)],
                3,
            ),
            // Two lines in each of two L1 sets: two tag passes of two conflicting lanes.
            (
                "gg_p6_none_n",
                vec![e(b, 0), e(b + 4 * 32, 0), e(d, 0), e(d + 4 * 32, 0)],
                4,
            ),
        ];
        for (name, idx, want) in h200 {
            assert_eq!(fetch_waves(&mut s, &idx), want, "{name}");
        }
    }

    /// Quads whose pairing the H200 decided in run14 (tests/hw/h200/texture_mem/run14, sectors,
    /// tags and conflicts of one pairing only): each lane's lowest texel (x, y, z) of its
    /// trilinear footprint (2 x 2 x 2 texels of a 64 x 64 x 64 or 32 x 16 x 4 f32 array), and
    /// whether the H200 took lanes 0-2/1-3.
    #[test]
    fn column_passes_pick_the_h200_pairing() {
        type Quad = [(u32, u32, u32); 4];
        let h200: [(&str, Quad, bool); 6] = [
            // lane 2 nearer in rows, lane 1 in lane 0's slice: the slice first
            (
                "pm_1_0123",
                [(21, 51, 46), (18, 47, 46), (13, 54, 49), (18, 50, 48)],
                false,
            ),
            // lane 2 in lane 0's slice though 10 rows away, lane 1 9 rows and 30 slices away
            (
                "ax_1_y10",
                [(10, 43, 5), (19, 52, 35), (10, 53, 5), (19, 52, 35)],
                true,
            ),
            // lane 2 in lane 0's slice, 11 rows away; lane 1 one row away in the slice below
            (
                "rs_2",
                [(2, 3, 2), (2, 4, 1), (13, 14, 2), (17, 4, 3)],
                true,
            ),
            // neither in lane 0's slice: the nearer in rows (lane 2, 2 rows against 3)
            (
                "pm_0_0123",
                [(51, 13, 15), (53, 16, 16), (49, 15, 14), (55, 19, 12)],
                true,
            ),
            // as near in rows, lane 2 above lane 0 (y - y0 = -2): lanes 0 and 2
            (
                "sh_8_0",
                [(36, 25, 19), (38, 23, 18), (29, 23, 25), (30, 26, 23)],
                true,
            ),
            // as near in rows (the same row): lanes 0 and 1
            (
                "re_3",
                [(16, 0, 2), (10, 0, 1), (15, 0, 3), (3, 1, 0)],
                false,
            ),
        ];
        for (name, lanes, want) in h200 {
            let mut texels = Vec::new();
            for (lane, &(x, y, z)) in lanes.iter().enumerate() {
                for (dx, dy, dz) in (0..8).map(|k| (k & 1, k >> 1 & 1, k >> 2)) {
                    let t = Texel {
                        addr: 0,
                        bytes: 4,
                        x_byte: u64::from(x + dx) * 4,
                        y: y + dy,
                        z: z + dz,
                        pitch_linear: false,
                        volume: true,
                        block_gob: 0,
                    };
                    texels.push((lane as u8, t));
                }
            }
            assert_eq!(column_passes(&texels), want, "{name}");
        }
    }
}
