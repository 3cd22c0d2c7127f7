//! Reports: per-launch metrics under Nsight Compute's names, per-source-line attribution, and
//! the text a person reads (worst lines first, in the seeds' words: bank, N-way conflict,
//! broadcast, sector, coalesced, spill).

pub mod compare;
pub mod detail;
pub mod diff;
pub mod html;
pub mod inst_mix;
pub mod profile;
pub mod sample;
pub mod source_page;
pub mod text;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::exec::simt::{LaunchDims, LaunchStats};
use crate::frontend::nvrtc::KernelResources;
use crate::gpu::occupancy::{Limiter, Occupancy};
use crate::ir::{Kernel, Op};
use crate::mem::counters::MemCounters;
use crate::metrics::{Metric, Source, METRICS};
use crate::spec::Spec;
use inst_mix::{InstMix, SassInst};
use profile::Profile;

/// The report of a whole spec.
#[derive(Clone, Debug, Serialize)]
pub struct Report {
    /// The spec file.
    pub spec: String,
    /// The modelled GPU.
    pub gpu: String,
    /// The instruction set the kernels ran in: `"sass"` (sm_90) or `"ptx"`.
    pub isa: String,
    /// Where the SASS came from, or why the PTX ran ([`crate::run::isa`]).
    pub isa_reason: String,
    /// One entry per launch, in order.
    pub launches: Vec<LaunchReport>,
    /// What the sanitizers found (`--check`), grouped by tool, kind, kernel and line.
    pub checks: Vec<crate::check::Finding>,
    /// The `[outputs]` buffers after the last launch: buffer name, output file name, bytes.
    #[serde(skip)]
    pub outputs: Vec<(String, String, Vec<u8>)>,
}

/// The report of one launch.
#[derive(Clone, Debug, Serialize)]
pub struct LaunchReport {
    /// The kernel as the spec names it.
    pub kernel: String,
    /// Its PTX entry name.
    pub ptx_name: String,
    /// The instruction set that ran: `"ptx"` or `"sass"` (sm_90).
    pub isa: String,
    /// Grid size.
    pub grid: [u32; 3],
    /// Block size.
    pub block: [u32; 3],
    /// Dynamic shared memory.
    pub shared: u32,
    /// Metrics by name (Nsight Compute names where one exists, `gpumemsim__` otherwise).
    pub metrics: BTreeMap<String, f64>,
    /// Registers and spills as ptxas reported them, when known.
    pub resources: Option<Resources>,
    /// The occupancy limiter, when known.
    pub occupancy_limiter: Option<String>,
    /// Counters per CUDA source line: under PTX the lines with memory traffic, under SASS
    /// every line that executed an instruction (their thread counters add up to the launch's,
    /// their `smsp__inst_executed.sum` to the launch's less
    /// `gpumemsim__sass_inst_unattributed.sum`, which the H200 counts on no instruction).
    pub lines: Vec<LineReport>,
    /// Under SASS: the instruction mix (executions per opcode and per class).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inst_mix: Option<InstMix>,
    /// What device `printf` printed during the launch, in execution order.
    pub printf: String,
    /// `printf` calls left out once the output reached the 1 MiB printf buffer limit.
    pub printf_dropped: u64,
    /// Whether the caches started cold or kept L2 from the previous launch (`None` when the
    /// caches were not modelled).
    pub caches: Option<String>,
    /// What the HTML report draws (source, PTX, one warp instance per memory instruction),
    /// recorded only when asked for ([`crate::run::RunOptions::samples`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub detail: Option<detail::LaunchDetail>,
}

/// ptxas resource usage.
#[derive(Clone, Debug, Serialize)]
pub struct Resources {
    /// Registers per thread.
    pub registers: u32,
    /// Spill store bytes per thread.
    pub spill_stores: u32,
    /// Spill load bytes per thread.
    pub spill_loads: u32,
    /// Stack frame bytes per thread.
    pub stack_frame: u32,
    /// Static shared memory per block.
    pub static_shared: u32,
}

/// Counters of one source line.
#[derive(Clone, Debug, Serialize)]
pub struct LineReport {
    /// Source file name.
    pub file: String,
    /// 1-based line.
    pub line: u32,
    /// The line's text, when the file can be read.
    pub text: String,
    /// The memory metrics of this line that are not zero.
    pub metrics: BTreeMap<String, u64>,
    /// Worst bank-conflict degree of a shared access on this line (1 = none).
    pub max_way: u32,
    /// Bytes per lane of the line's widest memory access.
    pub width: u32,
    /// When the kernel ran as SASS: the line's instructions that executed, as Nsight Compute's
    /// Source page lists them (address, instruction, executions), in address order.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub sass: Vec<SassInst>,
    /// When the kernel ran as SASS: the line's instruction mix.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub inst_mix: Option<InstMix>,
    /// Thread-level memory accesses on this line (for ideal-sector estimates).
    pub thread_accesses: u64,
    /// Of those, loads.
    pub thread_loads: u64,
    /// Of those, stores.
    pub thread_stores: u64,
    /// What L1, L2 and DRAM did for this line's accesses, when the caches were modelled.
    pub cache: Option<LineCaches>,
    /// The instructions of this line.
    #[serde(skip)]
    pub pcs: Vec<u32>,
    /// Whether the line's shared accesses are loads, stores or both.
    #[serde(skip)]
    pub counters: MemCounters,
}

impl LaunchReport {
    /// Builds the report of one launch.
    #[allow(clippy::too_many_arguments)]
    pub fn new(
        spec: &Spec,
        name: &str,
        kernel: &Kernel,
        dims: LaunchDims,
        profile: &Profile,
        stats: LaunchStats,
        resources: Option<KernelResources>,
        occ: Option<Occupancy>,
    ) -> LaunchReport {
        let sass = kernel.sass.is_some();
        let mut totals = profile.totals();
        // The executor's instruction counts, in their slots.
        if sass {
            totals[Metric::InstExecuted] = stats.warp_instructions;
            totals[Metric::InstUnattributed] = stats.unattributed_warp_instructions;
            totals[Metric::SassThreadInstExecuted] = profile.active_threads;
            totals[Metric::SassThreadInstExecutedPredOn] = stats.thread_instructions;
        } else {
            totals[Metric::PtxInstExecuted] = stats.warp_instructions;
            totals[Metric::PtxThreadInstExecuted] = stats.thread_instructions;
        }
        let isa = if sass {
            Source::SassOnly
        } else {
            Source::PtxOnly
        };
        let mut metrics: BTreeMap<String, f64> = totals
            .metrics(&[Source::Lsu, Source::Texture, isa])
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        let registers = resources
            .as_ref()
            .map(|r| crate::gpu::occupancy::allocated_registers(spec.gpu, r.registers));
        for d in METRICS {
            let v = match d.source {
                Source::LaunchConfig => launch_config_value(d.id, dims, kernel),
                Source::Occupancy => occ
                    .as_ref()
                    .and_then(|o| occupancy_value(d.id, o, registers)),
                _ => None,
            };
            if let Some(v) = v {
                metrics.insert(d.name.to_string(), v);
            }
        }
        let limiter = occ.as_ref().map(|o| {
            match o.limiter {
                Limiter::Registers => "registers",
                Limiter::SharedMemory => "shared memory",
                Limiter::Warps => "warps",
                Limiter::Blocks => "blocks",
            }
            .to_string()
        });
        LaunchReport {
            kernel: name.to_string(),
            ptx_name: kernel.name.clone(),
            isa: if sass { "sass" } else { "ptx" }.to_string(),
            grid: dims.grid,
            block: dims.block,
            shared: dims.dynamic_shared,
            metrics,
            resources: resources.map(|r| Resources {
                registers: r.registers,
                spill_stores: r.spill_stores,
                spill_loads: r.spill_loads,
                stack_frame: r.stack_frame,
                static_shared: r.static_shared,
            }),
            occupancy_limiter: limiter,
            lines: lines(spec, kernel, profile),
            inst_mix: sass.then(|| InstMix::of(kernel, profile, None)),
            printf: stats.printf,
            printf_dropped: stats.printf_dropped,
            caches: None,
            detail: None,
        }
    }
}

/// The value of a launch-configuration metric ([`Source::LaunchConfig`]).
fn launch_config_value(m: Metric, dims: LaunchDims, kernel: &Kernel) -> Option<f64> {
    Some(match m {
        Metric::GridSize => dims.blocks() as f64,
        Metric::BlockSize => dims.threads_per_block() as f64,
        Metric::SharedMemPerBlockDynamic => dims.dynamic_shared as f64,
        Metric::SharedMemPerBlockStatic => kernel.static_shared as f64,
        _ => return None,
    })
}

/// The value of an occupancy metric ([`Source::Occupancy`]); `registers`: the allocated
/// registers per thread, when ptxas's count is known.
fn occupancy_value(m: Metric, o: &Occupancy, registers: Option<u32>) -> Option<f64> {
    Some(match m {
        Metric::RegistersPerThread => registers? as f64,
        Metric::OccupancyLimitRegisters => o.limit_registers as f64,
        Metric::OccupancyLimitSharedMem => o.launch_limit_shared_mem as f64,
        Metric::SharedMemConfigSize => o.launch_shared_config_bytes as f64,
        Metric::OccupancyLimitWarps => o.limit_warps as f64,
        Metric::OccupancyLimitBlocks => o.limit_blocks as f64,
        Metric::MaximumWarpsPct => o.theoretical_occupancy_pct,
        _ => return None,
    })
}

impl LaunchReport {
    /// Adds the L1, L2 and DRAM counters of the launch (`warm`: L2 kept its contents from the
    /// previous launch), per launch and per source line.
    pub fn add_caches(&mut self, h: &crate::mem::cache::Hierarchy, warm: bool) {
        for (name, v) in h.totals().metrics(&[Source::Cache]) {
            self.metrics.insert(name.to_string(), v);
        }
        self.caches = Some(if warm { "warm" } else { "cold" }.to_string());
        for line in &mut self.lines {
            let mut c = crate::mem::cache::CacheCounters::default();
            for &pc in &line.pcs {
                if let Some(p) = h.per_pc.get(pc as usize) {
                    c.merge(p);
                }
            }
            line.cache = Some(LineCaches::from(&c));
        }
    }
}

/// What the caches did for one source line's accesses, in sectors.
#[derive(Clone, Debug, Default, Serialize)]
pub struct LineCaches {
    /// L1 sector lookups of loads (global and local).
    pub l1_load_sectors: u64,
    /// Those that hit.
    pub l1_load_hits: u64,
    /// Sectors the loads read from L2.
    pub l2_read_sectors: u64,
    /// Those that hit in L2.
    pub l2_read_hits: u64,
    /// L1 sector lookups of stores (global and local).
    pub l1_store_sectors: u64,
    /// Those that hit (the line was present).
    pub l1_store_hits: u64,
    /// Sectors that reached L2 (reads, writes, atomics, reductions).
    pub l2_sectors: u64,
    /// Those that hit in L2.
    pub l2_hits: u64,
    /// Sectors read from DRAM for this line.
    pub dram_read_sectors: u64,
    /// Dirty sectors this line wrote that L2 wrote back to DRAM during the launch.
    pub dram_write_sectors: u64,
    /// L1 sector lookups of texture fetches and surface loads.
    pub tex_l1_sectors: u64,
    /// Those that hit.
    pub tex_l1_hits: u64,
}

impl From<&crate::mem::cache::CacheCounters> for LineCaches {
    fn from(c: &crate::mem::cache::CacheCounters) -> Self {
        use Metric::*;
        let (l2, l2h) = c.l2_lookups();
        LineCaches {
            tex_l1_hits: c.sum(&[L1TexHit, L1SurfLdHit]),
            tex_l1_sectors: c.sum(&[L1TexHit, L1TexMiss, L1SurfLdHit, L1SurfLdMiss]),
            l1_load_hits: c.sum(&[L1GlobalLdHit, L1LocalLdHit]),
            l1_load_sectors: c.sum(&[L1GlobalLdHit, L1GlobalLdMiss, L1LocalLdHit, L1LocalLdMiss]),
            l2_read_sectors: c[L2ReadSectors],
            l2_read_hits: c[L2ReadHits],
            l1_store_hits: c.sum(&[L1GlobalStHit, L1LocalStHit]),
            l1_store_sectors: c.sum(&[L1GlobalStHit, L1GlobalStMiss, L1LocalStHit, L1LocalStMiss]),
            l2_sectors: l2,
            l2_hits: l2h,
            dram_read_sectors: c[DramReadSectors],
            dram_write_sectors: c[DramWriteSectors],
        }
    }
}

/// Totals the per-instruction counters by CUDA source line.
fn lines(spec: &Spec, kernel: &Kernel, profile: &Profile) -> Vec<LineReport> {
    let mut by_line: BTreeMap<(u32, u32), LineReport> = BTreeMap::new();
    let mut file_cache: BTreeMap<u32, (String, Vec<String>)> = BTreeMap::new();
    let sass = kernel.sass.is_some();
    for (pc, c) in profile.per_pc.iter().enumerate() {
        let is_mem = matches!(
            kernel.code[pc].op,
            Op::Ld { .. } | Op::St { .. } | Op::Atom { .. } | Op::Tex(_)
        );
        let mem = is_mem && *c != MemCounters::default();
        // Under SASS every executed instruction counts for its line.
        let executed = sass && profile.warp_inst.get(pc).is_some_and(|&n| n > 0);
        if !mem && !executed {
            continue;
        }
        let info = &kernel.info[pc];
        let width = match &kernel.code[pc].op {
            Op::Ld { ty, d, .. } => ty.size() * d.len() as u32,
            Op::St { ty, s, .. } => ty.size() * s.len() as u32,
            Op::Atom { ty, .. } => ty.size(),
            _ => 0,
        };
        let key = (info.src_file, info.src_line);
        let lr = by_line.entry(key).or_insert_with(|| {
            let entry = file_cache.entry(info.src_file).or_insert_with(|| {
                let path = kernel
                    .files
                    .iter()
                    .find(|(i, _)| *i == info.src_file)
                    .map(|(_, p)| p.clone())
                    .unwrap_or_default();
                let lines = read_source(&path, &spec.dir);
                (file_name(&path), lines)
            });
            let text = entry
                .1
                .get(info.src_line.saturating_sub(1) as usize)
                .map(|s| s.trim().to_string())
                .unwrap_or_default();
            LineReport {
                file: if info.src_line == 0 {
                    "(no line)".into()
                } else {
                    entry.0.clone()
                },
                line: info.src_line,
                text,
                metrics: BTreeMap::new(),
                max_way: 1,
                width: 0,
                sass: Vec::new(),
                inst_mix: None,
                thread_accesses: 0,
                thread_loads: 0,
                thread_stores: 0,
                cache: None,
                pcs: Vec::new(),
                counters: MemCounters::default(),
            }
        });
        lr.pcs.push(pc as u32);
        if executed {
            // The SASS of the line, with Nsight Compute's per-instruction counters.
            lr.sass.push(SassInst {
                address: pc as u32 * 16,
                text: info.text.clone(),
                executed: profile.warp_inst[pc],
                threads: profile.active_inst[pc],
                threads_pred_on: profile.thread_inst[pc],
                memory: source_page::SourceMemory::of(c),
            });
        }
        if !mem {
            continue;
        }
        lr.counters.merge(c);
        lr.width = lr.width.max(width);
        lr.thread_accesses += profile.thread_inst[pc];
        match kernel.code[pc].op {
            Op::Ld { .. } => lr.thread_loads += profile.thread_inst[pc],
            Op::St { .. } => lr.thread_stores += profile.thread_inst[pc],
            _ => {}
        }
        lr.max_way = lr.max_way.max(c.shared_max_way());
    }
    by_line
        .into_values()
        .map(|mut l| {
            let isa = if sass {
                Source::SassOnly
            } else {
                Source::PtxOnly
            };
            l.metrics = METRICS
                .iter()
                .filter(|d| d.per_line && [Source::Lsu, Source::Texture, isa].contains(&d.source))
                .map(|d| (d.name.to_string(), l.counters.value(d.id) as u64))
                .filter(|(_, v)| *v != 0)
                .collect();
            if sass {
                let sum = |f: fn(&SassInst) -> u64| l.sass.iter().map(f).sum::<u64>();
                // Every SASS line has its instruction counts, 0 or not.
                for (m, v) in [
                    (Metric::InstExecuted, sum(|i| i.executed)),
                    (Metric::SassThreadInstExecuted, sum(|i| i.threads)),
                    (
                        Metric::SassThreadInstExecutedPredOn,
                        sum(|i| i.threads_pred_on),
                    ),
                ] {
                    l.metrics.insert(m.name().to_string(), v);
                }
                l.inst_mix = Some(InstMix::of(kernel, profile, Some(&l.pcs)));
            }
            l
        })
        .collect()
}

/// The file name of `path` (`?` when it has none), as the per-line report names files.
pub(crate) fn file_name(path: &str) -> String {
    Path::new(path)
        .file_name()
        .map(|f| f.to_string_lossy().to_string())
        .unwrap_or_else(|| "?".into())
}

/// The lines of a source file named in the PTX, looked up as written and beside the spec.
pub(crate) fn read_source(path: &str, spec_dir: &Path) -> Vec<String> {
    let p = PathBuf::from(path);
    let candidates = [p.clone(), spec_dir.join(p.file_name().unwrap_or_default())];
    for c in candidates {
        if let Ok(t) = std::fs::read_to_string(&c) {
            return t.lines().map(|s| s.to_string()).collect();
        }
    }
    Vec::new()
}
