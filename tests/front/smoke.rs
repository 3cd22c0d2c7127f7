//! End-to-end smoke test on a small hand-checked PTX module (NVRTC output of a test kernel).
use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::gpu::config::H200;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};

#[test]
fn shared_stride_kernel_computes_sum() {
    let ptx = include_str!("smoke.ptx");
    let mut dev = Device::new(&H200);
    dev.load_ptx(ptx, "smoke.ptx").unwrap();
    let tab: Vec<u8> = (0..64).flat_map(|i| (i as f32).to_le_bytes()).collect();
    dev.memcpy_to_symbol("c_tab", &tab, 0).unwrap();
    let out = dev.malloc(128 * 4, "out");
    let dims = LaunchDims {
        grid: [1, 1, 1],
        block: [128, 1, 1],
        dynamic_shared: 0,
    };
    dev.launch(
        "_Z9sh_strideILi32EEvPfi",
        "sh_stride<32>",
        dims,
        &[KernelArg::U64(out), KernelArg::U32(5)],
        LaunchOptions::default(),
        &mut NoObserver,
        &mut |_, _| {},
    )
    .unwrap();
    let mut host = vec![0u8; 128 * 4];
    dev.memcpy_dtoh(&mut host, out).unwrap();
    let v: Vec<f32> = host
        .chunks(4)
        .map(|c| f32::from_le_bytes(c.try_into().unwrap()))
        .collect();
    // sh[t] = t; thread t reads sh[(32 t) % 1024] = (32 t) % 1024 if < 128 else 0, times sum c_tab[0..5] = 10.
    for (t, got) in v.iter().enumerate() {
        let idx = (32 * t) % 1024;
        let shv = if idx < 128 { idx as f32 } else { 0.0 };
        assert_eq!(*got, shv * 10.0, "thread {t}");
    }
}
