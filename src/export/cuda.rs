//! A launch spec as a standalone CUDA host program, for running the same work on a real GPU.
//!
//! Two forms. [`cuda_host_program_ptx`] (what `gpumemsim export-cuda` writes) embeds the spec's
//! PTX text, the very PTX the simulator runs, loads it with the CUDA driver API
//! (`cuModuleLoadDataEx`, JIT-compiled by the driver for the GPU), gets each kernel by its
//! mangled PTX entry name (`cuModuleGetFunction`) and each `[symbols.*]` variable by its PTX
//! name (`cuModuleGetGlobal`), and launches with `cuLaunchKernel`, so the SASS that runs is
//! the SASS of that PTX and nothing else. It prints each kernel's
//! `cuFuncGetAttribute` resources to stdout as
//! `gpumemsim-attr MANGLED regs=N local=N shared=N const=N max_threads=N`, and the JIT's
//! verbose info log; `./prog --ptx` prints the embedded PTX (for `ptxas`/`cuobjdump`). With
//! `GPUMEMSIM_MODULE=FILE` in its environment it loads that module image (an sm_90 cubin from
//! `gpumemsim sass SPEC --cubin FILE`) instead, to run the SASS `--isa sass` simulates. [`cuda_host_program_in`] instead `#include`s the spec's CUDA C source for
//! nvcc and launches with `kernel<<<grid, block, shared>>>(args)`; nvcc then compiles the
//! source itself, so its SASS need not be that of the simulated PTX.
//!
//! Both allocate every buffer with `cudaMalloc` and fill it with exactly the bytes of
//! [`Buffer::initial_bytes`] (zeros, iota, fill and random are generated in C by the same rules
//! and the same splitmix64 as [`crate::spec`]; `values` are embedded as bit patterns; `file:`
//! inputs are read at run time), copy symbols, set the function attributes (maximum dynamic
//! shared memory, shared-memory carveout), launch every `[[launch]]` in order, check every CUDA
//! call and each launch, and write every output buffer raw to `OUTDIR/<output file name>`.
//!
//! Usage of the generated program: `./prog OUTDIR [DATADIR]`. `file:` inputs are written in
//! the program relative to the program's directory and resolved at run time against DATADIR,
//! which defaults to the directory of `argv[0]` (so build the executable next to its `.cu`,
//! or pass DATADIR). The host-side C uses only byte stores, so it is endian-independent.
//!
//! Host API semantics follow the CUDA Runtime API reference (`cudaMalloc`, `cudaMemcpy`,
//! `cudaMemcpyToSymbol`, `cudaFuncSetAttribute`, `cudaGetLastError`; `cudaFree(0)` makes the
//! device's primary context current) and the CUDA Driver API reference, CUDA 13.0 `cuda.h`
//! (`cuModuleLoadDataEx` with `CU_JIT_INFO_LOG_BUFFER`/`CU_JIT_ERROR_LOG_BUFFER`,
//! `cuModuleGetFunction`, `cuModuleGetGlobal`, `cuMemcpyHtoD`, `cuFuncSetAttribute` with
//! `CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES` and
//! `CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT`, `cuFuncGetAttribute`,
//! `cuLaunchKernel` whose `kernelParams` holds one pointer per parameter value, and "Interactions
//! with the CUDA Driver API": runtime device pointers are valid `CUdeviceptr`s in the primary
//! context).

use super::{ExportError, ParamKind};
use crate::spec::{Arg, Buffer, ElemType, Init, Place, Spec, Step};
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
        Init::Uninit => {
            let _ = writeln!(c, "    /* init = \"none\": not copied to the device */");
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

/// A C string literal for the bytes of `s`, bytes outside printable ASCII as 3-digit octal
/// escapes (never hex escapes, which would swallow following hex digits).
fn c_bytes_str(s: &str) -> String {
    let mut out = String::from("\"");
    for &b in s.as_bytes() {
        match b {
            b'"' => out.push_str("\\\""),
            b'\\' => out.push_str("\\\\"),
            b'?' => out.push_str("\\?"),
            b'\n' => out.push_str("\\n"),
            b'\t' => out.push_str("\\t"),
            0x20..=0x7e => out.push(char::from(b)),
            _ => {
                let _ = write!(out, "\\{b:03o}");
            }
        }
    }
    out.push('"');
    out
}

/// `text` as the initialiser of a C `char` array: one short string literal per line
/// (adjacent literals concatenate), so no single literal is long.
fn c_text_literal(text: &str) -> String {
    let mut out = String::new();
    for line in text.split_inclusive('\n') {
        // Split very long lines too, at character boundaries.
        let mut rest = line;
        while !rest.is_empty() {
            let mut cut = rest.len().min(200);
            while !rest.is_char_boundary(cut) {
                cut += 1;
            }
            let _ = writeln!(out, "    {}", c_bytes_str(&rest[..cut]));
            rest = &rest[cut..];
        }
    }
    if out.is_empty() {
        out.push_str("    \"\"\n");
    }
    out
}

/// How the generated program gets its kernels.
enum Kernels<'a> {
    /// `#include` of the CUDA C source (this path, relative to the program) and `<<<>>>`.
    Include(String),
    /// Embedded PTX loaded with the driver API; `mangled[i]` is launch `i`'s entry name.
    Ptx {
        text: &'a str,
        mangled: &'a [String],
    },
}

/// The CUDA host program for `spec`, to be written in the spec's own directory.
/// `kernel_params[i]` is the parameter list of launch `i`'s kernel.
pub fn cuda_host_program(
    spec: &Spec,
    kernel_params: &[Vec<ParamKind>],
) -> Result<String, ExportError> {
    cuda_host_program_in(spec, kernel_params, &spec.dir)
}

/// The CUDA host program for `spec` that `#include`s its CUDA C source and launches with
/// `<<<>>>`, to be written in the directory `program_dir` (the `#include` of the source and the
/// `file:` input paths are made relative to it). nvcc compiles the source: the SASS may differ
/// from that of the spec's PTX; [`cuda_host_program_ptx`] runs the PTX itself.
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
    let dir = absolute_dir(program_dir);
    let rel = rel_string(&file, "source", source, &dir)?;
    host_program(spec, kernel_params, &dir, Kernels::Include(rel))
}

/// The CUDA host program for `spec` that embeds `ptx_text` (the PTX the simulator runs) and
/// runs exactly it through the CUDA driver API, to be written in the directory `program_dir`
/// (`file:` input paths are made relative to it). `kernel_params[i]` is the parameter list and
/// `mangled_names[i]` the PTX entry name of launch `i`'s kernel. Build the program with
/// `nvcc -O3 -arch=sm_90 -o prog prog.cu -lcuda`.
pub fn cuda_host_program_ptx(
    spec: &Spec,
    kernel_params: &[Vec<ParamKind>],
    ptx_text: &str,
    mangled_names: &[String],
    program_dir: &Path,
) -> Result<String, ExportError> {
    if mangled_names.len() != spec.launches.len() {
        return Err(ExportError::NameLists {
            file: spec.path.display().to_string(),
            launches: spec.launches.len(),
            given: mangled_names.len(),
        });
    }
    host_program(
        spec,
        kernel_params,
        &absolute_dir(program_dir),
        Kernels::Ptx {
            text: ptx_text,
            mangled: mangled_names,
        },
    )
}

fn absolute_dir(dir: &Path) -> PathBuf {
    std::path::absolute(dir).unwrap_or_else(|_| dir.into())
}

/// `p` relative to `dir`, as UTF-8.
fn rel_string(file: &str, key: &str, p: &Path, dir: &Path) -> Result<String, ExportError> {
    relative_path(p, dir)
        .to_str()
        .map(str::to_string)
        .ok_or_else(|| ExportError::Path {
            file: file.to_string(),
            key: key.to_string(),
            path: p.display().to_string(),
        })
}

/// C helpers shared by both forms: the error check for runtime calls and the output writer.
const C_HOST_HELPERS: &str = r#"
#define GMS_CHECK(call) do { cudaError_t gms_e = (call); if (gms_e != cudaSuccess) { \
    fprintf(stderr, "%s:%d: %s: %s\n", __FILE__, __LINE__, #call, cudaGetErrorString(gms_e)); \
    exit(1); } } while (0)

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
"#;

/// Helpers of the `<<<>>>` form.
const C_INCLUDE_HELPERS: &str = r#"
/* Converts a device address to any pointer parameter type (or a 64-bit integer one). */
struct gms_ptr {
    void* p;
    template <class T> operator T*() const { return static_cast<T*>(p); }
    operator unsigned long long() const { return (unsigned long long)(uintptr_t)p; }
};
"#;

/// Helpers of the driver-API form.
const C_DRIVER_HELPERS: &str = r#"
#define GMS_CU(call) do { CUresult gms_r = (call); if (gms_r != CUDA_SUCCESS) { \
    const char* gms_n = NULL; const char* gms_s = NULL; \
    if (cuGetErrorName(gms_r, &gms_n) != CUDA_SUCCESS) gms_n = "unknown CUresult"; \
    if (cuGetErrorString(gms_r, &gms_s) != CUDA_SUCCESS) gms_s = ""; \
    fprintf(stderr, "%s:%d: %s: %s (%d): %s\n", __FILE__, __LINE__, #call, gms_n, (int)gms_r, gms_s); \
    exit(1); } } while (0)

/* Gets kernel `name`, prints its resources, and returns it. */
static CUfunction gms_function(CUmodule mod, const char* name) {
    CUfunction f;
    int regs = 0, local = 0, shared = 0, cnst = 0, maxt = 0;
    GMS_CU(cuModuleGetFunction(&f, mod, name));
    GMS_CU(cuFuncGetAttribute(&regs, CU_FUNC_ATTRIBUTE_NUM_REGS, f));
    GMS_CU(cuFuncGetAttribute(&local, CU_FUNC_ATTRIBUTE_LOCAL_SIZE_BYTES, f));
    GMS_CU(cuFuncGetAttribute(&shared, CU_FUNC_ATTRIBUTE_SHARED_SIZE_BYTES, f));
    GMS_CU(cuFuncGetAttribute(&cnst, CU_FUNC_ATTRIBUTE_CONST_SIZE_BYTES, f));
    GMS_CU(cuFuncGetAttribute(&maxt, CU_FUNC_ATTRIBUTE_MAX_THREADS_PER_BLOCK, f));
    printf("gpumemsim-attr %s regs=%d local=%d shared=%d const=%d max_threads=%d\n",
           name, regs, local, shared, cnst, maxt);
    fflush(stdout);
    return f;
}
"#;

fn host_program(
    spec: &Spec,
    kernel_params: &[Vec<ParamKind>],
    program_dir: &Path,
    kernels: Kernels<'_>,
) -> Result<String, ExportError> {
    let file = spec.path.display().to_string();
    if kernel_params.len() != spec.launches.len() {
        return Err(ExportError::ParamLists {
            file,
            launches: spec.launches.len(),
            given: kernel_params.len(),
        });
    }
    let driver = matches!(kernels, Kernels::Ptx { .. });

    // Output file names, which must not clash.
    let mut out_names: Vec<(String, String)> = Vec::new();
    for o in &spec.outputs {
        let label = if o.symbol {
            format!("sym:{}", o.buffer)
        } else {
            o.buffer.clone()
        };
        let name = o
            .path
            .file_name()
            .and_then(|n| n.to_str())
            .ok_or_else(|| ExportError::Path {
                file: file.clone(),
                key: format!("[outputs] {label}"),
                path: o.path.display().to_string(),
            })?
            .to_string();
        if let Some((other, _)) = out_names.iter().find(|(_, n)| *n == name) {
            return Err(ExportError::OutputClash {
                file: file.clone(),
                a: other.clone(),
                b: label,
                name,
            });
        }
        out_names.push((label, name));
    }

    // Launch arguments, checked before anything is written.
    let mut launch_args: Vec<Vec<(&'static str, CArg)>> = Vec::new();
    for (l, params) in spec.launches.iter().zip(kernel_params) {
        let args_err = |key: String, message: String| ExportError::Args {
            file: file.clone(),
            launch: l.key.clone(),
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
            args.push(c_arg(spec, a, *p).map_err(|m| args_err(format!("args[{ai}]"), m))?);
        }
        launch_args.push(args);
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
    if driver {
        c.push_str(
            "// Runs the embedded PTX (the PTX gpumemsim simulates) through the CUDA driver API.\n\
             // Build: nvcc -O3 -arch=sm_90 -o prog prog.cu -lcuda\n",
        );
    } else {
        c.push_str("// Build: nvcc -O3 -arch=sm_90 -lineinfo -o prog prog.cu\n");
    }
    c.push_str(
        "// Run:   ./prog OUTDIR [DATADIR]   (DATADIR: where file: inputs are, default: dir of prog)\n",
    );
    if driver {
        c.push_str("//        ./prog --ptx   prints the embedded PTX\n");
    }
    c.push_str(
        "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n",
    );
    if driver {
        c.push_str("#include <cuda.h>\n");
    }
    c.push_str("#include <cuda_runtime.h>\n");
    match &kernels {
        Kernels::Include(rel) => {
            let _ = writeln!(c, "#include {}\n", c_str(rel));
        }
        Kernels::Ptx { text, .. } => {
            let _ = write!(
                c,
                "\n/* The PTX, verbatim. */\nstatic const char gms_ptx[] =\n{};\n\n",
                c_text_literal(text).trim_end()
            );
        }
    }
    c.push_str(C_PRELUDE);
    c.push_str(C_HOST_HELPERS);
    c.push_str(if driver {
        C_DRIVER_HELPERS
    } else {
        C_INCLUDE_HELPERS
    });
    let main_head = r#"
int main(int argc, char** argv) {
    if (argc < 2) {
        fprintf(stderr, "usage: %s OUTDIR [DATADIR]\n", argv[0]);
        return 2;
    }
GMS_PTX_OPTION    const char* outdir = argv[1];
    char datadir[4096];
    if (argc > 2) {
        snprintf(datadir, sizeof datadir, "%s", argv[2]);
    } else {
        const char* slash = strrchr(argv[0], '/');
        if (slash) snprintf(datadir, sizeof datadir, "%.*s", (int)(slash - argv[0]), argv[0]);
        else snprintf(datadir, sizeof datadir, ".");
    }
    (void)datadir;
"#;
    c.push_str(&main_head.replace(
        "GMS_PTX_OPTION",
        if driver {
            "    if (strcmp(argv[1], \"--ptx\") == 0) { /* the embedded PTX, for ptxas/cuobjdump */\n        \
             fputs(gms_ptx, stdout);\n        return fflush(stdout) != 0;\n    }\n"
        } else {
            ""
        },
    ));

    // The module and its kernels.
    let mut functions: Vec<&str> = Vec::new();
    if let Kernels::Ptx { mangled, .. } = &kernels {
        c.push_str(
            r#"
    // The runtime's primary context, made current by cudaFree(0), holds the module, so the
    // cudaMalloc'd buffers are valid kernel arguments.
    GMS_CHECK(cudaSetDevice(0));
    GMS_CHECK(cudaFree(0));
    GMS_CU(cuInit(0));
    CUcontext gms_ctx = NULL;
    GMS_CU(cuCtxGetCurrent(&gms_ctx));
    if (gms_ctx == NULL) { fprintf(stderr, "no current CUDA context after cudaFree(0)\n"); return 1; }
    CUmodule gms_mod = NULL;
    {
        static char info[65536], error[65536];
        CUjit_option opts[6] = { CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES,
                                 CU_JIT_ERROR_LOG_BUFFER, CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES,
                                 CU_JIT_LOG_VERBOSE, CU_JIT_GENERATE_LINE_INFO };
        void* vals[6] = { info, (void*)(uintptr_t)sizeof info, error,
                          (void*)(uintptr_t)sizeof error, (void*)(uintptr_t)1, (void*)(uintptr_t)1 };
        /* GPUMEMSIM_MODULE=FILE loads that image (the cubin `gpumemsim sass --cubin` wrote)
           instead of the embedded PTX, so the GPU runs the very SASS the simulator runs. */
        const void* gms_image = gms_ptx;
        const char* gms_module = getenv("GPUMEMSIM_MODULE");
        if (gms_module && gms_module[0]) {
            FILE* f = fopen(gms_module, "rb");
            if (!f) { fprintf(stderr, "cannot open GPUMEMSIM_MODULE %s\n", gms_module); return 1; }
            fseek(f, 0, SEEK_END);
            long n = ftell(f);
            fseek(f, 0, SEEK_SET);
            char* buf = (char*)malloc(n > 0 ? (size_t)n : 1u);
            if (!buf || n <= 0 || fread(buf, 1, (size_t)n, f) != (size_t)n) { fprintf(stderr, "cannot read %s\n", gms_module); return 1; }
            fclose(f);
            gms_image = buf;
            printf("gpumemsim-module: %s (%ld bytes)\n", gms_module, n);
        }
        CUresult r = cuModuleLoadDataEx(&gms_mod, gms_image, 6u, opts, vals);
        info[sizeof info - 1] = 0;
        error[sizeof error - 1] = 0;
        if (info[0]) printf("gpumemsim-jit info log:\n%s\n", info);
        if (r != CUDA_SUCCESS) fprintf(stderr, "PTX JIT error log:\n%s\n", error);
        GMS_CU(r);
    }
"#,
        );
        for m in mangled.iter() {
            if !functions.contains(&m.as_str()) {
                let _ = writeln!(
                    c,
                    "    CUfunction f{} = gms_function(gms_mod, {});",
                    functions.len(),
                    c_str(m)
                );
                functions.push(m.as_str());
            }
        }
    }

    // Buffers.
    for (i, b) in spec.buffers.iter().enumerate() {
        let rel = match &b.init {
            Init::File(p) => {
                rel_string(&file, &format!("[buffers.{}] init", b.name), p, program_dir)?
            }
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
        if b.init != Init::Uninit {
            let _ = writeln!(
                c,
                "    GMS_CHECK(cudaMemcpy(d{i}, h{i}, {n}ull, cudaMemcpyHostToDevice));"
            );
        }
    }
    // Symbols.
    for s in spec.symbols.iter().filter(|s| s.init != Init::Uninit) {
        let rel = match &s.init {
            Init::File(p) => {
                rel_string(&file, &format!("[symbols.{}] init", s.name), p, program_dir)?
            }
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
        if driver {
            let name = c_str(&s.name);
            let _ = writeln!(
                c,
                "    CUdeviceptr ds = 0; size_t ns = 0;\n    \
                 GMS_CU(cuModuleGetGlobal(&ds, &ns, gms_mod, {name}));\n    \
                 if (ns < {n}ull) {{ fprintf(stderr, \"symbol %s has %zu bytes, {n} given\\n\", {name}, ns); return 1; }}\n    \
                 GMS_CU(cuMemcpyHtoD(ds, hs, {n}ull));"
            );
        } else {
            let _ = writeln!(
                c,
                "    GMS_CHECK(cudaMemcpyToSymbol({}, hs, {n}ull));",
                s.name
            );
        }
        c.push_str("    free(hs); }\n");
    }

    // CUDA arrays, texture and surface objects.
    let mut rels = Vec::new();
    for a in &spec.arrays {
        rels.push(match &a.data.init {
            Init::File(p) => {
                rel_string(&file, &format!("[arrays.{}] init", a.name), p, program_dir)?
            }
            _ => String::new(),
        });
    }
    c.push_str(&textures::create(spec, &rels));

    // Launches: the code of each, placed by the steps below.
    let mut launch_code: Vec<String> = Vec::new();
    for (li, (l, args)) in spec.launches.iter().zip(&launch_args).enumerate() {
        let mut c = String::new();
        let no = c_str(&l.key).trim_matches('"').to_string();
        let k = &l.kernel;
        let _ = writeln!(
            c,
            "\n    // {no}: {k} grid {:?} block {:?} shared {}",
            l.grid, l.block, l.shared
        );
        let [gx, gy, gz] = l.grid;
        let [bx, by, bz] = l.block;
        let name = c_str(k);
        match &kernels {
            Kernels::Include(_) => {
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
                let list: Vec<String> = args.iter().map(|(_, a)| a.runtime()).collect();
                let _ = writeln!(
                    c,
                    "    {k}<<<dim3({gx}u, {gy}u, {gz}u), dim3({bx}u, {by}u, {bz}u), {}u>>>({});",
                    l.shared,
                    list.join(", ")
                );
                let _ = writeln!(
                    c,
                    "    {{ cudaError_t e = cudaGetLastError(); if (e == cudaSuccess) e = cudaDeviceSynchronize();\n      \
                     if (e != cudaSuccess) {{ fprintf(stderr, \"{no} (%s): %s\\n\", {name}, cudaGetErrorString(e)); exit(1); }} }}"
                );
            }
            Kernels::Ptx { mangled, .. } => {
                let fi = functions
                    .iter()
                    .position(|m| *m == mangled[li].as_str())
                    .unwrap_or(0);
                let _ = writeln!(c, "    // {}", mangled[li]);
                c.push_str("    {\n");
                if let Some(m) = l.max_dynamic_shared {
                    let _ = writeln!(
                        c,
                        "        GMS_CU(cuFuncSetAttribute(f{fi}, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, {m}));"
                    );
                }
                if let Some(pct) = l.carveout {
                    let _ = writeln!(
                        c,
                        "        GMS_CU(cuFuncSetAttribute(f{fi}, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, {pct}));"
                    );
                }
                for (ai, (ty, a)) in args.iter().enumerate() {
                    let _ = writeln!(c, "        {ty} a{ai} = {};", a.driver(ty));
                }
                let params = if args.is_empty() {
                    "NULL".to_string()
                } else {
                    let refs: Vec<String> = (0..args.len()).map(|ai| format!("&a{ai}")).collect();
                    let _ = writeln!(c, "        void* params[] = {{ {} }};", refs.join(", "));
                    "params".to_string()
                };
                let _ = writeln!(
                    c,
                    "        CUresult r = cuLaunchKernel(f{fi}, {gx}u, {gy}u, {gz}u, {bx}u, {by}u, {bz}u, {}u, NULL, {params}, NULL);\n        \
                     if (r == CUDA_SUCCESS) r = cuCtxSynchronize();\n        \
                     if (r != CUDA_SUCCESS) {{ const char* en = NULL; if (cuGetErrorName(r, &en) != CUDA_SUCCESS) en = \"unknown CUresult\";\n            \
                     fprintf(stderr, \"{no} (%s): %s (%d)\\n\", {name}, en, (int)r); exit(1); }}\n    }}",
                    l.shared
                );
            }
        }
        launch_code.push(c);
    }
    let mut loops = 0usize;
    emit_steps(&mut c, spec, &spec.steps, &launch_code, driver, &mut loops);

    // Outputs.
    c.push('\n');
    for (o, (buffer, name)) in spec.outputs.iter().zip(&out_names) {
        if o.symbol {
            let sym = c_str(&o.buffer);
            let _ = writeln!(c, "    // output {buffer:?}");
            if driver {
                let _ = writeln!(
                    c,
                    "    {{ CUdeviceptr gs = 0; size_t gn = 0; unsigned char* hs;\n      \
                     GMS_CU(cuModuleGetGlobal(&gs, &gn, gms_mod, {sym}));\n      \
                     hs = (unsigned char*)malloc(gn ? gn : 1);\n      \
                     if (!hs) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}\n      \
                     GMS_CU(cuMemcpyDtoH(hs, gs, gn));\n      \
                     if (gms_write(outdir, {}, hs, gn)) return 1;\n      \
                     free(hs); }}",
                    c_str(name)
                );
            } else {
                let v = &o.buffer;
                let _ = writeln!(
                    c,
                    "    {{ size_t gn = 0; unsigned char* hs;\n      \
                     GMS_CHECK(cudaGetSymbolSize(&gn, {v}));\n      \
                     hs = (unsigned char*)malloc(gn ? gn : 1);\n      \
                     if (!hs) {{ fprintf(stderr, \"out of host memory\\n\"); return 1; }}\n      \
                     GMS_CHECK(cudaMemcpyFromSymbol(hs, {v}, gn));\n      \
                     if (gms_write(outdir, {}, hs, gn)) return 1;\n      \
                     free(hs); }}",
                    c_str(name)
                );
            }
            continue;
        }
        if o.array {
            c.push_str(&textures::output(spec, &o.buffer, &c_str(name)));
            continue;
        }
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
        if freed_by_step(&spec.steps, i) {
            let _ = writeln!(c, "    free(h{i});");
        } else {
            let _ = writeln!(c, "    GMS_CHECK(cudaFree(d{i}));\n    free(h{i});");
        }
    }
    c.push_str(&textures::destroy(spec));
    if driver {
        c.push_str("    GMS_CU(cuModuleUnload(gms_mod));\n");
    }
    c.push_str("    return 0;\n}\n");
    Ok(c)
}

/// Whether a `free` step (at the top level: the spec allows it nowhere else) frees buffer `i`.
fn freed_by_step(steps: &[Step], i: usize) -> bool {
    steps
        .iter()
        .any(|s| matches!(s, Step::Free { buffer, .. } if *buffer == i))
}

/// Writes the C code of `steps` (the launches' code is `launch_code`), repeats as `for` loops.
fn emit_steps(
    c: &mut String,
    spec: &Spec,
    steps: &[Step],
    launch_code: &[String],
    driver: bool,
    loops: &mut usize,
) {
    let dptr = |index: usize, offset: u64| -> String {
        if driver {
            format!("((CUdeviceptr)(uintptr_t)d{index} + {offset}ull)")
        } else {
            format!("(void*)((char*)d{index} + {offset}ull)")
        }
    };
    for st in steps {
        match st {
            Step::Launch(i) => {
                if let Some(code) = launch_code.get(*i) {
                    c.push_str(code);
                }
            }
            Step::Memset(m) => {
                let name = spec.buffers.get(m.buffer).map_or("", |b| b.name.as_str());
                let _ = writeln!(c, "\n    // {}: memset {name:?}", m.key);
                let d = dptr(m.buffer, m.offset);
                let (v, n) = (m.value, m.bytes);
                if driver {
                    let _ = writeln!(
                        c,
                        "    GMS_CU(cuMemsetD8({d}, (unsigned char){v}u, {n}ull));"
                    );
                } else {
                    let _ = writeln!(c, "    GMS_CHECK(cudaMemset({d}, {v}, {n}ull));");
                }
            }
            Step::Free { buffer, key } => {
                let name = spec.buffers.get(*buffer).map_or("", |b| b.name.as_str());
                let _ = writeln!(c, "\n    // {key}: free {name:?}");
                if driver {
                    let _ = writeln!(
                        c,
                        "    GMS_CU(cuMemFree((CUdeviceptr)(uintptr_t)d{buffer}));"
                    );
                } else {
                    let _ = writeln!(c, "    GMS_CHECK(cudaFree(d{buffer}));");
                }
            }
            Step::Memcpy(m) => {
                let _ = writeln!(c, "\n    // {}: memcpy", m.key);
                let n = m.bytes;
                match (&m.dst, &m.src) {
                    (
                        Place::Buffer {
                            index: d,
                            offset: od,
                        },
                        Place::Buffer {
                            index: s,
                            offset: os,
                        },
                    ) => {
                        let (d, s) = (dptr(*d, *od), dptr(*s, *os));
                        if driver {
                            let _ = writeln!(c, "    GMS_CU(cuMemcpyDtoD({d}, {s}, {n}ull));");
                        } else {
                            let _ = writeln!(
                                c,
                                "    GMS_CHECK(cudaMemcpy({d}, {s}, {n}ull, cudaMemcpyDeviceToDevice));"
                            );
                        }
                    }
                    (Place::Symbol { name, offset }, Place::Buffer { index, offset: os })
                    | (Place::Buffer { index, offset: os }, Place::Symbol { name, offset }) => {
                        let to_symbol = matches!(m.dst, Place::Symbol { .. });
                        let b = dptr(*index, *os);
                        if driver {
                            let sym = c_str(name);
                            let copy = if to_symbol {
                                format!("cuMemcpyDtoD(gs + {offset}ull, {b}, {n}ull)")
                            } else {
                                format!("cuMemcpyDtoD({b}, gs + {offset}ull, {n}ull)")
                            };
                            let _ = writeln!(
                                c,
                                "    {{ CUdeviceptr gs = 0; size_t gn = 0;\n      \
                                 GMS_CU(cuModuleGetGlobal(&gs, &gn, gms_mod, {sym}));\n      \
                                 if ((unsigned long long)gn < {offset}ull || (unsigned long long)gn - {offset}ull < {n}ull) {{\n          \
                                 fprintf(stderr, \"{}: %s has %zu bytes, {n} at offset {offset} do not fit\\n\", {sym}, gn); exit(1); }}\n      \
                                 GMS_CU({copy}); }}",
                                c_str(&m.key).trim_matches('"')
                            );
                        } else if to_symbol {
                            let _ = writeln!(
                                c,
                                "    GMS_CHECK(cudaMemcpyToSymbol({name}, {b}, {n}ull, {offset}ull, cudaMemcpyDeviceToDevice));"
                            );
                        } else {
                            let _ = writeln!(
                                c,
                                "    GMS_CHECK(cudaMemcpyFromSymbol({b}, {name}, {n}ull, {offset}ull, cudaMemcpyDeviceToDevice));"
                            );
                        }
                    }
                    (Place::Symbol { .. }, Place::Symbol { .. }) => {
                        c.push_str("    /* a symbol-to-symbol copy is refused by the spec */\n");
                    }
                }
            }
            Step::Repeat { times, steps, key } => {
                let r = format!("gms_rep{}", *loops);
                *loops += 1;
                let _ = writeln!(
                    c,
                    "\n    // {}: repeat {times} times\n    {{ unsigned long long {r}; for ({r} = 0; {r} < {times}ull; {r}++) {{",
                    c_str(key).trim_matches('"')
                );
                emit_steps(c, spec, steps, launch_code, driver, loops);
                c.push_str("    } }\n");
            }
        }
    }
}

/// One kernel argument's value.
enum CArg {
    /// Buffer `index` (its device pointer `d<index>`) plus a byte offset, with a comment label.
    Buffer(usize, u64, String),
    /// A null pointer.
    Null,
    /// A C expression of the parameter's type.
    Value(String),
}

impl CArg {
    /// The argument of a `<<<>>>` call.
    fn runtime(&self) -> String {
        match self {
            CArg::Buffer(i, 0, label) => format!("gms_ptr{{d{i}}} /* {label} */"),
            CArg::Buffer(i, off, label) => {
                format!("gms_ptr{{(void*)((char*)d{i} + {off}ull)}} /* {label} */")
            }
            CArg::Null => "gms_ptr{NULL}".into(),
            CArg::Value(e) => e.clone(),
        }
    }

    /// The initialiser of a variable of C type `ty` whose address goes in `kernelParams`.
    fn driver(&self, ty: &str) -> String {
        match self {
            CArg::Buffer(i, 0, label) => format!("({ty})(uintptr_t)d{i} /* {label} */"),
            CArg::Buffer(i, off, label) => {
                format!("({ty})((uintptr_t)d{i} + {off}ull) /* {label} */")
            }
            CArg::Null => "0".into(),
            CArg::Value(e) => e.clone(),
        }
    }
}

/// The C type (for a `kernelParams` variable) and value passing `a` as a parameter of kind `p`.
fn c_arg(spec: &Spec, a: &Arg, p: ParamKind) -> Result<(&'static str, CArg), String> {
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
    let float = |p: ParamKind, v: f64| -> Option<(&'static str, CArg)> {
        match p {
            ParamKind::F32 => Some((
                "float",
                CArg::Value(format!("gms_f32({:#x}u) /* {v} */", (v as f32).to_bits())),
            )),
            ParamKind::F64 => Some((
                "double",
                CArg::Value(format!("gms_f64({:#x}ull) /* {v} */", v.to_bits())),
            )),
            _ => None,
        }
    };
    match (a, p) {
        (Arg::Texture(name) | Arg::Surface(name), ParamKind::U64 | ParamKind::I64) => {
            textures::object_var(spec, name)
                .map(|v| ("unsigned long long", CArg::Value(v)))
                .ok_or_else(|| format!("no texture or surface named {name:?}"))
        }
        (Arg::Texture(name) | Arg::Surface(name), p) => Err(format!(
            "texture or surface {name:?} given for a {p} parameter (cudaTextureObject_t is 64-bit)"
        )),
        // PTX declares pointers as `.u64`, so a buffer also fits a 64-bit integer parameter.
        (Arg::Buffer { name, offset }, ParamKind::Pointer | ParamKind::U64 | ParamKind::I64) => {
            let ty = match p {
                ParamKind::Pointer => "CUdeviceptr",
                ParamKind::I64 => "int64_t",
                _ => "uint64_t",
            };
            spec.buffers
                .iter()
                .position(|b| &b.name == name)
                .map(|i| {
                    let label = match offset {
                        0 => format!("{name:?}"),
                        o => format!("{name:?} + {o} bytes"),
                    }
                    .replace("*/", "* /");
                    (ty, CArg::Buffer(i, *offset, label))
                })
                .ok_or_else(|| format!("no buffer named {name:?}"))
        }
        (Arg::Buffer { name, .. }, p) => Err(format!("buffer {name:?} given for a {p} parameter")),
        (Arg::Int(0), ParamKind::Pointer) => Ok(("CUdeviceptr", CArg::Null)),
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
                    Ok((cty, CArg::Value(format!("({cty})INT64_MIN"))))
                } else {
                    Ok((cty, CArg::Value(format!("({cty}){v}ll"))))
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

mod textures;

#[cfg(test)]
mod tests;
