//! Integration tests of one area, "exec". The executor and runtime through the library and the
//! binary: faults and budgets, fast paths against general paths, named barriers, device-runtime
//! calls (printf, assert, trap), host steps, allocation layout, shared-memory special registers and
//! the occupancy calculator.
//!
//! One test binary per area (tests/README.md lists them). Each module below was a test binary of
//! its own before issue 27; a test is now run alone with
//! `cargo test --release --test exec MODULE::NAME`.

#[path = "../common/mod.rs"]
mod common;

/// Device allocations are placed as the H200's driver places them (tests/hw/h200/alloc/alloc.txt.
/// (Formerly the test binary `alloc_layout`.)
mod alloc_layout;
/// Device-runtime calls that real kernels make, through the real binary. (Formerly the test binary
/// `device_runtime`.)
mod device_runtime;
/// The executor's specialised paths (in-bounds scalar and vector accesses, common ALU operand
/// shapes) and the memory models' shortcuts (conflict-free shared accesses, sectors already in
/// order, a uniform constant load) against the general paths. (Formerly the test binary
/// `fast_paths`.)
mod fast_paths;
/// Executor and runtime checks through the library API. (Formerly the test binary
/// `exec_hardening`.)
mod hardening;
/// Host steps in the spec (`[[step]]` launches, copies, memsets and repeats, pointer arguments with
/// an offset, `sym:` outputs), run on hand-written PTX (`tests/fixtures/host_steps/`). (Formerly
/// the test binary `host_steps`.)
mod host_steps;
/// Named barriers with thread counts (`bar.sync id, n` and `bar.arrive id, n`, PTX ISA 9.7.13.1).
/// (Formerly the test binary `named_barriers`.)
mod named_barriers;
/// Occupancy calculator tests. (Formerly the test binary `occupancy`.)
mod occupancy;
/// The shared-memory size special registers equal the H200's (tests/hw/h200/sregs/sregs.txt.
/// (Formerly the test binary `shared_sregs`.)
mod shared_sregs;
