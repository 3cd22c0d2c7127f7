//! Integration tests of one area, "hardware". Whole programs and instructions against the H200
//! (tests/hw): every example and validation spec's outputs and counters, the corpus, the sanitizers
//! against compute-sanitizer, float functions bit for bit, FCHK, the SASS Source page per
//! instruction, counted-but-unlisted instructions, and compare-and-swap contention.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test hardware MODULE::NAME`.

#[path = "../common/mod.rs"]
mod common;

/// Compares gpumemsim's per-lane float functions with results recorded on an H200, bit for bit.
/// (Formerly the test binary `approx_hw`.)
mod approx;
/// Contending compare-and-swap lanes against the H200 (tests/hw/h200/cas, made by
/// tests/hw/cas/cas_collect.sh; README there). (Formerly the test binary `cas_hw`.)
mod cas;
/// ptxas's `ATOMS.CAST.SPIN.64` loop (`spin_sh` of tests/hw/cas/cas_probe.cu) with 5..32 warps in
/// one block and 2 and 4 blocks of 8 warps, against the H200 (tests/hw/h200/cas/warps, made by
/// tests/hw/cas/warps_collect.sh; README there). (Formerly the test binary `cas_warps_hw`.)
mod cas_warps;
/// The corpus of real CUDA programs (tests/corpus, see its MANIFEST.md). (Formerly the test binary
/// `corpus`.)
mod corpus;
/// `FCHK` (`gpumemsim::exec::sass_alu::fchk`, the guard of `div.rn.f32`'s slow path) against the
/// H200. (Formerly the test binary `fchk_hw`.)
mod fchk;
/// The simulator against a real H200. (Formerly the test binary `h200`.)
mod h200;
/// The sanitizers against compute-sanitizer on the H200. (Formerly the test binary `sanitize`.)
mod sanitize;
/// The SASS path against Nsight Compute's Source page on the H200, instruction by instruction.
/// (Formerly the test binary `sass_source_hw`.)
mod sass_source;
/// The warp-instructions the H200 counts in `smsp__inst_executed.sum` on no SASS instruction of its
/// Source page, against the simulator (src/exec/simt/sass.rs, `Release`). (Formerly the test binary
/// `sattr_hw`.)
mod sattr;
