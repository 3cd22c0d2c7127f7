//! What several test files share: the example and validation specs recorded on the H200.

/// Every example and validation spec whose run was recorded on the H200 (tests/hw/h200/hw), as
/// (spec, name of its host program in the hardware run). `tests/hardware/h200.rs` compares them with the
/// hardware; `tests/exec/fast_paths.rs` and `tests/front/ptx_limits.rs` run them with and without the
/// executor's fast paths and the lowering's ptxas passes.
pub const CASES: &[(&str, &str)] = &[
    ("examples/bank_columns.toml", "bank_columns"),
    ("examples/broadcast.toml", "broadcast"),
    ("examples/constant.toml", "constant"),
    ("examples/copy_16m.toml", "copy_16m"),
    ("examples/global_patterns.toml", "global_patterns"),
    ("examples/histogram.toml", "histogram"),
    ("examples/matmul.toml", "matmul"),
    ("examples/shared_stride.toml", "shared_stride"),
    ("examples/transpose.toml", "transpose"),
    ("examples/warp_reduce.toml", "warp_reduce"),
    ("tests/hw/kernels/constant.toml", "k_constant"),
    ("tests/hw/kernels/global.toml", "k_global"),
    ("tests/hw/kernels/local.toml", "k_local"),
    ("tests/hw/kernels/seed_gpu.toml", "k_seed_gpu"),
    ("tests/hw/kernels/shared_patterns.toml", "k_shared_patterns"),
    ("tests/hw/kernels/shared_stride.toml", "k_shared_stride"),
    ("tests/hw/kernels/shared_wide.toml", "k_shared_wide"),
    ("tests/hw/kernels/isa.toml", "k_isa"),
    ("tests/hw/kernels/warp_masks.toml", "k_warp_masks"),
    ("tests/hw/kernels/host_steps.toml", "k_host_steps"),
];

/// The ptxas/nvdisasm cache (`$GPUMEMSIM_CACHE`) of this test process, emptied when first asked
/// for, so that the tools really run. One folder per process, never removed while the process
/// runs: the tests of one binary share its environment, and a test that set the variable to a
/// folder of its own and removed that folder at its end could pull the cache from under a
/// compile of another test running beside it.
#[allow(dead_code)]
pub fn private_tool_cache() -> &'static std::path::Path {
    static DIR: std::sync::OnceLock<std::path::PathBuf> = std::sync::OnceLock::new();
    DIR.get_or_init(|| {
        let dir = std::path::PathBuf::from(env!("CARGO_TARGET_TMPDIR"))
            .join(format!("tool-cache-{}", env!("CARGO_CRATE_NAME")));
        let _ = std::fs::remove_dir_all(&dir);
        std::env::set_var("GPUMEMSIM_CACHE", &dir);
        dir
    })
}
