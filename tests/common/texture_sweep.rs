//! The recorded H200 texture and surface sweeps (tests/hw/texture/README.md gives the format
//! and how they were run): reading a recording, and running one of its cases in gpumemsim with
//! the same CUDA array (or linear / pitch-2D memory), texture or surface object, coordinates and
//! launch, as PTX or as SASS. Shared by tests/memory/texture_words.rs (against the H200) and
//! tests/front/sass_texture.rs (SASS against PTX); included with `#[path]` so that no other test binary
//! compiles it. Each of the two uses part of it, hence `allow(dead_code)`.
#![allow(dead_code)]

use gpumemsim::exec::simt::{LaunchDims, NoObserver};
use gpumemsim::gpu::config::H200;
use gpumemsim::runtime::{Device, KernelArg, LaunchOptions, RuntimeError};
use gpumemsim::tex::desc::{AddressMode, FilterMode, Resource, TextureDesc};
use gpumemsim::tex::format::{ChannelFormat, ReadMode, ALL_CHANNEL_TYPES};
use std::path::{Path, PathBuf};

/// One recorded case: the kernel, the 32 configuration fields, the texel bytes, the coordinate
/// records (4 words each), the H200's result words and, for stores, the array after them.
#[derive(Debug)]
pub struct Case {
    pub kernel: String,
    pub f: [u32; 32],
    pub data: Vec<u8>,
    pub coords: Vec<u32>,
    pub out: Vec<u32>,
    pub after: Vec<u8>,
}

// The configuration fields (sweep.cu's enum).
pub const RES: usize = 0;
pub const CHT: usize = 1;
pub const CHN: usize = 2;
pub const READ: usize = 3;
pub const FILT: usize = 4;
pub const AD0: usize = 5;
pub const NORM: usize = 8;
pub const BO0: usize = 9;
pub const W: usize = 13;
pub const H: usize = 14;
pub const D: usize = 15;
pub const PITCH: usize = 16;
pub const N: usize = 17;
pub const DATA: usize = 18;
pub const OUTW: usize = 19;
pub const SURF: usize = 20;
pub const AFTER: usize = 21;

/// A path in the repository.
pub fn root(p: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join(p)
}

/// A zstd-compressed file of the repository, decompressed.
pub fn zstd(path: &str) -> Vec<u8> {
    let z = std::fs::read(root(path)).unwrap_or_else(|e| panic!("{path}: {e}"));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&z[..]).expect("zstd frame");
    let mut b = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut b).expect("zstd data");
    b
}

/// The cases of a recording (a `.bin.zst` under tests/hw/h200/texture).
pub fn read_cases(path: &str) -> Vec<Case> {
    let b = zstd(path);
    let word = |at: usize| u32::from_le_bytes(b[at..at + 4].try_into().unwrap());
    let (mut p, mut cases) = (0usize, Vec::new());
    while p + 160 <= b.len() {
        let name = &b[p..p + 32];
        let kernel =
            String::from_utf8_lossy(&name[..name.iter().position(|&c| c == 0).unwrap_or(32)])
                .to_string();
        let f: [u32; 32] = std::array::from_fn(|k| word(p + 32 + 4 * k));
        p += 160;
        let data = b[p..p + f[DATA] as usize].to_vec();
        p += f[DATA] as usize;
        let n = f[N] as usize;
        let coords = (0..4 * n).map(|k| word(p + 4 * k)).collect();
        p += 16 * n;
        let no = n * f[OUTW] as usize;
        let out = (0..no).map(|k| word(p + 4 * k)).collect();
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
    assert_eq!(p, b.len(), "trailing bytes in {path}");
    cases
}

/// A case in a line: kernel, resource, channel type and count, modes, extent.
pub fn describe(c: &Case) -> String {
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

/// Runs one case in gpumemsim on tests/hw/texture/sweep_kernels (`ptx`, and `sass` when given:
/// then the kernel must run as SASS): the result words and, for stores, the array after them.
pub fn simulate(c: &Case, ptx: &str, sass: Option<&str>) -> Result<(Vec<u32>, Vec<u8>), String> {
    let e = |x: RuntimeError| x.to_string();
    let mut dev = Device::new(&H200);
    dev.load_ptx(ptx, "sweep_kernels.ptx").map_err(e)?;
    if let Some(s) = sass {
        dev.load_sass(s, "sweep_kernels.sass").map_err(e)?;
        let k = dev.kernel_for_launch(&c.kernel).map_err(e)?;
        if k.sass.is_none() {
            return Err(format!("{} does not run as SASS", c.kernel));
        }
    }
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
        filter: [FilterMode::Point, FilterMode::Linear][f[FILT] as usize],
        read: [ReadMode::ElementType, ReadMode::NormalizedFloat][f[READ] as usize],
        normalized: f[NORM] == 1,
        border: std::array::from_fn(|k| f32::from_bits(f[BO0 + k])),
    };
    let surf = f[SURF] == 1;
    let handle = if f[RES] == 0 {
        let a = dev
            .malloc_3d_array("a", format, [f[W], f[H], f[D]], surf)
            .map_err(e)?;
        let row = u64::from(f[W]) * u64::from(format.texel_bytes());
        dev.memcpy_2d_to_array(a, 0, 0, &c.data, row, row, c.data.len() as u64 / row)
            .map_err(e)?;
        if surf {
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
    let op = dev
        .try_malloc((n * f[OUTW].max(1) as usize * 4) as u64, "out")
        .map_err(e)?;
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
