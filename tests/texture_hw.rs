//! Texture and surface fetches against the H200, word for word.
//!
//! `tests/hw/h200/texture/sweep.bin.zst` holds what the H200 returned for every case of
//! `tests/hw/texture/sweep.cu` (format in tests/hw/texture/README.md): per case a texture or
//! surface configuration, its texels, the coordinate records and the result words. This test
//! builds the same CUDA array (or linear / pitch memory), the same texture or surface object
//! through the library API, runs the same kernel of `tests/hw/texture/sweep_kernels.ptx` in
//! gpumemsim on the same coordinates and compares every word.

use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ReadMode, ALL_CHANNEL_TYPES};
use std::path::Path;

/// One recorded case.
#[derive(Debug)]
struct Case {
    kernel: String,
    f: [u32; 32],
    data: Vec<u8>,
    coords: Vec<u32>,
    out: Vec<u32>,
    after: Vec<u8>,
}

const RES: usize = 0;
const CHT: usize = 1;
const CHN: usize = 2;
const READ: usize = 3;
const FILT: usize = 4;
const AD0: usize = 5;
const NORM: usize = 8;
const BO0: usize = 9;
const W: usize = 13;
const H: usize = 14;
const D: usize = 15;
const PITCH: usize = 16;
const N: usize = 17;
const DATA: usize = 18;
const OUTW: usize = 19;
const SURF: usize = 20;
const AFTER: usize = 21;

fn read_cases(path: &Path) -> Vec<Case> {
    let z = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).expect("zstd frame");
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut b).expect("zstd data");
    let mut cases = Vec::new();
    let mut p = 0usize;
    let word = |b: &[u8], at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    while p + 160 <= b.len() {
        let name = &b[p..p + 32];
        let kernel =
            String::from_utf8_lossy(&name[..name.iter().position(|&c| c == 0).unwrap_or(32)])
                .to_string();
        let mut f = [0u32; 32];
        for (k, v) in f.iter_mut().enumerate() {
            *v = word(&b, p + 32 + 4 * k);
        }
        p += 160;
        let data = b[p..p + f[DATA] as usize].to_vec();
        p += f[DATA] as usize;
        let n = f[N] as usize;
        let coords = (0..4 * n).map(|k| word(&b, p + 4 * k)).collect();
        p += 16 * n;
        let no = n * f[OUTW] as usize;
        let out = (0..no).map(|k| word(&b, p + 4 * k)).collect();
        p += 4 * no;
        let after = b[p..p + f[AFTER] as usize].to_vec();
        p += f[AFTER] as usize;
        cases.push(Case {
            kernel,
            f,
            data,
            coords,
            out,
            after,
        });
    }
    assert_eq!(p, b.len(), "trailing bytes in {}", path.display());
    cases
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn device() -> Device {
    let ptx_path = root().join("tests/hw/texture/sweep_kernels.ptx");
    let text = std::fs::read_to_string(&ptx_path).unwrap();
    let mut dev = Device::new(&gpumemsim::gpu::config::H200);
    dev.load_ptx(&text, &ptx_path.display().to_string())
        .unwrap();
    dev
}

fn describe(c: &Case) -> String {
    let f = &c.f;
    format!(
        "{} res{} {} x{} read{} filt{} addr{} norm{} {}x{}x{}",
        c.kernel,
        f[RES],
        ALL_CHANNEL_TYPES[f[CHT] as usize].name(),
        f[CHN],
        f[READ],
        f[FILT],
        f[AD0],
        f[NORM],
        f[W],
        f[H],
        f[D]
    )
}

/// Runs one case in gpumemsim: the result words (or, for stores, the array after).
fn simulate(c: &Case) -> Result<(Vec<u32>, Vec<u8>), String> {
    let mut dev = device();
    let f = &c.f;
    let format = ChannelFormat {
        ty: ALL_CHANNEL_TYPES[f[CHT] as usize],
        channels: f[CHN] as u8,
    };
    let modes = [
        AddressMode::Wrap,
        AddressMode::Clamp,
        AddressMode::Mirror,
        AddressMode::Border,
    ];
    let desc = TextureDesc {
        address: [modes[f[AD0] as usize]; 3],
        filter: if f[FILT] == 1 {
            FilterMode::Linear
        } else {
            FilterMode::Point
        },
        read: if f[READ] == 1 {
            ReadMode::NormalizedFloat
        } else {
            ReadMode::ElementType
        },
        normalized: f[NORM] == 1,
        border: std::array::from_fn(|k| f32::from_bits(f[BO0 + k])),
    };
    let e = |x: gpumemsim::runtime::RuntimeError| x.to_string();
    let handle = if f[RES] == 0 {
        let a = dev
            .malloc_3d_array("a", format, [f[W], f[H], f[D]], f[SURF] == 1)
            .map_err(e)?;
        let row = u64::from(f[W]) * u64::from(format.texel_bytes());
        let rows = c.data.len() as u64 / row;
        dev.memcpy_2d_to_array(a, 0, 0, &c.data, row, row, rows)
            .map_err(e)?;
        if f[SURF] == 1 {
            dev.create_surface_object(a).map_err(e)?
        } else {
            dev.create_texture_object(Resource::Array(a), desc)
                .map_err(e)?
        }
    } else {
        let p = dev.malloc_with(c.data.clone(), "lin").map_err(e)?;
        let r = if f[RES] == 1 {
            Resource::Linear {
                addr: p,
                format,
                size_bytes: c.data.len() as u64,
            }
        } else {
            Resource::Pitch2d {
                addr: p,
                format,
                width: f[W],
                height: f[H],
                pitch: u64::from(f[PITCH]),
            }
        };
        dev.create_texture_object(r, desc).map_err(e)?
    };
    let n = f[N] as usize;
    let coords: Vec<u8> = c.coords.iter().flat_map(|w| w.to_le_bytes()).collect();
    let cp = dev.malloc_with(coords, "coords").map_err(e)?;
    let outw = f[OUTW].max(1) as usize;
    let op = dev.try_malloc((n * outw * 4) as u64, "out").map_err(e)?;
    let store = c.kernel.starts_with("sust");
    let (args, grid, block) = if c.kernel == "txq_all" {
        (vec![KernelArg::U64(handle), KernelArg::U64(op)], 1, 1)
    } else if store {
        (
            vec![
                KernelArg::U64(handle),
                KernelArg::U64(cp),
                KernelArg::U32(n as u32),
            ],
            1,
            1,
        )
    } else {
        (
            vec![
                KernelArg::U64(handle),
                KernelArg::U64(cp),
                KernelArg::U64(op),
                KernelArg::U32(n as u32),
            ],
            n.div_ceil(128) as u32,
            128,
        )
    };
    let dims = LaunchDims {
        grid: [grid, 1, 1],
        block: [block, 1, 1],
        dynamic_shared: 0,
    };
    dev.launch(
        &c.kernel,
        &c.kernel,
        dims,
        &args,
        LaunchOptions::default(),
        &mut NoObserver,
        &mut |_, _| {},
    )
    .map_err(e)?;
    let mut out = vec![0u8; n * f[OUTW] as usize * 4];
    dev.memcpy_dtoh(&mut out, op).map_err(e)?;
    let words = out
        .chunks_exact(4)
        .map(|b| u32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    let after = if store {
        dev.memcpy_from_array(0).map_err(e)?
    } else {
        Vec::new()
    };
    Ok((words, after))
}

/// How a case is compared: exactly, or, for the two kinds of linear filtering whose arithmetic
/// is not yet the H200's bit for bit (tests/hw/texture/README.md, "What is not yet equal"),
/// by how many words differ and how far: signed 8-bit normalized reads, and 3D (trilinear).
/// Every other filtered word (1D, 2D, pitch-2D, every other channel type) must be equal.
fn approximate(c: &Case) -> bool {
    let filtered =
        c.f[FILT] == 1 && c.kernel.starts_with("tex") && !c.kernel.starts_with("tex1dfetch");
    let i8_normalized = ALL_CHANNEL_TYPES[c.f[CHT] as usize].name() == "i8" && c.f[READ] == 1;
    filtered && (i8_normalized || c.kernel.starts_with("tex3d"))
}

fn filtered(c: &Case) -> bool {
    c.f[FILT] == 1 && c.kernel.starts_with("tex") && !c.kernel.starts_with("tex1dfetch")
}

/// The spread (largest minus smallest) of the finite channel values of a case's texels and
/// border colour, as a normalized-float or float fetch reads them.
fn spread(c: &Case) -> f64 {
    let ty = ALL_CHANNEL_TYPES[c.f[CHT] as usize];
    let n = ty.bytes() as usize;
    let mut lo = f64::INFINITY;
    let mut hi = f64::NEG_INFINITY;
    for k in 0..4 {
        let b = f64::from(f32::from_bits(c.f[BO0 + k]));
        lo = lo.min(b);
        hi = hi.max(b);
    }
    for ch in c.data.chunks_exact(n) {
        let v = match ty.name() {
            "f32" => f64::from(f32::from_le_bytes(ch.try_into().unwrap())),
            "f16" => f64::from(half::f16::from_le_bytes(ch.try_into().unwrap()).to_f32()),
            "u8" => f64::from(ch[0]) / 255.0,
            "i8" => (f64::from(ch[0] as i8) / 127.0).max(-1.0),
            "u16" => f64::from(u16::from_le_bytes(ch.try_into().unwrap())) / 65535.0,
            "i16" => (f64::from(i16::from_le_bytes(ch.try_into().unwrap())) / 32767.0).max(-1.0),
            _ => continue,
        };
        if v.is_finite() {
            lo = lo.min(v);
            hi = hi.max(v);
        }
    }
    hi - lo
}

#[test]
fn sweeps_equal_the_h200() {
    let mut cases = read_cases(&root().join("tests/hw/h200/texture/sweep.bin.zst"));
    cases.extend(read_cases(
        &root().join("tests/hw/h200/texture/sweep_surf.bin.zst"),
    ));
    assert!(cases.len() > 400, "only {} cases", cases.len());
    let verbose = std::env::var("GMS_TEX_VERBOSE").is_ok();
    let mut failed = Vec::new();
    let (mut exact_words, mut filtered_exact, mut approx_words, mut approx_off) =
        (0usize, 0usize, 0usize, 0usize);
    let mut txq = 0;
    let mut worst = (0f64, String::new());
    for c in &cases {
        if c.kernel == "txq_all" {
            // This kernel never ran on the H200 (its non-dimension queries read a texture-reference
            // table; README, "txq"): its zeros are not results. txq.width is compared below.
            txq += 1;
            continue;
        }
        match simulate(c) {
            Err(e) => failed.push(format!("{}: {e}", describe(c))),
            Ok((got, after)) => {
                let ow = c.f[OUTW].max(1) as usize;
                let lin = approximate(c);
                let mut bad = Vec::new();
                for (i, (&g, &h)) in got.iter().zip(&c.out).enumerate() {
                    if g == h {
                        continue;
                    }
                    if lin {
                        // Not yet bit-exact (README): measure how far off, relative to the
                        // spread of the texel values the case reads.
                        approx_off += 1;
                        let d = (f64::from(f32::from_bits(g)) - f64::from(f32::from_bits(h))).abs();
                        let rel = d / spread(c).max(f64::MIN_POSITIVE);
                        if rel.is_nan() || rel > worst.0 {
                            worst = (if rel.is_nan() { f64::INFINITY } else { rel }, describe(c));
                        }
                        continue;
                    }
                    bad.push(i);
                }
                if lin {
                    approx_words += c.out.len();
                } else {
                    exact_words += c.out.len() + c.after.len() / 4;
                    if filtered(c) {
                        filtered_exact += c.out.len();
                    }
                }
                if !bad.is_empty() {
                    let mut msg = format!(
                        "{}: {} of {} words differ",
                        describe(c),
                        bad.len(),
                        c.out.len()
                    );
                    for &i in bad.iter().take(if verbose { 40 } else { 3 }) {
                        let r = i / ow;
                        let cw = &c.coords[4 * r..4 * r + 4];
                        msg += &format!(
                            "\n  record {r} word {} coords ({:e}, {:e}, {:e}, {:e}) [{:08x} {:08x} {:08x}]: h200 {:08x} ({:e}) gpumemsim {:08x} ({:e})",
                            i % ow,
                            f32::from_bits(cw[0]),
                            f32::from_bits(cw[1]),
                            f32::from_bits(cw[2]),
                            f32::from_bits(cw[3]),
                            cw[0], cw[1], cw[2],
                            c.out[i],
                            f32::from_bits(c.out[i]),
                            got[i],
                            f32::from_bits(got[i])
                        );
                    }
                    failed.push(msg);
                }
                if after != c.after {
                    failed.push(format!(
                        "{}: the array after the stores differs",
                        describe(c)
                    ));
                }
            }
        }
    }
    eprintln!(
        "texture sweeps: {} cases ({txq} txq cases not compared); {exact_words} words equal to the H200's \
         ({filtered_exact} of them linearly filtered); {approx_words} signed 8-bit or trilinear filtered words, \
         {approx_off} of them different",
        cases.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} cases differ from the H200 ({exact_words} exact and {approx_words} approximate words compared):\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    eprintln!(
        "worst filtered word: {:.3e} of the texel spread ({})",
        worst.0, worst.1
    );
    // Every 1D and 2D filtered word of every other type is compared exactly above (243,648
    // words, all equal to the H200's). Signed 8-bit normalized and trilinear filtering are not
    // yet bit-exact: of their 57,852 words, 163 signed 8-bit ones differ by one 16-bit step and
    // 83 trilinear ones by more (measured; README). These bounds guard what is reached.
    assert!(
        filtered_exact >= 243_648,
        "only {filtered_exact} filtered words compared exactly"
    );
    assert!(
        approx_off <= 246,
        "{approx_off} of {approx_words} signed 8-bit or trilinear filtered words differ from the H200's (246 measured)"
    );
    assert!(
        worst.0 <= 1.0 / 256.0,
        "a filtered word is {:.3e} of the texel spread off ({})",
        worst.0,
        worst.1
    );
}

/// The H200's output of the seed's rotation example (tests/hw/h200/texture/rotate_out.bin.zst;
/// SHA-256 in rotate.sha256, the same from the seed's own nvcc-built program, from
/// tests/hw/texture/rotate_host.cu running examples/rotate.ptx, and from the program
/// `gpumemsim export-cuda examples/rotate.toml` writes), checked against its recorded hash.
fn rotation_on_the_h200() -> Vec<u32> {
    let z = std::fs::read(root().join("tests/hw/h200/texture/rotate_out.bin.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).unwrap();
    let mut want = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut want).unwrap();
    let sha = std::fs::read_to_string(root().join("tests/hw/h200/texture/rotate.sha256")).unwrap();
    assert!(
        sha.contains(&sha256(&want)),
        "the committed H200 output is not the recorded one"
    );
    words(&want)
}

fn sha256(b: &[u8]) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(b)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

fn words(b: &[u8]) -> Vec<u32> {
    b.chunks_exact(4)
        .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
        .collect()
}

/// examples/rotate.toml run in gpumemsim, with its PTX replaced by `ptx` when given.
fn rotate_in_gpumemsim(ptx: Option<&str>) -> Vec<u8> {
    let mut spec = gpumemsim::spec::Spec::load(root().join("examples/rotate.toml")).unwrap();
    if let Some(p) = ptx {
        spec.source = None;
        spec.ptx = Some(root().join(p));
    }
    let opts = gpumemsim::run::RunOptions {
        write_outputs: false,
        caches: false,
        ..Default::default()
    };
    let report = gpumemsim::run::run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap();
    let (_, _, got) = report
        .outputs
        .iter()
        .find(|o| o.0 == "output")
        .expect("the output buffer");
    got.clone()
}

/// The texture unit on the seed's rotation (1024 x 1024 texels 0 to 1,048,575, bilinear, wrap,
/// normalized coordinates) at the coordinates the H200 computed: every pixel equal, the output's
/// SHA-256 the H200's. The kernel is examples/rotate.ptx with the FFMA ptxas makes of
/// `u * cos - v * sin` written out (tests/hw/texture/rotate_fused.ptx says how and where the
/// H200's SASS shows it).
#[test]
fn rotation_equals_the_h200_bit_for_bit() {
    let want = rotation_on_the_h200();
    let got = rotate_in_gpumemsim(Some("tests/hw/texture/rotate_fused.ptx"));
    let g = words(&got);
    assert_eq!(g.len(), want.len());
    let differ: Vec<usize> = (0..g.len()).filter(|&i| g[i] != want[i]).collect();
    assert!(
        differ.is_empty(),
        "{} of {} pixels differ from the H200's, the first at {:?}",
        differ.len(),
        g.len(),
        differ.iter().take(5).collect::<Vec<_>>()
    );
    let sha = std::fs::read_to_string(root().join("tests/hw/h200/texture/rotate.sha256")).unwrap();
    assert!(sha.contains(&sha256(&got)));
}

/// examples/rotate.toml as it stands, through gpumemsim's PTX executor, which rounds
/// `mul.f32` and `sub.f32` separately where ptxas contracts them into one FFMA: 245 pixels
/// take a coordinate one f32 step away from the H200's and with it, where the coordinate sits
/// on a weight step, a weight one step away (at most 4 texel values here). The texture unit
/// itself is exact on this image (the test above).
#[test]
fn rotation_example_without_ptxas_contraction() {
    let want = rotation_on_the_h200();
    let g = words(&rotate_in_gpumemsim(None));
    assert_eq!(g.len(), want.len());
    let differ: Vec<usize> = (0..g.len()).filter(|&i| g[i] != want[i]).collect();
    let worst = differ
        .iter()
        .map(|&i| (f64::from(f32::from_bits(g[i])) - f64::from(f32::from_bits(want[i]))).abs())
        .fold(0f64, f64::max);
    eprintln!(
        "rotation (PTX without contraction): {} of {} pixels differ from the H200's, by at most {worst}",
        differ.len(),
        g.len()
    );
    assert!(differ.len() <= 245, "{} pixels differ", differ.len());
    assert!(worst <= 4.0, "a pixel is {worst} off");
}

/// `txq.width` against the H200 (tests/hw/h200/texture/txq_run3.txt: a kernel querying the width
/// of texture objects over CUDA arrays of five geometries). The H200 answers the dimension
/// queries with `TXQ TEX_HEADER_DIMENSION`; kernels with the other queries (channel type and
/// order, normalization, filter and address modes), which ptxas turns into loads from a unified
/// texture-reference descriptor table, did not run on texture objects at all (README, "txq"),
/// so only the width is compared.
#[test]
fn txq_width_equals_the_h200() {
    let rec = std::fs::read_to_string(root().join("tests/hw/h200/texture/txq_run3.txt")).unwrap();
    let ptx_path = root().join("tests/hw/texture/txq_width.ptx");
    let text = std::fs::read_to_string(&ptx_path).unwrap();
    let mut compared = 0;
    let mut dims = None;
    for line in rec.lines() {
        if let Some(rest) = line.strip_prefix("cfg ") {
            let geom = rest.split_whitespace().next().unwrap();
            let d: Vec<u32> = geom.split('x').map(|v| v.parse().unwrap()).collect();
            let bits8 = rest.contains("bits8");
            dims = Some(([d[0], d[1], d[2]], bits8));
        } else if let Some(rest) = line.trim().strip_prefix("txq+fetch: width ") {
            let want: u32 = rest.split_whitespace().next().unwrap().parse().unwrap();
            let (extent, bits8) = dims.take().expect("a cfg line before its result");
            let mut dev = Device::new(&gpumemsim::gpu::config::H200);
            dev.load_ptx(&text, &ptx_path.display().to_string())
                .unwrap();
            let format = ChannelFormat {
                ty: ALL_CHANNEL_TYPES[if bits8 { 0 } else { 7 }],
                channels: 1,
            };
            let a = dev.malloc_3d_array("a", format, extent, false).unwrap();
            let desc = TextureDesc {
                address: [AddressMode::Clamp; 3],
                filter: FilterMode::Point,
                read: ReadMode::ElementType,
                normalized: false,
                border: [0.0; 4],
            };
            let t = dev.create_texture_object(Resource::Array(a), desc).unwrap();
            let out = dev.try_malloc(4, "out").unwrap();
            let dims = LaunchDims {
                grid: [1, 1, 1],
                block: [1, 1, 1],
                dynamic_shared: 0,
            };
            dev.launch(
                "txq_width",
                "txq_width",
                dims,
                &[KernelArg::U64(t), KernelArg::U64(out)],
                LaunchOptions::default(),
                &mut NoObserver,
                &mut |_, _| {},
            )
            .unwrap();
            let mut b = [0u8; 4];
            dev.memcpy_dtoh(&mut b, out).unwrap();
            assert_eq!(
                u32::from_le_bytes(b),
                want,
                "txq.width of a {extent:?} array"
            );
            compared += 1;
        }
    }
    assert_eq!(compared, 5, "the record holds five geometries");
}
