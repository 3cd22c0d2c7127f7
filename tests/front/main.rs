//! Integration tests of one area, "front". Front ends: the PTX parser and lowering under hostile
//! input, NVRTC (CUDA C++), the SASS path (`--isa sass`, ptxas/nvdisasm) and its texture
//! instructions, and a smoke run.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test front MODULE::NAME`.

#[path = "../common/mod.rs"]
mod common;
#[path = "../common/texture_sweep.rs"]
mod texture_sweep;

/// NVRTC front end, end to end. (Formerly the test binary `nvrtc`.)
mod nvrtc;
/// The PTX front end under hostile input. (Formerly the test binary `front_limits`.)
mod ptx_limits;
/// The SASS path (`--isa sass`) against the PTX path and against the H200. (Formerly the test
/// binary `sass`.)
mod sass;
/// The SASS texture and surface instructions (`TEX`, `TLD`, `TLD4`, `TXQ`, `SULD`, `SUST`) against
/// the PTX path and the H200. (Formerly the test binary `tex_sass`.)
mod sass_texture;
/// End-to-end smoke test on a small hand-checked PTX module (NVRTC output of a test kernel).
/// (Formerly the test binary `smoke`.)
mod smoke;
