//! The report's texture advice (`gpumemsim::mem::texture::advice`, the text report's
//! "2D global loads" finding) on the global-load patterns of examples/global_patterns.toml: the
//! column walk of `copy_2d` with one column per warp gets it, with the sectors a block-linear
//! array would touch; the chunked walk, whose reuse L1 already holds, and the coalesced copies do
//! not. The rule's numbers come from the H200 (tests/hw/h200/texture_mem: a column of floats,
//! 65,536 sectors as global loads and 32,768 through tex2D; tests/memory/texture_counters.rs).

use gpumemsim::report::text::render;
use gpumemsim::run::{run_spec, RunOptions};
use gpumemsim::spec::Spec;

#[test]
fn a_column_walk_is_told_a_texture_would_halve_its_sectors() {
    let spec = Spec::load(concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/examples/global_patterns.toml"
    ))
    .unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        write_outputs: false,
        ..RunOptions::default()
    };
    let report = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
    let text = render(&report, 100);
    let advice: Vec<&str> = text
        .lines()
        .zip(text.lines().skip(1))
        .filter(|(_, next)| next.contains("2D global loads"))
        .map(|(head, _)| head.trim())
        .collect();
    // Only copy_2d's line (global_patterns.cu:34), and only in its column launches.
    assert!(!advice.is_empty(), "no advice in:\n{text}");
    assert!(
        advice
            .iter()
            .all(|h| h.starts_with("global_patterns.cu:34")),
        "{advice:?}"
    );
    let line = text
        .lines()
        .find(|l| l.contains("2D global loads"))
        .expect("advice");
    assert!(
        line.contains("touch 262,144 sectors row-major") && line.contains("would touch 131,072"),
        "{line}"
    );
    // The per-launch metrics carry the comparison under gpumemsim's names.
    let launch = report
        .launches
        .iter()
        .find(|l| {
            l.metrics
                .contains_key("gpumemsim__global_ld_2d_sectors_block_linear.sum")
        })
        .expect("a launch with the comparison");
    let m = |k: &str| launch.metrics[k];
    assert_eq!(
        m("gpumemsim__global_ld_2d_sectors.sum"),
        2.0 * m("gpumemsim__global_ld_2d_sectors_block_linear.sum")
    );
}

/// The seed's rotation (examples/rotate.toml), with the texture counters the H200 measured for
/// it (tests/hw/h200/texture/rotate_ncu*.csv: 32,768 instructions, 262,144 requests) under both
/// instruction sets, and the launch summary says what the texture unit did. Its tex2D, inlined
/// from CUDA's headers, is reported where each instruction set's line table puts it: the PTX's
/// at the user's line (`rotate.cu:25`, the end of its `.loc inlined_at` chain); the SASS's at
/// `rotate.cu:22`, the line ptxas's line table gives the `TEX.LL` (examples/rotate.sass, the
/// table Nsight Compute's Source page reads).
#[test]
fn the_rotation_reports_its_texture_fetches_at_the_users_line() {
    let spec = Spec::load(concat!(env!("CARGO_MANIFEST_DIR"), "/examples/rotate.toml"))
        .unwrap_or_else(|e| panic!("{e}"));
    for (isa, want) in [
        (gpumemsim::run::Isa::Ptx, 25),
        (gpumemsim::run::Isa::Sass, 22),
    ] {
        let opts = RunOptions {
            write_outputs: false,
            isa,
            ..RunOptions::default()
        };
        let report = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
        let text = render(&report, 5);
        let summary = text
            .lines()
            .find(|l| l.trim_start().starts_with("texture:"))
            .unwrap_or_else(|| panic!("no texture summary in:\n{text}"));
        assert!(
            summary.contains("32,768 instructions, 262,144 requests"),
            "{isa:?}: {summary}"
        );
        let head = text
            .lines()
            .zip(text.lines().skip(1))
            .find(|(_, next)| next.contains("texture/surface:"))
            .map(|(head, _)| head.trim())
            .unwrap_or_else(|| panic!("no texture line in:\n{text}"));
        assert!(
            head.starts_with(&format!("rotate.cu:{want} ")),
            "{isa:?}: {head}"
        );
        let line = &report.launches[0]
            .lines
            .iter()
            .find(|l| l.line == want)
            .unwrap_or_else(|| panic!("{isa:?}: line {want}"));
        assert_eq!(
            line.metrics
                .get("l1tex__t_requests_pipe_tex_mem_texture.sum"),
            Some(&262_144),
            "{isa:?}"
        );
    }
}
