//! The texture unit: CUDA arrays, texture and surface objects, and what a `tex`, `tld4`,
//! `txq`, `suld` or `sust` returns or writes, bit for bit as on the H200.
//!
//! - [`format`]: channel formats and how a texel decodes (element type, normalized float);
//! - [`array`]: CUDA arrays (functional contents row-major);
//! - [`desc`]: resource and texture descriptors (address modes, filter, read mode);
//! - [`sample`]: address modes and filtering;
//! - [`surface`]: surface loads and stores with their `.trap`/`.clamp`/`.zero` rules;
//! - [`event`]: what the executor reports to an observer per warp-level instruction.
//!
//! [`TexState`] holds a device's arrays and objects. Texture and surface objects are 64-bit
//! handles (`cudaTextureObject_t`, `cudaSurfaceObject_t`) passed to kernels as `.u64`
//! parameters; a handle is the object's index plus one, so 0 is never valid.
//!
//! # The seam for memory models
//! The executor calls [`crate::exec::simt::Observer::tex`] once per warp-level texture or
//! surface instruction with an [`event::TexRequest`]: per active lane the handle, the geometry
//! of what it addresses ([`event::Geometry`]: array id or linear/pitch base address, width,
//! height, depth, texel bytes, channels) and the texel coordinates it read or wrote after the
//! address mode. The default method does nothing, so observers that do not model the texture
//! path need no change. [`TexState::arrays`] gives every array's geometry up front.

pub mod array;
pub mod desc;
pub mod event;
pub mod format;
pub mod sample;
pub mod surface;

use crate::ir::tex::{Geom, SurfClamp, TexKind, TxqQuery};
use crate::mem::space::GlobalMemory;
use array::CudaArray;
use desc::{AddressMode, ArrayId, FilterMode, Resource, TextureDesc};
use event::{Geometry, ResourceKind, TexLane};
use format::{decode, ChannelFormat, ReadMode};

/// Errors of the texture API (the runtime turns them into CUDA errors).
#[derive(Debug, Clone, PartialEq, thiserror::Error)]
pub enum TexError {
    /// `cudaErrorInvalidValue` and its reason.
    #[error("{0}")]
    Invalid(String),
}

/// A texture or surface object.
#[derive(Clone, Debug, PartialEq)]
pub enum Object {
    /// `cudaCreateTextureObject`.
    Texture {
        /// What it reads.
        resource: Resource,
        /// How it samples.
        desc: TextureDesc,
    },
    /// `cudaCreateSurfaceObject` of an array.
    Surface {
        /// The array.
        array: ArrayId,
    },
    /// Destroyed: a handle that is no longer valid.
    Destroyed,
}

/// Why a lane's texture or surface access failed (the executor reports it as a fault of the
/// kernel, with block, thread and line).
#[derive(Debug, Clone, PartialEq)]
pub enum TexFault {
    /// The handle names no live object of the right kind.
    BadHandle {
        /// The handle.
        handle: u64,
        /// "texture" or "surface".
        want: &'static str,
    },
    /// A `.trap` surface access out of range.
    SurfaceOutOfRange {
        /// The byte x and the y, z coordinates.
        coords: [i32; 3],
        /// The surface's extent in bytes (x) and texels (y, z).
        extent: [u64; 3],
    },
    /// A surface access whose byte x is not a multiple of its size.
    Misaligned {
        /// Byte x.
        x: i32,
        /// Access size.
        size: u32,
    },
}

impl std::fmt::Display for TexFault {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            TexFault::BadHandle { handle, want } => {
                write!(f, "{handle:#x} is not a live {want} object handle")
            }
            TexFault::SurfaceOutOfRange { coords, extent } => write!(
                f,
                "surface access at byte x {}, y {}, z {} is outside the surface ({} bytes x {} x {}) with .trap (cudaBoundaryModeTrap)",
                coords[0], coords[1], coords[2], extent[0], extent[1], extent[2]
            ),
            TexFault::Misaligned { x, size } => write!(
                f,
                "surface access of {size} bytes at byte x {x} is misaligned"
            ),
        }
    }
}

/// A device's CUDA arrays and texture and surface objects.
#[derive(Clone, Debug, Default)]
pub struct TexState {
    arrays: Vec<CudaArray>,
    objects: Vec<Object>,
}

impl TexState {
    /// Nothing allocated.
    pub fn new() -> Self {
        Self::default()
    }

    /// The arrays, by id.
    pub fn arrays(&self) -> &[CudaArray] {
        &self.arrays
    }

    /// The array `id`.
    pub fn array(&self, id: ArrayId) -> Option<&CudaArray> {
        self.arrays.get(id as usize)
    }

    /// The array `id`, mutably.
    pub fn array_mut(&mut self, id: ArrayId) -> Option<&mut CudaArray> {
        self.arrays.get_mut(id as usize)
    }

    /// Bytes held by arrays.
    pub fn bytes(&self) -> u64 {
        self.arrays.iter().map(|a| a.data.len() as u64).sum()
    }

    /// Adds an array (`cudaMalloc3DArray`) whose zeroed contents the caller allocated.
    pub fn insert_array(&mut self, a: CudaArray) -> ArrayId {
        self.arrays.push(a);
        (self.arrays.len() - 1) as ArrayId
    }

    /// `cudaCreateTextureObject`: checks the descriptor as CUDA does and returns the handle.
    pub fn create_texture_object(
        &mut self,
        resource: Resource,
        desc: TextureDesc,
    ) -> Result<u64, TexError> {
        let format = match resource {
            Resource::Array(id) => {
                self.array(id)
                    .ok_or_else(|| TexError::Invalid(format!("no CUDA array {id}")))?
                    .format
            }
            Resource::Linear { format, .. } | Resource::Pitch2d { format, .. } => format,
        };
        if desc.read == ReadMode::NormalizedFloat && !format.ty.normalizable() {
            return Err(TexError::Invalid(format!(
                "a {} channel cannot be read as normalized float (cudaReadModeNormalizedFloat is for 8- and 16-bit integer channels)",
                format.ty.name()
            )));
        }
        if desc.filter == FilterMode::Linear && !format::returns_float(format, desc.read) {
            return Err(TexError::Invalid(format!(
                "linear filtering needs a float result: a {} channel read as its element type returns integers (use read = \"normalized_float\" or filter = \"point\")",
                format.ty.name()
            )));
        }
        if !desc.normalized {
            if let Some(m) = desc
                .address
                .iter()
                .find(|m| matches!(m, AddressMode::Wrap | AddressMode::Mirror))
            {
                // CUDA accepts the object and clamps (Programming Guide, "Texture Fetching":
                // wrap and mirror are only supported for normalized coordinates); the spec
                // refuses it, the library keeps CUDA's behaviour.
                let _ = m;
            }
        }
        self.objects.push(Object::Texture { resource, desc });
        Ok(self.objects.len() as u64)
    }

    /// `cudaCreateSurfaceObject` of an array made with `cudaArraySurfaceLoadStore`.
    pub fn create_surface_object(&mut self, array: ArrayId) -> Result<u64, TexError> {
        let a = self
            .array(array)
            .ok_or_else(|| TexError::Invalid(format!("no CUDA array {array}")))?;
        if !a.surface {
            return Err(TexError::Invalid(format!(
                "CUDA array '{}' was not allocated with cudaArraySurfaceLoadStore",
                a.name
            )));
        }
        self.objects.push(Object::Surface { array });
        Ok(self.objects.len() as u64)
    }

    /// `cudaDestroyTextureObject` / `cudaDestroySurfaceObject`.
    pub fn destroy(&mut self, handle: u64) -> bool {
        match self.objects.get_mut((handle as usize).wrapping_sub(1)) {
            Some(o) if *o != Object::Destroyed => {
                *o = Object::Destroyed;
                true
            }
            _ => false,
        }
    }

    /// The object behind a handle.
    pub fn object(&self, handle: u64) -> Option<&Object> {
        let i = usize::try_from(handle).ok()?.checked_sub(1)?;
        self.objects.get(i)
    }

    /// The geometry of a resource, for [`event::TexLane`].
    pub fn geometry(&self, r: &Resource) -> Geometry {
        match *r {
            Resource::Array(id) => {
                let a = &self.arrays[id as usize];
                let [w, h, d] = a.extent();
                Geometry {
                    kind: ResourceKind::Array(id),
                    base: 0,
                    pitch: a.row_bytes(),
                    width: w,
                    height: h,
                    depth: d,
                    texel_bytes: a.format.texel_bytes(),
                    channels: u32::from(a.format.channels),
                }
            }
            Resource::Linear {
                addr,
                format,
                size_bytes,
            } => Geometry {
                kind: ResourceKind::Linear,
                base: addr,
                pitch: size_bytes,
                width: (size_bytes / u64::from(format.texel_bytes())) as u32,
                height: 1,
                depth: 1,
                texel_bytes: format.texel_bytes(),
                channels: u32::from(format.channels),
            },
            Resource::Pitch2d {
                addr,
                format,
                width,
                height,
                pitch,
            } => Geometry {
                kind: ResourceKind::Pitch2d,
                base: addr,
                pitch,
                width,
                height,
                depth: 1,
                texel_bytes: format.texel_bytes(),
                channels: u32::from(format.channels),
            },
        }
    }

    /// One lane of a `tex`, `tld4` or `txq`: the four result words (one for `txq`), with the
    /// texels it read recorded in `lane`.
    #[allow(clippy::too_many_arguments)]
    pub fn fetch(
        &self,
        global: &GlobalMemory,
        kind: TexKind,
        geom: Geom,
        int_coords: bool,
        handle: u64,
        coords: [u32; 4],
        lod: Option<f32>,
        lane: &mut TexLane,
    ) -> Result<[u32; 4], TexFault> {
        let Some(Object::Texture { resource, desc }) = self.object(handle) else {
            return Err(TexFault::BadHandle {
                handle,
                want: "texture",
            });
        };
        let _ = lod; // only level 0 exists: arrays here have no mipmaps
        lane.handle = handle;
        lane.geometry = self.geometry(resource);
        lane.n = 0;
        lane.linear = false;
        let g = lane.geometry;
        let format = match resource {
            Resource::Array(id) => self.arrays[*id as usize].format,
            Resource::Linear { format, .. } | Resource::Pitch2d { format, .. } => *format,
        };
        if let TexKind::Txq(q) = kind {
            return Ok([txq(q, &g, format, desc), 0, 0, 0]);
        }
        let extent = [g.width, g.height, g.depth];
        // Reads one texel's bytes, recording it.
        let texels = &mut lane.texels;
        let n = &mut lane.n;
        let mut texel = |ix: [u32; 3]| -> Option<&[u8]> {
            let bytes = self.texel_bytes(resource, global, ix)?;
            if (*n as usize) < texels.len() {
                texels[*n as usize] = ix;
                *n += 1;
            }
            Some(bytes)
        };
        // Coordinates past the layer index.
        let first = usize::from(geom.layered());
        let dims = geom.dims();
        if int_coords {
            // Integer texel indices: no filtering, no normalization.
            let mut ix = [0u32; 3];
            for (k, slot) in ix.iter_mut().enumerate().take(dims) {
                let i = coords[first + k] as i32;
                let n = extent[k];
                let inside = i >= 0 && (i as u32) < n;
                *slot = match resource {
                    Resource::Linear { .. } if !inside => return Ok([0; 4]),
                    _ => match sample::address(i64::from(i), n, desc.address[k]) {
                        Some(v) => v,
                        None => return Ok(sample::border_texel(desc, format).w),
                    },
                };
            }
            return Ok(texel(ix).map_or([0; 4], |b| decode(format, desc.read, b).w));
        }
        let linear = desc.filter == FilterMode::Linear || matches!(kind, TexKind::Tld4(_));
        // Counters only: what the fetch returns does not depend on it.
        lane.linear = linear;
        let mut axes = [sample::Axis {
            i0: Some(0),
            i1: Some(0),
            a: 0,
        }; 3];
        for (k, ax) in axes.iter_mut().enumerate().take(dims) {
            let c = f32::from_bits(coords[first + k]);
            *ax = sample::axis(c, extent[k], desc, k, linear);
        }
        // A 1D texture is sampled as a 2D one of one row at y = 0 (measured: with linear
        // filtering and `Border`, a 1D fetch is half border colour, the row above the texture
        // weighing 1/2).
        let dims = if dims == 1 {
            axes[1] = sample::axis(0.0, 1, desc, 1, linear);
            2
        } else {
            dims
        };
        if let TexKind::Tld4(comp) = kind {
            // (i0, j1), (i1, j1), (i1, j0), (i0, j0) (PTX ISA 9.7.10.5 "tld4").
            let border = sample::border_texel(desc, format);
            let [ax, ay, _] = axes;
            let mut out = [0u32; 4];
            for (k, (x, y)) in [
                (ax.i0, ay.i1),
                (ax.i1, ay.i1),
                (ax.i1, ay.i0),
                (ax.i0, ay.i0),
            ]
            .into_iter()
            .enumerate()
            {
                let t = match (x, y) {
                    (Some(x), Some(y)) => {
                        texel([x, y, 0]).map_or(border, |b| decode(format, desc.read, b))
                    }
                    _ => border,
                };
                out[k] = t.w[comp as usize];
            }
            return Ok(out);
        }
        Ok(sample::filter(desc, format, &axes[..dims], &mut texel))
    }

    /// The bytes of texel `ix` of a resource (`None` outside linear memory's allocation).
    fn texel_bytes<'m>(
        &'m self,
        r: &Resource,
        global: &'m GlobalMemory,
        ix: [u32; 3],
    ) -> Option<&'m [u8]> {
        match *r {
            Resource::Array(id) => {
                let a = &self.arrays[id as usize];
                let o = a.offset(ix[0], ix[1], ix[2]);
                a.data.get(o..o + a.format.texel_bytes() as usize)
            }
            Resource::Linear { addr, format, .. } => {
                let tb = u64::from(format.texel_bytes());
                global.slice(addr + u64::from(ix[0]) * tb, tb)
            }
            Resource::Pitch2d {
                addr,
                format,
                pitch,
                ..
            } => {
                let tb = u64::from(format.texel_bytes());
                global.slice(addr + u64::from(ix[1]) * pitch + u64::from(ix[0]) * tb, tb)
            }
        }
    }

    /// One lane of a `suld.b` (`store = None`) or `sust.b` (`store = Some(bytes)`) of `size`
    /// bytes at byte x `coords[0]` (and texel y, z). A load writes `out`.
    #[allow(clippy::too_many_arguments)]
    pub fn surface(
        &mut self,
        handle: u64,
        geom: Geom,
        clamp: SurfClamp,
        coords: [i32; 3],
        size: u32,
        store: Option<&[u8]>,
        out: &mut [u8],
        lane: &mut TexLane,
    ) -> Result<(), TexFault> {
        let Some(&Object::Surface { array }) = self.object(handle) else {
            return Err(TexFault::BadHandle {
                handle,
                want: "surface",
            });
        };
        lane.handle = handle;
        lane.geometry = self.geometry(&Resource::Array(array));
        lane.n = 0;
        lane.linear = false;
        let a = &mut self.arrays[array as usize];
        surface::access(a, geom.dims(), clamp, coords, size, store, out, lane)
    }
}

/// A `txq` result (PTX ISA 9.7.10.4; the values of the enumerations are the H200's).
fn txq(q: TxqQuery, g: &Geometry, f: ChannelFormat, d: &TextureDesc) -> u32 {
    match q {
        TxqQuery::Width => g.width,
        TxqQuery::Height => g.height,
        TxqQuery::Depth => g.depth,
        TxqQuery::ChannelDataType => f.ty.cuda_kind(),
        TxqQuery::ChannelOrder => u32::from(f.channels),
        TxqQuery::NormalizedCoords => u32::from(d.normalized),
        TxqQuery::FilterMode => d.filter as u32,
        TxqQuery::AddrMode(k) => d.address[k as usize].cuda_value(),
        TxqQuery::ArraySize => 0,
        TxqQuery::NumMipmapLevels => 1,
        TxqQuery::NumSamples => 0,
    }
}
