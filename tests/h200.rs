//! The simulator against a real H200: every example and validation spec is run and compared
//! with the data recorded on the hardware (tests/hw/h200/hw: outputs, their SHA-256, and Nsight
//! Compute's CSV for the same PTX; see tests/hw/README.md for the command, date and versions).
//!
//! Outputs must be equal byte for byte. Counters must be equal for every metric of the hardware
//! data (`compare` fails if one side lacks a metric, see `NOT_SIMULATED` in
//! src/report/compare.rs), except exactly the (program, launch, metric) pairs of [`EXCLUSIONS`],
//! each with its cause, all of which must still differ (`exclusions_are_still_needed`).
//!
//! One output word is allowed one documented difference: result 138 of `isa_float`
//! (`__dsqrt_ru(fabs(x))` for a NaN `x`, the high word) keeps the NaN's sign on the H200, because
//! ptxas folds the `abs.f64` into its square-root sequence, whose NaN path returns the unmodified
//! operand; gpumemsim follows the PTX (`abs` clears the sign). Only that bit of that word may differ.

use std::collections::BTreeMap;
use std::path::Path;
use std::sync::OnceLock;

use gpumemsim::report::compare::{compare, parse_ncu_csv, Comparison};
use gpumemsim::report::Report;
use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;
use sha2::{Digest, Sha256};

const HW: &str = "tests/hw/h200/hw";

mod common;
use common::CASES;

/// One excluded (program, launch, metric) set: the listed launches (1-based, as `gpumemsim
/// compare` numbers them) of `program` run `kernel` (the name before any template arguments) and
/// differ from the H200 in `metric` for the stated `cause`.
struct Exclusion {
    program: &'static str,
    launches: &'static [usize],
    kernel: &'static str,
    metric: &'static str,
    cause: &'static str,
}

const fn ex(
    program: &'static str,
    launches: &'static [usize],
    kernel: &'static str,
    metric: &'static str,
    cause: &'static str,
) -> Exclusion {
    Exclusion {
        program,
        launches,
        kernel,
        metric,
        cause,
    }
}

const OCC: &str = "launch__occupancy_limit_shared_mem";

/// Measured: Nsight Compute reports the block limit under the shared-memory size the driver
/// configured for the launch (`launch__shared_mem_config_size`, recorded for every launch in
/// tests/hw/h200/cache/ncu, not in these CSVs): `floor(config / (static + dynamic + 1 KB))` for
/// all 203 launches. gpumemsim reports the limit under the largest configuration (228 KB), as
/// `cudaOccupancyMaxActiveBlocksPerMultiprocessor` does (checked against the CUDA API in
/// tests/occupancy.rs). How the driver picks the size is not found: "the smallest configuration
/// that holds the blocks the other limits allow" gives 182 of the 203, and a rule fitted to all
/// 203 fails 20 of the 131 corpus launches (tests/hw/h200/corpus/ncu); the analysis and the
/// bounds the data set are in the module documentation of src/gpu/occupancy.rs. The launches
/// where the limit already agrees (k_shared_wide, shared_stride: 228 KB) are compared.
const CARVEOUT: &str = "driver's per-launch shared-memory carveout not modelled";
/// Measured (tests/hw/h200/hw/logs/k_local.sass): ptxas spills registers of `local_spill` to
/// local memory; the PTX has no local traffic. The report shows ptxas's spill bytes.
const SPILL: &str = "ptxas register spilling (SASS STL/LDL the PTX does not have)";
/// Measured (same SASS): shared reductions at a uniform address are likewise one elected lane
/// (`@P2 ATOMS`), `atomicAdd` on a shared u64 becomes an `LDS.64` + `ATOMS.CAST.SPIN.64` retry
/// loop whose iterations depend on contention timing, and `atomicAdd(.., 1)` on four slots
/// becomes `ATOMS.POPC.INC`; none is modelled, and the loop's counts are not deterministic.
const SHARED_ATOM_SASS: &str = "ptxas's shared-atomic expansion (elected lane, CAS retry loop)";

/// Measured (tests/hw/h200/hw/logs/k_warp_masks.sass, `mask_intrinsics`): ptxas runs each
/// collective whose member mask splits the warp inside a `BSSY .. WARPSYNC.EXCLUSIVE mask ..
/// BSYNC` region, which the H200 executes once per mask group, and it scheduled the stores of
/// `o[2]`, `o[3]` and `o[4]` (STG at 0x310, 0x390, 0x410) into the regions of the next
/// collectives, whose masks `half`, `quarter` and `odd` make 2, 4 and 2 groups: 1 + 3 + 1 = 5
/// more STG per warp, x 16 warps = 80 (336 measured, 256 in the PTX). Counted from the PTX until
/// gpumemsim executes SASS (issue 9).
const SPLIT_STORES: &str =
    "ptxas put stores inside WARPSYNC.EXCLUSIVE regions run once per mask group";

/// Every (launch, metric) pair excluded from `counters_equal_the_h200s`, with its cause.
const EXCLUSIONS: &[Exclusion] = &[
    ex("bank_columns", &[1, 2], "bank_columns", OCC, CARVEOUT),
    ex("broadcast", &[1], "broadcast_read", OCC, CARVEOUT),
    ex("broadcast", &[2, 3], "multicast_read", OCC, CARVEOUT),
    ex("constant", &[1], "const_uniform", OCC, CARVEOUT),
    ex("constant", &[2, 3, 4], "const_divergent", OCC, CARVEOUT),
    ex("copy_16m", &[1], "copy", OCC, CARVEOUT),
    ex(
        "global_patterns",
        &[1, 2, 3],
        "copy_coalesced",
        OCC,
        CARVEOUT,
    ),
    ex("global_patterns", &[4], "copy_chunked", OCC, CARVEOUT),
    ex("global_patterns", &[5, 6, 7, 8], "copy_2d", OCC, CARVEOUT),
    ex("histogram", &[1, 2], "histogram256", OCC, CARVEOUT),
    ex("matmul", &[1, 2], "fill_small", OCC, CARVEOUT),
    ex("matmul", &[3, 4], "matmul_tiled", OCC, CARVEOUT),
    ex("transpose", &[1], "transpose_naive", OCC, CARVEOUT),
    ex("transpose", &[2, 3], "transpose_tile", OCC, CARVEOUT),
    ex("warp_reduce", &[1], "warp_reduce_sum", OCC, CARVEOUT),
    ex(
        "k_constant",
        &[1, 2, 3, 4, 5, 6],
        "const_distinct",
        OCC,
        CARVEOUT,
    ),
    ex("k_constant", &[7, 8], "const_bytes", OCC, CARVEOUT),
    ex(
        "k_global",
        &[
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
            25, 26, 27, 28, 29, 30, 31, 32, 33, 34, 35, 36,
        ],
        "gl_stride",
        OCC,
        CARVEOUT,
    ),
    ex("k_global", &[37, 38], "gl_v2_ld", OCC, CARVEOUT),
    ex("k_global", &[39, 40], "gl_v4_ld", OCC, CARVEOUT),
    ex("k_global", &[41], "gl_v2_st", OCC, CARVEOUT),
    ex("k_global", &[42, 43], "gl_v4_st", OCC, CARVEOUT),
    ex("k_global", &[44, 45, 46], "gl_st_stride", OCC, CARVEOUT),
    ex("k_global", &[47], "gl_gather", OCC, CARVEOUT),
    ex("k_global", &[48], "gl_pred_off", OCC, CARVEOUT),
    ex("k_global", &[49, 50, 51], "gl_atom", OCC, CARVEOUT),
    ex("k_global", &[52, 53, 54], "gl_red", OCC, CARVEOUT),
    ex("k_local", &[1, 2], "local_array", OCC, CARVEOUT),
    ex("k_local", &[3], "local_v4", OCC, CARVEOUT),
    ex("k_local", &[4], "local_spill", OCC, CARVEOUT),
    ex("k_seed_gpu", &[1, 2], "gpu_0", OCC, CARVEOUT),
    ex("k_seed_gpu", &[3], "gpu_1", OCC, CARVEOUT),
    ex("k_seed_gpu", &[4, 5, 6, 7], "gpu_2", OCC, CARVEOUT),
    ex("k_shared_patterns", &[1, 2], "sh_column", OCC, CARVEOUT),
    ex(
        "k_shared_patterns",
        &[3, 4, 5, 6, 7],
        "sh_pattern",
        OCC,
        CARVEOUT,
    ),
    ex("k_shared_patterns", &[8], "sh_xor_swizzle", OCC, CARVEOUT),
    ex(
        "k_shared_patterns",
        &[9, 10, 11, 12],
        "sh_subword",
        OCC,
        CARVEOUT,
    ),
    ex(
        "k_shared_patterns",
        &[13, 14, 15],
        "sh_atomic",
        OCC,
        CARVEOUT,
    ),
    ex(
        "k_shared_stride",
        &[
            1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20, 21, 22, 23, 24,
            25, 26, 27, 28, 29, 30, 31, 32, 33,
        ],
        "sh_stride",
        OCC,
        CARVEOUT,
    ),
    ex(
        "k_shared_stride",
        &[34, 35, 36, 37, 38, 39, 40, 41],
        "sh_store_stride",
        OCC,
        CARVEOUT,
    ),
    ex("k_isa", &[1], "isa_warp", OCC, CARVEOUT),
    ex("k_isa", &[2], "isa_int", OCC, CARVEOUT),
    ex("k_isa", &[3], "isa_float", OCC, CARVEOUT),
    ex("k_isa", &[4], "isa_atom_init", OCC, CARVEOUT),
    ex("k_isa", &[5], "isa_atom", OCC, CARVEOUT),
    ex("k_host_steps", &[1, 2, 3, 4, 5, 6], "add1", OCC, CARVEOUT),
    ex("k_host_steps", &[7], "cscale", OCC, CARVEOUT),
    ex("k_host_steps", &[8, 9], "acc", OCC, CARVEOUT),
    ex("k_warp_masks", &[1], "mask_intrinsics", OCC, CARVEOUT),
    ex("k_warp_masks", &[2], "mask_groups", OCC, CARVEOUT),
    ex("k_warp_masks", &[3], "mask_partial_warp", OCC, CARVEOUT),
    ex(
        "k_warp_masks",
        &[1],
        "mask_intrinsics",
        "smsp__sass_inst_executed_op_global_st.sum",
        SPLIT_STORES,
    ),
    ex(
        "k_warp_masks",
        &[1],
        "mask_intrinsics",
        "l1tex__t_requests_pipe_lsu_mem_global_op_st.sum",
        SPLIT_STORES,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "smsp__sass_inst_executed_op_local_ld.sum",
        SPILL,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "smsp__sass_inst_executed_op_local_st.sum",
        SPILL,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum",
        SPILL,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "l1tex__t_requests_pipe_lsu_mem_local_op_st.sum",
        SPILL,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum",
        SPILL,
    ),
    ex(
        "k_local",
        &[4],
        "local_spill",
        "l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum",
        SPILL,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "smsp__sass_inst_executed_op_shared_atom.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "smsp__sass_inst_executed_op_shared_ld.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum",
        SHARED_ATOM_SASS,
    ),
    ex(
        "k_isa",
        &[5],
        "isa_atom",
        "l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum",
        SHARED_ATOM_SASS,
    ),
];

/// The exclusion covering this comparison, if any.
fn exclusion(program: &str, c: &Comparison) -> Option<&'static Exclusion> {
    EXCLUSIONS.iter().find(|e| {
        e.program == program
            && e.metric == c.metric
            && e.launches.contains(&(c.launch + 1))
            && (c.kernel == e.kernel || c.kernel.starts_with(&format!("{}<", e.kernel)))
    })
}

fn hashes() -> BTreeMap<String, String> {
    let text = std::fs::read_to_string(format!("{HW}/outputs.sha256")).expect("outputs.sha256");
    text.lines()
        .filter_map(|l| {
            l.split_once("  ")
                .map(|(h, p)| (p.trim().to_string(), h.trim().to_string()))
        })
        .collect()
}

fn run(spec_path: &str) -> Report {
    let spec = Spec::load(spec_path).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        write_outputs: false,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{spec_path}: {e}"))
}

/// The report of every case, run once for all the tests of this file.
fn reports() -> &'static [Report] {
    static REPORTS: OnceLock<Vec<Report>> = OnceLock::new();
    REPORTS.get_or_init(|| CASES.iter().map(|(spec, _)| run(spec)).collect())
}

/// Every comparison of every case, with its program, and the number of launches.
fn comparisons() -> (Vec<(&'static str, Comparison)>, usize) {
    let mut out = Vec::new();
    let mut launches = 0;
    for ((spec, program), report) in CASES.iter().zip(reports()) {
        let csv = std::fs::read_to_string(format!("{HW}/ncu/{program}.csv")).expect("ncu csv");
        let ncu = parse_ncu_csv(&csv).unwrap_or_else(|e| panic!("{program}: {e}"));
        let cmp = compare(report, &ncu).unwrap_or_else(|e| panic!("{spec}: {e}"));
        launches += report.launches.len();
        out.extend(cmp.into_iter().map(|c| (*program, c)));
    }
    (out, launches)
}

/// The documented exception (see the module docs): words of result 138 of `isa_float` may
/// differ in the sign bit alone; every other word must be equal.
fn isa_sqrt_sign_only(rel: &str, hw: &[u8], sim: &[u8]) -> bool {
    if !rel.ends_with("k_isa/isa_float.bin") || hw.len() != sim.len() {
        return false;
    }
    let threads = 512;
    hw.chunks(4)
        .zip(sim.chunks(4))
        .enumerate()
        .all(|(i, (h, s))| {
            let (h, s) = (
                u32::from_le_bytes([h[0], h[1], h[2], h[3]]),
                u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
            );
            h == s || (i / threads == 138 && h ^ s == 0x8000_0000)
        })
}

#[test]
fn outputs_equal_the_h200s() {
    let hashes = hashes();
    let mut checked = 0;
    let mut bad = Vec::new();
    for ((spec, program), report) in CASES.iter().zip(reports()) {
        for (_, file, bytes) in &report.outputs {
            let rel = format!("outputs/{program}/{file}");
            let raw = Path::new(HW).join(&rel);
            let ok = if raw.exists() {
                std::fs::read(&raw)
                    .map(|hw| hw == *bytes || isa_sqrt_sign_only(&rel, &hw, bytes))
                    .unwrap_or(false)
            } else {
                let want = hashes
                    .get(&rel)
                    .unwrap_or_else(|| panic!("no H200 output or hash for {rel}"));
                let got = format!("{:x}", Sha256::digest(bytes));
                &got == want
            };
            checked += 1;
            if !ok {
                bad.push(format!("{spec}: {rel} differs from the H200's"));
            }
        }
    }
    eprintln!("{checked} outputs compared");
    assert!(checked >= 44, "only {checked} outputs compared");
    assert!(
        bad.is_empty(),
        "{} of {checked} outputs differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn counters_equal_the_h200s() {
    let (cmp, launches) = comparisons();
    let mut compared = 0;
    let mut bad = Vec::new();
    for (program, c) in &cmp {
        if exclusion(program, c).is_some() {
            continue;
        }
        compared += 1;
        if !c.equal() {
            bad.push(format!(
                "{program} launch {} {}: {} simulated {} H200 {}",
                c.launch + 1,
                c.kernel,
                c.metric,
                c.simulated,
                c.hardware
            ));
        }
    }
    eprintln!("{launches} launches, {compared} metric values compared");
    // 215 launches of 37 Nsight Compute metrics each (40 recorded, less the 3 of NOT_SIMULATED),
    // less the excluded pairs.
    assert!(launches >= 215, "only {launches} launches");
    assert!(compared >= 7766, "only {compared} metric values compared");
    assert!(
        bad.is_empty(),
        "{} of {compared} values differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn exclusions_are_still_needed() {
    // Every excluded pair must exist and still differ; when one starts to match, its exclusion
    // goes. Pairs are listed once.
    let (cmp, _) = comparisons();
    let mut stale = Vec::new();
    let mut seen = std::collections::BTreeSet::new();
    for e in EXCLUSIONS {
        assert!(!e.cause.is_empty());
        for &launch in e.launches {
            assert!(
                seen.insert((e.program, launch, e.metric)),
                "{} launch {launch} {} is excluded twice",
                e.program,
                e.metric
            );
            let found = cmp
                .iter()
                .find(|(p, c)| *p == e.program && c.launch + 1 == launch && c.metric == e.metric);
            match found {
                None => stale.push(format!(
                    "{} launch {launch} {}: no such comparison",
                    e.program, e.metric
                )),
                Some((p, c)) if exclusion(p, c).is_none() => stale.push(format!(
                    "{} launch {launch} runs {}, not {}",
                    e.program, c.kernel, e.kernel
                )),
                Some((_, c)) if c.equal() => stale.push(format!(
                    "{} launch {launch} {} {}: now equal ({}), drop the exclusion ({})",
                    e.program, c.kernel, e.metric, c.hardware, e.cause
                )),
                Some(_) => {}
            }
        }
    }
    assert!(stale.is_empty(), "stale exclusions:\n{}", stale.join("\n"));
}
