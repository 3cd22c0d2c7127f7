//! The report of a SASS run (`--isa sass`): Nsight Compute's instruction counters per source
//! line, the instruction mix, and the SASS of the worst lines.
//!
//! - Per line, `smsp__inst_executed.sum`, the thread-instruction counters and every
//!   `smsp__sass_inst_executed_op_*` counter add up to the launch's (whose values
//!   `tests/front/sass.rs` compares with the H200), and so do the instruction mix and the SASS
//!   listed per line, on every launch of every example and validation spec that runs as SASS;
//!   `smsp__inst_executed.sum` less the warp-instructions counted on no instruction
//!   (`gpumemsim__sass_inst_unattributed.sum`, as the H200 does: tests/hardware/sattr.rs).
//! - The spilling kernel of `tests/hw/kernels/local.toml` (`local_spill`: 255 registers, 752
//!   bytes of spill stores by ptxas) shows its `STL`/`LDL` under its worst line, each at the
//!   address and with the text of the SASS the H200 ran (`tests/hw/h200/hw/logs/k_local.sass`,
//!   `cuobjdump -sass` of the H200's build of the same PTX).

use std::collections::BTreeMap;

use gpumemsim::run::{run_spec, Isa, RunOptions};
use gpumemsim::spec::Spec;

use crate::common;

/// Validation specs whose SASS does not run yet (none: isa.toml and warp_masks.toml run as SASS
/// since issue 9's fifth and sixth sessions).
const NOT_YET: &[&str] = &[];

fn sass_report(path: &str) -> Result<gpumemsim::report::Report, String> {
    let spec = Spec::load(path).map_err(|e| e.to_string())?;
    let opts = RunOptions {
        write_outputs: false,
        caches: false,
        isa: Isa::Sass,
        ..RunOptions::default()
    };
    run_spec(&spec, &opts, &mut |_, _, _| {}).map_err(|e| e.to_string())
}

fn u(v: &serde_json::Value) -> u64 {
    v.as_u64()
        .or_else(|| v.as_f64().map(|f| f as u64))
        .unwrap_or(0)
}

#[test]
fn per_line_instruction_counters_add_up_to_the_launch() {
    let (mut launches, mut values, mut with_unattributed) = (0, 0, 0);
    for (path, _) in common::CASES {
        if NOT_YET.contains(path) {
            continue;
        }
        let r = sass_report(path).unwrap_or_else(|e| panic!("{path}: {e}"));
        let json = serde_json::to_value(&r).expect("the report serializes");
        for (i, l) in json["launches"]
            .as_array()
            .expect("launches")
            .iter()
            .enumerate()
        {
            let at = format!("{path} launch {}", i + 1);
            assert_eq!(l["isa"], "sass", "{at}");
            let metrics = l["metrics"].as_object().expect("metrics");
            let lines = l["lines"].as_array().expect("lines");
            let mut per_line: BTreeMap<String, u64> = BTreeMap::new();
            for ln in lines {
                for (k, v) in ln["metrics"].as_object().expect("line metrics") {
                    *per_line.entry(k.clone()).or_insert(0) += u(v);
                }
                // The listed SASS is the line's instructions.
                let listed: u64 = ln["sass"]
                    .as_array()
                    .map(|s| s.iter().map(|i| u(&i["executed"])).sum())
                    .unwrap_or(0);
                assert_eq!(
                    listed,
                    u(&ln["metrics"]["smsp__inst_executed.sum"]),
                    "{at}, line {}: listed SASS against the line's counter",
                    ln["line"]
                );
            }
            let unattributed = u(&metrics["gpumemsim__sass_inst_unattributed.sum"]);
            if unattributed > 0 {
                with_unattributed += 1;
            }
            let inst = u(&metrics["smsp__inst_executed.sum"]) - unattributed;
            assert!(inst > 0, "{at}: no instructions");
            let mut names: Vec<&String> = metrics
                .keys()
                .filter(|k| {
                    k.starts_with("smsp__sass_inst_executed_op_")
                        || k.starts_with("smsp__sass_thread_inst_executed")
                        || *k == "smsp__inst_executed.sum"
                })
                .collect();
            names.sort();
            assert!(names.len() >= 3, "{at}: {names:?}");
            for name in names {
                let launch = u(&metrics[name])
                    - if *name == "smsp__inst_executed.sum" {
                        unattributed
                    } else {
                        0
                    };
                let lines_sum = per_line.get(name).copied().unwrap_or(0);
                assert_eq!(lines_sum, launch, "{at}: {name}: lines against launch");
                values += 1;
            }
            for part in ["opcodes", "classes"] {
                let mix: u64 = l["inst_mix"][part]
                    .as_object()
                    .unwrap_or_else(|| panic!("{at}: no inst_mix.{part}"))
                    .values()
                    .map(u)
                    .sum();
                assert_eq!(mix, inst, "{at}: instruction mix ({part})");
            }
            launches += 1;
        }
    }
    assert!(
        launches >= 40 && values >= 200,
        "only {launches} launches, {values} values"
    );
    // warp_masks' two partition kernels.
    assert!(
        with_unattributed >= 2,
        "only {with_unattributed} launches with unattributed instructions"
    );
}

/// `/*ADDR*/ TEXT` of each instruction of `function` in a `cuobjdump -sass` listing.
fn cuobjdump_function(listing: &str, function: &str) -> BTreeMap<u32, String> {
    let mut out = BTreeMap::new();
    let mut inside = false;
    for line in listing.lines() {
        let t = line.trim();
        if let Some(f) = t.strip_prefix("Function : ") {
            inside = f.trim() == function;
            continue;
        }
        if !inside {
            continue;
        }
        let Some(rest) = t.strip_prefix("/*") else {
            continue;
        };
        let Some((addr, body)) = rest.split_once("*/") else {
            continue;
        };
        let (Ok(a), Some((inst, _))) = (u32::from_str_radix(addr, 16), body.split_once(';')) else {
            continue;
        };
        out.insert(a, inst.split_whitespace().collect::<Vec<_>>().join(" "));
    }
    out
}

#[test]
fn a_spilling_kernels_worst_line_shows_its_ldl_and_stl_as_the_h200_ran_them() {
    let r = sass_report("tests/hw/kernels/local.toml").unwrap_or_else(|e| panic!("{e}"));
    let spill = r
        .launches
        .iter()
        .position(|l| l.kernel == "local_spill")
        .expect("the local_spill launch");
    let res = r.launches[spill].resources.as_ref().expect("ptxas figures");
    assert!(res.spill_stores > 0 && res.spill_loads > 0, "it spills");
    let text = gpumemsim::report::text::render(&r, 5);
    let section = text
        .split("\nlaunch ")
        .find(|s| s.starts_with(&format!("{}: local_spill<<<", spill + 1)))
        .expect("the launch's section");
    let worst = section.split("worst lines:\n").nth(1).expect("worst lines");
    // The first finding: its header line and the indented lines under it.
    let mut it = worst.lines();
    let header = it.next().expect("a worst line");
    let first: Vec<&str> = std::iter::once(header)
        .chain(it.take_while(|l| l.starts_with("    ")))
        .collect();
    assert!(
        first.iter().any(|l| l.contains("local memory:")),
        "the worst line is local traffic:\n{section}"
    );
    let listing = std::fs::read_to_string("tests/hw/h200/hw/logs/k_local.sass")
        .expect("tests/hw/h200/hw/logs/k_local.sass");
    let h200 = cuobjdump_function(&listing, "_Z11local_spillPfPKfi");
    assert!(h200.len() > 400, "the H200's SASS of local_spill");
    let (mut ldl, mut stl) = (0, 0);
    for l in &first {
        let t = l.trim();
        let Some((addr, body)) = t.strip_prefix("/*").and_then(|r| r.split_once("*/")) else {
            continue;
        };
        let a = u32::from_str_radix(addr, 16).expect("hex address");
        // `TEXT  executed  threads`: the two counts are the last two words.
        let words: Vec<&str> = body.split_whitespace().collect();
        assert!(words.len() >= 3, "{t}");
        let inst = words[..words.len() - 2].join(" ");
        let executed: u64 = words[words.len() - 2]
            .replace(',', "")
            .parse()
            .expect("count");
        assert!(executed > 0, "{t}");
        assert_eq!(
            h200.get(&a),
            Some(&inst),
            "{t}: not the H200's instruction at {a:#06x}"
        );
        ldl += inst.starts_with("LDL") as u32;
        stl += inst.starts_with("STL") as u32;
    }
    assert!(
        ldl > 0 && stl > 0,
        "LDL {ldl}, STL {stl} listed:\n{section}"
    );
}
