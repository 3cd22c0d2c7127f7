//! NVRTC front end, end to end. Every test needs NVRTC: without it a test prints a SKIP line,
//! and under CI (`CI=true`, where `.ci/run` installs `nvidia-cuda-nvrtc`) it fails
//! (`gpumemsim::testing::require`).
//!
//! Expected mangled names are worked by hand from the Itanium C++ ABI's mangling rules
//! (`_Z` <length><name> [template args `I…E` + return type] <parameter types>; `Pf` = `float*`,
//! `i` = `int`, `Li32E` = the int literal 32, `v` = `void`).

use std::path::{Path, PathBuf};

use gpumemsim::frontend::{
    compile_cuda_with_cache, kernel_resources_with, nvrtc_version, CacheMode, CompileOptions,
    FrontendError, KernelResources,
};

fn have_nvrtc() -> bool {
    gpumemsim::testing::require("NVRTC", nvrtc_version(), gpumemsim::testing::INSTALL_NVRTC)
        .is_some()
}

fn names(list: &[&str]) -> Vec<String> {
    list.iter().map(|s| s.to_string()).collect()
}

fn compile(
    path: &str,
    src: &str,
    exprs: &[&str],
) -> Result<gpumemsim::frontend::CompiledCuda, FrontendError> {
    compile_cuda_with_cache(
        Path::new(path),
        src,
        &names(exprs),
        &CompileOptions::default(),
        &CacheMode::Disabled,
    )
}

fn resources(src: &str, exprs: &[&str]) -> Vec<KernelResources> {
    match kernel_resources_with(
        Path::new("res.cu"),
        src,
        &names(exprs),
        "sm_90",
        &[],
        &CacheMode::Disabled,
    ) {
        Ok(r) => r,
        Err(e) => panic!("kernel_resources failed: {e}"),
    }
}

fn find<'a>(r: &'a [KernelResources], name: &str) -> &'a KernelResources {
    match r.iter().find(|k| k.mangled_name == name) {
        Some(k) => k,
        None => panic!("no resources for {name} in {r:?}"),
    }
}

fn temp_dir(tag: &str) -> PathBuf {
    let d = std::env::temp_dir().join(format!("gpumemsim-nvrtc-test-{}-{tag}", std::process::id()));
    let _ = std::fs::remove_dir_all(&d);
    std::fs::create_dir_all(&d).unwrap();
    d
}

const FOO: &str = "__global__ void foo(float* a) { a[threadIdx.x] = 1.0f; }\n";

#[test]
fn version_is_at_least_cuda_12() {
    if !have_nvrtc() {
        return;
    }
    let (major, minor) = nvrtc_version().unwrap();
    assert!(
        major >= 12,
        "NVRTC {major}.{minor} is too old for compute_90 with this front end"
    );
}

#[test]
fn plain_kernel_has_its_lowered_entry() {
    if !have_nvrtc() {
        return;
    }
    let out = compile("plain.cu", FOO, &["foo"]).unwrap();
    assert_eq!(out.lowered("foo"), Some("_Z3fooPf"));
    assert_eq!(
        out.lowered_names,
        vec![("foo".to_string(), "_Z3fooPf".to_string())]
    );
    assert!(out.ptx.contains(".entry _Z3fooPf("), "{}", out.ptx);
    // compute_90 is PTX target sm_90; -lineinfo puts .loc/.file directives naming the file.
    assert!(out.ptx.contains(".target sm_90"));
    assert!(out.ptx.contains(".loc"));
    assert!(out.ptx.contains("plain.cu"));
    assert!(!out.from_cache);
}

#[test]
fn template_name_expression() {
    if !have_nvrtc() {
        return;
    }
    let src = "template <int S> __global__ void sh_stride(float* out) {\n\
                   __shared__ float s[1024];\n\
                   s[(threadIdx.x * S) % 1024] = threadIdx.x;\n\
                   __syncthreads();\n\
                   out[threadIdx.x] = s[threadIdx.x];\n\
               }\n";
    let out = compile("tmpl.cu", src, &["sh_stride<32>", "sh_stride<1>"]).unwrap();
    assert_eq!(out.lowered("sh_stride<32>"), Some("_Z9sh_strideILi32EEvPf"));
    assert_eq!(out.lowered("sh_stride<1>"), Some("_Z9sh_strideILi1EEvPf"));
    assert!(out.ptx.contains(".entry _Z9sh_strideILi32EEvPf("));
    assert!(out.ptx.contains(".entry _Z9sh_strideILi1EEvPf("));
}

#[test]
fn cuda_fp16_header_compiles() {
    if !have_nvrtc() {
        return;
    }
    let src = "#include <cuda_fp16.h>\n\
               __global__ void h(__half* a, float* b) { b[threadIdx.x] = __half2float(a[threadIdx.x]); }\n";
    let out = compile("half.cu", src, &["h"]).unwrap_or_else(|e| panic!("{e}"));
    assert_eq!(out.lowered("h"), Some("_Z1hP6__halfPf"));
    assert!(out.ptx.contains(".entry _Z1hP6__halfPf("));
}

#[test]
fn syntax_error_has_file_line_and_column() {
    if !have_nvrtc() {
        return;
    }
    let src = "__global__ void k(float* a)\n{\n    x = 1;\n    a[0] = 2.0f;\n}\n";
    let err = compile("examples/bad.cu", src, &["k"]).unwrap_err();
    let FrontendError::Compile {
        file, diagnostics, ..
    } = &err
    else {
        panic!("expected a compile error, got {err:?}");
    };
    assert_eq!(file, "examples/bad.cu");
    let d = &diagnostics[0];
    assert_eq!(
        (d.file.as_str(), d.line, d.column),
        ("examples/bad.cu", 3, 5)
    );
    assert_eq!(d.message, "identifier \"x\" is undefined");
    assert_eq!(d.source_line.as_deref(), Some("    x = 1;"));
    let text = err.to_string();
    assert!(
        text.starts_with("examples/bad.cu:3:5: error: identifier \"x\" is undefined\n    3 |     x = 1;\n      |     ^"),
        "{text}"
    );
}

#[test]
fn unknown_name_expression_is_reported_as_such() {
    if !have_nvrtc() {
        return;
    }
    match compile("plain.cu", FOO, &["nope"]) {
        Err(FrontendError::NameExpression { expression, .. }) => assert_eq!(expression, "nope"),
        other => panic!("expected a name-expression error, got {other:?}"),
    }
}

#[test]
fn local_header_next_to_the_file_is_found() {
    if !have_nvrtc() {
        return;
    }
    let dir = temp_dir("inc");
    std::fs::write(dir.join("val.cuh"), "#define VAL 3.0f\n").unwrap();
    let path = dir.join("k.cu");
    let src = "#include \"val.cuh\"\n__global__ void k(float* a) { a[0] = VAL; }\n";
    let out = compile_cuda_with_cache(
        &path,
        src,
        &names(&["k"]),
        &CompileOptions::default(),
        &CacheMode::Disabled,
    )
    .unwrap_or_else(|e| panic!("{e}"));
    assert!(out.ptx.contains(".entry _Z1kPf("));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn cache_returns_the_same_ptx_and_sees_header_edits() {
    if !have_nvrtc() {
        return;
    }
    let dir = temp_dir("cache");
    let cache = CacheMode::Dir(dir.join("cache"));
    std::fs::write(dir.join("val.cuh"), "#define VAL 3.0f\n").unwrap();
    let path = dir.join("k.cu");
    let src = "#include \"val.cuh\"\n__global__ void k(float* a) { a[0] = VAL; }\n";
    let opts = CompileOptions::default();
    let exprs = names(&["k"]);
    let first = compile_cuda_with_cache(&path, src, &exprs, &opts, &cache).unwrap();
    let second = compile_cuda_with_cache(&path, src, &exprs, &opts, &cache).unwrap();
    assert!(!first.from_cache);
    assert!(second.from_cache);
    assert_eq!(first.ptx, second.ptx);
    assert_eq!(first.lowered_names, second.lowered_names);
    // Editing the included header must miss the cache and change the PTX. The constant is
    // stored as its bit pattern: 3.0f = 0x40400000 = 1077936128, 4.0f = 0x40800000 = 1082130432
    // (IEEE 754 binary32), printed in decimal or as PTX's 0f hex float.
    std::fs::write(dir.join("val.cuh"), "#define VAL 4.0f\n").unwrap();
    let third = compile_cuda_with_cache(&path, src, &exprs, &opts, &cache).unwrap();
    assert!(!third.from_cache);
    let has = |ptx: &str, dec: &str, hex: &str| ptx.contains(dec) || ptx.contains(hex);
    assert!(has(&first.ptx, "1077936128", "0f40400000"), "{}", first.ptx);
    assert!(has(&third.ptx, "1082130432", "0f40800000"), "{}", third.ptx);
    // Resource usage is cached too.
    let r1 = kernel_resources_with(&path, src, &exprs, "sm_90", &[], &cache).unwrap();
    let r2 = kernel_resources_with(&path, src, &exprs, "sm_90", &[], &cache).unwrap();
    assert_eq!(r1, r2);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn resources_of_a_simple_kernel() {
    if !have_nvrtc() {
        return;
    }
    let src = "__global__ void foo(float* a) { __shared__ float s[1024];\n\
               s[threadIdx.x] = a[threadIdx.x]; __syncthreads(); a[threadIdx.x] = s[1023 - threadIdx.x]; }\n";
    let r = resources(src, &["foo"]);
    let k = find(&r, "_Z3fooPf");
    assert_eq!((k.spill_stores, k.spill_loads, k.stack_frame), (0, 0, 0));
    assert!(k.registers > 0 && k.registers <= 255, "{k:?}");
    // 1024 floats * 4 bytes.
    assert_eq!(k.static_shared, 4096);
    // cmem[0] = 0x210-byte driver area + one 8-byte pointer parameter [ELF in src/frontend/nvrtc.rs].
    assert_eq!(k.const_bytes, 0x210 + 8);
    assert_eq!(k.barriers, 1);
}

#[test]
fn resources_of_kernels_that_need_local_memory() {
    if !have_nvrtc() {
        return;
    }
    // A dynamically indexed local array cannot live in registers: 256 floats = 1024 bytes of stack.
    // The second kernel keeps 64 accumulators live under a 32-register cap
    // (__launch_bounds__(1024, 2): 65536 registers / 2048 threads), so it must spill.
    let src = "__global__ void local_array(float* a, int k) {\n\
                   float loc[256];\n\
                   for (int i = 0; i < 256; i++) loc[i] = a[i * k];\n\
                   a[threadIdx.x] = loc[k & 255];\n\
               }\n\
               __global__ void __launch_bounds__(1024, 2) pressure(float* a, int n) {\n\
                   float acc[64];\n\
                   #pragma unroll\n\
                   for (int j = 0; j < 64; j++) acc[j] = a[j * n + threadIdx.x];\n\
                   for (int i = 0; i < n; i++) {\n\
                       #pragma unroll\n\
                       for (int j = 0; j < 64; j++) acc[j] = acc[j] * acc[(j + 1) & 63] + a[i];\n\
                   }\n\
                   float s = 0.0f;\n\
                   #pragma unroll\n\
                   for (int j = 0; j < 64; j++) s += acc[j] * (j + 1);\n\
                   a[threadIdx.x] = s;\n\
               }\n";
    let r = resources(src, &["local_array", "pressure"]);
    let local = find(&r, "_Z11local_arrayPfi");
    assert!(local.stack_frame >= 1024, "{local:?}");
    let pressure = find(&r, "_Z8pressurePfi");
    assert!(pressure.registers <= 32, "{pressure:?}");
    assert!(
        pressure.spill_stores > 0 && pressure.spill_loads > 0,
        "{pressure:?}"
    );
    assert!(pressure.stack_frame > 0, "{pressure:?}");
}

#[test]
fn resources_need_a_real_architecture() {
    if !have_nvrtc() {
        return;
    }
    match kernel_resources_with(
        Path::new("v.cu"),
        FOO,
        &names(&["foo"]),
        "compute_90",
        &[],
        &CacheMode::Disabled,
    ) {
        Err(FrontendError::NoCubin { arch }) => assert_eq!(arch, "compute_90"),
        other => panic!("expected NoCubin, got {other:?}"),
    }
}
