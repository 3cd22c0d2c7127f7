//! `FCHK` (`gpumemsim::exec::sass_alu::fchk`, the guard of `div.rn.f32`'s slow path) against
//! the H200.
//!
//! Data: tests/hw/h200/fchk/ (tests/hw/fchk/fchk_collect.sh on the H200, 2026-12-02; the raw
//! recording is fchk.tar.gz, versions.txt gives driver, nvcc and ncu). tests/hw/fchk/fchk_probe.cu
//! divides 1,048,576 pairs `a / b`: every exponent pair (256 x 256) x 16 mantissa pairs, signs
//! from a hash of the index ([`pair`] is its generator). tests/hw/fchk/fchk_analyze.py made the
//! two compact forms read here from that recording:
//! - `calls.csv`: per launch of 131,072 consecutive pairs (8 launches), the thread count of the
//!   slow path's `CALL.REL.NOINC __cuda_sm3x_div_rn_noftz_f32_slowpath` on Nsight Compute's
//!   Source page (count_0K.csv): how many pairs of the chunk took the slow path, exactly.
//! - `fast.bin.zst`: one bit per pair (pair i: bit i % 8 of byte i / 8), set where `%clock64`
//!   around the division read under 130 cycles (min of 3). The fast path's mode is 58 cycles;
//!   no pair that took the slow path can run in under 130 (its shortest runs take about 180), while
//!   noise (other warps) only adds cycles, so a set bit means the fast path and a clear one
//!   says nothing.
//!
//! The two checks need each other: the counts alone do not tell this rule from one whose `eb`
//! and `ea - eb` bounds are shifted by one together (the rule before 2026-12-02, `3 <= eb <=
//! 252`, `-125 <= ea - eb <= 125`, `ea <= 252`, gives the same counts in chunks 0-6); the
//! timing does (all 1,664 pairs with `eb = 2` and `25 <= ea <= 128` ran under 130 cycles).

use gpumemsim::exec::sass_alu::fchk;

const DIR: &str = "tests/hw/h200/fchk";
const N: u32 = 1 << 20;
const CHUNK: u32 = N / 8;
const MANT: [u32; 4] = [0x000000, 0x400000, 0x7fffff, 0x000001];

/// fchk_probe.cu's `hash`.
fn hash(mut x: u32) -> u32 {
    x ^= x >> 16;
    x = x.wrapping_mul(0x7feb352d);
    x ^= x >> 15;
    x = x.wrapping_mul(0x846ca68b);
    x ^= x >> 16;
    x
}

/// fchk_probe.cu's `pair`: the operands of pair `i`.
fn pair(i: u32) -> (u32, u32) {
    let (ea, eb) = ((i >> 12) & 255, (i >> 4) & 255);
    let h = hash(i);
    let a = ((h & 1) << 31) | (ea << 23) | MANT[((i >> 2) & 3) as usize];
    let b = ((h & 2) << 30) | (eb << 23) | MANT[(i & 3) as usize];
    (a, b)
}

/// Every chunk: the pairs `fchk` sends down the slow path are exactly as many as the Source
/// page's CALL thread count.
#[test]
fn slow_path_counts_equal_the_source_page() {
    let p = format!("{DIR}/calls.csv");
    let text = std::fs::read_to_string(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let calls: Vec<u32> = text
        .lines()
        .skip(1)
        .map(|l| {
            let (_, n) = l.split_once(',').unwrap_or_else(|| panic!("{p}: {l}"));
            n.parse().unwrap_or_else(|e| panic!("{p}: {l}: {e}"))
        })
        .collect();
    assert_eq!(calls.len(), 8, "{p}: 8 chunks");
    let sim: Vec<u32> = (0..8)
        .map(|k| {
            (k * CHUNK..(k + 1) * CHUNK)
                .filter(|&i| {
                    let (a, b) = pair(i);
                    fchk(a, b)
                })
                .count() as u32
        })
        .collect();
    assert_eq!(sim, calls, "slow-path threads per chunk: simulator vs H200");
}

/// Every pair the H200 divided in under 130 cycles (the fast path) is one `fchk` passes.
#[test]
fn pairs_timed_fast_pass_fchk() {
    let p = format!("{DIR}/fast.bin.zst");
    let z = std::fs::read(&p).unwrap_or_else(|e| panic!("{p}: {e}"));
    let mut dec =
        ruzstd::decoding::StreamingDecoder::new(&z[..]).unwrap_or_else(|e| panic!("{p}: {e}"));
    let mut bits = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut bits).unwrap_or_else(|e| panic!("{p}: {e}"));
    assert_eq!(bits.len(), (N / 8) as usize, "{p}: one bit per pair");
    let mut fast = 0;
    let mut wrong = Vec::new();
    for i in 0..N {
        if bits[(i >> 3) as usize] >> (i & 7) & 1 == 1 {
            fast += 1;
            let (a, b) = pair(i);
            if fchk(a, b) {
                wrong.push(format!("{a:08x} / {b:08x}"));
            }
        }
    }
    // fchk_analyze.py on this recording: 698,710 pairs under 130 cycles.
    assert!(fast > 600_000, "{p}: only {fast} pairs timed fast");
    assert!(
        wrong.is_empty(),
        "{} pairs the H200 divided on the fast path, fchk sends to the slow one: {}",
        wrong.len(),
        wrong[..wrong.len().min(20)].join(", ")
    );
}
