//! Named barriers with thread counts (`bar.sync id, n` and `bar.arrive id, n`, PTX ISA 9.7.13.1):
//! a producer warp arrives without waiting, a consumer warp waits for it, and two other warps
//! synchronise among themselves on another barrier. Expected values follow from the PTX below.

use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::gpu::config::H200;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions, RuntimeError};

const PTX: &str = r#"
.version 8.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 out, .param .u32 need)
{
    .reg .pred %p<4>;
    .reg .b32 %r<10>;
    .reg .b64 %rd<6>;
    .shared .align 4 .b32 buf[64];
    ld.param.u64 %rd1, [out];
    ld.param.u32 %r9, [need];
    cvta.to.global.u64 %rd1, %rd1;
    mov.u32 %r1, %tid.x;
    setp.lt.u32 %p1, %r1, 32;
    @%p1 bra PROD;
    setp.lt.u32 %p2, %r1, 64;
    @%p2 bra CONS;
    bar.sync 2, 64;
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r1;
    ret;
PROD:
    shl.b32 %r2, %r1, 2;
    mov.u32 %r3, buf;
    add.u32 %r4, %r3, %r2;
    add.u32 %r5, %r1, 1000;
    st.shared.u32 [%r4], %r5;
    bar.arrive 1, 64;
    ret;
CONS:
    bar.sync 1, %r9;
    sub.u32 %r6, %r1, 32;
    shl.b32 %r2, %r6, 2;
    mov.u32 %r3, buf;
    add.u32 %r4, %r3, %r2;
    ld.shared.u32 %r7, [%r4];
    mul.wide.u32 %rd2, %r1, 4;
    add.s64 %rd3, %rd1, %rd2;
    st.global.u32 [%rd3], %r7;
    ret;
}
"#;

fn launch(need: u32) -> Result<Vec<u32>, RuntimeError> {
    let mut dev = Device::new(&H200);
    dev.load_ptx(PTX, "named.ptx")?;
    let out = dev.malloc(128 * 4, "out");
    let dims = LaunchDims {
        grid: [1, 1, 1],
        block: [128, 1, 1],
        dynamic_shared: 0,
    };
    dev.launch(
        "k",
        "k",
        dims,
        &[KernelArg::U64(out), KernelArg::U32(need)],
        LaunchOptions::default(),
        &mut NoObserver,
        &mut |_, _| {},
    )?;
    let mut host = vec![0u8; 128 * 4];
    dev.memcpy_dtoh(&mut host, out)?;
    Ok(host
        .chunks(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect())
}

#[test]
fn producer_consumer_and_independent_barriers() {
    let v = launch(64).unwrap_or_else(|e| panic!("{e}"));
    for (t, x) in v.iter().enumerate() {
        let want = match t {
            0..=31 => 0,
            32..=63 => 1000 + (t as u32 - 32),
            _ => t as u32,
        };
        assert_eq!(*x, want, "out[{t}]");
    }
}

#[test]
fn a_barrier_short_of_its_threads_is_reported() {
    // The consumer waits for 96 threads on barrier 1, but only 64 ever arrive.
    let e = launch(96).expect_err("must not complete");
    let msg = e.to_string();
    assert!(msg.contains("barrier 1 expects 96 threads"), "{msg}");
    assert!(matches!(e, RuntimeError::Fault(_)), "{msg}");
}
