//! Export tests. The initialisation check compiles the generated C with the system C compiler
//! (`cc`) and compares its bytes with `Buffer::initial_bytes`: two independent implementations
//! of the rules in the `spec` module docs must agree bit for bit.

use super::*;
use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

fn scratch() -> PathBuf {
    static N: AtomicUsize = AtomicUsize::new(0);
    let dir = std::env::temp_dir().join(format!(
        "gpumemsim-export-{}-{}",
        std::process::id(),
        N.fetch_add(1, Ordering::Relaxed)
    ));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::write(dir.join("k.cu"), "// kernels\n").unwrap();
    dir
}

fn spec_in(dir: &Path, text: &str) -> Spec {
    let p = dir.join("spec.toml");
    std::fs::write(&p, text).unwrap();
    Spec::load(&p).unwrap()
}

/// `cc` is there; otherwise a SKIP, or a failure under CI ([`crate::testing::require`]).
fn have_cc() -> bool {
    crate::testing::require_tool("cc", crate::testing::INSTALL_CC)
}

/// Compiles and runs a C program; returns its directory.
fn run_c(dir: &Path, program: &str) {
    let src = dir.join("t.c");
    std::fs::write(&src, program).unwrap();
    let exe = dir.join("t");
    let out = Command::new("cc")
        .args([
            "-std=c99",
            "-O1",
            "-Wall",
            "-Werror",
            "-Wno-unused-function",
            "-o",
        ])
        .arg(&exe)
        .arg(&src)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "cc failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let out = Command::new(&exe).current_dir(dir).output().unwrap();
    assert!(
        out.status.success(),
        "program failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const C_HEAD: &str =
    "#include <stdint.h>\n#include <stdio.h>\n#include <stdlib.h>\n#include <string.h>\n";

#[test]
fn generated_c_init_matches_initial_bytes() {
    if !have_cc() {
        return;
    }
    let dir = scratch();
    std::fs::write(dir.join("raw.bin"), (0..=255u8).collect::<Vec<_>>()).unwrap();
    let mut toml = String::from("source = \"k.cu\"\n");
    let fills = [
        ("u8", "200"),
        ("i8", "-100"),
        ("u16", "0xbeef"),
        ("i16", "-30000"),
        ("u32", "4000000000"),
        ("i32", "-2000000000"),
        ("u64", "18446744073709551615"),
        ("i64", "-9223372036854775808"),
        ("f16", "0.1"),
        ("bf16", "-3.14159"),
        ("f32", "1e-40"),
        ("f64", "2.718281828459045"),
    ];
    let values = [
        ("u8", "[0, 1, 255]"),
        ("i8", "[-128, 127, -1]"),
        ("u16", "[65535, 7]"),
        ("i16", "[-32768, 5]"),
        ("u32", "[4294967295, 0]"),
        ("i32", "[-1, 2147483647]"),
        ("u64", "[\"0xffffffffffffffff\", 3]"),
        ("i64", "[-9223372036854775808, 9]"),
        ("f16", "[0.5, -65504.0, 6e-8, inf]"),
        ("bf16", "[1.0, -0.0, 3.0e38]"),
        ("f32", "[0.1, 1e-45, -3.4e38, nan]"),
        ("f64", "[0.1, 5e-324, -1e308]"),
    ];
    for (ty, fill) in fills {
        // 70000 iota elements reach past f16's largest finite value (65504) and its ties.
        toml += &format!("[buffers.{ty}_iota]\ntype = \"{ty}\"\nlen = 70000\ninit = \"iota\"\n");
        toml += &format!("[buffers.{ty}_zeros]\ntype = \"{ty}\"\nlen = 33\n");
        toml +=
            &format!("[buffers.{ty}_fill]\ntype = \"{ty}\"\nlen = 17\ninit = \"fill:{fill}\"\n");
        let seed = 0x5eed_0000 + ty.len() * 1000 + fill.len();
        toml += &format!(
            "[buffers.{ty}_random]\ntype = \"{ty}\"\nlen = 5000\ninit = \"random:{seed}\"\n"
        );
        toml += &format!("[buffers.{ty}_file]\ntype = \"{ty}\"\ninit = \"file:raw.bin\"\n");
    }
    for (ty, v) in values {
        toml += &format!("[symbols.{ty}_values]\ntype = \"{ty}\"\nvalues = {v}\n");
    }
    // f16 subnormals in [0, 2^-14) are hit about once in 2^14 draws: a million draws hit ~64.
    toml += "[buffers.f16_many]\ntype = \"f16\"\nlen = 1048576\ninit = \"random:77\"\n";
    toml += "[[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [1]\n";
    let spec = spec_in(&dir, &toml);

    let all: Vec<&Buffer> = spec.buffers.iter().chain(&spec.symbols).collect();
    let mut c = String::from(C_HEAD);
    c += C_PRELUDE;
    c += "int main(void) {\n    const char* datadir = \".\";\n";
    for (i, b) in all.iter().enumerate() {
        c += &format!(
            "    {{ unsigned char* h = (unsigned char*)malloc({}); FILE* f;\n",
            b.byte_len()
        );
        c += &c_init_code(b, "h", "datadir", "raw.bin");
        c += &format!(
            "    f = fopen(\"out{i}.bin\", \"wb\"); fwrite(h, 1, {}, f); fclose(f); free(h); }}\n",
            b.byte_len()
        );
    }
    c += "    return 0;\n}\n";
    run_c(&dir, &c);
    for (i, b) in all.iter().enumerate() {
        let from_c = std::fs::read(dir.join(format!("out{i}.bin"))).unwrap();
        let from_rust = b.initial_bytes().unwrap();
        assert_eq!(from_c.len(), from_rust.len(), "{}", b.name);
        if let Some(at) = from_c.iter().zip(&from_rust).position(|(x, y)| x != y) {
            panic!(
                "{} ({:?}): C and Rust differ at byte {at}: {:#x} vs {:#x}",
                b.name, b.init, from_c[at], from_rust[at]
            );
        }
    }
}

#[test]
fn c_f16_and_bf16_rounding_match_half_on_a_sweep() {
    if !have_cc() {
        return;
    }
    // Every 65537th f32 bit pattern (all exponents, both signs, varied mantissas), plus the
    // halfway cases around f16's overflow threshold and subnormal range.
    let mut bits: Vec<u32> = (0..65536u32).map(|k| k.wrapping_mul(65537)).collect();
    bits.extend([
        0x477f_e000,
        0x477f_efff,
        0x477f_f000,
        0x3880_0000,
        0x387f_ffff,
        0x3300_0000,
        0x3300_0001,
        0x3380_0000,
        0x3340_0000,
        0x7f7f_ffff,
        0x7f80_0000,
        0x0000_0001,
    ]);
    let dir = scratch();
    let input: Vec<u8> = bits.iter().flat_map(|b| b.to_le_bytes()).collect();
    std::fs::write(dir.join("in.bin"), &input).unwrap();
    let n = bits.len();
    let c = format!(
        "{C_HEAD}{C_PRELUDE}
int main(void) {{
    static uint32_t in[{n}]; static uint16_t h[{n}], b[{n}]; size_t i; FILE* f;
    f = fopen(\"in.bin\", \"rb\"); if (fread(in, 4, {n}, f) != {n}) return 1; fclose(f);
    for (i = 0; i < {n}; i++) {{ h[i] = gms_f32_to_f16(gms_f32(in[i])); b[i] = gms_f32_to_bf16(gms_f32(in[i])); }}
    f = fopen(\"h.bin\", \"wb\"); fwrite(h, 2, {n}, f); fclose(f);
    f = fopen(\"b.bin\", \"wb\"); fwrite(b, 2, {n}, f); fclose(f);
    return 0;
}}
"
    );
    run_c(&dir, &c);
    let read16 = |name: &str| -> Vec<u16> {
        std::fs::read(dir.join(name))
            .unwrap()
            .chunks(2)
            .map(|c| u16::from_ne_bytes([c[0], c[1]]))
            .collect()
    };
    let (h, b) = (read16("h.bin"), read16("b.bin"));
    for (i, &x) in bits.iter().enumerate() {
        let f = f32::from_bits(x);
        if f.is_nan() {
            // NaN payloads are not specified; both must be NaN.
            assert!(half::f16::from_bits(h[i]).is_nan() && half::bf16::from_bits(b[i]).is_nan());
            continue;
        }
        assert_eq!(h[i], half::f16::from_f32(f).to_bits(), "f16 of {x:#010x}");
        assert_eq!(b[i], half::bf16::from_f32(f).to_bits(), "bf16 of {x:#010x}");
    }
}

const SPEC: &str = r#"
description = "two launches"
source = "k.cu"
[buffers.in]
type = "f32"
len = 4
init = "iota"
[buffers.out]
type = "f32"
len = 4
[symbols.c_tab]
type = "f32"
values = [0.5]
[[launch]]
kernel = "sh_stride<32>"
grid = [4, 1, 1]
block = [128]
args = ["out", "in", 1024, 0.5]
[[launch]]
kernel = "ns::k2"
grid = [2, 3]
block = [8, 4]
shared = 256
args = [7, 2]
max_dynamic_shared = 102400
carveout = -1
[outputs]
out = "out/result.bin"
"#;

#[test]
fn program_has_the_launches_verbatim() {
    let dir = scratch();
    let spec = spec_in(&dir, SPEC);
    let params = vec![
        vec![
            ParamKind::Pointer,
            ParamKind::Pointer,
            ParamKind::I32,
            ParamKind::F32,
        ],
        vec![ParamKind::U64, ParamKind::F64],
    ];
    let c = cuda_host_program(&spec, &params).unwrap();
    assert!(c.contains("#include \"k.cu\"\n"), "{c}");
    // 0.5f32 = 0x3f000000; 2.0f64 = 0x4000000000000000; buffers are sorted: in = d0, out = d1.
    assert!(c.contains(
        "sh_stride<32><<<dim3(4u, 1u, 1u), dim3(128u, 1u, 1u), 0u>>>(gms_ptr{d1} /* \"out\" */, gms_ptr{d0} /* \"in\" */, (int32_t)1024ll, gms_f32(0x3f000000u) /* 0.5 */);"
    ), "{c}");
    assert!(c.contains(
        "ns::k2<<<dim3(2u, 3u, 1u), dim3(8u, 4u, 1u), 256u>>>((uint64_t)7ll, gms_f64(0x4000000000000000ull) /* 2 */);"
    ), "{c}");
    assert!(c.contains("cudaFuncSetAttribute((const void*)(&ns::k2), cudaFuncAttributeMaxDynamicSharedMemorySize, 102400)"));
    assert!(c.contains("cudaFuncSetAttribute((const void*)(&ns::k2), cudaFuncAttributePreferredSharedMemoryCarveout, -1)"));
    assert!(c.contains("GMS_CHECK(cudaMemcpyToSymbol(c_tab, hs, 4ull));"));
    assert!(c.contains("if (gms_write(outdir, \"result.bin\", h1, 16ull)) return 1;"));
    // Written elsewhere, the include climbs to the spec's directory.
    let other = dir.join("progs");
    let c = cuda_host_program_in(&spec, &params, &other).unwrap();
    assert!(c.contains("#include \"../k.cu\"\n"), "{c}");
}

#[test]
fn argument_mismatches_are_errors() {
    let dir = scratch();
    let spec = spec_in(&dir, SPEC);
    let ok2 = vec![ParamKind::U64, ParamKind::F64];
    let e = |p0: Vec<ParamKind>| {
        cuda_host_program(&spec, &[p0, ok2.clone()])
            .unwrap_err()
            .to_string()
            .replace(&dir.display().to_string(), "DIR")
    };
    use ParamKind::*;
    assert_eq!(
        e(vec![Pointer, Pointer, I32]),
        "DIR/spec.toml: [[launch]] #1 args: sh_stride<32> takes 3 parameters, 4 given"
    );
    assert_eq!(
        e(vec![Pointer, I32, I32, F32]),
        "DIR/spec.toml: [[launch]] #1 args[1]: buffer \"in\" given for a i32 parameter"
    );
    assert_eq!(
        e(vec![Pointer, Pointer, U8, F32]),
        "DIR/spec.toml: [[launch]] #1 args[2]: 1024 does not fit in 8 bits (-128 to 255)"
    );
    assert_eq!(
        e(vec![Pointer, Pointer, I32, I32]),
        "DIR/spec.toml: [[launch]] #1 args[3]: 0.5 is not an integer (i32 parameter)"
    );
    assert_eq!(
        e(vec![Pointer, Pointer, Pointer, F32]),
        "DIR/spec.toml: [[launch]] #1 args[2]: a pointer parameter needs a buffer name (or 0)"
    );
    assert_eq!(
        e(vec![Pointer, Pointer, Other(16), F32]),
        "DIR/spec.toml: [[launch]] #1 args[2]: the parameter is a 16-byte aggregate, which the export cannot build"
    );
    assert!(cuda_host_program(&spec, std::slice::from_ref(&ok2)).is_err());
}

#[test]
fn relative_paths() {
    assert_eq!(
        relative_path(Path::new("/a/b/k.cu"), Path::new("/a/c/d")),
        PathBuf::from("../../b/k.cu")
    );
    assert_eq!(
        relative_path(Path::new("/a/./b/../k.cu"), Path::new("/a")),
        PathBuf::from("k.cu")
    );
}

const PTX: &str = "// gpumemsim-kernel: sh_stride<32> = _Z9sh_strideILi32EEvPfi\n\
.version 9.0\n.target sm_90\n.address_size 64\n\
.const .align 4 .b8 c_tab[4];\n\
.visible .entry _Z9sh_strideILi32EEvPfi(.param .u64 a, .param .u64 b, .param .u32 c, .param .f32 d) { ret; }\n\
.visible .entry _ZN2ns2k2Eyd(.param .u64 a, .param .f64 b) { ret; }\n";

fn mangled() -> Vec<String> {
    vec![
        "_Z9sh_strideILi32EEvPfi".to_string(),
        "_ZN2ns2k2Eyd".to_string(),
    ]
}

fn spec_params() -> Vec<Vec<ParamKind>> {
    vec![
        vec![
            ParamKind::Pointer,
            ParamKind::Pointer,
            ParamKind::I32,
            ParamKind::F32,
        ],
        vec![ParamKind::U64, ParamKind::F64],
    ]
}

#[test]
fn ptx_program_launches_the_embedded_ptx_through_the_driver() {
    let dir = scratch();
    let spec = spec_in(&dir, SPEC);
    let c = cuda_host_program_ptx(&spec, &spec_params(), PTX, &mangled(), &dir).unwrap();
    // No CUDA C source is compiled: the kernels come from the embedded PTX only.
    assert!(!c.contains("k.cu"), "{c}");
    assert!(!c.contains("<<<"), "{c}");
    assert!(c.contains("-lcuda"));
    assert!(
        c.contains(
            "    \".visible .entry _ZN2ns2k2Eyd(.param .u64 a, .param .f64 b) { ret; }\\n\";\n"
        ),
        "{c}"
    );
    // The embedded PTX, unless GPUMEMSIM_MODULE names a cubin to load instead.
    assert!(c.contains("const void* gms_image = gms_ptx;"));
    assert!(c.contains("getenv(\"GPUMEMSIM_MODULE\")"));
    assert!(c.contains("cuModuleLoadDataEx(&gms_mod, gms_image, 6u, opts, vals)"));
    // One function per distinct kernel, by its PTX entry name, in launch order.
    assert!(c.contains("CUfunction f0 = gms_function(gms_mod, \"_Z9sh_strideILi32EEvPfi\");"));
    assert!(c.contains("CUfunction f1 = gms_function(gms_mod, \"_ZN2ns2k2Eyd\");"));
    // Symbols by their PTX name.
    assert!(c.contains("cuModuleGetGlobal(&ds, &ns, gms_mod, \"c_tab\")"));
    assert!(c.contains("GMS_CU(cuMemcpyHtoD(ds, hs, 4ull));"));
    // Arguments: one variable per parameter, of the parameter's width; buffers sorted (in = d0).
    assert!(c.contains("CUdeviceptr a0 = (CUdeviceptr)(uintptr_t)d1 /* \"out\" */;"));
    assert!(c.contains("CUdeviceptr a1 = (CUdeviceptr)(uintptr_t)d0 /* \"in\" */;"));
    assert!(c.contains("int32_t a2 = (int32_t)1024ll;"));
    assert!(c.contains("float a3 = gms_f32(0x3f000000u) /* 0.5 */;"));
    assert!(c.contains("void* params[] = { &a0, &a1, &a2, &a3 };"));
    assert!(c.contains("cuLaunchKernel(f0, 4u, 1u, 1u, 128u, 1u, 1u, 0u, NULL, params, NULL);"));
    assert!(c.contains("uint64_t a0 = (uint64_t)7ll;"));
    assert!(c.contains("double a1 = gms_f64(0x4000000000000000ull) /* 2 */;"));
    assert!(c.contains("cuLaunchKernel(f1, 2u, 3u, 1u, 8u, 4u, 1u, 256u, NULL, params, NULL);"));
    assert!(c.contains(
        "GMS_CU(cuFuncSetAttribute(f1, CU_FUNC_ATTRIBUTE_MAX_DYNAMIC_SHARED_SIZE_BYTES, 102400));"
    ));
    assert!(c.contains(
        "GMS_CU(cuFuncSetAttribute(f1, CU_FUNC_ATTRIBUTE_PREFERRED_SHARED_MEMORY_CARVEOUT, -1));"
    ));
    assert!(c.contains("if (gms_write(outdir, \"result.bin\", h1, 16ull)) return 1;"));
    // A name list that does not match the launches is an error.
    let e = cuda_host_program_ptx(&spec, &spec_params(), PTX, &mangled()[..1], &dir)
        .unwrap_err()
        .to_string();
    assert!(e.ends_with("2 launches but kernel names for 1"), "{e}");
}

#[test]
fn embedded_ptx_text_is_byte_exact() {
    if !have_cc() {
        return;
    }
    let dir = scratch();
    // Quotes, backslashes, trigraph starts, tabs, CR, control and non-ASCII characters, an
    // octal escape followed by digits, a line longer than one literal, no final newline.
    let long = "x".repeat(450) + "é" + &"y".repeat(300);
    let text =
        format!("// \"q\" \\ ??= ??/\n\t.reg .b32 %r<4>;\r\n\u{1}7\u{7f}0 é ü 中\n{long}\nend");
    let c = format!(
        "{C_HEAD}static const char gms_ptx[] =\n{};\n\
         int main(void) {{ FILE* f = fopen(\"ptx.out\", \"wb\"); fputs(gms_ptx, f); fclose(f); return sizeof gms_ptx != {}; }}\n",
        c_text_literal(&text).trim_end(),
        text.len() + 1
    );
    run_c(&dir, &c);
    assert_eq!(std::fs::read(dir.join("ptx.out")).unwrap(), text.as_bytes());
}

/// The CUDA include directory (with `cuda.h`) from `GPUMEMSIM_CUDA_INCLUDE`, `CUDA_HOME`, the
/// pip package `nvidia-cuda-runtime` (`<site-packages>/nvidia/cu13/include`, what CI installs) or
/// `/usr/local/cuda`, or the list of places looked in.
fn cuda_include() -> Result<PathBuf, String> {
    let mut dirs: Vec<PathBuf> = Vec::new();
    if let Some(d) = std::env::var_os("GPUMEMSIM_CUDA_INCLUDE") {
        dirs.push(d.into());
    }
    if let Some(d) = std::env::var_os("CUDA_HOME") {
        dirs.push(PathBuf::from(d).join("include"));
    }
    for sp in crate::frontend::nvrtc::site_packages() {
        dirs.push(sp.join("nvidia/cu13/include"));
        dirs.push(sp.join("nvidia/cuda_runtime/include"));
    }
    dirs.push("/usr/local/cuda/include".into());
    dirs.iter()
        .find(|d| d.join("cuda.h").is_file())
        .cloned()
        .ok_or_else(|| {
            let looked: Vec<String> = dirs.iter().map(|d| d.display().to_string()).collect();
            format!("no cuda.h in {}", looked.join(", "))
        })
}

#[test]
fn ptx_program_compiles_against_the_real_driver_api_header() {
    let install = format!(
        "{} (or set GPUMEMSIM_CUDA_INCLUDE)",
        crate::testing::INSTALL_NVRTC
    );
    let Some(inc) = crate::testing::require("cuda.h", cuda_include(), &install) else {
        return;
    };
    if !crate::testing::require_tool("c++", crate::testing::INSTALL_CC) {
        return;
    }
    let dir = scratch();
    let spec = spec_in(&dir, SPEC);
    let c = cuda_host_program_ptx(&spec, &spec_params(), PTX, &mangled(), &dir).unwrap();
    compile_against_cuda_h(&dir, &inc, &c);
}

/// Compiles the driver-API program `c` with `c++ -fsyntax-only` against the real `cuda.h` in
/// `inc` (and a stub of the few runtime API calls it makes).
fn compile_against_cuda_h(dir: &Path, inc: &Path, c: &str) {
    // The runtime API part is declared here (cuda_runtime.h needs nvcc's crt/ headers);
    // the driver API comes from the real cuda.h, so its signatures are checked.
    let stub = dir.join("stub");
    std::fs::create_dir_all(&stub).unwrap();
    std::fs::write(
        stub.join("cuda_runtime.h"),
        "#include <stddef.h>\n\
         typedef enum cudaError { cudaSuccess = 0 } cudaError_t;\n\
         enum cudaMemcpyKind { cudaMemcpyHostToDevice = 1, cudaMemcpyDeviceToHost = 2 };\n\
         extern \"C\" {\n\
         cudaError_t cudaMalloc(void** devPtr, size_t size);\n\
         cudaError_t cudaFree(void* devPtr);\n\
         cudaError_t cudaSetDevice(int device);\n\
         cudaError_t cudaMemcpy(void* dst, const void* src, size_t count, enum cudaMemcpyKind kind);\n\
         const char* cudaGetErrorString(cudaError_t error);\n\
         }\n",
    )
    .unwrap();
    let prog = dir.join("prog.cu");
    std::fs::write(&prog, c).unwrap();
    let out = Command::new("c++")
        .args([
            "-x",
            "c++",
            "-std=c++17",
            "-fsyntax-only",
            "-Wall",
            "-Wextra",
            "-Werror",
        ])
        .arg("-I")
        .arg(&stub)
        .arg("-I")
        .arg(inc)
        .arg(&prog)
        .output()
        .unwrap();
    assert!(
        out.status.success(),
        "c++ failed:\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

const STEPS_PTX: &str = ".version 8.0\n.target sm_90\n.address_size 64\n\
.global .align 4 .u32 g_acc[4];\n\
.const .align 4 .u32 c_k[4];\n\
.visible .entry add1(.param .u64 p, .param .u32 n) { ret; }\n";

const STEPS_SPEC: &str = r#"
ptx = "steps.ptx"
[buffers.a]
type = "u32"
len = 8
[buffers.k]
type = "u32"
values = [2, 3, 4, 5]
[[step]]
kind = "memcpy"
dst = "sym:c_k+4"
src = "k+1"
count = 3
[[step]]
kind = "repeat"
times = 3
[[step.steps]]
kind = "launch"
kernel = "add1"
grid = [1]
block = [4]
args = ["a+2", 3]
[[step.steps]]
kind = "repeat"
times = 2
[[step.steps.steps]]
kind = "memset"
dst = "a+6"
value = 255
[[step]]
kind = "memcpy"
dst = "a"
src = "a+4"
count = 2
[[step]]
kind = "memcpy"
dst = "k"
src = "sym:g_acc+4"
count = 2
[outputs]
a = "a.bin"
"sym:g_acc" = "g_acc.bin"
"#;

fn steps_spec(dir: &Path) -> Spec {
    std::fs::write(dir.join("steps.ptx"), STEPS_PTX).unwrap();
    spec_in(dir, STEPS_SPEC)
}

#[test]
fn host_steps_are_exported_in_order() {
    let dir = scratch();
    let spec = steps_spec(&dir);
    let params = vec![vec![ParamKind::Pointer, ParamKind::U32]];
    let names = vec!["add1".to_string()];
    let c = cuda_host_program_ptx(&spec, &params, STEPS_PTX, &names, &dir).unwrap();
    // Buffers sorted: a = d0, k = d1. Offsets in bytes: k+1 = 4, a+2 = 8, a+6 = 24, a+4 = 16.
    let want = [
        "GMS_CU(cuModuleGetGlobal(&gs, &gn, gms_mod, \"c_k\"));",
        "GMS_CU(cuMemcpyDtoD(gs + 4ull, ((CUdeviceptr)(uintptr_t)d1 + 4ull), 12ull)); }",
        "{ unsigned long long gms_rep0; for (gms_rep0 = 0; gms_rep0 < 3ull; gms_rep0++) {",
        "CUdeviceptr a0 = (CUdeviceptr)((uintptr_t)d0 + 8ull) /* \"a\" + 8 bytes */;",
        "{ unsigned long long gms_rep1; for (gms_rep1 = 0; gms_rep1 < 2ull; gms_rep1++) {",
        "GMS_CU(cuMemsetD8(((CUdeviceptr)(uintptr_t)d0 + 24ull), (unsigned char)255u, 8ull));",
        "    } }\n    } }\n",
        "GMS_CU(cuMemcpyDtoD(((CUdeviceptr)(uintptr_t)d0 + 0ull), ((CUdeviceptr)(uintptr_t)d0 + 16ull), 8ull));",
        "GMS_CU(cuModuleGetGlobal(&gs, &gn, gms_mod, \"g_acc\"));",
        "GMS_CU(cuMemcpyDtoD(((CUdeviceptr)(uintptr_t)d1 + 0ull), gs + 4ull, 8ull)); }",
        "GMS_CU(cuMemcpyDtoH(hs, gs, gn));",
        "if (gms_write(outdir, \"g_acc.bin\", hs, gn)) return 1;",
    ];
    let mut at = 0;
    for w in want {
        let Some(p) = c[at..].find(w) else {
            panic!("missing, or out of order: {w}\n{c}");
        };
        at += p + w.len();
    }
    // The include form uses the runtime API with the variables' C++ names.
    std::fs::write(dir.join("k.cu"), "// kernels\n").unwrap();
    let mut with_source = spec.clone();
    with_source.source = Some(dir.join("k.cu"));
    let c = cuda_host_program(&with_source, &params).unwrap();
    for w in [
        "GMS_CHECK(cudaMemcpyToSymbol(c_k, (void*)((char*)d1 + 4ull), 12ull, 4ull, cudaMemcpyDeviceToDevice));",
        "add1<<<dim3(1u, 1u, 1u), dim3(4u, 1u, 1u), 0u>>>(gms_ptr{(void*)((char*)d0 + 8ull)} /* \"a\" + 8 bytes */, (uint32_t)3ll);",
        "GMS_CHECK(cudaMemset((void*)((char*)d0 + 24ull), 255, 8ull));",
        "GMS_CHECK(cudaMemcpy((void*)((char*)d0 + 0ull), (void*)((char*)d0 + 16ull), 8ull, cudaMemcpyDeviceToDevice));",
        "GMS_CHECK(cudaMemcpyFromSymbol((void*)((char*)d1 + 0ull), g_acc, 8ull, 4ull, cudaMemcpyDeviceToDevice));",
        "GMS_CHECK(cudaGetSymbolSize(&gn, g_acc));",
        "GMS_CHECK(cudaMemcpyFromSymbol(hs, g_acc, gn));",
    ] {
        assert!(c.contains(w), "missing: {w}\n{c}");
    }
}

#[test]
fn host_steps_program_compiles_against_the_real_driver_api_header() {
    let install = format!(
        "{} (or set GPUMEMSIM_CUDA_INCLUDE)",
        crate::testing::INSTALL_NVRTC
    );
    let Some(inc) = crate::testing::require("cuda.h", cuda_include(), &install) else {
        return;
    };
    if !crate::testing::require_tool("c++", crate::testing::INSTALL_CC) {
        return;
    }
    let dir = scratch();
    let spec = steps_spec(&dir);
    let params = vec![vec![ParamKind::Pointer, ParamKind::U32]];
    let names = vec!["add1".to_string()];
    let c = cuda_host_program_ptx(&spec, &params, STEPS_PTX, &names, &dir).unwrap();
    compile_against_cuda_h(&dir, &inc, &c);
}

#[test]
fn a_free_step_frees_once_and_an_uninitialised_buffer_is_not_copied() {
    let dir = scratch();
    let spec = spec_in(
        &dir,
        r#"
source = "k.cu"
[buffers.a]
type = "f32"
len = 4
init = "none"
[buffers.b]
type = "f32"
len = 4
[[step]]
kind = "launch"
kernel = "k"
grid = [1]
block = [32]
args = ["a"]
[[step]]
kind = "free"
dst = "a"
"#,
    );
    let params = vec![vec![ParamKind::Pointer]];
    for c in [
        cuda_host_program(&spec, &params).unwrap(),
        cuda_host_program_ptx(&spec, &params, "// ptx\n", &["k".to_string()], &dir).unwrap(),
    ] {
        // `a` (d0) is allocated but not copied to; `b` (d1) is.
        assert!(c.contains("GMS_CHECK(cudaMalloc(&d0, 16ull));"), "{c}");
        assert!(!c.contains("cudaMemcpy(d0, h0"), "{c}");
        assert!(
            c.contains("cudaMemcpy(d1, h1, 16ull, cudaMemcpyHostToDevice)"),
            "{c}"
        );
        // Freed by the step, and not again at the end.
        let frees = c.matches("cudaFree(d0)").count()
            + c.matches("cuMemFree((CUdeviceptr)(uintptr_t)d0)").count();
        assert_eq!(frees, 1, "{c}");
        assert!(c.contains("GMS_CHECK(cudaFree(d1));"), "{c}");
    }
}
