//! CUDA arrays (`cudaMallocArray`, `cudaMalloc3DArray`): texel storage a texture or surface
//! reads. The functional contents are kept row-major here (x fastest, then y, then z); the
//! hardware's block-linear layout only changes which sectors a fetch touches, which the memory
//! models compute from [`CudaArray`]'s geometry.

use super::format::ChannelFormat;

/// A CUDA array.
#[derive(Clone, Debug, PartialEq)]
pub struct CudaArray {
    /// The spec's name, for messages.
    pub name: String,
    /// Texel format.
    pub format: ChannelFormat,
    /// Width in texels.
    pub width: u32,
    /// Height in texels; 0 for a 1D array.
    pub height: u32,
    /// Depth in texels; 0 for a 1D or 2D array.
    pub depth: u32,
    /// `cudaArraySurfaceLoadStore`: may be bound to a surface.
    pub surface: bool,
    /// Texels, row-major.
    pub data: Vec<u8>,
}

impl CudaArray {
    /// 1, 2 or 3.
    pub fn dims(&self) -> u32 {
        if self.depth > 0 {
            3
        } else if self.height > 0 {
            2
        } else {
            1
        }
    }
    /// Extent in each dimension, unused ones 1.
    pub fn extent(&self) -> [u32; 3] {
        [self.width, self.height.max(1), self.depth.max(1)]
    }
    /// Bytes per row (no padding).
    pub fn row_bytes(&self) -> u64 {
        u64::from(self.width) * u64::from(self.format.texel_bytes())
    }
    /// Total bytes (`width * height * depth * texel`), `None` on overflow.
    pub fn byte_len(format: ChannelFormat, extent: [u32; 3]) -> Option<u64> {
        extent
            .iter()
            .try_fold(u64::from(format.texel_bytes()), |a, &e| {
                a.checked_mul(u64::from(e.max(1)))
            })
    }
    /// Byte offset of texel (x, y, z), which must be in range.
    #[inline]
    pub fn offset(&self, x: u32, y: u32, z: u32) -> usize {
        let [w, h, _] = self.extent();
        ((u64::from(z) * u64::from(h) + u64::from(y)) * u64::from(w) + u64::from(x)) as usize
            * self.format.texel_bytes() as usize
    }
}
