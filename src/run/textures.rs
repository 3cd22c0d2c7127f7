//! The spec's CUDA arrays, texture objects and surface objects on the device: allocated and
//! filled before the first step (`cudaMalloc3DArray` + `cudaMemcpy2DToArray` of the initial
//! contents, `cudaCreateTextureObject`, `cudaCreateSurfaceObject`), and arrays read back as
//! outputs.

use super::RunError;
use crate::runtime::Device;
use crate::spec::texture::TexSource;
use crate::spec::{Output, Spec};
use crate::tex::desc::Resource;

fn located(file: &str, key: String, e: impl std::fmt::Display) -> RunError {
    RunError::Launch {
        file: file.to_string(),
        key,
        message: e.to_string(),
    }
}

/// Creates the spec's arrays, textures and surfaces; returns each texture's and surface's
/// name with its handle. `buffers` are the allocated buffers (name, address, bytes).
pub fn create(
    spec: &Spec,
    dev: &mut Device,
    buffers: &[(String, u64, u64)],
    file: &str,
) -> Result<Vec<(String, u64)>, RunError> {
    let mut ids = Vec::new();
    for a in &spec.arrays {
        let key = format!("[arrays.{}]", a.name);
        let id = dev
            .malloc_3d_array(&a.name, a.format, a.extent, a.surface)
            .map_err(|e| located(file, key.clone(), e))?;
        let bytes = a.data.initial_bytes()?;
        let row = u64::from(a.extent[0]) * u64::from(a.format.texel_bytes());
        let rows = u64::from(a.extent[1].max(1)) * u64::from(a.extent[2].max(1));
        dev.memcpy_2d_to_array(id, 0, 0, &bytes, row, row, rows)
            .map_err(|e| located(file, format!("{key} init"), e))?;
        ids.push(id);
    }
    let mut objects = Vec::new();
    for t in &spec.textures {
        let key = format!("[textures.{}]", t.name);
        let addr = |b: usize| {
            let name = &spec.buffers[b].name;
            buffers
                .iter()
                .find(|x| &x.0 == name)
                .map(|x| (x.1, x.2))
                .ok_or_else(|| {
                    located(
                        file,
                        key.clone(),
                        format!("buffer {name:?} is not allocated"),
                    )
                })
        };
        let resource = match t.source {
            TexSource::Array(i) => Resource::Array(ids[i]),
            TexSource::Linear { buffer, format } => {
                let (a, n) = addr(buffer)?;
                Resource::Linear {
                    addr: a,
                    format,
                    size_bytes: n / u64::from(format.texel_bytes())
                        * u64::from(format.texel_bytes()),
                }
            }
            TexSource::Pitch2d {
                buffer,
                format,
                width,
                height,
                pitch,
            } => Resource::Pitch2d {
                addr: addr(buffer)?.0,
                format,
                width,
                height,
                pitch,
            },
        };
        let h = dev
            .create_texture_object(resource, t.desc)
            .map_err(|e| located(file, key, e))?;
        objects.push((t.name.clone(), h));
    }
    for s in &spec.surfaces {
        let h = dev
            .create_surface_object(ids[s.array])
            .map_err(|e| located(file, format!("[surfaces.{}]", s.name), e))?;
        objects.push((s.name.clone(), h));
    }
    Ok(objects)
}

/// The contents of the array an `[outputs]` entry names (texels row-major, rows unpadded).
pub fn array_output(
    spec: &Spec,
    dev: &Device,
    o: &Output,
    file: &str,
) -> Result<Vec<u8>, RunError> {
    let key = format!("[outputs] {}", o.buffer);
    let i = spec
        .arrays
        .iter()
        .position(|a| a.name == o.buffer)
        .ok_or_else(|| located(file, key.clone(), format!("no array named {:?}", o.buffer)))?;
    // Arrays are created first and in spec order, so the array's id is its index.
    dev.memcpy_from_array(i as u32)
        .map_err(|e| located(file, key, e))
}
