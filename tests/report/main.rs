//! Integration tests of one area, "report". Reports: the HTML report in a real browser, the report
//! of a SASS run, and the texture advice of the text report.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test report MODULE::NAME`.

#[path = "../common/mod.rs"]
mod common;

/// The HTML report in a real browser. (Formerly the test binary `html_report`.)
mod html;
/// The report of a SASS run (`--isa sass`). (Formerly the test binary `sass_report`.)
mod sass;
/// The report's texture advice (`gpumemsim::mem::texture::advice`, the text report's "2D global
/// loads" finding) on the global-load patterns of examples/global_patterns.toml. (Formerly the test
/// binary `texture_report`.)
mod texture_advice;
