//! What several test files share: the example and validation specs recorded on the H200.

/// Every example and validation spec whose run was recorded on the H200 (tests/hw/h200/hw), as
/// (spec, name of its host program in the hardware run). `tests/h200.rs` compares them with the
/// hardware; `tests/fast_paths.rs` and `tests/front_limits.rs` run them with and without the
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
