//! The CUDA runtime's texture and surface calls on a [`Device`]: `cudaMallocArray`,
//! `cudaMalloc3DArray`, `cudaMemcpy2DToArray`, `cudaMemcpy2DFromArray`,
//! `cudaCreateChannelDesc`, `cudaCreateTextureObject`, `cudaCreateSurfaceObject` and their
//! destroy calls, with CUDA's names and checks. The texture unit itself is [`crate::tex`].
//!
//! Size limits are the H200's (compute capability 9.0; CUDA C++ Programming Guide, "Features
//! and Technical Specifications", table "Technical Specifications per Compute Capability").

use super::{Device, RuntimeError};
use crate::tex::array::CudaArray;
use crate::tex::desc::{ArrayId, Resource, TextureDesc};
use crate::tex::format::{ChannelFormat, ChannelType};

/// Maximum width of a 1D CUDA array bound to a texture (cc 9.0: 131,072).
pub const MAX_TEXTURE_1D: u32 = 131_072;
/// Maximum width and height of a 2D CUDA array (cc 9.0: 131,072 x 65,536).
pub const MAX_TEXTURE_2D: [u32; 2] = [131_072, 65_536];
/// Maximum extent of a 3D CUDA array (cc 9.0: 16,384 in each dimension).
pub const MAX_TEXTURE_3D: u32 = 16_384;
/// Maximum texels of a texture bound to linear memory (cc 9.0: 2^28).
pub const MAX_TEXTURE_1D_LINEAR: u64 = 1 << 28;
/// Maximum width and height of a pitch-2D texture (cc 9.0: 131,072 x 65,000).
pub const MAX_TEXTURE_2D_LINEAR: [u32; 2] = [131_072, 65_000];
/// `cudaDeviceProp::texturePitchAlignment` (32 bytes on the H200).
pub const TEXTURE_PITCH_ALIGNMENT: u64 = 32;
/// `cudaDeviceProp::textureAlignment` (512 bytes): base addresses of linear textures.
pub const TEXTURE_ALIGNMENT: u64 = 512;

/// `cudaCreateChannelDesc(x, y, z, w, kind)`: the format of `x`-bit channels of `kind`
/// (0 signed, 1 unsigned, 2 float); the channel count is the number of non-zero widths, which
/// must all equal `x`, and be 1, 2 or 4.
pub fn create_channel_desc(bits: [u32; 4], kind: u32) -> Result<ChannelFormat, RuntimeError> {
    let invalid = |m: String| RuntimeError::Cuda {
        error: crate::runtime::CudaError::InvalidChannelDescriptor,
        message: m,
    };
    let n = bits.iter().take_while(|&&b| b != 0).count();
    if bits[n..].iter().any(|&b| b != 0) || bits[..n].iter().any(|&b| b != bits[0]) {
        return Err(invalid(format!(
            "channel widths {bits:?}: gpumemsim supports channels of one width"
        )));
    }
    let ty = match (kind, bits[0]) {
        (1, 8) => ChannelType::U8,
        (0, 8) => ChannelType::I8,
        (1, 16) => ChannelType::U16,
        (0, 16) => ChannelType::I16,
        (1, 32) => ChannelType::U32,
        (0, 32) => ChannelType::I32,
        (2, 16) => ChannelType::F16,
        (2, 32) => ChannelType::F32,
        _ => return Err(invalid(format!("{}-bit channels of kind {kind}", bits[0]))),
    };
    if !matches!(n, 1 | 2 | 4) {
        return Err(invalid(format!("{n} channels (1, 2 or 4)")));
    }
    Ok(ChannelFormat {
        ty,
        channels: n as u8,
    })
}

fn invalid(message: impl Into<String>) -> RuntimeError {
    RuntimeError::Cuda {
        error: crate::runtime::CudaError::InvalidValue,
        message: message.into(),
    }
}

impl Device {
    /// `cudaMallocArray(&a, &desc, width, height, flags)`: a 1D (`height` 0) or 2D array;
    /// `surface` is `cudaArraySurfaceLoadStore`.
    pub fn malloc_array(
        &mut self,
        name: &str,
        desc: ChannelFormat,
        width: u32,
        height: u32,
        surface: bool,
    ) -> Result<ArrayId, RuntimeError> {
        self.malloc_3d_array(name, desc, [width, height, 0], surface)
    }

    /// `cudaMalloc3DArray(&a, &desc, extent, flags)`: `extent` is (width, height, depth), with
    /// height 0 for 1D and depth 0 for 1D and 2D arrays; the contents are zero.
    pub fn malloc_3d_array(
        &mut self,
        name: &str,
        desc: ChannelFormat,
        extent: [u32; 3],
        surface: bool,
    ) -> Result<ArrayId, RuntimeError> {
        let [w, h, d] = extent;
        let ok = match (w, h, d) {
            (0, _, _) => false,
            (_, 0, 0) => w <= MAX_TEXTURE_1D,
            (_, _, 0) => w <= MAX_TEXTURE_2D[0] && h <= MAX_TEXTURE_2D[1],
            (_, 0, _) => false,
            _ => w <= MAX_TEXTURE_3D && h <= MAX_TEXTURE_3D && d <= MAX_TEXTURE_3D,
        };
        if !ok {
            return Err(invalid(format!(
                "CUDA array '{name}' of {w} x {h} x {d} texels: a 1D array is at most {MAX_TEXTURE_1D} wide, a 2D one {} x {}, a 3D one {MAX_TEXTURE_3D} in each dimension (height 0 for 1D, depth 0 for 1D and 2D)",
                MAX_TEXTURE_2D[0], MAX_TEXTURE_2D[1]
            )));
        }
        let bytes = CudaArray::byte_len(desc, extent).unwrap_or(u64::MAX);
        self.check_memory(&format!("CUDA array '{name}'"), bytes)?;
        let data = super::zeroed(bytes, name)?;
        Ok(self.textures.insert_array(CudaArray {
            name: name.to_string(),
            format: desc,
            width: w,
            height: h,
            depth: d,
            surface,
            data,
        }))
    }

    /// `cudaMemcpy2DToArray(dst, w_offset, h_offset, src, spitch, width, height, kind)`:
    /// `height` rows of `width` bytes from `src`, `spitch` bytes apart, to the array at byte
    /// `w_offset` of row `h_offset`. For a 3D array, rows continue into the following slices
    /// (as `cudaMemcpy3D` with the same pitch does).
    #[allow(clippy::too_many_arguments)]
    pub fn memcpy_2d_to_array(
        &mut self,
        dst: ArrayId,
        w_offset: u64,
        h_offset: u64,
        src: &[u8],
        spitch: u64,
        width: u64,
        height: u64,
    ) -> Result<(), RuntimeError> {
        let a = self
            .textures
            .array_mut(dst)
            .ok_or_else(|| invalid(format!("no CUDA array {dst}")))?;
        let row = a.row_bytes();
        let rows = a.data.len() as u64 / row.max(1);
        if spitch < width
            || w_offset.checked_add(width).is_none_or(|e| e > row)
            || h_offset.checked_add(height).is_none_or(|e| e > rows)
        {
            return Err(invalid(format!(
                "cudaMemcpy2DToArray of {height} rows of {width} bytes at byte {w_offset} of row {h_offset} (source pitch {spitch}) does not fit CUDA array '{}' ({rows} rows of {row} bytes)",
                a.name
            )));
        }
        let need = if height == 0 {
            0
        } else {
            (height - 1).saturating_mul(spitch).saturating_add(width)
        };
        if (src.len() as u64) < need {
            return Err(invalid(format!(
                "cudaMemcpy2DToArray reads {need} source bytes, {} given",
                src.len()
            )));
        }
        for r in 0..height {
            let s = (r * spitch) as usize;
            let d = ((h_offset + r) * row + w_offset) as usize;
            a.data[d..d + width as usize].copy_from_slice(&src[s..s + width as usize]);
        }
        Ok(())
    }

    /// `cudaMemcpy2DFromArray` of the whole array: its texels, row-major, rows unpadded.
    pub fn memcpy_from_array(&self, src: ArrayId) -> Result<Vec<u8>, RuntimeError> {
        self.textures
            .array(src)
            .map(|a| a.data.clone())
            .ok_or_else(|| invalid(format!("no CUDA array {src}")))
    }

    /// `cudaCreateTextureObject(&t, &res, &tex, NULL)`.
    pub fn create_texture_object(
        &mut self,
        resource: Resource,
        desc: TextureDesc,
    ) -> Result<u64, RuntimeError> {
        match resource {
            Resource::Array(_) => {}
            Resource::Linear {
                addr,
                format,
                size_bytes,
            } => {
                if addr % TEXTURE_ALIGNMENT != 0 {
                    return Err(invalid(format!(
                        "a linear texture's address {addr:#x} is not a multiple of textureAlignment ({TEXTURE_ALIGNMENT})"
                    )));
                }
                if size_bytes / u64::from(format.texel_bytes()) > MAX_TEXTURE_1D_LINEAR {
                    return Err(invalid(format!(
                        "a linear texture of {size_bytes} bytes has more than {MAX_TEXTURE_1D_LINEAR} texels"
                    )));
                }
                if self.global.slice(addr, size_bytes).is_none() {
                    return Err(invalid(format!(
                        "{size_bytes} bytes at {addr:#x} are not inside one allocation"
                    )));
                }
            }
            Resource::Pitch2d {
                addr,
                format,
                width,
                height,
                pitch,
            } => {
                let row = u64::from(width) * u64::from(format.texel_bytes());
                if addr % TEXTURE_ALIGNMENT != 0 || pitch % TEXTURE_PITCH_ALIGNMENT != 0 {
                    return Err(invalid(format!(
                        "a pitch-2D texture needs its address ({addr:#x}) a multiple of {TEXTURE_ALIGNMENT} and its pitch ({pitch}) a multiple of texturePitchAlignment ({TEXTURE_PITCH_ALIGNMENT})"
                    )));
                }
                if width == 0
                    || height == 0
                    || width > MAX_TEXTURE_2D_LINEAR[0]
                    || height > MAX_TEXTURE_2D_LINEAR[1]
                    || pitch < row
                {
                    return Err(invalid(format!(
                        "a pitch-2D texture of {width} x {height} texels ({row} bytes a row) with pitch {pitch}: at most {} x {} texels, and the pitch at least a row",
                        MAX_TEXTURE_2D_LINEAR[0], MAX_TEXTURE_2D_LINEAR[1]
                    )));
                }
                let bytes = (u64::from(height) - 1) * pitch + row;
                if self.global.slice(addr, bytes).is_none() {
                    return Err(invalid(format!(
                        "the pitch-2D texture's {bytes} bytes at {addr:#x} are not inside one allocation"
                    )));
                }
            }
        }
        self.textures
            .create_texture_object(resource, desc)
            .map_err(|e| invalid(e.to_string()))
    }

    /// `cudaCreateSurfaceObject` of an array allocated with `cudaArraySurfaceLoadStore`.
    pub fn create_surface_object(&mut self, array: ArrayId) -> Result<u64, RuntimeError> {
        self.textures
            .create_surface_object(array)
            .map_err(|e| invalid(e.to_string()))
    }

    /// `cudaDestroyTextureObject` / `cudaDestroySurfaceObject`.
    pub fn destroy_object(&mut self, handle: u64) -> Result<(), RuntimeError> {
        if self.textures.destroy(handle) {
            Ok(())
        } else {
            Err(RuntimeError::Cuda {
                error: crate::runtime::CudaError::InvalidResourceHandle,
                message: format!("{handle:#x} is not a live texture or surface object"),
            })
        }
    }
}
