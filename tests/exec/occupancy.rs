//! Occupancy calculator tests.
//!
//! Two kinds of expectation, neither taken from running the calculator:
//! - hand-worked cases from the documented rules (CUDA Occupancy Calculator, `cuda_occupancy.h`;
//!   the arithmetic is written out next to each case);
//! - every row of `tests/hw/h200/occupancy.csv`, measured on a real H200 by
//!   `tests/hw/occupancy/occupancy.cu` (`cudaOccupancyMaxActiveBlocksPerMultiprocessor` and a
//!   one-block launch), plus the device properties in `tests/hw/h200/occupancy_props.txt`.
//!   Until the lead commits those files, that test prints that it is skipping.

use gpumemsim::gpu::config::{GpuConfig, H200};
use gpumemsim::gpu::occupancy::{occupancy, LaunchError, Limiter, Occupancy, OccupancyInput};
use std::path::PathBuf;

const KIB: u32 = 1024;

fn launch(threads: u32, regs: u32) -> OccupancyInput {
    OccupancyInput {
        block_threads: threads,
        regs_per_thread: regs,
        static_shared: 0,
        dynamic_shared: 0,
        carveout_percent: None,
        max_dynamic_shared: None,
    }
}

fn with_dyn(threads: u32, regs: u32, dynamic: u32) -> OccupancyInput {
    OccupancyInput {
        dynamic_shared: dynamic,
        ..launch(threads, regs)
    }
}

fn ok(input: &OccupancyInput) -> Occupancy {
    match occupancy(&H200, input) {
        Ok(o) => o,
        Err(e) => panic!("{input:?} should launch, got {e}"),
    }
}

fn err(input: &OccupancyInput) -> LaunchError {
    match occupancy(&H200, input) {
        Ok(o) => panic!("{input:?} should fail, got {o:?}"),
        Err(e) => e,
    }
}

#[test]
fn warps_limited_256_threads_32_regs() {
    // 32 regs x 32 lanes = 1024 regs/warp (a multiple of 256). 65536 / 4 sub-partitions = 16384
    // regs each -> 16 warps each -> 64 warps -> 64 / 8 warps per block = 8 blocks.
    // Warp slots: 64 / 8 = 8. Block slots: 32. Shared: 1 KB reserved -> 228 KB / 1 KB = 228.
    let o = ok(&launch(256, 32));
    assert_eq!(o.blocks_per_sm, 8);
    assert_eq!(o.limit_registers, 8);
    assert_eq!(o.limit_warps, 8);
    assert_eq!(o.limit_blocks, 32);
    assert_eq!(o.limit_shared_mem, 228);
    assert_eq!(o.limiter, Limiter::Warps);
    assert_eq!(o.active_warps, 64);
    assert_eq!(o.theoretical_occupancy_pct, 100.0);
    assert_eq!(o.shared_config_bytes, 228 * KIB);
}

#[test]
fn registers_limited_256_threads_64_regs() {
    // 64 x 32 = 2048 regs/warp; 16384 / 2048 = 8 warps per sub-partition -> 32 warps -> 4 blocks.
    let o = ok(&launch(256, 64));
    assert_eq!(o.blocks_per_sm, 4);
    assert_eq!(o.limit_registers, 4);
    assert_eq!(o.limiter, Limiter::Registers);
    assert_eq!(o.active_warps, 32);
    assert_eq!(o.theoretical_occupancy_pct, 50.0);
}

#[test]
fn registers_are_split_over_four_sub_partitions() {
    // 40 x 32 = 1280 regs/warp. Per sub-partition floor(16384 / 1280) = 12 warps -> 48 warps
    // -> 48 / 2 = 24 blocks of 64 threads. (The whole file would give floor(65536/2560) = 25.)
    let o = ok(&launch(64, 40));
    assert_eq!(o.limit_registers, 24);
    assert_eq!(o.blocks_per_sm, 24);
    assert_eq!(o.limiter, Limiter::Registers);
    assert_eq!(o.theoretical_occupancy_pct, 75.0);
}

#[test]
fn registers_per_warp_round_up_to_256() {
    // 33 x 32 = 1056 -> 1280, the same allocation as 40 registers: 24 blocks of 64 threads.
    assert_eq!(ok(&launch(64, 33)).blocks_per_sm, 24);
    // 30 x 32 = 960 -> 1024, the same as 32 registers: 8 blocks of 256 threads.
    assert_eq!(ok(&launch(256, 30)).limit_registers, 8);
    // 72 x 32 = 2304 (9 x 256). floor(16384 / 2304) = 7 -> 28 warps; 160 threads = 5 warps
    // -> 5 blocks, 25 warps = 39.0625 %.
    let o = ok(&launch(160, 72));
    assert_eq!(o.blocks_per_sm, 5);
    assert_eq!(o.active_warps, 25);
    assert_eq!(o.theoretical_occupancy_pct, 39.0625);
}

#[test]
fn max_registers_small_block() {
    // 255 x 32 = 8160 -> 8192 regs/warp; 2 warps per sub-partition -> 8 warps; 96 threads =
    // 3 warps -> 2 blocks, 6 warps = 9.375 %. The hardware check (3 warps rounded to 4, x 8192
    // = 32768) fits in 65536.
    let o = ok(&launch(96, 255));
    assert_eq!(o.blocks_per_sm, 2);
    assert_eq!(o.active_warps, 6);
    assert_eq!(o.theoretical_occupancy_pct, 9.375);
}

#[test]
fn whole_register_file_for_one_block() {
    // 1024 threads x 64 regs = 32 warps x 2048 = 65536: exactly the per-block maximum.
    // Registers: 8 warps per sub-partition -> 32 warps -> 1 block; warps: 64 / 32 = 2.
    let o = ok(&launch(1024, 64));
    assert_eq!(o.blocks_per_sm, 1);
    assert_eq!(o.limit_warps, 2);
    assert_eq!(o.limiter, Limiter::Registers);
}

#[test]
fn too_many_registers_is_out_of_resources() {
    // 65 x 32 = 2080 -> 2304 x 32 warps = 73728 > 65536.
    let e = err(&launch(1024, 65));
    assert_eq!(e.cuda_name(), "cudaErrorLaunchOutOfResources");
    // 255 registers are allowed per thread, 256 are not (CUDA C++ Programming Guide, table of
    // technical specifications).
    assert_eq!(
        err(&launch(32, 256)).cuda_name(),
        "cudaErrorLaunchOutOfResources"
    );
}

#[test]
fn hardware_register_check_rounds_warps_to_sub_partitions() {
    // 136 x 32 = 4352 = 17 x 256 regs/warp. 480 threads = 15 warps: 15 x 4352 = 65280 fits,
    // but the hardware check counts 16 warps (15 rounded up to a multiple of 4): 69632 > 65536.
    let e = err(&launch(480, 136));
    assert_eq!(e.cuda_name(), "cudaErrorLaunchOutOfResources");
    // 448 threads = 14 warps -> 16 x 4352 = 69632 too; 384 threads = 12 warps -> 52224 fits:
    // floor(16384 / 4352) = 3 per sub-partition -> 12 warps -> 1 block.
    assert!(occupancy(&H200, &launch(448, 136)).is_err());
    assert_eq!(ok(&launch(384, 136)).blocks_per_sm, 1);
}

#[test]
fn block_slots_limit_small_blocks() {
    // 32 threads x 16 regs: registers allow 4 x floor(16384/512) = 128 warps = 128 blocks,
    // warps 64, block slots 32 -> 32 blocks, 32 warps = 50 %.
    let o = ok(&launch(32, 16));
    assert_eq!(o.blocks_per_sm, 32);
    assert_eq!(o.limit_warps, 64);
    assert_eq!(o.limit_registers, 128);
    assert_eq!(o.limiter, Limiter::Blocks);
    assert_eq!(o.theoretical_occupancy_pct, 50.0);
}

#[test]
fn odd_block_sizes_round_up_to_whole_warps() {
    // 992 threads = 31 warps: warp slots 64 / 31 = 2 -> 62 warps = 96.875 %.
    let o = ok(&launch(992, 32));
    assert_eq!(o.blocks_per_sm, 2);
    assert_eq!(o.active_warps, 62);
    assert_eq!(o.theoretical_occupancy_pct, 96.875);
    // 33 threads occupy 2 warps: 32 blocks by warps, 32 by block slots.
    assert_eq!(ok(&launch(33, 16)).limit_warps, 32);
}

#[test]
fn reserved_shared_memory_is_one_kib_per_block() {
    // 7 KB dynamic + 1 KB reserved = 8192 B per block; 233472 / 8192 = 28 (28.5).
    // Without the reserved kilobyte it would be 233472 / 7168 = 32.
    let o = ok(&with_dyn(32, 16, 7 * KIB));
    assert_eq!(o.limit_shared_mem, 28);
    assert_eq!(o.blocks_per_sm, 28);
    assert_eq!(o.limiter, Limiter::SharedMemory);
    // Static shared memory counts the same way: 6 KB static + 1 KB dynamic + 1 KB reserved.
    let o = ok(&OccupancyInput {
        static_shared: 6 * KIB,
        ..with_dyn(32, 16, KIB)
    });
    assert_eq!(o.limit_shared_mem, 28);
}

#[test]
fn shared_memory_rounds_up_to_128_bytes() {
    // 6913 + 1024 = 7937 B -> 8064 (63 x 128); 233472 / 8064 = 28 (28.95).
    // Unrounded it would be 233472 / 7937 = 29.
    assert_eq!(ok(&with_dyn(32, 16, 6913)).limit_shared_mem, 28);
    // 6912 + 1024 = 7936 = 62 x 128 exactly -> 233472 / 7936 = 29 (29.4).
    assert_eq!(ok(&with_dyn(32, 16, 6912)).limit_shared_mem, 29);
}

#[test]
fn carveout_preference_picks_a_smaller_shared_config() {
    // 3000 + 1024 = 4024 -> 4096 B per block.
    let base = with_dyn(64, 16, 3000);
    // Default: 228 KB -> 57 blocks by shared memory; 64 threads -> 32 by warps, 32 by slots.
    let o = ok(&base);
    assert_eq!(o.limit_shared_mem, 57);
    assert_eq!(o.shared_config_bytes, 228 * KIB);
    assert_eq!(o.blocks_per_sm, 32);
    // 25 %: 25 x 233472 / 100 = 58368 -> 64 KB; 65536 / 4096 = 16.
    let o = ok(&OccupancyInput {
        carveout_percent: Some(25),
        ..base.clone()
    });
    assert_eq!(o.shared_config_bytes, 64 * KIB);
    assert_eq!(o.limit_shared_mem, 16);
    assert_eq!(o.blocks_per_sm, 16);
    assert_eq!(o.limiter, Limiter::SharedMemory);
    // 50 %: 116736 -> 132 KB; 135168 / 4096 = 33.
    let o = ok(&OccupancyInput {
        carveout_percent: Some(50),
        ..base.clone()
    });
    assert_eq!(o.shared_config_bytes, 132 * KIB);
    assert_eq!(o.limit_shared_mem, 33);
    // 0 %: smaller than one block, so the smallest config holding one block: 8 KB -> 2 blocks.
    let o = ok(&OccupancyInput {
        carveout_percent: Some(0),
        ..base.clone()
    });
    assert_eq!(o.shared_config_bytes, 8 * KIB);
    assert_eq!(o.blocks_per_sm, 2);
    // 100 % and -1 are 228 KB.
    for c in [100, -1] {
        let o = ok(&OccupancyInput {
            carveout_percent: Some(c),
            ..base.clone()
        });
        assert_eq!(o.shared_config_bytes, 228 * KIB);
    }
    // 10 KB dynamic: 11264 B per block; 50 % (132 KB) -> 12 blocks; default -> 20.
    assert_eq!(
        ok(&OccupancyInput {
            carveout_percent: Some(50),
            ..with_dyn(64, 16, 10 * KIB)
        })
        .limit_shared_mem,
        12
    );
    assert_eq!(ok(&with_dyn(64, 16, 10 * KIB)).limit_shared_mem, 20);
}

#[test]
fn forty_eight_kib_wall_and_opt_in() {
    // 48 KB dynamic without the opt-in is allowed: 50176 B per block -> 4 blocks.
    assert_eq!(ok(&with_dyn(256, 32, 48 * KIB)).blocks_per_sm, 4);
    // One byte more is not.
    let e = err(&with_dyn(256, 32, 48 * KIB + 1));
    assert_eq!(e.cuda_name(), "cudaErrorInvalidValue");
    // With static shared memory the default dynamic limit is 48 KB minus the static part.
    let e = err(&OccupancyInput {
        static_shared: 16 * KIB,
        ..with_dyn(256, 32, 32 * KIB + 1)
    });
    assert_eq!(e.cuda_name(), "cudaErrorInvalidValue");
    // Opt-in to 227 KB: 227 KB + 1 KB reserved = 228 KB, one block.
    let optin = OccupancyInput {
        max_dynamic_shared: Some(227 * KIB),
        ..with_dyn(256, 32, 227 * KIB)
    };
    let o = ok(&optin);
    assert_eq!(o.blocks_per_sm, 1);
    assert_eq!(o.shared_config_bytes, 228 * KIB);
    // The attribute itself may not exceed 227 KB minus static shared memory.
    let e = err(&OccupancyInput {
        static_shared: KIB,
        ..optin.clone()
    });
    assert_eq!(e.cuda_name(), "cudaErrorInvalidValue");
    // Dynamic shared memory above the attribute is refused: 200 KB with the attribute at 100 KB.
    let e = err(&OccupancyInput {
        max_dynamic_shared: Some(100 * KIB),
        ..with_dyn(256, 32, 200 * KIB)
    });
    assert_eq!(e.cuda_name(), "cudaErrorInvalidValue");
    // 100 KB under a 100 KB attribute: 103424 B -> 233472 / 103424 = 2 blocks.
    assert_eq!(
        ok(&OccupancyInput {
            max_dynamic_shared: Some(100 * KIB),
            ..with_dyn(256, 32, 100 * KIB)
        })
        .blocks_per_sm,
        2
    );
}

#[test]
fn invalid_block_sizes_and_carveouts() {
    for threads in [0, 1025, 2048] {
        assert_eq!(
            err(&launch(threads, 16)).cuda_name(),
            "cudaErrorInvalidValue"
        );
    }
    for c in [-2, 101] {
        let e = err(&OccupancyInput {
            carveout_percent: Some(c),
            ..launch(64, 16)
        });
        assert_eq!(e.cuda_name(), "cudaErrorInvalidValue");
    }
}

// ---------------------------------------------------------------------------------------------
// Hardware data
// ---------------------------------------------------------------------------------------------

fn hw_path(name: &str) -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("tests/hw/h200")
        .join(name)
}

/// One row of `occupancy.csv` (columns documented in `tests/hw/occupancy/occupancy.cu`).
#[derive(Debug)]
struct Row {
    line: usize,
    kernel: String,
    num_regs: u32,
    static_shared: u32,
    block_threads: u32,
    dynamic_shared: u32,
    carveout: i32,
    max_dynamic_shared_set: i64,
    set_result: String,
    attr_max_dynamic_shared: i64,
    occupancy: String,
    launch: String,
}

fn parse_rows(text: &str) -> Result<Vec<Row>, String> {
    let mut lines = text.lines().enumerate();
    let header = lines.next().map(|(_, h)| h).unwrap_or_default();
    if !header.starts_with("kernel,num_regs,") {
        return Err(format!("unexpected header: {header}"));
    }
    let mut rows = Vec::new();
    for (i, line) in lines {
        if line.trim().is_empty() {
            continue;
        }
        let f: Vec<&str> = line.split(',').map(str::trim).collect();
        if f.len() != 12 {
            return Err(format!("line {}: {} fields: {line}", i + 1, f.len()));
        }
        let num = |k: usize| -> Result<i64, String> {
            f[k].parse::<i64>()
                .map_err(|e| format!("line {}: field {k} {:?}: {e}", i + 1, f[k]))
        };
        let u = |k: usize| -> Result<u32, String> {
            u32::try_from(num(k)?).map_err(|e| format!("line {}: field {k}: {e}", i + 1))
        };
        rows.push(Row {
            line: i + 1,
            kernel: f[0].to_string(),
            num_regs: u(1)?,
            static_shared: u(2)?,
            block_threads: u(3)?,
            dynamic_shared: u(4)?,
            carveout: i32::try_from(num(5)?).map_err(|e| e.to_string())?,
            max_dynamic_shared_set: num(6)?,
            set_result: f[7].to_string(),
            attr_max_dynamic_shared: num(8)?,
            occupancy: f[10].to_string(),
            launch: f[11].to_string(),
        });
    }
    Ok(rows)
}

/// Compares one measured row with the calculator; returns a description of each disagreement.
fn check_row(cfg: &GpuConfig, r: &Row) -> Vec<String> {
    let mut bad = Vec::new();
    let carveout = (r.carveout != -1).then_some(r.carveout);
    let max_dyn = u32::try_from(r.max_dynamic_shared_set).ok();
    let requested = OccupancyInput {
        block_threads: r.block_threads,
        regs_per_thread: r.num_regs,
        static_shared: r.static_shared,
        dynamic_shared: r.dynamic_shared,
        carveout_percent: carveout,
        max_dynamic_shared: max_dyn,
    };
    // What the device kept: the program sets the carveout first and the dynamic-shared attribute
    // only if that succeeded; a failed set leaves the default.
    // The attribute as read back after setting it: rows can inherit an opt-in from an earlier
    // row of the same kernel when the program's reset to defaults did not take.
    let effective = if r.set_result == "cudaSuccess" {
        OccupancyInput {
            max_dynamic_shared: u32::try_from(r.attr_max_dynamic_shared).ok(),
            ..requested.clone()
        }
    } else {
        match occupancy(cfg, &requested) {
            Err(LaunchError::InvalidValue { .. }) => {}
            other => bad.push(format!(
                "attribute set failed with {} but the calculator gave {other:?}",
                r.set_result
            )),
        }
        let carveout_ok = occupancy(
            cfg,
            &OccupancyInput {
                max_dynamic_shared: None,
                dynamic_shared: 0,
                ..requested.clone()
            },
        )
        .is_ok();
        OccupancyInput {
            carveout_percent: if carveout_ok { carveout } else { None },
            max_dynamic_shared: None,
            ..requested.clone()
        }
    };
    let got = occupancy(cfg, &effective);
    // cudaOccupancyMaxActiveBlocksPerMultiprocessor: a count (0 = cannot run) or an error name.
    match (r.occupancy.parse::<u32>(), &got) {
        (Ok(0), Ok(o)) => bad.push(format!(
            "occupancy API 0, calculator {} blocks",
            o.blocks_per_sm
        )),
        (Ok(0), Err(_)) | (Err(_), Err(_)) => {}
        (Ok(n), Ok(o)) if n == o.blocks_per_sm => {}
        (Ok(n), Ok(o)) => bad.push(format!(
            "occupancy API {n}, calculator {} (regs {}, smem {}, warps {}, blocks {})",
            o.blocks_per_sm, o.limit_registers, o.limit_shared_mem, o.limit_warps, o.limit_blocks
        )),
        (Ok(n), Err(e)) => bad.push(format!("occupancy API {n}, calculator error {e}")),
        (Err(_), Ok(o)) => bad.push(format!(
            "occupancy API {}, calculator {} blocks",
            r.occupancy, o.blocks_per_sm
        )),
    }
    // The launch of one block.
    match &got {
        Ok(_) if r.launch == "cudaSuccess" => {}
        Err(e) if e.cuda_name() == r.launch => {}
        Ok(o) => bad.push(format!(
            "launch gave {}, calculator {} blocks",
            r.launch, o.blocks_per_sm
        )),
        Err(e) => bad.push(format!("launch gave {}, calculator {e}", r.launch)),
    }
    bad
}

#[test]
fn matches_h200_occupancy_api() {
    let path = hw_path("occupancy.csv");
    let Some(text) = gpumemsim::testing::require(
        &format!("the H200 recording {}", path.display()),
        std::fs::read_to_string(&path),
        "check out tests/hw/h200/ (committed; recorded by tests/hw/occupancy, see its README.md)",
    ) else {
        return;
    };
    let rows = match parse_rows(&text) {
        Ok(rows) => rows,
        Err(e) => panic!("{}: {e}", path.display()),
    };
    assert!(
        rows.len() >= 60,
        "only {} rows in {}",
        rows.len(),
        path.display()
    );
    let mut failures = Vec::new();
    for r in &rows {
        for b in check_row(&H200, r) {
            failures.push(format!(
                "line {} {} regs={} static={} threads={} dyn={} carveout={} maxdyn={}: {b}",
                r.line,
                r.kernel,
                r.num_regs,
                r.static_shared,
                r.block_threads,
                r.dynamic_shared,
                r.carveout,
                r.max_dynamic_shared_set
            ));
        }
    }
    println!(
        "{} of {} H200 rows agree",
        rows.len() - failures.len().min(rows.len()),
        rows.len()
    );
    assert!(
        failures.is_empty(),
        "{} disagreements with the H200:\n{}",
        failures.len(),
        failures.join("\n")
    );
}

#[test]
fn matches_h200_device_properties() {
    let path = hw_path("occupancy_props.txt");
    let Some(text) = gpumemsim::testing::require(
        &format!("the H200 recording {}", path.display()),
        std::fs::read_to_string(&path),
        "check out tests/hw/h200/ (committed; recorded by tests/hw/occupancy, see its README.md)",
    ) else {
        return;
    };
    let get = |key: &str| -> Option<u64> {
        text.lines()
            .filter_map(|l| l.split_once('='))
            .find(|(k, _)| k.trim() == key)
            .and_then(|(_, v)| v.trim().parse().ok())
    };
    let cfg = &H200;
    let expect: [(&str, u64); 10] = [
        ("multiProcessorCount", cfg.sm_count.into()),
        ("warpSize", cfg.warp_size.into()),
        ("maxThreadsPerBlock", cfg.max_threads_per_block.into()),
        (
            "maxThreadsPerMultiProcessor",
            u64::from(cfg.max_warps_per_sm) * u64::from(cfg.warp_size),
        ),
        ("maxBlocksPerMultiProcessor", cfg.max_blocks_per_sm.into()),
        ("regsPerMultiprocessor", cfg.regs_per_sm.into()),
        ("regsPerBlock", cfg.max_regs_per_block.into()),
        ("sharedMemPerBlock", cfg.max_shared_per_block.into()),
        (
            "sharedMemPerBlockOptin",
            cfg.max_shared_per_block_optin.into(),
        ),
        ("sharedMemPerMultiprocessor", cfg.max_shared_per_sm.into()),
    ];
    let mut bad = Vec::new();
    for (key, want) in expect.into_iter().chain([(
        "reservedSharedMemPerBlock",
        cfg.reserved_shared_per_block.into(),
    )]) {
        match get(key) {
            Some(v) if v == want => {}
            other => bad.push(format!("{key}: device {other:?}, GpuConfig {want}")),
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The driver's per-launch shared-memory size (`launch__shared_mem_config_size`) and the limit
/// Nsight Compute reports under it, against both H200 sweeps (tests/hw/h200/carveout: 2,482
/// launches over block size x dynamic shared memory x grid x registers, in ascending and shuffled
/// order). The one unexplained case of `driver_shared_config`'s documentation must still differ,
/// and nothing else may.
#[test]
fn driver_shared_config_matches_the_sweeps() {
    use gpumemsim::report::compare::parse_ncu_csv;
    let dir = env!("CARGO_MANIFEST_DIR");
    let mut checked = 0;
    let mut exceptions = 0;
    let mut bad = Vec::new();
    for (file, launches) in [
        ("carveout_ncu.csv", usize::MAX),
        // The third sequence of the second sweep sets a carveout preference (not this rule).
        ("carveout2_ncu.csv", 342 * 3),
    ] {
        let text = std::fs::read_to_string(format!("{dir}/tests/hw/h200/carveout/{file}"))
            .unwrap_or_else(|e| panic!("{file}: {e}"));
        let rows = parse_ncu_csv(&text).unwrap_or_else(|e| panic!("{file}: {e}"));
        for l in rows.iter().take(launches) {
            let m = |k: &str| l.metrics[k] as u32;
            let input = OccupancyInput {
                block_threads: m("launch__block_size"),
                regs_per_thread: m("launch__registers_per_thread"),
                static_shared: m("launch__shared_mem_per_block_static"),
                dynamic_shared: m("launch__shared_mem_per_block_dynamic"),
                carveout_percent: None,
                max_dynamic_shared: Some(48 * KIB),
            };
            let o = ok(&input);
            let (want, got) = (
                (
                    m("launch__shared_mem_config_size"),
                    m("launch__occupancy_limit_shared_mem"),
                ),
                (o.launch_shared_config_bytes, o.launch_limit_shared_mem),
            );
            checked += 1;
            let per_block = input.static_shared + input.dynamic_shared + KIB;
            let documented = matches!(
                (input.block_threads, per_block),
                (96, 2176) | (128, 1152) | (128, 2176)
            );
            if documented {
                exceptions += 1;
                assert_ne!(want, got, "{file} launch {}: the exception is gone", l.id);
            } else if want != got {
                bad.push(format!(
                    "{file} launch {}: {input:?} H200 {want:?} model {got:?}",
                    l.id
                ));
            }
        }
    }
    assert!(checked >= 2482, "only {checked} launches");
    assert_eq!(exceptions, 30, "{exceptions} documented exceptions");
    assert!(
        bad.is_empty(),
        "{} of {checked} differ:\n{}",
        bad.len(),
        bad.join("\n")
    );
}
