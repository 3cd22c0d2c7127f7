//! Resource and texture descriptors (`cudaResourceDesc`, `cudaTextureDesc`): what a texture
//! object reads and how it samples.

use super::format::{ChannelFormat, ReadMode};

/// `cudaTextureAddressMode` (CUDA C++ Programming Guide, "Texture Fetching": wrap and mirror
/// are only supported for normalized coordinates).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum AddressMode {
    /// `cudaAddressModeWrap` (0): the coordinate's fraction.
    Wrap,
    /// `cudaAddressModeClamp` (1): clamped to the texture.
    Clamp,
    /// `cudaAddressModeMirror` (2): reflected at every edge.
    Mirror,
    /// `cudaAddressModeBorder` (3): outside texels read the border colour.
    Border,
}

impl AddressMode {
    /// The spec's name.
    pub fn name(self) -> &'static str {
        match self {
            AddressMode::Wrap => "wrap",
            AddressMode::Clamp => "clamp",
            AddressMode::Mirror => "mirror",
            AddressMode::Border => "border",
        }
    }
    /// From the spec's name.
    pub fn from_name(s: &str) -> Option<AddressMode> {
        [
            AddressMode::Wrap,
            AddressMode::Clamp,
            AddressMode::Mirror,
            AddressMode::Border,
        ]
        .into_iter()
        .find(|m| m.name() == s)
    }
    /// `cudaTextureAddressMode`'s value.
    pub fn cuda_value(self) -> u32 {
        self as u32
    }
}

/// `cudaTextureFilterMode`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum FilterMode {
    /// `cudaFilterModePoint` (0): the nearest texel.
    Point,
    /// `cudaFilterModeLinear` (1): (bi/tri)linear interpolation, 8-bit fraction weights.
    Linear,
}

/// `cudaTextureDesc`: how a texture object samples.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct TextureDesc {
    /// Per dimension (x, y, z).
    pub address: [AddressMode; 3],
    /// Point or linear.
    pub filter: FilterMode,
    /// Element type or normalized float.
    pub read: ReadMode,
    /// Coordinates in [0, 1) instead of texels.
    pub normalized: bool,
    /// `borderColor`: what `Border` reads outside the texture, per channel.
    pub border: [f32; 4],
}

impl Default for TextureDesc {
    /// A `memset(&desc, 0, ...)` descriptor: wrap, point, element type, unnormalized.
    fn default() -> Self {
        TextureDesc {
            address: [AddressMode::Wrap; 3],
            filter: FilterMode::Point,
            read: ReadMode::ElementType,
            normalized: false,
            border: [0.0; 4],
        }
    }
}

/// The index of a CUDA array in the device's texture state.
pub type ArrayId = u32;

/// `cudaResourceDesc`: what a texture object reads.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum Resource {
    /// `cudaResourceTypeArray`: a CUDA array.
    Array(ArrayId),
    /// `cudaResourceTypeLinear`: `size_bytes` of global memory at `addr` (`tex1Dfetch`).
    Linear {
        /// Device address.
        addr: u64,
        /// Texel format.
        format: ChannelFormat,
        /// `sizeInBytes`.
        size_bytes: u64,
    },
    /// `cudaResourceTypePitch2D`: rows of `pitch` bytes in global memory.
    Pitch2d {
        /// Device address of row 0.
        addr: u64,
        /// Texel format.
        format: ChannelFormat,
        /// Texels per row.
        width: u32,
        /// Rows.
        height: u32,
        /// Bytes from one row to the next.
        pitch: u64,
    },
}
