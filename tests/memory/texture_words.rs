//! Texture and surface fetches against the H200, word for word.
//!
//! `tests/hw/h200/texture/sweep.bin.zst` holds what the H200 returned for every case of
//! `tests/hw/texture/sweep.cu` (format in tests/hw/texture/README.md): per case a texture or
//! surface configuration, its texels, the coordinate records and the result words. This test
//! builds the same CUDA array (or linear / pitch memory), the same texture or surface object
//! through the library API, runs the same kernel of `tests/hw/texture/sweep_kernels.ptx` in
//! gpumemsim on the same coordinates and compares every word.

use crate::texture_sweep::{describe, read_cases, root, simulate, Case, FILT, OUTW};
use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ReadMode, ALL_CHANNEL_TYPES};

fn filtered(c: &Case) -> bool {
    c.f[FILT] == 1 && c.kernel.starts_with("tex") && !c.kernel.starts_with("tex1dfetch")
}

/// The recorded sweeps' comparison: every result word of every case and every array after the
/// stores equal to the H200's, except in the cases `known` names (by [`describe`]), which must
/// differ in exactly the number of words given (so that the test fails once they are mended).
/// Returns (cases, words compared, filtered words among them).
fn compare(paths: &[&str], known: &[(&str, usize)]) -> (usize, usize, usize) {
    let ptx = std::fs::read_to_string(root("tests/hw/texture/sweep_kernels.ptx")).unwrap();
    let cases: Vec<Case> = paths.iter().flat_map(|p| read_cases(p)).collect();
    let verbose = std::env::var("GMS_TEX_VERBOSE").is_ok();
    let mut failed = Vec::new();
    let (mut words, mut filtered_words, mut txq) = (0usize, 0usize, 0usize);
    let mut occurrences = std::collections::HashMap::new();
    for c in &cases {
        if c.kernel == "txq_all" {
            // This kernel never ran on the H200 (its non-dimension queries read a texture-reference
            // table; README, "txq"): its zeros are not results. txq.width is compared below.
            txq += 1;
            continue;
        }
        match simulate(c, &ptx, None) {
            Err(e) => failed.push(format!("{}: {e}", describe(c))),
            Ok((got, after)) => {
                let ow = c.f[OUTW].max(1) as usize;
                let bad: Vec<usize> = (0..got.len().max(c.out.len()))
                    .filter(|&i| got.get(i) != c.out.get(i))
                    .collect();
                words += c.out.len() + c.after.len() / 4;
                if filtered(c) {
                    filtered_words += c.out.len();
                }
                // A case is named by its description, or, where one recording holds several
                // cases of one description with different counts, by "description #k" (the
                // k-th such case, from 0).
                let name = describe(c);
                let seen = occurrences.entry(name.clone()).or_insert(0usize);
                let nth = format!("{name} #{seen}");
                *seen += 1;
                let expected = known
                    .iter()
                    .find(|k| k.0 == name || k.0 == nth)
                    .map_or(0, |k| k.1);
                if bad.len() != expected {
                    let mut msg = format!(
                        "{}: {} of {} words differ ({expected} known)",
                        describe(c),
                        bad.len(),
                        c.out.len()
                    );
                    for &i in bad.iter().take(if verbose { 40 } else { 3 }) {
                        let r = i / ow;
                        let cw = &c.coords[4 * r..4 * r + 4];
                        let (h, g) = (c.out.get(i).copied(), got.get(i).copied());
                        let f = |w: Option<u32>| {
                            w.map(|w| format!("{w:08x} ({:e})", f32::from_bits(w)))
                        };
                        msg += &format!(
                            "\n  record {r} word {} coords ({:e}, {:e}, {:e}, {:e}) [{:08x} {:08x} {:08x}]: h200 {:?} gpumemsim {:?}",
                            i % ow,
                            f32::from_bits(cw[0]),
                            f32::from_bits(cw[1]),
                            f32::from_bits(cw[2]),
                            f32::from_bits(cw[3]),
                            cw[0], cw[1], cw[2],
                            f(h),
                            f(g),
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
        "texture sweeps {paths:?}: {} cases ({txq} txq cases not compared); {words} words equal to the H200's \
         ({filtered_words} of them linearly filtered)",
        cases.len()
    );
    assert!(
        failed.is_empty(),
        "{} of {} cases differ from the H200 ({words} words compared):\n{}",
        failed.len(),
        cases.len(),
        failed.join("\n")
    );
    (cases.len(), words, filtered_words)
}

/// The first sweeps (runs 1 and 2): every fetch of every kind, mode and channel type, every
/// surface case; all equal, filtered words (1D, 2D, 3D, pitch-2D, signed 8-bit and trilinear
/// float included) too.
#[test]
fn sweeps_equal_the_h200() {
    let (cases, words, filtered) = compare(
        &[
            "tests/hw/h200/texture/sweep.bin.zst",
            "tests/hw/h200/texture/sweep_surf.bin.zst",
        ],
        &[],
    );
    assert!(cases > 400, "only {cases} cases");
    // 243,648 1D and 2D filtered words and 57,852 signed 8-bit or trilinear ones.
    assert!(
        filtered >= 243_648 + 57_852,
        "only {filtered} filtered words compared"
    );
    assert!(words > 2_000_000, "only {words} words compared");
}

/// The targeted sweeps (run 4, tests/hw/texture/README.md): signed 8-bit normalized filtering
/// at every weight sum of two neighbours (2D, 1D with clamp and with border) and over four
/// random taps, the trilinear weights of each corner, and 3D filtering of random texels of
/// every filtered channel type; all equal, the 16,384 random f32 and f16 trilinear records
/// included.
#[test]
fn targeted_sweeps_equal_the_h200() {
    let (cases, words, filtered) = compare(&["tests/hw/h200/texture/sweep_targeted.bin.zst"], &[]);
    assert_eq!(cases, 12);
    assert_eq!(filtered, words);
    assert!(words >= 4 * 655_360, "only {words} words compared");
}

/// Run 5 (tests/hw/texture/run5.sh, `./sweep OUT.bin trilinear`): trilinear float sums. Two
/// properties of the H200's data, then gpumemsim against it word for word:
/// - a trilinear result depends on the point's texels and weights only: every point of the
///   run-4 random f32 and f16 cubes, fetched again in another lane, warp and block (records
///   reversed, rotated by one, rotated by 4,096), returns the same word as in run 4 (and the
///   whole run, made twice, gave the same bytes: versions_run5.txt);
/// - gpumemsim's words are all equal to the H200's (before the slice sums' alignment of
///   src/tex/sample.rs's `trilinear_sum` was found: 5 and 15 of each cube fetch's 32,768, 11
///   and 155 of the two 2 x 2 x 64 arrays' 32,768).
#[test]
fn trilinear_sweeps_equal_the_h200() {
    let path = "tests/hw/h200/texture/sweep_trilinear.bin.zst";
    let cases = read_cases(path);
    assert_eq!(cases.len(), 10);
    let run4 = read_cases("tests/hw/h200/texture/sweep_targeted.bin.zst");
    for (first, ty) in [(0usize, "f32"), (4, "f16")] {
        let orig = &cases[first];
        let before = run4
            .iter()
            .find(|c| describe(c) == describe(orig))
            .unwrap_or_else(|| panic!("run 4 has the {ty} cube"));
        assert_eq!((&orig.data, &orig.coords), (&before.data, &before.coords));
        assert_eq!(
            orig.out, before.out,
            "the {ty} cube's words changed since run 4"
        );
        let n = orig.out.len() / 4;
        for (v, rep) in cases[first + 1..first + 4].iter().enumerate() {
            let moved = |i: usize| match v {
                0 => n - 1 - i,
                1 => (i + 1) % n,
                _ => (i + 4096) % n,
            };
            let same = (0..n)
                .filter(|&i| rep.out[4 * moved(i)..4 * moved(i) + 4] == orig.out[4 * i..4 * i + 4])
                .count();
            assert_eq!(
                same, n,
                "{ty} replica {v}: a point's result moved with its lane"
            );
        }
    }
    let (cases, words, filtered) = compare(&[path], &[]);
    assert_eq!(cases, 10);
    assert_eq!(filtered, words);
    assert!(
        words >= 8 * 8192 * 4 + 2 * 8192 * 4,
        "only {words} words compared"
    );
}

/// Run 6 (tests/hw/texture/run6.sh, `./sweep OUT.bin triprobe`): the slice alignment of
/// trilinear float sums. Two 2 x 2 x 64 f32 4-channel arrays read in row 0 at x = 1 between two
/// slices at an even z weight: every other slice holds +G and -G (first array: its sum is exactly
/// 0 at G's block exponent) or +G and a value a few f32 steps below -G (second array: a small
/// residual), the others one value B, so that each word shows how the texture unit aligns the
/// one slice's sum to the other's accumulator. All 65,536 words equal to the H200's (adding the
/// two slice sums exactly, the rule before this run, leaves 14,242 and 11,117 off).
#[test]
fn trilinear_alignment_probes_equal_the_h200() {
    let path = "tests/hw/h200/texture/sweep_triprobe.bin.zst";
    let (cases, words, filtered) = compare(&[path], &[]);
    assert_eq!(cases, 2);
    assert_eq!(filtered, words);
    assert_eq!(words, 2 * 8192 * 4, "only {words} words compared");
}

/// The H200's output of the seed's rotation example (tests/hw/h200/texture/rotate_out.bin.zst;
/// SHA-256 in rotate.sha256, the same from the seed's own nvcc-built program, from
/// tests/hw/texture/rotate_host.cu running examples/rotate.ptx, and from the program
/// `gpumemsim export-cuda examples/rotate.toml` writes), checked against its recorded hash.
fn rotation_on_the_h200() -> Vec<u32> {
    let z = std::fs::read(root("tests/hw/h200/texture/rotate_out.bin.zst")).unwrap();
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).unwrap();
    let mut want = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut want).unwrap();
    let sha = std::fs::read_to_string(root("tests/hw/h200/texture/rotate.sha256")).unwrap();
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
    let mut spec = gpumemsim::spec::Spec::load(root("examples/rotate.toml")).unwrap();
    if let Some(p) = ptx {
        spec.source = None;
        spec.ptx = Some(root(p));
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
    let sha = std::fs::read_to_string(root("tests/hw/h200/texture/rotate.sha256")).unwrap();
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
    let rec = std::fs::read_to_string(root("tests/hw/h200/texture/txq_run3.txt")).unwrap();
    let ptx_path = root("tests/hw/texture/txq_width.ptx");
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
