//! The L1, L2 and DRAM counters and the driver's shared-memory size against the H200.
//!
//! Hardware data: Nsight Compute with its default `--cache-control all` (caches flushed before
//! every profiled launch) on a real H200, in tests/hw/h200/cache/ncu (the 18 example and
//! validation programs, 203 launches) and tests/hw/h200/cache2/ncu (the cache validation kernels
//! of tests/hw/kernels/cache.toml and four validation programs again with more metrics); commands
//! and versions in tests/hw/README.md.
//!
//! Every recorded metric of every launch is compared ([`check`]) or is one of the metrics
//! `gpumemsim::report::compare::NOT_SIMULATED` lists with its reason; a recorded metric that the
//! simulation lacks otherwise fails the test (nothing is skipped), and
//! [`the_comparison_fails_on_a_lost_metric_or_a_moved_counter`] proves it by removing and
//! moving each metric of some launches. Tolerances (issue 8's targets, [`within`]): L1 sectors
//! within 1%, L2 and DRAM sectors within 2%, each with an allowance of 8 sectors for tiny
//! launches; the L1 hit rate within 1 percentage point; the coalescer's counters and the
//! launch's configuration exactly. `dram__sectors_read` has a further one-sided allowance per
//! kernel: the H200 may read up to the kernel's code ([`code_sectors`], from the committed SASS)
//! and [`FETCH_BEYOND_CODE`] (84 sectors) more than the model, its instruction and constant
//! fetches, which the model does not make (measured on the 108 recorded launches that load
//! nothing, [`the_code_fetch_allowance_is_measured`], tests/hw/h200/cache*/ncu). Every (launch,
//! metric) outside its tolerance must be listed in `EXCLUSIONS` with its measured cause and in
//! `GAPS` with today's simulated and H200 values, asserted exactly: the test fails when a gap
//! grows, shrinks or closes. The warm-cache mode is compared with the H200's recording under
//! `--cache-control none` ([`warm_caches_against_the_h200s_warm_recording`]).

use std::collections::BTreeMap;
use std::sync::OnceLock;

use gpumemsim::report::compare::{not_simulated, parse_ncu_csv, NcuLaunch};
use gpumemsim::report::Report;
use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;

/// (spec, program, recording directory under tests/hw/h200).
const CASES: &[(&str, &str, &str)] = &[
    ("examples/bank_columns.toml", "bank_columns", "cache"),
    ("examples/broadcast.toml", "broadcast", "cache"),
    ("examples/constant.toml", "constant", "cache"),
    ("examples/copy_16m.toml", "copy_16m", "cache"),
    ("examples/global_patterns.toml", "global_patterns", "cache"),
    ("examples/histogram.toml", "histogram", "cache"),
    ("examples/matmul.toml", "matmul", "cache"),
    ("examples/shared_stride.toml", "shared_stride", "cache"),
    ("examples/transpose.toml", "transpose", "cache"),
    ("examples/warp_reduce.toml", "warp_reduce", "cache"),
    ("tests/hw/kernels/seed_gpu.toml", "k_seed_gpu", "cache"),
    (
        "tests/hw/kernels/shared_patterns.toml",
        "k_shared_patterns",
        "cache",
    ),
    (
        "tests/hw/kernels/shared_stride.toml",
        "k_shared_stride",
        "cache",
    ),
    (
        "tests/hw/kernels/shared_wide.toml",
        "k_shared_wide",
        "cache",
    ),
    ("tests/hw/kernels/constant.toml", "k_constant", "cache2"),
    ("tests/hw/kernels/global.toml", "k_global", "cache2"),
    ("tests/hw/kernels/local.toml", "k_local", "cache2"),
    ("tests/hw/kernels/isa.toml", "k_isa", "cache2"),
    ("tests/hw/kernels/cache.toml", "k_cache", "cache2"),
];

/// One excluded (program, launches, metric) group and its measured cause.
struct Exclusion {
    program: &'static str,
    launches: &'static [usize],
    metrics: &'static [&'static str],
    cause: &'static str,
}

/// The H200 sends one L2 request for warps of different SMs (or of one SM) that miss on the same
/// sectors at about the same time: the lookups Nsight Compute counts at L2 are fewer than the L1
/// misses (`gpu_1`: 4 blocks on 4 SMs read the same 32 sectors, 128 L1 misses, 32 L2 lookups;
/// `copy_2d` (1, 1024): 262,144 L1 misses, 214,312 L2 lookups; the tiled matrix multiply:
/// 254,464 and 157,772; the histogram's byte loads, 1 sector per request, reach L2 as 10,204
/// requests for 32,768 sectors). How many merge depends on timing; the model, without time,
/// sends every L1 miss.
const L2_MERGE: &str = "the H200 merges concurrent misses to the same sectors before L2 (timing)";
/// Which lines stay in a nearly full L1 depends on the hardware's set hash and replacement, which
/// a program cannot see: with an LRU and a hashed index the model keeps a working set that fits
/// and loses one that does not, the H200 loses some of a fitting one (a 186 KB share of 224 KB:
/// 80% of the second pass hits) and keeps some of a larger one (192 KB over 156 KB: 11% hit).
const L1_POLICY: &str = "L1 set hash and replacement near capacity (not observable)";
/// The H200 writes dirty lines to DRAM during read-only re-reads and at a rate the model's
/// write-back on eviction does not reproduce (64 MB of stores: 1,257,744 sectors written during
/// the kernel; 8 to 24 MB re-reads with 1 MB of stores: 6,048 to 73,408); no rule found yet.
const WRITE_BACK: &str = "L2 write-back timing (the H200 cleans dirty lines before evicting them)";
/// Measured under SASS, not explained: `isa_float` loads the H200's 497 global sectors, but
/// the model counts 31 more of them as L1 misses (315 against 284) and 21 more L2 requests
/// (99 against 78).
const SASS_FLOAT: &str = "isa_float's L1 hit/miss split of the same 497 sectors (unexplained)";
/// `isa_atom`'s SASS has two `ATOMG.E.CAS` (a compare-and-swap loop, tests/hw/kernels/isa.sass):
/// the H200 makes 160 atomic L2 requests, the model 128; how often a CAS must be retried depends
/// on which lanes' atomics meet at L2 at the same time (timing). The two H200 recordings of its
/// shared `ATOMS` loop already differ (1,654 and 2,264, docs/notes/issue-9-sdef.md).
const CAS_RETRY: &str = "isa_atom's CAS retry count depends on contention (timing)";
/// `cst_words` reads a `__constant__` array through the constant cache: the H200 fetches the
/// constant bank from DRAM (160 to 256 sectors beyond the kernel's code and
/// [`FETCH_BEYOND_CODE`], growing with the words read: k_cache launches 32-34), the model
/// serves constant loads without L2 or DRAM (`gpumemsim__const_*`).
const CONST_DATA: &str = "a __constant__ array's bank read from DRAM (not modelled)";
/// Measured, not explained: `fill4` (64 MB of float4 stores, no load) reads 224 sectors from
/// DRAM, 180 beyond its code, where every other launch that loads nothing reads at most 84
/// beyond its code ([`the_code_fetch_allowance_is_measured`]).
const STORE_READS: &str = "fill4's DRAM reads beyond its code (unexplained)";
/// The driver's carveout for 128-thread blocks of 2,176 bytes (tests/exec/occupancy.rs).
const CARVEOUT: &str = "driver's carveout for 96/128-thread blocks of 1,152 or 2,176 bytes";
/// Partial-sector stores: the H200's L1 evicts lines under a column-wise store pattern that the
/// model keeps (transpose_naive: 228,397 store misses against the model's 32,768) and sends
/// fewer sectors to L2 than it stores (warp_reduce: 20,336 of 32,768): L1's handling of
/// partial-sector writes is not modelled beyond tag hits.
const PARTIAL_STORES: &str = "L1 write-combining and eviction of partially written sectors";

/// Warps of one SM that read the same sectors at about the same time all miss in L1 and all go to
/// L2 (no merging in L1): the model lets a fill arrive at the end of the step that asked for it,
/// so only warps of the same step miss twice; on the H200 the window is the L2 latency. The
/// 5-point stencil, whose warps read their neighbours' rows: 226,712 L1 misses and 225,772 L2
/// sectors against the model's 205,696.
const IN_FLIGHT: &str = "L1 misses in flight last an L2 latency, not one step (timing)";
/// Measured, not explained: the third `gl_atom` and `gl_red` launches (lane t on element 8t, 32
/// sectors in 8 lines) hit on all 32 sectors in a flushed L2; the model misses on one of each
/// pair (the first two launches, on one element and on 32 consecutive ones, agree).
const ATOM_HITS: &str = "atomics on 32 sectors of 8 lines all hit in a flushed L2 (unexplained)";
/// Measured, not explained: the first launch of `local_array` reports its 256 local store
/// sectors as L1 hits; the second launch, identical, reports them as misses, as the model does.
const FIRST_LAUNCH: &str = "the program's first launch counts its local stores as hits";

const EXCLUSIONS: &[Exclusion] = &[
    Exclusion {
        program: "k_cache",
        launches: &[32, 33, 34],
        metrics: &["dram__sectors_read.sum", "dram__bytes_read.sum"],
        cause: CONST_DATA,
    },
    Exclusion {
        program: "k_cache",
        launches: &[24],
        metrics: &["dram__sectors_read.sum", "dram__bytes_read.sum"],
        cause: STORE_READS,
    },
    Exclusion {
        program: "k_cache",
        launches: &[23],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "l1tex__m_xbar2l1tex_read_sectors.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
            "l1tex__t_sector_hit_rate.pct",
            "lts__t_sectors_srcunit_tex.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        ],
        cause: IN_FLIGHT,
    },
    Exclusion {
        program: "k_global",
        launches: &[51],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        ],
        cause: ATOM_HITS,
    },
    Exclusion {
        program: "k_global",
        launches: &[54],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        ],
        cause: ATOM_HITS,
    },
    Exclusion {
        program: "k_local",
        launches: &[1],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum",
            "l1tex__t_sector_hit_rate.pct",
        ],
        cause: FIRST_LAUNCH,
    },
    Exclusion {
        program: "k_isa",
        launches: &[5],
        metrics: &["lts__t_requests_srcunit_tex_op_atom.sum"],
        cause: CAS_RETRY,
    },
    Exclusion {
        program: "global_patterns",
        launches: &[7],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "histogram",
        launches: &[1, 2],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "matmul",
        launches: &[3],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "matmul",
        launches: &[4],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "k_seed_gpu",
        launches: &[3],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "transpose",
        launches: &[1],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum",
        ],
        cause: PARTIAL_STORES,
    },
    Exclusion {
        program: "warp_reduce",
        launches: &[1],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum",
            "lts__t_sectors_srcunit_tex_op_write.sum",
            "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
            "l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st.sum",
        ],
        cause: PARTIAL_STORES,
    },
    Exclusion {
        program: "k_isa",
        launches: &[3],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
            "l1tex__m_xbar2l1tex_read_sectors.sum",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        ],
        cause: SASS_FLOAT,
    },
    Exclusion {
        program: "k_isa",
        launches: &[5],
        metrics: &[
            "launch__shared_mem_config_size",
            "launch__occupancy_limit_shared_mem",
        ],
        cause: CARVEOUT,
    },
    Exclusion {
        program: "k_cache",
        launches: &[6, 8],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
            "l1tex__m_xbar2l1tex_read_sectors.sum",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
            "l1tex__t_sector_hit_rate.pct",
            "lts__t_sectors_srcunit_tex.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        ],
        cause: L1_POLICY,
    },
    Exclusion {
        program: "k_cache",
        launches: &[9],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
            "l1tex__m_xbar2l1tex_read_sectors.sum",
            "dram__sectors_read.sum",
            "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
            "l1tex__t_sector_hit_rate.pct",
            "lts__t_sectors_srcunit_tex.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
            "dram__bytes_read.sum",
        ],
        cause: L1_POLICY,
    },
    Exclusion {
        program: "k_cache",
        launches: &[3, 7],
        metrics: &[
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        ],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "k_cache",
        launches: &[8, 9, 10, 24],
        metrics: &["dram__sectors_write.sum", "dram__bytes_write.sum"],
        cause: WRITE_BACK,
    },
    Exclusion {
        program: "copy_16m",
        launches: &[1],
        metrics: &["dram__sectors_write.sum", "dram__bytes_write.sum"],
        cause: WRITE_BACK,
    },
];

fn excluded(program: &str, launch: usize, metric: &str) -> Option<&'static Exclusion> {
    EXCLUSIONS.iter().find(|e| {
        e.program == program && e.launches.contains(&launch) && e.metrics.contains(&metric)
    })
}

/// How far each excluded (program, launch, metric) lies from the H200 today: (program, launch
/// from 1, metric, simulated, H200). Both values are asserted exactly, so an exclusion fails
/// when its gap grows, shrinks or closes (update the entry with the new value, or drop it once
/// within tolerance), never only "still outside". Print today's list with `GMS_LIST_GAPS=1`.
const GAPS: &[(&str, usize, &str, f64, f64)] = &[
    (
        "copy_16m",
        1,
        "dram__bytes_write.sum",
        46015616.0,
        47981312.0,
    ),
    (
        "copy_16m",
        1,
        "dram__sectors_write.sum",
        1437988.0,
        1499416.0,
    ),
    (
        "global_patterns",
        7,
        "lts__t_requests_srcunit_tex_op_read.sum",
        262144.0,
        218954.0,
    ),
    (
        "global_patterns",
        7,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        262144.0,
        214312.0,
    ),
    (
        "global_patterns",
        7,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        237568.0,
        200413.0,
    ),
    (
        "histogram",
        1,
        "lts__t_requests_srcunit_tex_op_read.sum",
        32768.0,
        10204.0,
    ),
    (
        "histogram",
        1,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        16384.0,
        1889.0,
    ),
    (
        "histogram",
        2,
        "lts__t_requests_srcunit_tex_op_read.sum",
        32768.0,
        9909.0,
    ),
    (
        "histogram",
        2,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        16384.0,
        1587.0,
    ),
    (
        "matmul",
        3,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        262144.0,
        254464.0,
    ),
    (
        "matmul",
        3,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        0.0,
        7680.0,
    ),
    (
        "matmul",
        3,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        262144.0,
        254464.0,
    ),
    (
        "matmul",
        3,
        "lts__t_requests_srcunit_tex_op_read.sum",
        131072.0,
        78558.0,
    ),
    (
        "matmul",
        3,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        262144.0,
        157772.0,
    ),
    (
        "matmul",
        3,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        241664.0,
        132800.0,
    ),
    (
        "matmul",
        4,
        "lts__t_requests_srcunit_tex_op_read.sum",
        32768.0,
        20632.0,
    ),
    (
        "matmul",
        4,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        131072.0,
        84592.0,
    ),
    (
        "matmul",
        4,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        110592.0,
        58112.0,
    ),
    (
        "transpose",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
        1015808.0,
        820179.0,
    ),
    (
        "transpose",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum",
        32768.0,
        228397.0,
    ),
    (
        "warp_reduce",
        1,
        "l1tex__m_l1tex2xbar_write_sectors_mem_lg_op_st.sum",
        32768.0,
        20466.0,
    ),
    (
        "warp_reduce",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_hit.sum",
        30952.0,
        24735.0,
    ),
    (
        "warp_reduce",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_st_lookup_miss.sum",
        1816.0,
        8033.0,
    ),
    (
        "warp_reduce",
        1,
        "lts__t_sectors_srcunit_tex_op_write.sum",
        32768.0,
        20336.0,
    ),
    (
        "warp_reduce",
        1,
        "lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum",
        32768.0,
        20296.0,
    ),
    (
        "k_seed_gpu",
        3,
        "lts__t_requests_srcunit_tex_op_read.sum",
        128.0,
        32.0,
    ),
    (
        "k_seed_gpu",
        3,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        128.0,
        32.0,
    ),
    (
        "k_seed_gpu",
        3,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        80.0,
        0.0,
    ),
    (
        "k_global",
        51,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        20.0,
        36.0,
    ),
    (
        "k_global",
        51,
        "lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum",
        16.0,
        32.0,
    ),
    (
        "k_global",
        54,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        16.0,
        32.0,
    ),
    (
        "k_global",
        54,
        "lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum",
        16.0,
        32.0,
    ),
    (
        "k_local",
        1,
        "l1tex__t_sector_hit_rate.pct",
        18.29268292682927,
        96.34,
    ),
    (
        "k_local",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
        0.0,
        256.0,
    ),
    (
        "k_local",
        1,
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum",
        256.0,
        0.0,
    ),
    (
        "k_isa",
        3,
        "l1tex__m_xbar2l1tex_read_sectors.sum",
        315.0,
        284.0,
    ),
    (
        "k_isa",
        3,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        315.0,
        284.0,
    ),
    (
        "k_isa",
        3,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        182.0,
        213.0,
    ),
    (
        "k_isa",
        3,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        315.0,
        284.0,
    ),
    (
        "k_isa",
        3,
        "lts__t_requests_srcunit_tex_op_read.sum",
        99.0,
        78.0,
    ),
    (
        "k_isa",
        3,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        315.0,
        280.0,
    ),
    (
        "k_isa",
        3,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        53.0,
        20.0,
    ),
    ("k_isa", 5, "launch__occupancy_limit_shared_mem", 47.0, 30.0),
    (
        "k_isa",
        5,
        "launch__shared_mem_config_size",
        102400.0,
        65536.0,
    ),
    (
        "k_isa",
        5,
        "lts__t_requests_srcunit_tex_op_atom.sum",
        128.0,
        160.0,
    ),
    (
        "k_cache",
        3,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        128.0,
        168.0,
    ),
    (
        "k_cache",
        3,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        0.0,
        40.0,
    ),
    (
        "k_cache",
        6,
        "l1tex__m_xbar2l1tex_read_sectors.sum",
        18432.0,
        16872.0,
    ),
    (
        "k_cache",
        6,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        18432.0,
        15092.0,
    ),
    ("k_cache", 6, "l1tex__t_sector_hit_rate.pct", 0.0, 15.17),
    (
        "k_cache",
        6,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        0.0,
        1964.0,
    ),
    (
        "k_cache",
        6,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        18432.0,
        16468.0,
    ),
    (
        "k_cache",
        6,
        "lts__t_requests_srcunit_tex_op_read.sum",
        4608.0,
        3930.0,
    ),
    (
        "k_cache",
        6,
        "lts__t_sectors_srcunit_tex.sum",
        18560.0,
        15140.0,
    ),
    (
        "k_cache",
        6,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        12416.0,
        9704.0,
    ),
    (
        "k_cache",
        6,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        18432.0,
        15012.0,
    ),
    (
        "k_cache",
        6,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        12288.0,
        9576.0,
    ),
    (
        "k_cache",
        7,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        33792.0,
        35092.0,
    ),
    (
        "k_cache",
        7,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        0.0,
        1300.0,
    ),
    ("k_cache", 8, "dram__bytes_write.sum", 0.0, 193536.0),
    ("k_cache", 8, "dram__sectors_write.sum", 0.0, 6048.0),
    (
        "k_cache",
        8,
        "l1tex__m_xbar2l1tex_read_sectors.sum",
        786432.0,
        941128.0,
    ),
    (
        "k_cache",
        8,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        786432.0,
        941308.0,
    ),
    (
        "k_cache",
        8,
        "l1tex__t_sector_hit_rate.pct",
        48.94837476099426,
        39.39,
    ),
    (
        "k_cache",
        8,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        786432.0,
        632432.0,
    ),
    (
        "k_cache",
        8,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        786432.0,
        940432.0,
    ),
    (
        "k_cache",
        8,
        "lts__t_requests_srcunit_tex_op_read.sum",
        196608.0,
        235189.0,
    ),
    (
        "k_cache",
        8,
        "lts__t_sectors_srcunit_tex.sum",
        820224.0,
        975516.0,
    ),
    (
        "k_cache",
        8,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        33792.0,
        188116.0,
    ),
    (
        "k_cache",
        8,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        786432.0,
        941724.0,
    ),
    (
        "k_cache",
        8,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        0.0,
        154324.0,
    ),
    ("k_cache", 9, "dram__bytes_read.sum", 57250432.0, 44992000.0),
    ("k_cache", 9, "dram__bytes_write.sum", 0.0, 2276608.0),
    ("k_cache", 9, "dram__sectors_read.sum", 1789076.0, 1406000.0),
    ("k_cache", 9, "dram__sectors_write.sum", 0.0, 71144.0),
    (
        "k_cache",
        9,
        "l1tex__m_xbar2l1tex_read_sectors.sum",
        2621440.0,
        2308640.0,
    ),
    (
        "k_cache",
        9,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        2621440.0,
        2309208.0,
    ),
    ("k_cache", 9, "l1tex__t_sector_hit_rate.pct", 0.0, 11.76),
    (
        "k_cache",
        9,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        0.0,
        308236.0,
    ),
    (
        "k_cache",
        9,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        2621440.0,
        2313204.0,
    ),
    (
        "k_cache",
        9,
        "lts__t_requests_srcunit_tex_op_read.sum",
        655360.0,
        572132.0,
    ),
    (
        "k_cache",
        9,
        "lts__t_sectors_srcunit_tex.sum",
        2655232.0,
        2333216.0,
    ),
    (
        "k_cache",
        9,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        617776.0,
        860872.0,
    ),
    (
        "k_cache",
        9,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        2621440.0,
        2299424.0,
    ),
    (
        "k_cache",
        9,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        583984.0,
        827080.0,
    ),
    ("k_cache", 10, "dram__bytes_write.sum", 0.0, 2349056.0),
    ("k_cache", 10, "dram__sectors_write.sum", 0.0, 73408.0),
    (
        "k_cache",
        23,
        "l1tex__m_xbar2l1tex_read_sectors.sum",
        205696.0,
        226734.0,
    ),
    (
        "k_cache",
        23,
        "l1tex__m_xbar2l1tex_read_sectors_mem_lg_op_ld.sum",
        205696.0,
        226642.0,
    ),
    (
        "k_cache",
        23,
        "l1tex__t_sector_hit_rate.pct",
        60.329144366114164,
        57.85,
    ),
    (
        "k_cache",
        23,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
        511748.0,
        490732.0,
    ),
    (
        "k_cache",
        23,
        "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
        205696.0,
        226712.0,
    ),
    (
        "k_cache",
        23,
        "lts__t_requests_srcunit_tex_op_read.sum",
        83008.0,
        103911.0,
    ),
    (
        "k_cache",
        23,
        "lts__t_sectors_srcunit_tex.sum",
        336512.0,
        356588.0,
    ),
    (
        "k_cache",
        23,
        "lts__t_sectors_srcunit_tex_lookup_hit.sum",
        200734.0,
        226046.0,
    ),
    (
        "k_cache",
        23,
        "lts__t_sectors_srcunit_tex_op_read.sum",
        205696.0,
        225772.0,
    ),
    (
        "k_cache",
        23,
        "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
        69918.0,
        95230.0,
    ),
    ("k_cache", 24, "dram__bytes_read.sum", 0.0, 7168.0),
    (
        "k_cache",
        24,
        "dram__bytes_write.sum",
        25156736.0,
        40247808.0,
    ),
    ("k_cache", 24, "dram__sectors_read.sum", 0.0, 224.0),
    (
        "k_cache",
        24,
        "dram__sectors_write.sum",
        786148.0,
        1257744.0,
    ),
    ("k_cache", 32, "dram__bytes_read.sum", 0.0, 5120.0),
    ("k_cache", 32, "dram__sectors_read.sum", 0.0, 160.0),
    ("k_cache", 33, "dram__bytes_read.sum", 0.0, 5888.0),
    ("k_cache", 33, "dram__sectors_read.sum", 0.0, 184.0),
    ("k_cache", 34, "dram__bytes_read.sum", 0.0, 8192.0),
    ("k_cache", 34, "dram__sectors_read.sum", 0.0, 256.0),
];

/// The DRAM sectors every launch on the H200 reads beyond its kernel's code, at most: the
/// constant banks and the launch's own fetches (the kernel's code, read from DRAM once per
/// launch after Nsight Compute's flush, is [`code_sectors`]). Measured
/// ([`the_code_fetch_allowance_is_measured`]): over the recorded launches that load nothing
/// (no global or local loads, atomics or reductions: 64 to 84 sectors beyond their code on 108
/// launches of 94 kernels, tests/hw/h200/cache*/ncu), the largest is 84 (`const_uniform`,
/// `const_bytes`: constant.csv, k_constant.csv). Two no-load kernels read more and are
/// [`EXCLUSIONS`]: `cst_words` (its `__constant__` array, fetched from DRAM) and `fill4`.
const FETCH_BEYOND_CODE: f64 = 84.0;

/// The sectors of `kernel`'s code (16 bytes an instruction) in the committed SASS of `spec`,
/// which the H200 ran.
fn code_sectors(spec: &str, kernel: &str) -> f64 {
    type Sizes = std::sync::Mutex<BTreeMap<(String, String), f64>>;
    static CODE: OnceLock<Sizes> = OnceLock::new();
    let key = (spec.to_string(), kernel.to_string());
    let sizes = CODE.get_or_init(Default::default);
    if let Some(&v) = sizes.lock().expect("not poisoned").get(&key) {
        return v;
    }
    let loaded = Spec::load(spec).unwrap_or_else(|e| panic!("{e}"));
    let path = loaded
        .ptx
        .as_ref()
        .expect("a PTX file")
        .with_extension("sass");
    let text = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path:?}: {e}"));
    let label = format!(".text.{kernel}:");
    let mut lines = text.lines().skip_while(|l| l.trim() != label);
    assert!(lines.next().is_some(), "{path:?}: no {label}");
    let instructions = lines
        .take_while(|l| !l.starts_with("//--") && !l.trim_start().starts_with(".section"))
        .filter(|l| {
            let t = l.trim_start();
            t.starts_with("/*") && t.get(6..8) == Some("*/") && !t.contains(".byte")
        })
        .count();
    assert!(instructions > 0, "{path:?}: {kernel} has no instructions");
    let v = (instructions * 16) as f64 / 32.0;
    sizes.lock().expect("not poisoned").insert(key, v);
    v
}

/// The tolerance for one metric's simulated value against the H200's: L1 sectors within 1%, L2
/// and DRAM sectors within 2% (each with 8 sectors for tiny launches), DRAM bytes as their
/// sectors, the L1 hit rate within 1 percentage point (it follows from the L1 sectors), every
/// other metric (the coalescer's requests and sectors, the launch's configuration) exactly.
/// `dram__sectors_read` is one-sided beyond that: the H200 may read up to `fetch` more
/// sectors (its own instruction and constant fetches, which the model does not make: the
/// launch's [`code_sectors`] and [`FETCH_BEYOND_CODE`]); the simulator may not read more than
/// the H200 beyond the 2% and 8 sectors.
fn within(metric: &str, sim: f64, hw: f64, fetch: f64) -> bool {
    if let Some(kind) = metric.strip_prefix("dram__bytes_") {
        return within(
            &format!("dram__sectors_{kind}"),
            sim / 32.0,
            hw / 32.0,
            fetch,
        );
    }
    if metric.ends_with(".pct") {
        return (sim - hw).abs() <= 1.0;
    }
    let sectors = metric.contains("_lookup_")
        || metric.starts_with("lts__")
        || metric.starts_with("dram__")
        || metric.starts_with("l1tex__m_");
    if !sectors {
        return (sim - hw).abs() <= 1e-6 * hw.abs().max(1.0);
    }
    let rel = if metric.starts_with("l1tex__t_") {
        0.01
    } else {
        0.02
    };
    let slack = 8.0f64.max(rel * hw);
    if metric == "dram__sectors_read.sum" {
        return sim - hw <= slack && hw - sim <= slack + fetch;
    }
    (sim - hw).abs() <= slack
}

fn run(spec: &str) -> Report {
    let spec = Spec::load(spec).unwrap_or_else(|e| panic!("{e}"));
    // As SASS, the code the H200 ran (each spec's committed `.sass`): `local_spill`'s
    // `STL`/`LDL.LU` spill traffic is the H200's to the sector.
    let opts = RunOptions {
        write_outputs: false,
        isa: gpumemsim::run::Isa::Sass,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"))
}

/// The simulator's report of every case of [`CASES`], in order, run once for all the tests of
/// this file.
fn reports() -> &'static [Report] {
    static REPORTS: OnceLock<Vec<Report>> = OnceLock::new();
    let dir = env!("CARGO_MANIFEST_DIR");
    REPORTS.get_or_init(|| {
        CASES
            .iter()
            .map(|(spec, _, _)| run(&format!("{dir}/{spec}")))
            .collect()
    })
}

/// The H200's recording of every case of [`CASES`], in order.
fn recordings() -> &'static [Vec<NcuLaunch>] {
    static HW: OnceLock<Vec<Vec<NcuLaunch>>> = OnceLock::new();
    let dir = env!("CARGO_MANIFEST_DIR");
    HW.get_or_init(|| {
        CASES
            .iter()
            .map(|(_, program, rec)| {
                let path = format!("{dir}/tests/hw/h200/{rec}/ncu/{program}.csv");
                let csv = std::fs::read_to_string(&path).unwrap_or_else(|e| panic!("{path}: {e}"));
                parse_ncu_csv(&csv).unwrap_or_else(|e| panic!("{path}: {e}"))
            })
            .collect()
    })
}

/// What [`check`] found.
#[derive(Default)]
struct Outcome {
    launches: usize,
    compared: usize,
    /// Per metric: (within tolerance, compared).
    by_metric: BTreeMap<String, (u32, u32)>,
    /// Per metric of `NOT_SIMULATED`: the recorded values not compared.
    not_simulated: BTreeMap<String, usize>,
    /// Recorded metrics the simulation lacks that `NOT_SIMULATED` does not list.
    missing: Vec<String>,
    /// Values outside tolerance that no exclusion covers.
    bad: Vec<String>,
    /// Excluded values whose gap differs from [`GAPS`] (grown, shrunk or closed).
    gaps: Vec<String>,
    /// Exclusions and gaps that name nothing compared, or that do not match each other.
    stale: Vec<String>,
}

impl Outcome {
    /// Every failure, one per line; empty when the simulation agrees with the H200.
    fn failures(&self) -> Vec<String> {
        let mut out = Vec::new();
        let mut section = |title: &str, v: &[String]| {
            if !v.is_empty() {
                out.push(format!("{} {title}:", v.len()));
                out.extend(v.iter().map(|l| format!("  {l}")));
            }
        };
        section(
            "recorded values the simulation lacks (neither reported nor in NOT_SIMULATED)",
            &self.missing,
        );
        section("values outside tolerance", &self.bad);
        section(
            "excluded values whose gap changed (update GAPS)",
            &self.gaps,
        );
        section("stale exclusions", &self.stale);
        out
    }
}

/// Compares `reports` (one per case of [`CASES`], in order) with the H200's recordings: every
/// recorded metric of every launch is compared under [`within`] or is one of `NOT_SIMULATED`;
/// a recorded metric that is neither is a failure (nothing is skipped silently), and so is every
/// excluded value whose gap is not [`GAPS`]'s.
fn check(reports: &[&Report]) -> Outcome {
    let mut o = Outcome::default();
    let mut used = vec![false; EXCLUSIONS.len()];
    let mut gap_seen = vec![false; GAPS.len()];
    let list_gaps = std::env::var_os("GMS_LIST_GAPS").is_some();
    assert_eq!(reports.len(), CASES.len(), "one report per case");
    let dir = env!("CARGO_MANIFEST_DIR");
    for ((spec, program, _), (report, hw)) in CASES.iter().zip(reports.iter().zip(recordings())) {
        if report.launches.len() != hw.len() {
            o.missing.push(format!(
                "{program}: {} launches simulated, {} recorded",
                report.launches.len(),
                hw.len()
            ));
            continue;
        }
        for (i, (l, h)) in report.launches.iter().zip(hw).enumerate() {
            o.launches += 1;
            if l.caches.as_deref() != Some("cold") {
                o.bad.push(format!(
                    "{program} launch {}: caches {:?}, the recording flushed them",
                    i + 1,
                    l.caches
                ));
            }
            for (metric, &hv) in &h.metrics {
                if not_simulated(metric).is_some() {
                    *o.not_simulated.entry(metric.clone()).or_default() += 1;
                    continue;
                }
                let Some(&sv) = l.metrics.get(metric.as_str()) else {
                    o.missing
                        .push(format!("{program} launch {} {}: {metric}", i + 1, l.kernel));
                    continue;
                };
                o.compared += 1;
                let fetch = if metric.starts_with("dram__") {
                    code_sectors(&format!("{dir}/{spec}"), &l.ptx_name) + FETCH_BEYOND_CODE
                } else {
                    0.0
                };
                let ok = within(metric, sv, hv, fetch);
                let e = o.by_metric.entry(metric.clone()).or_default();
                e.1 += 1;
                if ok {
                    e.0 += 1;
                }
                let line = format!(
                    "{program} launch {} {}: {metric} simulated {sv} H200 {hv}",
                    i + 1,
                    l.kernel
                );
                if !ok && std::env::var_os("GMS_LIST_OUTSIDE").is_some() {
                    eprintln!("OUTSIDE {line}");
                }
                let Some(x) = excluded(program, i + 1, metric) else {
                    if !ok {
                        o.bad.push(line);
                    }
                    continue;
                };
                used[EXCLUSIONS
                    .iter()
                    .position(|y| std::ptr::eq(x, y))
                    .unwrap_or(0)] = true;
                if list_gaps {
                    eprintln!(
                        "    (\"{program}\", {}, \"{metric}\", {sv:?}, {hv:?}),",
                        i + 1
                    );
                }
                let gap = GAPS
                    .iter()
                    .position(|g| g.0 == *program && g.1 == i + 1 && g.2 == metric);
                match gap {
                    None => o
                        .stale
                        .push(format!("{line}: excluded ({}) but not in GAPS", x.cause)),
                    Some(g) => {
                        gap_seen[g] = true;
                        let (.., gs, gh) = GAPS[g];
                        if ok {
                            o.gaps.push(format!(
                                "{line}: now within tolerance, drop the exclusion ({})",
                                x.cause
                            ));
                        } else if gs != sv || gh != hv {
                            o.gaps.push(format!(
                                "{line}: the gap was simulated {gs} H200 {gh} ({})",
                                x.cause
                            ));
                        }
                    }
                }
            }
        }
    }
    for (x, u) in EXCLUSIONS.iter().zip(&used) {
        if !u {
            o.stale.push(format!(
                "{} launches {:?} {:?}: excluded, but nothing of it was compared",
                x.program, x.launches, x.metrics
            ));
        }
    }
    for (g, seen) in GAPS.iter().zip(&gap_seen) {
        if !seen {
            o.stale.push(format!(
                "{} launch {} {}: in GAPS, but no exclusion covers it",
                g.0, g.1, g.2
            ));
        }
    }
    o
}

/// [`FETCH_BEYOND_CODE`] is what the H200 measured: of the recorded launches that load nothing
/// (no global or local load sectors, no atomic or reduction sectors at L2, no L2 reads), each
/// reads at most [`code_sectors`] + [`FETCH_BEYOND_CODE`] sectors from DRAM, and one reads
/// exactly that, but for `cst_words` (the `__constant__` array it reads) and `fill4`; and every
/// launch reads at least its code's sectors less 8 (the code is fetched). Hardware data alone.
#[test]
fn the_code_fetch_allowance_is_measured() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let (mut noload, mut most, mut least) = (0, f64::MIN, f64::MAX);
    let mut kernels = std::collections::BTreeSet::new();
    for (c, ((spec, program, _), hw)) in CASES.iter().zip(recordings()).enumerate() {
        for (i, (h, l)) in hw.iter().zip(&reports()[c].launches).enumerate() {
            let m = |k: &str| h.metrics.get(k).copied().unwrap_or(0.0);
            let code = code_sectors(&format!("{dir}/{spec}"), &l.ptx_name);
            let dram = m("dram__sectors_read.sum");
            assert!(
                dram + 8.0 >= code,
                "{program} launch {}: {dram} DRAM sectors, {code} of code",
                i + 1
            );
            let loads = m("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum")
                + m("l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_hit.sum")
                + m("l1tex__t_sectors_pipe_lsu_mem_local_op_ld_lookup_miss.sum")
                + m("lts__t_sectors_srcunit_tex_op_atom.sum")
                + m("lts__t_sectors_srcunit_tex_op_red.sum")
                + m("lts__t_sectors_srcunit_tex_op_read.sum");
            if loads != 0.0 || ["cst_words", "fill4"].iter().any(|k| l.kernel == *k) {
                continue;
            }
            noload += 1;
            kernels.insert(l.ptx_name.clone());
            most = most.max(dram - code);
            least = least.min(dram - code);
            assert!(
                dram - code <= FETCH_BEYOND_CODE,
                "{program} launch {} {}: {dram} DRAM sectors, {code} of code",
                i + 1,
                l.kernel
            );
        }
    }
    eprintln!(
        "{noload} launches of {} kernels load nothing: {least} to {most} DRAM sectors beyond \
         their code",
        kernels.len()
    );
    assert_eq!(most, FETCH_BEYOND_CODE, "the largest fetch beyond the code");
    assert_eq!(
        (noload, kernels.len()),
        (108, 94),
        "launches and kernels that load nothing"
    );
}

#[test]
fn cache_counters_match_the_h200s() {
    let o = check(&reports().iter().collect::<Vec<_>>());
    for (m, (ok, n)) in &o.by_metric {
        eprintln!("{m:<62} {ok:>4} of {n:>4} within tolerance");
    }
    for (m, n) in &o.not_simulated {
        eprintln!(
            "{m:<62} {n:>4} values not simulated: {}",
            not_simulated(m).unwrap_or("")
        );
    }
    eprintln!("{} launches, {} values compared", o.launches, o.compared);
    assert!(o.launches >= 240, "only {} launches", o.launches);
    let failures = o.failures();
    assert!(failures.is_empty(), "{}", failures.join("\n"));
}

/// The comparison can fail (issue 33's mutation check): a simulation that lost any one recorded
/// metric of one launch, or whose value of any one metric moved past its tolerance, does not
/// pass [`check`]; in the first case of each recording directory (`bank_columns`, cache/ncu;
/// `k_constant`, cache2/ncu) and in `k_cache`, the one with the most launches and metrics.
#[test]
fn the_comparison_fails_on_a_lost_metric_or_a_moved_counter() {
    let good: Vec<&Report> = reports().iter().collect();
    assert!(
        check(&good).failures().is_empty(),
        "the unchanged reports fail"
    );
    let with = |c: usize, r: &Report| -> Outcome {
        let v: Vec<&Report> = good
            .iter()
            .enumerate()
            .map(|(i, g)| if i == c { r } else { *g })
            .collect();
        check(&v)
    };
    let (mut dropped, mut moved) = (0, 0);
    for program in ["bank_columns", "k_constant", "k_cache"] {
        let c = CASES.iter().position(|x| x.1 == program).expect("a case");
        for (launch, h) in recordings()[c].iter().enumerate().take(2) {
            for (name, &hv) in &h.metrics {
                if not_simulated(name).is_some() {
                    continue;
                }
                let mut r = good[c].clone();
                let sv = r.launches[launch]
                    .metrics
                    .remove(name.as_str())
                    .unwrap_or_else(|| panic!("{program} launch {}: no {name}", launch + 1));
                let o = with(c, &r);
                assert!(
                    o.missing.iter().any(|l| l.ends_with(&format!(": {name}"))),
                    "{program} launch {} without {name}: not caught",
                    launch + 1
                );
                dropped += 1;
                // Moved away from the H200's value by more than the widest allowance (3% and
                // 400 sectors or points; DRAM bytes 400 sectors of 32).
                let unit = if name.starts_with("dram__bytes") {
                    32.0
                } else {
                    1.0
                };
                let d = 0.03 * hv.abs() + 400.0 * unit;
                let shifted = if sv >= hv { sv + d } else { sv - d };
                r.launches[launch].metrics.insert(name.clone(), shifted);
                let o = with(c, &r);
                assert!(
                    !o.failures().is_empty(),
                    "{program} launch {} with {name} at {shifted} (was {sv}): not caught",
                    launch + 1
                );
                moved += 1;
            }
        }
    }
    // The DRAM allowance is one-sided and as small as the code's fetches: a simulation that
    // reads 300 sectors more than it does fails on all but the 27 launches whose 2% exceed
    // that; one that reads nothing passes where the data read is within the 2% and 8 sectors,
    // mostly the launches that load nothing (before issue 33: 238 and 195 of 241 passed).
    let dir = env!("CARGO_MANIFEST_DIR");
    let (mut zero, mut more, mut n) = (0, 0, 0);
    for (c, (spec, _, _)) in CASES.iter().enumerate() {
        for (l, h) in reports()[c].launches.iter().zip(&recordings()[c]) {
            let metric = "dram__sectors_read.sum";
            let (sv, hv) = (l.metrics[metric], h.metrics[metric]);
            let fetch = code_sectors(&format!("{dir}/{spec}"), &l.ptx_name) + FETCH_BEYOND_CODE;
            n += 1;
            zero += usize::from(within(metric, 0.0, hv, fetch));
            more += usize::from(within(metric, sv + 300.0, hv, fetch));
        }
    }
    eprintln!("of {n} launches, {zero} pass with no DRAM reads, {more} with 300 sectors more");
    assert!(
        zero <= 153 && more <= 27,
        "{zero} and {more} of {n} launches pass"
    );
    assert!(
        dropped >= 150 && moved == dropped,
        "{dropped} dropped, {moved} moved"
    );
}

/// Why the H200's warm recording differs from one warm run: Nsight Compute collects the
/// metrics in several replay passes of each launch, and with `--cache-control none` a later pass
/// finds in L2 what an earlier pass of the same launch read. Measured in the recording itself:
/// launch 1 (the program's first read of 2,048 sectors) has all 2,048 L2 lookups hit while its
/// DRAM reads are 2,176, the flushed recording's 2,168 (tests/hw/h200/cache2/ncu/k_cache.csv);
/// launches 1-5 hit on every lookup, the 8 MB launch 7 on 231,132 of 263,860 and the 192 MB
/// launch 10 (more than L2 holds) on none ([`the_warm_recording_is_of_replay_passes`]). The
/// simulator's warm run is one pass after the launch before it.
const REPLAY_HITS: &str =
    "L2 lookup hits counted in a replay pass after another pass of the same launch";
/// The pass that counts DRAM reads starts without the launch's data in L2, although an earlier
/// launch read it: the value equals the flushed recording's within the tolerance (checked for
/// every value of this cause); the simulator's warm L2 keeps the data.
const REPLAY_DRAM: &str =
    "DRAM reads of the pass that counts them are those of a flushed L2 (ncu's replay)";
/// Measured, not explained: DRAM traffic of the warm recording that is neither the flushed
/// recording's nor the model's (launches 9, 13, 17-19, 24, 25, 28: the H200 reads from DRAM what
/// the model finds in its warm L2, or the reverse for `atom_distinct`'s counters).
const WARM_DRAM: &str = "warm DRAM traffic of ncu's replay not reproduced (no rule found)";

/// Every value of the warm recording outside [`within`] is listed in
/// tests/gaps/cache2_k_cache_warm.txt with today's simulated and H200 values (asserted exactly)
/// and has one of these causes: [`REPLAY_HITS`] for L2 lookup hits, [`REPLAY_DRAM`] for DRAM
/// reads equal to the flushed recording's, the cold run's exclusion of the same launch and
/// metric ([`EXCLUSIONS`]), or [`WARM_DRAM`] for the (launch, metric) pairs listed here.
const WARM_DRAM_PAIRS: &[(usize, &str)] = &[
    (9, "dram__sectors_read.sum"),
    (13, "dram__sectors_read.sum"),
    (17, "dram__sectors_read.sum"),
    (18, "dram__sectors_read.sum"),
    (19, "dram__sectors_read.sum"),
    (24, "dram__sectors_read.sum"),
    (25, "dram__sectors_read.sum"),
    (25, "dram__sectors_write.sum"),
    (28, "dram__sectors_read.sum"),
];

/// The warm recording against the flushed one, hardware data alone: where the launch's data
/// fits in L2, the warm recording's L2 lookups all hit (launches 1-5) although its DRAM reads
/// are the flushed recording's, which one pass of one launch cannot give: the counters come
/// from different replay passes ([`REPLAY_HITS`]).
#[test]
fn the_warm_recording_is_of_replay_passes() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let load = |f: &str| {
        let path = format!("{dir}/tests/hw/h200/cache2/ncu/{f}");
        parse_ncu_csv(&std::fs::read_to_string(&path).expect("csv")).expect("parses")
    };
    let (warm, cold) = (load("k_cache_warm.csv"), load("k_cache.csv"));
    assert_eq!((warm.len(), cold.len()), (38, 38));
    let read = "lts__t_sectors_srcunit_tex_op_read.sum";
    let hit = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
    let dram = "dram__sectors_read.sum";
    for (i, (w, c)) in warm.iter().zip(&cold).enumerate().take(5) {
        assert_eq!(
            w.metrics[hit],
            w.metrics[read],
            "launch {}: every lookup hits",
            i + 1
        );
        assert!(
            within(dram, c.metrics[dram], w.metrics[dram], 0.0)
                && w.metrics[dram] >= w.metrics[read] / 2.0,
            "launch {}: DRAM reads {} (flushed {}) for {} L2 lookups",
            i + 1,
            w.metrics[dram],
            c.metrics[dram],
            w.metrics[read]
        );
    }
    assert_eq!(
        (warm[6].metrics[hit], warm[6].metrics[read]),
        (231132.0, 263860.0)
    );
    assert_eq!(
        (warm[9].metrics[hit], warm[9].metrics[read]),
        (0.0, 6291456.0)
    );
}

/// The H200's warm recording (tests/hw/h200/cache2/ncu/k_cache_warm.csv: k_cache's 38 launches
/// under `--cache-control none`) against the simulator's run of the same program with caches
/// kept warm between launches: every value within [`within`] or with its gap recorded and its
/// cause ([`WARM_DRAM_PAIRS`]).
#[test]
fn warm_caches_against_the_h200s_warm_recording() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let kernels = format!("{dir}/tests/hw/kernels");
    let toml = std::fs::read_to_string(format!("{kernels}/cache.toml")).expect("cache.toml");
    let toml = toml.replacen("source = \"cache.cu\"\n", "", 1).replacen(
        "ptx = \"cache.ptx\"\n",
        &format!("ptx = \"{kernels}/cache.ptx\"\ncaches = \"warm\"\n"),
        1,
    );
    let tmp = std::env::temp_dir().join(format!("gms-warm38-{}", std::process::id()));
    std::fs::create_dir_all(&tmp).expect("temp dir");
    let spec = tmp.join("cache.toml");
    std::fs::write(&spec, toml).expect("write spec");
    let r = run(spec.to_str().expect("utf-8 path"));
    let _ = std::fs::remove_dir_all(&tmp);
    let load = |f: &str| {
        let path = format!("{dir}/tests/hw/h200/cache2/ncu/{f}");
        parse_ncu_csv(&std::fs::read_to_string(&path).expect("csv")).expect("parses")
    };
    let (hw, cold) = (load("k_cache_warm.csv"), load("k_cache.csv"));
    assert_eq!(r.launches.len(), hw.len());
    let gaps_path = format!("{dir}/tests/gaps/cache2_k_cache_warm.txt");
    let gaps: BTreeMap<(usize, String), (f64, f64)> = std::fs::read_to_string(&gaps_path)
        .expect("the warm gaps")
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
        .map(|l| {
            let f: Vec<&str> = l.split('\t').collect();
            let n = |s: &str| s.parse::<f64>().expect("a number");
            (
                (f[0].parse().expect("a launch"), f[1].to_string()),
                (n(f[2]), n(f[3])),
            )
        })
        .collect();
    let list = std::env::var_os("GMS_LIST_GAPS").is_some();
    let (mut compared, mut seen, mut bad) = (0, 0, Vec::new());
    for (i, (l, h)) in r.launches.iter().zip(&hw).enumerate() {
        let launch = i + 1;
        assert_eq!(l.caches.as_deref(), Some("warm"), "launch {launch}");
        for (metric, &hv) in &h.metrics {
            let Some(&sv) = l.metrics.get(metric.as_str()) else {
                bad.push(format!("launch {launch} {metric}: not simulated"));
                continue;
            };
            compared += 1;
            let fetch =
                code_sectors(&format!("{kernels}/cache.toml"), &l.ptx_name) + FETCH_BEYOND_CODE;
            let ok = within(metric, sv, hv, fetch);
            let line = format!(
                "launch {launch} {}: {metric} simulated {sv} H200 {hv}",
                l.kernel
            );
            let gap = gaps.get(&(launch, metric.clone()));
            if ok {
                if gap.is_some() {
                    bad.push(format!("{line}: now within tolerance, drop its gap"));
                }
                continue;
            }
            if list {
                eprintln!("{launch}\t{metric}\t{sv}\t{hv}");
            }
            let flushed = cold[i].metrics[metric.as_str()];
            let cause = if metric.starts_with("lts__") && metric.ends_with("_lookup_hit.sum") {
                Some(REPLAY_HITS)
            } else if metric == "dram__sectors_read.sum" && within(metric, flushed, hv, 0.0) {
                Some(REPLAY_DRAM)
            } else if let Some(x) = excluded("k_cache", launch, metric) {
                Some(x.cause)
            } else if WARM_DRAM_PAIRS.contains(&(launch, metric.as_str())) {
                Some(WARM_DRAM)
            } else {
                None
            };
            match (cause, gap) {
                (None, _) => bad.push(format!("{line}: outside, no cause")),
                (Some(c), None) => bad.push(format!("{line}: {c}, but its gap is not recorded")),
                (Some(c), Some(&(s, g))) if (s, g) != (sv, hv) => bad.push(format!(
                    "{line}: {c}; the recorded gap is simulated {s} H200 {g}: update it"
                )),
                _ => seen += 1,
            }
        }
    }
    assert_eq!(compared, 38 * 8, "values compared");
    if seen != gaps.len() {
        bad.push(format!("{} recorded gaps, {seen} found", gaps.len()));
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The cache kernels compute what the H200 computed (tests/hw/h200/cache2/outputs.sha256: the
/// H200's output hashes; the models count, they never change a result), and their coalescer
/// counters (requests and sectors per instruction kind, which the cache counters build on) are
/// the H200's exactly; the aggregated `atom_same` (ptxas's SHFL.UP + one ATOMG) among them.
#[test]
fn cache_kernels_compute_and_coalesce_as_the_h200() {
    use sha2::{Digest, Sha256};
    let dir = env!("CARGO_MANIFEST_DIR");
    let report = run(&format!("{dir}/tests/hw/kernels/cache.toml"));
    let hashes = std::fs::read_to_string(format!("{dir}/tests/hw/h200/cache2/outputs.sha256"))
        .expect("outputs.sha256");
    let mut outputs = 0;
    for (_, file, bytes) in &report.outputs {
        let want = hashes
            .lines()
            .find_map(|l| {
                l.strip_suffix(&format!("outputs/k_cache/{file}"))
                    .map(|h| h.trim().to_string())
            })
            .unwrap_or_else(|| panic!("no H200 hash for {file}"));
        assert_eq!(format!("{:x}", Sha256::digest(bytes)), want, "{file}");
        outputs += 1;
    }
    assert_eq!(outputs, 4);
    let csv = std::fs::read_to_string(format!("{dir}/tests/hw/h200/cache2/ncu/k_cache.csv"))
        .expect("k_cache.csv");
    let hw = parse_ncu_csv(&csv).expect("csv");
    let mut compared = 0;
    for (i, (l, h)) in report.launches.iter().zip(&hw).enumerate() {
        for (metric, &hv) in &h.metrics {
            let coalescer = metric.starts_with("l1tex__t_requests_pipe_lsu_mem_global")
                || (metric.starts_with("l1tex__t_sectors_pipe_lsu_mem_global")
                    && !metric.contains("_lookup_"));
            if !coalescer {
                continue;
            }
            let sv = l.metrics.get(metric.as_str()).copied();
            assert_eq!(sv, Some(hv), "launch {} {}: {metric}", i + 1, l.kernel);
            compared += 1;
        }
    }
    assert!(compared >= 38 * 5, "only {compared} values");
}

/// The text report proposes a fix only where it would cut the traffic that remains: the chunked
/// walk's loads (32 sectors per request, 7 of 8 caught by L1 on the H200: global_patterns.csv
/// launch 4) get none, its stores (written through to L2) keep theirs.
#[test]
fn a_fix_is_proposed_only_for_traffic_past_l1() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let report = run(&format!("{dir}/examples/global_patterns.toml"));
    let text = gpumemsim::report::text::render(&report, 5);
    let chunked = text
        .split("\nlaunch ")
        .find(|l| l.starts_with("4: copy_chunked"))
        .expect("launch 4");
    let load = chunked
        .split("global_patterns.cu")
        .find(|f| f.contains("global load, uncoalesced"))
        .expect("the load's finding");
    assert!(
        load.contains("L1 caught 229,376 of these 262,144"),
        "{load}"
    );
    assert!(
        load.contains("would not reduce it") && !load.contains("fix:"),
        "{load}"
    );
    let store = chunked
        .split("global_patterns.cu")
        .find(|f| f.contains("global store, uncoalesced"))
        .expect("the store's finding");
    assert!(store.contains("fix:"), "{store}");
}
