//! The texture pipe's L1-side counters of 3D fetches against the H200: tests/hw/texture_mem/
//! tex3_probe.cu's 252 launches (single-warp point and trilinear fetches of chosen footprints,
//! whole grids of five formats and three array sizes, pairs of scattered `tex1Dfetch`es).
//!
//! Hardware data: tests/hw/h200/texture_mem/run4/ (`ncu/tex3_probe.csv.zst`, Nsight Compute
//! `--clock-control none --cache-control all`; launches and their coordinates in `launches.txt`,
//! arrays in `arrays.txt`; command, date and versions in its `versions.txt` and
//! tests/hw/README.md). The simulator runs the PTX the H200's nvcc made of the same source in the
//! same call (run4/tex3_probe.ptx), with the arrays, textures and coordinates set up here as the
//! probe's `main` sets them up.
//!
//! Compared: requests, sectors, tag lookups and wavefronts of every texture launch, and L1 hits,
//! within tests/cache_hw.rs's L1 tolerance (1% + 8); L1 tag-set conflicts
//! (`l1tex__t_set_conflicts_pipe_tex_mem_texture`) exactly, whole grids too. L2 and DRAM counters are recorded but not
//! compared here (tests/texture_mem_hw.rs's MERGED cause: concurrent misses need timing). Every
//! (launch, metric) outside is in `EXCLUSIONS` with its measured cause and must stay outside.

use std::collections::BTreeMap;

use gpumemsim::exec::simt::LaunchDims;
use gpumemsim::gpu::config::H200;
use gpumemsim::mem::cache::Hierarchy;
use gpumemsim::report::compare::parse_ncu_csv;
use gpumemsim::report::profile::Profile;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions};
use gpumemsim::sched::Replay;
use gpumemsim::tex::array::CudaArray;
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ChannelType, ReadMode};

const DIR: &str = "tests/hw/h200/texture_mem/run4";

fn root(p: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

const REQ: &str = "l1tex__t_requests_pipe_tex_mem_texture.sum";
const SECTORS: &str = "l1tex__t_sectors_pipe_tex_mem_texture.sum";
const L1_HIT: &str = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum";
const TAGS: &str = "l1tex__t_set_accesses_pipe_tex_mem_texture.sum";
const CONFLICTS: &str = "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum";
const WAVES: &str = "l1tex__data_pipe_tex_wavefronts_mem_texture.sum";
const METRICS: &[&str] = &[REQ, SECTORS, L1_HIT, TAGS, CONFLICTS, WAVES];

const F32X4: &str = "one lane of four-channel float texels, filtered (f32x4_one_xyz, lane 0 \
    alone): its sectors, hits and tags agree with the rule that each lane of an f32x4 quad is \
    its own pass, looked up twice (8 sectors, 4 hits, 4 tags), but the H200 counts no request \
    and 4 wavefronts where the rule gives 1 request and 2 (every other f32x4 filtered launch, \
    quads and whole grids, agrees exactly on all five values); cause not found";
const SCATTERED: &str = "scattered texels: the data stage serves far-apart tag blocks in one \
    wavefront by a rule not found (as tests/texture_mem_hw.rs's SCATTERED): random point fetches \
    take 2.29 wavefronts per 4-lane request where the z-parity rule gives 2.75, 8 random 64-byte \
    units within 64 KiB 6 or 7 where the rule gives 8; yet no pair of units shares one (60 pairs \
    at m x 2^j bytes, m = 3, 5, 7, 9, and 24 random pairs within 64 KiB all take 2)";
const ORDER: &str = "L1 hits of random fetches over the whole grid depend on which blocks share \
    an SM and in which order they run: the model replays the H200's placement of 256 blocks \
    (run3/smid.txt, first run) in grid order, 2% to 4% off";
const BOX: &str = "the box rule (lanes whose footprints fit in 2 sector columns of 16 bytes, 2 \
    row blocks and 3 slices share wavefronts, 4 tag blocks each, at most one per L1 tag set): \
    f32x2 quads down a column take 48,128 wavefronts (32,768 passes + 3,600 set conflicts + \
    15,360) against the model's 36,368, where f32, u8 and u16 columns agree";

const FOOTPRINT: &str = "random trilinear footprints: the model's tag lookups on this launch \
    are not the H200's (f32_32x16x4_linear_random 145,577 against 144,793, the other five 0.01% \
    to 0.04% above), so the set conflicts counted over them cannot agree (22,909 against \
    22,308; the others within 0.4%); where the tags agree (f32x4_64_linear_random and every \
    random point grid) the conflicts are exact. The test checks that the tags still differ";
const LANE_PAIR: &str = "lanes 0 and 2 of a trilinear quad alone (mask_ABCD_5): the H200 \
    counts 1 set conflict where passes of lanes 0-1 and 2-3 give 0 (each pass one lane, its two \
    slices in different sets); lanes 0 and 3 (mask_ABCD_9) and lanes 1 and 2 (mask_ABCD_6), at \
    32-byte columns of the same x parity, count 0, so neither fixed passes nor passes of the \
    active lanes explain it; its sectors, tags and wavefronts agree; cause not found";

/// (launch, metrics, cause).
const EXCLUSIONS: &[(&str, &[&str], &str)] = &[
    ("f32_100x60x24_linear_random", &[CONFLICTS], FOOTPRINT),
    ("f32_32x16x4_linear_random", &[CONFLICTS], FOOTPRINT),
    ("f32_64_linear_random", &[CONFLICTS], FOOTPRINT),
    ("f32x2_64_linear_random", &[CONFLICTS], FOOTPRINT),
    ("mask_ABCD_5", &[CONFLICTS], LANE_PAIR),
    ("u16_64_linear_random", &[CONFLICTS], FOOTPRINT),
    ("u8_64_linear_random", &[CONFLICTS], FOOTPRINT),
    ("f32_100x60x24_linear_random", &[L1_HIT], ORDER),
    ("f32_100x60x24_linear_random", &[WAVES], SCATTERED),
    ("f32_100x60x24_point_random", &[WAVES], SCATTERED),
    ("f32_32x16x4_linear_random", &[WAVES], SCATTERED),
    ("f32_32x16x4_point_random", &[WAVES], SCATTERED),
    ("f32_64_linear_random", &[L1_HIT], ORDER),
    ("f32_64_point_random", &[WAVES], SCATTERED),
    ("f32x2_64_linear_coly", &[WAVES], BOX),
    ("f32x2_64_linear_random", &[L1_HIT], ORDER),
    ("f32x2_64_linear_random", &[WAVES], SCATTERED),
    ("f32x2_64_point_random", &[WAVES], SCATTERED),
    ("f32x4_64_point_random", &[WAVES], SCATTERED),
    ("f32x4_one_xyz", &[REQ, WAVES], F32X4),
    ("rand8_64k_0", &[WAVES], SCATTERED),
    ("rand8_64k_1", &[WAVES], SCATTERED),
    ("rand8_64k_2", &[WAVES], SCATTERED),
    ("rand8_64k_3", &[WAVES], SCATTERED),
    ("rand8_64k_4", &[WAVES], SCATTERED),
    ("rand8_64k_5", &[WAVES], SCATTERED),
    ("rand8_64k_6", &[WAVES], SCATTERED),
    ("rand8_64k_7", &[WAVES], SCATTERED),
    ("u16_64_linear_random", &[WAVES], SCATTERED),
    ("u16_64_point_random", &[WAVES], SCATTERED),
    ("u8_64_linear_random", &[WAVES], SCATTERED),
    ("u8_64_point_random", &[WAVES], SCATTERED),
];

fn excluded(name: &str, metric: &str) -> Option<&'static str> {
    EXCLUSIONS
        .iter()
        .find(|(n, ms, _)| *n == name && ms.contains(&metric))
        .map(|e| e.2)
}

/// The H200's SM of each of 256 blocks (run3/smid.txt, first run; see tests/texture_mem_hw.rs).
fn placement() -> Vec<usize> {
    let text =
        std::fs::read_to_string(root("tests/hw/h200/texture_mem/run3/smid.txt")).expect("smid.txt");
    let map: Vec<usize> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.first() == Some(&"g256x256") && f.get(1) == Some(&"0"))
        .map(|f| f[3].parse().expect("an SM"))
        .collect();
    assert_eq!(map.len(), 256);
    map
}

struct Launch {
    name: String,
    kernel: String,
    array: String,
    linear: bool,
    /// tex3d_at: mask and 96 coordinates; tex3d_grid: pattern and 3 offsets; fetch_at: indices.
    nums: Vec<f64>,
}

fn launches() -> Vec<Launch> {
    std::fs::read_to_string(root(&format!("{DIR}/launches.txt")))
        .expect("launches.txt")
        .lines()
        .map(|l| {
            let f: Vec<&str> = l.split_whitespace().collect();
            match f[1] {
                "fetch_at" => Launch {
                    name: f[2].into(),
                    kernel: f[1].into(),
                    array: String::new(),
                    linear: false,
                    nums: f[4..].iter().map(|v| v.parse().expect("index")).collect(),
                },
                k => Launch {
                    name: f[2].into(),
                    kernel: k.into(),
                    array: f[3].into(),
                    linear: f[4] == "linear",
                    nums: f[5..]
                        .iter()
                        .enumerate()
                        .map(|(i, v)| {
                            if k == "tex3d_at" && i == 0 {
                                f64::from(u32::from_str_radix(v, 16).expect("a hex mask"))
                            } else {
                                v.parse().expect("a number")
                            }
                        })
                        .collect(),
                },
            }
        })
        .collect()
}

fn recording() -> BTreeMap<String, BTreeMap<String, f64>> {
    let z = std::fs::read(root(&format!("{DIR}/ncu/tex3_probe.csv.zst"))).expect("recording");
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).expect("zstd frame");
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut out).expect("zstd data");
    let text = String::from_utf8(out).expect("UTF-8 CSV");
    let rows = parse_ncu_csv(&text).expect("CSV parses");
    let names: Vec<String> = launches().into_iter().map(|l| l.name).collect();
    rows.into_iter()
        .map(|r| (names[r.id as usize].clone(), r.metrics))
        .collect()
}

fn format_of(kind: &str) -> ChannelFormat {
    let (ty, channels) = match kind {
        "u8" => (ChannelType::U8, 1),
        "u16" => (ChannelType::U16, 1),
        "f32x2" => (ChannelType::F32, 2),
        "f32x4" => (ChannelType::F32, 4),
        _ => (ChannelType::F32, 1),
    };
    ChannelFormat { ty, channels }
}

fn simulate() -> BTreeMap<String, BTreeMap<String, f64>> {
    let ptx = std::fs::read_to_string(root(&format!("{DIR}/tex3_probe.ptx"))).expect("PTX");
    let mut dev = Device::new(&H200);
    dev.load_ptx(&ptx, "tex3_probe.ptx").expect("PTX loads");
    let d_out = dev.malloc(4 << 20, "d_out");
    let d_c = dev.malloc(96 * 4, "d_c");
    let d_idx = dev.malloc(4096, "d_idx");
    // The arrays (arrays.txt: name kind W H D), each with a point and a linear texture.
    let mut tex: BTreeMap<String, (u64, u64, ChannelFormat, [u32; 3])> = BTreeMap::new();
    for line in std::fs::read_to_string(root(&format!("{DIR}/arrays.txt")))
        .expect("arrays.txt")
        .lines()
    {
        let f: Vec<&str> = line.split_whitespace().collect();
        let fm = format_of(f[1]);
        let dims: Vec<u32> = f[2..5].iter().map(|v| v.parse().expect("size")).collect();
        let bytes = (dims[0] * dims[1] * dims[2]) as usize * fm.texel_bytes() as usize;
        let mut data: Vec<u8> = (0..bytes).map(|i| (i * 7 + (i >> 8)) as u8).collect();
        if fm.texel_bytes() >= 4 {
            for (i, c) in data.chunks_mut(4).enumerate() {
                c.copy_from_slice(&((i % 4099) as f32).to_le_bytes());
            }
        }
        let id = dev.textures.insert_array(CudaArray {
            name: f[0].into(),
            format: fm,
            width: dims[0],
            height: dims[1],
            depth: dims[2],
            surface: false,
            data,
        });
        let integer = matches!(fm.ty, ChannelType::U8 | ChannelType::U16);
        let mut mk = |filter| {
            let desc = TextureDesc {
                address: [AddressMode::Clamp; 3],
                filter,
                read: if integer {
                    ReadMode::NormalizedFloat
                } else {
                    ReadMode::ElementType
                },
                normalized: false,
                border: [0.0; 4],
            };
            dev.textures
                .create_texture_object(Resource::Array(id), desc)
                .expect("texture object")
        };
        let p = mk(FilterMode::Point);
        let l = mk(FilterMode::Linear);
        tex.insert(f[0].into(), (p, l, fm, [dims[0], dims[1], dims[2]]));
    }
    // The linear memory of tex1Dfetch: 16 MiB of floats.
    let nl: u64 = 4 << 20;
    let lin = dev.malloc(nl * 4, "lin");
    let data: Vec<u8> = (0..nl)
        .flat_map(|i| ((i % 4099) as f32).to_le_bytes())
        .collect();
    dev.memcpy_htod(lin, &data).expect("copy");
    let desc = TextureDesc {
        address: [AddressMode::Clamp; 3],
        filter: FilterMode::Point,
        read: ReadMode::ElementType,
        normalized: false,
        border: [0.0; 4],
    };
    let tf = dev
        .textures
        .create_texture_object(
            Resource::Linear {
                addr: lin,
                format: format_of("f32"),
                size_bytes: nl * 4,
            },
            desc,
        )
        .expect("texture object");
    let place = placement();
    let mut out = BTreeMap::new();
    for l in launches() {
        let o = KernelArg::U64(d_out);
        let suffix = |fm: ChannelFormat| match fm.channels {
            2 => "I6float2E",
            4 => "I6float4E",
            _ => "IfE",
        };
        let (kernel, grid, args) = match l.kernel.as_str() {
            "fetch_at" => {
                let idx: Vec<u8> = l
                    .nums
                    .iter()
                    .flat_map(|v| (*v as i32).to_le_bytes())
                    .collect();
                dev.memcpy_htod(d_idx, &idx).expect("copy");
                let n = l.nums.len() as u32;
                (
                    "_Z8fetch_atyPfPKii".to_string(),
                    1,
                    vec![
                        KernelArg::U64(tf),
                        o,
                        KernelArg::U64(d_idx),
                        KernelArg::U32(n),
                    ],
                )
            }
            "tex3d_at" => {
                let (p, lt, fm, _) = tex[&l.array];
                let c: Vec<u8> = l.nums[1..]
                    .iter()
                    .flat_map(|v| (*v as f32).to_le_bytes())
                    .collect();
                dev.memcpy_htod(d_c, &c).expect("copy");
                (
                    format!("_Z8tex3d_at{}vyPfPKfj", suffix(fm)),
                    1,
                    vec![
                        KernelArg::U64(if l.linear { lt } else { p }),
                        o,
                        KernelArg::U64(d_c),
                        KernelArg::U32(l.nums[0] as u32),
                    ],
                )
            }
            _ => {
                let (p, lt, fm, d) = tex[&l.array];
                let f = |i: usize| KernelArg::F32(l.nums[i] as f32);
                (
                    format!("_Z10tex3d_grid{}vyPfiiiifff", suffix(fm)),
                    256,
                    vec![
                        KernelArg::U64(if l.linear { lt } else { p }),
                        o,
                        KernelArg::U32(d[0]),
                        KernelArg::U32(d[1]),
                        KernelArg::U32(d[2]),
                        KernelArg::U32(l.nums[0] as u32),
                        f(1),
                        f(2),
                        f(3),
                    ],
                )
            }
        };
        let block = if grid == 1 { 32 } else { 256 };
        let code = dev
            .kernel_for_launch(&kernel)
            .map(|k| k.code.len())
            .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        let l1 = u64::from(H200.l1_shared_bytes_per_sm) - 8192;
        let h = Hierarchy::new(132, l1, u64::from(H200.l2_bytes), code);
        let mut prof = Profile::new(&H200, code);
        let warps = (block / 32) as usize;
        let mut replay = Replay::new(h, 132, (2048 / block).min(32) as usize, warps);
        if grid == 256 {
            replay = replay.with_placement(place.clone());
        }
        prof.caches = Some(replay);
        let dims = LaunchDims {
            grid: [grid, 1, 1],
            block: [block, 1, 1],
            dynamic_shared: 0,
        };
        dev.launch(
            &kernel,
            &l.name,
            dims,
            &args,
            LaunchOptions::default(),
            &mut prof,
            &mut |_, _| {},
        )
        .unwrap_or_else(|e| panic!("{}: {e}", l.name));
        let mut m: BTreeMap<String, f64> = prof
            .totals()
            .metrics()
            .into_iter()
            .map(|(k, v)| (k.to_string(), v as f64))
            .collect();
        if let Some(h) = prof.finish_caches() {
            m.extend(
                h.totals()
                    .metrics()
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v)),
            );
        }
        out.insert(l.name, m);
    }
    out
}

#[test]
fn texture_3d_counters_match_the_h200() {
    let hw = recording();
    let sim = simulate();
    let grids: Vec<String> = launches()
        .into_iter()
        .filter(|l| l.kernel == "tex3d_grid")
        .map(|l| l.name)
        .collect();
    let (mut n, mut ok, mut excl) = (0, 0, 0);
    let mut bad = Vec::new();
    for (name, m) in &sim {
        let h = &hw[name];
        for metric in METRICS {
            let Some(&want) = h.get(*metric) else {
                continue;
            };
            let got = m.get(*metric).copied().unwrap_or(0.0);
            // One warp's counts are small: those must be exact.
            // Set conflicts are exact everywhere.
            let one_warp = !grids.contains(name);
            let slack = if one_warp || *metric == CONFLICTS {
                0.0
            } else {
                0.01 * want + 8.0
            };
            let within = (got - want).abs() <= slack;
            n += 1;
            match (within, excluded(name, metric)) {
                (true, None) => ok += 1,
                (false, Some(_)) => {
                    excl += 1;
                    println!("excluded: {name} {metric}: sim {got}, H200 {want}");
                }
                (true, Some(cause)) => bad.push(format!(
                    "{name} {metric}: now within (sim {got}, H200 {want}); remove its exclusion \
                     ({cause})"
                )),
                (false, None) => bad.push(format!("{name} {metric}: sim {got}, H200 {want}")),
            }
        }
    }
    for (name, metrics, cause) in EXCLUSIONS {
        assert!(
            sim.contains_key(*name),
            "exclusion for unknown launch {name}"
        );
        // FOOTPRINT's cause: the tag lookups the conflicts are counted over still differ.
        if *cause == FOOTPRINT {
            assert_eq!(metrics, &[CONFLICTS]);
            let (got, want) = (sim[*name].get(TAGS), hw[*name].get(TAGS));
            assert!(
                got.is_some() && want.is_some() && got != want,
                "{name}: tags now agree ({got:?}); FOOTPRINT no longer explains its conflicts"
            );
        }
    }
    println!("{ok} of {n} values within tolerance, {excl} excluded with their cause");
    assert!(bad.is_empty(), "{} values:\n{}", bad.len(), bad.join("\n"));
    assert_eq!(n, 252 * 6, "values compared");
}
