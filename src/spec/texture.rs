//! `[arrays.X]`, `[textures.X]` and `[surfaces.X]`: CUDA arrays (`cudaMallocArray`,
//! `cudaMalloc3DArray` + `cudaMemcpy2DToArray`), texture objects (`cudaCreateTextureObject`)
//! and surface objects (`cudaCreateSurfaceObject`).
//!
//! ```toml
//! [arrays.img]                  # cudaMallocArray / cudaMalloc3DArray + cudaMemcpy2DToArray
//! type = "f32"                  # channel type: u8 i8 u16 i16 u32 i32 f16 f32
//! channels = 1                  # 1, 2 or 4
//! width = 1024
//! height = 1024                 # omit for 1D; depth = N for 3D
//! init = "iota"                 # as for buffers, channel by channel in row-major order
//! [textures.tex]                # cudaCreateTextureObject
//! array = "img"                 # or: buffer = "buf" (linear) / pitch2d = { buffer = "buf", width = W, height = H, pitch = P }
//! address = ["wrap", "wrap"]    # wrap | clamp | mirror | border, per dimension
//! filter = "linear"             # point | linear
//! normalized = true
//! read = "element"              # element | normalized_float
//! border = [0.0, 0.0, 0.0, 0.0]
//! [surfaces.surf]               # cudaCreateSurfaceObject (the array gets cudaArraySurfaceLoadStore)
//! array = "img"
//! ```
//!
//! A texture over `buffer` or `pitch2d` reads the buffer's elements as texels of its own
//! `type` and `channels` (default: the buffer's element type, one channel). `address` gives
//! one mode per dimension; a shorter list repeats its last entry, and the default is `clamp`.
//! Texture and surface names are kernel arguments (`cudaTextureObject_t`,
//! `cudaSurfaceObject_t`: 64-bit handles), and arrays may be `[outputs]`.

use super::{load_data, Ctx, ElemType, RawData, SpecError};
use crate::tex::desc::{AddressMode, FilterMode, TextureDesc};
use crate::tex::format::{ChannelFormat, ChannelType, ReadMode};
use serde::Deserialize;
use std::collections::BTreeMap;

/// A CUDA array of the spec.
#[derive(Clone, Debug, PartialEq)]
pub struct ArraySpec {
    /// Its name.
    pub name: String,
    /// Texel format.
    pub format: ChannelFormat,
    /// Width, height (0 for 1D), depth (0 for 1D and 2D), in texels.
    pub extent: [u32; 3],
    /// Bound to a surface: allocated with `cudaArraySurfaceLoadStore`.
    pub surface: bool,
    /// Initial contents: `width * height * depth * channels` elements of the channel type.
    pub data: super::Buffer,
}

/// What a texture reads.
#[derive(Clone, Debug, PartialEq)]
pub enum TexSource {
    /// `array = "NAME"`: index into `Spec::arrays`.
    Array(usize),
    /// `buffer = "NAME"`: index into `Spec::buffers`, read as `format` texels.
    Linear {
        /// The buffer.
        buffer: usize,
        /// Texel format.
        format: ChannelFormat,
    },
    /// `pitch2d = { buffer, width, height, pitch }`.
    Pitch2d {
        /// The buffer.
        buffer: usize,
        /// Texel format.
        format: ChannelFormat,
        /// Texels per row.
        width: u32,
        /// Rows.
        height: u32,
        /// Bytes from row to row.
        pitch: u64,
    },
}

/// A texture object of the spec.
#[derive(Clone, Debug, PartialEq)]
pub struct TextureSpec {
    /// Its name (a kernel argument).
    pub name: String,
    /// What it reads.
    pub source: TexSource,
    /// How it samples.
    pub desc: TextureDesc,
}

/// A surface object of the spec.
#[derive(Clone, Debug, PartialEq)]
pub struct SurfaceSpec {
    /// Its name (a kernel argument).
    pub name: String,
    /// Index into `Spec::arrays`.
    pub array: usize,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawArray {
    #[serde(rename = "type")]
    ty: String,
    channels: Option<i64>,
    width: i64,
    height: Option<i64>,
    depth: Option<i64>,
    init: Option<String>,
    values: Option<Vec<toml::Value>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawPitch {
    buffer: String,
    width: i64,
    height: i64,
    pitch: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawTexture {
    array: Option<String>,
    buffer: Option<String>,
    pitch2d: Option<RawPitch>,
    #[serde(rename = "type")]
    ty: Option<String>,
    channels: Option<i64>,
    address: Option<Vec<String>>,
    filter: Option<String>,
    normalized: Option<bool>,
    read: Option<String>,
    border: Option<Vec<f64>>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub(super) struct RawSurface {
    array: String,
}

fn channel_type(cx: &Ctx<'_>, key: &str, s: &str) -> Result<ChannelType, SpecError> {
    ChannelType::from_name(s).ok_or_else(|| {
        cx.invalid(
            key,
            format!("unknown channel type {s:?} (expected u8, i8, u16, i16, u32, i32, f16 or f32)"),
        )
    })
}

fn elem_of(t: ChannelType) -> ElemType {
    match t {
        ChannelType::U8 => ElemType::U8,
        ChannelType::I8 => ElemType::I8,
        ChannelType::U16 => ElemType::U16,
        ChannelType::I16 => ElemType::I16,
        ChannelType::U32 => ElemType::U32,
        ChannelType::I32 => ElemType::I32,
        ChannelType::F16 => ElemType::F16,
        ChannelType::F32 => ElemType::F32,
    }
}

fn channels(cx: &Ctx<'_>, key: &str, c: Option<i64>) -> Result<u8, SpecError> {
    match c.unwrap_or(1) {
        n @ (1 | 2 | 4) => Ok(n as u8),
        n => Err(cx.invalid(key, format!("{n} channels: a texel has 1, 2 or 4"))),
    }
}

fn extent_value(cx: &Ctx<'_>, key: &str, v: i64, max: u32) -> Result<u32, SpecError> {
    if v < 1 || v > i64::from(max) {
        return Err(cx.invalid(key, format!("{v}: expected 1 to {max}")));
    }
    Ok(v as u32)
}

/// `[arrays.*]`, sorted by name; `surfaces` names the arrays bound to surfaces.
pub(super) fn load_arrays(
    cx: &Ctx<'_>,
    raw: &BTreeMap<String, RawArray>,
    surfaces: &BTreeMap<String, RawSurface>,
) -> Result<Vec<ArraySpec>, SpecError> {
    use crate::runtime::textures::{MAX_TEXTURE_1D, MAX_TEXTURE_2D, MAX_TEXTURE_3D};
    let mut out = Vec::new();
    for (name, a) in raw {
        let key = format!("[arrays.{name}]");
        let ty = channel_type(cx, &format!("{key} type"), &a.ty)?;
        let ch = channels(cx, &format!("{key} channels"), a.channels)?;
        let dims = 1 + usize::from(a.height.is_some()) + usize::from(a.depth.is_some());
        if a.depth.is_some() && a.height.is_none() {
            return Err(cx.invalid(format!("{key} depth"), "a 3D array needs a height too"));
        }
        let (mw, mh, md) = match dims {
            1 => (MAX_TEXTURE_1D, 0, 0),
            2 => (MAX_TEXTURE_2D[0], MAX_TEXTURE_2D[1], 0),
            _ => (MAX_TEXTURE_3D, MAX_TEXTURE_3D, MAX_TEXTURE_3D),
        };
        let w = extent_value(cx, &format!("{key} width"), a.width, mw)?;
        let h = match a.height {
            Some(h) => extent_value(cx, &format!("{key} height"), h, mh)?,
            None => 0,
        };
        let d = match a.depth {
            Some(d) => extent_value(cx, &format!("{key} depth"), d, md)?,
            None => 0,
        };
        let elements = u64::from(w) * u64::from(h.max(1)) * u64::from(d.max(1)) * u64::from(ch);
        let rd = RawData {
            ty: elem_of(ty).to_string(),
            len: Some(elements as i64),
            init: a.init.clone(),
            values: a.values.clone(),
        };
        let data = load_data(cx, &key, name, &rd, false)?;
        if data.len != elements {
            return Err(cx.invalid(
                format!("{key} values"),
                format!(
                    "{} values for {elements} elements ({w} x {} x {} texels x {ch} channels)",
                    data.len,
                    h.max(1),
                    d.max(1)
                ),
            ));
        }
        out.push(ArraySpec {
            name: name.clone(),
            format: ChannelFormat { ty, channels: ch },
            extent: [w, h, d],
            surface: surfaces.values().any(|s| &s.array == name),
            data,
        });
    }
    Ok(out)
}

fn mode(cx: &Ctx<'_>, key: &str, s: &str) -> Result<AddressMode, SpecError> {
    AddressMode::from_name(s).ok_or_else(|| {
        cx.invalid(
            key,
            format!("unknown address mode {s:?} (expected wrap, clamp, mirror or border)"),
        )
    })
}

/// `[textures.*]`, sorted by name.
pub(super) fn load_textures(
    cx: &Ctx<'_>,
    raw: &BTreeMap<String, RawTexture>,
    arrays: &[ArraySpec],
    buffers: &[super::Buffer],
) -> Result<Vec<TextureSpec>, SpecError> {
    let mut out = Vec::new();
    for (name, t) in raw {
        let key = format!("[textures.{name}]");
        let array_idx = |n: &str, k: &str| {
            arrays
                .iter()
                .position(|a| a.name == n)
                .ok_or_else(|| cx.invalid(format!("{key} {k}"), format!("no array named {n:?}")))
        };
        let buffer_idx = |n: &str, k: &str| {
            buffers
                .iter()
                .position(|b| b.name == n)
                .ok_or_else(|| cx.invalid(format!("{key} {k}"), format!("no buffer named {n:?}")))
        };
        let given = [t.array.is_some(), t.buffer.is_some(), t.pitch2d.is_some()];
        if given.iter().filter(|&&g| g).count() != 1 {
            return Err(cx.invalid(
                key,
                "give exactly one of `array`, `buffer` (linear memory) and `pitch2d`",
            ));
        }
        // The texel format of linear memory: `type`/`channels`, else the buffer's type.
        let linear_format = |b: usize| -> Result<ChannelFormat, SpecError> {
            let ty = match &t.ty {
                Some(s) => channel_type(cx, &format!("{key} type"), s)?,
                None => ChannelType::from_name(&buffers[b].ty.to_string()).ok_or_else(|| {
                    cx.invalid(
                        format!("{key} type"),
                        format!(
                            "buffer {:?} holds {}, not a channel type: give `type` (u8, i8, u16, i16, u32, i32, f16 or f32)",
                            buffers[b].name, buffers[b].ty
                        ),
                    )
                })?,
            };
            Ok(ChannelFormat {
                ty,
                channels: channels(cx, &format!("{key} channels"), t.channels)?,
            })
        };
        let (source, format, dims) = if let Some(a) = &t.array {
            if t.ty.is_some() || t.channels.is_some() {
                return Err(cx.invalid(
                    format!("{key} type"),
                    "a texture over an array takes the array's format (give `type`/`channels` on the array)",
                ));
            }
            let i = array_idx(a, "array")?;
            let dims =
                1 + usize::from(arrays[i].extent[1] > 0) + usize::from(arrays[i].extent[2] > 0);
            (TexSource::Array(i), arrays[i].format, dims)
        } else if let Some(b) = &t.buffer {
            let i = buffer_idx(b, "buffer")?;
            let f = linear_format(i)?;
            (
                TexSource::Linear {
                    buffer: i,
                    format: f,
                },
                f,
                1,
            )
        } else {
            let p = t.pitch2d.as_ref().expect("one source is given");
            let i = buffer_idx(&p.buffer, "pitch2d.buffer")?;
            let f = linear_format(i)?;
            let w = extent_value(cx, &format!("{key} pitch2d.width"), p.width, 131_072)?;
            let h = extent_value(cx, &format!("{key} pitch2d.height"), p.height, 65_000)?;
            let row = u64::from(w) * u64::from(f.texel_bytes());
            let align = crate::runtime::textures::TEXTURE_PITCH_ALIGNMENT;
            if p.pitch < row as i64 || p.pitch % align as i64 != 0 {
                return Err(cx.invalid(
                    format!("{key} pitch2d.pitch"),
                    format!(
                        "{}: the pitch is at least a row ({row} bytes) and a multiple of {align} (texturePitchAlignment)",
                        p.pitch
                    ),
                ));
            }
            let need = (u64::from(h) - 1) * p.pitch as u64 + row;
            if need > buffers[i].byte_len() {
                return Err(cx.invalid(
                    format!("{key} pitch2d"),
                    format!(
                        "{h} rows of pitch {} need {need} bytes, buffer {:?} has {}",
                        p.pitch,
                        p.buffer,
                        buffers[i].byte_len()
                    ),
                ));
            }
            (
                TexSource::Pitch2d {
                    buffer: i,
                    format: f,
                    width: w,
                    height: h,
                    pitch: p.pitch as u64,
                },
                f,
                2,
            )
        };
        let normalized = t.normalized.unwrap_or(false);
        let mut address = [AddressMode::Clamp; 3];
        if let Some(list) = &t.address {
            if list.is_empty() || list.len() > 3 {
                return Err(cx.invalid(
                    format!("{key} address"),
                    "one to three address modes (x, y, z)",
                ));
            }
            for (k, slot) in address.iter_mut().enumerate() {
                let i = k.min(list.len() - 1);
                *slot = mode(cx, &format!("{key} address[{i}]"), &list[i])?;
            }
            for (k, m) in list.iter().enumerate() {
                if !normalized && (m == "wrap" || m == "mirror") {
                    return Err(cx.invalid(
                        format!("{key} address[{k}]"),
                        format!(
                            "{m:?} needs normalized = true (CUDA supports wrap and mirror only with normalized coordinates)"
                        ),
                    ));
                }
            }
        }
        let _ = dims;
        let filter = match t.filter.as_deref().unwrap_or("point") {
            "point" => FilterMode::Point,
            "linear" => FilterMode::Linear,
            f => {
                return Err(cx.invalid(
                    format!("{key} filter"),
                    format!("unknown filter {f:?} (expected point or linear)"),
                ))
            }
        };
        let read = match t.read.as_deref().unwrap_or("element") {
            "element" => ReadMode::ElementType,
            "normalized_float" => ReadMode::NormalizedFloat,
            r => {
                return Err(cx.invalid(
                    format!("{key} read"),
                    format!("unknown read mode {r:?} (expected element or normalized_float)"),
                ))
            }
        };
        if read == ReadMode::NormalizedFloat && !format.ty.normalizable() {
            return Err(cx.invalid(
                format!("{key} read"),
                format!(
                    "a {} channel cannot be read as normalized float (only 8- and 16-bit integer channels can)",
                    format.ty.name()
                ),
            ));
        }
        if filter == FilterMode::Linear && !crate::tex::format::returns_float(format, read) {
            return Err(cx.invalid(
                format!("{key} filter"),
                format!(
                    "linear filtering returns floats: a {} channel read as its element type cannot be filtered (use read = \"normalized_float\" or filter = \"point\")",
                    format.ty.name()
                ),
            ));
        }
        if matches!(source, TexSource::Linear { .. })
            && (filter == FilterMode::Linear || normalized)
        {
            return Err(cx.invalid(
                format!("{key} buffer"),
                "a texture over linear memory (tex1Dfetch) has integer coordinates: no linear filtering, no normalized coordinates",
            ));
        }
        let mut border = [0f32; 4];
        if let Some(b) = &t.border {
            if b.len() > 4 {
                return Err(cx.invalid(format!("{key} border"), "at most four channels"));
            }
            for (k, v) in b.iter().enumerate() {
                border[k] = *v as f32;
            }
        }
        out.push(TextureSpec {
            name: name.clone(),
            source,
            desc: TextureDesc {
                address,
                filter,
                read,
                normalized,
                border,
            },
        });
    }
    Ok(out)
}

/// `[surfaces.*]`, sorted by name.
pub(super) fn load_surfaces(
    cx: &Ctx<'_>,
    raw: &BTreeMap<String, RawSurface>,
    arrays: &[ArraySpec],
) -> Result<Vec<SurfaceSpec>, SpecError> {
    raw.iter()
        .map(|(name, s)| {
            let array = arrays
                .iter()
                .position(|a| a.name == s.array)
                .ok_or_else(|| {
                    cx.invalid(
                        format!("[surfaces.{name}] array"),
                        format!("no array named {:?}", s.array),
                    )
                })?;
            Ok(SurfaceSpec {
                name: name.clone(),
                array,
            })
        })
        .collect()
}
