//! A launch spec as a standalone CUDA host program, for running the same work on a real GPU.
//!
//! The program `#include`s the spec's CUDA C source (one translation unit for nvcc), allocates
//! every buffer with `cudaMalloc` and fills it with exactly the bytes of
//! [`Buffer::initial_bytes`] (zeros, iota, fill and random are generated in C by the same rules
//! and the same splitmix64 as [`crate::spec`]; `values` are embedded as bit patterns; `file:`
//! inputs are read at run time), copies symbols with `cudaMemcpyToSymbol`, sets the function
//! attributes, launches every `[[launch]]` in order with `kernel<<<grid, block, shared>>>(args)`
//! (names, templates included, verbatim), checks every CUDA call and each launch, and writes
//! every output buffer raw to `OUTDIR/<output file name>`.
//!
//! Usage of the generated program: `./prog OUTDIR [DATADIR]`. `file:` inputs are written in
//! the program relative to the program's directory and resolved at run time against DATADIR,
//! which defaults to the directory of `argv[0]` (so build the executable next to its `.cu`,
//! or pass DATADIR). The host-side C uses only byte stores, so it is endian-independent.
//!
//! Host API semantics follow the CUDA Runtime API reference (`cudaMalloc`, `cudaMemcpy`,
//! `cudaMemcpyToSymbol`, `cudaFuncSetAttribute` with `cudaFuncAttributeMaxDynamicSharedMemorySize`
//! and `cudaFuncAttributePreferredSharedMemoryCarveout`, `cudaGetLastError`).

use super::{ExportError, ParamKind};
use crate::spec::{Arg, Buffer, ElemType, Init, Spec};
use std::fmt::Write as _;
use std::path::{Component, Path, PathBuf};

/// C helpers used by the generated initialisation code: splitmix64, `f32` to `f16`/`bf16`
/// rounding to nearest even, and little-endian byte stores. Valid C99 and C++.
pub const C_PRELUDE: &str = r#"/* ---- gpumemsim initialisation helpers (must match src/spec) ---- */
static inline uint64_t gms_splitmix64(uint64_t* s) {
    uint64_t z = (*s += 0x9e3779b97f4a7c15ull);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
    return z ^ (z >> 31);
}
static inline uint32_t gms_f32_bits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline uint64_t gms_f64_bits(double f) { uint64_t u; memcpy(&u, &f, 8); return u; }
static inline float gms_f32(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline double gms_f64(uint64_t u) { double f; memcpy(&f, &u, 8); return f; }
/* IEEE binary32 to binary16, round to nearest even (finite, inf and nan). */
static inline uint16_t gms_f32_to_f16(float f) {
    uint32_t x = gms_f32_bits(f), sign = (x >> 16) & 0x8000u, a = x & 0x7fffffffu;
    if (a > 0x7f800000u) return (uint16_t)(sign | 0x7e00u | ((a >> 13) & 0x3ffu));
    if (a >= 0x477ff000u) return (uint16_t)(sign | 0x7c00u); /* >= 65520: inf */
    if (a < 0x38800000u) { /* below 2^-14: binary16 subnormal, unit 2^-24 */
        uint32_t e = a >> 23, m, sh, r, rem, half;
        if (e < 102u) return (uint16_t)sign; /* below 2^-25 */
        m = (a & 0x7fffffu) | 0x800000u; sh = 126u - e; /* value = m * 2^(e-150) */
        r = m >> sh; rem = m & ((1u << sh) - 1u); half = 1u << (sh - 1u);
        if (rem > half || (rem == half && (r & 1u))) r++;
        return (uint16_t)(sign | r);
    } else {
        uint32_t r = (((a >> 23) - 112u) << 10) | ((a & 0x7fffffu) >> 13), rem = a & 0x1fffu;
        if (rem > 0x1000u || (rem == 0x1000u && (r & 1u))) r++;
        return (uint16_t)(sign | r);
    }
}
/* IEEE binary32 to bfloat16, round to nearest even. */
static inline uint16_t gms_f32_to_bf16(float f) {
    uint32_t x = gms_f32_bits(f);
    if ((x & 0x7fffffffu) > 0x7f800000u) return (uint16_t)((x >> 16) | 0x40u);
    return (uint16_t)((x + 0x7fffu + ((x >> 16) & 1u)) >> 16);
}
/* Stores the low `size` bytes of `bits` little-endian at element `i`. */
static inline void gms_put(unsigned char* p, uint64_t i, unsigned size, uint64_t bits) {
    unsigned k;
    for (k = 0; k < size; k++) p[i * size + k] = (unsigned char)(bits >> (8 * k));
}
/* Reads exactly n bytes of dir/rel (rel alone when absolute); 0 on success. */
static inline int gms_read_file(const char* dir, const char* rel, unsigned char* p, size_t n) {
    char path[4096];
    FILE* f;
    size_t got;
    int extra;
    if (rel[0] == '/') snprintf(path, sizeof path, "%s", rel);
    else snprintf(path, sizeof path, "%s/%s", dir, rel);
    f = fopen(path, "rb");
    if (!f) { fprintf(stderr, "cannot open %s\n", path); return 1; }
    got = fread(p, 1, n, f);
    extra = fgetc(f);
    fclose(f);
    if (got != n || extra != EOF) {
        fprintf(stderr, "%s: expected exactly %zu bytes\n", path, n);
        return 1;
    }
    return 0;
}
"#;

/// A C string literal for `s`.
fn c_str(s: &str) -> String {
    let mut out = String::from("\"");
    for ch in s.chars() {
        match ch {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            // Keep "??" from forming trigraphs in old compilers.
            '?' => out.push_str("\\?"),
            c if (c as u32) < 0x20 => {
                let _ = write!(out, "\\{:03o}", c as u32);
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// The C conversion of the `f32` expression `f` to the bits of `ty` (a float type but f64).
fn c_from_f32(ty: ElemType, f: &str) -> String {
    match ty {
        ElemType::F16 => format!("gms_f32_to_f16({f})"),
        ElemType::Bf16 => format!("gms_f32_to_bf16({f})"),
        _ => format!("gms_f32_bits({f})"),
    }
}

/// C statements that fill `ptr` (an `unsigned char*` of `buf.byte_len()` bytes) with the
/// buffer's initial bytes. `file_rel` is the text written for a `file:` input's path, read
/// relative to the C expression `dir`; on a read failure the statements `return 1;`.
pub fn c_init_code(buf: &Buffer, ptr: &str, dir: &str, file_rel: &str) -> String {
    let ty = buf.ty;
    let size = ty.size();
    let n = buf.len;
    let mut c = String::new();
    let each =
        |body: &str| format!("    {{ uint64_t i; for (i = 0; i < {n}ull; i++) {{ {body} }} }}\n");
    match &buf.init {
        Init::Zeros => {
            let _ = writeln!(c, "    memset({ptr}, 0, {}ull);", buf.byte_len());
        }
        Init::Iota => {
            let bits = match ty {
                ElemType::F64 => "gms_f64_bits((double)i)".to_string(),
                ElemType::F32 | ElemType::F16 | ElemType::Bf16 => c_from_f32(ty, "(float)i"),
                _ => "i".to_string(),
            };
            c.push_str(&each(&format!("gms_put({ptr}, i, {size}u, {bits});")));
        }
        Init::Fill(bits) => {
            c.push_str(&each(&format!("gms_put({ptr}, i, {size}u, {bits:#x}ull);")));
        }
        Init::Random(seed) => {
            let bits = match ty {
                ElemType::F64 => "gms_f64_bits((double)(d >> 11) / 9007199254740992.0)".to_string(),
                ElemType::F32 | ElemType::F16 | ElemType::Bf16 => {
                    c_from_f32(ty, "(float)(d >> 40) / 16777216.0f")
                }
                _ => "d".to_string(),
            };
            let _ = writeln!(c, "    {{ uint64_t s = {seed:#x}ull;");
            c.push_str(&each(&format!(
                "uint64_t d = gms_splitmix64(&s); gms_put({ptr}, i, {size}u, {bits});"
            )));
            c.push_str("    }\n");
        }
        Init::Values(values) => {
            let cty = ty.c_bits_type();
            let _ = write!(c, "    {{ static const {cty} v[{}] = {{", values.len());
            for (i, v) in values.iter().enumerate() {
                if i % 8 == 0 {
                    c.push_str("\n       ");
                }
                let _ = write!(c, " {v:#x}u,");
            }
            c.push_str("\n    };\n");
            c.push_str(&each(&format!("gms_put({ptr}, i, {size}u, v[i]);")));
            c.push_str("    }\n");
        }
        Init::File(_) => {
            let _ = writeln!(
                c,
                "    if (gms_read_file({dir}, {}, {ptr}, {}ull)) return 1;",
                c_str(file_rel),
                buf.byte_len()
            );
        }
    }
    c
}

/// `path` made lexically normal: `.` dropped, `..` applied.
fn normalize(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for comp in path.components() {
        match comp {
            Component::CurDir => {}
            Component::ParentDir => {
                if !out.pop() {
                    out.push("..");
                }
            }
            other => out.push(other.as_os_str()),
        }
    }
    out
}

/// `target` relative to the directory `base` (both absolute), by components.
pub fn relative_path(target: &Path, base: &Path) -> PathBuf {
    let (t, b) = (normalize(target), normalize(base));
    let tc: Vec<_> = t.components().collect();
    let bc: Vec<_> = b.components().collect();
    let common = tc.iter().zip(&bc).take_while(|(x, y)| x == y).count();
    if common == 0 {
        return t;
    }
    let mut out = PathBuf::new();
    for _ in common..bc.len() {
        out.push("..");
    }
    for comp in &tc[common..] {
        out.push(comp.as_os_str());
    }
    out
}

/// The CUDA host program for `spec`, to be written in the spec's own directory.
/// `kernel_params[i]` is the parameter list of launch `i`'s kernel.
pub fn cuda_host_program(
    spec: &Spec,
    kernel_params: &[Vec<ParamKind>],
) -> Result<String, ExportError> {
    cuda_host_program_in(spec, kernel_params, &spec.dir)
}

/// The CUDA host program for `spec`, to be written in the directory `program_dir` (the
/// `#include` of the source and the `file:` input paths are made relative to it).
pub fn cuda_host_program_in(
    spec: &Spec,
    kernel_params: &[Vec<ParamKind>],
    program_dir: &Path,
) -> Result<String, ExportError> {
    let file = spec.path.display().to_string();
    let source = spec
        .source
        .as_ref()
        .ok_or_else(|| ExportError::NoSource { file: file.clone() })?;
    if kernel_params.len() != spec.launches.len() {
        return Err(ExportError::ParamLists {
            file,
            launches: spec.launches.len(),
            given: kernel_params.len(),
        });
    }
    let program_dir = std::path::absolute(program_dir).unwrap_or_else(|_| program_dir.into());
    let rel_str = |key: &str, p: &Path| -> Result<String, ExportError> {
        relative_path(p, &program_dir)
            .to_str()
            .map(str::to_string)
            .ok_or_else(|| ExportError::Path {
                file: file.clone(),
                key: key.to_string(),
                path: p.display().to_string(),
            })
    };

    // Output file names, which must not clash.
    let mut out_names: Vec<(String, String)> = Vec::new();
    for o in &spec.outputs {
        let name = o
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| ExportError::Path {
                file: file.clone(),
                key: format!("[outputs] {}", o.buffer),
                path: o.path.display().to_string(),
            })?
            .to_string();
        if let Some((other, _)) = out_names.iter().find(|(_, n)| *n == name) {
            return Err(ExportError::OutputClash {
                file: file.clone(),
                a: other.clone(),
                b: o.buffer.clone(),
                name,
            });
        }
        out_names.push((o.buffer.clone(), name));
    }

    let mut c = String::new();
    let spec_name = spec
        .path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let _ = writeln!(
        c,
        "// Generated by gpumemsim from {spec_name}; do not edit."
    );
    if let Some(d) = &spec.description {
        for line in d.lines() {
            let _ = writeln!(c, "// {line}");
        }
    }
    c.push_str(
        "// Build: nvcc -O3 -arch=sm_90 -lineinfo -o prog prog.cu\n\
         // Run:   ./prog OUTDIR [DATADIR]   (DATADIR: where file: inputs are, default: dir of prog)\n",
    );
    c.push_str(
        "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n",
    );
    c.push_str("#include <cuda_runtime.h>\n");
    let _ = writeln!(c, "#include {}\n", c_str(&rel_str("source", source)?));
    c.push_str(C_PRELUDE);
    c.push_str(
        r#"
#define GMS_CHECK(call) do { cudaError_t gms_e = (call); if (gms_e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(gms_e)); \
    exit(1); } } while (0)

/* Converts a device address to any pointer parameter type (or a 64-bit integer one). */
struct gms_ptr {
    void* p;
    template <class T> operator T*() const { return static_cast<T*>(p); }
    operator unsigned long long() const { return (unsigned long long)(uintptr_t)p; }
};

static int gms_write(const char* dir, const char* name, const void* p, size_t n) {
    char path[4096];
    FILE* f;
    snprintf(path, sizeof path, "%s/%s", dir, name);
    f = fopen(path, "wb");
    if (!f || fwrite(p, 1, n, f) != n || fclose(f) != 0) {
        fprintf(stderr, "cannot write %s\n", path);
        return 1;
    }
    return 0;
}

int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR [DATADIR]\n", argv[0]);
        return 2;
    }
    const char* outdir = argv[1];
    char datadir[4096];
    if (argc > 2) {
        snprintf(datadir, sizeof datadir, "%s", argv[2]);
    } else {
        const char* slash = strrchr(argv[0], '/');
        if (slash) snprintf(datadir, sizeof datadir, "%.*s", (int)(slash - argv[0]), argv[0]);
        else snprintf(datadir, sizeof datadir, ".");
    }
    (void)datadir;
"#,
    );

    // Buffers.
    for (i, b) in spec.buffers.iter().enumerate() {
        let rel = match &b.init {
            Init::File(p) => rel_str(&format!("[buffers.{}] init", b.name), p)?,
            _ => String::new(),
        };
        let n = b.byte_len();
        let _ = writeln!(c, "\n    // buffer {:?}: {} x {}", b.name, b.len, b.ty);
        let _ = writeln!(c, "    void* d{i} = NULL;");
        let _ = writeln!(
            c,
            "    unsigned char* h{i} = (unsigned char*)malloc({n}ull);"
        );
        let _ = writeln!(
            c,
            "    if (!h{i}) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}"
        );
        c.push_str(&c_init_code(b, &format!("h{i}"), "datadir", &rel));
        let _ = writeln!(c, "    GMS_CHECK(cudaMalloc(&d{i}, {n}ull));");
        let _ = writeln!(
            c,
            "    GMS_CHECK(cudaMemcpy(d{i}, h{i}, {n}ull, cudaMemcpyHostToDevice));"
        );
    }
    // Symbols.
    for s in &spec.symbols {
        let rel = match &s.init {
            Init::File(p) => rel_str(&format!("[symbols.{}] init", s.name), p)?,
            _ => String::new(),
        };
        let n = s.byte_len();
        let _ = writeln!(c, "\n    // symbol {}: {} x {}", s.name, s.len, s.ty);
        let _ = writeln!(
            c,
            "    {{ unsigned char* hs = (unsigned char*)malloc({n}ull);"
        );
        let _ = writeln!(
            c,
            "    if (!hs) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}"
        );
        c.push_str(&c_init_code(s, "hs", "datadir", &rel));
        let _ = writeln!(
            c,
            "    GMS_CHECK(cudaMemcpyToSymbol({}, hs, {n}ull));",
            s.name
        );
        c.push_str("    free(hs); }\n");
    }

    // Launches.
    for (li, (l, params)) in spec.launches.iter().zip(kernel_params).enumerate() {
        let no = li + 1;
        let args_err = |key: String, message: String| ExportError::Args {
            file: file.clone(),
            launch: no,
            key,
            message,
        };
        if l.args.len() != params.len() {
            return Err(args_err(
                "args".into(),
                format!(
                    "{} takes {} parameters, {} given",
                    l.kernel,
                    params.len(),
                    l.args.len()
                ),
            ));
        }
        let mut args = Vec::new();
        for (ai, (a, p)) in l.args.iter().zip(params).enumerate() {
            let text = c_arg(spec, a, *p).map_err(|m| args_err(format!("args[{ai}]"), m))?;
            args.push(text);
        }
        let k = &l.kernel;
        let _ = writeln!(
            c,
            "\n    // [[launch]] #{no}: {k} grid {:?} block {:?} shared {}",
            l.grid, l.block, l.shared
        );
        if let Some(m) = l.max_dynamic_shared {
            let _ = writeln!(
                c,
                "    GMS_CHECK(cudaFuncSetAttribute((const void*)(&{k}), cudaFuncAttributeMaxDynamicSharedMemorySize, {m}));"
            );
        }
        if let Some(pct) = l.carveout {
            let _ = writeln!(
                c,
                "    GMS_CHECK(cudaFuncSetAttribute((const void*)(&{k}), cudaFuncAttributePreferredSharedMemoryCarveout, {pct}));"
            );
        }
        let [gx, gy, gz] = l.grid;
        let [bx, by, bz] = l.block;
        let _ = writeln!(
            c,
            "    {k}<<<dim3({gx}u, {gy}u, {gz}u), dim3({bx}u, {by}u, {bz}u), {}u>>>({});",
            l.shared,
            args.join(", ")
        );
        let name = c_str(k);
        let _ = writeln!(
            c,
            "    {{ cudaError_t e = cudaGetLastError(); if (e == cudaSuccess) e = cudaDeviceSynchronize();\n      \
             if (e != cudaSuccess) {{ fprintf(stderr, \"launch #{no} (%s): %s\\n\", {name}, cudaGetErrorString(e)); exit(1); }} }}"
        );
    }

    // Outputs.
    c.push('\n');
    for (buffer, name) in &out_names {
        let Some(i) = spec.buffers.iter().position(|b| &b.name == buffer) else {
            continue;
        };
        let n = spec.buffers[i].byte_len();
        let _ = writeln!(c, "    // output {buffer:?}");
        let _ = writeln!(
            c,
            "    GMS_CHECK(cudaMemcpy(h{i}, d{i}, {n}ull, cudaMemcpyDeviceToHost));"
        );
        let _ = writeln!(
            c,
            "    if (gms_write(outdir, {}, h{i}, {n}ull)) return 1;",
            c_str(name)
        );
    }
    for i in 0..spec.buffers.len() {
        let _ = writeln!(c, "    GMS_CHECK(cudaFree(d{i}));\n    free(h{i});");
    }
    c.push_str("    return 0;\n}\n");
    Ok(c)
}

/// The C expression passing `a` as a parameter of kind `p`.
fn c_arg(spec: &Spec, a: &Arg, p: ParamKind) -> Result<String, String> {
    // PTX declares C `int` parameters as `.u32`, so an integer kind's signedness is unknown:
    // accept every value the width holds as either signed or unsigned (two's complement).
    let int_kind = |p: ParamKind| -> Option<(u32, &'static str)> {
        Some(match p {
            ParamKind::U8 => (8, "uint8_t"),
            ParamKind::U16 => (16, "uint16_t"),
            ParamKind::U32 => (32, "uint32_t"),
            ParamKind::U64 => (64, "uint64_t"),
            ParamKind::I8 => (8, "int8_t"),
            ParamKind::I16 => (16, "int16_t"),
            ParamKind::I32 => (32, "int32_t"),
            ParamKind::I64 => (64, "int64_t"),
            _ => return None,
        })
    };
    let float = |p: ParamKind, v: f64| -> Option<String> {
        match p {
            ParamKind::F32 => Some(format!("gms_f32({:#x}u) /* {v} */", (v as f32).to_bits())),
            ParamKind::F64 => Some(format!("gms_f64({:#x}ull) /* {v} */", v.to_bits())),
            _ => None,
        }
    };
    match (a, p) {
        // PTX declares pointers as `.u64`, so a buffer also fits a 64-bit integer parameter.
        (Arg::Buffer(name), ParamKind::Pointer | ParamKind::U64 | ParamKind::I64) => spec
            .buffers
            .iter()
            .position(|b| &b.name == name)
            .map(|i| {
                let label = format!("{name:?}").replace("*/", "* /");
                format!("gms_ptr{{d{i}}} /* {label} */")
            })
            .ok_or_else(|| format!("no buffer named {name:?}")),
        (Arg::Buffer(name), p) => Err(format!("buffer {name:?} given for a {p} parameter")),
        (Arg::Int(0), ParamKind::Pointer) => Ok("gms_ptr{NULL}".into()),
        (_, ParamKind::Pointer) => Err("a pointer parameter needs a buffer name (or 0)".into()),
        (_, ParamKind::Other(n)) => Err(format!(
            "the parameter is a {n}-byte aggregate, which the export cannot build"
        )),
        (Arg::Int(v), p) => match int_kind(p) {
            Some((bits, cty)) => {
                let (lo, hi) = (-(1i128 << (bits - 1)), (1i128 << bits) - 1);
                if !(lo..=hi).contains(&i128::from(*v)) {
                    Err(format!("{v} does not fit in {bits} bits ({lo} to {hi})"))
                } else if *v == i64::MIN {
                    Ok(format!("({cty})INT64_MIN"))
                } else {
                    Ok(format!("({cty}){v}ll"))
                }
            }
            None => float(p, *v as f64).ok_or_else(|| format!("cannot pass {v} as {p}")),
        },
        (Arg::Float(v), p) => {
            if p == ParamKind::F32 && v.is_finite() && (*v as f32).is_infinite() {
                return Err(format!("{v} is out of range for f32"));
            }
            float(p, *v).ok_or_else(|| format!("{v} is not an integer ({p} parameter)"))
        }
    }
}

#[cfg(test)]
mod tests;
