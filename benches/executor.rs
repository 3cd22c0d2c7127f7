//! Executor benchmark: simulated warp-instructions per second on the two workloads the
//! foundation issue names (a 16M-element coalesced copy and a 1024x1024 tiled matrix multiply)
//! and the seed's texture example (examples/rotate.ptx: a 1024x1024 float image rotated through
//! a bilinear, wrapped, normalized texture), each run once without memory models and once with
//! them (the profiling observer that feeds every request to the bank, coalescing and constant
//! models and every texture instruction to the texture pipe's request model). The ratio of the two is the cost
//! of counting; absolute figures depend on the machine, so compare ratios from one run.
//!
//! These are multi-second runs, not micro-benchmarks: each configuration runs `REPS` times,
//! interleaved, and the fastest run counts (the machine's noise only ever adds time). Run with
//! `cargo bench --bench executor`.

use std::time::Instant;

use gpumemsim::exec::simt::{LaunchDims, NoObserver, Observer};
use gpumemsim::gpu::config::H200;
use gpumemsim::report::profile::Profile;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};
use gpumemsim::tex::array::CudaArray;
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ChannelType, ReadMode};

const PTX: &str = include_str!("../tests/bench_kernels.ptx");
const ROTATE_PTX: &str = include_str!("../examples/rotate.ptx");
const REPS: usize = 3;

fn time<O: Observer>(
    dev: &mut Device,
    kernel: &str,
    dims: LaunchDims,
    args: &[KernelArg],
    obs: &mut O,
) -> (u64, f64) {
    let t = Instant::now();
    let s = dev
        .launch(
            kernel,
            kernel,
            dims,
            args,
            LaunchOptions::default(),
            obs,
            &mut |_, _| {},
        )
        .expect("launch");
    (s.warp_instructions, t.elapsed().as_secs_f64())
}

fn main() {
    let mut dev = Device::new(&H200);
    dev.load_ptx(PTX, "tests/bench_kernels.ptx").expect("ptx");
    let n: u64 = 16 << 20;
    let (a, b) = (dev.malloc(n * 4, "in"), dev.malloc(n * 4, "out"));
    let copy = "_Z4copyPfPKfi";
    let dims = LaunchDims {
        grid: [(n / 256) as u32, 1, 1],
        block: [256, 1, 1],
        dynamic_shared: 0,
    };
    let args = [
        KernelArg::U64(b),
        KernelArg::U64(a),
        KernelArg::U32(n as u32),
    ];
    let (wi, t0, t1) = best(&mut dev, copy, dims, &args);
    report("copy 16M f32", wi, t0, t1);

    let m: u64 = 1024;
    let (ma, mb, mc) = (
        dev.malloc(m * m * 4, "A"),
        dev.malloc(m * m * 4, "B"),
        dev.malloc(m * m * 4, "C"),
    );
    let mm = "_Z6matmulPfPKfS1_i";
    let dims = LaunchDims {
        grid: [64, 64, 1],
        block: [16, 16, 1],
        dynamic_shared: 0,
    };
    let args = [
        KernelArg::U64(mc),
        KernelArg::U64(ma),
        KernelArg::U64(mb),
        KernelArg::U32(m as u32),
    ];
    let (wi, t0, t1) = best(&mut dev, mm, dims, &args);
    report("matmul 1024 (16x16 tiles)", wi, t0, t1);

    // examples/rotate.toml's launch: the image h_data[i] = i in a 1024 x 1024 float array.
    let mut dev = Device::new(&H200);
    dev.load_ptx(ROTATE_PTX, "examples/rotate.ptx")
        .expect("ptx");
    let data = (0..m * m).flat_map(|i| (i as f32).to_le_bytes()).collect();
    let array = dev.textures.insert_array(CudaArray {
        name: "img".into(),
        format: ChannelFormat {
            ty: ChannelType::F32,
            channels: 1,
        },
        width: m as u32,
        height: m as u32,
        depth: 0,
        surface: false,
        data,
    });
    let tex = dev
        .textures
        .create_texture_object(
            Resource::Array(array),
            TextureDesc {
                address: [AddressMode::Wrap; 3],
                filter: FilterMode::Linear,
                read: ReadMode::ElementType,
                normalized: true,
                border: [0.0; 4],
            },
        )
        .expect("texture object");
    let out = dev.malloc(m * m * 4, "output");
    let args = [
        KernelArg::U64(out),
        KernelArg::U64(tex),
        KernelArg::U32(m as u32),
        KernelArg::U32(m as u32),
        KernelArg::F32(0.5),
    ];
    let (wi, t0, t1) = best(&mut dev, "_Z15transformKernelPfyiif", dims, &args);
    report("rotate 1024 (tex2D bilinear)", wi, t0, t1);
}

/// The fastest of `REPS` interleaved runs without and with the memory models.
fn best(dev: &mut Device, kernel: &str, dims: LaunchDims, args: &[KernelArg]) -> (u64, f64, f64) {
    let code_len = dev
        .module()
        .and_then(|m| m.kernel(kernel))
        .map(|k| k.code.len())
        .unwrap_or(0);
    let (mut wi, mut bare, mut models) = (0, f64::MAX, f64::MAX);
    for _ in 0..REPS {
        let (w, t) = time(dev, kernel, dims, args, &mut NoObserver);
        wi = w;
        bare = bare.min(t);
        let mut p = Profile::new(&H200, code_len);
        let (_, t) = time(dev, kernel, dims, args, &mut p);
        models = models.min(t);
    }
    (wi, bare, models)
}

fn report(name: &str, wi: u64, bare: f64, models: f64) {
    println!(
        "{name:<28} {wi:>11} warp-instr | no models {:>6.2} M/s | with models {:>6.2} M/s | counting costs {:>5.1}%",
        wi as f64 / bare / 1e6,
        wi as f64 / models / 1e6,
        (models / bare - 1.0) * 100.0
    );
}
