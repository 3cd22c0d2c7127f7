//! The L1, L2 and DRAM counters and the driver's shared-memory size against the H200.
//!
//! Hardware data: Nsight Compute with its default `--cache-control all` (caches flushed before
//! every profiled launch) on a real H200, in tests/hw/h200/cache/ncu (the 18 example and
//! validation programs, 203 launches) and tests/hw/h200/cache2/ncu (the cache validation kernels
//! of tests/hw/kernels/cache.toml and four validation programs again with more metrics); commands
//! and versions in tests/hw/README.md.
//!
//! Tolerances (issue 8's targets): L1 sectors within 1%, L2 and DRAM sectors within 2%, each with
//! an allowance of 8 sectors for tiny launches. `dram__sectors_read` has a further allowance of
//! 300 sectors: every launch on the H200 reads 88 to 280 sectors of instructions and constant
//! banks from DRAM that the model does not fetch (measured: kernels without global loads read
//! 88-280 sectors, tests/hw/h200/cache*/ncu). Every (launch, metric) outside its tolerance must
//! be listed in `EXCLUSIONS` with its measured cause, and every listed one must still be outside
//! (so a fix shows up as a failing exclusion).

use std::collections::BTreeMap;

use gpumemsim::mem::cache::is_cache_metric;
use gpumemsim::report::compare::parse_ncu_csv;
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
/// The instruction and constant fetches of large kernels exceed the 300-sector allowance:
/// `local_spill`'s SASS is 1,400 instructions (22 KB, about 700 sectors; tests/hw/kernels/
/// local.sass), and the H200 reads 2,040 sectors from DRAM where its loads miss L2 on 1,280
/// (tests/hw/h200/cache2/ncu/k_local.csv launch 4).
const CODE_FETCH: &str = "instruction and constant-bank fetches of a large kernel from DRAM";
/// The driver's carveout for 128-thread blocks of 2,176 bytes (tests/occupancy.rs).
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
        launches: &[23],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum",
            "l1tex__m_xbar2l1tex_read_sectors.sum",
            "lts__t_sectors_srcunit_tex_op_read.sum",
            "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum",
            "lts__t_requests_srcunit_tex_op_read.sum",
        ],
        cause: IN_FLIGHT,
    },
    Exclusion {
        program: "k_global",
        launches: &[51],
        metrics: &["lts__t_sectors_srcunit_tex_op_atom_lookup_hit.sum"],
        cause: ATOM_HITS,
    },
    Exclusion {
        program: "k_global",
        launches: &[54],
        metrics: &["lts__t_sectors_srcunit_tex_op_red_lookup_hit.sum"],
        cause: ATOM_HITS,
    },
    Exclusion {
        program: "k_local",
        launches: &[1],
        metrics: &[
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_hit.sum",
            "l1tex__t_sectors_pipe_lsu_mem_local_op_st_lookup_miss.sum",
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
        ],
        cause: PARTIAL_STORES,
    },
    Exclusion {
        program: "k_local",
        launches: &[4],
        metrics: &["dram__sectors_read.sum"],
        cause: CODE_FETCH,
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
        ],
        cause: SASS_FLOAT,
    },
    Exclusion {
        program: "k_isa",
        launches: &[1, 2, 3],
        metrics: &["dram__sectors_read.sum"],
        cause: CODE_FETCH,
    },
    Exclusion {
        program: "k_isa",
        launches: &[5],
        metrics: &["launch__shared_mem_config_size"],
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
        ],
        cause: L1_POLICY,
    },
    Exclusion {
        program: "k_cache",
        launches: &[3, 7],
        metrics: &["lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum"],
        cause: L2_MERGE,
    },
    Exclusion {
        program: "k_cache",
        launches: &[8, 9, 10, 24],
        metrics: &["dram__sectors_write.sum"],
        cause: WRITE_BACK,
    },
    Exclusion {
        program: "copy_16m",
        launches: &[1],
        metrics: &["dram__sectors_write.sum"],
        cause: WRITE_BACK,
    },
];

fn excluded(program: &str, launch: usize, metric: &str) -> Option<&'static Exclusion> {
    EXCLUSIONS.iter().find(|e| {
        e.program == program && e.launches.contains(&launch) && e.metrics.contains(&metric)
    })
}

/// The tolerance for one metric's simulated value against the H200's.
fn within(metric: &str, sim: f64, hw: f64) -> bool {
    let rel = if metric.starts_with("l1tex__t_") {
        0.01
    } else {
        0.02
    };
    let mut slack = 8.0f64.max(rel * hw);
    if metric == "dram__sectors_read.sum" {
        slack += 300.0;
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

#[test]
fn cache_counters_match_the_h200s() {
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut compared = 0;
    let mut by_metric: BTreeMap<&str, (u32, u32)> = BTreeMap::new();
    let mut bad = Vec::new();
    let mut still_needed = Vec::new();
    let mut used = vec![false; EXCLUSIONS.len()];
    let mut launches = 0;
    for (spec, program, rec) in CASES {
        let csv = std::fs::read_to_string(format!("{dir}/tests/hw/h200/{rec}/ncu/{program}.csv"))
            .unwrap_or_else(|e| panic!("{program}: {e}"));
        let hw = parse_ncu_csv(&csv).unwrap_or_else(|e| panic!("{program}: {e}"));
        let report = run(&format!("{dir}/{spec}"));
        assert_eq!(report.launches.len(), hw.len(), "{program}: launches");
        for (i, (l, h)) in report.launches.iter().zip(&hw).enumerate() {
            launches += 1;
            assert_eq!(
                l.caches.as_deref(),
                Some("cold"),
                "{program} launch {}",
                i + 1
            );
            for (metric, &hv) in &h.metrics {
                // Rates and bytes follow from the sector counts compared; Nsight Compute's L2
                // `lookup_miss` counts lookups in both partitions (a 1-sector walk: 262,144
                // sectors, 131,072 hits and 262,144 misses, k_cache launch 22), not modelled.
                if !is_cache_metric(metric)
                    || metric.ends_with(".pct")
                    || metric.starts_with("dram__bytes")
                    || (metric.starts_with("lts__") && metric.contains("lookup_miss"))
                {
                    continue;
                }
                let Some(&sv) = l.metrics.get(metric.as_str()) else {
                    continue;
                };
                compared += 1;
                let ok = within(metric, sv, hv);
                let e = by_metric.entry(metric_name(metric)).or_default();
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
                match excluded(program, i + 1, metric) {
                    Some(x) => {
                        used[EXCLUSIONS
                            .iter()
                            .position(|y| std::ptr::eq(x, y))
                            .unwrap_or(0)] = true;
                        if ok {
                            still_needed.push(format!("{line} (excluded: {})", x.cause));
                        }
                    }
                    None if !ok => bad.push(line),
                    None => {}
                }
            }
        }
    }
    for (m, (ok, n)) in &by_metric {
        eprintln!("{m:<62} {ok:>4} of {n:>4} within tolerance");
    }
    eprintln!("{launches} launches, {compared} values compared");
    assert!(launches >= 240, "only {launches} launches");
    assert!(compared >= 3000, "only {compared} values");
    assert!(
        bad.is_empty(),
        "{} values outside tolerance:\n{}",
        bad.len(),
        bad.join("\n")
    );
    assert!(
        still_needed.is_empty(),
        "exclusions no longer needed (now within tolerance):\n{}",
        still_needed.join("\n")
    );
    assert!(
        used.iter().all(|&u| u),
        "an exclusion names nothing that was compared"
    );
}

/// `metric` as a `'static` key for the summary (the names come from the CSV).
fn metric_name(metric: &str) -> &'static str {
    Box::leak(metric.to_string().into_boxed_str())
}

#[test]
fn warm_caches_keep_l2_between_launches() {
    // Two launches reading the same 8 MB: cold, the second reads it from DRAM again; warm, L2
    // still holds most of it (the measured counterpart: tests/hw/h200/cache2/ncu/k_cache_warm.csv,
    // recorded with --cache-control none).
    let dir = std::env::temp_dir().join(format!("gms-warm-{}", std::process::id()));
    std::fs::create_dir_all(&dir).expect("temp dir");
    let ptx = std::fs::read_to_string(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/hw/kernels/cache.ptx"
    ))
    .expect("cache.ptx");
    std::fs::write(dir.join("k.ptx"), ptx).expect("write ptx");
    let spec = |caches: &str| {
        format!(
            "ptx = \"k.ptx\"\n{caches}\n[buffers.out]\ntype = \"f32\"\nlen = 270336\n\
             [buffers.in]\ntype = \"f32\"\nlen = 2097152\n\
             [[launch]]\nkernel = \"_Z6rereadPfPKfii\"\ngrid = [1056]\nblock = [256]\n\
             args = [\"out\", \"in\", 2097152, 1]\n\
             [[launch]]\nkernel = \"_Z6rereadPfPKfii\"\ngrid = [1056]\nblock = [256]\n\
             args = [\"out\", \"in\", 2097152, 1]\n"
        )
    };
    let dram = |caches: &str| {
        let p = dir.join("s.toml");
        std::fs::write(&p, spec(caches)).expect("write spec");
        let r = run(p.to_str().expect("utf-8 path"));
        let v: Vec<f64> = r
            .launches
            .iter()
            .map(|l| l.metrics["dram__sectors_read.sum"])
            .collect();
        (v, r.launches[1].caches.clone())
    };
    let (cold, c) = dram("");
    assert_eq!(c.as_deref(), Some("cold"));
    assert_eq!(cold, vec![262144.0, 262144.0], "8 MB from DRAM each time");
    let (warm, w) = dram("caches = \"warm\"");
    assert_eq!(w.as_deref(), Some("warm"));
    assert_eq!(warm[0], 262144.0);
    assert!(
        warm[1] < 1000.0,
        "second warm launch read {} sectors",
        warm[1]
    );
    let _ = std::fs::remove_dir_all(&dir);
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
