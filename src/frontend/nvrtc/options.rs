//! NVRTC options and include paths. Always passed: `-arch=<opts.arch>`, `-lineinfo` (so the PTX
//! carries `.loc` source lines for per-line reports), `--std=c++17`, `-I<directory of the .cu
//! file>`, then the caller's extra options, then `-I<CUDA headers>` (`$CUDA_HOME/include`,
//! `$CUDA_PATH/include`, the `include` next to the loaded library's `lib`, or the pip package
//! `nvidia-cuda-runtime`'s `nvidia/cu13/include`), so `#include <cuda_fp16.h>` works.
//! `-default-device` is deliberately not passed: kernels must be `__global__`.
//!
//! A missing header is answered with the pip package that provides it ([`HEADER_PACKAGES`]).

use super::*;

pub(super) fn build_options(
    path: &Path,
    arch: &str,
    extra: &[String],
    ptxas_verbose: bool,
) -> Vec<String> {
    let mut options = vec![
        format!("-arch={arch}"),
        "-lineinfo".to_string(),
        "--std=c++17".to_string(),
    ];
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    options.push(format!("-I{}", dir.display()));
    if ptxas_verbose {
        options.push("--ptxas-options=-v".to_string());
    }
    options.extend(extra.iter().cloned());
    if let Some(inc) = cuda_include_dir() {
        options.push(format!("-I{}", inc.display()));
        // CUDA 13 keeps CCCL (`cuda/std/*`, `nv/target`, `cub`, `thrust`) in `include/cccl`, and
        // nvcc adds that directory itself; the pip package `nvidia-cuda-cccl` uses the same layout.
        let cccl = inc.join("cccl");
        if cccl.is_dir() {
            options.push(format!("-I{}", cccl.display()));
        }
    }
    options
}

/// The pip packages (pinned to the CUDA 13.0 of the recorded H200 data) that provide the CUDA
/// headers a program may include, by the first component of the include path.
pub const HEADER_PACKAGES: &[(&str, &str)] = &[
    ("cuda/", "nvidia-cuda-cccl==13.0.85"),
    ("nv/", "nvidia-cuda-cccl==13.0.85"),
    ("cub/", "nvidia-cuda-cccl==13.0.85"),
    ("thrust/", "nvidia-cuda-cccl==13.0.85"),
    ("crt/", "nvidia-cuda-crt==13.0.88"),
    ("mma.h", "nvidia-cuda-crt==13.0.88"),
    ("curand", "nvidia-curand==10.4.0.35"),
    ("cooperative_groups", "nvidia-cuda-runtime==13.0.96"),
    ("cuda_", "nvidia-cuda-runtime==13.0.96"),
    ("vector_", "nvidia-cuda-runtime==13.0.96"),
];

/// The pip package that provides the header `include` (as written after `#include`), if it is one
/// of the CUDA headers.
pub fn header_package(include: &str) -> Option<&'static str> {
    HEADER_PACKAGES
        .iter()
        .find(|(prefix, _)| include.starts_with(prefix))
        .map(|(_, package)| *package)
}

/// For a diagnostic `cannot open source file "X"` naming a CUDA header, the line that says which
/// package to install.
pub(super) fn missing_header_hint(message: &str) -> Option<String> {
    let name = message
        .strip_prefix("cannot open source file \"")?
        .strip_suffix('"')?;
    let package = header_package(name)?;
    Some(format!(
        "note: `{name}` is a CUDA header from the pip package {package}: `pip install {package}`"
    ))
}

/// The CUDA headers directory (one holding `cuda_fp16.h`), if any.
pub(super) fn cuda_include_dir() -> Option<&'static Path> {
    static INC: OnceLock<Option<PathBuf>> = OnceLock::new();
    INC.get_or_init(|| {
        let has_headers = |d: &Path| d.join("cuda_fp16.h").is_file();
        let mut candidates: Vec<PathBuf> = Vec::new();
        for var in ["CUDA_HOME", "CUDA_PATH"] {
            if let Some(root) = env_path(var) {
                candidates.push(root.join("include"));
            }
        }
        if let Some(Ok(api)) = NVRTC.get() {
            if let Some(root) = api.path.parent().and_then(Path::parent) {
                candidates.push(root.join("include"));
            }
        }
        if let Some(found) = candidates.into_iter().find(|d| has_headers(d)) {
            return Some(found);
        }
        for sp in site_packages() {
            for rel in ["nvidia/cu13/include", "nvidia/cuda_runtime/include"] {
                let d = sp.join(rel);
                if has_headers(&d) {
                    return Some(d);
                }
            }
        }
        let d = PathBuf::from("/usr/local/cuda/include");
        has_headers(&d).then_some(d)
    })
    .as_deref()
}

/// Expands a path pattern whose components may contain one `*` each.
pub(super) fn glob(pattern: &str) -> Vec<PathBuf> {
    let mut current = vec![PathBuf::from(if pattern.starts_with('/') {
        "/"
    } else {
        "."
    })];
    for component in pattern.split('/').filter(|c| !c.is_empty()) {
        let mut next = Vec::new();
        for base in &current {
            if let Some((prefix, suffix)) = component.split_once('*') {
                let Ok(entries) = std::fs::read_dir(base) else {
                    continue;
                };
                let mut names: Vec<String> = entries
                    .filter_map(|e| e.ok())
                    .filter_map(|e| e.file_name().into_string().ok())
                    .filter(|n| {
                        n.len() >= prefix.len() + suffix.len()
                            && n.starts_with(prefix)
                            && n.ends_with(suffix)
                    })
                    .collect();
                names.sort();
                next.extend(names.into_iter().map(|n| base.join(n)));
            } else {
                let p = base.join(component);
                if p.exists() {
                    next.push(p);
                }
            }
        }
        current = next;
    }
    current.into_iter().filter(|p| p.is_dir()).collect()
}
