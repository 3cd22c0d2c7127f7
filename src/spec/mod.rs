//! The launch spec: a TOML file that says what to compile, which buffers and symbols to set up,
//! which kernels to launch with which arguments, and which buffers to write back.
//!
//! ```toml
//! description = "optional text"
//! source = "kernels.cu"      # CUDA C via NVRTC; and/or ptx = "kernels.ptx" (relative to the spec)
//! gpu = "h200"               # optional, "h200" is the default
//! [buffers.in]               # cudaMalloc + cudaMemcpy host to device
//! type = "f32"               # u8 i8 u16 i16 u32 i32 u64 i64 f16 bf16 f32 f64
//! len = 1048576              # elements
//! init = "iota"              # zeros (default) | iota | fill:V | file:PATH | random:SEED
//! # values = [1, 2, 3]       # instead of init (len may then be left out)
//! [symbols.c_tab]            # cudaMemcpyToSymbol into a __constant__ or __device__ variable
//! type = "f32"
//! values = [0.0, 0.5, 1.0]   # or init + len
//! [[launch]]                 # run in order
//! kernel = "sh_stride<32>"   # C++ name (templates allowed) or PTX entry name
//! grid = [4, 1, 1]           # one to three numbers
//! block = [128]
//! shared = 0                 # dynamic shared memory in bytes, optional
//! args = ["out", "in+256", 1024, 0.5]   # "in+256": in's address plus 256 elements
//! max_dynamic_shared = 102400   # optional: cudaFuncAttributeMaxDynamicSharedMemorySize
//! carveout = 100                # optional: cudaFuncAttributePreferredSharedMemoryCarveout
//! [outputs]                  # after all launches, copied back and written raw little-endian
//! out = "out.bin"            # relative to the spec unless absolute
//! "sym:c_tab" = "tab.bin"    # a __device__ or __constant__ variable, all of it
//! ```
//!
//! Host steps (`docs/spec.md`, "Host steps between launches"): instead of `[[launch]]` tables, a
//! spec may list `[[step]]` tables run in file order, `kind = "launch"` (the keys of a
//! `[[launch]]`), `"memcpy"` (`dst`, `src`, `count`; buffers as `"NAME+ELEMENTS"`, variables as
//! `"sym:NAME+BYTES"`), `"memset"` (`dst`, `value`, optional `count`) or `"repeat"` (`times` and
//! nested `[[step.steps]]`); at most [`MAX_LAUNCHES`] launches with the repeats expanded.
//!
//! When both `source` and `ptx` are given, the `.ptx` is the committed NVRTC output of the
//! `.cu` (written by `gpumemsim compile`); `gpumemsim run` uses the `.ptx` when it exists, so the
//! numbers match the recorded hardware data, and compiles the `.cu` with NVRTC when it does not
//! (or with `--recompile`).
//!
//! # Initial contents (bit-exact; the CUDA export generates the same bytes in C)
//! - `zeros`: every byte 0.
//! - `iota`: element `i` holds `i` converted to the type. Integers keep the low bits of `i`
//!   (they wrap); `f32`/`f64` are `i` rounded to nearest even (exact below 2^24 / 2^53);
//!   `f16`/`bf16` are the `f32` value of `i` rounded to nearest even (2049 becomes 2048 in
//!   `f16`; indices from 65520 on are `+inf` in `f16`).
//! - `fill:V`: every element holds `V` parsed as the type: integers in decimal or `0x` hex and
//!   within the type's range; floats rounded to nearest even (`f32` directly from the decimal,
//!   `f16`/`bf16` from its `f64` value); a finite `V` that would round to infinity is an error.
//! - `file:PATH`: raw little-endian bytes, exactly `len * size` of them (`len` may be left out
//!   and is then the file size divided by the element size); PATH is relative to the spec.
//! - `random:SEED`: a splitmix64 stream (Steele, Lea, Flood, OOPSLA 2014; Vigna's
//!   `splitmix64.c`) whose state starts at SEED (a `u64`, decimal or `0x` hex), one draw `d`
//!   per element, in element order. Integers take the low bits of `d` (truncation to the
//!   type's width); `f32 = (d >> 40) as f32 / 2^24` (in [0, 1), exact); `f64 = (d >> 11) as
//!   f64 / 2^53`; `f16`/`bf16` are that `f32` value rounded to nearest even.
//! - `values = [...]`: one entry per element: integers, floats (float types only; integers are
//!   accepted for float types), or strings parsed like `fill:V` (for `u64` values above
//!   `i64::MAX`, which TOML integers cannot hold).
//!
//! # Checks
//! Every error names the spec file and the key, e.g.
//! `spec.toml: [[launch]] #2 args[1]: no buffer named "inp"`; TOML syntax and unknown-key
//! errors keep toml's line and column. Grid and block sizes are checked against the GPU's
//! limits ([`crate::gpu::config::GpuConfig`]: threads per block, block and grid dimensions,
//! dynamic shared memory against the 48 KiB default or the `max_dynamic_shared` opt-in,
//! which itself may not exceed the opt-in maximum). The kernel's parameter types, its static
//! shared memory (at most 48 KB, and static plus dynamic at most the 227 KB a block may have:
//! `Device::check_launch`) and register use are the runtime's to check. Buffers count against the
//! simulated-memory budget (`--memory-budget`), checked for all of them before any is
//! allocated; an `[outputs]` path that is also an input (the spec, `source`, `ptx`, a `file:`
//! init) is refused, and outputs are written atomically; [`Arg`] carries what it needs.

mod elem;
mod init;
pub mod texture;

pub use elem::{ElemType, ALL_ELEM_TYPES};
pub use init::{Init, SplitMix64};

use crate::gpu::config::{self, GpuConfig};
use serde::Deserialize;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Everything that can be wrong with a spec. Each message starts with the spec file's path.
#[derive(Debug, thiserror::Error)]
pub enum SpecError {
    /// The spec itself, or a file it names, could not be read.
    #[error("{file}: {what}: cannot read {}: {source}", path.display())]
    Io {
        /// The spec file, as given.
        file: String,
        /// The key that names the file (`source`, `[buffers.in] init`), or `spec`.
        what: String,
        /// The file that could not be read.
        path: PathBuf,
        /// The underlying error.
        source: std::io::Error,
    },
    /// The TOML could not be parsed, or has keys the spec does not know (line and column).
    #[error("{file}: {source}")]
    Toml {
        /// The spec file, as given.
        file: String,
        /// toml's error, with its line and column.
        source: toml::de::Error,
    },
    /// A value is missing, malformed or inconsistent.
    #[error("{file}: {key}: {message}")]
    Invalid {
        /// The spec file, as given.
        file: String,
        /// Where: `[buffers.in] init`, `[[launch]] #2 args[1]`, `source`.
        key: String,
        /// What is wrong.
        message: String,
    },
}

/// A loaded and validated launch spec. All paths are absolute.
#[derive(Clone, Debug)]
pub struct Spec {
    /// The spec file (absolute).
    pub path: PathBuf,
    /// The directory relative paths were resolved against (the spec's directory).
    pub dir: PathBuf,
    /// `description`, if given.
    pub description: Option<String>,
    /// `source`: CUDA C to compile with NVRTC.
    pub source: Option<PathBuf>,
    /// `ptx`: PTX text (the committed NVRTC output when `source` is also given).
    pub ptx: Option<PathBuf>,
    /// The GPU to model.
    pub gpu: &'static GpuConfig,
    /// `[buffers.*]`, sorted by name.
    pub buffers: Vec<Buffer>,
    /// `[symbols.*]`, sorted by name.
    pub symbols: Vec<Buffer>,
    /// `[arrays.*]`, sorted by name.
    pub arrays: Vec<texture::ArraySpec>,
    /// `[textures.*]`, sorted by name.
    pub textures: Vec<texture::TextureSpec>,
    /// `[surfaces.*]`, sorted by name.
    pub surfaces: Vec<texture::SurfaceSpec>,
    /// Every launch, in file order: the `[[launch]]` tables, or the `kind = "launch"` steps
    /// (one entry per step in the file: a launch inside a repeat appears once).
    pub launches: Vec<Launch>,
    /// What the host does, in order: launches (indices into `launches`), copies, memsets and
    /// repeats. A spec with `[[launch]]` tables has one [`Step::Launch`] per table.
    pub steps: Vec<Step>,
    /// `[outputs]`, sorted by name (buffers, then `sym:` symbols, in key order).
    pub outputs: Vec<Output>,
    /// `caches = "warm"`: L2 keeps its contents from one launch to the next. The default,
    /// `"cold"`, starts every launch with empty caches, as Nsight Compute measures by default
    /// (`--cache-control all`). L1 is empty at every launch either way.
    pub warm_caches: bool,
}

/// The most launches a spec may run, repeats expanded.
pub const MAX_LAUNCHES: u64 = 100_000;
/// The most steps of any kind a spec may run, repeats expanded.
pub const MAX_STEPS: u64 = 1_000_000;
/// How deeply `kind = "repeat"` steps may nest.
pub const MAX_REPEAT_DEPTH: usize = 8;

/// One host step (`[[step]]`).
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Launch `Spec::launches[i]`.
    Launch(usize),
    /// `cudaMemcpy` device to device, `cudaMemcpyToSymbol` or `cudaMemcpyFromSymbol`.
    Memcpy(Memcpy),
    /// `cudaMemset` over a buffer range.
    Memset(Memset),
    /// `cudaFree` of a buffer (index into `Spec::buffers`): later launches may still pass its
    /// address, and an access to it is a use after free.
    Free {
        /// Index into `Spec::buffers`.
        buffer: usize,
        /// The key to name in errors (`[[step]] #3`).
        key: String,
    },
    /// Run `steps` `times` times.
    Repeat {
        /// How many times (at least 1).
        times: u64,
        /// The steps repeated.
        steps: Vec<Step>,
        /// The key to name in errors (`[[step]] #2`).
        key: String,
    },
}

/// One end of a copy: a buffer range or a module variable.
#[derive(Clone, Debug, PartialEq)]
pub enum Place {
    /// `"NAME"` or `"NAME+N"`: the buffer at element offset `offset`.
    Buffer {
        /// Index into `Spec::buffers`.
        index: usize,
        /// Offset in bytes (the spec's element offset times the element size).
        offset: u64,
    },
    /// `"sym:NAME"` or `"sym:NAME+N"`: the `__device__`/`__constant__` variable at byte offset
    /// `offset` (its size is known only when the PTX is loaded).
    Symbol {
        /// The variable's name.
        name: String,
        /// Offset in bytes.
        offset: u64,
    },
}

/// A `kind = "memcpy"` step: `bytes` bytes from `src` to `dst`, at least one of them a buffer.
#[derive(Clone, Debug, PartialEq)]
pub struct Memcpy {
    /// Destination.
    pub dst: Place,
    /// Source.
    pub src: Place,
    /// Bytes copied (`count` elements of the buffer side's type).
    pub bytes: u64,
    /// The key to name in errors (`[[step]] #3`).
    pub key: String,
}

/// A `kind = "memset"` step: `bytes` bytes of buffer `buffer` from byte `offset` set to `value`.
#[derive(Clone, Debug, PartialEq)]
pub struct Memset {
    /// Index into `Spec::buffers`.
    pub buffer: usize,
    /// Offset in bytes.
    pub offset: u64,
    /// Bytes set.
    pub bytes: u64,
    /// The byte value.
    pub value: u8,
    /// The key to name in errors (`[[step]] #3`).
    pub key: String,
}

impl Step {
    /// Launches and steps this step runs, repeats expanded (saturating).
    fn counts(&self) -> (u64, u64) {
        match self {
            Step::Launch(_) => (1, 1),
            Step::Memcpy(_) | Step::Memset(_) | Step::Free { .. } => (0, 1),
            Step::Repeat { times, steps, .. } => {
                let (l, s) = steps.iter().fold((0u64, 0u64), |(l, s), st| {
                    let (a, b) = st.counts();
                    (l.saturating_add(a), s.saturating_add(b))
                });
                (l.saturating_mul(*times), s.saturating_mul(*times))
            }
        }
    }
}

/// A device buffer (`[buffers.NAME]`) or a symbol (`[symbols.NAME]`) and its initial contents.
#[derive(Clone, Debug, PartialEq)]
pub struct Buffer {
    /// The name: a buffer's name in `args`, or the symbol's C++ name.
    pub name: String,
    /// Element type.
    pub ty: ElemType,
    /// Number of elements (at least 1).
    pub len: u64,
    /// Initial contents.
    pub init: Init,
    /// Spec file and key prefix for errors raised later (`spec.toml`, `[buffers.in]`).
    origin: (String, String),
}

impl Buffer {
    /// Size in bytes.
    pub fn byte_len(&self) -> u64 {
        self.len * self.ty.size() as u64
    }

    /// The spec file and the key (`[buffers.in]`) to name in errors about this buffer.
    pub fn origin(&self) -> (&str, &str) {
        (&self.origin.0, &self.origin.1)
    }

    /// The little-endian bytes of the initial contents (`byte_len()` of them).
    pub fn initial_bytes(&self) -> Result<Vec<u8>, SpecError> {
        match &self.init {
            Init::File(path) => {
                let io = |source: std::io::Error| SpecError::Io {
                    file: self.origin.0.clone(),
                    what: format!("{} init", self.origin.1),
                    path: path.clone(),
                    source,
                };
                // Read into a buffer reserved fallibly for the expected size (no abort).
                let mut bytes = Vec::new();
                usize::try_from(self.byte_len())
                    .ok()
                    .and_then(|n| bytes.try_reserve_exact(n).ok())
                    .ok_or_else(|| io(std::io::ErrorKind::OutOfMemory.into()))?;
                std::io::Read::read_to_end(&mut std::fs::File::open(path).map_err(io)?, &mut bytes)
                    .map_err(io)?;
                if bytes.len() as u64 != self.byte_len() {
                    return Err(SpecError::Invalid {
                        file: self.origin.0.clone(),
                        key: format!("{} init", self.origin.1),
                        message: format!(
                            "{} has {} bytes, expected {} ({} x {})",
                            path.display(),
                            bytes.len(),
                            self.byte_len(),
                            self.len,
                            self.ty
                        ),
                    });
                }
                Ok(bytes)
            }
            other => {
                init::generated_bytes(self.ty, self.len, other).ok_or_else(|| SpecError::Invalid {
                    file: self.origin.0.clone(),
                    key: self.origin.1.clone(),
                    message: format!(
                        "cannot allocate {} bytes of host memory for the initial contents",
                        self.byte_len()
                    ),
                })
            }
        }
    }
}

/// A kernel argument (`args = ["out", "in+256", 1024, 0.5]`).
#[derive(Clone, Debug, PartialEq)]
pub enum Arg {
    /// The device address of the named buffer plus `offset` bytes (`"in+256"`: 256 elements of
    /// the buffer's type; `offset` is already in bytes).
    Buffer {
        /// The buffer's name.
        name: String,
        /// Offset in bytes from the buffer's start (at most its size).
        offset: u64,
    },
    /// A texture object (`[textures.NAME]`): its `cudaTextureObject_t` handle.
    Texture(String),
    /// A surface object (`[surfaces.NAME]`): its `cudaSurfaceObject_t` handle.
    Surface(String),
    /// An integer, to be passed as the parameter's integer type (or converted to a float one).
    Int(i64),
    /// A float, to be passed as the parameter's float type (rounded to nearest even for f32).
    Float(f64),
}

/// One `[[launch]]` (or `kind = "launch"` step).
#[derive(Clone, Debug, PartialEq)]
pub struct Launch {
    /// The key to name in errors: `[[launch]] #2`, `[[step]] #3`, `[[step]] #2 steps #1`.
    pub key: String,
    /// The kernel: a C++ name (`sh_stride<32>`, `ns::k`) or a PTX entry name, verbatim.
    pub kernel: String,
    /// Grid size, x y z (missing dimensions are 1).
    pub grid: [u32; 3],
    /// Block size, x y z (missing dimensions are 1).
    pub block: [u32; 3],
    /// Dynamic shared memory in bytes.
    pub shared: u32,
    /// Arguments, in order.
    pub args: Vec<Arg>,
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`, if set.
    pub max_dynamic_shared: Option<u32>,
    /// `cudaFuncAttributePreferredSharedMemoryCarveout` in percent (-1 = default), if set.
    pub carveout: Option<i32>,
}

impl Launch {
    /// Threads per block.
    pub fn threads_per_block(&self) -> u64 {
        self.block.iter().map(|&d| u64::from(d)).product()
    }
}

/// One `[outputs]` entry: a buffer, or with `symbol` a module variable, written back to a file.
#[derive(Clone, Debug, PartialEq)]
pub struct Output {
    /// The buffer's name, or the variable's (without `sym:`) when `symbol` is set.
    pub buffer: String,
    /// `"sym:NAME"`: the whole `__device__`/`__constant__` variable, read back after the last
    /// step like `cudaMemcpyFromSymbol`.
    pub symbol: bool,
    /// A CUDA array (`[arrays.NAME]`), read back whole like `cudaMemcpy2DFromArray`.
    pub array: bool,
    /// Where to write it (absolute).
    pub path: PathBuf,
}

// ---------------------------------------------------------------------------------------------
// Raw TOML shape.

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawSpec {
    description: Option<String>,
    source: Option<String>,
    ptx: Option<String>,
    gpu: Option<String>,
    caches: Option<String>,
    #[serde(default)]
    buffers: BTreeMap<String, RawData>,
    #[serde(default)]
    symbols: BTreeMap<String, RawData>,
    #[serde(default)]
    arrays: BTreeMap<String, texture::RawArray>,
    #[serde(default)]
    textures: BTreeMap<String, texture::RawTexture>,
    #[serde(default)]
    surfaces: BTreeMap<String, texture::RawSurface>,
    #[serde(default)]
    launch: Vec<RawLaunch>,
    #[serde(default)]
    step: Vec<RawStep>,
    #[serde(default)]
    outputs: BTreeMap<String, String>,
}

#[derive(Deserialize)]
#[serde(tag = "kind", rename_all = "lowercase")]
enum RawStep {
    Launch(RawLaunch),
    Memcpy(RawMemcpy),
    Memset(RawMemset),
    Free(RawFree),
    Repeat(RawRepeat),
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawFree {
    dst: String,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemcpy {
    dst: String,
    src: String,
    count: i64,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawMemset {
    dst: String,
    value: i64,
    count: Option<i64>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawRepeat {
    times: i64,
    #[serde(default)]
    steps: Vec<RawStep>,
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawData {
    #[serde(rename = "type")]
    ty: String,
    len: Option<i64>,
    init: Option<String>,
    values: Option<Vec<toml::Value>>,
}

/// The kernel-argument names that are texture (`false`) or surface (`true`) objects.
type Objects = [(String, bool)];

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawLaunch {
    kernel: String,
    grid: Vec<i64>,
    block: Vec<i64>,
    shared: Option<i64>,
    #[serde(default)]
    args: Vec<toml::Value>,
    max_dynamic_shared: Option<i64>,
    carveout: Option<i64>,
}

// ---------------------------------------------------------------------------------------------
// Loading.

/// Error context: the spec file's name as given, and its directory.
struct Ctx<'a> {
    file: String,
    dir: &'a Path,
}

impl Ctx<'_> {
    fn invalid(&self, key: impl Into<String>, message: impl Into<String>) -> SpecError {
        SpecError::Invalid {
            file: self.file.clone(),
            key: key.into(),
            message: message.into(),
        }
    }

    fn resolve(&self, p: &str) -> PathBuf {
        let p = Path::new(p);
        if p.is_absolute() {
            p.to_path_buf()
        } else {
            self.dir.join(p)
        }
    }

    /// Resolves an input file and checks that it exists and is a file.
    fn input_file(&self, key: &str, p: &str) -> Result<PathBuf, SpecError> {
        if p.is_empty() {
            return Err(self.invalid(key, "empty path"));
        }
        let path = self.resolve(p);
        match std::fs::metadata(&path) {
            Ok(m) if m.is_file() => Ok(path),
            Ok(_) => Err(self.invalid(key, format!("{} is not a file", path.display()))),
            Err(source) => Err(SpecError::Io {
                file: self.file.clone(),
                what: key.to_string(),
                path,
                source,
            }),
        }
    }
}

impl Spec {
    /// Reads, parses and validates the spec at `path`.
    pub fn load(path: impl AsRef<Path>) -> Result<Spec, SpecError> {
        let path = path.as_ref();
        let file = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|source| SpecError::Io {
            file: file.clone(),
            what: "spec".into(),
            path: path.to_path_buf(),
            source,
        })?;
        let abs = std::path::absolute(path).map_err(|source| SpecError::Io {
            file: file.clone(),
            what: "spec".into(),
            path: path.to_path_buf(),
            source,
        })?;
        Spec::parse(&text, &file, &abs)
    }

    /// Parses and validates spec text. `file` names the spec in errors; `path` is its absolute
    /// path, whose directory relative paths are resolved against.
    pub fn parse(text: &str, file: &str, path: &Path) -> Result<Spec, SpecError> {
        let raw: RawSpec = toml::from_str(text).map_err(|source| SpecError::Toml {
            file: file.to_string(),
            source,
        })?;
        let dir = path.parent().unwrap_or(Path::new("/")).to_path_buf();
        let cx = Ctx {
            file: file.to_string(),
            dir: &dir,
        };

        let source = match &raw.source {
            Some(s) => Some(cx.input_file("source", s)?),
            None => None,
        };
        // A `.ptx` next to a `.cu` may not exist yet: `gpumemsim compile` writes it.
        let ptx = match (&raw.ptx, &source) {
            (Some(s), Some(_)) if !s.is_empty() && !cx.resolve(s).exists() => Some(cx.resolve(s)),
            (Some(s), _) => Some(cx.input_file("ptx", s)?),
            (None, _) => None,
        };
        if source.is_none() && ptx.is_none() {
            return Err(cx.invalid("source", "give `source` (CUDA C) or `ptx` (or both)"));
        }
        let gpu_name = raw.gpu.as_deref().unwrap_or("h200");
        let gpu = config::by_name(gpu_name).ok_or_else(|| {
            let known: Vec<_> = config::GPUS.iter().map(|g| g.name).collect();
            cx.invalid(
                "gpu",
                format!("unknown GPU {gpu_name:?} (expected {})", known.join(", ")),
            )
        })?;

        let buffers = raw
            .buffers
            .iter()
            .map(|(name, d)| load_data(&cx, &format!("[buffers.{name}]"), name, d, false))
            .collect::<Result<Vec<_>, _>>()?;
        let symbols = raw
            .symbols
            .iter()
            .map(|(name, d)| load_data(&cx, &format!("[symbols.{name}]"), name, d, true))
            .collect::<Result<Vec<_>, _>>()?;
        let arrays = texture::load_arrays(&cx, &raw.arrays, &raw.surfaces)?;
        let textures = texture::load_textures(&cx, &raw.textures, &arrays, &buffers)?;
        let surfaces = texture::load_surfaces(&cx, &raw.surfaces, &arrays)?;
        // One name space for buffers, arrays, textures and surfaces (args and outputs name them).
        let mut seen: BTreeMap<&str, String> = BTreeMap::new();
        let named = buffers
            .iter()
            .map(|b| (b.name.as_str(), format!("[buffers.{}]", b.name)))
            .chain(
                arrays
                    .iter()
                    .map(|a| (a.name.as_str(), format!("[arrays.{}]", a.name))),
            )
            .chain(
                textures
                    .iter()
                    .map(|t| (t.name.as_str(), format!("[textures.{}]", t.name))),
            )
            .chain(
                surfaces
                    .iter()
                    .map(|t| (t.name.as_str(), format!("[surfaces.{}]", t.name))),
            );
        for (name, key) in named {
            if let Some(first) = seen.insert(name, key.clone()) {
                return Err(cx.invalid(
                    key,
                    format!("the name {name:?} is taken by {first}: buffers, arrays, textures and surfaces share one name space"),
                ));
            }
        }
        let objects: Vec<(String, bool)> = textures
            .iter()
            .map(|t| (t.name.clone(), false))
            .chain(surfaces.iter().map(|s| (s.name.clone(), true)))
            .collect();
        let mut launches = Vec::new();
        let steps =
            match (raw.launch.is_empty(), raw.step.is_empty()) {
                (true, true) => return Err(cx.invalid("[[launch]]", "no launches")),
                (false, false) => return Err(cx.invalid(
                    "[[step]]",
                    "give `[[launch]]` tables or `[[step]]` tables, not both (a launch step is \
                     `kind = \"launch\"`)",
                )),
                (false, true) => raw
                    .launch
                    .iter()
                    .enumerate()
                    .map(|(i, l)| {
                        let key = format!("[[launch]] #{}", i + 1);
                        launches.push(load_launch(&cx, &key, l, &buffers, &objects, gpu)?);
                        Ok(Step::Launch(launches.len() - 1))
                    })
                    .collect::<Result<Vec<_>, SpecError>>()?,
                (true, false) => {
                    let mut sx = StepCx {
                        cx: &cx,
                        freed: Vec::new(),
                        buffers: &buffers,
                        objects: &objects,
                        gpu,
                        launches: &mut launches,
                    };
                    let steps = sx.steps("[[step]]", &raw.step, 0)?;
                    if let Some(&b) = sx
                        .freed
                        .iter()
                        .find(|&&b| raw.outputs.contains_key(&buffers[b].name))
                    {
                        let name = &buffers[b].name;
                        return Err(cx.invalid(
                            format!("[outputs] {name}"),
                            format!("buffer {name:?} is freed by a `free` step"),
                        ));
                    }
                    steps
                }
            };
        if launches.is_empty() {
            return Err(cx.invalid("[[step]]", "no launch steps"));
        }
        let (nl, ns) = steps.iter().fold((0u64, 0u64), |(l, s), st| {
            let (a, b) = st.counts();
            (l.saturating_add(a), s.saturating_add(b))
        });
        if nl > MAX_LAUNCHES {
            return Err(cx.invalid(
                "[[step]]",
                format!("{nl} launches with the repeats expanded, at most {MAX_LAUNCHES} allowed"),
            ));
        }
        if ns > MAX_STEPS {
            return Err(cx.invalid(
                "[[step]]",
                format!("{ns} steps with the repeats expanded, at most {MAX_STEPS} allowed"),
            ));
        }
        let outputs = raw
            .outputs
            .iter()
            .map(|(name, p)| {
                let key = format!("[outputs] {name}");
                let (symbol, target) = match name.strip_prefix("sym:") {
                    Some(sym) if is_cxx_name(sym) => (true, sym),
                    Some(sym) => {
                        return Err(cx.invalid(key, format!("{sym:?} is not a C++ variable name")))
                    }
                    None if buffers.iter().any(|b| &b.name == name)
                        || arrays.iter().any(|a| &a.name == name) =>
                    {
                        (false, name.as_str())
                    }
                    None => {
                        return Err(cx.invalid(
                            key,
                            format!(
                                "no buffer named {name:?} (a __device__ or __constant__ variable \
                                 is written \"sym:NAME\")"
                            ),
                        ))
                    }
                };
                if p.is_empty() {
                    return Err(cx.invalid(key, "empty path"));
                }
                Ok(Output {
                    buffer: target.to_string(),
                    symbol,
                    array: !symbol && arrays.iter().any(|a| a.name == target),
                    path: cx.resolve(p),
                })
            })
            .collect::<Result<Vec<_>, _>>()?;

        let warm_caches = match raw.caches.as_deref() {
            None | Some("cold") => false,
            Some("warm") => true,
            Some(other) => {
                return Err(cx.invalid(
                    "caches",
                    format!("{other:?}: expected \"cold\" (the default) or \"warm\""),
                ))
            }
        };
        Ok(Spec {
            warm_caches,
            path: path.to_path_buf(),
            dir: dir.clone(),
            description: raw.description,
            source,
            ptx,
            gpu,
            buffers,
            symbols,
            arrays,
            textures,
            surfaces,
            launches,
            steps,
            outputs,
        })
    }

    /// The buffer called `name`.
    pub fn buffer(&self, name: &str) -> Option<&Buffer> {
        self.buffers.iter().find(|b| b.name == name)
    }
}

fn is_cxx_name(name: &str) -> bool {
    !name.is_empty()
        && name.split("::").all(|part| {
            let mut c = part.chars();
            matches!(c.next(), Some(ch) if ch == '_' || ch.is_ascii_alphabetic())
                && c.all(|ch| ch == '_' || ch.is_ascii_alphanumeric())
        })
}

fn load_data(
    cx: &Ctx<'_>,
    key: &str,
    name: &str,
    d: &RawData,
    symbol: bool,
) -> Result<Buffer, SpecError> {
    if symbol && !is_cxx_name(name) {
        return Err(cx.invalid(key, "a symbol must be a C++ variable name"));
    }
    let ty = ElemType::from_name(&d.ty).ok_or_else(|| {
        cx.invalid(
            format!("{key} type"),
            format!("unknown type {:?} (expected {})", d.ty, elem::type_names()),
        )
    })?;
    let len = match d.len {
        Some(l) if l < 1 => {
            return Err(cx.invalid(format!("{key} len"), "must be at least 1"));
        }
        Some(l) => Some(l as u64),
        None => None,
    };
    let (init, len) = match (&d.init, &d.values) {
        (Some(_), Some(_)) => {
            return Err(cx.invalid(key.to_string(), "give `init` or `values`, not both"));
        }
        (_, Some(values)) => {
            let bits = values
                .iter()
                .enumerate()
                .map(|(i, v)| {
                    value_bits(ty, v).map_err(|m| cx.invalid(format!("{key} values[{i}]"), m))
                })
                .collect::<Result<Vec<_>, _>>()?;
            if bits.is_empty() {
                return Err(cx.invalid(format!("{key} values"), "empty"));
            }
            match len {
                Some(l) if l != bits.len() as u64 => {
                    return Err(cx.invalid(
                        format!("{key} len"),
                        format!("len is {l} but values has {} elements", bits.len()),
                    ));
                }
                _ => {}
            }
            let n = bits.len() as u64;
            (Init::Values(bits), n)
        }
        (init, None) => {
            let text = init.as_deref().unwrap_or("zeros");
            let ikey = format!("{key} init");
            let init = parse_init(cx, &ikey, ty, text)?;
            let len = match (&init, len) {
                (Init::File(path), l) => {
                    let size = std::fs::metadata(path).map(|m| m.len()).unwrap_or(0);
                    let es = ty.size() as u64;
                    match l {
                        Some(l) if l.checked_mul(es) != Some(size) => {
                            return Err(cx.invalid(
                                ikey,
                                format!(
                                    "{} has {size} bytes, expected {} ({l} x {ty})",
                                    path.display(),
                                    l.saturating_mul(es)
                                ),
                            ));
                        }
                        Some(l) => l,
                        None if size == 0 || size % es != 0 => {
                            return Err(cx.invalid(
                                ikey,
                                format!(
                                    "{} has {size} bytes, not a positive multiple of {es} ({ty})",
                                    path.display()
                                ),
                            ));
                        }
                        None => size / es,
                    }
                }
                (_, Some(l)) => l,
                (_, None) => {
                    return Err(cx.invalid(format!("{key} len"), "missing (number of elements)"));
                }
            };
            (init, len)
        }
    };
    // Allocations are held in host memory by the simulator: keep them addressable.
    if len
        .checked_mul(ty.size() as u64)
        .is_none_or(|b| usize::try_from(b).is_err() || b > (1u64 << 40))
    {
        return Err(cx.invalid(format!("{key} len"), format!("{len} elements is too large")));
    }
    Ok(Buffer {
        name: name.to_string(),
        ty,
        len,
        init,
        origin: (cx.file.clone(), key.to_string()),
    })
}

fn parse_init(cx: &Ctx<'_>, key: &str, ty: ElemType, text: &str) -> Result<Init, SpecError> {
    let (kind, rest) = match text.split_once(':') {
        Some((k, r)) => (k, Some(r)),
        None => (text, None),
    };
    match (kind, rest) {
        ("zeros", None) => Ok(Init::Zeros),
        ("none", None) => Ok(Init::Uninit),
        ("iota", None) => Ok(Init::Iota),
        ("fill", Some(v)) => elem::parse_scalar(ty, v)
            .map(Init::Fill)
            .map_err(|m| cx.invalid(key, m)),
        ("file", Some(p)) => Ok(Init::File(cx.input_file(key, p)?)),
        ("random", Some(s)) => {
            let s = s.trim();
            let seed = match s.strip_prefix("0x").or_else(|| s.strip_prefix("0X")) {
                Some(h) => u64::from_str_radix(h, 16),
                None => s.parse::<u64>(),
            };
            seed.map(Init::Random).map_err(|_| {
                cx.invalid(key, format!("seed {s:?} is not a u64 (decimal or 0x hex)"))
            })
        }
        _ => Err(cx.invalid(
            key,
            format!("unknown init {text:?} (expected zeros, none, iota, fill:V, file:PATH, random:SEED)"),
        )),
    }
}

fn value_bits(ty: ElemType, v: &toml::Value) -> Result<u64, String> {
    match v {
        toml::Value::Integer(i) => elem::int_value_bits(ty, *i),
        toml::Value::Float(f) if ty.is_float() => {
            elem::float_bits(ty, *f).ok_or_else(|| format!("{f} is out of range for {ty}"))
        }
        toml::Value::Float(f) => Err(format!("{f} is not an integer ({ty})")),
        toml::Value::String(s) => elem::parse_scalar(ty, s),
        other => Err(format!("expected a number, found {}", other.type_str())),
    }
}

fn dims(cx: &Ctx<'_>, key: String, v: &[i64], max: [u32; 3]) -> Result<[u32; 3], SpecError> {
    if v.is_empty() || v.len() > 3 {
        return Err(cx.invalid(
            key,
            format!("expected one to three numbers, found {}", v.len()),
        ));
    }
    let mut out = [1u32; 3];
    for (i, &d) in v.iter().enumerate() {
        let axis = ["x", "y", "z"][i];
        if d < 1 {
            return Err(cx.invalid(key, format!("{axis} is {d}, must be at least 1")));
        }
        if d > i64::from(max[i]) {
            return Err(cx.invalid(
                key,
                format!("{axis} is {d}, the GPU allows at most {}", max[i]),
            ));
        }
        out[i] = d as u32;
    }
    Ok(out)
}

fn load_launch(
    cx: &Ctx<'_>,
    key: &str,
    l: &RawLaunch,
    buffers: &[Buffer],
    objects: &Objects,
    gpu: &GpuConfig,
) -> Result<Launch, SpecError> {
    let kernel = l.kernel.trim();
    if kernel.is_empty() || kernel.contains(['\n', ';', '{', '}', '"']) {
        return Err(cx.invalid(
            format!("{key} kernel"),
            format!("not a kernel name: {kernel:?}"),
        ));
    }
    let grid = dims(cx, format!("{key} grid"), &l.grid, gpu.max_grid_dim)?;
    let block = dims(cx, format!("{key} block"), &l.block, gpu.max_block_dim)?;
    let threads: u64 = block.iter().map(|&d| u64::from(d)).product();
    if threads > u64::from(gpu.max_threads_per_block) {
        return Err(cx.invalid(
            format!("{key} block"),
            format!(
                "cudaErrorInvalidValue: {threads} threads per block, {} allows at most {}",
                gpu.name, gpu.max_threads_per_block
            ),
        ));
    }
    let byte_field = |name: &str, v: Option<i64>| -> Result<Option<u32>, SpecError> {
        match v {
            None => Ok(None),
            Some(v) if !(0..=i64::from(u32::MAX)).contains(&v) => {
                Err(cx.invalid(format!("{key} {name}"), format!("{v} is not a byte count")))
            }
            Some(v) => Ok(Some(v as u32)),
        }
    };
    let shared = byte_field("shared", l.shared)?.unwrap_or(0);
    let max_dynamic_shared = byte_field("max_dynamic_shared", l.max_dynamic_shared)?;
    if let Some(m) = max_dynamic_shared {
        if m > gpu.max_shared_per_block_optin {
            return Err(cx.invalid(
                format!("{key} max_dynamic_shared"),
                format!(
                    "{m} bytes, {} allows at most {} per block",
                    gpu.name, gpu.max_shared_per_block_optin
                ),
            ));
        }
    }
    let limit = max_dynamic_shared.unwrap_or(gpu.max_shared_per_block);
    if shared > limit {
        return Err(cx.invalid(
            format!("{key} shared"),
            format!(
                "cudaErrorInvalidValue: {shared} bytes of dynamic shared memory, more than {limit}{}",
                if max_dynamic_shared.is_none() {
                    " (set max_dynamic_shared to opt in to more)"
                } else {
                    " (max_dynamic_shared)"
                }
            ),
        ));
    }
    let carveout = match l.carveout {
        None => None,
        Some(c) if (-1..=100).contains(&c) => Some(c as i32),
        Some(c) => {
            return Err(cx.invalid(
                format!("{key} carveout"),
                format!("{c} is not a percentage (0 to 100, or -1 for the default)"),
            ))
        }
    };
    let args = l
        .args
        .iter()
        .enumerate()
        .map(|(i, a)| {
            let akey = format!("{key} args[{i}]");
            match a {
                toml::Value::String(s) if objects.iter().any(|(n, _)| n == s) => {
                    Ok(if objects.iter().any(|(n, surf)| n == s && *surf) {
                        Arg::Surface(s.clone())
                    } else {
                        Arg::Texture(s.clone())
                    })
                }
                toml::Value::String(s) => {
                    let (index, offset) = buffer_ref(cx, &akey, s, buffers)?;
                    Ok(Arg::Buffer {
                        name: buffers[index].name.clone(),
                        offset,
                    })
                }
                toml::Value::Integer(v) => Ok(Arg::Int(*v)),
                toml::Value::Float(v) => Ok(Arg::Float(*v)),
                other => Err(cx.invalid(
                    akey,
                    format!(
                        "expected a buffer name or a number, found {}",
                        other.type_str()
                    ),
                )),
            }
        })
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Launch {
        key: key.to_string(),
        kernel: kernel.to_string(),
        grid,
        block,
        shared,
        args,
        max_dynamic_shared,
        carveout,
    })
}

/// `"NAME"` or `"NAME+N"` (N elements of the buffer's type, at most its length): the buffer's
/// index and the offset in bytes. A name that is itself a buffer's wins over a split at `+`.
fn buffer_ref(
    cx: &Ctx<'_>,
    key: &str,
    text: &str,
    buffers: &[Buffer],
) -> Result<(usize, u64), SpecError> {
    if let Some(i) = buffers.iter().position(|b| b.name == text) {
        return Ok((i, 0));
    }
    let Some((name, n)) = text.rsplit_once('+') else {
        return Err(cx.invalid(key, format!("no buffer named {text:?}")));
    };
    let name = name.trim_end();
    let n = n.trim();
    let Some(i) = buffers.iter().position(|b| b.name == name) else {
        return Err(cx.invalid(key, format!("no buffer named {name:?}")));
    };
    let b = &buffers[i];
    let offset = parse_count(n).ok_or_else(|| {
        cx.invalid(
            key,
            format!(
                "offset {n:?} is not a non-negative integer (elements of {})",
                b.ty
            ),
        )
    })?;
    if offset > b.len {
        return Err(cx.invalid(
            key,
            format!(
                "offset {offset} is past the end of {name:?} ({} elements)",
                b.len
            ),
        ));
    }
    Ok((i, offset * b.ty.size() as u64))
}

/// A non-negative decimal integer (digits only).
fn parse_count(n: &str) -> Option<u64> {
    if n.is_empty() || !n.bytes().all(|c| c.is_ascii_digit()) {
        return None;
    }
    n.parse().ok()
}

/// Context for loading `[[step]]` tables.
struct StepCx<'a, 'b> {
    cx: &'a Ctx<'b>,
    /// Buffers a `free` step has freed so far.
    freed: Vec<usize>,
    buffers: &'a [Buffer],
    objects: &'a Objects,
    gpu: &'static GpuConfig,
    launches: &'a mut Vec<Launch>,
}

impl StepCx<'_, '_> {
    fn steps(
        &mut self,
        prefix: &str,
        raw: &[RawStep],
        depth: usize,
    ) -> Result<Vec<Step>, SpecError> {
        raw.iter()
            .enumerate()
            .map(|(i, st)| {
                let key = if depth == 0 {
                    format!("{prefix} #{}", i + 1)
                } else {
                    format!("{prefix} steps #{}", i + 1)
                };
                self.step(&key, st, depth)
            })
            .collect()
    }

    fn step(&mut self, key: &str, st: &RawStep, depth: usize) -> Result<Step, SpecError> {
        let cx = self.cx;
        match st {
            RawStep::Launch(l) => {
                let launch = load_launch(cx, key, l, self.buffers, self.objects, self.gpu)?;
                self.launches.push(launch);
                Ok(Step::Launch(self.launches.len() - 1))
            }
            RawStep::Memset(m) => {
                let (buffer, offset) = buffer_ref(cx, &format!("{key} dst"), &m.dst, self.buffers)?;
                let b = &self.buffers[buffer];
                let es = b.ty.size() as u64;
                let value = u8::try_from(m.value).map_err(|_| {
                    cx.invalid(
                        format!("{key} value"),
                        format!("{} is not a byte (0 to 255)", m.value),
                    )
                })?;
                let left = b.len - offset / es;
                let count = match m.count {
                    None => left,
                    Some(c) => self.count(key, c, left, &b.name)?,
                };
                Ok(Step::Memset(Memset {
                    buffer,
                    offset,
                    bytes: count * es,
                    value,
                    key: key.to_string(),
                }))
            }
            RawStep::Free(f) => {
                let key_dst = format!("{key} dst");
                let Some(buffer) = self.buffers.iter().position(|b| b.name == f.dst) else {
                    return Err(cx.invalid(key_dst, format!("no buffer named {:?}", f.dst)));
                };
                if depth > 0 {
                    return Err(cx.invalid(
                        key,
                        "a buffer is freed once: `free` may not be inside a `repeat`",
                    ));
                }
                if self.freed.contains(&buffer) {
                    return Err(cx.invalid(key_dst, format!("buffer {:?} is freed twice", f.dst)));
                }
                self.freed.push(buffer);
                Ok(Step::Free {
                    buffer,
                    key: key.to_string(),
                })
            }
            RawStep::Memcpy(m) => {
                let dst = self.place(&format!("{key} dst"), &m.dst)?;
                let src = self.place(&format!("{key} src"), &m.src)?;
                let bytes = match (&dst, &src) {
                    (Place::Symbol { .. }, Place::Symbol { .. }) => {
                        return Err(cx.invalid(
                            format!("{key} src"),
                            "one side of a copy must be a buffer (a symbol-to-symbol copy \
                             is not a CUDA call)",
                        ))
                    }
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
                        let (db, sb) = (&self.buffers[*d], &self.buffers[*s]);
                        if db.ty != sb.ty {
                            return Err(cx.invalid(
                                format!("{key} dst"),
                                format!(
                                    "{:?} holds {} and {:?} holds {}: a copy between buffers \
                                     needs one element type",
                                    db.name, db.ty, sb.name, sb.ty
                                ),
                            ));
                        }
                        let es = db.ty.size() as u64;
                        let left = (db.len - od / es).min(sb.len - os / es);
                        let name = if db.len - od / es <= sb.len - os / es {
                            &db.name
                        } else {
                            &sb.name
                        };
                        self.count(key, m.count, left, name)? * es
                    }
                    (Place::Buffer { index, offset }, Place::Symbol { .. })
                    | (Place::Symbol { .. }, Place::Buffer { index, offset }) => {
                        let b = &self.buffers[*index];
                        let es = b.ty.size() as u64;
                        self.count(key, m.count, b.len - offset / es, &b.name)? * es
                    }
                };
                Ok(Step::Memcpy(Memcpy {
                    dst,
                    src,
                    bytes,
                    key: key.to_string(),
                }))
            }
            RawStep::Repeat(r) => {
                if depth + 1 >= MAX_REPEAT_DEPTH {
                    return Err(cx.invalid(
                        key.to_string(),
                        format!("repeats nest more than {MAX_REPEAT_DEPTH} deep"),
                    ));
                }
                let times = match u64::try_from(r.times) {
                    Ok(t) if (1..=MAX_LAUNCHES).contains(&t) => t,
                    _ => {
                        return Err(cx.invalid(
                            format!("{key} times"),
                            format!("{} is not a repeat count (1 to {MAX_LAUNCHES})", r.times),
                        ))
                    }
                };
                if r.steps.is_empty() {
                    return Err(cx.invalid(
                        format!("{key} steps"),
                        "no steps to repeat (add [[step.steps]] tables after it)",
                    ));
                }
                let steps = self.steps(key, &r.steps, depth + 1)?;
                Ok(Step::Repeat {
                    times,
                    steps,
                    key: key.to_string(),
                })
            }
        }
    }

    /// `count` elements checked against the `left` that remain in buffer `name`.
    fn count(&self, key: &str, count: i64, left: u64, name: &str) -> Result<u64, SpecError> {
        match u64::try_from(count) {
            Ok(c) if c <= left => Ok(c),
            _ if count < 0 => Err(self.cx.invalid(
                format!("{key} count"),
                format!("{count} is not a number of elements"),
            )),
            _ => Err(self.cx.invalid(
                format!("{key} count"),
                format!(
                    "{count} elements run past the end of {name:?} ({left} left after the offset)"
                ),
            )),
        }
    }

    /// A copy's end: `"BUF"`, `"BUF+N"` (elements), `"sym:NAME"`, `"sym:NAME+N"` (bytes).
    fn place(&self, key: &str, text: &str) -> Result<Place, SpecError> {
        let Some(sym) = text.strip_prefix("sym:") else {
            let (index, offset) = buffer_ref(self.cx, key, text, self.buffers)?;
            return Ok(Place::Buffer { index, offset });
        };
        let (name, offset) = match sym.rsplit_once('+') {
            Some((name, n)) => {
                let n = n.trim();
                let off = parse_count(n).ok_or_else(|| {
                    self.cx.invalid(
                        key,
                        format!("offset {n:?} is not a non-negative integer (bytes)"),
                    )
                })?;
                (name.trim_end(), off)
            }
            None => (sym, 0),
        };
        if !is_cxx_name(name) {
            return Err(self
                .cx
                .invalid(key, format!("{name:?} is not a C++ variable name")));
        }
        Ok(Place::Symbol {
            name: name.to_string(),
            offset,
        })
    }
}

#[cfg(test)]
mod tests;
