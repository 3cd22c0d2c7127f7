//! The block-linear layout of CUDA arrays (`gpumemsim::mem::texture::layout`) against the raw
//! bytes of arrays on the H200.
//!
//! Hardware data (tests/hw/h200/texture_mem/, made by tests/hw/texture_mem/layout.cu; commands
//! and versions in tests/hw/README.md): `layout/maps.bin` and `run2/layout/maps.bin` hold, per
//! array, the raw offset of every 16-byte chunk of every row (row-major, x fastest), as read
//! back from memory that is mapped both as the array and as a buffer; `layout.txt` names every
//! array that was read (`MAP` lines) with the block height and depth that fitted all its chunks,
//! for the arrays too large to keep whole.

use std::path::Path;

use gpumemsim::mem::texture::layout::BlockLinear;

struct Map {
    width: u32,
    height: u32,
    depth: u32,
    texel_bytes: u32,
    chunks: Vec<u32>,
}

fn read_maps(path: &Path) -> Vec<Map> {
    let b = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let word = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let mut out = Vec::new();
    let mut i = 0;
    while i < b.len() {
        assert_eq!(
            word(i),
            0x4d4c_4247,
            "{}: bad record at byte {i}",
            path.display()
        );
        let (w, h, d, e, n) = (
            word(i + 8),
            word(i + 12),
            word(i + 16),
            word(i + 20),
            word(i + 24) as usize,
        );
        i += 32;
        let chunks = (0..n).map(|k| word(i + 4 * k)).collect();
        i += 4 * n;
        out.push(Map {
            width: w,
            height: h,
            depth: d,
            texel_bytes: e,
            chunks,
        });
    }
    out
}

fn dims(h: u32, d: u32) -> u32 {
    if d > 0 {
        3
    } else if h > 0 {
        2
    } else {
        1
    }
}

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

#[test]
fn every_recorded_array_is_laid_out_as_the_model_says() {
    let mut arrays = 0;
    let mut chunks = 0;
    for f in [
        "tests/hw/h200/texture_mem/layout/maps.bin",
        "tests/hw/h200/texture_mem/run2/layout/maps.bin",
    ] {
        for m in read_maps(&root().join(f)) {
            let extent = [m.width, m.height, m.depth];
            let l = BlockLinear::for_array(m.texel_bytes, extent, dims(m.height, m.depth));
            let row_chunks = (u64::from(m.width) * u64::from(m.texel_bytes)).div_ceil(16);
            let (hh, dd) = (m.height.max(1), m.depth.max(1));
            assert_eq!(m.chunks.len() as u64, row_chunks * u64::from(hh * dd));
            let mut k = 0;
            for z in 0..dd {
                for y in 0..hh {
                    for c in 0..row_chunks {
                        let want = u64::from(m.chunks[k]);
                        let got = l.offset(c * 16, y, z);
                        assert_eq!(
                            got,
                            want,
                            "{f}: {}x{}x{} array of {}-byte texels, byte {} of row {y} of \
                             slice {z}",
                            m.width,
                            m.height,
                            m.depth,
                            m.texel_bytes,
                            c * 16
                        );
                        k += 1;
                    }
                }
            }
            arrays += 1;
            chunks += k;
        }
    }
    // The two recordings keep 23 and 809 whole maps (the others only as fits: next test).
    assert_eq!(arrays, 832);
    assert!(chunks > 100_000);
}

/// `MAP` lines: every array read, with the block height and depth that fitted every chunk.
#[test]
fn arrays_too_large_to_keep_fit_the_same_layout() {
    let mut checked = 0;
    for f in [
        "tests/hw/h200/texture_mem/layout/layout.txt",
        "tests/hw/h200/texture_mem/run2/layout/layout.txt",
    ] {
        let text = std::fs::read_to_string(root().join(f)).expect("layout.txt");
        let second = f.contains("run2");
        for line in text.lines().filter(|l| l.starts_with("MAP ")) {
            let field = |k: &str| -> u64 {
                line.split_whitespace()
                    .find_map(|t| t.strip_prefix(k)?.strip_prefix('='))
                    .and_then(|v| v.parse().ok())
                    .unwrap_or_else(|| panic!("{f}: no {k} in {line}"))
            };
            // The first recording's fitter used a wrong GOB swizzle (every fit is off by half
            // its chunks), so only its arrays with whole maps (previous test) count; the second's
            // fits are exact.
            if !second {
                continue;
            }
            assert_eq!(field("fit_bad_chunks"), 0, "{line}");
            let (w, h, d, e) = (field("w"), field("h"), field("d"), field("E"));
            let extent = [w as u32, h as u32, d as u32];
            let ours = BlockLinear::for_array(e as u32, extent, dims(h as u32, d as u32));
            let fitted = BlockLinear::with_blocks(
                e as u32,
                extent,
                field("fit_bh") as u32,
                field("fit_bd") as u32,
            );
            // Where the fitter's choice and ours differ the offsets must still agree (an array
            // one GOB wide has the same offsets for every block height).
            let row = w * e;
            for z in 0..d.max(1) as u32 {
                for y in 0..h.max(1) as u32 {
                    for x in (0..row).step_by(16) {
                        assert_eq!(
                            ours.offset(x, y, z),
                            fitted.offset(x, y, z),
                            "{line}: byte {x} of row {y} of slice {z}"
                        );
                    }
                }
            }
            checked += 1;
        }
    }
    assert_eq!(checked, 986);
}
