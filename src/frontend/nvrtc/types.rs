//! The front end's public types: compile options, the compiled PTX with its mangled names,
//! a kernel's resource usage as ptxas reports it, the cache mode, and located diagnostics and
//! errors, which render like rustc and clang (`kernel.cu:12:5: error: ...` plus a snippet with
//! a caret).

use super::*;

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

pub(super) fn render_compile_error(file: &str, diagnostics: &[Diagnostic], log: &str) -> String {
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

#[cfg(test)]
mod tests {
    use super::*;

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
}
