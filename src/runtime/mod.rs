//! The host runtime: a CUDA-runtime-like API over the simulated device (allocations, copies,
//! symbols, function attributes, launches), named after the calls it mirrors.
//!
//! Launch checks follow the CUDA Runtime API's documented errors ("cudaLaunchKernel",
//! "cudaFuncSetAttribute") and the limits of the modelled GPU ([`crate::gpu::config`]).
//!
//! Simulated memory lives in host memory, so a [`Device`] has a simulated-memory budget
//! ([`default_memory_budget`]: half the host's memory, at most the GPU's): allocations, module
//! variables and a launch's shared memory and local frames are checked against it before they
//! are made, and host allocations are fallible, so a too-large request is an error, not an abort.

pub mod error;
pub mod textures;

pub use error::CudaError;

use std::collections::HashMap;

use thiserror::Error;

use crate::exec::fault::KernelFault;
use crate::exec::simt::{self, Launch, LaunchDims, LaunchStats, Observer};
use crate::gpu::config::GpuConfig;
use crate::ir::types::ScalarType;
use crate::ir::{Kernel, Program};
use crate::mem::request::Space;
use crate::mem::space::{Allocation, GlobalMemory};
use crate::ptx::error::PtxError;

/// Default instruction budget per block (warp-instructions).
pub const DEFAULT_BUDGET_PER_BLOCK: u64 = 50_000_000;

/// Default instruction budget per launch, all blocks together (warp-instructions): about half
/// a minute of simulation on one core at the executor's 5 to 10 million warp-instructions per
/// second, and twice the largest example launch (`examples/matmul_1024.toml`, 134 million).
pub const DEFAULT_BUDGET_PER_LAUNCH: u64 = 250_000_000;

/// The simulated-memory budget used when the host's memory cannot be read (8 GiB).
pub const FALLBACK_MEMORY_BUDGET: u64 = 8 << 30;

/// The default simulated-memory budget: half of this host's physical memory (`MemTotal` in
/// `/proc/meminfo`), or [`FALLBACK_MEMORY_BUDGET`] when that cannot be read, and never more
/// than the modelled GPU's device memory (`gpu_memory`).
pub fn default_memory_budget(gpu_memory: u64) -> u64 {
    host_memory_bytes()
        .map(|m| m / 2)
        .unwrap_or(FALLBACK_MEMORY_BUDGET)
        .min(gpu_memory)
}

/// `MemTotal` of `/proc/meminfo` in bytes, when readable.
pub fn host_memory_bytes() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/meminfo").ok()?;
    let line = text.lines().find(|l| l.starts_with("MemTotal:"))?;
    let mut it = line["MemTotal:".len()..].split_whitespace();
    let n: u64 = it.next()?.parse().ok()?;
    match it.next() {
        Some("kB") | None => n.checked_mul(1024),
        _ => None,
    }
}

/// A byte count with an optional binary suffix: `4096`, `512M`, `64G`, `1T` (also `64GiB`,
/// `64GB`; every suffix is a power of 1024).
pub fn parse_byte_size(text: &str) -> Result<u64, String> {
    let t = text.trim();
    let digits = t.find(|c: char| !c.is_ascii_digit()).unwrap_or(t.len());
    let (num, suffix) = t.split_at(digits);
    let n: u64 = num
        .parse()
        .map_err(|_| format!("{text:?} is not a byte count (e.g. 4096, 512M, 64G)"))?;
    let shift = match suffix.trim().to_ascii_uppercase().as_str() {
        "" | "B" => 0,
        "K" | "KB" | "KIB" => 10,
        "M" | "MB" | "MIB" => 20,
        "G" | "GB" | "GIB" => 30,
        "T" | "TB" | "TIB" => 40,
        _ => return Err(format!("{text:?}: unknown suffix (use K, M, G or T)")),
    };
    n.checked_mul(1u64 << shift)
        .ok_or_else(|| format!("{text:?} is too large"))
}

/// Errors of the runtime, with the CUDA error name where CUDA has one.
#[derive(Debug, Error)]
pub enum RuntimeError {
    /// The PTX did not parse or lower.
    #[error("{0}")]
    Ptx(#[from] PtxError),
    /// The kernel holds something gpumemsim cannot run (found when the PTX was lowered).
    #[error("kernel '{kernel}' cannot be launched in gpumemsim: {error}")]
    Unloadable {
        /// The PTX name.
        kernel: String,
        /// The located reason.
        error: PtxError,
    },
    /// A launch or API call CUDA would reject.
    #[error("{error}: {message}")]
    Cuda {
        /// The CUDA error (`cudaErrorInvalidConfiguration`, code 9).
        error: CudaError,
        /// What is wrong.
        message: String,
    },
    /// A fault inside the simulated kernel.
    #[error("{0}")]
    Fault(#[from] Box<KernelFault>),
    /// Simulating this would hold more host memory than the simulated-memory budget allows.
    #[error("{what} needs {needed} bytes of simulated memory, {in_use} are in use and the simulated-memory budget is {limit} bytes; raise it with --memory-budget SIZE (e.g. --memory-budget 64G; RunOptions::memory_budget in the library)")]
    MemoryBudget {
        /// What asked for the memory.
        what: String,
        /// Bytes asked for.
        needed: u64,
        /// Bytes already held.
        in_use: u64,
        /// The budget.
        limit: u64,
    },
    /// The SASS did not decode.
    #[error("{0}")]
    Sass(#[from] crate::sass::SassError),
    /// The host refused an allocation within the budget.
    #[error("cannot allocate {bytes} bytes of host memory for {what}")]
    OutOfHostMemory {
        /// What the memory was for.
        what: String,
        /// Bytes asked for.
        bytes: u64,
    },
}

/// The kernel `name` of `program`, or why it cannot be launched: no such entry
/// (`cudaErrorInvalidDeviceFunction`), or one the PTX lowering set aside (its located error).
fn find_kernel<'p>(program: &'p Program, name: &str) -> Result<&'p Kernel, RuntimeError> {
    if let Some(k) = program.kernel(name) {
        return Ok(k);
    }
    if let Some(error) = program.unloadable(name) {
        return Err(RuntimeError::Unloadable {
            kernel: name.to_string(),
            error: error.clone(),
        });
    }
    Err(RuntimeError::cuda(
        CudaError::InvalidDeviceFunction,
        format!("no kernel named '{name}'"),
    ))
}

impl Device {
    /// The parameter list of the loaded module's entry `name`, runnable or not.
    pub fn entry_params(&self, name: &str) -> Option<&[crate::ir::Param]> {
        self.modules.last()?.program.entry_params(name)
    }

    /// The loaded kernel `name`, or why it cannot be launched (see [`find_kernel`]).
    pub fn kernel_for_launch(&self, name: &str) -> Result<&Kernel, RuntimeError> {
        find_kernel(&self.module_or_err()?.program, name)
    }
}

impl From<simt::ExecError> for RuntimeError {
    fn from(e: simt::ExecError) -> Self {
        match e {
            simt::ExecError::Fault(f) => RuntimeError::Fault(f),
            simt::ExecError::OutOfMemory { what, bytes } => RuntimeError::OutOfHostMemory {
                what: what.to_string(),
                bytes,
            },
        }
    }
}

impl RuntimeError {
    fn cuda(error: CudaError, message: impl Into<String>) -> Self {
        RuntimeError::Cuda {
            error,
            message: message.into(),
        }
    }

    /// The `cudaError_t` a CUDA runtime returns for this error: the CUDA error itself, the
    /// fault's ([`CudaError::of_fault`]), `cudaErrorInvalidPtx` for a module that does not
    /// parse or lower, `cudaErrorInvalidKernelImage` for SASS that does not decode,
    /// `cudaErrorNotSupported` for a kernel gpumemsim cannot run, and
    /// `cudaErrorMemoryAllocation` when the simulated-memory budget or the host's memory is
    /// exhausted.
    pub fn cuda_error(&self) -> CudaError {
        match self {
            RuntimeError::Cuda { error, .. } => *error,
            RuntimeError::Fault(f) => CudaError::of_fault(&f.kind),
            RuntimeError::Ptx(_) => CudaError::InvalidPtx,
            RuntimeError::Sass(_) => CudaError::InvalidKernelImage,
            RuntimeError::Unloadable { .. } => CudaError::NotSupported,
            RuntimeError::MemoryBudget { .. } | RuntimeError::OutOfHostMemory { .. } => {
                CudaError::MemoryAllocation
            }
        }
    }
}

/// A kernel argument value.
#[derive(Clone, Debug, PartialEq)]
pub enum KernelArg {
    /// A device pointer or any 64-bit integer.
    U64(u64),
    /// A 32-bit integer.
    U32(u32),
    /// A 16-bit integer.
    U16(u16),
    /// An 8-bit integer.
    U8(u8),
    /// A float.
    F32(f32),
    /// A double.
    F64(f64),
    /// Raw bytes (structs passed by value).
    Bytes(Vec<u8>),
}

impl KernelArg {
    fn bytes(&self) -> Vec<u8> {
        match self {
            KernelArg::U64(v) => v.to_le_bytes().to_vec(),
            KernelArg::U32(v) => v.to_le_bytes().to_vec(),
            KernelArg::U16(v) => v.to_le_bytes().to_vec(),
            KernelArg::U8(v) => vec![*v],
            KernelArg::F32(v) => v.to_le_bytes().to_vec(),
            KernelArg::F64(v) => v.to_le_bytes().to_vec(),
            KernelArg::Bytes(b) => b.clone(),
        }
    }
}

/// Per-kernel attributes set with `func_set_attribute`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub struct FuncAttributes {
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`, when set.
    pub max_dynamic_shared: Option<u32>,
    /// `cudaFuncAttributePreferredSharedMemoryCarveout` in percent, when set.
    pub carveout: Option<i32>,
}

/// `cudaFuncAttribute`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FuncAttribute {
    /// `cudaFuncAttributeMaxDynamicSharedMemorySize`.
    MaxDynamicSharedMemorySize(u32),
    /// `cudaFuncAttributePreferredSharedMemoryCarveout` (-1 for the default, else 0..=100).
    PreferredSharedMemoryCarveout(i32),
}

/// Options of one launch.
#[derive(Clone, Copy, Debug)]
pub struct LaunchOptions {
    /// Warp-instructions per block before the kernel is declared endless.
    pub budget_per_block: u64,
    /// Warp-instructions per launch, all blocks together.
    pub budget_per_launch: u64,
    /// Use the executor's specialised paths (the default); `false` sends every instruction
    /// through the general per-lane path, for differential testing. Results and counters are
    /// the same either way. (The memory models' shortcuts are switched by
    /// [`crate::report::profile::Profile::fast_paths`], which `run_spec` sets from this.)
    pub fast_paths: bool,
}

impl Default for LaunchOptions {
    fn default() -> Self {
        LaunchOptions {
            budget_per_block: DEFAULT_BUDGET_PER_BLOCK,
            budget_per_launch: DEFAULT_BUDGET_PER_LAUNCH,
            fast_paths: true,
        }
    }
}

/// A loaded PTX module.
#[derive(Debug)]
pub struct Module {
    /// The decoded program.
    pub program: Program,
    /// Constant bank 0 contents.
    pub consts: Vec<u8>,
    attrs: HashMap<String, FuncAttributes>,
    /// Per kernel (PTX name), [`crate::check::provenance::pointer_params`], computed at its
    /// first launch.
    provenance: HashMap<String, Vec<u32>>,
    /// Counts the changes of `program.kernels` (SASS installed), so that a [`Function`] taken
    /// before one is refused rather than naming another kernel.
    generation: u32,
}

/// A module loaded on a [`Device`] (`CUmodule`): its index in load order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ModuleId(usize);

/// A kernel of a loaded module (`CUfunction`), from [`Device::function`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Function {
    module: ModuleId,
    kernel: usize,
    generation: u32,
}

/// First address of the next module's `.global` variables after one whose variables end at
/// `top`: the next 2 MiB boundary, so modules never share a 2 MiB range.
fn next_vars_base(top: u64) -> u64 {
    top.div_ceil(2 << 20).saturating_mul(2 << 20)
}

impl Module {
    /// The kernel named `name` (PTX name).
    pub fn kernel(&self, name: &str) -> Option<&Kernel> {
        self.program.kernel(name)
    }
}

/// The simulated device and its runtime state: one context, any number of modules (each
/// `load_ptx` adds one; the name-based calls such as [`Device::launch`] and the symbol copies
/// use the module loaded last, [`Device::function`] and [`Device::launch_function`] any).
pub struct Device {
    /// The modelled GPU.
    pub gpu: &'static GpuConfig,
    /// Global memory.
    pub global: GlobalMemory,
    /// CUDA arrays, texture and surface objects (`malloc_array`, `create_texture_object`, ...).
    pub textures: crate::tex::TexState,
    modules: Vec<Module>,
    launches: u64,
    memory_budget: u64,
}

impl Device {
    /// A device of the given GPU with nothing allocated.
    pub fn new(gpu: &'static GpuConfig) -> Self {
        Device {
            gpu,
            global: GlobalMemory::new(),
            textures: crate::tex::TexState::new(),
            modules: Vec::new(),
            launches: 0,
            memory_budget: default_memory_budget(gpu.global_mem_bytes),
        }
    }

    /// The simulated-memory budget: the most host memory that device allocations, module
    /// variables and a launch's shared memory and local frames may hold together.
    pub fn memory_budget(&self) -> u64 {
        self.memory_budget
    }

    /// Sets the simulated-memory budget (see [`Device::memory_budget`]).
    pub fn set_memory_budget(&mut self, bytes: u64) {
        self.memory_budget = bytes;
    }

    /// Checks that `needed` more bytes fit the budget and the GPU's device memory.
    pub fn check_memory(&self, what: &str, needed: u64) -> Result<(), RuntimeError> {
        self.check_memory_after(what, needed, 0)
    }

    /// Checks that `needed` more bytes fit, after `pending` bytes that are planned but not yet
    /// allocated (so a whole set of buffers is checked before any is allocated).
    pub fn check_memory_after(
        &self,
        what: &str,
        needed: u64,
        pending: u64,
    ) -> Result<(), RuntimeError> {
        let in_use = self
            .global
            .bytes()
            .saturating_add(self.textures.bytes())
            .saturating_add(pending);
        let total = in_use.checked_add(needed);
        if total.is_none_or(|t| t > self.memory_budget) {
            return Err(RuntimeError::MemoryBudget {
                what: what.to_string(),
                needed,
                in_use,
                limit: self.memory_budget,
            });
        }
        if total.is_none_or(|t| t > self.gpu.global_mem_bytes) {
            return Err(RuntimeError::cuda(CudaError::MemoryAllocation,
                format!(
                    "{what} needs {needed} bytes, {in_use} are allocated and the {} has {} bytes of device memory",
                    self.gpu.full_name, self.gpu.global_mem_bytes
                ),
            ));
        }
        Ok(())
    }

    /// Parses, checks and loads a PTX module (`cuModuleLoadData`); module variables are
    /// allocated and initialised. `file` names the PTX in error messages.
    pub fn load_ptx(&mut self, text: &str, file: &str) -> Result<ModuleId, RuntimeError> {
        self.load_ptx_with(text, file, &crate::ptx::lower::LowerOptions::default())
    }

    /// [`Device::load_ptx`] with explicit lowering options.
    pub fn load_ptx_with(
        &mut self,
        text: &str,
        file: &str,
        opts: &crate::ptx::lower::LowerOptions,
    ) -> Result<ModuleId, RuntimeError> {
        let ast = crate::ptx::parse::parse(text).map_err(|e| e.in_file(file))?;
        // Each module's `.global` variables above the previous modules'.
        let mut opts = opts.clone();
        if let Some(top) = self
            .modules
            .iter()
            .flat_map(|m| m.program.vars.iter())
            .filter(|v| v.space != Space::Const)
            .map(|v| v.addr.saturating_add(v.size))
            .max()
        {
            opts.global_vars_base = opts.global_vars_base.max(next_vars_base(top));
        }
        let program =
            crate::ptx::lower::lower_with(&ast, text, &opts).map_err(|e| e.in_file(file))?;
        let mut program = program;
        for u in &mut program.unloadable {
            u.error = std::mem::take(&mut u.error).in_file(file);
        }
        let globals = program
            .vars
            .iter()
            .filter(|v| v.space != Space::Const)
            .try_fold(0u64, |t, v| t.checked_add(v.init.len() as u64))
            .unwrap_or(u64::MAX);
        self.check_memory(&format!("{file}: module variables"), globals)?;
        let mut consts = vec![0u8; program.const_bytes as usize];
        for v in &mut program.vars {
            match v.space {
                Space::Const => {
                    let r = v.addr as usize..(v.addr as usize).saturating_add(v.init.len());
                    match consts.get_mut(r) {
                        Some(dst) => dst.copy_from_slice(&v.init),
                        None => {
                            return Err(RuntimeError::cuda(
                                CudaError::InvalidPtx,
                                format!(
                                    "{file}: .const variable '{}' lies outside the constant bank",
                                    v.name
                                ),
                            ))
                        }
                    }
                }
                // The initial bytes move into device memory (the program keeps the size).
                _ => self.global.insert(Allocation {
                    base: v.addr,
                    data: std::mem::take(&mut v.init),
                    name: v.name.clone(),
                }),
            }
        }
        self.modules.push(Module {
            program,
            consts,
            attrs: HashMap::new(),
            provenance: HashMap::new(),
            generation: 0,
        });
        Ok(ModuleId(self.modules.len() - 1))
    }

    /// Runs the loaded module's kernels as SASS: decodes `text` (nvdisasm output, see
    /// [`crate::sass`]; `file` names it in messages) and replaces each kernel it has. A kernel
    /// whose SASS does not decode is set aside with its located error, reported when it is
    /// launched (as for PTX: the module's other kernels run). Returns how many kernels now
    /// run as SASS.
    pub fn load_sass(&mut self, text: &str, file: &str) -> Result<usize, RuntimeError> {
        self.install_sass(text, file, false)
    }

    /// As [`Device::load_sass`], but all or nothing: when a kernel's SASS does not decode, the
    /// module is left as it was (every kernel keeps its PTX) and that kernel's error is
    /// returned. The default instruction set uses it to run a module as PTX rather than lose
    /// a kernel to an opcode the SASS front end does not know yet.
    pub fn load_sass_whole(&mut self, text: &str, file: &str) -> Result<usize, RuntimeError> {
        self.install_sass(text, file, true)
    }

    fn install_sass(&mut self, text: &str, file: &str, whole: bool) -> Result<usize, RuntimeError> {
        let m = self.module_mut()?;
        let mut loaded = crate::sass::load(text, file, &m.program)?;
        if whole && !loaded.unrunnable.is_empty() {
            return Err(loaded.unrunnable.swap_remove(0).1.into());
        }
        let n = loaded.kernels.len();
        m.generation += 1;
        m.provenance.clear();
        for k in loaded.kernels {
            if let Some(slot) = m.program.kernels.iter_mut().find(|p| p.name == k.name) {
                *slot = k;
            }
        }
        for (name, e) in loaded.unrunnable {
            let params = m.program.kernel(&name).map(|k| k.params.clone());
            m.program.kernels.retain(|k| k.name != name);
            m.program.unloadable.push(crate::ir::Unloadable {
                name,
                error: e.located(text),
                params,
            });
        }
        Ok(n)
    }

    /// The module loaded last (the one the name-based calls use).
    pub fn module(&self) -> Option<&Module> {
        self.modules.last()
    }

    /// The module `id`.
    pub fn module_by_id(&self, id: ModuleId) -> Option<&Module> {
        self.modules.get(id.0)
    }

    fn module_or_err(&self) -> Result<&Module, RuntimeError> {
        self.modules.last().ok_or_else(|| {
            RuntimeError::cuda(CudaError::InvalidResourceHandle, "no module is loaded")
        })
    }

    fn module_mut(&mut self) -> Result<&mut Module, RuntimeError> {
        self.modules.last_mut().ok_or_else(|| {
            RuntimeError::cuda(CudaError::InvalidResourceHandle, "no module is loaded")
        })
    }

    /// `cuModuleGetFunction`: the kernel `name` (PTX name) of module `id`, or why it cannot
    /// be launched (no such entry: `cudaErrorInvalidDeviceFunction`; one the PTX lowering set
    /// aside: its located error). The handle stays valid until SASS is installed into the
    /// module ([`Device::load_sass`]).
    pub fn function(&self, id: ModuleId, name: &str) -> Result<Function, RuntimeError> {
        let m = self.modules.get(id.0).ok_or_else(|| {
            RuntimeError::cuda(
                CudaError::InvalidResourceHandle,
                format!("no module {}", id.0),
            )
        })?;
        find_kernel(&m.program, name)?;
        let kernel = m
            .program
            .kernels
            .iter()
            .position(|k| k.name == name)
            .ok_or_else(|| {
                RuntimeError::cuda(
                    CudaError::InvalidDeviceFunction,
                    format!("no kernel named '{name}'"),
                )
            })?;
        Ok(Function {
            module: id,
            kernel,
            generation: m.generation,
        })
    }

    /// The kernel a [`Function`] names.
    pub fn function_kernel(&self, f: Function) -> Result<&Kernel, RuntimeError> {
        self.modules
            .get(f.module.0)
            .filter(|m| m.generation == f.generation)
            .and_then(|m| m.program.kernels.get(f.kernel))
            .ok_or_else(|| {
                RuntimeError::cuda(
                    CudaError::InvalidResourceHandle,
                    "the function handle was taken before its module changed",
                )
            })
    }

    /// `cudaMalloc` of a small, known size (tests, benchmarks). Panics when the host cannot
    /// allocate it; use [`Device::try_malloc`] for sizes that come from users.
    pub fn malloc(&mut self, size: u64, name: &str) -> u64 {
        self.global.malloc(size, name)
    }

    /// `cudaMalloc`, checked against the simulated-memory budget and the GPU's memory, with a
    /// fallible host allocation.
    pub fn try_malloc(&mut self, size: u64, name: &str) -> Result<u64, RuntimeError> {
        self.check_memory(&format!("buffer '{name}'"), size)?;
        let data = zeroed(size, name)?;
        Ok(self.global.malloc_with(data, name))
    }

    /// `cudaMalloc` followed by `cudaMemcpy` of `data`, which becomes the allocation's contents
    /// (moved, not copied). The budget must have been checked for it already (the bytes exist);
    /// it is checked again here.
    pub fn malloc_with(&mut self, data: Vec<u8>, name: &str) -> Result<u64, RuntimeError> {
        self.check_memory(&format!("buffer '{name}'"), data.len() as u64)?;
        Ok(self.global.malloc_with(data, name))
    }

    /// Moves the contents of the allocation at `ptr` out of the device (freeing it).
    pub fn take_allocation(&mut self, ptr: u64) -> Option<Vec<u8>> {
        self.global.take(ptr)
    }

    /// `cudaFree`.
    pub fn free(&mut self, ptr: u64) -> Result<(), RuntimeError> {
        if self.global.free(ptr) {
            Ok(())
        } else {
            Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!("{ptr:#x} is not an allocation"),
            ))
        }
    }

    /// `cudaMemcpy` host to device.
    pub fn memcpy_htod(&mut self, dst: u64, src: &[u8]) -> Result<(), RuntimeError> {
        let d = self
            .global
            .slice_mut(dst, src.len() as u64)
            .ok_or_else(|| {
                RuntimeError::cuda(
                    CudaError::InvalidValue,
                    format!("copy of {} bytes to {dst:#x} is out of bounds", src.len()),
                )
            })?;
        d.copy_from_slice(src);
        Ok(())
    }

    /// `cudaMemcpy` device to host.
    pub fn memcpy_dtoh(&self, dst: &mut [u8], src: u64) -> Result<(), RuntimeError> {
        let s = self.global.slice(src, dst.len() as u64).ok_or_else(|| {
            RuntimeError::cuda(
                CudaError::InvalidValue,
                format!("copy of {} bytes from {src:#x} is out of bounds", dst.len()),
            )
        })?;
        dst.copy_from_slice(s);
        Ok(())
    }

    /// `cudaMemcpy` device to device.
    pub fn memcpy_dtod(&mut self, dst: u64, src: u64, n: u64) -> Result<(), RuntimeError> {
        if self.global.find(src, n).is_none() {
            return Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!("copy of {n} bytes from {src:#x} is out of bounds"),
            ));
        }
        let mut tmp = zeroed(n, "a device-to-device copy")?;
        self.memcpy_dtoh(&mut tmp, src)?;
        self.memcpy_htod(dst, &tmp)
    }

    /// `cudaMemset`.
    pub fn memset(&mut self, dst: u64, value: u8, n: u64) -> Result<(), RuntimeError> {
        let d = self.global.slice_mut(dst, n).ok_or_else(|| {
            RuntimeError::cuda(
                CudaError::InvalidValue,
                format!("memset of {n} bytes at {dst:#x} is out of bounds"),
            )
        })?;
        d.fill(value);
        Ok(())
    }

    fn symbol(&self, name: &str) -> Result<(Space, u64, u64), RuntimeError> {
        let m = self.module_or_err()?;
        m.program
            .vars
            .iter()
            .find(|v| v.name == name)
            .map(|v| (v.space, v.addr, v.size))
            .ok_or_else(|| {
                RuntimeError::cuda(
                    CudaError::InvalidSymbol,
                    format!("no __device__ or __constant__ variable named '{name}'"),
                )
            })
    }

    /// `cudaGetSymbolAddress`: the generic address of a module variable.
    pub fn get_symbol_address(&self, name: &str) -> Result<u64, RuntimeError> {
        let (s, a, _) = self.symbol(name)?;
        Ok(crate::mem::space::to_generic(s, a))
    }

    /// `cudaGetSymbolSize`.
    pub fn get_symbol_size(&self, name: &str) -> Result<u64, RuntimeError> {
        Ok(self.symbol(name)?.2)
    }

    /// `cudaMemcpyToSymbol`.
    pub fn memcpy_to_symbol(
        &mut self,
        name: &str,
        src: &[u8],
        offset: u64,
    ) -> Result<(), RuntimeError> {
        let (s, a, size) = self.symbol(name)?;
        if offset.saturating_add(src.len() as u64) > size {
            return Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!(
                    "copy of {} bytes at offset {offset} overruns '{name}' ({size} bytes)",
                    src.len()
                ),
            ));
        }
        match s {
            Space::Const => {
                let m = self.module_mut()?;
                let at = (a + offset) as usize;
                m.consts[at..at + src.len()].copy_from_slice(src);
                Ok(())
            }
            _ => self.memcpy_htod(a + offset, src),
        }
    }

    /// `cudaMemcpyFromSymbol`.
    pub fn memcpy_from_symbol(
        &self,
        name: &str,
        dst: &mut [u8],
        offset: u64,
    ) -> Result<(), RuntimeError> {
        let (s, a, size) = self.symbol(name)?;
        if offset.saturating_add(dst.len() as u64) > size {
            return Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!("copy overruns '{name}' ({size} bytes)"),
            ));
        }
        match s {
            Space::Const => {
                let m = self.module_or_err()?;
                let at = (a + offset) as usize;
                dst.copy_from_slice(&m.consts[at..at + dst.len()]);
                Ok(())
            }
            _ => self.memcpy_dtoh(dst, a + offset),
        }
    }

    /// `cudaFuncSetAttribute`.
    pub fn func_set_attribute(
        &mut self,
        kernel: &str,
        attr: FuncAttribute,
    ) -> Result<(), RuntimeError> {
        let gpu = self.gpu;
        let m = self.module_mut()?;
        let k = find_kernel(&m.program, kernel)?;
        let static_shared = k.static_shared;
        let a = m.attrs.entry(kernel.to_string()).or_default();
        match attr {
            FuncAttribute::MaxDynamicSharedMemorySize(v) => {
                if u64::from(v) + static_shared > u64::from(gpu.max_shared_per_block_optin) {
                    return Err(RuntimeError::cuda(CudaError::InvalidValue,
                        format!(
                            "MaxDynamicSharedMemorySize {v} plus {static_shared} bytes of static shared memory exceeds the {} bytes a block may have",
                            gpu.max_shared_per_block_optin
                        ),
                    ));
                }
                a.max_dynamic_shared = Some(v);
            }
            FuncAttribute::PreferredSharedMemoryCarveout(v) => {
                if !(-1..=100).contains(&v) {
                    return Err(RuntimeError::cuda(
                        CudaError::InvalidValue,
                        format!("carveout {v} is not -1 or 0..=100"),
                    ));
                }
                a.carveout = Some(v);
            }
        }
        Ok(())
    }

    /// The attributes set on `kernel`.
    pub fn func_attributes(&self, kernel: &str) -> FuncAttributes {
        self.modules
            .last()
            .and_then(|m| m.attrs.get(kernel).copied())
            .unwrap_or_default()
    }

    /// Checks a launch configuration as `cudaLaunchKernel` does.
    pub fn check_launch(&self, kernel: &Kernel, dims: &LaunchDims) -> Result<(), RuntimeError> {
        let g = self.gpu;
        let threads: u64 = dims.block.iter().map(|&b| b as u64).product();
        if dims.block.contains(&0) || dims.grid.contains(&0) {
            return Err(RuntimeError::cuda(
                CudaError::InvalidConfiguration,
                "grid and block dimensions must be at least 1",
            ));
        }
        if threads > g.max_threads_per_block as u64 {
            // CUDA 13 on the H200 answers cudaErrorInvalidValue here
            // (tests/hw/h200/occupancy.csv, 1025-thread rows).
            return Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!(
                    "{threads} threads per block exceed the limit of {}",
                    g.max_threads_per_block
                ),
            ));
        }
        for i in 0..3 {
            if dims.block[i] > g.max_block_dim[i] {
                return Err(RuntimeError::cuda(
                    CudaError::InvalidConfiguration,
                    format!(
                        "block dimension {} = {} exceeds {}",
                        "xyz".as_bytes()[i] as char,
                        dims.block[i],
                        g.max_block_dim[i]
                    ),
                ));
            }
            if dims.grid[i] > g.max_grid_dim[i] {
                return Err(RuntimeError::cuda(
                    CudaError::InvalidConfiguration,
                    format!(
                        "grid dimension {} = {} exceeds {}",
                        "xyz".as_bytes()[i] as char,
                        dims.grid[i],
                        g.max_grid_dim[i]
                    ),
                ));
            }
        }
        // Static shared memory: ptxas refuses more than 48 KB ("uses too much shared data"), and
        // static plus dynamic may not exceed the opt-in maximum per block (227 KB on the H200,
        // `sharedMemPerBlockOptin`).
        let static_shared = kernel.static_shared;
        if static_shared > u64::from(g.max_shared_per_block) {
            return Err(RuntimeError::cuda(CudaError::InvalidPtx,
                format!(
                    "kernel '{}' declares {static_shared} bytes of static shared memory, more than the {} bytes a kernel may declare statically (ptxas: \"uses too much shared data\"; use dynamic shared memory for more)",
                    kernel.name, g.max_shared_per_block
                ),
            ));
        }
        let total_shared = static_shared + u64::from(dims.dynamic_shared);
        if total_shared > u64::from(g.max_shared_per_block_optin) {
            return Err(RuntimeError::cuda(CudaError::InvalidValue,
                format!(
                    "{static_shared} bytes of static plus {} bytes of dynamic shared memory exceed the {} bytes a block may have",
                    dims.dynamic_shared, g.max_shared_per_block_optin
                ),
            ));
        }
        let attrs = self.func_attributes(&kernel.name);
        let max_dyn = attrs
            .max_dynamic_shared
            .map(u64::from)
            .unwrap_or(u64::from(g.max_shared_per_block).saturating_sub(static_shared));
        if u64::from(dims.dynamic_shared) > max_dyn {
            let hint = if attrs.max_dynamic_shared.is_none() {
                " (more than 48 KB needs cudaFuncSetAttribute(kernel, cudaFuncAttributeMaxDynamicSharedMemorySize, bytes) first)"
            } else {
                ""
            };
            return Err(RuntimeError::cuda(CudaError::InvalidValue,
                format!(
                    "{} bytes of dynamic shared memory exceed the kernel's maximum of {max_dyn}{hint}",
                    dims.dynamic_shared
                ),
            ));
        }
        if let Some(r) = kernel.reqntid {
            if r != dims.block {
                return Err(RuntimeError::cuda(
                    CudaError::InvalidValue,
                    format!("the kernel requires a block of {r:?} threads (.reqntid)"),
                ));
            }
        }
        Ok(())
    }

    /// Packs arguments into a parameter buffer, checking them against the kernel's parameters.
    pub fn pack_params(kernel: &Kernel, args: &[KernelArg]) -> Result<Vec<u8>, RuntimeError> {
        if args.len() != kernel.params.len() {
            return Err(RuntimeError::cuda(
                CudaError::InvalidValue,
                format!(
                    "kernel '{}' takes {} arguments, {} given",
                    kernel.name,
                    kernel.params.len(),
                    args.len()
                ),
            ));
        }
        let mut buf = vec![0u8; kernel.param_bytes as usize];
        for (i, (p, a)) in kernel.params.iter().zip(args).enumerate() {
            let b = a.bytes();
            if b.len() != p.size as usize {
                return Err(RuntimeError::cuda(
                    CudaError::InvalidValue,
                    format!(
                        "argument {i} of '{}' has {} bytes, the parameter has {} (.{:?})",
                        kernel.name,
                        b.len(),
                        p.size,
                        p.ty
                    ),
                ));
            }
            buf[p.offset as usize..p.offset as usize + b.len()].copy_from_slice(&b);
        }
        Ok(buf)
    }

    /// `cudaLaunchKernel`: runs `kernel` (PTX name) of the module loaded last to completion.
    #[allow(clippy::too_many_arguments)]
    pub fn launch<O: Observer>(
        &mut self,
        kernel: &str,
        display_name: &str,
        dims: LaunchDims,
        args: &[KernelArg],
        opts: LaunchOptions,
        obs: &mut O,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<LaunchStats, RuntimeError> {
        let id = ModuleId(self.modules.len().saturating_sub(1));
        let f = self.function(id, kernel)?;
        self.launch_function(f, display_name, dims, args, opts, obs, progress)
    }

    /// `cuLaunchKernel`: runs the kernel `f` names to completion.
    #[allow(clippy::too_many_arguments)]
    pub fn launch_function<O: Observer>(
        &mut self,
        f: Function,
        display_name: &str,
        dims: LaunchDims,
        args: &[KernelArg],
        opts: LaunchOptions,
        obs: &mut O,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<LaunchStats, RuntimeError> {
        let k = self.function_kernel(f)?;
        self.check_launch(k, &dims)?;
        let params = Self::pack_params(k, args)?;
        // The block's shared memory and its threads' local frames live in host memory too.
        let (shared, local, regs) =
            simt::block_memory_bytes(k, &dims).unwrap_or((u64::MAX, u64::MAX, u64::MAX));
        let frames = shared.saturating_add(local).saturating_add(regs);
        if frames > self.memory_budget.saturating_sub(self.global.bytes()) {
            return Err(RuntimeError::MemoryBudget {
                what: format!(
                    "launch of '{display_name}' ({local} bytes of local memory: {} bytes per thread x {} threads; {shared} bytes of shared memory; {regs} bytes of registers: {} per thread)",
                    k.local_bytes,
                    dims.threads_per_block(),
                    k.num_regs as u64
                ),
                needed: frames,
                in_use: self.global.bytes(),
                limit: self.memory_budget,
            });
        }
        self.launches += 1;
        let m = &mut self.modules[f.module.0];
        let k = &m.program.kernels[f.kernel];
        let provenance = m
            .provenance
            .entry(k.name.clone())
            .or_insert_with(|| crate::check::provenance::pointer_params(k));
        let launch = Launch {
            kernel: k,
            display_name,
            dims,
            params: &params,
            consts: &m.consts,
            global: &mut self.global,
            budget_per_block: opts.budget_per_block,
            budget_per_launch: opts.budget_per_launch,
            fast_paths: opts.fast_paths,
            sm_count: self.gpu.sm_count,
            reserved_shared_per_block: self.gpu.reserved_shared_per_block,
            grid_id: self.launches,
            provenance,
            textures: &mut self.textures,
        };
        Ok(simt::run(launch, obs, progress)?)
    }
}

/// A zeroed host buffer of `n` bytes, or an error instead of an abort.
fn zeroed(n: u64, what: &str) -> Result<Vec<u8>, RuntimeError> {
    let err = || RuntimeError::OutOfHostMemory {
        what: what.to_string(),
        bytes: n,
    };
    let len = usize::try_from(n).map_err(|_| err())?;
    let mut v = Vec::new();
    v.try_reserve_exact(len).map_err(|_| err())?;
    v.resize(len, 0);
    Ok(v)
}

/// The kernel argument a spec number becomes for a parameter of type `ty` and `size` bytes.
pub fn arg_for_param(
    ty: ScalarType,
    size: u32,
    int: Option<i64>,
    float: Option<f64>,
) -> Option<KernelArg> {
    use ScalarType::*;
    Some(match (ty, size) {
        (F32, 4) => KernelArg::F32(float.or(int.map(|i| i as f64))? as f32),
        (F64, 8) => KernelArg::F64(float.or(int.map(|i| i as f64))?),
        (_, 8) => KernelArg::U64(int? as u64),
        (_, 4) => KernelArg::U32(int? as u32),
        (_, 2) => KernelArg::U16(int? as u16),
        (_, 1) => KernelArg::U8(int? as u8),
        _ => return None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::exec::simt::NoObserver;
    use crate::gpu::config::H200;

    /// A module with one `.global` word `v` and a kernel `set_v` that stores its parameter
    /// there.
    fn module_ptx(name: &str) -> String {
        format!(
            ".version 8.0\n.target sm_90\n.address_size 64\n\
             .global .align 4 .u32 v = 7;\n\
             .visible .entry {name}(.param .u32 p)\n{{\n\t.reg .b32 %r<2>;\n\
             \tld.param.u32 %r1, [p];\n\tst.global.u32 [v], %r1;\n\tret;\n}}\n"
        )
    }

    fn one_thread() -> LaunchDims {
        LaunchDims {
            grid: [1, 1, 1],
            block: [1, 1, 1],
            dynamic_shared: 0,
        }
    }

    #[test]
    fn modules_keep_their_own_variables_and_kernels() {
        let mut dev = Device::new(&H200);
        let a = dev.load_ptx(&module_ptx("set_a"), "a.ptx").unwrap();
        let b = dev.load_ptx(&module_ptx("set_b"), "b.ptx").unwrap();
        let var = |dev: &Device, id: ModuleId| {
            let v = &dev.module_by_id(id).unwrap().program.vars[0];
            (v.addr, v.size)
        };
        let (va, vb) = (var(&dev, a), var(&dev, b));
        assert!(
            va.0 + va.1 <= vb.0,
            "module b's variable {vb:?} overlaps a's {va:?}"
        );
        let fa = dev.function(a, "set_a").unwrap();
        let fb = dev.function(b, "set_b").unwrap();
        assert!(dev.function(a, "set_b").is_err(), "set_b is not module a's");
        for (f, value) in [(fa, 11u32), (fb, 22)] {
            dev.launch_function(
                f,
                "set",
                one_thread(),
                &[KernelArg::U32(value)],
                LaunchOptions::default(),
                &mut NoObserver,
                &mut |_, _| {},
            )
            .unwrap();
        }
        let read = |dev: &Device, addr: u64| {
            let mut w = [0u8; 4];
            dev.memcpy_dtoh(&mut w, addr).unwrap();
            u32::from_le_bytes(w)
        };
        assert_eq!((read(&dev, va.0), read(&dev, vb.0)), (11, 22));
        // The name-based launch uses the module loaded last.
        assert!(dev.kernel_for_launch("set_b").is_ok());
        assert!(dev.kernel_for_launch("set_a").is_err());
    }

    #[test]
    fn errors_carry_cudas_codes() {
        let mut dev = Device::new(&H200);
        let a = dev.load_ptx(&module_ptx("set_a"), "a.ptx").unwrap();
        let e = dev.function(a, "nope").unwrap_err();
        assert_eq!(e.cuda_error(), CudaError::InvalidDeviceFunction);
        assert_eq!(e.cuda_error().code(), 98);
        let e = dev
            .load_ptx(".version 8.0\n.target sm_90\nbogus", "bad.ptx")
            .unwrap_err();
        assert_eq!(e.cuda_error(), CudaError::InvalidPtx);
        // CUDA 13 on the H200 answers a block of more than 1024 threads with
        // cudaErrorInvalidValue (tests/hw/h200/occupancy.csv), an empty grid with
        // cudaErrorInvalidConfiguration.
        let mut empty = one_thread();
        empty.grid = [0, 1, 1];
        let too_big = empty;
        let f = dev.function(a, "set_a").unwrap();
        let e = dev
            .launch_function(
                f,
                "set_a",
                too_big,
                &[KernelArg::U32(1)],
                LaunchOptions::default(),
                &mut NoObserver,
                &mut |_, _| {},
            )
            .unwrap_err();
        assert_eq!(e.cuda_error(), CudaError::InvalidConfiguration, "{e}");
    }

    /// A store through a null pointer faults, located, and the launch returns
    /// cudaErrorIllegalAddress (700, driver_types.h: "a load or store instruction on an
    /// invalid memory address").
    #[test]
    fn an_out_of_bounds_store_is_an_illegal_address() {
        let ptx = ".version 8.0\n.target sm_90\n.address_size 64\n\
                   .visible .entry oob(.param .u64 p)\n{\n\t.reg .b64 %rd<2>;\n\
                   \tld.param.u64 %rd1, [p];\n\tst.global.u32 [%rd1], 1;\n\tret;\n}\n";
        let mut dev = Device::new(&H200);
        let m = dev.load_ptx(ptx, "oob.ptx").unwrap();
        let f = dev.function(m, "oob").unwrap();
        let e = dev
            .launch_function(
                f,
                "oob",
                one_thread(),
                &[KernelArg::U64(0)],
                LaunchOptions::default(),
                &mut NoObserver,
                &mut |_, _| {},
            )
            .unwrap_err();
        assert!(matches!(e, RuntimeError::Fault(_)), "{e}");
        assert_eq!(
            (e.cuda_error(), e.cuda_error().code()),
            (CudaError::IllegalAddress, 700)
        );
        assert!(
            e.to_string().contains("oob.ptx") || e.to_string().contains("line"),
            "{e}"
        );
    }
}
