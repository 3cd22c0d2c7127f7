//! Loading libnvrtc. `libnvrtc` is opened with `libloading` the first time it is needed and kept
//! for the life of the process (a `OnceLock`); the crate never links against it, so it builds, and
//! `.ptx` inputs work, on machines without CUDA. Search order: `$GPUMEMSIM_NVRTC` (full path),
//! `$CUDA_HOME/lib64`, `$CUDA_PATH/lib64`, the pip package `nvidia-cuda-nvrtc`
//! (`<site-packages>/nvidia/cu13/lib/libnvrtc.so.13`; site-packages found by asking `python3` once,
//! else by globbing common locations), then the system loader (`libnvrtc.so.13`, `libnvrtc.so`).
//! CUDA 12's pip layout (`nvidia/cuda_nvrtc/lib/libnvrtc.so.12`) and soname are tried after the
//! CUDA 13 ones, since `compute_90` exists there too.
//!
//! The function signatures and result codes are NVRTC's (NVRTC User Guide, CUDA 13, §"NVRTC
//! API"); a compile runs one `nvrtcProgram` from creation to destruction, its name expressions
//! registered before it compiles and lowered after (§"Accessing Lowered Names").

use super::*;

pub(super) type NvrtcResult = c_int;
pub(super) type NvrtcProgram = *mut c_void;

/// `NVRTC_SUCCESS` \[NVRTC §"NVRTC API", enum nvrtcResult].
pub(super) const NVRTC_SUCCESS: NvrtcResult = 0;

pub(super) type FnVersion = unsafe extern "C" fn(*mut c_int, *mut c_int) -> NvrtcResult;
pub(super) type FnGetErrorString = unsafe extern "C" fn(NvrtcResult) -> *const c_char;
pub(super) type FnCreateProgram = unsafe extern "C" fn(
    *mut NvrtcProgram,
    *const c_char,
    *const c_char,
    c_int,
    *const *const c_char,
    *const *const c_char,
) -> NvrtcResult;
pub(super) type FnDestroyProgram = unsafe extern "C" fn(*mut NvrtcProgram) -> NvrtcResult;
pub(super) type FnCompileProgram =
    unsafe extern "C" fn(NvrtcProgram, c_int, *const *const c_char) -> NvrtcResult;
pub(super) type FnGetSize = unsafe extern "C" fn(NvrtcProgram, *mut usize) -> NvrtcResult;
pub(super) type FnGetBytes = unsafe extern "C" fn(NvrtcProgram, *mut c_char) -> NvrtcResult;
pub(super) type FnAddNameExpression =
    unsafe extern "C" fn(NvrtcProgram, *const c_char) -> NvrtcResult;
pub(super) type FnGetLoweredName =
    unsafe extern "C" fn(NvrtcProgram, *const c_char, *mut *const c_char) -> NvrtcResult;

/// The loaded library and the functions taken from it. Lives in a static that is never dropped,
/// so the function pointers stay valid for the life of the process.
pub(super) struct Nvrtc {
    pub(super) path: PathBuf,
    pub(super) version: (i32, i32),
    pub(super) get_error_string: FnGetErrorString,
    pub(super) create_program: FnCreateProgram,
    pub(super) destroy_program: FnDestroyProgram,
    pub(super) compile_program: FnCompileProgram,
    pub(super) get_ptx_size: FnGetSize,
    pub(super) get_ptx: FnGetBytes,
    pub(super) get_log_size: FnGetSize,
    pub(super) get_log: FnGetBytes,
    pub(super) add_name_expression: FnAddNameExpression,
    pub(super) get_lowered_name: FnGetLoweredName,
    pub(super) get_cubin_size: FnGetSize,
    pub(super) get_cubin: FnGetBytes,
    pub(super) _lib: libloading::Library,
}

#[derive(Clone, Debug)]
pub(super) enum LoadError {
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

pub(super) static NVRTC: OnceLock<Result<Nvrtc, LoadError>> = OnceLock::new();

pub(super) fn nvrtc() -> Result<&'static Nvrtc, FrontendError> {
    NVRTC
        .get_or_init(load_nvrtc)
        .as_ref()
        .map_err(FrontendError::from)
}

pub(super) fn env_path(var: &str) -> Option<PathBuf> {
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
pub(super) fn preload_builtins(nvrtc: &Path) {
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

pub(super) fn load_nvrtc() -> Result<Nvrtc, LoadError> {
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
pub(super) struct Program<'a> {
    pub(super) api: &'a Nvrtc,
    pub(super) handle: NvrtcProgram,
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

pub(super) fn cstring(what: &str, s: &str) -> Result<CString, FrontendError> {
    CString::new(s).map_err(|_| FrontendError::InteriorNul {
        what: what.to_string(),
    })
}

pub(super) fn text_of(mut bytes: Vec<u8>) -> String {
    while bytes.last() == Some(&0) {
        bytes.pop();
    }
    String::from_utf8(bytes).unwrap_or_else(|e| String::from_utf8_lossy(e.as_bytes()).into_owned())
}

pub(super) struct RawOutput {
    pub(super) ptx: String,
    pub(super) cubin: Option<Vec<u8>>,
    pub(super) lowered: Vec<(String, String)>,
    pub(super) log: String,
}

pub(super) fn run_nvrtc(
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
pub(super) fn compile_error(file_name: &str, source: &str, log: String) -> FrontendError {
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
