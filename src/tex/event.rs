//! What the executor tells an [`crate::exec::simt::Observer`] about one warp-level texture or
//! surface instruction ([`TexRequest`]): per active lane, the resource it addressed (with its
//! geometry, so that a memory model can place texels without asking anyone) and the texels it
//! read or wrote, as integer texel coordinates after the address mode. Border texels and
//! fetches that read no memory (`txq`, `.zero` surface accesses out of range) list no texels.

/// The instruction kind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TexOp {
    /// `tex` on a CUDA array or pitch-2D memory (`tex1D/2D/3D`, `tex2DLod`).
    Tex,
    /// `tex.1d` with integer coordinates on linear memory (`tex1Dfetch`).
    Fetch,
    /// `tld4` (`tex2Dgather`).
    Tld4,
    /// `txq`.
    Txq,
    /// `suld.b`.
    Suld,
    /// `sust.b`.
    Sust,
}

/// Where a texture or surface keeps its texels.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ResourceKind {
    /// A CUDA array (index in the device's texture state; block-linear on the hardware).
    Array(u32),
    /// Linear global memory at `base` (`cudaResourceTypeLinear`).
    Linear,
    /// Pitch-2D global memory at `base`, `pitch` bytes per row.
    Pitch2d,
}

/// A resource's geometry.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Geometry {
    /// Array, linear or pitch memory.
    pub kind: ResourceKind,
    /// Device address of texel (0, 0, 0) for linear and pitch memory; 0 for arrays.
    pub base: u64,
    /// Bytes per row for pitch memory (and `width * texel_bytes` for the others).
    pub pitch: u64,
    /// Width in texels.
    pub width: u32,
    /// Height (1 for 1D).
    pub height: u32,
    /// Depth (1 for 1D and 2D).
    pub depth: u32,
    /// Bytes per texel.
    pub texel_bytes: u32,
    /// Channels per texel.
    pub channels: u32,
}

/// The texels one lane touched.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TexLane {
    /// Lane index (0-31).
    pub lane: u8,
    /// The texture object or surface object handle.
    pub handle: u64,
    /// Its resource.
    pub geometry: Geometry,
    /// How many entries of `texels` are used (0 to 8: trilinear filtering reads 8).
    pub n: u8,
    /// A floating-point fetch of a linear-filtered texture or a `tld4`: filtered even where the
    /// filter's weights leave one texel (exactly on a texel centre), which the texture pipe
    /// may still cost as filtered ([`crate::mem::texture::request`]).
    pub linear: bool,
    /// Texel coordinates (x, y, z), after the address mode.
    pub texels: [[u32; 3]; 8],
}

impl TexLane {
    /// The texels used.
    pub fn texels(&self) -> &[[u32; 3]] {
        &self.texels[..self.n as usize]
    }
}

/// One warp-level texture or surface instruction.
#[derive(Clone, Copy, Debug)]
pub struct TexRequest<'a> {
    /// The issuing warp's index in its block.
    pub warp: u32,
    /// The instruction's index in its kernel (its source line is the kernel's `info[pc]`).
    pub pc: u32,
    /// What it does.
    pub op: TexOp,
    /// Bytes the instruction reads or writes per lane (surfaces: the vector's bytes; textures:
    /// 16, the four result words).
    pub width: u32,
    /// Active lanes whose guard passed, lowest first.
    pub lanes: &'a [TexLane],
}
