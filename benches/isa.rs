//! PTX against SASS on the same work: the examples' 16M-element copy (examples/copy_16m) and
//! 1024x1024 tiled matrix multiply with 16x16 tiles (examples/matmul, `matmul_tiled<16>`),
//! each module run as its committed PTX and as its committed sm_90 SASS, without memory models
//! and with them. The two instruction sets execute different numbers of instructions for the
//! same launch, so the figures are warp-instructions per second and launches per second
//! (simulated kernel time per host second); compare the ratios of one run. The fastest of
//! `REPS` interleaved runs counts. Run with `cargo bench --bench isa`.
//!
//! `cargo bench --bench isa -- copy|matmul ptx|sass [SIZE]` runs one workload once, without
//! models (the matrix multiply SIZExSIZE, a multiple of 16), for an instruction count under
//! callgrind, which is deterministic on a shared machine:
//! `valgrind --tool=callgrind target/release/deps/isa-HASH copy sass`. The issue's own
//! measure is a whole run of the example, `valgrind --tool=callgrind target/release/gpumemsim
//! run examples/copy_16m.toml --isa sass` against `--isa ptx`; see docs/notes/issue-9-sfast.md
//! for the figures.
//!
//! Against a baseline: build the baseline commit once (`cargo build --release --benches`),
//! copy `target/release/deps/isa-HASH` to `baseline/isa` (and `target/release/gpumemsim` to
//! `baseline/gpumemsim`), build the new commit, then run both binaries on the same workload
//! in one session, interleaved, e.g. three rounds of `/usr/bin/time -f %U baseline/isa matmul
//! ptx` and `/usr/bin/time -f %U target/release/deps/isa-HASH matmul sass`: each prints its
//! warp-instructions and time, so warp-instructions per second and launches per second
//! (simulated kernel time per host second) are ratios of the two lines.
//! docs/notes/issue-9-sspeed.md has the figures of that comparison.

use std::time::Instant;

use gpumemsim::exec::simt::{LaunchDims, NoObserver, Observer};
use gpumemsim::gpu::config::H200;
use gpumemsim::report::profile::Profile;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};

const REPS: usize = 3;

fn device(module: &str, sass: bool) -> Device {
    let ptx = std::fs::read_to_string(format!("examples/{module}.ptx")).expect("ptx");
    let mut dev = Device::new(&H200);
    dev.load_ptx(&ptx, module).expect("ptx loads");
    if sass {
        let text = std::fs::read_to_string(format!("examples/{module}.sass")).expect("sass");
        dev.load_sass(&text, module).expect("sass loads");
    }
    dev
}

fn time<O: Observer>(
    dev: &mut Device,
    k: &str,
    d: LaunchDims,
    a: &[KernelArg],
    o: &mut O,
) -> (u64, f64) {
    let t = Instant::now();
    let s = dev
        .launch(k, k, d, a, LaunchOptions::default(), o, &mut |_, _| {})
        .expect("launch");
    (s.warp_instructions, t.elapsed().as_secs_f64())
}

/// (warp-instructions, best time without models, best time with models).
fn best(dev: &mut Device, k: &str, d: LaunchDims, a: &[KernelArg]) -> (u64, f64, f64) {
    let len = dev
        .module()
        .and_then(|m| m.kernel(k))
        .map(|k| k.code.len())
        .unwrap_or(0);
    let (mut wi, mut bare, mut models) = (0, f64::MAX, f64::MAX);
    for _ in 0..REPS {
        let (w, t) = time(dev, k, d, a, &mut NoObserver);
        wi = w;
        bare = bare.min(t);
        let mut p = Profile::new(&H200, len);
        models = models.min(time(dev, k, d, a, &mut p).1);
    }
    (wi, bare, models)
}

/// The copy's launch: 16M floats, 256 threads per block.
fn copy_launch(dev: &mut Device) -> (&'static str, LaunchDims, Vec<KernelArg>) {
    let n: u64 = 16 << 20;
    let (a, b) = (dev.malloc(n * 4, "in"), dev.malloc(n * 4, "out"));
    let d = LaunchDims {
        grid: [(n / 256) as u32, 1, 1],
        block: [256, 1, 1],
        dynamic_shared: 0,
    };
    let args = vec![
        KernelArg::U64(b),
        KernelArg::U64(a),
        KernelArg::U32(n as u32),
    ];
    ("_Z4copyPfPKfi", d, args)
}

/// The matrix multiply's launch: `m`x`m` (1024 in the table), 16x16 tiles.
fn matmul_launch(dev: &mut Device, m: u64) -> (&'static str, LaunchDims, Vec<KernelArg>) {
    let (a, b, c) = (
        dev.malloc(m * m * 4, "a"),
        dev.malloc(m * m * 4, "b"),
        dev.malloc(m * m * 4, "c"),
    );
    let d = LaunchDims {
        grid: [(m / 16) as u32, (m / 16) as u32, 1],
        block: [16, 16, 1],
        dynamic_shared: 0,
    };
    let args = vec![
        KernelArg::U64(c),
        KernelArg::U64(a),
        KernelArg::U64(b),
        KernelArg::U32(m as u32),
    ];
    ("_Z12matmul_tiledILi16EEvPfPKfS2_i", d, args)
}

fn workload(sass: bool, copy: bool) -> (u64, f64, f64) {
    let mut dev = device(if copy { "copy_16m" } else { "matmul" }, sass);
    let (k, d, a) = if copy {
        copy_launch(&mut dev)
    } else {
        matmul_launch(&mut dev, 1024)
    };
    best(&mut dev, k, d, &a)
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let pick = |w: &str| args.iter().any(|a| a == w);
    if pick("copy") || pick("matmul") {
        // One workload, once, no models (for callgrind).
        // A number is the matrix multiply's size (a multiple of 16; 1024 without one).
        let (copy, sass) = (pick("copy"), pick("sass"));
        let size = args
            .iter()
            .find_map(|a| a.parse::<u64>().ok())
            .filter(|m| *m >= 16 && m % 16 == 0)
            .unwrap_or(1024);
        let mut dev = device(if copy { "copy_16m" } else { "matmul" }, sass);
        let (k, d, a) = if copy {
            copy_launch(&mut dev)
        } else {
            matmul_launch(&mut dev, size)
        };
        let (w, t) = time(&mut dev, k, d, &a, &mut NoObserver);
        println!(
            "{} {}: {w} warp-instructions, {t:.3} s",
            if copy {
                "copy".to_string()
            } else {
                format!("matmul {size}")
            },
            if sass { "SASS" } else { "PTX" }
        );
        return;
    }
    for (name, copy) in [("copy 16M f32", true), ("matmul 1024 (16x16 tiles)", false)] {
        let (pw, pb, pm) = workload(false, copy);
        let (sw, sb, sm) = workload(true, copy);
        for (isa, w, b, m) in [("PTX ", pw, pb, pm), ("SASS", sw, sb, sm)] {
            println!(
                "{isa} {name:<26} {w:>11} warp-instr | no models {:>6.2} M/s, {:>7.3} s | with models {:>6.2} M/s, {:>7.3} s",
                w as f64 / b / 1e6, b, w as f64 / m / 1e6, m
            );
        }
        println!(
            "     {name:<26} SASS/PTX: warp-instr/s x{:.2} (models x{:.2}); launches/s x{:.2} (models x{:.2})",
            (sw as f64 / sb) / (pw as f64 / pb),
            (sw as f64 / sm) / (pw as f64 / pm),
            pb / sb,
            pm / sm
        );
    }
}
