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

/// How a case is compared: exactly, or (linear filtering, not yet bit-exact: see
/// tests/hw/texture/README.md) by how many words differ and how far.
fn linear(c: &Case) -> bool {
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
    let (mut exact_words, mut linear_words, mut linear_off) = (0usize, 0usize, 0usize);
    let mut txq = 0;
    let mut worst = (0f64, String::new());
    for c in &cases {
        if c.kernel == "txq_all" {
            // The H200 returned 0 for every query (README: unresolved), so txq is not compared.
            txq += 1;
            continue;
        }
        match simulate(c) {
            Err(e) => failed.push(format!("{}: {e}", describe(c))),
            Ok((got, after)) => {
                let ow = c.f[OUTW].max(1) as usize;
                let lin = linear(c);
                let mut bad = Vec::new();
                for (i, (&g, &h)) in got.iter().zip(&c.out).enumerate() {
                    if g == h {
                        continue;
                    }
                    if lin {
                        // Not yet bit-exact (README): measure how far off, relative to the
                        // spread of the texel values the case reads.
                        linear_off += 1;
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
                    linear_words += c.out.len();
                } else {
                    exact_words += c.out.len() + c.after.len() / 4;
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
        "texture sweeps: {} cases ({txq} txq cases not compared); {exact_words} words equal to the H200's; \
         {linear_words} linearly filtered words, {linear_off} of them different",
        cases.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} cases differ from the H200 ({exact_words} exact and {linear_words} filtered words compared):\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    eprintln!(
        "worst filtered word: {:.3e} of the texel spread ({})",
        worst.0, worst.1
    );
    // Filtering is not yet bit-exact: 95.4% of the filtered words are (measured), and the
    // others stay within 1/256 of the spread of the texels (one step of the 8-bit weights).
    // These bounds guard what is reached; the README lists what is still off.
    assert!(
        linear_off * 20 <= linear_words,
        "{linear_off} of {linear_words} filtered words differ from the H200's"
    );
    assert!(
        worst.0 <= 1.0 / 256.0,
        "a filtered word is {:.3e} of the texel spread off ({})",
        worst.0,
        worst.1
    );
}

/// The seed's rotation example (examples/rotate.toml) against the H200's output
/// (tests/hw/h200/texture/rotate_out.bin.zst; SHA-256 in rotate.sha256, the same from the seed's
/// own nvcc-built program, from tests/hw/texture/rotate_host.cu running examples/rotate.ptx,
/// and from the program `gpumemsim export-cuda examples/rotate.toml` writes).
#[test]
fn rotation_example_against_the_h200() {
    let spec = gpumemsim::spec::Spec::load(root().join("examples/rotate.toml")).unwrap();
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
    let z = std::fs::read(root().join("tests/hw/h200/texture/rotate_out.bin.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).unwrap();
    let mut want = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut want).unwrap();
    let sha = std::fs::read_to_string(root().join("tests/hw/h200/texture/rotate.sha256")).unwrap();
    use sha2::Digest;
    let hex: String = sha2::Sha256::digest(&want)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect();
    assert!(
        sha.contains(&hex),
        "the committed H200 output is not the recorded one"
    );
    assert_eq!(got.len(), want.len());
    let words = |b: &[u8]| -> Vec<u32> {
        b.chunks_exact(4)
            .map(|c| u32::from_le_bytes(c.try_into().unwrap()))
            .collect()
    };
    let (g, w) = (words(got), words(&want));
    let differ: Vec<usize> = (0..g.len()).filter(|&i| g[i] != w[i]).collect();
    let worst = differ
        .iter()
        .map(|&i| (f64::from(f32::from_bits(g[i])) - f64::from(f32::from_bits(w[i]))).abs())
        .fold(0f64, f64::max);
    eprintln!(
        "rotation: {} of {} pixels differ from the H200's, by at most {worst} (texel values 0 to 1048575)",
        differ.len(),
        g.len()
    );
    // Not yet bit for bit (README: 245 pixels of 1,048,576, where the H200 rounds a weight at
    // an exact half down); guard what is reached: at most 250 pixels, none by more than one
    // step of the 8-bit weights (1024 / 256 = 4 texel values).
    assert!(differ.len() <= 250, "{} pixels differ", differ.len());
    assert!(worst <= 4.0, "a pixel is {worst} off");
}
