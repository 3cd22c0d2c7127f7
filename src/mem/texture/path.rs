//! From the executor's texture events ([`crate::tex::event::TexRequest`]) to the texture pipe's
//! requests: each texel's device address (CUDA arrays block-linear, [`super::layout`]; linear and
//! pitch-2D textures where their buffer is) and its place in texel space.
//!
//! Where arrays live: array `id` at [`ARRAY_BASE`] + (`id` mod 2,048) x 2^40, a modelling choice (the H200's
//! driver places arrays in the same virtual address space as `cudaMalloc`; where exactly cannot be
//! seen from a program). Only which texels share sectors and lines depends on the layout; the
//! base decides nothing but the L2 set and partition, which are hashed.

use super::layout::BlockLinear;
use super::request::{Splitter, TexAccess, TexCost, Texel};
use crate::tex::event::{Geometry, ResourceKind, TexOp, TexRequest};

/// First byte of the region CUDA arrays are placed in (above any `cudaMalloc` address and below
/// the local-memory region of [`crate::sched`]).
pub const ARRAY_BASE: u64 = 1 << 48;
/// Address space per array.
const ARRAY_STRIDE_LOG2: u32 = 40;

/// The texture pipe of one launch: layouts of the arrays seen so far and the request splitter.
#[derive(Clone, Debug, Default)]
pub struct TexturePath {
    layouts: Vec<Option<(Geometry, BlockLinear)>>,
    /// The requests of the last instruction ([`Splitter::lines`], [`Splitter::requests`]).
    pub splitter: Splitter,
}

/// Where array `id`'s texel (0, 0, 0) is.
fn array_base(id: u32) -> u64 {
    ARRAY_BASE + (u64::from(id & 0x7ff) << ARRAY_STRIDE_LOG2)
}

/// The pipe and its memory an instruction uses (`None`: `txq`, which reads no memory).
pub fn access_of(op: TexOp) -> Option<TexAccess> {
    match op {
        TexOp::Tex | TexOp::Tld4 => Some(TexAccess::Texture),
        TexOp::Fetch => Some(TexAccess::Fetch),
        TexOp::Suld => Some(TexAccess::SurfaceLoad),
        TexOp::Sust => Some(TexAccess::SurfaceStore),
        TexOp::Txq => None,
    }
}

impl TexturePath {
    fn layout(&mut self, id: u32, g: &Geometry) -> BlockLinear {
        let i = id as usize;
        if let Some(Some((geo, l))) = self.layouts.get(i) {
            if geo == g {
                return *l;
            }
        }
        let dims = if g.depth > 1 {
            3
        } else if g.height > 1 {
            2
        } else {
            1
        };
        let l = BlockLinear::for_array(g.texel_bytes, [g.width, g.height, g.depth], dims);
        if self.layouts.len() <= i {
            self.layouts.resize(i + 1, None);
        }
        self.layouts[i] = Some((*g, l));
        l
    }

    /// The device byte address of texel `[x, y, z]` of a resource of geometry `g`: block-linear
    /// in a CUDA array ([`BlockLinear`]), row-major at `base` with `pitch` bytes per row in
    /// linear and pitch-2D memory.
    pub fn texel_address(&mut self, g: &Geometry, [x, y, z]: [u32; 3]) -> u64 {
        let x_byte = u64::from(x) * u64::from(g.texel_bytes.max(1));
        match g.kind {
            ResourceKind::Array(id) => {
                let l = self.layout(id, g);
                array_base(id) + l.offset(x_byte, y, z)
            }
            _ => g.base + u64::from(y) * g.pitch + x_byte,
        }
    }

    /// Splits one warp-level instruction into requests; `None` for `txq`. The requests' lines are
    /// left in [`TexturePath::splitter`].
    pub fn instruction(&mut self, req: &TexRequest<'_>) -> Option<(TexAccess, TexCost)> {
        let access = access_of(req.op)?;
        self.splitter.clear();
        for lane in req.lanes {
            let g = lane.geometry;
            let tb = g.texel_bytes.max(1);
            // A linear-filtered fetch of a 2D or 3D array, which the splitter may cost as
            // filtered where it reads one texel ([`Splitter::mark_linear`]).
            if lane.linear && matches!(g.kind, ResourceKind::Array(_)) && g.height > 1 {
                self.splitter.mark_linear(lane.lane);
            }
            let bytes = match access {
                TexAccess::SurfaceLoad | TexAccess::SurfaceStore => req.width.max(1),
                _ => tb,
            };
            for &[x, y, z] in lane.texels() {
                let x_byte = u64::from(x) * u64::from(tb);
                let addr = self.texel_address(&g, [x, y, z]);
                // The GOB's index within its block (tag sets: [`Texel::block_gob`]).
                let block_gob = match g.kind {
                    ResourceKind::Array(id) => {
                        let l = self.layout(id, &g);
                        l.gob_in_block(addr - array_base(id))
                    }
                    _ => 0,
                };
                self.splitter.push(
                    lane.lane,
                    Texel {
                        addr,
                        bytes,
                        x_byte,
                        y,
                        z,
                        pitch_linear: matches!(g.kind, ResourceKind::Pitch2d),
                        volume: g.depth > 1,
                        block_gob,
                    },
                );
            }
        }
        Some((access, self.splitter.finish(access)))
    }
}
