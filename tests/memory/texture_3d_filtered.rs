//! The texture pipe's L1-side counters of filtered 3D passes against the H200: tests/hw/
//! texture_mem/tex6_probe.cu's 426 launches (issue 10, texw6): 423 single-warp trilinear and
//! bilinear fetches (columns of 1 to 32 lanes down y from rows 0 to 32 of f32x2, f32 and f32x4
//! 64^3 arrays, one lane of every filtered-axis combination, rows, columns, z-columns and
//! strided rows of 1 to 4 lanes) and run4's f32x2 and f32x4 column and f32x2 row grids again.
//!
//! Hardware data: tests/hw/h200/texture_mem/run6/ (`ncu/tex6_probe.csv.zst`, Nsight Compute
//! `--clock-control none --cache-control all`; launches and coordinates in `launches.txt`,
//! arrays in `arrays.txt`; command, date and versions in its README.md and `versions.txt`). The
//! simulator runs the PTX the H200's nvcc made of the same source in the same call
//! (run6/tex6_probe.ptx), set up as tests/common/texture3d.rs sets run4 up (the probes share
//! their kernels and list formats).
//!
//! Compared: requests, sectors, L1 hits, tag lookups, tag-set conflicts and wavefronts of every
//! launch, single
//! warps exactly, whole grids within tests/memory/cache.rs's L1 tolerance (1% + 8), as
//! tests/memory/texture_3d.rs. The probe does not save the lanes' values, so there are no outputs to
//! compare. Every (launch, metric) agrees (`EXCLUSIONS` is empty).

use crate::texture3d::{compare_run, Exclusion};

const DIR: &str = "tests/hw/h200/texture_mem/run6";

/// (launch, metrics, cause): none. run6's `f32x4_one_h0` and `f32x4_one_h0_at5_3_3` (one f32x4
/// lane of a linear-filtered texture exactly on a texel centre: 2 sectors, 1 hit, 2 tags, 4
/// wavefronts, no request) were excluded until the splitter learnt the fetch's filter mode
/// (src/mem/texture/request.rs, `Splitter::mark_linear`).
const EXCLUSIONS: &[Exclusion] = &[];

#[test]
fn texture_3d_run6_counters_match_the_h200() {
    let c = compare_run(
        DIR,
        "tex6_probe.csv.zst",
        "tex6_probe.ptx",
        false,
        EXCLUSIONS,
    );
    assert_eq!(c.n, 426 * 6, "values compared");
}
