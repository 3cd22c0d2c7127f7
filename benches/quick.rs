use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::gpu::config::H200;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};
use std::time::Instant;
fn main() {
    let ptx = include_str!("../tests/bench_kernels.ptx");
    let mut dev = Device::new(&H200);
    dev.load_ptx(ptx, "bench_kernels.ptx").unwrap();
    let n: u64 = 16 << 20;
    let a = dev.malloc(n * 4, "in");
    let b = dev.malloc(n * 4, "out");
    let t = Instant::now();
    let s = dev
        .launch(
            "_Z4copyPfPKfi",
            "copy",
            LaunchDims {
                grid: [(n / 256) as u32, 1, 1],
                block: [256, 1, 1],
                dynamic_shared: 0,
            },
            &[
                KernelArg::U64(b),
                KernelArg::U64(a),
                KernelArg::U32(n as u32),
            ],
            LaunchOptions::default(),
            &mut NoObserver,
            &mut |_, _| {},
        )
        .unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "copy: {} warp-instr in {:.3}s = {:.2} M/s",
        s.warp_instructions,
        dt,
        s.warp_instructions as f64 / dt / 1e6
    );
    let n: u64 = 1024;
    let a = dev.malloc(n * n * 4, "A");
    let bb = dev.malloc(n * n * 4, "B");
    let c = dev.malloc(n * n * 4, "C");
    let t = Instant::now();
    let s = dev
        .launch(
            "_Z6matmulPfPKfS1_i",
            "matmul",
            LaunchDims {
                grid: [64, 64, 1],
                block: [16, 16, 1],
                dynamic_shared: 0,
            },
            &[
                KernelArg::U64(c),
                KernelArg::U64(a),
                KernelArg::U64(bb),
                KernelArg::U32(n as u32),
            ],
            LaunchOptions::default(),
            &mut NoObserver,
            &mut |_, _| {},
        )
        .unwrap();
    let dt = t.elapsed().as_secs_f64();
    println!(
        "matmul: {} warp-instr in {:.3}s = {:.2} M/s",
        s.warp_instructions,
        dt,
        s.warp_instructions as f64 / dt / 1e6
    );
}
