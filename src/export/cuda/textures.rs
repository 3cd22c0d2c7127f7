//! The spec's CUDA arrays, texture objects and surface objects in the exported host program:
//! `cudaMalloc3DArray` (with `cudaArraySurfaceLoadStore` for arrays bound to surfaces) and
//! `cudaMemcpy3D` of exactly the bytes the simulator starts with, `cudaCreateTextureObject`
//! from a `cudaResourceDesc` (array, linear or pitch-2D) and a `cudaTextureDesc`,
//! `cudaCreateSurfaceObject`, and arrays written back as outputs with `cudaMemcpy3D`
//! (CUDA Runtime API reference, "Texture Object Management", "Surface Object Management").

use super::c_init_code;
use crate::spec::texture::TexSource;
use crate::spec::Spec;
use crate::tex::desc::{AddressMode, FilterMode};
use crate::tex::format::{ChannelType, ReadMode};
use std::fmt::Write as _;

fn kind(t: ChannelType) -> &'static str {
    match t.cuda_kind() {
        0 => "cudaChannelFormatKindSigned",
        1 => "cudaChannelFormatKindUnsigned",
        _ => "cudaChannelFormatKindFloat",
    }
}

fn channel_desc(f: crate::tex::format::ChannelFormat) -> String {
    let b = f.ty.bytes() * 8;
    let c = |k: u8| if f.channels > k { b } else { 0 };
    format!(
        "cudaCreateChannelDesc({}, {}, {}, {}, {})",
        c(0),
        c(1),
        c(2),
        c(3),
        kind(f.ty)
    )
}

fn address(m: AddressMode) -> &'static str {
    match m {
        AddressMode::Wrap => "cudaAddressModeWrap",
        AddressMode::Clamp => "cudaAddressModeClamp",
        AddressMode::Mirror => "cudaAddressModeMirror",
        AddressMode::Border => "cudaAddressModeBorder",
    }
}

/// The C name of texture or surface `name` (for kernel arguments).
pub fn object_var(spec: &Spec, name: &str) -> Option<String> {
    if let Some(i) = spec.textures.iter().position(|t| t.name == name) {
        return Some(format!("tex{i}"));
    }
    spec.surfaces
        .iter()
        .position(|s| s.name == name)
        .map(|i| format!("surf{i}"))
}

/// Code that creates every array (filled), texture and surface; buffers `d{i}` exist. `rels`
/// holds, per array, the program-relative path of its `file:` init (empty for others).
pub fn create(spec: &Spec, rels: &[String]) -> String {
    let mut c = String::new();
    for (i, a) in spec.arrays.iter().enumerate() {
        let [w, h, d] = a.extent;
        let n = a.data.byte_len();
        let row = u64::from(w) * u64::from(a.format.texel_bytes());
        let _ = writeln!(
            c,
            "\n    // array {:?}: {w} x {h} x {d} texels of {} x {}",
            a.name,
            a.format.channels,
            a.format.ty.name()
        );
        let _ = writeln!(c, "    cudaArray_t arr{i} = NULL;");
        let _ = writeln!(
            c,
            "    {{ cudaChannelFormatDesc cd = {};\n      GMS_CHECK(cudaMalloc3DArray(&arr{i}, &cd, make_cudaExtent({w}, {h}, {d}), {})); }}",
            channel_desc(a.format),
            if a.surface { "cudaArraySurfaceLoadStore" } else { "0" }
        );
        let _ = writeln!(
            c,
            "    {{ unsigned char* ha = (unsigned char*)malloc({n}ull);\n    if (!ha) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}"
        );
        let rel = rels.get(i).map_or("", |s| s.as_str());
        c.push_str(&c_init_code(&a.data, "ha", "datadir", rel));
        let _ = writeln!(
            c,
            "    cudaMemcpy3DParms p; memset(&p, 0, sizeof p);\n    \
             p.srcPtr = make_cudaPitchedPtr(ha, {row}, {w}, {});\n    \
             p.dstArray = arr{i};\n    p.extent = make_cudaExtent({w}, {}, {});\n    \
             p.kind = cudaMemcpyHostToDevice;\n    GMS_CHECK(cudaMemcpy3D(&p));\n    free(ha); }}",
            h.max(1),
            h.max(1),
            d.max(1)
        );
    }
    for (i, t) in spec.textures.iter().enumerate() {
        let _ = writeln!(c, "\n    // texture {:?}", t.name);
        c.push_str("    cudaTextureObject_t ");
        let _ = writeln!(c, "tex{i} = 0;");
        c.push_str("    { cudaResourceDesc rd; memset(&rd, 0, sizeof rd);\n");
        match &t.source {
            TexSource::Array(a) => {
                let _ = writeln!(
                    c,
                    "      rd.resType = cudaResourceTypeArray; rd.res.array.array = arr{a};"
                );
            }
            TexSource::Linear { buffer, format } => {
                let n = spec.buffers[*buffer].byte_len() / u64::from(format.texel_bytes())
                    * u64::from(format.texel_bytes());
                let _ = writeln!(
                    c,
                    "      rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = d{buffer};\n      \
                     rd.res.linear.desc = {}; rd.res.linear.sizeInBytes = {n}ull;",
                    channel_desc(*format)
                );
            }
            TexSource::Pitch2d {
                buffer,
                format,
                width,
                height,
                pitch,
            } => {
                let _ = writeln!(
                    c,
                    "      rd.resType = cudaResourceTypePitch2D; rd.res.pitch2D.devPtr = d{buffer};\n      \
                     rd.res.pitch2D.desc = {}; rd.res.pitch2D.width = {width}; rd.res.pitch2D.height = {height};\n      \
                     rd.res.pitch2D.pitchInBytes = {pitch}ull;",
                    channel_desc(*format)
                );
            }
        }
        let dsc = &t.desc;
        let _ = writeln!(
            c,
            "      cudaTextureDesc td; memset(&td, 0, sizeof td);\n      \
             td.addressMode[0] = {}; td.addressMode[1] = {}; td.addressMode[2] = {};\n      \
             td.filterMode = {};\n      td.readMode = {};\n      td.normalizedCoords = {};",
            address(dsc.address[0]),
            address(dsc.address[1]),
            address(dsc.address[2]),
            if dsc.filter == FilterMode::Linear {
                "cudaFilterModeLinear"
            } else {
                "cudaFilterModePoint"
            },
            if dsc.read == ReadMode::NormalizedFloat {
                "cudaReadModeNormalizedFloat"
            } else {
                "cudaReadModeElementType"
            },
            u8::from(dsc.normalized)
        );
        for k in 0..4 {
            let _ = writeln!(
                c,
                "      td.borderColor[{k}] = gms_f32({:#x}u);",
                dsc.border[k].to_bits()
            );
        }
        let _ = writeln!(
            c,
            "      GMS_CHECK(cudaCreateTextureObject(&tex{i}, &rd, &td, NULL)); }}"
        );
    }
    for (i, s) in spec.surfaces.iter().enumerate() {
        let _ = writeln!(
            c,
            "\n    // surface {:?}\n    cudaSurfaceObject_t surf{i} = 0;\n    \
             {{ cudaResourceDesc rd; memset(&rd, 0, sizeof rd);\n      \
             rd.resType = cudaResourceTypeArray; rd.res.array.array = arr{};\n      \
             GMS_CHECK(cudaCreateSurfaceObject(&surf{i}, &rd)); }}",
            s.name, s.array
        );
    }
    c
}

/// Code that writes array `name` to `file` in the output directory (row-major, rows unpadded).
pub fn output(spec: &Spec, name: &str, file: &str) -> String {
    let Some(i) = spec.arrays.iter().position(|a| a.name == name) else {
        return String::new();
    };
    let a = &spec.arrays[i];
    let [w, h, d] = a.extent;
    let n = a.data.byte_len();
    let row = u64::from(w) * u64::from(a.format.texel_bytes());
    format!(
        "    // output array {name:?}\n    \
         {{ unsigned char* ha = (unsigned char*)malloc({n}ull);\n      \
         if (!ha) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}\n      \
         cudaMemcpy3DParms p; memset(&p, 0, sizeof p);\n      \
         p.srcArray = arr{i}; p.dstPtr = make_cudaPitchedPtr(ha, {row}, {w}, {});\n      \
         p.extent = make_cudaExtent({w}, {}, {}); p.kind = cudaMemcpyDeviceToHost;\n      \
         GMS_CHECK(cudaMemcpy3D(&p));\n      \
         if (gms_write(outdir, {file}, ha, {n}ull)) return 1;\n      free(ha); }}\n",
        h.max(1),
        h.max(1),
        d.max(1)
    )
}

/// Code that destroys the objects and frees the arrays.
pub fn destroy(spec: &Spec) -> String {
    let mut c = String::new();
    for i in 0..spec.textures.len() {
        let _ = writeln!(c, "    GMS_CHECK(cudaDestroyTextureObject(tex{i}));");
    }
    for i in 0..spec.surfaces.len() {
        let _ = writeln!(c, "    GMS_CHECK(cudaDestroySurfaceObject(surf{i}));");
    }
    for i in 0..spec.arrays.len() {
        let _ = writeln!(c, "    GMS_CHECK(cudaFreeArray(arr{i}));");
    }
    c
}
