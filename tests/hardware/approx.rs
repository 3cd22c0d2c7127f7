//! Compares gpumemsim's per-lane float functions with results recorded on an H200, bit for bit:
//! - `tests/hw/h200/approx/<ptx name>.bin` (`tests/hw/approx/approx.cu`): the `.approx`
//!   instructions, `div.approx`/`div.full`, and exactly rounded instructions and NaN cases;
//! - `tests/hw/h200/mufu/sample/<ptx name>.bin.zst` (`tests/hw/mufu/mufu.cu`): 32,768 inputs of
//!   every special-function instruction (specials, random bits, moderate values, binade
//!   boundaries) with the H200's results;
//! - `tests/hw/h200/mufu/cuda_math.bin.zst`: the output of `tests/hw/kernels/cuda_math.toml`
//!   (ordinary CUDA math: expf, logf, sinf, powf, tanhf, atan2f, __expf, __fdividef, ...).
//!
//! The special-function results are the H200's own (src/exec/mufu.rs), so every comparison is
//! for equality, NaN bits included. The data is committed; a missing file fails the test.

use gpumemsim::exec::float::{FMode, Fmt};
use gpumemsim::exec::{cvt, float as fl};
use gpumemsim::ir::types::{Rounding, ScalarType};
use std::path::Path;

type F = fn(u64, u64, u64) -> u64;

fn m(r: Rounding) -> FMode {
    FMode::rnd(r)
}

fn table() -> Vec<(&'static str, F)> {
    use Rounding::*;
    vec![
        ("rcp.approx.f32", |a, _, _| {
            fl::rcp_approx_f32(a as u32, false) as u64
        }),
        ("rcp.approx.ftz.f32", |a, _, _| {
            fl::rcp_approx_f32(a as u32, true) as u64
        }),
        ("sqrt.approx.f32", |a, _, _| {
            fl::sqrt_approx_f32(a as u32, false) as u64
        }),
        ("sqrt.approx.ftz.f32", |a, _, _| {
            fl::sqrt_approx_f32(a as u32, true) as u64
        }),
        ("rsqrt.approx.f32", |a, _, _| {
            fl::rsqrt_approx_f32(a as u32, false) as u64
        }),
        ("rsqrt.approx.ftz.f32", |a, _, _| {
            fl::rsqrt_approx_f32(a as u32, true) as u64
        }),
        ("ex2.approx.f32", |a, _, _| {
            fl::ex2_approx_f32(a as u32, false) as u64
        }),
        ("ex2.approx.ftz.f32", |a, _, _| {
            fl::ex2_approx_f32(a as u32, true) as u64
        }),
        ("lg2.approx.f32", |a, _, _| {
            fl::lg2_approx_f32(a as u32, false) as u64
        }),
        ("lg2.approx.ftz.f32", |a, _, _| {
            fl::lg2_approx_f32(a as u32, true) as u64
        }),
        ("sin.approx.f32", |a, _, _| {
            fl::sin_approx_f32(a as u32, false) as u64
        }),
        ("sin.approx.ftz.f32", |a, _, _| {
            fl::sin_approx_f32(a as u32, true) as u64
        }),
        ("cos.approx.f32", |a, _, _| {
            fl::cos_approx_f32(a as u32, false) as u64
        }),
        ("cos.approx.ftz.f32", |a, _, _| {
            fl::cos_approx_f32(a as u32, true) as u64
        }),
        ("tanh.approx.f32", |a, _, _| {
            fl::tanh_approx_f32(a as u32) as u64
        }),
        ("div.approx.f32", |a, b, _| {
            fl::div_approx_f32(a as u32, b as u32, false) as u64
        }),
        ("div.approx.ftz.f32", |a, b, _| {
            fl::div_approx_f32(a as u32, b as u32, true) as u64
        }),
        ("div.full.f32", |a, b, _| {
            fl::div_full_f32(a as u32, b as u32, false) as u64
        }),
        ("div.full.ftz.f32", |a, b, _| {
            fl::div_full_f32(a as u32, b as u32, true) as u64
        }),
        ("rcp.approx.ftz.f64", |a, _, _| fl::rcp_approx_ftz_f64(a)),
        ("rsqrt.approx.f64", |a, _, _| fl::rsqrt_approx_f64(a, false)),
        ("rsqrt.approx.ftz.f64", |a, _, _| {
            fl::rsqrt_approx_f64(a, true)
        }),
        ("add.rz.f32", |a, b, _| {
            fl::add_f32(a as u32, b as u32, m(Rz)) as u64
        }),
        ("add.rm.f32", |a, b, _| {
            fl::add_f32(a as u32, b as u32, m(Rm)) as u64
        }),
        ("mul.rp.f32", |a, b, _| {
            fl::mul_f32(a as u32, b as u32, m(Rp)) as u64
        }),
        ("fma.rz.f32", |a, b, c| {
            fl::fma_f32(a as u32, b as u32, c as u32, m(Rz)) as u64
        }),
        ("fma.rm.ftz.f32", |a, b, c| {
            fl::fma_f32(
                a as u32,
                b as u32,
                c as u32,
                FMode {
                    rnd: Rm,
                    ftz: true,
                    sat: false,
                },
            ) as u64
        }),
        ("div.rz.f32", |a, b, _| {
            fl::div_f32(a as u32, b as u32, m(Rz)) as u64
        }),
        ("div.rp.f32", |a, b, _| {
            fl::div_f32(a as u32, b as u32, m(Rp)) as u64
        }),
        ("sqrt.rm.f32", |a, _, _| {
            fl::sqrt_f32(a as u32, m(Rm)) as u64
        }),
        ("rcp.rz.f32", |a, _, _| fl::rcp_f32(a as u32, m(Rz)) as u64),
        ("add.rn.f32", |a, b, _| {
            fl::add_f32(a as u32, b as u32, m(Rn)) as u64
        }),
        ("add.sat.f32", |a, b, _| {
            fl::add_f32(
                a as u32,
                b as u32,
                FMode {
                    sat: true,
                    ..FMode::RN
                },
            ) as u64
        }),
        ("add.rn.f64", |a, b, _| fl::add_f64(a, b, m(Rn))),
        ("add.rz.f64", |a, b, _| fl::add_f64(a, b, m(Rz))),
        ("fma.rp.f64", |a, b, c| fl::fma_f64(a, b, c, m(Rp))),
        ("div.rm.f64", |a, b, _| fl::div_f64(a, b, m(Rm))),
        ("sqrt.rz.f64", |a, _, _| fl::sqrt_f64(a, m(Rz))),
        ("mul.rn.f64", |a, b, _| fl::mul_f64(a, b, m(Rn))),
        ("abs.f32", |a, _, _| fl::abs_f32(a as u32, false) as u64),
        ("neg.f32", |a, _, _| fl::neg_f32(a as u32, false) as u64),
        ("min.f32", |a, b, _| {
            fl::fmin(Fmt::F32, a & 0xffff_ffff, b & 0xffff_ffff, false, false)
        }),
        ("max.NaN.f32", |a, b, _| {
            fl::fmax(Fmt::F32, a & 0xffff_ffff, b & 0xffff_ffff, false, true)
        }),
        ("cvt.rz.f16.f32", |a, _, _| {
            cv(a, ScalarType::F16, ScalarType::F32, Rz, false)
        }),
        ("cvt.rn.bf16.f32", |a, _, _| {
            cv(a, ScalarType::BF16, ScalarType::F32, Rn, false)
        }),
        ("cvt.f64.f32", |a, _, _| {
            cv(a, ScalarType::F64, ScalarType::F32, Rn, false)
        }),
        ("cvt.rn.f32.f64", |a, _, _| {
            cv(a, ScalarType::F32, ScalarType::F64, Rn, false)
        }),
        ("cvt.rni.s32.f32", |a, _, _| {
            cv(a, ScalarType::S32, ScalarType::F32, Rn, true)
        }),
        ("cvt.rna.tf32.f32", |a, _, _| {
            cv(a, ScalarType::TF32, ScalarType::F32, Rna, false)
        }),
        ("cvt.rp.f16.f64", |a, _, _| {
            cv(a, ScalarType::F16, ScalarType::F64, Rp, false)
        }),
    ]
}

fn cv(a: u64, dst: ScalarType, src: ScalarType, r: Rounding, int_rnd: bool) -> u64 {
    let a = if src == ScalarType::F64 {
        a
    } else {
        a & 0xffff_ffff
    };
    cvt::cvt(a, dst, src, Some(r), int_rnd, false, false)
}

fn read(path: &Path) -> Option<Vec<[u64; 4]>> {
    let bytes = std::fs::read(path).ok()?;
    if bytes.len() < 16 || &bytes[..8] != b"GMSAPX01" {
        return None;
    }
    let word = |i: usize| {
        let mut w = [0u8; 8];
        w.copy_from_slice(&bytes[i..i + 8]);
        u64::from_le_bytes(w)
    };
    let n = word(8) as usize;
    if bytes.len() < 16 + n * 32 {
        return None;
    }
    Some(
        (0..n)
            .map(|r| [0, 1, 2, 3].map(|k| word(16 + r * 32 + k * 8)))
            .collect(),
    )
}

#[test]
fn approx_and_exact_vs_h200() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hw/h200/approx");
    let mut failures = Vec::new();
    let mut compared = 0usize;
    for (name, func) in table() {
        let recs = read(&dir.join(format!("{name}.bin")))
            .unwrap_or_else(|| panic!("{name}: no data in {}", dir.display()));
        let mut bad = 0usize;
        let mut example = None;
        for [a, b, c, hw] in recs {
            let ours = func(a, b, c);
            compared += 1;
            if ours != hw {
                bad += 1;
                example.get_or_insert((a, b, c, ours, hw));
            }
        }
        if let Some((a, b, c, o, h)) = example {
            failures.push(format!(
                "{name}: a={a:#x} b={b:#x} c={c:#x} ours={o:#x} h200={h:#x} ({bad} differ)"
            ));
        }
    }
    assert!(compared >= 200_000, "only {compared} records compared");
    assert!(
        failures.is_empty(),
        "disagreements with the H200:\n{}",
        failures.join("\n")
    );
}

fn unzstd(path: &Path) -> Vec<u8> {
    let bytes = std::fs::read(path).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut dec = ruzstd::decoding::StreamingDecoder::new(&bytes[..])
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    let mut out = Vec::new();
    std::io::Read::read_to_end(&mut dec, &mut out)
        .unwrap_or_else(|e| panic!("{}: {e}", path.display()));
    out
}

/// The special-function instructions of the mufu samples: name, bytes per value, function.
fn mufu_ops() -> Vec<(&'static str, usize, F)> {
    use gpumemsim::exec::mufu;
    vec![
        ("rcp.approx.ftz.f32", 4, |a, _, _| {
            fl::rcp_approx_f32(a as u32, true) as u64
        }),
        ("rcp.approx.f32", 4, |a, _, _| {
            fl::rcp_approx_f32(a as u32, false) as u64
        }),
        ("rsqrt.approx.ftz.f32", 4, |a, _, _| {
            fl::rsqrt_approx_f32(a as u32, true) as u64
        }),
        ("rsqrt.approx.f32", 4, |a, _, _| {
            fl::rsqrt_approx_f32(a as u32, false) as u64
        }),
        ("sqrt.approx.ftz.f32", 4, |a, _, _| {
            fl::sqrt_approx_f32(a as u32, true) as u64
        }),
        ("sqrt.approx.f32", 4, |a, _, _| {
            fl::sqrt_approx_f32(a as u32, false) as u64
        }),
        ("ex2.approx.ftz.f32", 4, |a, _, _| {
            fl::ex2_approx_f32(a as u32, true) as u64
        }),
        ("ex2.approx.f32", 4, |a, _, _| {
            fl::ex2_approx_f32(a as u32, false) as u64
        }),
        ("lg2.approx.ftz.f32", 4, |a, _, _| {
            fl::lg2_approx_f32(a as u32, true) as u64
        }),
        ("lg2.approx.f32", 4, |a, _, _| {
            fl::lg2_approx_f32(a as u32, false) as u64
        }),
        ("sin.approx.ftz.f32", 4, |a, _, _| {
            fl::sin_approx_f32(a as u32, true) as u64
        }),
        ("sin.approx.f32", 4, |a, _, _| {
            fl::sin_approx_f32(a as u32, false) as u64
        }),
        ("cos.approx.ftz.f32", 4, |a, _, _| {
            fl::cos_approx_f32(a as u32, true) as u64
        }),
        ("cos.approx.f32", 4, |a, _, _| {
            fl::cos_approx_f32(a as u32, false) as u64
        }),
        ("tanh.approx.f32", 4, |a, _, _| {
            fl::tanh_approx_f32(a as u32) as u64
        }),
        ("rcp.approx.ftz.f64", 8, |a, _, _| fl::rcp_approx_ftz_f64(a)),
        ("rsqrt.approx.ftz.f64", 8, |a, _, _| {
            fl::rsqrt_approx_f64(a, true)
        }),
        ("rsqrt.approx.f64", 8, |a, _, _| {
            fl::rsqrt_approx_f64(a, false)
        }),
        ("ex2.approx.f16x2", 4, |a, _, _| {
            mufu::both_halves(a as u32, mufu::ex2_f16) as u64
        }),
        ("ex2.approx.ftz.bf16x2", 4, |a, _, _| {
            mufu::both_halves(a as u32, mufu::ex2_bf16) as u64
        }),
        ("tanh.approx.f16x2", 4, |a, _, _| {
            mufu::both_halves(a as u32, mufu::tanh_f16) as u64
        }),
        ("tanh.approx.bf16x2", 4, |a, _, _| {
            mufu::both_halves(a as u32, mufu::tanh_bf16) as u64
        }),
    ]
}

#[test]
fn mufu_samples_equal_the_h200s() {
    let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/hw/h200/mufu/sample");
    let mut failures = Vec::new();
    for (name, width, func) in mufu_ops() {
        let raw = unzstd(&dir.join(format!("{name}.bin.zst")));
        let word = |i: usize| {
            let mut w = [0u8; 8];
            w[..width].copy_from_slice(&raw[i * width..(i + 1) * width]);
            u64::from_le_bytes(w)
        };
        let n = raw.len() / (2 * width);
        assert_eq!(n, 32768, "{name}: {n} records");
        let mut bad = 0;
        let mut example = None;
        for r in 0..n {
            let (x, hw) = (word(2 * r), word(2 * r + 1));
            let ours = func(x, 0, 0);
            if ours != hw {
                bad += 1;
                example.get_or_insert((x, ours, hw));
            }
        }
        println!("{name:24} {n} records, {bad} differ");
        if let Some((x, o, h)) = example {
            failures.push(format!(
                "{name}: x={x:#x} ours={o:#x} h200={h:#x} ({bad} differ)"
            ));
        }
    }
    assert!(
        failures.is_empty(),
        "disagreements with the H200:\n{}",
        failures.join("\n")
    );
}

/// The 16-bit instructions reach the tables through instruction selection as the executor does.
#[test]
fn half_special_functions_select_the_h200_tables() {
    use gpumemsim::exec::{fsel, mufu};
    let cases: [(&str, &[&str], ScalarType, u64, u64); 4] = [
        ("ex2", &["approx"], ScalarType::F16, 0x3c00, 0x4000), // 2^1 = 2
        ("ex2", &["approx", "ftz"], ScalarType::BF16, 0x3f80, 0x4000),
        ("tanh", &["approx"], ScalarType::F16x2, 0x0000_3c00, 0),
        ("tanh", &["approx"], ScalarType::BF16x2, 0x3f80_0000, 0),
    ];
    for (op, mods, ty, x, want) in cases {
        let f = fsel::select(op, mods, ty).unwrap_or_else(|e| panic!("{op}: {e}"));
        let got = f(x, 0, 0, 0);
        let expect = match (op, ty) {
            ("tanh", ScalarType::F16x2) => mufu::both_halves(x as u32, mufu::tanh_f16) as u64,
            ("tanh", _) => mufu::both_halves(x as u32, mufu::tanh_bf16) as u64,
            _ => want,
        };
        assert_eq!(got, expect, "{op} {ty:?} of {x:#x}");
    }
    // tanh(1.0) in f16 is 0.7617 (0x3a18 correctly rounded; the unit's own value is recorded)
    let t = mufu::tanh_f16(0x3c00);
    assert!(
        (0x3a10..=0x3a20).contains(&t),
        "tanh.approx.f16(1.0) = {t:#x}"
    );
}

/// Every block of every embedded table decodes (lookups decode blocks on demand).
#[test]
fn every_table_decodes() {
    for t in gpumemsim::exec::mufu::table::ALL {
        assert!(!t.is_empty(), "{}", t.name());
        for i in (0..t.len()).step_by(1 << 16) {
            t.at(i);
        }
        t.at(t.len() - 1);
    }
}

/// The interpolator (`src/exec/mufu/interp.rs`, coefficients solved from the H200 tables) gives
/// every entry of every table it replaces: 92,274,688 H200 results.
#[test]
fn interpolator_equals_every_h200_table_entry() {
    use gpumemsim::exec::mufu::{interp, table};
    type Unit = fn(u32) -> u32;
    let cases: [(&table::Table, Unit); 12] = [
        (&table::RCP, interp::rcp),
        (&table::RSQ0, |m| interp::rsq(false, m)),
        (&table::RSQ1, |m| interp::rsq(true, m)),
        (&table::SQRT0, |m| interp::sqrt(false, m)),
        (&table::SQRT1, |m| interp::sqrt(true, m)),
        (&table::EX2P, interp::ex2p),
        (&table::EX2N, interp::ex2n),
        (&table::LG2U, interp::lg2u),
        (&table::LG2L, interp::lg2l),
        (&table::RCP64H, interp::rcp64h),
        (&table::RSQ64H0, |m| interp::rsq64h(false, m)),
        (&table::RSQ64H1, |m| interp::rsq64h(true, m)),
    ];
    for (t, unit) in cases {
        let mut bad = 0usize;
        for i in 0..t.len() {
            let (want, got) = (t.at(i), unit(i as u32));
            if want != got {
                if bad < 5 {
                    eprintln!(
                        "{} entry {i:#x}: H200 {want:#010x}, interpolator {got:#010x}",
                        t.name()
                    );
                }
                bad += 1;
            }
        }
        assert_eq!(bad, 0, "{}: {bad} of {} entries differ", t.name(), t.len());
    }
}

/// `MUFU.SIN`/`MUFU.COS` by the interpolator equal every entry of the sin/cos table that an H200
/// input produced: every index that `sin.approx`/`cos.approx` of some f32 reaches
/// (`tests/hw/mufu/sincos.c` built the table from these; the indices no input reaches hold its
/// reference stand-in, not H200 data).
#[test]
fn interpolator_equals_every_h200_sin_cos_result() {
    use gpumemsim::exec::mufu::{interp, table};
    const N: usize = 1 << 25;
    let mut reach = vec![0u64; N / 64];
    let k = f32::from_bits(0x3e22_f983) as f64; // ptxas's 1/(2 pi), FMUL.RZ
                                                // |x| below 2^-26 reaches index 0, above 2^27 only multiples of 2^25 (index 0 too)
    for xb in 0x3280_0000u32..0x4d00_0000 {
        let p = f32::from_bits(xb) as f64 * k; // exact
        let r = p as f32;
        let y = if r as f64 > p {
            r.to_bits() - 1
        } else {
            r.to_bits()
        };
        let (e, big_m) = ((y >> 23) & 0xff, (1u64 << 23) | (y & 0x7f_ffff) as u64);
        let sh = e as i32 - 150 + 25;
        let q = if sh >= 0 { big_m << sh } else { big_m >> -sh };
        let i = (q & (N as u64 - 1)) as usize;
        let j = (i + N / 4) & (N - 1); // cos of index i reads entry i + 2^23
        reach[i / 64] |= 1 << (i % 64);
        reach[j / 64] |= 1 << (j % 64);
    }
    reach[0] |= 1;
    let (mut n, mut bad) = (0usize, 0usize);
    for i in 0..N {
        if reach[i / 64] >> (i % 64) & 1 == 0 {
            continue;
        }
        n += 1;
        let (want, got) = (table::SINCOS.at(i), interp::sincos(i as u32));
        if want != got {
            if bad < 5 {
                eprintln!("sincos entry {i:#x}: H200 {want:#010x}, interpolator {got:#010x}");
            }
            bad += 1;
        }
    }
    assert!(n > 28_000_000, "only {n} reachable indices");
    assert_eq!(bad, 0, "{bad} of {n} reached sin/cos entries differ");
}

/// Ordinary CUDA math (tests/hw/kernels/cuda_math.cu) gives the H200's output bit for bit.
#[test]
fn cuda_math_equals_the_h200s() {
    use gpumemsim::run::{run_spec, RunOptions};
    use gpumemsim::spec::Spec;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(
        root.join("tests/hw/kernels/cuda_math.toml")
            .to_str()
            .unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    // Both instruction sets: the PTX's `.approx` instructions and the SASS's `MUFU` (with the
    // division and square-root subroutines ptxas emits around them) must give the H200's bits.
    let hw = unzstd(&root.join("tests/hw/h200/mufu/cuda_math.bin.zst"));
    let mut failures = Vec::new();
    for isa in [gpumemsim::run::Isa::Ptx, gpumemsim::run::Isa::Sass] {
        let opts = RunOptions {
            write_outputs: false,
            isa,
            ..RunOptions::default()
        };
        let report = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
        let ours = &report.outputs[0].2;
        assert_eq!(ours.len(), hw.len());
        const NAMES: [&str; 42] = [
            "x",
            "y",
            "expf",
            "exp2f",
            "exp10f",
            "expm1f",
            "logf",
            "log2f",
            "log10f",
            "log1pf",
            "sinf",
            "cosf",
            "tanf",
            "powf",
            "powf(|x|,0.5)",
            "tanhf",
            "atan2f",
            "atanf",
            "sqrtf",
            "rsqrtf",
            "cbrtf",
            "erff",
            "sinhf",
            "coshf",
            "__expf",
            "__exp10f",
            "__sinf",
            "__cosf",
            "__tanf",
            "__fdividef",
            "__logf",
            "__log2f",
            "__log10f",
            "__powf",
            "__frcp_rn",
            "__fsqrt_rn",
            "__frsqrt_rn",
            "x/y",
            "__sincosf.s",
            "__sincosf.c",
            "sincosf.s",
            "sincosf.c",
        ];
        let n = 16384;
        let word = |b: &[u8], i: usize| {
            u32::from_le_bytes([b[4 * i], b[4 * i + 1], b[4 * i + 2], b[4 * i + 3]])
        };
        for (k, name) in NAMES.iter().enumerate() {
            let col = |b: &[u8], g: usize| word(b, k * n + g);
            let bad: Vec<usize> = (0..n).filter(|&g| col(ours, g) != col(&hw, g)).collect();
            if let Some(&g) = bad.first() {
                failures.push(format!(
                "{isa:?} {name}: {} of {n} differ, e.g. thread {g}: x={:#010x} y={:#010x} ours={:#010x} h200={:#010x}",
                bad.len(),
                word(&hw, g),
                word(&hw, n + g),
                col(ours, g),
                col(&hw, g)
            ));
            }
        }
    }
    assert!(
        failures.is_empty(),
        "CUDA math differs from the H200:\n{}",
        failures.join("\n")
    );
}

/// The 16-bit `ex2`/`tanh` instructions and `tanh.approx.f32` through the PTX front end
/// (tests/hw/kernels/half_sfu.toml): every 16-bit input gives the entry of the H200's exhaustive
/// table, the x2 forms give the table entry of each half (the H200 run checked that over all
/// 2^32 pairs), `tanh.approx.f32` gives the model checked on the H200 over every input. Under
/// both ISAs: the PTX instructions, and the committed SASS ptxas 13.0 makes of them
/// (`MUFU.EX2.F16`/`.BF16`, `MUFU.TANH.F16`/`.BF16` on `R` and `R.H1`, `MUFU.TANH`).
#[test]
fn half_special_functions_equal_the_h200_tables_as_ptx_and_as_sass() {
    for isa in [gpumemsim::run::Isa::Ptx, gpumemsim::run::Isa::Sass] {
        half_special_functions(isa);
    }
}

fn half_special_functions(isa: gpumemsim::run::Isa) {
    use gpumemsim::exec::mufu::{self, table};
    use gpumemsim::run::{run_spec, RunOptions};
    use gpumemsim::spec::Spec;
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let spec = Spec::load(
        root.join("tests/hw/kernels/half_sfu.toml")
            .to_str()
            .unwrap(),
    )
    .unwrap_or_else(|e| panic!("{e}"));
    let opts = RunOptions {
        write_outputs: false,
        isa,
        ..RunOptions::default()
    };
    let report = run_spec(&spec, &opts, &mut |_, _, _| {}).unwrap_or_else(|e| panic!("{e}"));
    let want_isa = if isa == gpumemsim::run::Isa::Sass {
        "sass"
    } else {
        "ptx"
    };
    assert_eq!(report.isa, want_isa, "{}", report.isa_reason);
    let out = &report.outputs[0].2;
    let n = 65536usize;
    let word =
        |i: usize| u32::from_le_bytes([out[4 * i], out[4 * i + 1], out[4 * i + 2], out[4 * i + 3]]);
    // the kernel copies its input words a[g] (random:21) into row 9
    let a: Vec<u32> = (0..n).map(|g| word(9 * n + g)).collect();
    assert!(
        a.iter().filter(|&&w| w != 0).count() > n / 2,
        "inputs not random"
    );
    let tabs = [
        &table::EX2_F16,
        &table::EX2_BF16,
        &table::TANH_F16,
        &table::TANH_BF16,
    ];
    let mut bad = Vec::new();
    for (g, &w) in a.iter().enumerate() {
        for (k, t) in tabs.iter().enumerate() {
            if word(k * n + g) != t.at(g) {
                bad.push(format!(
                    "{} of {g:#06x}: {:#x} vs {:#x}",
                    t.name(),
                    word(k * n + g),
                    t.at(g)
                ));
            }
            let want = t.at((w & 0xffff) as usize) | t.at((w >> 16) as usize) << 16;
            if word((4 + k) * n + g) != want {
                bad.push(format!(
                    "{}x2 of {w:#010x}: {:#x} vs {want:#x}",
                    t.name(),
                    word((4 + k) * n + g)
                ));
            }
        }
        if word(8 * n + g) != mufu::tanh(w) {
            bad.push(format!("tanh.approx.f32 of {w:#x}"));
        }
    }
    assert!(
        bad.is_empty(),
        "{isa:?}: {} differ, e.g. {}",
        bad.len(),
        bad[..bad.len().min(5)].join("; ")
    );
}
