//! Runs a launch spec end to end: find or compile the PTX, load it, allocate and fill the
//! buffers and symbols, launch each kernel with the memory models attached, write the outputs,
//! and collect a report.
//!
//! Before anything runs, `[outputs]` paths are checked against the spec's inputs (an output may
//! not overwrite the spec, its source, its PTX or a `file:` init) and the buffers against the
//! simulated-memory budget; initial bytes become device memory by move, outputs leave it by move,
//! and output files are written atomically.
//!
//! PTX files written by `gpumemsim compile` start with comment lines that this module reads back:
//! `// gpumemsim-kernel: NAME = MANGLED` maps the C++ name a spec uses to the PTX entry, and
//! `// gpumemsim-resources: MANGLED registers=N ...` records what ptxas reported for the kernel,
//! so a committed `.ptx` needs no NVRTC to run.

pub mod isa;
pub mod ptxfile;
pub mod textures;

use std::path::{Path, PathBuf};

use thiserror::Error;

use crate::check::initcheck::GlobalShadow;
use crate::check::{CheckObserver, CheckOptions};
use crate::exec::simt::LaunchDims;
use crate::frontend::nvrtc::FrontendError;
use crate::gpu::occupancy::{driver_shared_config, occupancy, Occupancy, OccupancyInput};
use crate::ir::types::ScalarType;
use crate::ir::Kernel;
use crate::mem::cache::{Hierarchy, L2};
use crate::report::detail::LaunchDetail;
use crate::report::profile::Profile;
use crate::report::sample::{Sampler, Samples};
use crate::report::{LaunchReport, Report};
use crate::runtime::{
    arg_for_param, Device, FuncAttribute, KernelArg, LaunchOptions, RuntimeError,
};
use crate::sched::Replay;
use crate::spec::{Arg, Memcpy, Place, Spec, SpecError, Step};
use ptxfile::PtxFile;

/// Why a run failed.
#[derive(Debug, Error)]
pub enum RunError {
    /// The spec is wrong.
    #[error("{0}")]
    Spec(#[from] SpecError),
    /// NVRTC failed or is missing.
    #[error("{0}")]
    Frontend(#[from] FrontendError),
    /// The runtime rejected something, or the kernel faulted.
    #[error("{0}")]
    Runtime(#[from] RuntimeError),
    /// A launch's arguments do not fit its kernel.
    #[error("{file}: {key}: {message}")]
    Launch {
        /// The spec file.
        file: String,
        /// The key (`[[launch]] #2 args[1]`).
        key: String,
        /// What is wrong.
        message: String,
    },
    /// `diff` could not read or pair its reports.
    #[error("{0}")]
    Diff(#[from] crate::report::diff::DiffError),
    /// The HTML report could not be rendered.
    #[error("{0}")]
    Html(#[from] crate::report::html::HtmlError),
    /// `compare` found metrics that differ from the hardware's.
    #[error("simulated metrics differ from the hardware's")]
    Mismatch,
    /// A `--check` found errors (listed in the report).
    #[error("{errors} sanitizer error{} found (listed in the report's checks)", if *.errors == 1 { "" } else { "s" })]
    Checks {
        /// Groups of errors found.
        errors: usize,
    },
    /// `--isa sass` and no SASS can be had for the module.
    #[error("{path}: --isa sass: no SASS for this PTX: {why}")]
    NoSass {
        /// Where the `.sass` would be.
        path: String,
        /// Why none could be made (names the pip package of a missing tool).
        why: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {message}")]
    Io {
        /// The file.
        path: String,
        /// What happened.
        message: String,
    },
}

impl RunError {
    /// The exit status the CLI uses: 1 for a fault inside a simulated kernel, 2 for bad input.
    pub fn exit_code(&self) -> i32 {
        match self {
            RunError::Runtime(RuntimeError::Fault(_))
            | RunError::Mismatch
            | RunError::Checks { .. } => 1,
            _ => 2,
        }
    }
}

/// Writes one `[outputs]` entry (when asked) and keeps its bytes in the report under `key`.
fn emit_output(
    report: &mut Report,
    opts: &RunOptions,
    key: String,
    path: &Path,
    host: Vec<u8>,
) -> Result<(), RunError> {
    if opts.write_outputs {
        write_file(path, &host)?;
    }
    let name = path
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_default();
    report.outputs.push((key, name, host));
    Ok(())
}

/// How to run a spec.
#[derive(Clone, Debug)]
pub struct RunOptions {
    /// Launch options (instruction budget).
    pub launch: LaunchOptions,
    /// Compile the `.cu` with NVRTC even when the spec names a `.ptx`.
    pub recompile: bool,
    /// Write the `[outputs]` files.
    pub write_outputs: bool,
    /// How the PTX is lowered (the ptxas passes, front-end limits).
    pub ptx: crate::ptx::lower::LowerOptions,
    /// The simulated-memory budget in bytes (`None`: [`crate::runtime::default_memory_budget`],
    /// half of the host's memory and at most the GPU's).
    pub memory_budget: Option<u64>,
    /// The sanitizers to run (`--check`).
    pub checks: CheckOptions,
    /// Record the HTML report's detail: one representative warp instance per memory
    /// instruction ([`crate::report::sample`]), the source and the PTX.
    pub samples: bool,
    /// Model L1, L2 and DRAM (`--no-caches` turns them off, for speed).
    pub caches: bool,
    /// Which instruction set runs ([`isa`]: SASS where obtainable, by default).
    pub isa: Isa,
}

pub use isa::{Isa, IsaChoice};

impl Default for RunOptions {
    fn default() -> Self {
        RunOptions {
            launch: LaunchOptions::default(),
            recompile: false,
            write_outputs: true,
            ptx: crate::ptx::lower::LowerOptions::default(),
            memory_budget: None,
            checks: CheckOptions::default(),
            samples: false,
            caches: true,
            isa: Isa::Auto,
        }
    }
}

/// The PTX a spec runs: its committed `.ptx`, or the `.cu` compiled with NVRTC.
pub fn spec_ptx(spec: &Spec, recompile: bool) -> Result<PtxFile, RunError> {
    match (&spec.ptx, &spec.source) {
        (Some(p), _) if (!recompile && p.exists()) || spec.source.is_none() => PtxFile::read(p),
        (_, Some(src)) => compile_spec(spec, src),
        (Some(p), None) => PtxFile::read(p),
        (None, None) => Err(RunError::Launch {
            file: spec.path.display().to_string(),
            key: "source".into(),
            message: "the spec names neither `source` nor `ptx`".into(),
        }),
    }
}

/// Compiles the spec's `.cu` with NVRTC: PTX for `compute_90` with the launches' kernel names as
/// name expressions, and the ptxas resource usage of an `sm_90` build.
pub fn compile_spec(spec: &Spec, src: &Path) -> Result<PtxFile, RunError> {
    let text = std::fs::read_to_string(src).map_err(|e| RunError::Io {
        path: src.display().to_string(),
        message: e.to_string(),
    })?;
    let mut names: Vec<String> = Vec::new();
    for l in &spec.launches {
        if !names.contains(&l.kernel) {
            names.push(l.kernel.clone());
        }
    }
    let opts = crate::frontend::nvrtc::CompileOptions::default();
    let compiled = crate::frontend::nvrtc::compile_cuda(src, &text, &names, &opts)?;
    let resources = crate::frontend::nvrtc::kernel_resources(src, &text, &names, "sm_90")?;
    Ok(PtxFile::from_compiled(
        src,
        compiled.ptx,
        compiled.lowered_names,
        resources,
    ))
}

/// Runs every launch of `spec` and returns the report.
///
/// Under [`Isa::Auto`], a SASS run that stops at something the SASS executor does not model
/// (a [`crate::exec::fault::FaultKind::Unsupported`] fault, never a fault of the kernel) is run
/// again as PTX, and the report says why ([`isa::rerun_reason`]).
pub fn run_spec(
    spec: &Spec,
    opts: &RunOptions,
    progress: &mut dyn FnMut(usize, u64, u64),
) -> Result<Report, RunError> {
    let mut ran = None;
    match run_spec_as(spec, opts, progress, &mut ran) {
        Err(RunError::Runtime(RuntimeError::Fault(f)))
            if opts.isa == Isa::Auto
                && ran.as_ref().is_some_and(|c: &IsaChoice| c.isa == "sass")
                && matches!(f.kind, crate::exec::fault::FaultKind::Unsupported { .. }) =>
        {
            let again = RunOptions {
                isa: Isa::Ptx,
                ..opts.clone()
            };
            let mut r = run_spec_as(spec, &again, progress, &mut None)?;
            r.isa_reason = isa::rerun_reason(&f);
            Ok(r)
        }
        r => r,
    }
}

fn run_spec_as(
    spec: &Spec,
    opts: &RunOptions,
    progress: &mut dyn FnMut(usize, u64, u64),
    ran: &mut Option<IsaChoice>,
) -> Result<Report, RunError> {
    let file = spec.path.display().to_string();
    if opts.write_outputs {
        check_outputs(spec)?;
    }
    let ptx = spec_ptx(spec, opts.recompile)?;
    let mut dev = Device::new(spec.gpu);
    if let Some(b) = opts.memory_budget {
        dev.set_memory_budget(b);
    }
    dev.load_ptx_with(&ptx.text, &ptx.path.display().to_string(), &opts.ptx)?;
    let isa = isa::load(&mut dev, &ptx, opts.isa)?;
    *ran = Some(isa.clone());
    // Buffers: the budget is checked for all of them before any byte is generated, and each
    // buffer's initial bytes become its device memory (moved, not copied).
    let located = |key: String, e: RuntimeError| RunError::Launch {
        file: file.clone(),
        key,
        message: e.to_string(),
    };
    let mut pending = 0u64;
    for b in &spec.buffers {
        dev.check_memory_after(&format!("buffer '{}'", b.name), b.byte_len(), pending)
            .map_err(|e| located(format!("[buffers.{}] len", b.name), e))?;
        pending += b.byte_len();
    }
    let mut buffers: Vec<(String, u64, u64)> = Vec::new();
    let mut shadow = GlobalShadow::default();
    for b in &spec.buffers {
        let key = format!("[buffers.{}] len", b.name);
        let bytes = b.initial_bytes()?;
        let len = bytes.len() as u64;
        let ptr = dev
            .malloc_with(bytes, &b.name)
            .map_err(|e| located(key, e))?;
        if opts.checks.initcheck {
            shadow.alloc(ptr, len, b.init != crate::spec::Init::Uninit);
        }
        buffers.push((b.name.clone(), ptr, len));
    }
    for s in &spec.symbols {
        let size = dev.get_symbol_size(&s.name).unwrap_or(0);
        if s.byte_len() > size {
            return Err(RunError::Launch {
                file: file.clone(),
                key: format!("[symbols.{}]", s.name),
                message: format!(
                    "{} bytes ({} x {}) do not fit '{}' ({size} bytes)",
                    s.byte_len(),
                    s.len,
                    s.ty,
                    s.name
                ),
            });
        }
        if s.init == crate::spec::Init::Uninit {
            continue;
        }
        let bytes = s.initial_bytes()?;
        dev.memcpy_to_symbol(&s.name, &bytes, 0)
            .map_err(|e| RunError::Launch {
                file: file.clone(),
                key: format!("[symbols.{}]", s.name),
                message: e.to_string(),
            })?;
    }
    let objects = crate::run::textures::create(spec, &mut dev, &buffers, &file)?;
    let mut report = Report {
        spec: file.clone(),
        gpu: spec.gpu.name.to_string(),
        isa: isa.isa.to_string(),
        isa_reason: isa.reason,
        launches: Vec::new(),
        checks: Vec::new(),
        outputs: Vec::new(),
    };
    let mut cx = StepRun {
        spec,
        opts,
        ptx: &ptx,
        dev: &mut dev,
        buffers: &buffers,
        objects: &objects,
        report: &mut report,
        progress,
        file: file.clone(),
        shadow: &mut shadow,
        l2: None,
    };
    cx.steps(&spec.steps)?;
    for o in &spec.outputs {
        if o.symbol {
            let key = format!("[outputs] sym:{}", o.buffer);
            let located = |e: RuntimeError| RunError::Launch {
                file: file.clone(),
                key: key.clone(),
                message: e.to_string(),
            };
            let size = dev.get_symbol_size(&o.buffer).map_err(located)?;
            let mut host = host_bytes(size).map_err(located)?;
            dev.memcpy_from_symbol(&o.buffer, &mut host, 0)
                .map_err(located)?;
            emit_output(
                &mut report,
                opts,
                format!("sym:{}", o.buffer),
                &o.path,
                host,
            )?;
            continue;
        }
        if o.array {
            let host = crate::run::textures::array_output(spec, &dev, o, &file)?;
            emit_output(&mut report, opts, o.buffer.clone(), &o.path, host)?;
            continue;
        }
        let Some((_, ptr, len)) = buffers.iter().find(|b| b.0 == o.buffer) else {
            return Err(RunError::Launch {
                file: file.clone(),
                key: format!("[outputs] {}", o.buffer),
                message: format!("no buffer named '{}'", o.buffer),
            });
        };
        // The device is done with: its bytes move into the report (no second copy).
        let host = dev.take_allocation(*ptr).ok_or_else(|| RunError::Launch {
            file: file.clone(),
            key: format!("[outputs] {}", o.buffer),
            message: format!("buffer '{}' ({len} bytes) is no longer allocated", o.buffer),
        })?;
        emit_output(&mut report, opts, o.buffer.clone(), &o.path, host)?;
    }
    Ok(report)
}

/// What running the steps needs.
struct StepRun<'a, 'p> {
    spec: &'a Spec,
    opts: &'a RunOptions,
    ptx: &'a PtxFile,
    dev: &'a mut Device,
    buffers: &'a [(String, u64, u64)],
    /// Texture and surface names and their handles.
    objects: &'a [(String, u64)],
    report: &'a mut Report,
    progress: &'p mut dyn FnMut(usize, u64, u64),
    file: String,
    /// initcheck's record of the global bytes written (`--check initcheck`).
    shadow: &'a mut GlobalShadow,
    /// The L2 of the last launch, when the spec keeps caches warm.
    l2: Option<L2>,
}

impl StepRun<'_, '_> {
    fn steps(&mut self, steps: &[Step]) -> Result<(), RunError> {
        for st in steps {
            match st {
                Step::Launch(i) => self.launch(*i)?,
                Step::Memcpy(m) => {
                    self.memcpy(m)?;
                    if let Place::Buffer { index, offset } = m.dst {
                        self.shadow.write(self.buffers[index].1 + offset, m.bytes);
                    }
                }
                Step::Memset(m) => {
                    let ptr = self.buffers[m.buffer].1 + m.offset;
                    self.dev
                        .memset(ptr, m.value, m.bytes)
                        .map_err(|e| self.located(&m.key, e))?;
                    self.shadow.write(ptr, m.bytes);
                }
                Step::Free { buffer, key } => {
                    let ptr = self.buffers[*buffer].1;
                    self.dev.free(ptr).map_err(|e| self.located(key, e))?;
                    self.shadow.free(ptr);
                }
                Step::Repeat { times, steps, .. } => {
                    for _ in 0..*times {
                        self.steps(steps)?;
                    }
                }
            }
        }
        Ok(())
    }

    fn located(&self, key: &str, e: RuntimeError) -> RunError {
        RunError::Launch {
            file: self.file.clone(),
            key: key.to_string(),
            message: e.to_string(),
        }
    }

    fn memcpy(&mut self, m: &Memcpy) -> Result<(), RunError> {
        let addr = |p: &Place| match p {
            Place::Buffer { index, offset } => Some(self.buffers[*index].1 + offset),
            Place::Symbol { .. } => None,
        };
        let (da, sa) = (addr(&m.dst), addr(&m.src));
        match (&m.dst, &m.src, da, sa) {
            (_, _, Some(d), Some(s)) => self
                .dev
                .memcpy_dtod(d, s, m.bytes)
                .map_err(|e| self.located(&m.key, e)),
            (Place::Symbol { name, offset }, _, None, Some(s)) => {
                // cudaMemcpyToSymbol(sym, ptr, bytes, offset, cudaMemcpyDeviceToDevice).
                let mut tmp = host_bytes(m.bytes).map_err(|e| self.located(&m.key, e))?;
                self.dev
                    .memcpy_dtoh(&mut tmp, s)
                    .and_then(|()| self.dev.memcpy_to_symbol(name, &tmp, *offset))
                    .map_err(|e| self.located(&format!("{} dst", m.key), e))
            }
            (_, Place::Symbol { name, offset }, Some(d), None) => {
                // cudaMemcpyFromSymbol(ptr, sym, bytes, offset, cudaMemcpyDeviceToDevice).
                let mut tmp = host_bytes(m.bytes).map_err(|e| self.located(&m.key, e))?;
                self.dev
                    .memcpy_from_symbol(name, &mut tmp, *offset)
                    .and_then(|()| self.dev.memcpy_htod(d, &tmp))
                    .map_err(|e| self.located(&format!("{} src", m.key), e))
            }
            _ => Err(RunError::Launch {
                file: self.file.clone(),
                key: m.key.clone(),
                message: "one side of a copy must be a buffer".into(),
            }),
        }
    }

    fn launch(&mut self, i: usize) -> Result<(), RunError> {
        let (spec, opts, ptx) = (self.spec, self.opts, self.ptx);
        let file = self.file.clone();
        let buffers = self.buffers;
        let dev = &mut *self.dev;
        let l = &spec.launches[i];
        let key = l.key.clone();
        let n = self.report.launches.len();
        let progress = &mut *self.progress;
        let mangled = ptx.resolve(&l.kernel).ok_or_else(|| RunError::Launch {
            file: file.clone(),
            key: format!("{key} kernel"),
            message: format!(
                "no kernel named '{}' in {} (kernels: {})",
                l.kernel,
                ptx.path.display(),
                ptx.kernel_list()
            ),
        })?;
        let kernel = dev.kernel_for_launch(&mangled)?.clone();
        let args =
            kernel_args(&kernel, &l.args, buffers, self.objects).map_err(|(k, message)| {
                RunError::Launch {
                    file: file.clone(),
                    key: format!("{key} {k}"),
                    message,
                }
            })?;
        if let Some(v) = l.max_dynamic_shared {
            dev.func_set_attribute(&mangled, FuncAttribute::MaxDynamicSharedMemorySize(v))?;
        }
        if let Some(v) = l.carveout {
            dev.func_set_attribute(&mangled, FuncAttribute::PreferredSharedMemoryCarveout(v))?;
        }
        let dims = LaunchDims {
            grid: l.grid,
            block: l.block,
            dynamic_shared: l.shared,
        };
        let resources = ptx.resources(&mangled).cloned();
        let occ_input = resources.as_ref().map(|r| OccupancyInput {
            block_threads: dims.threads_per_block(),
            regs_per_thread: r.registers,
            static_shared: r.static_shared,
            dynamic_shared: l.shared,
            carveout_percent: l.carveout,
            max_dynamic_shared: l.max_dynamic_shared,
        });
        let occ = occ_input.as_ref().map(|i| occupancy(spec.gpu, i));
        if let Some(Err(e)) = &occ {
            if e.cuda_name() == "cudaErrorLaunchOutOfResources" {
                return Err(RuntimeError::Cuda {
                    error: crate::runtime::CudaError::LaunchOutOfResources,
                    message: e.to_string(),
                }
                .into());
            }
        }
        let occ: Option<Occupancy> = occ.and_then(|r| r.ok());
        let mut profile = Profile::new(spec.gpu, kernel.code.len());
        profile.fast_paths = opts.launch.fast_paths;
        if opts.caches {
            profile.caches = Some(replay(spec, self.l2.take(), &kernel, dims, occ.as_ref()));
        }
        let run = Observed {
            dev,
            kernel: &mangled,
            name: &l.kernel,
            dims,
            args: &args,
            opts: opts.launch,
            samples: opts.samples.then_some((spec.gpu, kernel.code.len())),
        };
        let (stats, samples) = if opts.checks.any() {
            // The checks watch beside the memory models; without them the models observe alone
            // and the executor runs exactly as before.
            let mut obs =
                CheckObserver::new(&mut profile, opts.checks, self.shadow, &kernel, dims.block);
            let r = run.launch(&mut obs, &mut |d, t| progress(n, d, t))?;
            let found = std::mem::take(&mut obs.found).finish(&kernel, &l.kernel, n + 1);
            crate::check::merge(&mut self.report.checks, found);
            r
        } else {
            run.launch(&mut profile, &mut |d, t| progress(n, d, t))?
        };
        let caches = profile.finish_caches();
        let mut report = LaunchReport::new(
            spec, &l.kernel, &kernel, dims, &profile, stats, resources, occ,
        );
        if let Some(h) = caches {
            report.add_caches(&h, spec.warm_caches);
            if spec.warm_caches {
                self.l2 = Some(h.into_l2());
            }
        }
        if let Some(samples) = samples {
            report.detail = Some(LaunchDetail::new(
                spec,
                &kernel,
                &ptx.path,
                samples,
                occ_input.as_ref(),
            ));
        }
        self.report.launches.push(report);
        Ok(())
    }
}

/// One launch to run under an observer, with the HTML report's sample recorder around it when
/// `samples` names the GPU and the kernel's length.
struct Observed<'r> {
    dev: &'r mut Device,
    kernel: &'r str,
    name: &'r str,
    dims: LaunchDims,
    args: &'r [KernelArg],
    opts: LaunchOptions,
    samples: Option<(&'static crate::gpu::config::GpuConfig, usize)>,
}

impl Observed<'_> {
    fn launch<O: crate::exec::simt::Observer>(
        self,
        obs: &mut O,
        progress: &mut dyn FnMut(u64, u64),
    ) -> Result<(crate::exec::simt::LaunchStats, Option<Samples>), RuntimeError> {
        let (k, name, dims, args, opts) = (self.kernel, self.name, self.dims, self.args, self.opts);
        match self.samples {
            Some((gpu, code_len)) => {
                let mut sampler = Sampler::new(obs, gpu, code_len);
                let stats = self
                    .dev
                    .launch(k, name, dims, args, opts, &mut sampler, progress)?;
                Ok((stats, Some(sampler.finish())))
            }
            None => Ok((
                self.dev.launch(k, name, dims, args, opts, obs, progress)?,
                None,
            )),
        }
    }
}

/// The caches of one launch behind the block scheduler: L1 is what the driver's
/// shared-memory size leaves of the SM's SRAM; L2 is empty unless the spec keeps it warm.
fn replay(
    spec: &Spec,
    warm_l2: Option<L2>,
    kernel: &Kernel,
    dims: LaunchDims,
    occ: Option<&Occupancy>,
) -> Replay {
    let gpu = spec.gpu;
    let warps = dims.threads_per_block().div_ceil(gpu.warp_size).max(1);
    let (blocks_per_sm, config) = match occ {
        Some(o) => (o.blocks_per_sm, u64::from(o.launch_shared_config_bytes)),
        None => {
            let l = (gpu.max_warps_per_sm / warps).clamp(1, gpu.max_blocks_per_sm);
            let shared = kernel.static_shared + u64::from(dims.dynamic_shared);
            let per_block = (shared + u64::from(gpu.reserved_shared_per_block)).div_ceil(128) * 128;
            let c = driver_shared_config(
                gpu,
                per_block,
                shared,
                u64::from(l),
                dims.threads_per_block(),
            );
            (l, c)
        }
    };
    let l1 = u64::from(gpu.l1_shared_bytes_per_sm).saturating_sub(config);
    let sms = gpu.sm_count as usize;
    let l2 = match warm_l2 {
        Some(l2) if spec.warm_caches => l2,
        _ => L2::new(u64::from(gpu.l2_bytes)),
    };
    let h = Hierarchy::with_l2(sms, l1, l2, kernel.code.len());
    Replay::new(h, sms, blocks_per_sm as usize, warps as usize)
}

/// `n` zero bytes of host memory, reserved fallibly.
fn host_bytes(n: u64) -> Result<Vec<u8>, RuntimeError> {
    let mut v = Vec::new();
    usize::try_from(n)
        .ok()
        .and_then(|k| v.try_reserve_exact(k).ok())
        .ok_or_else(|| RuntimeError::Cuda {
            error: crate::runtime::CudaError::MemoryAllocation,
            message: format!("cannot allocate {n} bytes of host memory"),
        })?;
    v.resize(n as usize, 0);
    Ok(v)
}

/// Writes `bytes` to `path` atomically: into a temporary file in the same directory, then
/// renamed over `path`, so a failed write never leaves a half-written file behind.
pub fn write_file(path: &Path, bytes: &[u8]) -> Result<(), RunError> {
    let io = |p: &Path, e: std::io::Error| RunError::Io {
        path: p.display().to_string(),
        message: e.to_string(),
    };
    let dir = match path.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    std::fs::create_dir_all(&dir).map_err(|e| io(&dir, e))?;
    let name = path
        .file_name()
        .map(|n| n.to_string_lossy().into_owned())
        .unwrap_or_default();
    let tmp = dir.join(format!(".{name}.gpumemsim-{}.tmp", std::process::id()));
    let result = std::fs::write(&tmp, bytes)
        .map_err(|e| io(&tmp, e))
        .and_then(|()| std::fs::rename(&tmp, path).map_err(|e| io(path, e)));
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result
}

/// `path` made absolute with symbolic links and `..` resolved, also when the file itself does
/// not exist yet (its directory is resolved then).
fn canonical(path: &Path) -> PathBuf {
    if let Ok(p) = std::fs::canonicalize(path) {
        return p;
    }
    let abs = std::path::absolute(path).unwrap_or_else(|_| path.to_path_buf());
    match (abs.parent(), abs.file_name()) {
        (Some(dir), Some(name)) => std::fs::canonicalize(dir)
            .map(|d| d.join(name))
            .unwrap_or(abs.clone()),
        _ => abs,
    }
}

/// The files a spec reads, with the key that names each: the spec itself, `source`, `ptx`
/// (when `with_ptx`) and every `file:` init.
pub fn spec_inputs(spec: &Spec, with_ptx: bool) -> Vec<(String, PathBuf)> {
    let mut v = vec![("the spec itself".to_string(), spec.path.clone())];
    if let Some(p) = &spec.source {
        v.push(("source".into(), p.clone()));
    }
    if let (true, Some(p)) = (with_ptx, &spec.ptx) {
        v.push(("ptx".into(), p.clone()));
    }
    for (kind, list) in [("buffers", &spec.buffers), ("symbols", &spec.symbols)] {
        for b in list {
            if let crate::spec::Init::File(p) = &b.init {
                v.push((format!("[{kind}.{}] init", b.name), p.clone()));
            }
        }
    }
    v
}

/// Refuses to write `path` (named by `key`) when it is one of `inputs`.
pub fn check_not_input(
    spec: &Spec,
    key: &str,
    path: &Path,
    inputs: &[(String, PathBuf)],
) -> Result<(), RunError> {
    let out = canonical(path);
    match inputs.iter().find(|(_, p)| canonical(p) == out) {
        Some((what, _)) => Err(RunError::Launch {
            file: spec.path.display().to_string(),
            key: key.to_string(),
            message: format!(
                "{} is also an input of the spec ({what}); refusing to overwrite it (choose another output path)",
                path.display()
            ),
        }),
        None => Ok(()),
    }
}

/// Checks that no `[outputs]` entry would overwrite an input of the spec or another output.
pub fn check_outputs(spec: &Spec) -> Result<(), RunError> {
    let mut inputs = spec_inputs(spec, true);
    for o in &spec.outputs {
        let name = if o.symbol {
            format!("sym:{}", o.buffer)
        } else {
            o.buffer.clone()
        };
        let key = format!("[outputs] {name}");
        check_not_input(spec, &key, &o.path, &inputs)?;
        inputs.push((format!("the output of [outputs] {name}"), o.path.clone()));
    }
    Ok(())
}

/// Converts spec arguments to kernel arguments, checked against the PTX parameter types.
/// A buffer goes to a 64-bit parameter; an integer must fit the parameter as signed or unsigned.
pub fn kernel_args(
    kernel: &Kernel,
    args: &[Arg],
    buffers: &[(String, u64, u64)],
    objects: &[(String, u64)],
) -> Result<Vec<KernelArg>, (String, String)> {
    if args.len() != kernel.params.len() {
        return Err((
            "args".into(),
            format!(
                "the kernel takes {} arguments ({}), {} given",
                kernel.params.len(),
                describe_params(kernel),
                args.len()
            ),
        ));
    }
    let mut out = Vec::new();
    for (i, (a, p)) in args.iter().zip(&kernel.params).enumerate() {
        let key = format!("args[{i}]");
        let v = match a {
            Arg::Buffer { name, offset } => {
                let Some((_, ptr, _)) = buffers.iter().find(|b| &b.0 == name) else {
                    return Err((key, format!("no buffer named \"{name}\"")));
                };
                if p.size != 8 || p.ty.is_float() {
                    return Err((
                        key,
                        format!(
                            "buffer \"{name}\" passed for a .{} parameter (a pointer is .u64)",
                            ty_name(p.ty)
                        ),
                    ));
                }
                KernelArg::U64(*ptr + offset)
            }
            Arg::Texture(name) | Arg::Surface(name) => {
                let Some((_, h)) = objects.iter().find(|o| &o.0 == name) else {
                    return Err((key, format!("no texture or surface named \"{name}\"")));
                };
                if p.size != 8 || p.ty.is_float() {
                    return Err((
                        key,
                        format!(
                            "\"{name}\" passed for a .{} parameter (cudaTextureObject_t and cudaSurfaceObject_t are .u64)",
                            ty_name(p.ty)
                        ),
                    ));
                }
                KernelArg::U64(*h)
            }
            Arg::Int(v) => {
                if !p.ty.is_float() && p.size < 8 {
                    let bits = p.size * 8;
                    let (min, max) = (-(1i64 << (bits - 1)), (1i64 << bits) - 1);
                    if *v < min || *v > max {
                        return Err((
                            key,
                            format!("{v} does not fit the .{} parameter", ty_name(p.ty)),
                        ));
                    }
                }
                arg_for_param(p.ty, p.size, Some(*v), None).ok_or_else(|| {
                    (
                        key.clone(),
                        format!(
                            "cannot pass an integer for a {}-byte .{} parameter",
                            p.size,
                            ty_name(p.ty)
                        ),
                    )
                })?
            }
            Arg::Float(f) => {
                if !p.ty.is_float() {
                    return Err((
                        key,
                        format!("{f} is a float, the parameter is .{}", ty_name(p.ty)),
                    ));
                }
                arg_for_param(p.ty, p.size, None, Some(*f)).ok_or_else(|| {
                    (
                        key.clone(),
                        format!("cannot pass a float for a .{} parameter", ty_name(p.ty)),
                    )
                })?
            }
        };
        out.push(v);
    }
    Ok(out)
}

fn ty_name(t: ScalarType) -> String {
    format!("{t:?}").to_lowercase()
}

fn describe_params(k: &Kernel) -> String {
    k.params
        .iter()
        .map(|p| format!(".{}", ty_name(p.ty)))
        .collect::<Vec<_>>()
        .join(", ")
}

/// The export module's parameter kinds for launch `l` (pointers where the spec passes a buffer).
pub fn param_kinds(params: &[crate::ir::Param], args: &[Arg]) -> Vec<crate::export::ParamKind> {
    use crate::export::ParamKind as P;
    params
        .iter()
        .enumerate()
        .map(|(i, p)| match (p.ty, p.size) {
            (_, 8) if matches!(args.get(i), Some(Arg::Buffer { .. })) => P::Pointer,
            (_, 8) if matches!(args.get(i), Some(Arg::Texture(_) | Arg::Surface(_))) => P::U64,
            (ScalarType::F32, 4) => P::F32,
            (ScalarType::F64, 8) => P::F64,
            (ScalarType::S8, 1) => P::I8,
            (ScalarType::S16, 2) => P::I16,
            (ScalarType::S32, 4) => P::I32,
            (ScalarType::S64, 8) => P::I64,
            (_, 1) => P::U8,
            (_, 2) => P::U16,
            (_, 4) => P::U32,
            (_, 8) => P::U64,
            (_, n) => P::Other(n),
        })
        .collect()
}

/// Where `gpumemsim compile` writes a spec's PTX: the spec's `ptx`, or the source with `.ptx`.
pub fn ptx_path_for(spec: &Spec) -> Option<PathBuf> {
    spec.ptx
        .clone()
        .or_else(|| spec.source.as_ref().map(|s| s.with_extension("ptx")))
}

/// The standalone CUDA host program for `spec` (see [`crate::export::cuda`]) that runs the
/// spec's PTX through the driver API, written to be saved at `output` (its directory decides
/// the relative paths of `file:` inputs).
pub fn export_cuda(spec: &Spec, output: Option<&Path>) -> Result<String, RunError> {
    let ptx = spec_ptx(spec, false)?;
    let mut dev = Device::new(spec.gpu);
    dev.load_ptx(&ptx.text, &ptx.path.display().to_string())?;
    let mut params = Vec::new();
    let mut names = Vec::new();
    for l in &spec.launches {
        let mangled = ptx.resolve(&l.kernel).ok_or_else(|| RunError::Launch {
            file: spec.path.display().to_string(),
            key: format!("{} kernel", l.key),
            message: format!("no kernel named '{}'", l.kernel),
        })?;
        // A kernel gpumemsim cannot run yet still gets a host program: a GPU runs it, and
        // its recorded results are what gpumemsim is to be compared with.
        let ps = match dev.kernel_for_launch(&mangled) {
            Ok(k) => &k.params[..],
            Err(e) => dev.entry_params(&mangled).ok_or(e)?,
        };
        params.push(param_kinds(ps, &l.args));
        names.push(mangled);
    }
    let dir = output
        .and_then(|p| p.parent())
        .map(|p| {
            if p.as_os_str().is_empty() {
                Path::new(".")
            } else {
                p
            }
        })
        .map(Path::to_path_buf)
        .unwrap_or_else(|| spec.dir.clone());
    crate::export::cuda::cuda_host_program_ptx(spec, &params, &ptx.text, &names, &dir).map_err(
        |e| RunError::Launch {
            file: spec.path.display().to_string(),
            key: "export".into(),
            message: e.to_string(),
        },
    )
}
