//! The executor's specialised paths (in-bounds scalar and vector accesses, common ALU operand
//! shapes) and the memory models' shortcuts (conflict-free shared accesses, sectors already in
//! order, a uniform constant load) against the general paths: every example and validation spec of
//! `tests/hardware/h200.rs` is run both ways and must give the same outputs, byte for byte, and the same
//! report, every metric and line included.

use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;

use crate::common;

fn run(spec: &Spec, fast_paths: bool) -> (serde_json::Value, Vec<(String, String, Vec<u8>)>) {
    // The executor's specialised paths are those of the PTX executor.
    let mut opts = RunOptions {
        write_outputs: false,
        isa: gpumemsim::run::Isa::Ptx,
        ..RunOptions::default()
    };
    opts.launch.fast_paths = fast_paths;
    let r = run_spec(spec, &opts, &mut |_, _, _| {})
        .unwrap_or_else(|e| panic!("{}: fast paths {fast_paths}: {e}", spec.path.display()));
    let json = serde_json::to_value(&r).expect("the report serializes");
    (json, r.outputs)
}

#[test]
fn fast_and_general_paths_agree_on_every_validation_spec() {
    let mut launches = 0;
    for (path, _) in common::CASES {
        let spec = Spec::load(path).unwrap_or_else(|e| panic!("{e}"));
        let (fast, fast_out) = run(&spec, true);
        let (general, general_out) = run(&spec, false);
        assert_eq!(fast_out.len(), general_out.len(), "{path}: outputs");
        for (f, g) in fast_out.iter().zip(&general_out) {
            assert!(f == g, "{path}: output {} differs between the paths", f.0);
        }
        if fast != general {
            let (fl, gl) = (&fast["launches"], &general["launches"]);
            for i in 0..fl.as_array().map_or(0, |a| a.len()) {
                assert_eq!(
                    fl[i]["metrics"],
                    gl[i]["metrics"],
                    "{path}: launch {} metrics (fast, general)",
                    i + 1
                );
            }
            panic!("{path}: reports differ between the paths");
        }
        launches += fast["launches"].as_array().map_or(0, |a| a.len());
    }
    assert!(launches >= 180, "only {launches} launches compared");
}
