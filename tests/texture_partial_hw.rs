//! Texture-pipe counters of single-warp fetches where only some lanes of a quad are active, and
//! of four-channel integer texels, against the H200: tests/hw/texture_mem/tex9_probe.cu's 293
//! launches (every subset of a quad's four lanes of filtered f32x4 3D fetches in three
//! footprints, other quads, two or more quads, other filter axes, point sampling, 2D bilinear
//! f32x4; u16x4, u8x4, f32x2 and f32 trilinear subsets; whole-grid u16x4 and u8x4 patterns).
//!
//! Hardware data: tests/hw/h200/texture_mem/run9/ (`ncu/tex9_probe.csv.zst`, Nsight Compute
//! `--clock-control none --cache-control all`; launches and every lane's coordinates in
//! `launches.txt`, arrays in `arrays.txt`, the 32 output words of each single-warp launch in
//! `outputs.txt`; command, date and versions in its README.md and `versions.txt`). The simulator
//! runs the PTX the H200's nvcc made of the same source in the same call (run9/tex9_probe.ptx),
//! with the arrays, textures and coordinates set up as the probe's `main` sets them up, by
//! tests/common/texture3d.rs (shared with run4's tests/texture3d_hw.rs and run6's
//! tests/texture3d_run6_hw.rs: the probes share their kernels and list formats).
//!
//! Compared: requests, sectors, L1 hits, tag lookups, tag-set conflicts and wavefronts, exact for
//! single-warp launches and within tests/cache_hw.rs's L1 tolerance (1% + 8) for grids (set
//! conflicts exactly there too); and every output word of the single-warp launches, bit for bit.
//! Every (launch, metric) outside is in `EXCLUSIONS` with its measured cause and must stay
//! outside (the test fails once it agrees).

#[path = "common/texture3d.rs"]
mod texture3d;

use texture3d::{compare_run, Exclusion, WAVES};

const DIR: &str = "tests/hw/h200/texture_mem/run9";

const POINT16: &str = "point-sampled four-channel float texels (16 bytes) in adjacent 32-byte \
    columns: the H200 takes 1 wavefront for two lanes 32 bytes apart (f32x4_pt_row_h0_m00000003, \
    m00000006) and 2 for four lanes in four columns (m0000000f, 2D and 3D alike), where the \
    point rule (distinct blocks of 32 bytes by 8 rows) gives 2 and 4; f32 lanes 32 bytes apart \
    take 2 (run4 pz_x8_00) and run4's f32x4_64_point_coly 1 per quad, so neither 64-byte blocks \
    nor two lanes per wavefront fit; rule not found";
/// (launch, metrics, cause).
const EXCLUSIONS: &[Exclusion] = &[
    ("f32x4_2d_pt_row_h0_m0000000f", &[WAVES], POINT16),
    ("f32x4_pt_row_h0_m00000003", &[WAVES], POINT16),
    ("f32x4_pt_row_h0_m00000006", &[WAVES], POINT16),
    ("f32x4_pt_row_h0_m0000000f", &[WAVES], POINT16),
    ("f32x4_pt_row_h0_mffffffff", &[WAVES], POINT16),
];

#[test]
fn partial_quad_counters_match_the_h200() {
    let c = compare_run(
        DIR,
        "tex9_probe.csv.zst",
        "tex9_probe.ptx",
        true,
        EXCLUSIONS,
    );
    // 293 launches of 6 counters, and the output words of the 285 single-warp launches.
    assert_eq!(c.n, 293 * 6 + 285, "values compared");
}
