//! Special functions, per call, in one run: the executor's instructions (`src/exec/mufu`, the
//! unit computed by its interpolator) against the approximations used before issue 11 (the
//! correctly rounded libm value, as `src/exec/float.rs` computed it then, the parent of commit
//! 7d5515f: `round64_to_f32(1.0 / f32in(a, ftz), ftz)` etc., here its non-`.ftz` form, where
//! `f32in` is the plain f64 of the input and `round64_to_f32` rounds to nearest with NaN
//! canonical, [`old_round`]), and the unit's binade results computed
//! (`mufu::interp`) against looked up in the exhaustive H200 tables (`mufu::table`, what the
//! executor read before). Two input patterns: `seq`, consecutive f32 bit patterns, and `scat`,
//! pseudo-random values over a realistic range. The fastest of `REPS` passes counts. Also the
//! first-use cost of each table (decoding it). Run with `cargo bench --bench mufu`.

use std::hint::black_box;
use std::time::Instant;

use gpumemsim::exec::float as fl;
use gpumemsim::exec::mufu::{interp, table};

const N: usize = 1 << 20;
/// Inputs of a `one` pass.
const N_ONE: usize = 1 << 16;
const REPS: usize = 5;

#[inline]
fn old_round(x: f64) -> u32 {
    if x.is_nan() {
        0x7fff_ffff
    } else {
        (x as f32).to_bits()
    }
}

#[inline]
fn f(a: u32) -> f64 {
    f32::from_bits(a) as f64
}

type Op = fn(u32) -> u32;

struct Case {
    name: &'static str,
    old: Op,
    new: Op,
    range: (f32, f32),
    seq0: f32,
    /// The unit's binade result: from the table, from the interpolator (index in, bits out).
    table: &'static table::Table,
    unit: Op,
}

fn cases() -> Vec<Case> {
    vec![
        Case {
            name: "rcp",
            old: |a| old_round(1.0 / f(a)),
            new: |a| fl::rcp_approx_f32(a, false),
            range: (0.001, 1000.0),
            seq0: 1.0,
            table: &table::RCP,
            unit: interp::rcp,
        },
        Case {
            name: "sqrt",
            old: |a| old_round(f(a).sqrt()),
            new: |a| fl::sqrt_approx_f32(a, false),
            range: (0.001, 1000.0),
            seq0: 1.0,
            table: &table::SQRT0,
            unit: |m| interp::sqrt(false, m),
        },
        Case {
            name: "rsqrt",
            old: |a| old_round(1.0 / f(a).sqrt()),
            new: |a| fl::rsqrt_approx_f32(a, false),
            range: (0.001, 1000.0),
            seq0: 1.0,
            table: &table::RSQ0,
            unit: |m| interp::rsq(false, m),
        },
        Case {
            name: "ex2",
            old: |a| old_round(f(a).exp2()),
            new: |a| fl::ex2_approx_f32(a, false),
            range: (-20.0, 20.0),
            seq0: 0.5,
            table: &table::EX2P,
            unit: interp::ex2p,
        },
        Case {
            name: "lg2",
            old: |a| old_round(f(a).log2()),
            new: |a| fl::lg2_approx_f32(a, false),
            range: (0.001, 1000.0),
            seq0: 1.5,
            table: &table::LG2U,
            unit: interp::lg2u,
        },
        Case {
            name: "sin",
            old: |a| old_round(f(a).sin()),
            new: |a| fl::sin_approx_f32(a, false),
            range: (-100.0, 100.0),
            seq0: 0.5,
            table: &table::SINCOS,
            unit: interp::sincos,
        },
        Case {
            name: "cos",
            old: |a| old_round(f(a).cos()),
            new: |a| fl::cos_approx_f32(a, false),
            range: (-100.0, 100.0),
            seq0: 0.5,
            table: &table::SINCOS,
            unit: interp::sincos,
        },
    ]
}

fn ns(op: &dyn Fn(u32) -> u32, inputs: &[u32]) -> f64 {
    let mut best = f64::MAX;
    for _ in 0..REPS {
        let t = Instant::now();
        let mut acc = 0u32;
        for &a in inputs {
            acc ^= op(black_box(a));
        }
        black_box(acc);
        best = best.min(t.elapsed().as_secs_f64() * 1e9 / inputs.len() as f64);
    }
    best
}

fn main() {
    // `cargo bench --bench mufu -- one CASE VARIANT PATTERN`: one pass of one variant (old,
    // new, table, interp, none, or decode: none after decoding the table), for instruction counts under callgrind.
    let args: Vec<String> = std::env::args().collect();
    let one = args.iter().position(|a| a == "one").map(|i| &args[i + 1..]);
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    println!("ns per call; instruction: old libm approximation vs the executor now;");
    println!("unit: the binade result looked up in the H200 table vs computed by the interpolator");
    println!(
        "function  table decode s | instr seq: old   new | scat: old   new | unit seq: table interp | scat: table interp"
    );
    let n = if one.is_some() { N_ONE } else { N };
    for c in cases() {
        let t = Instant::now();
        if one.is_none() {
            black_box(c.table.at(0));
        }
        let decode = t.elapsed().as_secs_f64();
        let seq: Vec<u32> = (0..n as u32).map(|k| c.seq0.to_bits() + k).collect();
        let (lo, hi) = c.range;
        let scat: Vec<u32> = (0..n)
            .map(|_| {
                let u = (next() >> 11) as f64 / (1u64 << 53) as f64;
                let v = if lo > 0.0 {
                    (lo as f64 * ((hi / lo) as f64).powf(u)) as f32
                } else {
                    (lo as f64 + (hi - lo) as f64 * u) as f32
                };
                v.to_bits()
            })
            .collect();
        let len = c.table.len() as u32;
        let useq: Vec<u32> = (0..n as u32).map(|k| k % len).collect();
        let uscat: Vec<u32> = (0..n).map(|_| (next() % len as u64) as u32).collect();
        let tab = |i: u32| c.table.at(i as usize);
        if let Some([name, variant, pattern, ..]) = one {
            if name != c.name {
                continue;
            }
            let inputs = match (variant.as_str(), pattern.as_str()) {
                ("old" | "new" | "none" | "decode", "seq") => &seq,
                ("old" | "new" | "none" | "decode", _) => &scat,
                (_, "seq") => &useq,
                _ => &uscat,
            };
            if variant == "table" || variant == "decode" {
                c.table.at(0); // decoded before the pass, like the timed runs
            }
            let op: &dyn Fn(u32) -> u32 = match variant.as_str() {
                "old" => &c.old,
                "new" => &c.new,
                "table" => &tab,
                "interp" => &c.unit,
                _ => &|a| a,
            };
            let mut acc = 0u32;
            for &a in inputs.iter() {
                acc ^= op(black_box(a));
            }
            println!("{} {variant} {pattern}: {acc:#x}", c.name);
            return;
        }
        println!(
            "{:8}  {:14.3} | {:9.1} {:5.1} | {:9.1} {:5.1} | {:14.1} {:6.1} | {:11.1} {:6.1}",
            c.name,
            decode,
            ns(&c.old, &seq),
            ns(&c.new, &seq),
            ns(&c.old, &scat),
            ns(&c.new, &scat),
            ns(&tab, &useq),
            ns(&c.unit, &useq),
            ns(&tab, &uscat),
            ns(&c.unit, &uscat),
        );
    }
}
