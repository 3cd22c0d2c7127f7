//! Decoded texture and surface instructions (PTX ISA 9.7.10 "Texture Instructions": `tex`,
//! `tld4`, `txq`; 9.7.11 "Surface Instructions": `suld`, `sust`).
//!
//! One [`TexInst`] per warp-level instruction; the executor reads the handle and coordinates of
//! each lane and hands them to the texture unit ([`crate::tex`]), which owns every rule of what
//! a fetch returns.

use super::{PredReg, Reg, Src};

/// Texture geometry (`.1d`, `.2d`, `.3d`, `.a1d`, `.a2d`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Geom {
    /// `.1d`: one coordinate.
    D1,
    /// `.2d`: two coordinates.
    D2,
    /// `.3d`: three coordinates (the fourth element of the vector is ignored).
    D3,
    /// `.a1d`: a layer index and one coordinate.
    A1,
    /// `.a2d`: a layer index and two coordinates.
    A2,
}

impl Geom {
    /// Coordinates besides the layer index.
    pub fn dims(self) -> usize {
        match self {
            Geom::D1 | Geom::A1 => 1,
            Geom::D2 | Geom::A2 => 2,
            Geom::D3 => 3,
        }
    }
    /// Whether the first vector element is a layer index.
    pub fn layered(self) -> bool {
        matches!(self, Geom::A1 | Geom::A2)
    }
    /// From the PTX modifier.
    pub fn from_mod(m: &str) -> Option<Geom> {
        Some(match m {
            "1d" => Geom::D1,
            "2d" => Geom::D2,
            "3d" => Geom::D3,
            "a1d" => Geom::A1,
            "a2d" => Geom::A2,
            _ => return None,
        })
    }
}

/// The destination type of a fetch (`.f32`, `.s32`, `.u32`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexDtype {
    /// `.f32`
    F32,
    /// `.s32`
    S32,
    /// `.u32`
    U32,
}

/// `txq` queries (PTX ISA 9.7.10.4).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TxqQuery {
    /// `.width`
    Width,
    /// `.height`
    Height,
    /// `.depth`
    Depth,
    /// `.channel_data_type`
    ChannelDataType,
    /// `.channel_order`
    ChannelOrder,
    /// `.normalized_coords`
    NormalizedCoords,
    /// `.filter_mode`
    FilterMode,
    /// `.addr_mode_0`, `_1`, `_2`
    AddrMode(u8),
    /// `.array_size`
    ArraySize,
    /// `.num_mipmap_levels`
    NumMipmapLevels,
    /// `.num_samples`
    NumSamples,
}

/// Out-of-range handling of a surface access (`.trap`, `.clamp`, `.zero`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SurfClamp {
    /// `.trap`: an access out of range faults.
    Trap,
    /// `.clamp`: the coordinate is clamped to the surface.
    Clamp,
    /// `.zero`: a load returns 0, a store is dropped.
    Zero,
}

/// What a texture or surface instruction does.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TexKind {
    /// `tex` (and `tex.level` with `lod`).
    Tex,
    /// `tld4.{r,g,b,a}`: the component (0-3) of the four texels bilinear filtering would use.
    Tld4(u8),
    /// `txq`.
    Txq(TxqQuery),
    /// `suld.b`: `bytes` per element.
    Suld(SurfClamp),
    /// `sust.b`.
    Sust(SurfClamp),
}

/// One decoded texture or surface instruction.
#[derive(Clone, Debug)]
pub struct TexInst {
    /// What it does.
    pub kind: TexKind,
    /// Geometry (`.1d` for `txq`).
    pub geom: Geom,
    /// Fetch destination type.
    pub dtype: TexDtype,
    /// Coordinates are `.s32` (integer texel indices; for surfaces, x is in bytes).
    pub int_coords: bool,
    /// The texture or surface handle (a 64-bit register or immediate).
    pub handle: Src,
    /// Coordinates in vector order (layer first for `.a1d`/`.a2d`); unused ones are `Imm(0)`.
    pub coords: [Src; 4],
    /// `tex.level`: the level of detail.
    pub lod: Option<Src>,
    /// Destinations (`_` is `None`): 4 for fetches, 1 for `txq`, the vector for `suld`.
    pub d: Vec<Option<Reg>>,
    /// `sust`: the values stored, one per vector element.
    pub s: Vec<Src>,
    /// Surface element size in bytes (`.b8` .. `.b64`) times nothing: the size of one vector
    /// element.
    pub elem_bytes: u8,
    /// `d|p`: the predicate destination of a `tex` or `tld4` (whether the texel is resident:
    /// always true here).
    pub pred: Option<PredReg>,
}
