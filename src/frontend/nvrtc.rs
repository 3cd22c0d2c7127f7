//! CUDA C front end: compiles a `.cu` file to PTX at run time with NVRTC, and asks ptxas (through
//! NVRTC) for each kernel's resource usage.
//!
//! # What it does
//! - **Loading.** `libnvrtc` is opened with `libloading` the first time it is needed and kept for the
//!   life of the process (a `OnceLock`); the crate never links against it, so it builds, and `.ptx`
//!   inputs work, on machines without CUDA. Search order: `$GPUMEMSIM_NVRTC` (full path),
//!   `$CUDA_HOME/lib64`, `$CUDA_PATH/lib64`, the pip package `nvidia-cuda-nvrtc`
//!   (`<site-packages>/nvidia/cu13/lib/libnvrtc.so.13`; site-packages found by asking `python3`
//!   once, else by globbing common locations), then the system loader (`libnvrtc.so.13`,
//!   `libnvrtc.so`). CUDA 12's pip layout (`nvidia/cuda_nvrtc/lib/libnvrtc.so.12`) and soname are
//!   tried after the CUDA 13 ones, since `compute_90` exists there too.
//! - **Compiling.** Options always passed: `-arch=<opts.arch>`, `-lineinfo` (so the PTX carries
//!   `.loc` source lines for per-line reports), `--std=c++17`, `-I<directory of the .cu file>`,
//!   then the caller's extra options, then `-I<CUDA headers>` (`$CUDA_HOME/include`,
//!   `$CUDA_PATH/include`, the `include` next to the loaded library's `lib`, or the pip package
//!   `nvidia-cuda-runtime`'s `nvidia/cu13/include`), so `#include <cuda_fp16.h>` works.
//!   `-default-device` is deliberately not passed: kernels must be `__global__`.
//! - **Names.** C++ kernel names (`sh_stride<32>`, or a plain `foo` without `extern "C"`) are
//!   registered with `nvrtcAddNameExpression` and resolved with `nvrtcGetLoweredName` to the
//!   mangled name that appears after `.entry` in the PTX (\[NVRTC\] §"Accessing Lowered Names").
//! - **Cache.** PTX (and resource usage) is cached by a content hash (FNV-1a 64, written here) of
//!   the source, the files it includes with `#include "…"`, the options, the name expressions and
//!   the NVRTC version, in `$GPUMEMSIM_CACHE`, `$XDG_CACHE_HOME/gpumemsim` or
//!   `~/.cache/gpumemsim`. Failing to write the cache is not an error.
//! - **Errors.** NVRTC's log (`kernel.cu(12): error: identifier "x" is undefined`, followed by the
//!   source line indented by two spaces and a caret line) is parsed into [`Diagnostic`]s with file,
//!   line, column, message and the offending source line; they render like rustc/clang
//!   (`kernel.cu:12:5: error: …` plus a snippet with a caret).
//! - **Resources.** [`kernel_resources`] compiles to an `sm_90` cubin with
//!   `--ptxas-options=-v` and parses ptxas's info lines. Constant bank 0's size (`cmem[0]`: the
//!   driver's area plus the kernel parameters) is taken from the log when ptxas prints it (older
//!   versions) and otherwise from the size of the cubin's `.nv.constant0.<kernel>` ELF section.
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

// ---------------------------------------------------------------------------------------------
// Public types
// ---------------------------------------------------------------------------------------------

/// Options for [`compile_cuda`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompileOptions {
    /// Virtual architecture passed as `-arch=`, e.g. `"compute_90"` for the H200.
    pub arch: String,
    /// Further NVRTC options, passed after the built-in ones (e.g. `-DN=32`, `-I/some/dir`).
    pub extra: Vec<String>,
}

impl Default for CompileOptions {
    fn default() -> Self {
        CompileOptions {
            arch: "compute_90".to_string(),
            extra: Vec::new(),
        }
    }
}

/// The result of compiling one `.cu` file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CompiledCuda {
    /// PTX text.
    pub ptx: String,
    /// (name expression as the user wrote it, e.g. `"sh_stride<32>"`, lowered/mangled name in the
    /// PTX), in the order the expressions were given.
    pub lowered_names: Vec<(String, String)>,
    /// NVRTC's log (warnings; empty when there were none).
    pub log: String,
    /// True when the result came from the on-disk cache rather than from NVRTC.
    pub from_cache: bool,
}

impl CompiledCuda {
    /// The lowered name of `expression`, if it was one of the name expressions compiled.
    pub fn lowered(&self, expression: &str) -> Option<&str> {
        self.lowered_names
            .iter()
            .find(|(e, _)| e == expression)
            .map(|(_, l)| l.as_str())
    }
}

/// ptxas resource usage of one kernel, from compiling to a cubin with `--ptxas-options=-v`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct KernelResources {
    /// Mangled (lowered) name, as after `.entry` in the PTX.
    pub mangled_name: String,
    /// Registers per thread (`Used N registers`).
    pub registers: u32,
    /// Bytes of register spill stores per thread.
    pub spill_stores: u32,
    /// Bytes of register spill loads per thread.
    pub spill_loads: u32,
    /// Bytes of stack frame (local memory) per thread.
    pub stack_frame: u32,
    /// Bytes of static (`__shared__` declared with a fixed size) shared memory per block, as ptxas
    /// reports it (without the driver's reserved shared memory).
    pub static_shared: u32,
    /// Bytes of constant bank 0 (`cmem[0]`): the driver's area plus the kernel parameters.
    pub const_bytes: u32,
    /// Named barriers used (`used N barriers`).
    pub barriers: u32,
}

/// Where compiled results are cached.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub enum CacheMode {
    /// `$GPUMEMSIM_CACHE`, else `$XDG_CACHE_HOME/gpumemsim`, else `~/.cache/gpumemsim`.
    #[default]
    Default,
    /// This directory.
    Dir(PathBuf),
    /// No caching.
    Disabled,
}

/// How bad a compiler diagnostic is.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Severity {
    /// `error`.
    Error,
    /// `catastrophic error` / `internal error`: compilation stopped.
    Fatal,
    /// `warning`.
    Warning,
    /// `note`.
    Note,
    /// `remark`.
    Remark,
}

impl Severity {
    /// True for errors (including fatal ones).
    pub fn is_error(self) -> bool {
        matches!(self, Severity::Error | Severity::Fatal)
    }
}

impl fmt::Display for Severity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Severity::Error => "error",
            Severity::Fatal => "fatal error",
            Severity::Warning => "warning",
            Severity::Note => "note",
            Severity::Remark => "remark",
        })
    }
}

/// One diagnostic from NVRTC's log, located in the source.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Diagnostic {
    /// File as NVRTC names it (the path given to [`compile_cuda`], or an included header).
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// 1-based column, in characters (a tab counts as one). From NVRTC's caret line when it prints
    /// one, else where the token quoted in the message occurs on the line, else 1.
    pub column: u32,
    /// Error, warning, …
    pub severity: Severity,
    /// Diagnostic number such as `#177-D`, when NVRTC gives one.
    pub code: Option<String>,
    /// The message, e.g. `identifier "x" is undefined`.
    pub message: String,
    /// Text of the offending source line, when known.
    pub source_line: Option<String>,
    /// Continuation lines, e.g. `detected during instantiation of "void f<N>(float *) [with N=3]"`.
    pub notes: Vec<String>,
}

impl fmt::Display for Diagnostic {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}:{}:{}: {}: {}",
            self.file, self.line, self.column, self.severity, self.message
        )?;
        if let Some(src) = &self.source_line {
            let number = self.line.to_string();
            let gutter = " ".repeat(number.len());
            let src = src.trim_end();
            let text = format!("    {number} | {src}");
            write!(f, "\n{}", text.trim_end())?;
            // Copy tabs from the source line so the caret lines up under it.
            let pad: String = src
                .chars()
                .chain(std::iter::repeat(' '))
                .take(self.column.saturating_sub(1) as usize)
                .map(|c| if c == '\t' { '\t' } else { ' ' })
                .collect();
            write!(f, "\n    {gutter} | {pad}^")?;
        }
        for note in &self.notes {
            write!(f, "\n    = note: {note}")?;
        }
        Ok(())
    }
}

/// Everything that can go wrong in the CUDA C front end.
#[derive(Debug, thiserror::Error)]
pub enum FrontendError {
    /// No loadable libnvrtc was found.
    #[error(
        "NVRTC (libnvrtc.so.13) could not be loaded: install it with `pip install nvidia-cuda-nvrtc \
         nvidia-cuda-runtime`, or set GPUMEMSIM_NVRTC to the full path of libnvrtc.so"
    )]
    NvrtcMissing {
        /// Each location tried and why it failed.
        tried: Vec<String>,
    },
    /// A libnvrtc was loaded but lacks a function this module needs.
    #[error("{library} is not a usable NVRTC: it lacks `{symbol}` ({reason})")]
    MissingSymbol {
        /// Path or name of the library.
        library: String,
        /// The missing symbol.
        symbol: &'static str,
        /// The loader's message.
        reason: String,
    },
    /// An NVRTC call failed outside compilation proper.
    #[error("NVRTC call {call} failed: {message} (nvrtcResult {code})")]
    Api {
        /// The function called.
        call: &'static str,
        /// Its `nvrtcResult`.
        code: i32,
        /// `nvrtcGetErrorString` of the result.
        message: String,
    },
    /// The source did not compile.
    #[error("{}", render_compile_error(.file, .diagnostics, .log))]
    Compile {
        /// The file compiled.
        file: String,
        /// Parsed diagnostics (may be empty when the log has no `file(line):` lines).
        diagnostics: Vec<Diagnostic>,
        /// NVRTC's raw log.
        log: String,
    },
    /// A name expression does not name anything in the source.
    #[error("name expression `{expression}` does not name a function in {file}: {message}")]
    NameExpression {
        /// The expression as given.
        expression: String,
        /// The file compiled.
        file: String,
        /// NVRTC's explanation.
        message: String,
    },
    /// A string handed to NVRTC contains a NUL byte.
    #[error("{what} contains a NUL byte, which NVRTC cannot accept")]
    InteriorNul {
        /// Which input.
        what: String,
    },
    /// Compiling for resource usage produced no cubin (the architecture was virtual).
    #[error("NVRTC produced no cubin for -arch={arch}: resource usage needs a real architecture such as sm_90")]
    NoCubin {
        /// The architecture given.
        arch: String,
    },
    /// ptxas's verbose log could not be understood.
    #[error("cannot read ptxas resource usage: {0}")]
    PtxasLog(String),
}

fn render_compile_error(file: &str, diagnostics: &[Diagnostic], log: &str) -> String {
    if diagnostics.is_empty() {
        return format!("NVRTC failed to compile {file}:\n{}", log.trim_end());
    }
    let mut parts: Vec<String> = Vec::new();
    for d in diagnostics {
        parts.push(d.to_string());
        if let Some(hint) = missing_header_hint(&d.message) {
            parts.push(hint);
        }
    }
    parts.join("\n")
}

// ---------------------------------------------------------------------------------------------
// Public functions
// ---------------------------------------------------------------------------------------------

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

// ---------------------------------------------------------------------------------------------
// Loading libnvrtc
// ---------------------------------------------------------------------------------------------

type NvrtcResult = c_int;
type NvrtcProgram = *mut c_void;

/// `NVRTC_SUCCESS` \[NVRTC §"NVRTC API", enum nvrtcResult].
const NVRTC_SUCCESS: NvrtcResult = 0;

type FnVersion = unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvrtcResult;
type FnGetErrorString = unsafe extern "C" fn(NvrtcResult) -> *const c_char;
type FnCreateProgram = unsafe extern "C" fn(
    *mut NvrtcProgram,
    *const c_char,
    *const c_char,
    c_int,
    *const *const c_char,
    *const *const c_char,
) -> NvrtcResult;
type FnDestroyProgram = unsafe extern "C" fn(*mut NvrtcProgram) -> NvrtcResult;
type FnCompileProgram =
    unsafe extern "C" fn(NvrtcProgram, c_int, *const *const c_char) -> NvrtcResult;
type FnGetSize = unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult;
type FnGetBytes = unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult;
type FnAddNameExpression = unsafe extern "C" fn(NvrtcProgram, *const c_char) -> NvrtcResult;
type FnGetLoweredName =
    unsafe extern "C" fn(NvrtcProgram, *const c_char, *mut *const c_char) -> NvrtcResult;

/// The loaded library and the functions taken from it. Lives in a static that is never dropped,
/// so the function pointers stay valid for the life of the process.
struct Nvrtc {
    path: PathBuf,
    version: (i32, i32),
    get_error_string: FnGetErrorString,
    create_program: FnCreateProgram,
    destroy_program: FnDestroyProgram,
    compile_program: FnCompileProgram,
    get_ptx_size: FnGetSize,
    get_ptx: FnGetBytes,
    get_log_size: FnGetSize,
    get_log: FnGetBytes,
    add_name_expression: FnAddNameExpression,
    get_lowered_name: FnGetLoweredName,
    get_cubin_size: FnGetSize,
    get_cubin: FnGetBytes,
    _lib: libloading::Library,
}

#[derive(Clone, Debug)]
enum LoadError {
    Missing(Vec<String>),
    Symbol {
        library: String,
        symbol: &'static str,
        reason: String,
    },
}

impl From<&LoadError> for FrontendError {
    fn from(e: &LoadError) -> Self {
        match e {
            LoadError::Missing(tried) => FrontendError::NvrtcMissing {
                tried: tried.clone(),
            },
            LoadError::Symbol {
                library,
                symbol,
                reason,
            } => FrontendError::MissingSymbol {
                library: library.clone(),
                symbol,
                reason: reason.clone(),
            },
        }
    }
}

static NVRTC: OnceLock<Result<Nvrtc, LoadError>> = OnceLock::new();

fn nvrtc() -> Result<&'static Nvrtc, FrontendError> {
    NVRTC
        .get_or_init(load_nvrtc)
        .as_ref()
        .map_err(FrontendError::from)
}

fn env_path(var: &str) -> Option<PathBuf> {
    std::env::var_os(var)
        .filter(|v| !v.is_empty())
        .map(PathBuf::from)
}

/// site-packages directories that may hold the pip CUDA packages: first the one `python3` reports
/// for the `nvidia` namespace package, then common locations found by globbing.
pub(crate) fn site_packages() -> &'static [PathBuf] {
    static SITE: OnceLock<Vec<PathBuf>> = OnceLock::new();
    SITE.get_or_init(|| {
        let mut dirs = Vec::new();
        let probe = Command::new("python3")
            .args([
                "-c",
                "import nvidia,os;print(os.path.dirname(nvidia.__path__[0]))",
            ])
            .stdin(Stdio::null())
            .stderr(Stdio::null())
            .output();
        if let Ok(out) = probe {
            if out.status.success() {
                let text = String::from_utf8_lossy(&out.stdout).trim().to_string();
                if !text.is_empty() {
                    dirs.push(PathBuf::from(text));
                }
            }
        }
        let mut patterns: Vec<String> = Vec::new();
        for var in ["VIRTUAL_ENV", "CONDA_PREFIX"] {
            if let Some(p) = env_path(var) {
                patterns.push(format!("{}/lib/python3*/site-packages", p.display()));
            }
        }
        if let Some(home) = env_path("HOME") {
            let h = home.display();
            patterns.push(format!("{h}/.local/lib/python3*/site-packages"));
            patterns.push(format!("{h}/.pyenv/versions/*/lib/python3*/site-packages"));
        }
        patterns.extend(
            [
                "/usr/local/lib/python3*/dist-packages",
                "/usr/local/lib/python3*/site-packages",
                "/usr/lib/python3/dist-packages",
                "/usr/lib/python3*/site-packages",
                "/opt/conda/lib/python3*/site-packages",
            ]
            .map(String::from),
        );
        for p in patterns {
            for d in glob(&p) {
                if !dirs.contains(&d) {
                    dirs.push(d);
                }
            }
        }
        dirs
    })
}

/// Some NVRTC builds open `libnvrtc-builtins.so.13.N` by bare name at compile time and carry no
/// run path, so a copy outside the loader path (the pip package) is not found. Opening it first,
/// globally, from the folder of the `libnvrtc` about to be loaded makes that lookup succeed.
/// The returned handle is deliberately leaked: the library must stay loaded for the process.
fn preload_builtins(nvrtc: &Path) {
    let Some(dir) = nvrtc.parent().filter(|d| !d.as_os_str().is_empty()) else {
        return;
    };
    let Ok(entries) = std::fs::read_dir(dir) else {
        return;
    };
    for e in entries.flatten() {
        let name = e.file_name();
        let name = name.to_string_lossy();
        if name.starts_with("libnvrtc-builtins.so.") {
            // SAFETY: as for libnvrtc itself: NVIDIA's library, no caller preconditions. RTLD_GLOBAL
            // makes its soname visible to libnvrtc's own dlopen.
            let lib = unsafe {
                libloading::os::unix::Library::open(
                    Some(e.path()),
                    libloading::os::unix::RTLD_NOW | libloading::os::unix::RTLD_GLOBAL,
                )
            };
            if let Ok(lib) = lib {
                std::mem::forget(lib);
            }
        }
    }
}

fn load_nvrtc() -> Result<Nvrtc, LoadError> {
    const SONAMES: [&str; 2] = ["libnvrtc.so.13", "libnvrtc.so"];
    let mut tried = Vec::new();
    let attempt = |candidate: PathBuf, tried: &mut Vec<String>| -> Option<libloading::Library> {
        preload_builtins(&candidate);
        // SAFETY: opening a shared library runs its initialisers; libnvrtc's are NVIDIA's and
        // have no preconditions on the caller. The candidate is only ever a libnvrtc path/name.
        match unsafe { libloading::Library::new(&candidate) } {
            Ok(lib) => Some(lib),
            Err(e) => {
                tried.push(format!("{}: {e}", candidate.display()));
                None
            }
        }
    };
    let mut found: Option<(PathBuf, libloading::Library)> = None;
    // 1. explicit path
    if let Some(p) = env_path("GPUMEMSIM_NVRTC") {
        if let Some(lib) = attempt(p.clone(), &mut tried) {
            found = Some((p, lib));
        }
    }
    // 2./3. CUDA toolkit roots
    for var in ["CUDA_HOME", "CUDA_PATH"] {
        if found.is_some() {
            break;
        }
        if let Some(root) = env_path(var) {
            for name in SONAMES {
                let p = root.join("lib64").join(name);
                if p.exists() {
                    if let Some(lib) = attempt(p.clone(), &mut tried) {
                        found = Some((p, lib));
                        break;
                    }
                }
            }
        }
    }
    // 4. pip packages
    if found.is_none() {
        'pip: for sp in site_packages() {
            for rel in [
                "nvidia/cu13/lib/libnvrtc.so.13",
                "nvidia/cuda_nvrtc/lib/libnvrtc.so.12",
            ] {
                let p = sp.join(rel);
                if p.exists() {
                    if let Some(lib) = attempt(p.clone(), &mut tried) {
                        found = Some((p, lib));
                        break 'pip;
                    }
                }
            }
        }
    }
    // 5. system loader
    if found.is_none() {
        for name in ["libnvrtc.so.13", "libnvrtc.so", "libnvrtc.so.12"] {
            if let Some(lib) = attempt(PathBuf::from(name), &mut tried) {
                found = Some((PathBuf::from(name), lib));
                break;
            }
        }
    }
    let Some((path, lib)) = found else {
        return Err(LoadError::Missing(tried));
    };
    let library = path.display().to_string();
    macro_rules! sym {
        ($name:literal, $ty:ty) => {{
            // SAFETY: `$ty` is the exact C signature of `$name` as declared in nvrtc.h
            // [NVRTC §"NVRTC API"]; the pointer is copied out and used only while `lib` lives,
            // and `lib` is stored next to it in a static that is never dropped.
            match unsafe { lib.get::<$ty>(concat!($name, "\0").as_bytes()) } {
                Ok(s) => *s,
                Err(e) => {
                    return Err(LoadError::Symbol {
                        library,
                        symbol: $name,
                        reason: e.to_string(),
                    })
                }
            }
        }};
    }
    let version_fn = sym!("nvrtcVersion", FnVersion);
    let mut api = Nvrtc {
        path,
        version: (0, 0),
        get_error_string: sym!("nvrtcGetErrorString", FnGetErrorString),
        create_program: sym!("nvrtcCreateProgram", FnCreateProgram),
        destroy_program: sym!("nvrtcDestroyProgram", FnDestroyProgram),
        compile_program: sym!("nvrtcCompileProgram", FnCompileProgram),
        get_ptx_size: sym!("nvrtcGetPTXSize", FnGetSize),
        get_ptx: sym!("nvrtcGetPTX", FnGetBytes),
        get_log_size: sym!("nvrtcGetProgramLogSize", FnGetSize),
        get_log: sym!("nvrtcGetProgramLog", FnGetBytes),
        add_name_expression: sym!("nvrtcAddNameExpression", FnAddNameExpression),
        get_lowered_name: sym!("nvrtcGetLoweredName", FnGetLoweredName),
        get_cubin_size: sym!("nvrtcGetCUBINSize", FnGetSize),
        get_cubin: sym!("nvrtcGetCUBIN", FnGetBytes),
        _lib: lib,
    };
    let (mut major, mut minor): (c_int, c_int) = (0, 0);
    // SAFETY: nvrtcVersion writes one int through each of two valid, exclusive pointers.
    let code = unsafe { version_fn(&mut major, &mut minor) };
    if code != NVRTC_SUCCESS {
        return Err(LoadError::Symbol {
            library,
            symbol: "nvrtcVersion",
            reason: format!("it returned nvrtcResult {code}"),
        });
    }
    api.version = (major, minor);
    Ok(api)
}

impl Nvrtc {
    fn error_string(&self, code: NvrtcResult) -> String {
        // SAFETY: nvrtcGetErrorString accepts any value and returns a pointer to a static,
        // NUL-terminated string (or, defensively, null, which is checked).
        let p = unsafe { (self.get_error_string)(code) };
        if p.is_null() {
            return format!("unknown nvrtcResult {code}");
        }
        // SAFETY: non-null, NUL-terminated, static storage (see above).
        unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned()
    }

    fn check(&self, call: &'static str, code: NvrtcResult) -> Result<(), FrontendError> {
        if code == NVRTC_SUCCESS {
            Ok(())
        } else {
            Err(FrontendError::Api {
                call,
                code,
                message: self.error_string(code),
            })
        }
    }
}

/// An NVRTC program, destroyed on drop.
struct Program<'a> {
    api: &'a Nvrtc,
    handle: NvrtcProgram,
}

impl Drop for Program<'_> {
    fn drop(&mut self) {
        // SAFETY: `handle` came from a successful nvrtcCreateProgram and is destroyed only here.
        unsafe { (self.api.destroy_program)(&mut self.handle) };
    }
}

impl Program<'_> {
    /// Reads a byte buffer through one of NVRTC's size/get pairs.
    fn read(
        &self,
        size_call: (&'static str, FnGetSize),
        get_call: (&'static str, FnGetBytes),
    ) -> Result<Vec<u8>, FrontendError> {
        let mut size: usize = 0;
        // SAFETY: valid program handle; `size` is a valid, exclusive out-pointer.
        let code = unsafe { (size_call.1)(self.handle, &mut size) };
        self.api.check(size_call.0, code)?;
        if size == 0 {
            return Ok(Vec::new());
        }
        let mut buf = vec![0u8; size];
        // SAFETY: NVRTC writes exactly the `size` bytes it just reported into `buf`, which holds
        // `size` bytes.
        let code = unsafe { (get_call.1)(self.handle, buf.as_mut_ptr().cast::<c_char>()) };
        self.api.check(get_call.0, code)?;
        Ok(buf)
    }
}

fn cstring(what: &str, s: &str) -> Result<CString, FrontendError> {
    CString::new(s).map_err(|_| FrontendError::InteriorNul {
        what: what.to_string(),
    })
}

fn text_of(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

struct RawOutput {
    ptx: String,
    cubin: Option<Vec<u8>>,
    lowered: Vec<(String, String)>,
    log: String,
}

fn run_nvrtc(
    api: &Nvrtc,
    file_name: &str,
    source: &str,
    names: &[String],
    options: &[String],
    want_cubin: bool,
) -> Result<RawOutput, FrontendError> {
    let c_source = cstring("the source", source)?;
    let c_file = cstring("the file name", file_name)?;
    let c_names: Vec<CString> = names
        .iter()
        .map(|n| cstring(&format!("name expression `{n}`"), n))
        .collect::<Result<_, _>>()?;
    let c_options: Vec<CString> = options
        .iter()
        .map(|o| cstring(&format!("option `{o}`"), o))
        .collect::<Result<_, _>>()?;
    let option_ptrs: Vec<*const c_char> = c_options.iter().map(|o| o.as_ptr()).collect();
    let n_options = c_int::try_from(option_ptrs.len()).map_err(|_| FrontendError::Api {
        call: "nvrtcCompileProgram",
        code: -1,
        message: "too many options".into(),
    })?;

    let header_texts: Vec<CString> = std_headers::HEADERS
        .iter()
        .map(|(_, text)| cstring("a built-in header", text))
        .collect::<Result<_, _>>()?;
    let header_names: Vec<CString> = std_headers::HEADERS
        .iter()
        .map(|(name, _)| cstring("a built-in header name", name))
        .collect::<Result<_, _>>()?;
    let text_ptrs: Vec<*const c_char> = header_texts.iter().map(|t| t.as_ptr()).collect();
    let name_ptrs: Vec<*const c_char> = header_names.iter().map(|t| t.as_ptr()).collect();
    let mut handle: NvrtcProgram = std::ptr::null_mut();
    // SAFETY: `handle` is a valid out-pointer; source and name are NUL-terminated strings alive
    // for the call; `text_ptrs` and `name_ptrs` hold `HEADERS.len()` NUL-terminated strings each,
    // alive for the call (NVRTC copies them) [NVRTC §nvrtcCreateProgram].
    let code = unsafe {
        (api.create_program)(
            &mut handle,
            c_source.as_ptr(),
            c_file.as_ptr(),
            text_ptrs.len() as c_int,
            text_ptrs.as_ptr(),
            name_ptrs.as_ptr(),
        )
    };
    api.check("nvrtcCreateProgram", code)?;
    let program = Program { api, handle };

    for (name, c_name) in names.iter().zip(&c_names) {
        // SAFETY: valid program; NUL-terminated expression alive for the call (NVRTC copies it).
        let code = unsafe { (api.add_name_expression)(program.handle, c_name.as_ptr()) };
        api.check("nvrtcAddNameExpression", code)
            .map_err(|e| match e {
                FrontendError::Api { message, .. } => FrontendError::NameExpression {
                    expression: name.clone(),
                    file: file_name.to_string(),
                    message,
                },
                other => other,
            })?;
    }

    // SAFETY: valid program; `option_ptrs` holds `n_options` pointers to NUL-terminated strings
    // owned by `c_options`, which outlives the call.
    let compile_code =
        unsafe { (api.compile_program)(program.handle, n_options, option_ptrs.as_ptr()) };
    let log = text_of(program.read(
        ("nvrtcGetProgramLogSize", api.get_log_size),
        ("nvrtcGetProgramLog", api.get_log),
    )?);
    if compile_code != NVRTC_SUCCESS {
        if log.trim().is_empty() {
            api.check("nvrtcCompileProgram", compile_code)?;
        }
        return Err(compile_error(file_name, source, log));
    }

    let mut lowered = Vec::with_capacity(names.len());
    for (name, c_name) in names.iter().zip(&c_names) {
        let mut p: *const c_char = std::ptr::null();
        // SAFETY: valid, compiled program; NUL-terminated expression that was added before
        // compiling; `p` is a valid out-pointer.
        let code = unsafe { (api.get_lowered_name)(program.handle, c_name.as_ptr(), &mut p) };
        if code != NVRTC_SUCCESS || p.is_null() {
            return Err(FrontendError::NameExpression {
                expression: name.clone(),
                file: file_name.to_string(),
                message: api.error_string(code),
            });
        }
        // SAFETY: NVRTC returned a non-null NUL-terminated string owned by the program, which is
        // alive (destroyed only when `program` drops, after this copy).
        let s = unsafe { CStr::from_ptr(p) }.to_string_lossy().into_owned();
        lowered.push((name.clone(), s));
    }

    let ptx = text_of(program.read(
        ("nvrtcGetPTXSize", api.get_ptx_size),
        ("nvrtcGetPTX", api.get_ptx),
    )?);
    let cubin = if want_cubin {
        Some(program.read(
            ("nvrtcGetCUBINSize", api.get_cubin_size),
            ("nvrtcGetCUBIN", api.get_cubin),
        )?)
    } else {
        None
    };
    Ok(RawOutput {
        ptx,
        cubin,
        lowered,
        log,
    })
}

/// Turns a failed compilation's log into an error. Failures that NVRTC reports against its
/// synthetic `__nv_name_map` file come from a name expression that names nothing.
fn compile_error(file_name: &str, source: &str, log: String) -> FrontendError {
    let diagnostics = parse_nvrtc_log(&log, file_name, source);
    let errors: Vec<&Diagnostic> = diagnostics
        .iter()
        .filter(|d| d.severity.is_error())
        .collect();
    if !errors.is_empty() && errors.iter().all(|d| d.file == "__nv_name_map") {
        let expression = errors[0]
            .source_line
            .as_deref()
            .and_then(|l| l.trim().strip_prefix("#pragma nv_mangled_name"))
            .map(|e| e.trim().to_string())
            .unwrap_or_default();
        return FrontendError::NameExpression {
            expression,
            file: file_name.to_string(),
            message: errors[0].message.clone(),
        };
    }
    FrontendError::Compile {
        file: file_name.to_string(),
        diagnostics,
        log,
    }
}

// ---------------------------------------------------------------------------------------------
// Options and include paths
// ---------------------------------------------------------------------------------------------

fn build_options(path: &Path, arch: &str, extra: &[String], ptxas_verbose: bool) -> Vec<String> {
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
fn missing_header_hint(message: &str) -> Option<String> {
    let name = message
        .strip_prefix("cannot open source file \"")?
        .strip_suffix('"')?;
    let package = header_package(name)?;
    Some(format!(
        "note: `{name}` is a CUDA header from the pip package {package}: `pip install {package}`"
    ))
}

/// The CUDA headers directory (one holding `cuda_fp16.h`), if any.
fn cuda_include_dir() -> Option<&'static Path> {
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
fn glob(pattern: &str) -> Vec<PathBuf> {
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

// ---------------------------------------------------------------------------------------------
// Cache
// ---------------------------------------------------------------------------------------------

#[derive(Serialize, Deserialize)]
struct PtxEntry {
    key: String,
    ptx: String,
    lowered_names: Vec<(String, String)>,
    log: String,
}

#[derive(Serialize, Deserialize)]
struct ResEntry {
    key: String,
    resources: Vec<KernelResources>,
}

trait Keyed {
    fn key(&self) -> &str;
}
impl Keyed for PtxEntry {
    fn key(&self) -> &str {
        &self.key
    }
}
impl Keyed for ResEntry {
    fn key(&self) -> &str {
        &self.key
    }
}

/// FNV-1a, 64-bit (Fowler–Noll–Vo; offset basis 0xcbf29ce484222325, prime 0x100000001b3).
#[derive(Clone, Copy)]
struct Fnv1a64(u64);

impl Fnv1a64 {
    fn new() -> Self {
        Fnv1a64(0xcbf2_9ce4_8422_2325)
    }
    fn bytes(&mut self, data: &[u8]) {
        for &b in data {
            self.0 ^= u64::from(b);
            self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
        }
    }
    /// A length-prefixed field, so that field boundaries are part of the hash.
    fn field(&mut self, data: &[u8]) {
        self.bytes(&(data.len() as u64).to_le_bytes());
        self.bytes(data);
    }
}

fn cache_key(
    kind: &str,
    version: (i32, i32),
    path: &Path,
    file_name: &str,
    source: &str,
    names: &[String],
    options: &[String],
) -> u64 {
    let mut h = Fnv1a64::new();
    h.field(b"gpumemsim-nvrtc-cache-v1");
    h.field(kind.as_bytes());
    h.field(&version.0.to_le_bytes());
    h.field(&version.1.to_le_bytes());
    h.field(file_name.as_bytes());
    h.field(source.as_bytes());
    h.field(&(names.len() as u64).to_le_bytes());
    for n in names {
        h.field(n.as_bytes());
    }
    h.field(&(options.len() as u64).to_le_bytes());
    for o in options {
        h.field(o.as_bytes());
    }
    for (name, text) in std_headers::HEADERS {
        h.field(name.as_bytes());
        h.field(text.as_bytes());
    }
    hash_local_includes(&mut h, path, source);
    h.0
}

/// Hashes the files reached through `#include "…"` (resolved against the including file's
/// directory, then the main file's), so editing a local header invalidates the cache.
fn hash_local_includes(h: &mut Fnv1a64, path: &Path, source: &str) {
    let main_dir = path.parent().map(Path::to_path_buf).unwrap_or_default();
    let mut seen: HashSet<PathBuf> = HashSet::new();
    let mut stack: Vec<(PathBuf, String, usize)> = vec![(main_dir.clone(), source.to_string(), 0)];
    while let Some((dir, text, depth)) = stack.pop() {
        for name in quoted_includes(&text) {
            let found = [dir.join(name), main_dir.join(name)]
                .into_iter()
                .find(|p| p.is_file());
            match found {
                Some(p) => {
                    if !seen.insert(p.clone()) {
                        continue;
                    }
                    let contents = std::fs::read_to_string(&p).unwrap_or_default();
                    h.field(p.display().to_string().as_bytes());
                    h.field(contents.as_bytes());
                    if depth < 16 {
                        let d = p.parent().map(Path::to_path_buf).unwrap_or_default();
                        stack.push((d, contents, depth + 1));
                    }
                }
                None => h.field(format!("missing:{name}").as_bytes()),
            }
        }
    }
}

fn quoted_includes(text: &str) -> Vec<&str> {
    text.lines()
        .filter_map(|l| {
            let rest = l
                .trim_start()
                .strip_prefix('#')?
                .trim_start()
                .strip_prefix("include")?;
            let rest = rest.trim_start().strip_prefix('"')?;
            rest.split_once('"').map(|(name, _)| name)
        })
        .collect()
}

fn cache_dir(mode: &CacheMode) -> Option<PathBuf> {
    match mode {
        CacheMode::Disabled => None,
        CacheMode::Dir(d) => Some(d.clone()),
        CacheMode::Default => env_path("GPUMEMSIM_CACHE")
            .or_else(|| env_path("XDG_CACHE_HOME").map(|d| d.join("gpumemsim")))
            .or_else(|| env_path("HOME").map(|h| h.join(".cache").join("gpumemsim"))),
    }
}

fn cache_read<T: for<'de> Deserialize<'de> + Keyed>(dir: &Path, name: &str, key: u64) -> Option<T> {
    let text = std::fs::read_to_string(dir.join(name)).ok()?;
    let entry: T = serde_json::from_str(&text).ok()?;
    (entry.key() == format!("{key:016x}")).then_some(entry)
}

/// Best effort: write to a temporary name, then rename, so readers never see half a file.
fn cache_write<T: Serialize>(dir: &Path, name: &str, entry: &T) {
    let Ok(text) = serde_json::to_string(entry) else {
        return;
    };
    if std::fs::create_dir_all(dir).is_err() {
        return;
    }
    let tmp = dir.join(format!("{name}.tmp{}", std::process::id()));
    if std::fs::write(&tmp, text).is_ok() && std::fs::rename(&tmp, dir.join(name)).is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
}

// ---------------------------------------------------------------------------------------------
// Log parsing
// ---------------------------------------------------------------------------------------------

struct Header {
    file: String,
    line: u32,
    severity: Severity,
    code: Option<String>,
    message: String,
}

/// Parses `file(line): severity[ #code]: message` \[LOG\].
fn parse_header(text: &str) -> Option<Header> {
    let mut search_from = 0;
    while let Some(rel) = text[search_from..].find("): ") {
        let close = search_from + rel;
        search_from = close + 3;
        let before = &text[..close];
        let Some(open) = before.rfind('(') else {
            continue;
        };
        let digits = &before[open + 1..];
        if open == 0 || digits.is_empty() || !digits.bytes().all(|b| b.is_ascii_digit()) {
            continue;
        }
        let Ok(line) = digits.parse::<u32>() else {
            continue;
        };
        let rest = &text[close + 3..];
        let Some((head, message)) = rest.split_once(": ") else {
            continue;
        };
        let (word, code) = match head.split_once(" #") {
            Some((w, c)) => (w, Some(format!("#{c}"))),
            None => (head, None),
        };
        let severity = match word {
            "error" => Severity::Error,
            "catastrophic error" | "internal error" | "fatal error" => Severity::Fatal,
            "warning" => Severity::Warning,
            "note" => Severity::Note,
            "remark" => Severity::Remark,
            _ => continue,
        };
        return Some(Header {
            file: before[..open].to_string(),
            line,
            severity,
            code,
            message: message.trim_end().to_string(),
        });
    }
    None
}

fn is_caret(line: &str) -> bool {
    line.trim() == "^"
}

/// 1-based column: from the caret line (which repeats the source line's indentation after NVRTC's
/// two-space prefix \[LOG\]), else the first whole-token occurrence of the token the message quotes,
/// else 1.
fn find_column(source_line: Option<&str>, caret: Option<&str>, message: &str) -> u32 {
    let line_len = source_line.map(|s| s.chars().count());
    if let Some(c) = caret {
        if let Some(pos) = c.chars().position(|ch| ch == '^') {
            let col0 = pos.saturating_sub(2);
            if line_len.is_none_or(|n| col0 <= n) {
                return col0 as u32 + 1;
            }
        }
    }
    if let (Some(src), Some(token)) = (source_line, quoted_token(message)) {
        if let Some(byte) = find_token(src, token) {
            return src[..byte].chars().count() as u32 + 1;
        }
    }
    1
}

fn quoted_token(message: &str) -> Option<&str> {
    let start = message.find('"')? + 1;
    let len = message[start..].find('"')?;
    let token = &message[start..start + len];
    (!token.is_empty()).then_some(token)
}

fn is_ident_char(c: char) -> bool {
    c.is_alphanumeric() || c == '_'
}

/// Byte offset of `token` in `line`, at identifier boundaries when the token is an identifier.
fn find_token(line: &str, token: &str) -> Option<usize> {
    let ident = token.chars().all(is_ident_char);
    let mut from = 0;
    while let Some(rel) = line[from..].find(token) {
        let at = from + rel;
        let end = at + token.len();
        let before_ok = !ident || !line[..at].chars().next_back().is_some_and(is_ident_char);
        let after_ok = !ident || !line[end..].chars().next().is_some_and(is_ident_char);
        if before_ok && after_ok {
            return Some(at);
        }
        from = at + token.len().max(1);
    }
    None
}

/// Parses ptxas's `-v` lines \[LOG\]; the bool says whether the `Used` line had a `cmem[0]` item.
fn parse_ptxas_log_inner(log: &str) -> Result<Vec<(KernelResources, bool)>, FrontendError> {
    struct Partial {
        r: KernelResources,
        used_seen: bool,
        has_cmem: bool,
    }
    let mut entries: Vec<Partial> = Vec::new();
    // Index of the entry whose `Used` line comes next, and of the function whose stack line does.
    let mut compiling: Option<usize> = None;
    let mut properties: Option<usize> = None;
    let bad =
        |line: &str, why: &str| FrontendError::PtxasLog(format!("{why} in `{}`", line.trim()));
    for line in log.lines() {
        // Older versions print the stack-frame line without the `ptxas` prefix.
        let body = line.strip_prefix("ptxas").unwrap_or(line).trim_start();
        let body = body
            .strip_prefix("info")
            .map(|b| b.trim_start().strip_prefix(':').unwrap_or(b).trim())
            .or_else(|| body.strip_prefix('.').map(str::trim))
            .unwrap_or(body);
        if let Some(after) = body.strip_prefix("Compiling entry function") {
            let name = after
                .trim()
                .strip_prefix('\'')
                .and_then(|s| s.split_once('\''))
                .map(|(n, _)| n.to_string())
                .ok_or_else(|| bad(line, "no quoted function name"))?;
            entries.push(Partial {
                r: KernelResources {
                    mangled_name: name,
                    registers: 0,
                    spill_stores: 0,
                    spill_loads: 0,
                    stack_frame: 0,
                    static_shared: 0,
                    const_bytes: 0,
                    barriers: 0,
                },
                used_seen: false,
                has_cmem: false,
            });
            compiling = Some(entries.len() - 1);
        } else if let Some(name) = body.strip_prefix("Function properties for") {
            let name = name.trim();
            properties = entries.iter().rposition(|e| e.r.mangled_name == name);
        } else if body.contains("bytes stack frame") {
            if let Some(i) = properties {
                for (n, what) in counted_items(body).map_err(|w| bad(line, &w))? {
                    let r = &mut entries[i].r;
                    match what {
                        "bytes stack frame" => r.stack_frame = n,
                        "bytes spill stores" => r.spill_stores = n,
                        "bytes spill loads" => r.spill_loads = n,
                        _ => {}
                    }
                }
            }
        } else if body.starts_with("Used ") {
            let i = compiling.ok_or_else(|| bad(line, "`Used` line before any entry function"))?;
            let e = &mut entries[i];
            e.used_seen = true;
            for (n, what) in counted_items(body).map_err(|w| bad(line, &w))? {
                match what {
                    "registers" => e.r.registers = n,
                    "barriers" => e.r.barriers = n,
                    "bytes smem" => e.r.static_shared = n,
                    "bytes cmem[0]" => {
                        e.r.const_bytes = n;
                        e.has_cmem = true;
                    }
                    _ => {}
                }
            }
        }
    }
    entries
        .into_iter()
        .map(|e| {
            if e.used_seen {
                Ok((e.r, e.has_cmem))
            } else {
                Err(FrontendError::PtxasLog(format!(
                    "no `Used N registers` line for {}",
                    e.r.mangled_name
                )))
            }
        })
        .collect()
}

/// Splits `Used 12 registers, used 1 barriers, 4096 bytes smem` into (12, "registers"),
/// (1, "barriers"), (4096, "bytes smem").
fn counted_items(body: &str) -> Result<Vec<(u32, &str)>, String> {
    body.split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|item| {
            let item = item
                .strip_prefix("Used ")
                .or_else(|| item.strip_prefix("used "))
                .unwrap_or(item);
            let (n, what) = item
                .split_once(' ')
                .ok_or_else(|| format!("item `{item}` has no count"))?;
            let n = n
                .parse::<u32>()
                .map_err(|_| format!("`{n}` is not a count"))?;
            Ok((n, what.trim()))
        })
        .collect()
}

// ---------------------------------------------------------------------------------------------
// Cubin (ELF64) section sizes
// ---------------------------------------------------------------------------------------------

fn read_u16(b: &[u8], at: usize) -> Option<u16> {
    Some(u16::from_le_bytes(b.get(at..at + 2)?.try_into().ok()?))
}
fn read_u32(b: &[u8], at: usize) -> Option<u32> {
    Some(u32::from_le_bytes(b.get(at..at + 4)?.try_into().ok()?))
}
fn read_u64(b: &[u8], at: usize) -> Option<u64> {
    Some(u64::from_le_bytes(b.get(at..at + 8)?.try_into().ok()?))
}

/// Size of the section called `name` in a little-endian ELF64 image (cubins are; System V gABI
/// header layout: e_shoff at 0x28, e_shentsize/e_shnum/e_shstrndx at 0x3a/0x3c/0x3e; section
/// header: sh_name at 0, sh_size at 0x20).
fn elf_section_size(elf: &[u8], name: &str) -> Option<u64> {
    if elf.get(0..4)? != b"\x7fELF" || *elf.get(4)? != 2 || *elf.get(5)? != 1 {
        return None;
    }
    let shoff = usize::try_from(read_u64(elf, 0x28)?).ok()?;
    let shentsize = usize::from(read_u16(elf, 0x3a)?);
    let shnum = usize::from(read_u16(elf, 0x3c)?);
    let shstrndx = usize::from(read_u16(elf, 0x3e)?);
    if shentsize < 0x40 {
        return None;
    }
    let header = |i: usize| shoff.checked_add(i.checked_mul(shentsize)?);
    let strtab_hdr = header(shstrndx)?;
    let strtab_off = usize::try_from(read_u64(elf, strtab_hdr + 0x18)?).ok()?;
    for i in 0..shnum {
        let h = header(i)?;
        let name_off = strtab_off.checked_add(read_u32(elf, h)? as usize)?;
        let rest = elf.get(name_off..)?;
        let end = rest.iter().position(|&b| b == 0)?;
        if &rest[..end] == name.as_bytes() {
            return read_u64(elf, h + 0x20);
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Verbatim from NVRTC 13.5 (`-arch=sm_90 --ptxas-options=-v`) on three kernels \[LOG\].
    const PTXAS_LOG: &str = "ptxas info    : 0 bytes gmem\nptxas info    : Compiling entry function '_Z9sh_strideILi32EEvPf' for 'sm_90'\nptxas info    : Function properties for _Z9sh_strideILi32EEvPf\nptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 12 registers, used 1 barriers, 4096 bytes smem\nptxas info    : Compile time = 3.563 ms\nptxas info    : Compiling entry function '_Z5spillPfi' for 'sm_90'\nptxas info    : Function properties for _Z5spillPfi\nptxas         .     1024 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 32 registers, used 0 barriers, 1024 bytes cumulative stack size\nptxas info    : Compile time = 88.413 ms\nptxas info    : Compiling entry function '_Z3fooPf' for 'sm_90'\nptxas info    : Function properties for _Z3fooPf\nptxas         .     0 bytes stack frame, 0 bytes spill stores, 0 bytes spill loads\nptxas info    : Used 10 registers, used 0 barriers\nptxas info    : Compile time = 1.962 ms\n";

    #[test]
    fn ptxas_log_13_5() {
        let r = parse_ptxas_log(PTXAS_LOG).unwrap();
        assert_eq!(r.len(), 3);
        assert_eq!(r[0].mangled_name, "_Z9sh_strideILi32EEvPf");
        assert_eq!(
            (
                r[0].registers,
                r[0].barriers,
                r[0].static_shared,
                r[0].stack_frame
            ),
            (12, 1, 4096, 0)
        );
        assert_eq!(r[1].mangled_name, "_Z5spillPfi");
        assert_eq!(
            (r[1].registers, r[1].stack_frame, r[1].spill_stores),
            (32, 1024, 0)
        );
        assert_eq!(
            (
                r[2].mangled_name.as_str(),
                r[2].registers,
                r[2].static_shared
            ),
            ("_Z3fooPf", 10, 0)
        );
    }

    #[test]
    fn ptxas_log_older_format_with_cmem_and_device_function() {
        // The CUDA 11/12 layout: cmem[0] on the `Used` line; a non-inlined device function's
        // properties between an entry's header and its `Used` line.
        let log = "ptxas info    : 0 bytes gmem\n\
ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n\
ptxas info    : Function properties for _Z3devv\n\
    8 bytes stack frame, 4 bytes spill stores, 4 bytes spill loads\n\
ptxas info    : Function properties for _Z1kPf\n\
ptxas         .     16 bytes stack frame, 8 bytes spill stores, 12 bytes spill loads\n\
ptxas info    : Used 255 registers, 536 bytes cmem[0]\n";
        let r = parse_ptxas_log_inner(log).unwrap();
        assert_eq!(r.len(), 1);
        let (k, has_cmem) = &r[0];
        assert!(*has_cmem);
        assert_eq!((k.registers, k.const_bytes), (255, 536));
        assert_eq!((k.stack_frame, k.spill_stores, k.spill_loads), (16, 8, 12));
    }

    #[test]
    fn ptxas_log_missing_used_line_is_an_error() {
        let log = "ptxas info    : Compiling entry function '_Z1kPf' for 'sm_90'\n";
        assert!(matches!(
            parse_ptxas_log(log),
            Err(FrontendError::PtxasLog(_))
        ));
    }

    /// Verbatim NVRTC 13.5 log for a 5-line source with four errors \[LOG\].
    const ERR_SRC: &str = "__global__ void f(float*a){\n  x = 1;\n  a[0] = y;\n int z = \n}\n";
    const ERR_LOG: &str = "kernel.cu(2): error: identifier \"x\" is undefined\n    x = 1;\n    ^\n\nkernel.cu(3): error: identifier \"y\" is undefined\n    a[0] = y;\n           ^\n\nkernel.cu(5): error: expected an expression\n  }\n  ^\n\nkernel.cu(5): error: expected a \";\"\n  }\n  ^\n\n4 errors detected in the compilation of \"kernel.cu\".\n";

    #[test]
    fn nvrtc_errors_are_located() {
        let d = parse_nvrtc_log(ERR_LOG, "kernel.cu", ERR_SRC);
        assert_eq!(d.len(), 4);
        // `x` is the 3rd character of "  x = 1;", `y` the 10th of "  a[0] = y;", `}` the 1st.
        let got: Vec<(u32, u32)> = d.iter().map(|d| (d.line, d.column)).collect();
        assert_eq!(got, vec![(2, 3), (3, 10), (5, 1), (5, 1)]);
        assert_eq!(d[0].message, "identifier \"x\" is undefined");
        assert_eq!(d[1].source_line.as_deref(), Some("  a[0] = y;"));
        assert!(d
            .iter()
            .all(|d| d.severity == Severity::Error && d.file == "kernel.cu"));
    }

    #[test]
    fn column_from_quoted_token_without_caret() {
        let log = "bad.cu(1): error: identifier \"xy\" is undefined\n";
        let d = parse_nvrtc_log(log, "bad.cu", "int axy = xy;\n");
        // whole-token match skips "axy": "xy" starts at character 11.
        assert_eq!((d[0].line, d[0].column), (1, 11));
        let d = parse_nvrtc_log(
            "bad.cu(1): error: expected a type\n",
            "bad.cu",
            "foo bar;\n",
        );
        assert_eq!(d[0].column, 1);
    }

    #[test]
    fn tabs_warnings_notes_and_paths_with_parentheses() {
        // Verbatim NVRTC 13.5 shapes [LOG]: tab indentation, a warning with a number, a note with
        // an instantiation context line.
        let src = "__global__ void f(float*a){\n\tint z;\n\t\tx = 1;\n}\n";
        let log = "dir (1)/k.cu(3): error: identifier \"x\" is undefined\n  \t\tx = 1;\n  \t\t^\n\ndir (1)/k.cu(2): warning #177-D: variable \"z\" was declared but never referenced\n  \tint z;\n  \t    ^\n\ndir (1)/k.cu(2): note #3453-D: the final comparison was 3 < 2\n  \tint z;\n  \t^\n          detected during instantiation of \"void f<N>(float *) [with N=3]\" \n\n1 error detected in the compilation of \"k.cu\".\n";
        let d = parse_nvrtc_log(log, "dir (1)/k.cu", src);
        assert_eq!(d.len(), 3);
        assert_eq!(
            (d[0].file.as_str(), d[0].line, d[0].column),
            ("dir (1)/k.cu", 3, 3)
        );
        assert_eq!(
            (d[1].severity, d[1].code.as_deref(), d[1].column),
            (Severity::Warning, Some("#177-D"), 6)
        );
        assert_eq!(
            d[2].notes,
            vec!["detected during instantiation of \"void f<N>(float *) [with N=3]\"".to_string()]
        );
        // The rendered caret copies the tabs.
        assert!(d[0].to_string().ends_with("| \t\t^"), "{}", d[0]);
    }

    #[test]
    fn diagnostic_renders_like_the_brief() {
        let d = Diagnostic {
            file: "examples/bad.cu".into(),
            line: 12,
            column: 5,
            severity: Severity::Error,
            code: None,
            message: "identifier \"x\" is undefined".into(),
            source_line: Some("    x = 1;".into()),
            notes: vec![],
        };
        assert_eq!(
            d.to_string(),
            "examples/bad.cu:12:5: error: identifier \"x\" is undefined\n    12 |     x = 1;\n       |     ^"
        );
    }

    #[test]
    fn fnv1a_64_reference_values() {
        // Published FNV-1a 64 test vectors (Fowler/Noll/Vo reference code, test suite):
        // "" -> cbf29ce484222325, "a" -> af63dc4c8601ec8c, "foobar" -> 85944171f73967e8.
        for (input, want) in [
            ("", 0xcbf29ce484222325u64),
            ("a", 0xaf63dc4c8601ec8c),
            ("foobar", 0x85944171f73967e8),
        ] {
            let mut h = Fnv1a64::new();
            h.bytes(input.as_bytes());
            assert_eq!(h.0, want, "{input:?}");
        }
    }

    #[test]
    fn elf_section_lookup_on_a_hand_built_image() {
        // ELF64 LE header + 3 section headers (null, .shstrtab, .nv.constant0.k of size 0x218).
        let mut elf = vec![0u8; 0x40];
        elf[0..4].copy_from_slice(b"\x7fELF");
        elf[4] = 2;
        elf[5] = 1;
        let strtab = b"\0.shstrtab\0.nv.constant0.k\0";
        let strtab_off = elf.len();
        elf.extend_from_slice(strtab);
        let shoff = elf.len();
        elf[0x28..0x30].copy_from_slice(&(shoff as u64).to_le_bytes());
        elf[0x3a..0x3c].copy_from_slice(&0x40u16.to_le_bytes());
        elf[0x3c..0x3e].copy_from_slice(&3u16.to_le_bytes());
        elf[0x3e..0x40].copy_from_slice(&1u16.to_le_bytes());
        let mut sh = |name: u32, off: u64, size: u64| {
            let mut h = vec![0u8; 0x40];
            h[0..4].copy_from_slice(&name.to_le_bytes());
            h[0x18..0x20].copy_from_slice(&off.to_le_bytes());
            h[0x20..0x28].copy_from_slice(&size.to_le_bytes());
            elf.extend_from_slice(&h);
        };
        sh(0, 0, 0);
        sh(1, strtab_off as u64, strtab.len() as u64);
        sh(11, 0, 0x218);
        assert_eq!(elf_section_size(&elf, ".nv.constant0.k"), Some(0x218));
        assert_eq!(elf_section_size(&elf, ".nv.constant0.j"), None);
        assert_eq!(elf_section_size(&elf[..0x50], ".nv.constant0.k"), None);
    }

    #[test]
    fn quoted_includes_are_found() {
        let src = "#include <cuda_fp16.h>\n  #  include \"a.h\"\n#include\"b/c.cuh\" // x\n";
        assert_eq!(quoted_includes(src), vec!["a.h", "b/c.cuh"]);
    }
}
