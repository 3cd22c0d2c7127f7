//! ptxas's `ATOMS.CAST.SPIN.64` loop (`spin_sh` of tests/hw/cas/cas_probe.cu) with 5..32 warps
//! in one block and 2 and 4 blocks of 8 warps, against the H200 (tests/hw/h200/cas/warps, made
//! by tests/hw/cas/warps_collect.sh; README there): the loop instruction's executions, thread
//! executions and L1 wavefronts (shared) in three SourceCounters profiles of one call
//! (`spin.csv`, packed by tests/hw/cas/warps_analyze.py).
//!
//! With more than 4 warps the H200's counts differ between the profiles (8 warps: 2,008, 2,000
//! and 2,001 executions), so there is no one order to model: every value is compared as
//! `gpumemsim::report::compare` compares several recordings ([`values_agree_with_the_h200s`]):
//! equal to the value the three profiles share, or, where they differ, within their [min, max].
//! The values outside are [`OUTSIDE`], each with its simulated value asserted exactly (the test
//! fails when the gap grows, shrinks or closes), and [`the_h200_counts_depend_on_the_run`]
//! fails once a re-recording shows the spread gone.

use std::collections::BTreeMap;

use gpumemsim::report::compare::fields;
use gpumemsim::run::{run_spec, Isa, RunOptions};
use gpumemsim::spec::Spec;

const SPEC: &str = "tests/hw/cas/cas_warps.toml";
const CSV: &str = "tests/hw/h200/cas/warps/spin.csv";
const COLUMNS: &[(&str, &str)] = &[
    ("executed", "executed"),
    ("threads", "threads"),
    ("wavefronts_shared", "l1_wavefronts_shared"),
];

/// (launch, column) -> the three profiles' values.
fn recorded() -> BTreeMap<(usize, &'static str), Vec<u64>> {
    let text = std::fs::read_to_string(CSV).unwrap_or_else(|e| panic!("{CSV}: {e}"));
    let mut it = text.lines();
    let header = fields(it.next().expect("header"));
    let col = |n: &str| {
        header
            .iter()
            .position(|h| h == n)
            .unwrap_or_else(|| panic!("{CSV}: no column {n}"))
    };
    let launch = col("launch");
    let mut m: BTreeMap<(usize, &'static str), Vec<u64>> = BTreeMap::new();
    for l in it {
        let f = fields(l);
        let i: usize = f[launch].parse().expect("launch");
        for (c, _) in COLUMNS {
            m.entry((i, *c))
                .or_default()
                .push(f[col(c)].parse().expect("a count"));
        }
    }
    m
}

/// Per launch, the simulator's loop instruction: column -> value.
fn simulated() -> Vec<BTreeMap<&'static str, u64>> {
    let spec = Spec::load(SPEC).unwrap_or_else(|e| panic!("{SPEC}: {e}"));
    let opts = RunOptions {
        write_outputs: false,
        caches: false,
        isa: Isa::Sass,
        ..RunOptions::default()
    };
    let r = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{SPEC}: {e}"));
    let json = serde_json::to_value(&r).expect("the report serializes");
    let launches = json["launches"].as_array().expect("launches");
    assert_eq!(launches.len(), 13, "cas_warps has 13 launches");
    launches
        .iter()
        .map(|l| {
            let spin: Vec<&serde_json::Value> = l["lines"]
                .as_array()
                .expect("lines")
                .iter()
                .flat_map(|ln| ln["sass"].as_array().into_iter().flatten())
                .filter(|i| i["text"].as_str().is_some_and(|t| t.contains("CAST.SPIN")))
                .collect();
            assert_eq!(spin.len(), 1, "one ATOMS.CAST.SPIN.64 per launch");
            COLUMNS
                .iter()
                .map(|(c, f)| (*c, spin[0][*f].as_u64().unwrap_or(0)))
                .collect()
        })
        .collect()
}

/// The values outside the profiles' range (or unequal to the value they share), with the
/// simulated value today: (launch, column, simulated). The cause, measured: the block's warps
/// take turns in each round of the spin in a fixed order (`gpumemsim::exec::simt`,
/// `cas_round`), while on the H200 the order of more than 4 warps (two or more per SM
/// sub-partition) depends on the run, and the three profiles spread less than the model's
/// order lies from them. Print today's list with `GMS_LIST_GAPS=1`.
const OUTSIDE: &[(usize, &str, u64)] = &[
    (0, "executed", 790),
    (0, "wavefronts_shared", 2360),
    (1, "executed", 1137),
    (1, "wavefronts_shared", 3396),
    (2, "executed", 1547),
    (2, "wavefronts_shared", 4620),
    (3, "executed", 2020),
    (3, "wavefronts_shared", 6032),
    (4, "executed", 4542),
    (4, "wavefronts_shared", 13560),
    (5, "executed", 8072),
    (5, "threads", 131328),
    (5, "wavefronts_shared", 24096),
    (6, "executed", 32272),
    (6, "threads", 524800),
    (6, "wavefronts_shared", 96320),
    (7, "executed", 4040),
    (7, "wavefronts_shared", 12064),
    (11, "executed", 904),
    (11, "wavefronts_shared", 1808),
    (12, "executed", 8080),
    (12, "wavefronts_shared", 24128),
];

#[test]
fn values_agree_with_the_h200s() {
    let hw = recorded();
    let sim = simulated();
    let (mut compared, mut ranged) = (0, 0);
    let mut bad = Vec::new();
    let list = std::env::var_os("GMS_LIST_GAPS").is_some();
    for ((launch, c), v) in &hw {
        assert_eq!(v.len(), 3, "launch {launch} {c}: three profiles");
        let (lo, hi) = (
            *v.iter().min().expect("three"),
            *v.iter().max().expect("three"),
        );
        compared += 1;
        ranged += usize::from(lo != hi);
        let got = sim[*launch][c];
        let agrees = (lo..=hi).contains(&got);
        let recorded = if lo == hi {
            format!("{lo} (3 profiles)")
        } else {
            format!("range {lo}-{hi} (3 profiles)")
        };
        if list && !agrees {
            eprintln!("    ({launch}, \"{c}\", {got}),");
        }
        match OUTSIDE.iter().find(|o| o.0 == *launch && o.1 == *c) {
            None if !agrees => bad.push(format!(
                "launch {launch} {c}: H200 {recorded} simulated {got}"
            )),
            None => {}
            Some(_) if agrees => bad.push(format!(
                "launch {launch} {c}: now agrees (H200 {recorded}, simulated {got}): drop it \
                 from OUTSIDE"
            )),
            Some(&(_, _, s)) if s != got => bad.push(format!(
                "launch {launch} {c}: H200 {recorded}, simulated {got}; OUTSIDE records {s}: \
                 update it"
            )),
            Some(_) => {}
        }
    }
    for (launch, c, _) in OUTSIDE {
        assert!(
            hw.contains_key(&(*launch, *c)),
            "launch {launch} {c}: in OUTSIDE, not recorded"
        );
    }
    eprintln!("{compared} values compared, {ranged} of them against a range");
    // 13 launches x 3 columns.
    assert_eq!(compared, 39, "values compared");
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn the_h200_counts_depend_on_the_run() {
    // Launches 0..7 and 11..12 (5, 6, 7, 8, 12, 16, 32 warps; 2 blocks of 8; 16 warps of 4
    // lanes; 4 blocks of 8): the loop's executions differ between the profiles, so no
    // deterministic order of the block's warps reproduces them.
    let hw = recorded();
    for launch in [0, 1, 2, 3, 4, 5, 6, 7, 11, 12] {
        let v = &hw[&(launch, "executed")];
        assert!(
            v.iter().any(|x| *x != v[0]),
            "launch {launch}: every profile gives {} executions; model it",
            v[0]
        );
    }
}
