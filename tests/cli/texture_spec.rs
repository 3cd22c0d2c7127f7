//! Texture and surface spec keys: what each mistake reports (spec file and key), and a module
//! whose one kernel gpumemsim cannot run still running its other kernels.

use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions, RuntimeError};
use gpumemsim::spec::Spec;
use std::path::Path;

fn parse(body: &str) -> Result<Spec, String> {
    let dir = std::env::temp_dir().join(format!("gms-texspec-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let ptx = dir.join("k.ptx");
    std::fs::write(&ptx, ".version 8.0\n.target sm_90\n.address_size 64\n").unwrap();
    let text =
        format!("ptx = \"k.ptx\"\n{body}\n[[launch]]\nkernel = \"k\"\ngrid = [1]\nblock = [1]\n");
    Spec::parse(&text, "t.toml", &dir.join("t.toml")).map_err(|e| e.to_string())
}

const ARRAY: &str = "[arrays.img]\ntype = \"f32\"\nwidth = 4\nheight = 4\n";

#[test]
fn texture_mistakes_name_the_file_and_key() {
    let cases = [
        (
            "[textures.t]\narray = \"nope\"\n".to_string(),
            "t.toml: [textures.t] array: no array named \"nope\"",
        ),
        (
            format!("{ARRAY}[textures.t]\narray = \"img\"\naddress = [\"wrap\"]\n"),
            "t.toml: [textures.t] address[0]: \"wrap\" needs normalized = true",
        ),
        (
            format!("{ARRAY}[textures.t]\narray = \"img\"\nread = \"normalized_float\"\n"),
            "t.toml: [textures.t] read: a f32 channel cannot be read as normalized float",
        ),
        (
            "[arrays.a]\ntype = \"u8\"\nwidth = 4\n[textures.t]\narray = \"a\"\nfilter = \"linear\"\n".to_string(),
            "t.toml: [textures.t] filter: linear filtering returns floats",
        ),
        (
            "[arrays.a]\ntype = \"u8\"\nchannels = 3\nwidth = 4\n".to_string(),
            "t.toml: [arrays.a] channels: 3 channels",
        ),
        (
            "[arrays.a]\ntype = \"f64\"\nwidth = 4\n".to_string(),
            "t.toml: [arrays.a] type: unknown channel type \"f64\"",
        ),
        (
            "[arrays.a]\ntype = \"u8\"\nwidth = 200000\n".to_string(),
            "t.toml: [arrays.a] width: 200000: expected 1 to 131072",
        ),
        (
            "[surfaces.s]\narray = \"x\"\n".to_string(),
            "t.toml: [surfaces.s] array: no array named \"x\"",
        ),
        (
            format!("{ARRAY}[textures.img]\narray = \"img\"\n"),
            "t.toml: [textures.img]: the name \"img\" is taken by [arrays.img]",
        ),
        (
            format!("{ARRAY}[textures.t]\narray = \"img\"\naddress = [\"sideways\"]\n"),
            "t.toml: [textures.t] address[0]: unknown address mode \"sideways\"",
        ),
        (
            "[buffers.b]\ntype = \"f32\"\nlen = 64\n[textures.t]\npitch2d = { buffer = \"b\", width = 4, height = 4, pitch = 20 }\n".to_string(),
            "t.toml: [textures.t] pitch2d.pitch: 20: the pitch is at least a row (16 bytes) and a multiple of 32",
        ),
        (
            format!("{ARRAY}[buffers.b]\ntype = \"f32\"\nlen = 4\n[textures.t]\narray = \"img\"\nbuffer = \"b\"\n"),
            "t.toml: [textures.t]: give exactly one of `array`, `buffer`",
        ),
    ];
    for (body, want) in cases {
        let err = parse(&body).expect_err(&body);
        assert!(err.starts_with(want), "{body}\n gave: {err}\n want: {want}");
    }
    // And a well-formed one loads.
    let ok = parse(&format!(
        "{ARRAY}[textures.t]\narray = \"img\"\naddress = [\"border\", \"clamp\"]\nfilter = \"linear\"\n[surfaces.s]\narray = \"img\"\n[outputs]\nimg = \"img.bin\"\n"
    ))
    .unwrap();
    assert_eq!(ok.textures.len(), 1);
    assert!(
        ok.arrays[0].surface,
        "an array bound to a surface is allocated for it"
    );
    assert!(ok.outputs[0].array);
}

/// A module with a texture kernel whose instruction does not even parse, one with a texture
/// form gpumemsim does not run, and a plain kernel: the plain one runs; each of the others
/// reports its located error when launched, before any block runs.
#[test]
fn a_kernel_gpumemsim_cannot_run_leaves_the_others() {
    let ptx = r#".version 8.0
.target sm_90
.address_size 64

.visible .entry bad_parse(.param .u64 t)
{
	.reg .f32 %f<8>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [t];
	tex.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5 %f6}];
	ret;
}

.visible .entry bad_form(.param .u64 t)
{
	.reg .f32 %f<12>;
	.reg .b64 %rd<2>;
	ld.param.u64 %rd1, [t];
	tex.grad.2d.v4.f32.f32 {%f1, %f2, %f3, %f4}, [%rd1, {%f5, %f6}], {%f7, %f8}, {%f9, %f10};
	ret;
}

.visible .entry good(.param .u64 out)
{
	.reg .b32 %r<2>;
	.reg .b64 %rd<3>;
	ld.param.u64 %rd1, [out];
	cvta.to.global.u64 %rd2, %rd1;
	mov.u32 %r1, 42;
	st.global.u32 [%rd2], %r1;
	ret;
}
"#;
    let mut dev = Device::new(&gpumemsim::gpu::config::H200);
    dev.load_ptx(ptx, "mixed.ptx").expect("the module loads");
    let out = dev.malloc(4, "out");
    let dims = LaunchDims {
        grid: [1, 1, 1],
        block: [1, 1, 1],
        dynamic_shared: 0,
    };
    let launch = |dev: &mut Device, k: &str, a: u64| {
        dev.launch(
            k,
            k,
            dims,
            &[KernelArg::U64(a)],
            LaunchOptions::default(),
            &mut NoObserver,
            &mut |_, _| {},
        )
    };
    launch(&mut dev, "good", out).expect("the plain kernel runs");
    let mut b = [0u8; 4];
    dev.memcpy_dtoh(&mut b, out).unwrap();
    assert_eq!(u32::from_le_bytes(b), 42);
    for (k, line, text) in [
        ("bad_parse", "mixed.ptx:10:", "expected ',', found '%f6'"),
        (
            "bad_form",
            "mixed.ptx:19:",
            "tex.grad (tex2DGrad) is not supported yet",
        ),
    ] {
        match launch(&mut dev, k, 1) {
            Err(e @ RuntimeError::Unloadable { .. }) => {
                let m = e.to_string();
                assert!(
                    m.contains(&format!("kernel '{k}' cannot be launched")),
                    "{m}"
                );
                assert!(m.contains(line) && m.contains(text), "{m}");
            }
            other => panic!("{k}: expected the located error, got {other:?}"),
        }
    }
    let _ = Path::new(".");
}
