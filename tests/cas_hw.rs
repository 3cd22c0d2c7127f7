//! Contending compare-and-swap lanes against the H200 (tests/hw/h200/cas, made by
//! tests/hw/cas/cas_collect.sh; README there): the Source page of `cas_probe`
//! (tests/hw/cas/cas_probe.toml, the committed sm_90 SASS the H200 ran), instruction by
//! instruction, for the instructions executed, thread instructions executed and L1 wavefronts
//! (shared) of every launch:
//!
//! - `spin_sh`: ptxas's `LDS.64` + `ATOMS.CAST.SPIN.64` retry loop of a shared 64-bit
//!   `atomicAdd`, 1-32 lanes of one warp, 2 and 4 warps, 1, 2 and 4 blocks: the block's warps
//!   take turns going first in each round of retries (`gpumemsim::exec::simt`, `cas_round`),
//!   and the spin's wavefronts are 2 per active half-warp (`gpumemsim::mem::shared_banks`).
//! - `cas_sh` / `cas_g`: a user `atomicCAS` loop on one shared / global u64 (one warp: lanes in
//!   ascending order, one per iteration; the loop holds a `YIELD`, after which the lanes
//!   leaving the loop run on alone up to `EXIT`: `gpumemsim::sass`).
//! - `cas_pat`: one `ATOMS.CAS` per address pattern, 32- and 64-bit (twice the atomic's
//!   wavefronts).
//!
//! [`EXCLUDED`] sets apart whole launches, each with its measured cause;
//! [`exclusions_are_still_needed`] fails once one of them agrees.

use std::collections::BTreeMap;

use gpumemsim::report::compare::fields;
use gpumemsim::run::{run_spec, Isa, RunOptions};
use gpumemsim::spec::Spec;

const SPEC: &str = "tests/hw/cas/cas_probe.toml";
const CSV: &str = "tests/hw/h200/cas/source.csv";

/// The Source page's columns compared: (the CSV's column, the JSON report's per-instruction
/// field).
const COLUMNS: &[(&str, &str)] = &[
    ("executed", "executed"),
    ("threads", "threads"),
    ("wavefronts_shared", "l1_wavefronts_shared"),
];

const USER_LOOP: &str = "a user atomicCAS loop (LDS.64/LDG reload, then ATOMS.CAS.64 or \
     ATOMG.E.CAS.64) with more than one warp on the word: its retry order is not modelled (the \
     block's CAS rounds apply to ATOMS.CAST.SPIN.64 only); several of these launches differ \
     between the two H200 passes of the same call (launch 31: 845 and 1,226 CAS executions, \
     launch 41: 5,052 and 5,088), so the order depends on timing";

/// Launches (0-based, as in the CSV) set apart, with the cause.
const EXCLUDED: &[(usize, &str)] = &[
    (25, USER_LOOP),
    (26, USER_LOOP),
    (28, USER_LOOP),
    (29, USER_LOOP),
    (31, USER_LOOP),
    (32, USER_LOOP),
    (
        30,
        "spin_sh with 8 warps in one block (two per SM sub-partition): the H200 2,012 \
         executions of the ATOMS.CAST.SPIN.64 (both passes; thread executions 32,896 equal), \
         the rounds of one to four warps give 2,020; a later call (tests/hw/h200/cas/warps) \
         gave 2,008, 2,000 and 2,001 in three profiles, so the order of two warps of one \
         sub-partition depends on timing and is not modelled",
    ),
    (
        35,
        "cas_g with two blocks of one warp on one global word: the blocks run on two SMs at \
         once on the H200 (67 CAS executions in both passes), one after the other in the \
         simulator (64)",
    ),
    (37, USER_LOOP),
    (38, USER_LOOP),
    (40, USER_LOOP),
    (41, USER_LOOP),
];

struct Row {
    pass: u32,
    launch: usize,
    offset: u32,
    source: String,
    values: BTreeMap<&'static str, u64>,
}

fn rows() -> Vec<Row> {
    let text = std::fs::read_to_string(CSV).unwrap_or_else(|e| panic!("{CSV}: {e}"));
    let mut it = text.lines();
    let header = fields(it.next().expect("header"));
    let col = |n: &str| {
        header
            .iter()
            .position(|h| h == n)
            .unwrap_or_else(|| panic!("{CSV}: no column {n}"))
    };
    let (pass, launch, offset, source) = (col("pass"), col("launch"), col("offset"), col("source"));
    let cols: Vec<(&'static str, usize)> = COLUMNS.iter().map(|(c, _)| (*c, col(c))).collect();
    it.map(|l| {
        let f = fields(l);
        Row {
            pass: f[pass].parse().expect("pass"),
            launch: f[launch].parse().expect("launch"),
            offset: u32::from_str_radix(f[offset].trim_start_matches("0x"), 16).expect("offset"),
            source: f[source].clone(),
            values: cols
                .iter()
                .map(|(c, i)| (*c, f[*i].parse().expect("a count")))
                .collect(),
        }
    })
    .collect()
}

/// Per launch, the differences from the H200's first pass: (launch, text).
fn differences() -> (BTreeMap<usize, Vec<String>>, usize) {
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
    assert_eq!(launches.len(), 44, "cas_probe has 44 launches");
    let mut sim: Vec<BTreeMap<u32, &serde_json::Value>> = Vec::new();
    for l in launches {
        assert_eq!(l["isa"], "sass");
        let mut m = BTreeMap::new();
        for ln in l["lines"].as_array().expect("lines") {
            for i in ln["sass"].as_array().into_iter().flatten() {
                m.insert(i["address"].as_u64().expect("address") as u32, i);
            }
        }
        sim.push(m);
    }
    let mut diffs: BTreeMap<usize, Vec<String>> = BTreeMap::new();
    let mut compared = 0;
    for row in rows().iter().filter(|r| r.pass == 1) {
        let empty = serde_json::Value::Null;
        let s = sim[row.launch].get(&row.offset).copied().unwrap_or(&empty);
        for (c, field) in COLUMNS {
            let hw = row.values[c];
            let got = s[*field].as_u64().unwrap_or(0);
            compared += 1;
            if hw != got {
                diffs.entry(row.launch).or_default().push(format!(
                    "launch {} {:#06x} {}: {c} H200 {hw} simulated {got}",
                    row.launch, row.offset, row.source
                ));
            }
        }
    }
    (diffs, compared)
}

#[test]
fn cas_probe_counts_equal_the_h200s() {
    let (diffs, compared) = differences();
    let bad: Vec<&String> = diffs
        .iter()
        .filter(|(l, _)| !EXCLUDED.iter().any(|(e, _)| e == *l))
        .flat_map(|(_, d)| d)
        .collect();
    eprintln!("{compared} values compared");
    assert!(compared >= 8000, "only {compared} values compared");
    assert!(
        bad.is_empty(),
        "{} values differ:\n{}",
        bad.len(),
        bad.iter()
            .map(|s| s.as_str())
            .collect::<Vec<_>>()
            .join("\n")
    );
}

#[test]
fn the_spin_loops_are_recorded_alike_in_both_passes() {
    // The retry order the model follows is the H200's only if its counts do not depend on the
    // run: the spin launches (every third from 0) agree between the two Source-page passes.
    let rows = rows();
    let key = |r: &Row| (r.launch, r.offset);
    let second: BTreeMap<(usize, u32), &Row> = rows
        .iter()
        .filter(|r| r.pass == 2)
        .map(|r| (key(r), r))
        .collect();
    let mut spins = 0;
    for r in rows
        .iter()
        .filter(|r| r.pass == 1 && r.launch % 3 == 0 && r.launch < 42)
    {
        let o = second
            .get(&key(r))
            .expect("the second pass has the instruction");
        assert_eq!(r.values, o.values, "launch {} {:#06x}", r.launch, r.offset);
        spins += r.source.contains("CAST.SPIN") as usize;
    }
    assert_eq!(spins, 14, "one ATOMS.CAST.SPIN.64 per spin launch");
}

#[test]
fn exclusions_are_still_needed() {
    let (diffs, _) = differences();
    let stale: Vec<usize> = EXCLUDED
        .iter()
        .filter(|(l, cause)| !cause.is_empty() && !diffs.contains_key(l))
        .map(|(l, _)| *l)
        .collect();
    assert!(
        stale.is_empty(),
        "excluded launches that now agree: {stale:?}"
    );
}

#[test]
fn the_code_after_a_yield_loop_runs_once_per_leaving_lane() {
    // What the executor's `YIELD` rule (`gpumemsim::sass`: yielding lanes leave their
    // convergence barriers) is compared against above: on the H200, the `EXIT` after a one-warp
    // user CAS loop (which holds a `YIELD`) runs once per lane of the loop plus once for the
    // lanes that skipped it; after spin_sh's loop (no `YIELD`), once.
    let rows = rows();
    let exits = |launch: usize| -> u64 {
        rows.iter()
            .filter(|r| r.pass == 1 && r.launch == launch && r.source == "EXIT")
            .map(|r| r.values["executed"])
            .sum()
    };
    for (i, nl) in [1u64, 2, 3, 4, 8, 16, 31, 32].into_iter().enumerate() {
        let want = nl + u64::from(nl < 32);
        assert_eq!(exits(3 * i), 1, "spin_sh {nl} lanes");
        assert_eq!(exits(3 * i + 1), want, "cas_sh {nl} lanes");
        assert_eq!(exits(3 * i + 2), want, "cas_g {nl} lanes");
    }
    assert_eq!(exits(34), 64, "cas_sh, 2 blocks of 32 lanes");
}
