//! Executor and runtime checks through the library API: a faulting instruction adds nothing to
//! any counter, static shared memory is checked at launch, and the simulated-memory budget is
//! enforced by `Device` itself.

use gpumemsim::exec::simt::LaunchDims;
use gpumemsim::gpu::config::H200;
use gpumemsim::ir::Op;
use gpumemsim::report::profile::Profile;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions, RuntimeError};

const COPY: &str = include_str!("../fixtures/errors/ok.ptx");

fn dims(grid: u32, block: u32, dynamic_shared: u32) -> LaunchDims {
    LaunchDims {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared,
    }
}

/// `copy(out, in, 32)` with 32 threads and `out` one element short: lane 31's store faults.
fn faulting_copy(fast_paths: bool) -> (RuntimeError, Profile, usize) {
    let mut dev = Device::new(&H200);
    dev.load_ptx(COPY, "ok.ptx").unwrap();
    let out = dev.malloc(31 * 4, "out");
    let inp = dev.malloc(32 * 4, "in");
    let k = dev.module().unwrap().kernel("copy").unwrap().clone();
    let st_pc = k
        .code
        .iter()
        .position(|i| matches!(i.op, Op::St { .. }))
        .expect("a store");
    let mut profile = Profile::new(&H200, k.code.len());
    let opts = LaunchOptions {
        fast_paths,
        ..LaunchOptions::default()
    };
    let err = dev
        .launch(
            "copy",
            "copy",
            dims(1, 32, 0),
            &[KernelArg::U64(out), KernelArg::U64(inp), KernelArg::U32(32)],
            opts,
            &mut profile,
            &mut |_, _| {},
        )
        .expect_err("lane 31 stores past the end of 'out'");
    (err, profile, st_pc)
}

#[test]
fn a_faulting_instruction_is_not_counted() {
    for fast in [true, false] {
        let (err, profile, st_pc) = faulting_copy(fast);
        assert!(matches!(err, RuntimeError::Fault(_)), "{err}");
        assert!(err.to_string().contains("thread (31,0,0)"), "{err}");
        let t = profile.totals();
        // The load before it executed and is counted; the faulting store is not.
        assert_eq!(
            t[gpumemsim::metrics::Metric::GlobalLdInst],
            1,
            "fast paths {fast}"
        );
        assert_eq!(
            t[gpumemsim::metrics::Metric::GlobalStInst],
            0,
            "fast paths {fast}: the faulting store was counted"
        );
        assert_eq!(t[gpumemsim::metrics::Metric::GlobalStRequests], 0);
        assert_eq!(t[gpumemsim::metrics::Metric::GlobalStSectors], 0);
        assert_eq!(
            profile.warp_inst[st_pc], 0,
            "warp-instruction count of the store"
        );
        assert_eq!(profile.thread_inst[st_pc], 0);
        assert_eq!(
            profile.warp_inst[st_pc - 1],
            1,
            "the instruction before it ran"
        );
    }
}

/// A kernel with `bytes` of static shared memory that writes one word of it.
fn static_shared_ptx(bytes: u32) -> String {
    format!(
        ".version 8.0\n.target sm_90\n.address_size 64\n\
         .visible .entry sh()\n{{\n\
         \t.shared .align 4 .b8 \tbuf[{bytes}];\n\
         \t.reg .b32 \t%r<3>;\n\
         \tmov.u32 \t%r1, buf;\n\
         \tmov.u32 \t%r2, %tid.x;\n\
         \tst.shared.u32 \t[%r1], %r2;\n\
         \tret;\n}}\n"
    )
}

fn launch_static(bytes: u32, dynamic: u32) -> Result<(), RuntimeError> {
    let mut dev = Device::new(&H200);
    dev.load_ptx(&static_shared_ptx(bytes), "sh.ptx")?;
    dev.launch(
        "sh",
        "sh",
        dims(1, 32, dynamic),
        &[],
        LaunchOptions::default(),
        &mut gpumemsim::exec::simt::NoObserver,
        &mut |_, _| {},
    )
    .map(|_| ())
}

#[test]
fn static_shared_memory_is_checked_at_launch() {
    // Within the 48 KB a kernel may declare statically, with dynamic memory up to the default.
    launch_static(40_000, 0).unwrap();
    launch_static(40_000, 49_152 - 40_000).unwrap();
    launch_static(49_152, 0).unwrap();
    // Over it: ptxas refuses such a kernel; here it is refused when loaded or launched, never run.
    let e = launch_static(60_000, 0).expect_err("60,000 bytes of static shared memory");
    let msg = e.to_string();
    assert!(
        matches!(
            &e,
            RuntimeError::Cuda { .. } | RuntimeError::Ptx(_) | RuntimeError::Unloadable { .. }
        ),
        "{msg}"
    );
    // The load-time error says it as ptxas does (0xea60 = 60,000 bytes); the launch check in
    // decimal.
    assert!(msg.contains("60000") || msg.contains("0xea60"), "{msg}");
    // Static plus dynamic beyond what the default allows.
    let e = launch_static(40_000, 10_000).expect_err("over 48 KB without the opt-in");
    assert!(e.to_string().contains("cudaErrorInvalidValue"), "{e}");
}

#[test]
fn device_allocations_respect_the_memory_budget() {
    let mut dev = Device::new(&H200);
    dev.set_memory_budget(1 << 20);
    assert_eq!(dev.memory_budget(), 1 << 20);
    dev.try_malloc(512 << 10, "a").unwrap();
    let e = dev.try_malloc(768 << 10, "b").expect_err("over the budget");
    let msg = e.to_string();
    assert!(matches!(e, RuntimeError::MemoryBudget { .. }), "{msg}");
    assert!(
        msg.contains("buffer 'b'") && msg.contains("--memory-budget"),
        "{msg}"
    );
    // Beyond the GPU's own memory even with a budget that would allow it.
    dev.set_memory_budget(u64::MAX);
    let e = dev
        .try_malloc(H200.global_mem_bytes, "c")
        .expect_err("more than the H200 has");
    assert!(e.to_string().contains("cudaErrorMemoryAllocation"), "{e}");
    // The default never exceeds the GPU's memory or half of the host's.
    let d = Device::new(&H200).memory_budget();
    assert!(d <= H200.global_mem_bytes);
    if let Some(host) = gpumemsim::runtime::host_memory_bytes() {
        assert!(d <= host / 2);
    }
}

#[test]
fn byte_sizes_parse_with_binary_suffixes() {
    use gpumemsim::runtime::parse_byte_size as p;
    assert_eq!(p("4096"), Ok(4096));
    assert_eq!(p("64K"), Ok(64 << 10));
    assert_eq!(p("512M"), Ok(512 << 20));
    assert_eq!(p("64G"), Ok(64 << 30));
    assert_eq!(p("2GiB"), Ok(2 << 30));
    assert_eq!(p("1T"), Ok(1 << 40));
    assert!(p("lots").is_err());
    assert!(p("12Q").is_err());
    assert!(p("99999999999T").is_err());
}
