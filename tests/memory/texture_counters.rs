//! The texture path's counters (requests, sectors, L1 hits, wavefronts, tag lookups, L2 and DRAM
//! sectors) against the H200, on the fetch patterns of tests/hw/texture_mem/tex_probe.cu and the
//! seed's rotation example.
//!
//! Hardware data: Nsight Compute (`--clock-control none --cache-control all`) on a real H200,
//! tests/hw/h200/texture_mem/ncu/tex_probe.csv (first recording, 66 launches) and
//! run2/ncu/tex_probe2.csv (second recording of the same launches and the partial-warp and
//! footprint launches); launch names in the `launches.txt` beside them; commands and versions in
//! tests/hw/README.md. The simulator runs the PTX nvcc 13.0 made of the same source
//! (tests/hw/texture_mem/tex_probe.ptx, `nvcc -O3 -arch=sm_90 -lineinfo -ptx`), with the host
//! program's arrays, textures and launches set up here as tex_probe.cu's `main` sets them up.
//!
//! The same launches were recorded three more times with the L1/L2 counters
//! (run3/ncu/rep{1,2,3}.csv, tests/hw/texture_mem/run3.sh): each value is compared with the
//! range of all its recordings. Launches of 256 blocks of 256 threads and the rotation run with
//! the H200's own block-to-SM placement ([`placements`]).
//!
//! Tolerances are those of tests/memory/cache.rs: texture-pipe counters and L1 sectors within 1%, L2
//! and DRAM within 2%, each with 8 sectors of slack, `dram__sectors_read` 300 more (instruction
//! and constant fetches the model does not make); L1 tag-set conflicts
//! (`l1tex__t_set_conflicts_pipe_tex_mem_{texture,surface_op_ld,surface_op_st}`, first
//! recording only) exactly. Every (launch,
//! metric) outside is listed in
//! `EXCLUSIONS` with its measured cause, and every listed one must still be outside.

use gpumemsim::metrics::Source;
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

const DIR: &str = "tests/hw/h200/texture_mem";

fn root(p: &str) -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// name -> metrics, from one recording.
fn recording(csv: &str, launches: &str) -> BTreeMap<String, BTreeMap<String, f64>> {
    let text = std::fs::read_to_string(root(csv)).expect("recorded CSV");
    let rows = parse_ncu_csv(&text).expect("CSV parses");
    let names: Vec<String> = std::fs::read_to_string(root(launches))
        .expect("launches.txt")
        .lines()
        .map(|l| l.split_whitespace().nth(2).unwrap_or("").to_string())
        .collect();
    rows.into_iter()
        .map(|r| (names[r.id as usize].clone(), r.metrics))
        .collect()
}

struct Probe {
    dev: Device,
    /// Launch name -> simulated metrics.
    out: BTreeMap<String, BTreeMap<String, f64>>,
    /// The H200's shared-memory configuration per launch name (decides L1's size).
    config: BTreeMap<String, f64>,
    /// The H200's block-to-SM placement per (grid, block) shape, where recorded.
    placement: BTreeMap<([u32; 2], [u32; 2]), Vec<usize>>,
    d_out: u64,
}

/// The SM of each block, as `%smid` recorded it on the H200 (tests/hw/texture_mem/
/// texw_probe.cu, run3/smid.txt: 5 runs of each grid shape tex_probe launches with many blocks),
/// for 256 blocks of 256 threads and 64 x 64 blocks of 16 x 16. The first run is taken: for
/// 256 blocks it is the most frequent placement (blocks b and b + 128 share an SM 15 times in
/// 12 of the 20 runs of that shape, plain or under Nsight Compute, once or 39 times in the
/// others), and the one the H200's L1
/// hit counters show in all 5 Nsight Compute recordings (`fetch1d_stride2`: 960 hits = 15
/// blocks x 64 sectors every time).
fn placements() -> BTreeMap<([u32; 2], [u32; 2]), Vec<usize>> {
    let text = std::fs::read_to_string(root(&format!("{DIR}/run3/smid.txt"))).expect("smid.txt");
    let mut out: BTreeMap<([u32; 2], [u32; 2]), Vec<usize>> = BTreeMap::new();
    for line in text.lines() {
        let f: Vec<&str> = line.split_whitespace().collect();
        let shape = match f.first() {
            Some(&"g256x256") => ([256, 1], [256, 1]),
            Some(&"g64x64x16x16") => ([64, 64], [16, 16]),
            _ => continue,
        };
        if f.get(1) != Some(&"0") {
            continue;
        }
        let sm: usize = f
            .get(3)
            .and_then(|v| v.parse().ok())
            .expect("smid.txt: an SM");
        out.entry(shape).or_default().push(sm);
    }
    assert_eq!(out.get(&([256, 1], [256, 1])).map(Vec::len), Some(256));
    assert_eq!(out.get(&([64, 64], [16, 16])).map(Vec::len), Some(4096));
    out
}

fn fmt(ty: ChannelType, channels: u8) -> ChannelFormat {
    ChannelFormat { ty, channels }
}

impl Probe {
    fn array(&mut self, f: ChannelFormat, extent: [u32; 3], surface: bool) -> u32 {
        let [w, h, d] = extent;
        let n = (u64::from(w) * u64::from(h.max(1)) * u64::from(d.max(1))) as usize;
        let bytes = n * f.texel_bytes() as usize;
        let mut data = vec![0u8; bytes];
        if f.texel_bytes() >= 4 {
            for (i, c) in data.chunks_mut(4).enumerate() {
                c.copy_from_slice(&((i % 4099) as f32).to_le_bytes());
            }
        } else {
            for (i, b) in data.iter_mut().enumerate() {
                *b = (i * 7 + (i >> 8)) as u8;
            }
        }
        self.dev.textures.insert_array(CudaArray {
            name: format!("a{}", self.dev.textures.arrays().len()),
            format: f,
            width: w,
            height: h,
            depth: d,
            surface,
            data,
        })
    }

    fn tex(&mut self, r: Resource, filter: FilterMode, normalized: bool, mode: AddressMode) -> u64 {
        let desc = TextureDesc {
            address: [mode; 3],
            filter,
            read: ReadMode::ElementType,
            normalized,
            border: [0.0; 4],
        };
        self.dev
            .textures
            .create_texture_object(r, desc)
            .expect("texture object")
    }

    fn launch(
        &mut self,
        name: &str,
        kernel: &str,
        grid: [u32; 2],
        block: [u32; 2],
        args: &[KernelArg],
    ) {
        let code = self
            .dev
            .kernel_for_launch(kernel)
            .map(|k| k.code.len())
            .unwrap_or_else(|e| panic!("{kernel}: {e}"));
        let threads = block[0] * block[1];
        let warps = threads.div_ceil(32);
        let per_sm = (2048 / threads).min(32) as usize;
        let config = self.config.get(name).copied().unwrap_or(8192.0) as u64;
        let l1 = u64::from(H200.l1_shared_bytes_per_sm) - config;
        let h = Hierarchy::new(132, l1, u64::from(H200.l2_bytes), code);
        let mut p = Profile::new(&H200, code);
        let mut replay = Replay::new(h, 132, per_sm, warps as usize);
        if let Some(map) = self.placement.get(&(grid, block)) {
            replay = replay.with_placement(map.clone());
        }
        p.caches = Some(replay);
        let dims = LaunchDims {
            grid: [grid[0], grid[1], 1],
            block: [block[0], block[1], 1],
            dynamic_shared: 0,
        };
        self.dev
            .launch(
                kernel,
                name,
                dims,
                args,
                LaunchOptions::default(),
                &mut p,
                &mut |_, _| {},
            )
            .unwrap_or_else(|e| panic!("{name}: {e}"));
        let mut m: BTreeMap<String, f64> = p
            .totals()
            .metrics(&[Source::Lsu, Source::Texture])
            .into_iter()
            .map(|(k, v)| (k.to_string(), v))
            .collect();
        if let Some(h) = p.finish_caches() {
            m.extend(
                h.totals()
                    .metrics(&[Source::Cache])
                    .into_iter()
                    .map(|(k, v)| (k.to_string(), v)),
            );
        }
        self.out.insert(name.to_string(), m);
    }
}

/// Runs every launch of tex_probe.cu (with TEX_PROBE_MASKS set, as the second recording), as
/// PTX or (`sass`) as the committed sm_90 SASS of the same PTX (tests/hw/texture_mem/
/// tex_probe.sass, the H200 cubin's instructions: tests/front/sass_texture.rs).
fn simulate(sass: bool) -> BTreeMap<String, BTreeMap<String, f64>> {
    let ptx = std::fs::read_to_string(root("tests/hw/texture_mem/tex_probe.ptx")).expect("PTX");
    let mut dev = Device::new(&H200);
    dev.load_ptx(&ptx, "tex_probe.ptx").expect("PTX loads");
    if sass {
        let text =
            std::fs::read_to_string(root("tests/hw/texture_mem/tex_probe.sass")).expect("SASS");
        dev.load_sass(&text, "tex_probe.sass").expect("SASS loads");
        for k in gpumemsim::sass::header(&text).0 {
            let k = dev
                .kernel_for_launch(&k.name)
                .unwrap_or_else(|e| panic!("{e}"));
            assert!(k.sass.is_some(), "{} does not run as SASS", k.name);
        }
    }
    let d_out = dev.malloc(4 << 20, "d_out");
    let first = recording(
        &format!("{DIR}/ncu/tex_probe.csv"),
        &format!("{DIR}/launches.txt"),
    );
    let config = first
        .iter()
        .filter_map(|(n, m)| Some((n.clone(), *m.get("launch__shared_mem_config_size")?)))
        .collect();
    let mut p = Probe {
        dev,
        out: BTreeMap::new(),
        config,
        placement: placements(),
        d_out,
    };
    let (w, h, n, b) = (256u32, 256u32, 65536u32, 256u32);
    let pname = [
        "row", "col", "tile8x4", "tile4x8", "random", "warp1", "stride2",
    ];
    let f32x1 = fmt(ChannelType::F32, 1);
    let o = KernelArg::U64(d_out);
    let (u, f) = (KernelArg::U32, KernelArg::F32);
    let t2d = "_Z13tex2d_patternIfEvyPfiiif";
    let af = p.array(f32x1, [w, h, 0], false);
    let tp = p.tex(
        Resource::Array(af),
        FilterMode::Point,
        false,
        AddressMode::Clamp,
    );
    let tl = p.tex(
        Resource::Array(af),
        FilterMode::Linear,
        false,
        AddressMode::Clamp,
    );
    let grid = [n / b, 1];
    let blk = [b, 1];
    for (i, pn) in pname.iter().enumerate() {
        let a = [
            KernelArg::U64(tp),
            o.clone(),
            u(w),
            u(h),
            u(i as u32),
            f(0.0),
        ];
        p.launch(&format!("f32_point_{pn}"), t2d, grid, blk, &a);
    }
    for (i, pn) in pname.iter().enumerate().take(5) {
        let a = [
            KernelArg::U64(tl),
            o.clone(),
            u(w),
            u(h),
            u(i as u32),
            f(0.5),
        ];
        p.launch(&format!("f32_linear_half_{pn}"), t2d, grid, blk, &a);
    }
    for (i, pn) in pname.iter().enumerate().take(2) {
        let a = [
            KernelArg::U64(tl),
            o.clone(),
            u(w),
            u(h),
            u(i as u32),
            f(0.0),
        ];
        p.launch(&format!("f32_linear_centre_{pn}"), t2d, grid, blk, &a);
    }
    for (i, pn) in pname.iter().enumerate().take(2) {
        let a = [KernelArg::U64(tp), o.clone(), u(w), u(h), u(i as u32)];
        p.launch(
            &format!("f32_point_twice_{pn}"),
            "_Z11tex2d_twiceyPfiii",
            grid,
            blk,
            &a,
        );
        p.launch(
            &format!("f32_gather_{pn}"),
            "_Z12tex2d_gatheryPfiii",
            grid,
            blk,
            &a,
        );
    }
    let one = ([1, 1], [32, 1]);
    let a = |t: u64, pat: u32, off: f32| [KernelArg::U64(t), o.clone(), u(w), u(h), u(pat), f(off)];
    p.launch("f32_point_row_1warp", t2d, one.0, one.1, &a(tp, 0, 0.0));
    p.launch("f32_point_col_1warp", t2d, one.0, one.1, &a(tp, 1, 0.0));
    p.launch(
        "f32_linear_half_row_1warp",
        t2d,
        one.0,
        one.1,
        &a(tl, 0, 0.5),
    );
    for m in [
        0xffffu32,
        0x5555_5555,
        0x1111_1111,
        0x1,
        0x8000_0001,
        0xf0f0_f0f0,
    ] {
        let args = [KernelArg::U64(tp), o.clone(), u(w), u(h), u(m)];
        p.launch(
            &format!("f32_point_row_1warp_mask{m:08x}"),
            "_Z12tex2d_maskedyPfiij",
            one.0,
            one.1,
            &args,
        );
    }
    // element sizes
    let kinds = [
        (
            "u8",
            fmt(ChannelType::U8, 1),
            "_Z13tex2d_patternIhEvyPfiiif",
        ),
        (
            "u16",
            fmt(ChannelType::U16, 1),
            "_Z13tex2d_patternItEvyPfiiif",
        ),
        (
            "f32x2",
            fmt(ChannelType::F32, 2),
            "_Z13tex2d_patternI6float2EvyPfiiif",
        ),
        (
            "f32x4",
            fmt(ChannelType::F32, 4),
            "_Z13tex2d_patternI6float4EvyPfiiif",
        ),
    ];
    let texs: Vec<u64> = kinds
        .iter()
        .map(|(_, fm, _)| {
            let id = p.array(*fm, [w, h, 0], false);
            p.tex(
                Resource::Array(id),
                FilterMode::Point,
                false,
                AddressMode::Clamp,
            )
        })
        .collect();
    for (pi, pn) in pname.iter().enumerate().take(3) {
        for ((kn, _, k), t) in kinds.iter().zip(&texs) {
            p.launch(
                &format!("{kn}_point_{pn}"),
                k,
                grid,
                blk,
                &a(*t, pi as u32, 0.0),
            );
        }
    }
    // 3D
    let a3 = p.array(f32x1, [64, 64, 64], false);
    let p3 = p.tex(
        Resource::Array(a3),
        FilterMode::Point,
        false,
        AddressMode::Clamp,
    );
    let l3 = p.tex(
        Resource::Array(a3),
        FilterMode::Linear,
        false,
        AddressMode::Clamp,
    );
    let n3 = ["row", "coly", "colz", "brick4x4x2"];
    let g3 = [64 * 64 * 64 / 4 / b, 1];
    let t3 = "_Z13tex3d_patternyPfiiiif";
    for (pi, pn) in n3.iter().enumerate() {
        let args = [
            KernelArg::U64(p3),
            o.clone(),
            u(64),
            u(64),
            u(64),
            u(pi as u32),
            f(0.0),
        ];
        p.launch(&format!("f32_3d_point_{pn}"), t3, g3, blk, &args);
    }
    for pi in [0usize, 3] {
        let args = [
            KernelArg::U64(l3),
            o.clone(),
            u(64),
            u(64),
            u(64),
            u(pi as u32),
            f(0.5),
        ];
        p.launch(
            &format!("f32_3d_linear_half_{}", n3[pi]),
            t3,
            g3,
            blk,
            &args,
        );
    }
    // 1D array
    let a1 = p.array(f32x1, [n, 0, 0], false);
    let p1 = p.tex(
        Resource::Array(a1),
        FilterMode::Point,
        false,
        AddressMode::Clamp,
    );
    let l1 = p.tex(
        Resource::Array(a1),
        FilterMode::Linear,
        false,
        AddressMode::Clamp,
    );
    let t1 = "_Z13tex1d_patternyPfiif";
    for (pi, pn) in ["row", "stride2", "stride32"].iter().enumerate() {
        let args = [KernelArg::U64(p1), o.clone(), u(n), u(pi as u32), f(0.0)];
        p.launch(&format!("f32_1d_point_{pn}"), t1, grid, blk, &args);
    }
    let args = [KernelArg::U64(l1), o.clone(), u(n), u(0), f(0.5)];
    p.launch("f32_1d_linear_half_row", t1, grid, blk, &args);
    // linear memory and pitch-2D
    let lin = p.dev.malloc(u64::from(n) * 4, "lin");
    let data: Vec<u8> = (0..n)
        .flat_map(|i| ((i % 4099) as f32).to_le_bytes())
        .collect();
    p.dev.memcpy_htod(lin, &data).expect("copy");
    let rl = Resource::Linear {
        addr: lin,
        format: f32x1,
        size_bytes: u64::from(n) * 4,
    };
    let tf = p.tex(rl, FilterMode::Point, false, AddressMode::Clamp);
    for m in [0xffff_ffffu32, 0xff, 0xffff, 0x0101_0101, 0x1] {
        let args = [KernelArg::U64(tf), o.clone(), u(n), u(m)];
        p.launch(
            &format!("fetch1d_1warp_mask{m:08x}"),
            "_Z14fetch1d_maskedyPfij",
            one.0,
            one.1,
            &args,
        );
    }
    for (pi, pn) in ["row", "stride2", "stride32", "random"].iter().enumerate() {
        let args = [KernelArg::U64(tf), o.clone(), u(n), u(pi as u32)];
        p.launch(
            &format!("fetch1d_{pn}"),
            "_Z15fetch1d_patternyPfii",
            grid,
            blk,
            &args,
        );
    }
    let rp = Resource::Pitch2d {
        addr: lin,
        format: f32x1,
        width: w,
        height: h,
        pitch: u64::from(w) * 4,
    };
    let pp = p.tex(rp, FilterMode::Point, false, AddressMode::Clamp);
    let pl = p.tex(rp, FilterMode::Linear, false, AddressMode::Clamp);
    for (pi, pn) in pname.iter().enumerate().take(3) {
        p.launch(
            &format!("pitch2d_point_{pn}"),
            t2d,
            grid,
            blk,
            &a(pp, pi as u32, 0.0),
        );
    }
    p.launch("pitch2d_linear_half_row", t2d, grid, blk, &a(pl, 0, 0.5));
    for (pi, pn) in pname.iter().enumerate() {
        let args = [KernelArg::U64(lin), o.clone(), u(w), u(h), u(pi as u32)];
        p.launch(
            &format!("gld_{pn}"),
            "_Z13gld2d_patternPKfPfiii",
            grid,
            blk,
            &args,
        );
    }
    // surfaces
    let asf = p.array(f32x1, [w, h, 0], true);
    let s = p.dev.textures.create_surface_object(asf).expect("surface");
    for m in [0xffff_ffffu32, 0xff, 0xffff, 0x0101_0101, 0x1] {
        let args = [KernelArg::U64(s), o.clone(), u(w), u(h), u(m)];
        p.launch(
            &format!("surf_read_1warp_mask{m:08x}"),
            "_Z18surf2d_read_maskedyPfiij",
            one.0,
            one.1,
            &args,
        );
    }
    for (pi, pn) in pname.iter().enumerate().take(4) {
        let args = [KernelArg::U64(s), o.clone(), u(w), u(h), u(pi as u32)];
        p.launch(
            &format!("surf_read_{pn}"),
            "_Z11surf2d_readyPfiii",
            grid,
            blk,
            &args,
        );
    }
    for (pi, pn) in pname.iter().enumerate().take(3) {
        let args = [KernelArg::U64(s), u(w), u(h), u(pi as u32)];
        p.launch(
            &format!("surf_write_{pn}"),
            "_Z12surf2d_writeyiii",
            grid,
            blk,
            &args,
        );
    }
    // the rotation
    let ar = p.array(f32x1, [1024, 1024, 0], false);
    let tr = p.tex(
        Resource::Array(ar),
        FilterMode::Linear,
        true,
        AddressMode::Wrap,
    );
    let args = [o.clone(), KernelArg::U64(tr), u(1024), u(1024), f(0.5)];
    p.launch(
        "rotate_1024",
        "_Z15transformKernelPfyiif",
        [64, 64],
        [16, 16],
        &args,
    );
    let tq = p.tex(
        Resource::Array(ar),
        FilterMode::Point,
        false,
        AddressMode::Clamp,
    );
    let quads: [(&str, [i32; 4], [i32; 4]); 16] = [
        ("same", [0, 0, 0, 0], [0, 0, 0, 0]),
        ("x0_4", [0, 4, 0, 4], [0, 0, 0, 0]),
        ("y0_2", [0, 0, 0, 0], [0, 2, 0, 2]),
        ("x0_8", [0, 8, 0, 8], [0, 0, 0, 0]),
        ("y0_4", [0, 0, 0, 0], [0, 4, 0, 4]),
        ("y0_8", [0, 0, 0, 0], [0, 8, 0, 8]),
        ("x0_4_y0_2", [0, 4, 0, 4], [0, 0, 2, 2]),
        ("x0_8_y0_4", [0, 8, 0, 8], [0, 0, 4, 4]),
        ("y0_8_16_24", [0, 0, 0, 0], [0, 8, 16, 24]),
        ("x0_16_32_48", [0, 16, 32, 48], [0, 0, 0, 0]),
        ("x0_16", [0, 16, 0, 16], [0, 0, 0, 0]),
        ("x0_4_8_y2", [0, 4, 8, 0], [0, 0, 0, 2]),
        ("x0_4_8_12", [0, 4, 8, 12], [0, 0, 0, 0]),
        ("y0_2_4_6", [0, 0, 0, 0], [0, 2, 4, 6]),
        ("x0_8_16_24", [0, 8, 16, 24], [0, 0, 0, 0]),
        ("y0_4_8_12", [0, 0, 0, 0], [0, 4, 8, 12]),
    ];
    let i4 = |v: [i32; 4]| KernelArg::Bytes(v.iter().flat_map(|x| x.to_le_bytes()).collect());
    for (qn, dx, dy) in quads {
        let args = [KernelArg::U64(tq), o.clone(), i4(dx), i4(dy)];
        p.launch(
            &format!("quadset_{qn}"),
            "_Z13tex2d_quadsetyPf4int4S0_",
            one.0,
            one.1,
            &args,
        );
    }
    let _ = p.d_out;
    p.out
}

/// The metrics compared, with their relative tolerance.
const METRICS: &[(&str, f64)] = &[
    ("smsp__sass_inst_executed_op_texture.sum", 0.0),
    ("l1tex__t_requests_pipe_tex_mem_texture.sum", 0.01),
    ("l1tex__t_sectors_pipe_tex_mem_texture.sum", 0.01),
    ("l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum", 0.01),
    ("l1tex__t_set_accesses_pipe_tex_mem_texture.sum", 0.01),
    (CONFLICTS, 0.0),
    ("l1tex__data_pipe_tex_wavefronts_mem_texture.sum", 0.01),
    ("l1tex__texin_requests_mem_texture.sum", 0.01),
    ("l1tex__texin_requests_mem_surface.sum", 0.01),
    ("smsp__inst_executed_op_surface_ld.sum", 0.0),
    ("smsp__inst_executed_op_surface_st.sum", 0.0),
    ("l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum", 0.01),
    ("l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum", 0.01),
    (SURF_LD_CONFLICTS, 0.0),
    (
        "l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum",
        0.01,
    ),
    ("l1tex__t_requests_pipe_tex_mem_surface_op_st.sum", 0.01),
    ("l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum", 0.01),
    (SURF_ST_CONFLICTS, 0.0),
    (
        "l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_hit.sum",
        0.01,
    ),
    ("l1tex__data_pipe_tex_wavefronts_mem_surface.sum", 0.01),
    ("lts__t_sectors_srcunit_tex_op_read.sum", 0.02),
    ("lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum", 0.02),
    ("lts__t_sectors_srcunit_tex_op_write.sum", 0.02),
    ("dram__sectors_read.sum", 0.02),
];

const L2: &str = "lts__t_sectors_srcunit_tex_op_read.sum";
const L2_HIT: &str = "lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum";
const WAVES: &str = "l1tex__data_pipe_tex_wavefronts_mem_texture.sum";
/// Compared exactly (no slack): tests/hw/h200/texture_mem/ncu/tex_probe.csv records it.
const CONFLICTS: &str = "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum";
const SURF_LD_CONFLICTS: &str = "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_ld.sum";
const SURF_ST_CONFLICTS: &str = "l1tex__t_set_conflicts_pipe_tex_mem_surface_op_st.sum";

const MERGED: &str = "several SMs miss on the same sectors at about the same time and the H200 \
    sends L2 fewer lookups, and finds sectors another SM fetched shortly before (rows y and y+1 \
    of a sector read by neighbouring blocks on different SMs: f32_point_row 13,920 L2 sectors \
    for 16,384 L1 misses); without timing the model sends every miss (tests/memory/cache.rs's first \
    cause). Timing-dependent on the H200 too, but not enough to cover the gap: in 5 recordings \
    its L2 lookups vary by 0.1% to 10% (u8_point_col 18,494 to 20,518) and stay below the \
    model's every time (f32_point_row 13,908 to 13,954 against 16,384), while L1 hits, sectors, \
    tags and wavefronts never vary";
const SCATTERED: &str = "scattered texels: 2.3 wavefronts per 4-sector request (3.2 bilinear, \
    5.5 per 8-lane fetch) where the half-GOB rule gives 4 (1, 8): the data stage serves far-apart \
    blocks together, by a rule not found. Probed with single warps (run3/ncu/texw_probe.csv.zst): \
    2, 4 or 8 fetches at power-of-two distances from 64 bytes to 8 MiB never share a wavefront, \
    nor do 2D texels 8 to 256 texels or rows apart; random ones do (8 random 64-byte units: 6.7 \
    wavefronts on average, 5 to 8; 4 random texels of a quad: 2.5, 1 to 4), more often when the \
    texels lie closer together (fetch1d_random, 256 KiB: 5.5); pairs never share one, at \
    m x 2^j bytes (m = 3, 5, 7, 9) nor at random within 64 KiB, while 8 random units within \
    64 KiB take 6 or 7 (run4, tests/memory/texture_3d.rs). tex1Dfetch units are modelled since the \
    pair-class rule of request.rs (docs/notes/issue-10-tscat5.md): fetch1d_random's 45,415 \
    wavefronts agree exactly; 2D and 3D texels keep this cause";
const PITCH_TAGS: &str = "pitch-linear memory, bilinear: with one L2 request per texel-space \
    tag block and line (pitch2d_point_row's 4,096 L2 hits now exact; this launch had 8,365 \
    before) the model finds 11,624 L2 hits where the H200 finds 11,877 to 11,905 in 5 \
    recordings, 2.1% low, with its L2 lookups within tolerance; the remaining 260 are not \
    explained";
const ROTATE: &str = "with the H200's block placement, L2 lookups (199,158 against 198,434 to \
    198,647 in 5 recordings) and DRAM sectors (114,860 against 115,152 to 115,208) agree, but \
    the model finds 118,984 L2 hits where the H200 finds 96,554 to 97,403: the H200 counts a \
    lookup of a sector whose fill is still on its way from DRAM as a miss, and the model, \
    without timing, fills at once";

/// (launch, metrics, cause): every (launch, metric) outside its tolerance.
const EXCLUSIONS: &[(&str, &[&str], &str)] = &[
    ("f32_1d_linear_half_row", &[L2_HIT], MERGED),
    ("f32_1d_point_stride2", &[L2, L2_HIT], MERGED),
    ("f32_1d_point_stride32", &[L2, L2_HIT], MERGED),
    ("f32_3d_linear_half_brick4x4x2", &[L2_HIT], MERGED),
    ("f32_3d_linear_half_row", &[L2, L2_HIT], MERGED),
    ("f32_3d_point_colz", &[L2_HIT], MERGED),
    ("f32_gather_col", &[L2, L2_HIT], MERGED),
    ("f32_gather_row", &[L2, L2_HIT], MERGED),
    ("f32_linear_centre_col", &[L2, L2_HIT], MERGED),
    ("f32_linear_centre_row", &[L2, L2_HIT], MERGED),
    ("f32_linear_half_col", &[L2, L2_HIT], MERGED),
    ("f32_linear_half_random", &[WAVES], SCATTERED),
    ("f32_linear_half_random", &[L2_HIT], MERGED),
    ("f32_linear_half_row", &[L2, L2_HIT], MERGED),
    ("f32_linear_half_tile4x8", &[L2_HIT], MERGED),
    ("f32_linear_half_tile8x4", &[L2_HIT], MERGED),
    ("f32_point_col", &[L2, L2_HIT], MERGED),
    ("f32_point_random", &[WAVES], SCATTERED),
    ("f32_point_random", &[L2, L2_HIT], MERGED),
    ("f32_point_row", &[L2, L2_HIT], MERGED),
    ("f32_point_stride2", &[L2_HIT], MERGED),
    ("f32_point_twice_col", &[L2, L2_HIT], MERGED),
    ("f32_point_twice_row", &[L2, L2_HIT], MERGED),
    ("f32_point_warp1", &[L2_HIT], MERGED),
    ("f32x2_point_col", &[L2, L2_HIT], MERGED),
    ("f32x2_point_row", &[L2, L2_HIT], MERGED),
    ("f32x4_point_row", &[L2, L2_HIT], MERGED),
    ("fetch1d_random", &[L2, L2_HIT], MERGED),
    ("fetch1d_stride2", &[L2, L2_HIT], MERGED),
    ("fetch1d_stride32", &[L2, L2_HIT], MERGED),
    ("pitch2d_linear_half_row", &[L2_HIT], PITCH_TAGS),
    ("pitch2d_point_col", &[L2, L2_HIT], MERGED),
    ("rotate_1024", &[L2_HIT], ROTATE),
    ("surf_read_col", &[L2, L2_HIT], MERGED),
    ("surf_read_row", &[L2, L2_HIT], MERGED),
    ("u16_point_col", &[L2, L2_HIT], MERGED),
    ("u16_point_row", &[L2, L2_HIT], MERGED),
    ("u8_point_col", &[L2, L2_HIT], MERGED),
    ("u8_point_row", &[L2, L2_HIT], MERGED),
];

/// The gap of every excluded value: one line per value, `launch metric simulated H200`
/// (tab-separated; the H200's value as compared: one number, or `lo..hi` over its
/// recordings), asserted exactly for the PTX and the SASS run: the test fails when a gap grows,
/// shrinks or closes. Print today's lines with `GMS_LIST_GAPS=1`.
const GAPS: &str = "tests/gaps/texture_mem.txt";

/// [`GAPS`]'s lines: (launch, metric) -> (simulated, H200 as printed).
fn gaps() -> BTreeMap<(String, String), (f64, String)> {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/gaps/texture_mem.txt");
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{GAPS}: {e}"));
    text.lines()
        .enumerate()
        .filter(|(_, l)| !l.trim().is_empty() && !l.starts_with('#'))
        .map(|(i, l)| {
            let f: Vec<&str> = l.split('\t').collect();
            assert_eq!(f.len(), 4, "{GAPS}:{}: four fields", i + 1);
            let s: f64 = f[2]
                .parse()
                .unwrap_or_else(|_| panic!("{GAPS}:{}: bad number {:?}", i + 1, f[2]));
            ((f[0].to_string(), f[1].to_string()), (s, f[3].to_string()))
        })
        .collect()
}

fn excluded(name: &str, metric: &str) -> Option<&'static str> {
    EXCLUSIONS
        .iter()
        .find(|(n, ms, _)| *n == name && ms.contains(&metric))
        .map(|e| e.2)
}

/// The global loads of the same patterns are there for the report's comparison: only their
/// coalescer counters are compared here (their L1 and L2 are tests/memory/cache.rs's subject).
const GLD_METRICS: &[&str] = &[
    "l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum",
    "l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum",
];

#[test]
fn texture_counters_match_the_h200() {
    compare(&simulate(false));
}

/// The same launches run as SASS: the texture instructions are the SASS ones
/// (`smsp__sass_inst_executed_op_texture.sum` counts `TEX`/`TLD`/`TLD4`, the surface counters
/// `SULD`/`SUST`), with the same tolerances and exclusions as the PTX run.
#[test]
fn texture_counters_under_sass_match_the_h200() {
    let sass = simulate(true);
    let ptx = simulate(false);
    // Where both ISAs fetch the same texels the memory counters are the same; the instruction
    // counts are those of the SASS (the same here: one texture instruction per PTX one).
    for (name, m) in &sass {
        for metric in [
            "smsp__sass_inst_executed_op_texture.sum",
            "smsp__inst_executed_op_surface_ld.sum",
            "smsp__inst_executed_op_surface_st.sum",
            "l1tex__t_sectors_pipe_tex_mem_texture.sum",
        ] {
            assert_eq!(m.get(metric), ptx[name].get(metric), "{name} {metric}");
        }
    }
    compare(&sass);
}

fn compare(sim: &BTreeMap<String, BTreeMap<String, f64>>) {
    let sim = sim.clone();
    let hw1 = recording(
        &format!("{DIR}/ncu/tex_probe.csv"),
        &format!("{DIR}/launches.txt"),
    );
    let hw2 = recording(
        &format!("{DIR}/run2/ncu/tex_probe2.csv"),
        &format!("{DIR}/run2/launches.txt"),
    );
    // Three more recordings of the L1/L2 counters (run3/ncu/metrics.txt), for the H200's own
    // run-to-run spread: a value is compared with the range of all recordings of it.
    let reps: Vec<_> = (1..=3)
        .map(|r| {
            recording(
                &format!("{DIR}/run3/ncu/rep{r}.csv"),
                &format!("{DIR}/run3/launches.txt"),
            )
        })
        .collect();
    let (mut n, mut ok, mut excl) = (0, 0, 0);
    let mut bad = Vec::new();
    let gaps = gaps();
    let mut gaps_seen = std::collections::BTreeSet::new();
    for (name, m) in &sim {
        let hw = hw1
            .get(name)
            .or_else(|| hw2.get(name))
            .unwrap_or_else(|| panic!("{name} was not recorded"));
        let gld = name.starts_with("gld_");
        if name == "rotate_1024" {
            for (metric, _) in METRICS {
                if let (Some(s), Some(h)) = (m.get(*metric), hw.get(*metric)) {
                    println!("rotate_1024 {metric}: sim {s} H200 {h}");
                }
            }
        }
        let metrics: Vec<(&str, f64)> = if gld {
            GLD_METRICS.iter().map(|m| (*m, 0.01)).collect()
        } else {
            METRICS.to_vec()
        };
        for (metric, rel) in metrics {
            let Some(&want) = hw.get(metric) else {
                continue;
            };
            let (mut lo, mut hi) = (want, want);
            for v in [hw1.get(name), hw2.get(name)]
                .into_iter()
                .chain(reps.iter().map(|r| r.get(name)))
                .flatten()
                .filter_map(|r| r.get(metric))
            {
                lo = lo.min(*v);
                hi = hi.max(*v);
            }
            let got = m.get(metric).copied().unwrap_or(0.0);
            let slack = if [CONFLICTS, SURF_LD_CONFLICTS, SURF_ST_CONFLICTS].contains(&metric) {
                0.0
            } else if metric == "dram__sectors_read.sum" {
                308.0
            } else {
                8.0
            };
            let within = got >= lo - rel * lo - slack && got <= hi + rel * hi + slack;
            let want = if lo == hi {
                format!("{want}")
            } else {
                format!("{lo}..{hi}")
            };
            n += 1;
            match (within, excluded(name, metric)) {
                (true, None) => ok += 1,
                (false, Some(cause)) => {
                    excl += 1;
                    if std::env::var_os("GMS_LIST_GAPS").is_some() {
                        eprintln!("{name}\t{metric}\t{got}\t{want}");
                    }
                    let key = (name.to_string(), metric.to_string());
                    match gaps.get(&key) {
                        Some((s, h)) if *s == got && *h == want => {}
                        Some((s, h)) => bad.push(format!(
                            "{name} {metric}: sim {got}, H200 {want}; {GAPS} records sim {s}, \
                             H200 {h} ({cause}): the gap changed, update it"
                        )),
                        None => bad.push(format!(
                            "{name} {metric}: sim {got}, H200 {want}: excluded ({cause}) but its \
                             gap is not in {GAPS}"
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
        }
    }
    for (name, metrics, _) in EXCLUSIONS {
        assert!(
            sim.contains_key(*name),
            "exclusion for unknown launch {name}"
        );
        assert!(!metrics.is_empty());
    }
    for key in gaps.keys() {
        if !gaps_seen.contains(key) {
            bad.push(format!(
                "{} {}: a gap in {GAPS} that no excluded value has",
                key.0, key.1
            ));
        }
    }
    println!("{ok} of {n} values within tolerance, {excl} excluded with their cause");
    assert!(bad.is_empty(), "{} values:\n{}", bad.len(), bad.join("\n"));
    // Every recorded (launch, metric) pair is compared: 98 launches (91 texture and surface
    // launches with the 21 metrics each recording has, 7 global-load launches with 2), and the
    // 3 set-conflict counters (texture, surface loads, surface stores) of the 59 texture and
    // surface launches of ncu/tex_probe.csv (run2's recording has none).
    assert_eq!(n, 1984 + 59 * 2, "values compared");
}
