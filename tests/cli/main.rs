//! Integration tests of one area, "cli". The `gpumemsim` command line: error reporting and exit
//! statuses, run limits, kernels gpumemsim cannot run, and texture/surface spec keys.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test cli MODULE::NAME`.

/// End-to-end checks of the `gpumemsim` binary's error reporting. (Formerly the test binary
/// `cli_errors`.)
mod errors;
/// The limits that keep a run finite and the rule that outputs never destroy inputs, checked on the
/// real `gpumemsim` binary. (Formerly the test binary `cli_limits`.)
mod limits;
/// Texture and surface spec keys. (Formerly the test binary `texture_spec`.)
mod texture_spec;
/// A module holding an instruction gpumemsim cannot run still runs its other kernels; launching the
/// kernel that holds it is refused before any block runs, with one located line naming the feature
/// (exit status 2). (Formerly the test binary `unsupported`.)
mod unsupported;
