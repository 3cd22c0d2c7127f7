//! CUDA C front end: compiles a `.cu` file to PTX at run time with NVRTC, and asks ptxas (through
//! NVRTC) for each kernel's resource usage.
//!
//! # What it does
//! It loads `libnvrtc` at run time (`library.rs`), builds NVRTC's options and finds the CUDA
//! headers (`options.rs`), compiles with C++ kernel names resolved to their mangled `.entry`
//! names, caches the PTX and resource usage (`cache.rs`), turns NVRTC's and ptxas's logs into
//! located diagnostics and resource counts (`log.rs`) and reads constant bank 0's size from the
//! cubin (`elf.rs`). The public types are in `types.rs`; this file is the public functions.
//!
//! Kernel names: C++ kernel names (`sh_stride<32>`, or a plain `foo` without `extern "C"`) are
//! registered with `nvrtcAddNameExpression` and resolved with `nvrtcGetLoweredName` to the
//! mangled name that appears after `.entry` in the PTX (\[NVRTC\] §"Accessing Lowered Names").
//!
//! # Sources
//! - \[NVRTC\] NVIDIA, *NVRTC User Guide* (CUDA 13): §"NVRTC API" for every function signature
//!   and result code used here (`NVRTC_SUCCESS = 0`, `NVRTC_ERROR_COMPILATION = 6`), §"Supported
//!   Compile Options", §"Accessing Lowered Names".
//! - \[LOG\] NVRTC 13.5 (pip `nvidia-cuda-nvrtc` 13.5) logs captured on the development machine;
//!   verbatim copies are the inputs of this module's unit tests. Formats seen there:
//!   `ptxas info    : Function properties for _Z3fooPf`,
//!   `ptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads`,
//!   `ptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem` (no `cmem[0]` item,
//!   and no `smem` item when a kernel has no static shared memory).
//! - \[ELF\] the same compiler's `sm_90` cubins read with binutils `readelf -S`:
//!   `.nv.constant0._Z3barPf` is 0x218 bytes = 0x210 (driver area) + 8 (one pointer parameter).

use std::collections::HashSet;
use std::ffi::{c_char, c_int, c_void, CStr, CString};
use std::fmt;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

use serde::{Deserialize, Serialize};

use super::std_headers;

mod cache;
mod elf;
mod library;
mod log;
mod options;
mod types;

use cache::*;
use elf::*;
pub(crate) use library::site_packages;
use library::*;
use log::*;
pub use options::HEADER_PACKAGES;
use options::*;
pub use types::*;

/// Version of the loaded NVRTC, `(major, minor)`.
pub fn nvrtc_version() -> Result<(i32, i32), FrontendError> {
    Ok(nvrtc()?.version)
}

/// Path (or loader name) of the loaded NVRTC library.
pub fn nvrtc_library_path() -> Result<PathBuf, FrontendError> {
    Ok(nvrtc()?.path.clone())
}

/// Compiles CUDA C `source` (read from `path`, whose name appears in diagnostics and in the PTX's
/// `.file` directive) to PTX, resolving `name_expressions` to their lowered names. Uses the
/// default cache ([`CacheMode::Default`]).
pub fn compile_cuda(
    path: &Path,
    source: &str,
    name_expressions: &[String],
    opts: &CompileOptions,
) -> Result<CompiledCuda, FrontendError> {
    compile_cuda_with_cache(path, source, name_expressions, opts, &CacheMode::Default)
}

/// [`compile_cuda`] with an explicit cache choice.
pub fn compile_cuda_with_cache(
    path: &Path,
    source: &str,
    name_expressions: &[String],
    opts: &CompileOptions,
    cache: &CacheMode,
) -> Result<CompiledCuda, FrontendError> {
    let api = nvrtc()?;
    let file_name = path.display().to_string();
    let options = build_options(path, &opts.arch, &opts.extra, false);
    let key = cache_key(
        "ptx",
        api.version,
        path,
        &file_name,
        source,
        name_expressions,
        &options,
    );
    let dir = cache_dir(cache);
    let entry_name = format!("{key:016x}.ptx.json");
    if let Some(entry) = dir
        .as_deref()
        .and_then(|d| cache_read::<PtxEntry>(d, &entry_name, key))
    {
        return Ok(CompiledCuda {
            ptx: entry.ptx,
            lowered_names: entry.lowered_names,
            log: entry.log,
            from_cache: true,
        });
    }
    let out = run_nvrtc(api, &file_name, source, name_expressions, &options, false)?;
    let compiled = CompiledCuda {
        ptx: out.ptx,
        lowered_names: out.lowered,
        log: out.log,
        from_cache: false,
    };
    if let Some(d) = dir.as_deref() {
        let entry = PtxEntry {
            key: format!("{key:016x}"),
            ptx: compiled.ptx.clone(),
            lowered_names: compiled.lowered_names.clone(),
            log: compiled.log.clone(),
        };
        cache_write(d, &entry_name, &entry);
    }
    Ok(compiled)
}

/// ptxas resource usage per kernel, from compiling `source` to an `arch_sm` (e.g. `"sm_90"`) cubin
/// with `--ptxas-options=-v`. Kernels appear in the order ptxas compiled them. Uses the default
/// cache and no extra options.
pub fn kernel_resources(
    path: &Path,
    source: &str,
    name_expressions: &[String],
    arch_sm: &str,
) -> Result<Vec<KernelResources>, FrontendError> {
    kernel_resources_with(
        path,
        source,
        name_expressions,
        arch_sm,
        &[],
        &CacheMode::Default,
    )
}

/// [`kernel_resources`] with extra NVRTC options (pass the same ones as to [`compile_cuda`] so
/// the numbers describe the same code) and an explicit cache choice.
pub fn kernel_resources_with(
    path: &Path,
    source: &str,
    name_expressions: &[String],
    arch_sm: &str,
    extra: &[String],
    cache: &CacheMode,
) -> Result<Vec<KernelResources>, FrontendError> {
    let api = nvrtc()?;
    let file_name = path.display().to_string();
    let options = build_options(path, arch_sm, extra, true);
    let key = cache_key(
        "resources",
        api.version,
        path,
        &file_name,
        source,
        name_expressions,
        &options,
    );
    let dir = cache_dir(cache);
    let entry_name = format!("{key:016x}.res.json");
    if let Some(entry) = dir
        .as_deref()
        .and_then(|d| cache_read::<ResEntry>(d, &entry_name, key))
    {
        return Ok(entry.resources);
    }
    let out = run_nvrtc(api, &file_name, source, name_expressions, &options, true)?;
    let cubin = match out.cubin {
        Some(c) if !c.is_empty() => c,
        _ => {
            return Err(FrontendError::NoCubin {
                arch: arch_sm.to_string(),
            })
        }
    };
    let mut resources = Vec::new();
    for (mut r, has_cmem) in parse_ptxas_log_inner(&out.log)? {
        if !has_cmem {
            let section = format!(".nv.constant0.{}", r.mangled_name);
            let size = elf_section_size(&cubin, &section).ok_or_else(|| {
                FrontendError::PtxasLog(format!(
                    "ptxas printed no cmem[0] for {} and the cubin has no {section} section",
                    r.mangled_name
                ))
            })?;
            r.const_bytes = u32::try_from(size)
                .map_err(|_| FrontendError::PtxasLog(format!("{section} is {size} bytes")))?;
        }
        resources.push(r);
    }
    if let Some(d) = dir.as_deref() {
        cache_write(
            d,
            &entry_name,
            &ResEntry {
                key: format!("{key:016x}"),
                resources: resources.clone(),
            },
        );
    }
    Ok(resources)
}

/// Parses the ptxas part of an NVRTC log compiled with `--ptxas-options=-v` into one record per
/// entry function. `const_bytes` is 0 for kernels whose `Used …` line has no `cmem[0]` item
/// ([`kernel_resources`] fills it from the cubin).
pub fn parse_ptxas_log(log: &str) -> Result<Vec<KernelResources>, FrontendError> {
    Ok(parse_ptxas_log_inner(log)?
        .into_iter()
        .map(|(r, _)| r)
        .collect())
}

/// Parses NVRTC's log into diagnostics. `file` and `source` are the compiled file's name (as given
/// to NVRTC) and text, used to recover the offending source line.
pub fn parse_nvrtc_log(log: &str, file: &str, source: &str) -> Vec<Diagnostic> {
    let lines: Vec<&str> = log.lines().collect();
    let mut out = Vec::new();
    let mut i = 0;
    while i < lines.len() {
        let Some(header) = parse_header(lines[i]) else {
            i += 1;
            continue;
        };
        i += 1;
        let mut echo = None;
        let mut caret = None;
        let mut notes = Vec::new();
        if i < lines.len()
            && lines[i].starts_with("  ")
            && !is_caret(lines[i])
            && parse_header(lines[i]).is_none()
        {
            echo = Some(lines[i]);
            i += 1;
        }
        if i < lines.len() && is_caret(lines[i]) {
            caret = Some(lines[i]);
            i += 1;
        }
        while i < lines.len()
            && lines[i].starts_with(' ')
            && !lines[i].trim().is_empty()
            && parse_header(lines[i]).is_none()
        {
            notes.push(lines[i].trim().to_string());
            i += 1;
        }
        let source_line = if header.file == file && header.line >= 1 {
            source
                .lines()
                .nth(header.line as usize - 1)
                .map(str::to_string)
        } else {
            None
        }
        .or_else(|| echo.map(|e| e.strip_prefix("  ").unwrap_or(e).to_string()));
        let column = find_column(source_line.as_deref(), caret, &header.message);
        out.push(Diagnostic {
            file: header.file,
            line: header.line,
            column,
            severity: header.severity,
            code: header.code,
            message: header.message,
            source_line,
            notes,
        });
    }
    out
}
