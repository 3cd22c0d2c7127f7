//! The recorded runs of tests/hw/texture_mem/tex3_probe.cu (run4), tex6_probe.cu (run6) and
//! tex9_probe.cu (run9), which share their kernels, `launches.txt` and `arrays.txt` formats:
//! reading a run's launches and its Nsight Compute recording, running every launch in gpumemsim
//! with the arrays, textures and coordinates the probe's `main` sets up, and comparing the
//! texture pipe's L1-side counters (and, where the run saved them, the output words of its
//! single-warp launches). Shared by tests/memory/texture_3d.rs (run4), tests/memory/texture_3d_filtered.rs
//! (run6) and tests/memory/texture_partial.rs (run9); included with `#[path]` so that no other test
//! binary compiles it.
//!
//! Formats (the probes' header comments): `launches.txt` lines are "no tex3d_at NAME ARRAY
//! FILTER MASK c0 ... c95" (run9's "no tex2d_at ..." likewise, lane l at c[3l], c[3l+1]), "no
//! tex3d_grid NAME ARRAY FILTER PATTERN ox oy oz" or "no fetch_at NAME N idx...", in launch order
//! (Nsight Compute's ids); `arrays.txt` lines "name kind W H D" (D = 1: a 2D array); run9's
//! `outputs.txt` lines "no w0 ... w31", the 32 output words (hex) of each single-warp launch.

#[path = "linear_fetch.rs"]
pub mod linear_fetch;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

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
use linear_fetch::fetch_texture;

pub const REQ: &str = "l1tex__t_requests_pipe_tex_mem_texture.sum";
pub const SECTORS: &str = "l1tex__t_sectors_pipe_tex_mem_texture.sum";
pub const L1_HIT: &str = "l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum";
pub const TAGS: &str = "l1tex__t_set_accesses_pipe_tex_mem_texture.sum";
pub const CONFLICTS: &str = "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum";
pub const WAVES: &str = "l1tex__data_pipe_tex_wavefronts_mem_texture.sum";
/// The counters compared.
pub const METRICS: &[&str] = &[REQ, SECTORS, L1_HIT, TAGS, CONFLICTS, WAVES];

/// (launch, metrics, measured cause) of a value known to lie outside the tolerance.
pub type Exclusion = (&'static str, &'static [&'static str], &'static str);

/// A path under the crate root.
pub fn root(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

fn read(dir: &str, file: &str) -> String {
    let p = root(&format!("{dir}/{file}"));
    std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()))
}

/// The H200's SM of each of 256 blocks (run3/smid.txt, first run; see tests/memory/texture_counters.rs).
pub fn placement() -> Vec<usize> {
    let text = read("tests/hw/h200/texture_mem/run3", "smid.txt");
    let map: Vec<usize> = text
        .lines()
        .map(|l| l.split_whitespace().collect::<Vec<_>>())
        .filter(|f| f.first() == Some(&"g256x256") && f.get(1) == Some(&"0"))
        .map(|f| f[3].parse().expect("an SM"))
        .collect();
    assert_eq!(map.len(), 256);
    map
}

pub struct Launch {
    pub name: String,
    pub kernel: String,
    pub array: String,
    pub linear: bool,
    /// tex3d_at, tex2d_at: mask and 96 coordinates; tex3d_grid: pattern and 3 offsets;
    /// fetch_at: indices.
    pub nums: Vec<f64>,
}

impl Launch {
    /// One warp (`tex3d_at`, `tex2d_at`, `fetch_at`), not a whole grid (`tex3d_grid`).
    pub fn single_warp(&self) -> bool {
        self.kernel != "tex3d_grid"
    }
}

/// `dir/launches.txt`, in launch order; names are unique.
pub fn launches(dir: &str) -> Vec<Launch> {
    let out: Vec<Launch> = read(dir, "launches.txt")
        .lines()
        .enumerate()
        .map(|(no, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert!(
                f.len() >= 4,
                "{dir}/launches.txt:{}: too few fields",
                no + 1
            );
            assert_eq!(f[0], no.to_string(), "{dir}/launches.txt:{}: id", no + 1);
            let num = |v: &str| -> f64 {
                v.parse()
                    .unwrap_or_else(|e| panic!("{dir}/launches.txt:{}: {v}: {e}", no + 1))
            };
            match f[1] {
                "fetch_at" => Launch {
                    name: f[2].into(),
                    kernel: f[1].into(),
                    array: String::new(),
                    linear: false,
                    nums: f[4..].iter().map(|v| num(v)).collect(),
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
                            if k != "tex3d_grid" && i == 0 {
                                f64::from(u32::from_str_radix(v, 16).unwrap_or_else(|e| {
                                    panic!("{dir}/launches.txt:{}: mask {v}: {e}", no + 1)
                                }))
                            } else {
                                num(v)
                            }
                        })
                        .collect(),
                },
            }
        })
        .collect();
    let mut names: Vec<&str> = out.iter().map(|l| l.name.as_str()).collect();
    names.sort_unstable();
    let n = names.len();
    names.dedup();
    assert_eq!(names.len(), n, "{dir}/launches.txt: duplicate launch names");
    out
}

/// The H200's counters of each launch, by name: `dir/ncu/csv` (zstd-compressed CSV).
pub fn recording(dir: &str, csv: &str) -> BTreeMap<String, BTreeMap<String, f64>> {
    let p = root(&format!("{dir}/ncu/{csv}"));
    let z = std::fs::read(&p).unwrap_or_else(|e| panic!("{}: {e}", p.display()));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).expect("zstd frame");
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut out).expect("zstd data");
    let text = String::from_utf8(out).expect("UTF-8 CSV");
    let rows = parse_ncu_csv(&text).expect("CSV parses");
    let names: Vec<String> = launches(dir).into_iter().map(|l| l.name).collect();
    rows.into_iter()
        .map(|r| {
            let name = names
                .get(r.id as usize)
                .unwrap_or_else(|| panic!("{}: ncu id {} has no launch", p.display(), r.id));
            (name.clone(), r.metrics)
        })
        .collect()
}

/// An `arrays.txt` kind's channel format (`None`: not a kind the probes make).
fn format_of(kind: &str) -> Option<ChannelFormat> {
    let (ty, channels) = match kind {
        "u8" => (ChannelType::U8, 1),
        "u16" => (ChannelType::U16, 1),
        "u8x4" => (ChannelType::U8, 4),
        "u16x4" => (ChannelType::U16, 4),
        "f32" => (ChannelType::F32, 1),
        "f32x2" => (ChannelType::F32, 2),
        "f32x4" => (ChannelType::F32, 4),
        _ => return None,
    };
    Some(ChannelFormat { ty, channels })
}

/// What [`simulate`] returns: the counters, and the 32 output words of each single-warp launch.
pub struct Simulated {
    pub counters: Counters,
    pub words: BTreeMap<String, Vec<u32>>,
}

/// Runs every launch of `dir` (the PTX `dir/ptx`) and returns gpumemsim's counters by launch and
/// the output words of its single-warp launches.
pub fn simulate(dir: &str, ptx: &str) -> Simulated {
    let text = read(dir, ptx);
    let mut dev = Device::new(&H200);
    dev.load_ptx(&text, ptx).expect("PTX loads");
    let d_out = dev.malloc(4 << 20, "d_out");
    let d_c = dev.malloc(96 * 4, "d_c");
    let d_idx = dev.malloc(4096, "d_idx");
    // The arrays (arrays.txt: name kind W H D), each with a point and a linear texture, filled
    // as the probe's `make` fills them.
    let mut tex: BTreeMap<String, (u64, u64, ChannelFormat, [u32; 3])> = BTreeMap::new();
    for line in read(dir, "arrays.txt").lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        assert_eq!(f.len(), 5, "{dir}/arrays.txt: {line}");
        let fm = format_of(f[1]).unwrap_or_else(|| panic!("{dir}/arrays.txt: kind {}", f[1]));
        let dims: Vec<u32> = f[2..5].iter().map(|v| v.parse().expect("size")).collect();
        let bytes = (dims[0] * dims[1] * dims[2]) as usize * fm.texel_bytes() as usize;
        let mut data: Vec<u8> = (0..bytes).map(|i| (i * 7 + (i >> 8)) as u8).collect();
        let integer = matches!(fm.ty, ChannelType::U8 | ChannelType::U16);
        // Float arrays hold i % 4099 in word i (run4's probe tests texel bytes >= 4, run9's the
        // float kinds: the same arrays for run4's and run6's kinds).
        if !integer {
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
    let tf = fetch_texture(&mut dev);
    let place = placement();
    let mut out = BTreeMap::new();
    let mut words = BTreeMap::new();
    for l in launches(dir) {
        let o = KernelArg::U64(d_out);
        let suffix = |fm: ChannelFormat| match fm.channels {
            2 => "I6float2E",
            4 => "I6float4E",
            _ => "IfE",
        };
        let array = |l: &Launch| {
            tex.get(&l.array)
                .copied()
                .unwrap_or_else(|| panic!("{}: array {} not in arrays.txt", l.name, l.array))
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
            "tex3d_at" | "tex2d_at" => {
                let (p, lt, fm, _) = array(&l);
                let c: Vec<u8> = l.nums[1..]
                    .iter()
                    .flat_map(|v| (*v as f32).to_le_bytes())
                    .collect();
                dev.memcpy_htod(d_c, &c).expect("copy");
                (
                    format!("_Z8{}{}vyPfPKfj", l.kernel, suffix(fm)),
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
                let (p, lt, fm, d) = array(&l);
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
        if grid == 1 {
            dev.memset(d_out, 0, 32 * 4).expect("memset");
        }
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
            .metrics(&[
                gpumemsim::metrics::Source::Lsu,
                gpumemsim::metrics::Source::Texture,
            ])
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        if let Some(h) = prof.finish_caches() {
            m.extend(
                h.totals()
                    .metrics(&[gpumemsim::metrics::Source::Cache])
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v)),
            );
        }
        if grid == 1 {
            let mut b = vec![0u8; 32 * 4];
            dev.memcpy_dtoh(&mut b, d_out).expect("copy back");
            let w = b
                .chunks(4)
                .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
                .collect();
            words.insert(l.name.clone(), w);
        }
        out.insert(l.name, m);
    }
    Simulated {
        counters: out,
        words,
    }
}

/// `dir/outputs.txt`: the H200's 32 output words of each single-warp launch, by launch number.
pub fn outputs(dir: &str) -> BTreeMap<usize, Vec<u32>> {
    read(dir, "outputs.txt")
        .lines()
        .enumerate()
        .map(|(no, l)| {
            let f: Vec<&str> = l.split_whitespace().collect();
            assert_eq!(f.len(), 33, "{dir}/outputs.txt:{}: fields", no + 1);
            let words = f[1..]
                .iter()
                .map(|w| {
                    u32::from_str_radix(w, 16)
                        .unwrap_or_else(|e| panic!("{dir}/outputs.txt:{}: {w}: {e}", no + 1))
                })
                .collect();
            let id = f[0]
                .parse()
                .unwrap_or_else(|e| panic!("{dir}/outputs.txt:{}: {}: {e}", no + 1, f[0]));
            (id, words)
        })
        .collect()
}

/// Counters by launch name and metric.
pub type Counters = BTreeMap<String, BTreeMap<String, f64>>;

/// What [`compare_run`] compared (not every test reads the counters back).
#[allow(dead_code)]
pub struct Compared {
    /// Values compared.
    pub n: usize,
    /// The simulator's counters.
    pub sim: Counters,
    /// The H200's.
    pub hw: Counters,
}

/// The output words of a single-warp launch, compared as one value per launch (1 where all 32
/// are the H200's, bit for bit), under this name in [`Exclusion`]s.
pub const OUTPUT: &str = "output words";

/// The committed gaps of `dir`'s exclusions (tests/gaps/texture_mem_runN.txt for
/// tests/hw/h200/texture_mem/runN): one line per excluded value, `launch metric simulated
/// H200` (tab-separated; `#` starts a comment). A run without exclusions has no file.
pub fn gaps_path(dir: &str) -> PathBuf {
    let name = dir.trim_start_matches("tests/hw/h200/").replace('/', "_");
    root(&format!("tests/gaps/{name}.txt"))
}

/// [`gaps_path`]'s lines: (launch, metric) -> (simulated, H200).
pub fn gaps(dir: &str) -> BTreeMap<(String, String), (f64, f64)> {
    let path = gaps_path(dir);
    let Ok(text) = std::fs::read_to_string(&path) else {
        return BTreeMap::new();
    };
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            let num = |s: &str| -> f64 {
                s.parse()
                    .unwrap_or_else(|_| panic!("{}:{}: bad number {s:?}", path.display(), i + 1))
            };
            assert_eq!(f.len(), 4, "{}:{}: four fields", path.display(), i + 1);
            ((f[0].to_string(), f[1].to_string()), (num(f[2]), num(f[3])))
        })
        .collect()
}

/// Compares every launch of `dir` on [`METRICS`]: single-warp launches exactly, whole grids
/// within tests/memory/cache.rs's L1 tolerance (1% + 8), set conflicts exactly everywhere; and, with
/// `outputs` (the run saved them in `dir/outputs.txt`), the 32 output words of every single-warp
/// launch ([`OUTPUT`]). Panics listing every value outside that is not excluded, every excluded
/// value now within (its exclusion must go), every excluded value whose gap is not the one
/// [`gaps`] records (simulated and H200 value exactly: a gap that grows or shrinks fails too;
/// print today's lines with `GMS_LIST_GAPS=1`), every recorded gap no excluded value has, every
/// exclusion of an unknown launch, and a recording that lacks a launch, a metric or an output.
pub fn compare_run(
    dir: &str,
    csv: &str,
    ptx: &str,
    outputs: bool,
    exclusions: &[Exclusion],
) -> Compared {
    let hw = recording(dir, csv);
    let Simulated {
        counters: sim,
        words,
    } = simulate(dir, ptx);
    let hw_words = if outputs {
        self::outputs(dir)
    } else {
        BTreeMap::new()
    };
    let all = launches(dir);
    let excluded = |name: &str, metric: &str| {
        exclusions
            .iter()
            .find(|(n, ms, _)| *n == name && ms.contains(&metric))
            .map(|e| e.2)
    };
    let (mut n, mut ok, mut excl) = (0, 0, 0);
    let mut bad = Vec::new();
    let recorded_gaps = gaps(dir);
    let mut gaps_seen = std::collections::BTreeSet::new();
    let list_gaps = std::env::var_os("GMS_LIST_GAPS").is_some();
    let mut check = |name: &str, metric: &str, got: f64, want: f64, slack: f64| {
        let within = (got - want).abs() <= slack;
        n += 1;
        match (within, excluded(name, metric)) {
            (true, None) => ok += 1,
            (false, Some(cause)) => {
                excl += 1;
                println!("excluded: {name} {metric}: sim {got}, H200 {want}");
                if list_gaps {
                    eprintln!("{name}\t{metric}\t{got}\t{want}");
                }
                let key = (name.to_string(), metric.to_string());
                match recorded_gaps.get(&key) {
                    Some(&g) if g == (got, want) => {}
                    Some(&(s, h)) => bad.push(format!(
                        "{name} {metric}: sim {got}, H200 {want}; {} records sim {s}, H200 {h} \
                         ({cause}): the gap changed, update it",
                        gaps_path(dir).display()
                    )),
                    None => bad.push(format!(
                        "{name} {metric}: sim {got}, H200 {want}: excluded ({cause}) but its gap \
                         is not in {}",
                        gaps_path(dir).display()
                    )),
                }
                gaps_seen.insert(key);
            }
            (true, Some(cause)) => bad.push(format!(
                "{name} {metric}: now within (sim {got}, H200 {want}); remove its exclusion \
                 ({cause})"
            )),
            (false, None) => bad.push(format!("{name} {metric}: sim {got}, H200 {want}")),
        }
    };
    let mut missing = Vec::new();
    let mut n_words = 0;
    for (no, l) in all.iter().enumerate() {
        let name = l.name.as_str();
        let Some(m) = sim.get(name) else {
            missing.push(format!("{name}: not simulated"));
            continue;
        };
        let Some(h) = hw.get(name) else {
            missing.push(format!("{name}: not in the recording"));
            continue;
        };
        for metric in METRICS {
            let Some(&want) = h.get(*metric) else {
                missing.push(format!("{name} {metric}: not in the recording"));
                continue;
            };
            let got = m.get(*metric).copied().unwrap_or(0.0);
            // One warp's counts are small: those must be exact.
            let slack = if l.single_warp() || *metric == CONFLICTS {
                0.0
            } else {
                0.01 * want + 8.0
            };
            check(name, metric, got, want, slack);
        }
        if outputs && l.single_warp() {
            n_words += 1;
            let (Some(got), Some(want)) = (words.get(name), hw_words.get(&no)) else {
                missing.push(format!("{name}: no output words (launch {no})"));
                continue;
            };
            let same = got == want;
            if !same {
                println!("{name}: sim {got:08x?}\n   H200 {want:08x?}");
            }
            check(name, OUTPUT, f64::from(u8::from(same)), 1.0, 0.0);
        }
    }
    for (name, _, _) in exclusions {
        if !sim.contains_key(*name) {
            bad.push(format!("exclusion for unknown launch {name}"));
        }
    }
    for (name, metric) in recorded_gaps.keys() {
        if !gaps_seen.contains(&(name.clone(), metric.clone())) {
            bad.push(format!(
                "{name} {metric}: a gap in {} that no excluded value has",
                gaps_path(dir).display()
            ));
        }
    }
    bad.extend(missing);
    println!("{dir}: {ok} of {n} values within tolerance, {excl} excluded with their cause");
    assert!(bad.is_empty(), "{} values:\n{}", bad.len(), bad.join("\n"));
    assert_eq!(n, all.len() * METRICS.len() + n_words, "values compared");
    Compared { n, sim, hw }
}
