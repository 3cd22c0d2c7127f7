//! The simulator against a real H200: every example and validation spec is run and compared
//! with the data recorded on the hardware (tests/hw/h200/hw: outputs, their SHA-256, and Nsight
//! Compute's CSV for the same PTX; see tests/hw/README.md for the command, date and versions).
//!
//! Outputs must be equal byte for byte. Counters must be equal, metric by metric, for every
//! metric both sides report, except these, each for a stated reason:
//! - `launch__occupancy_limit_shared_mem`: the driver picks the SM's shared-memory size at launch
//!   by a heuristic that is not documented; gpumemsim reports the limit under the largest
//!   configuration, as `cudaOccupancyMaxActiveBlocksPerMultiprocessor` does (that calculator is
//!   checked against the CUDA API in tests/occupancy.rs).
//! - every local-memory counter of `local_spill` (kernels/local.toml launch 4): its local traffic is
//!   register spilling that ptxas adds; the PTX has none. The report shows ptxas's spill bytes.
//! - the memory counters of `isa_atom` (kernels/isa.toml launch 5): ptxas expands some shared
//!   atomics (64-bit min/max, inc/dec) into compare-and-swap loops, and contended global
//!   reductions of several kinds coalesce differently; neither is modelled yet (its outputs are
//!   compared exactly).
//!
//! One output word is allowed one documented difference: result 138 of `isa_float`
//! (`__dsqrt_ru(fabs(x))` for a NaN `x`, the high word) keeps the NaN's sign on the H200, because
//! ptxas folds the `abs.f64` into its square-root sequence, whose NaN path returns the unmodified
//! operand; gpumemsim follows the PTX (`abs` clears the sign). Only that bit of that word may differ.

use std::collections::BTreeMap;
use std::path::Path;

use gpumemsim::report::compare::{compare, parse_ncu_csv};
use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;
use sha2::{Digest, Sha256};

const HW: &str = "tests/hw/h200/hw";

/// (spec, name of its host program in the hardware run)
const CASES: &[(&str, &str)] = &[
    ("examples/bank_columns.toml", "bank_columns"),
    ("examples/broadcast.toml", "broadcast"),
    ("examples/constant.toml", "constant"),
    ("examples/copy_16m.toml", "copy_16m"),
    ("examples/global_patterns.toml", "global_patterns"),
    ("examples/histogram.toml", "histogram"),
    ("examples/matmul.toml", "matmul"),
    ("examples/shared_stride.toml", "shared_stride"),
    ("examples/transpose.toml", "transpose"),
    ("examples/warp_reduce.toml", "warp_reduce"),
    ("tests/hw/kernels/constant.toml", "k_constant"),
    ("tests/hw/kernels/global.toml", "k_global"),
    ("tests/hw/kernels/local.toml", "k_local"),
    ("tests/hw/kernels/seed_gpu.toml", "k_seed_gpu"),
    ("tests/hw/kernels/shared_patterns.toml", "k_shared_patterns"),
    ("tests/hw/kernels/shared_stride.toml", "k_shared_stride"),
    ("tests/hw/kernels/shared_wide.toml", "k_shared_wide"),
    ("tests/hw/kernels/isa.toml", "k_isa"),
];

fn excluded(program: &str, launch: usize, kernel: &str, metric: &str) -> bool {
    metric == "launch__occupancy_limit_shared_mem"
        || (program == "k_local"
            && kernel == "local_spill"
            && metric.contains("local")
            && launch == 3)
        || (program == "k_isa"
            && kernel == "isa_atom"
            && launch == 4
            && !metric.starts_with("launch__"))
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

fn run(spec_path: &str) -> gpumemsim::report::Report {
    let spec = Spec::load(spec_path).unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        write_outputs: false,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{spec_path}: {e}"))
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
    for (spec, program) in CASES {
        let report = run(spec);
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
    let mut compared = 0;
    let mut bad = Vec::new();
    let mut launches = 0;
    for (spec, program) in CASES {
        let report = run(spec);
        let csv = std::fs::read_to_string(format!("{HW}/ncu/{program}.csv")).expect("ncu csv");
        let ncu = parse_ncu_csv(&csv).unwrap_or_else(|e| panic!("{program}: {e}"));
        let cmp = compare(&report, &ncu).unwrap_or_else(|e| panic!("{spec}: {e}"));
        launches += report.launches.len();
        for c in cmp {
            if excluded(program, c.launch, &c.kernel, &c.metric) {
                continue;
            }
            compared += 1;
            if !c.equal() {
                bad.push(format!(
                    "{spec} launch {} {}: {} simulated {} H200 {}",
                    c.launch + 1,
                    c.kernel,
                    c.metric,
                    c.simulated,
                    c.hardware
                ));
            }
        }
    }
    eprintln!("{launches} launches, {compared} metric values compared");
    assert!(launches >= 180, "only {launches} launches");
    assert!(compared >= 5000, "only {compared} metric values compared");
    assert!(
        bad.is_empty(),
        "{} of {compared} values differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}

#[test]
fn exclusions_are_still_needed() {
    // If an excluded metric starts to match, the exclusion should go: check they still differ.
    let report = run("tests/hw/kernels/local.toml");
    let csv = std::fs::read_to_string(format!("{HW}/ncu/k_local.csv")).expect("csv");
    let cmp = compare(&report, &parse_ncu_csv(&csv).expect("parse")).expect("compare");
    assert!(cmp
        .iter()
        .any(|c| c.metric == "smsp__sass_inst_executed_op_local_st.sum"
            && c.kernel == "local_spill"
            && !c.equal()));
}
