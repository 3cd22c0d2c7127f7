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
//!
//! `cargo bench --bench mufu -- warp` measures at the warp level, as the executors apply an
//! instruction: per warp instruction of 32 lanes, the old approximation and the new lane
//! function each called per lane through a function pointer (how both executors applied them:
//! PTX `LaneFn`, SASS `Lane3`), the old approximation inlined in the lane loop (where the
//! compiler may vectorise it: a stricter baseline than the executor ever had), and the new
//! warp form (PTX `WarpFn` from `fsel::select_warp`, SASS `Warp3` from the decoder's
//! `MUFU` arms) through a function pointer, each operand handed over as the executor hands it
//! (PTX: the `u64` register in place; SASS: its low words copied to a `[u32; 32]` just before
//! the call; see `warp_pass`). `warp one ISA CASE VARIANT` runs one pass for callgrind.

use std::hint::black_box;
use std::time::Instant;

use gpumemsim::exec::float as fl;
use gpumemsim::exec::mufu::{interp, table};
use gpumemsim::exec::{fsel, sass_alu};
use gpumemsim::ir::types::ScalarType;
use gpumemsim::ir::{LaneFn, WarpFn};

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

/// Warps of `WARP_N` inputs for the warp-level measurement.
const WARP_N: usize = 1 << 15;

type Lane3 = fn(u32, u32, u32, u32) -> u32;
type Warp3 = fn(&[u32; 32], &[u32; 32], &[u32; 32], &mut [u32; 32]);

/// One function at the warp level: its PTX instruction, its SASS `MUFU` op, the old code.
struct WCase {
    name: &'static str,
    opcode: &'static str,
    mods: &'static [&'static str],
    mufu: (Lane3, Warp3),
    old: Op,
}

fn wcases() -> Vec<WCase> {
    let cs = cases();
    let old = |n: &str| cs.iter().find(|c| c.name == n).map(|c| c.old).unwrap();
    vec![
        WCase {
            name: "rcp",
            opcode: "rcp",
            mods: &["approx"],
            mufu: (sass_alu::mufu_rcp, sass_alu::mufu_rcp_warp),
            old: old("rcp"),
        },
        WCase {
            name: "sqrt",
            opcode: "sqrt",
            mods: &["approx"],
            mufu: (sass_alu::mufu_sqrt, sass_alu::mufu_sqrt_warp),
            old: old("sqrt"),
        },
        WCase {
            name: "rsqrt",
            opcode: "rsqrt",
            mods: &["approx"],
            mufu: (sass_alu::mufu_rsq, sass_alu::mufu_rsq_warp),
            old: old("rsqrt"),
        },
        WCase {
            name: "ex2",
            opcode: "ex2",
            mods: &["approx"],
            mufu: (sass_alu::mufu_ex2, sass_alu::mufu_ex2_warp),
            old: old("ex2"),
        },
        WCase {
            name: "lg2",
            opcode: "lg2",
            mods: &["approx"],
            mufu: (sass_alu::mufu_lg2, sass_alu::mufu_lg2_warp),
            old: old("lg2"),
        },
        WCase {
            name: "sin",
            opcode: "sin",
            mods: &["approx"],
            mufu: (sass_alu::mufu_sin, sass_alu::mufu_sin_warp),
            old: old("sin"),
        },
        WCase {
            name: "cos",
            opcode: "cos",
            mods: &["approx"],
            mufu: (sass_alu::mufu_cos, sass_alu::mufu_cos_warp),
            old: old("cos"),
        },
    ]
}

/// The variants of one warp-level case, each a pass over `regs` (whole warps, one register
/// each, held as both executors hold registers: 32 `u64` lanes, the f32 in the low word)
/// returning a checksum: `old` (per lane through a pointer), `oldv` (inlined), `new` (per
/// lane through a pointer), `warp` (the warp form through a pointer), `none` (the loop
/// alone), `warpx` (the warp form, lanes handed over otherwise, below). The operand reaches
/// the function as each executor hands it over: PTX (`simt.rs`, `Op::Alu`) passes the
/// register's `u64` lanes in place; SASS (`simt/sass.rs`, `SOp::Alu`/`SOp::AluW`) first copies
/// the register's low words into a `[u32; 32]` (`vals`), right before the call. `warpx`:
/// PTX with the `u64` lanes written just before the call (an operand stored by the preceding
/// instruction; a wide vector load of lanes stored narrower just before cannot be
/// store-forwarded), SASS with the `u32` lanes ready (no copy: the best case).
fn warp_pass(c: &WCase, isa: &str, variant: &str, regs: &[[u64; 32]]) -> u64 {
    let mut acc = 0u64;
    let mut out32 = [0u32; 32];
    let mut out64 = [0u64; 32];
    let z = [0u32; 32];
    // The SASS executor's operand copy (`vals`).
    let vals = |r: &[u64; 32]| -> [u32; 32] { std::array::from_fn(|l| r[l] as u32) };
    match (isa, variant) {
        ("ptx", "old" | "oldv") => {
            let f: Op = if variant == "old" {
                black_box(c.old)
            } else {
                c.old
            };
            for r in regs {
                for l in 0..32 {
                    out64[l] = f(r[l] as u32) as u64;
                }
                acc ^= black_box(&out64)[(acc & 31) as usize];
            }
        }
        ("sass", "old" | "oldv") => {
            let f: Op = if variant == "old" {
                black_box(c.old)
            } else {
                c.old
            };
            for r in regs {
                let b = vals(r);
                for l in 0..32 {
                    out32[l] = f(b[l]);
                }
                acc ^= black_box(&out32)[(acc & 31) as usize] as u64;
            }
        }
        ("ptx", "new") => {
            let f: LaneFn = black_box(fsel::select(c.opcode, c.mods, ScalarType::F32).unwrap());
            for r in regs {
                for l in 0..32 {
                    out64[l] = f(r[l], 0, 0, 0);
                }
                acc ^= black_box(&out64)[(acc & 31) as usize];
            }
        }
        ("ptx", "warp") => {
            let f: WarpFn =
                black_box(fsel::select_warp(c.opcode, c.mods, ScalarType::F32).unwrap());
            for r in regs {
                f(r, &mut out64);
                acc ^= black_box(&out64)[(acc & 31) as usize];
            }
        }
        ("ptx", "warpx") => {
            let f: WarpFn =
                black_box(fsel::select_warp(c.opcode, c.mods, ScalarType::F32).unwrap());
            for r in regs {
                let a64: [u64; 32] = std::array::from_fn(|l| black_box(r[l] as u32) as u64);
                f(&a64, &mut out64);
                acc ^= black_box(&out64)[(acc & 31) as usize];
            }
        }
        ("ptx", _) => {
            for r in regs {
                acc ^= black_box(r)[(acc & 31) as usize];
            }
        }
        ("sass", "new") => {
            let f: Lane3 = black_box(c.mufu.0);
            for r in regs {
                let b = vals(r);
                for l in 0..32 {
                    out32[l] = f(0, b[l], 0, 0);
                }
                acc ^= black_box(&out32)[(acc & 31) as usize] as u64;
            }
        }
        ("sass", "warp") => {
            let f: Warp3 = black_box(c.mufu.1);
            for r in regs {
                let b = vals(r);
                f(&z, &b, &z, &mut out32);
                acc ^= black_box(&out32)[(acc & 31) as usize] as u64;
            }
        }
        ("sass", "warpx") => {
            let f: Warp3 = black_box(c.mufu.1);
            let ready: Vec<[u32; 32]> = regs.iter().map(vals).collect();
            let t = Instant::now();
            for b in &ready {
                f(&z, b, &z, &mut out32);
                acc ^= black_box(&out32)[(acc & 31) as usize] as u64;
            }
            // Only the calls count (the caller times the whole pass): see `WARPX_NS`.
            WARPX_NS.with(|c| c.set(t.elapsed().as_secs_f64() * 1e9));
        }
        _ => {
            for r in regs {
                let b = vals(r);
                acc ^= black_box(&b)[(acc & 31) as usize] as u64;
            }
        }
    }
    acc
}

thread_local! {
    /// The time of the calls alone in the last SASS `warpx` pass (its setup not counted).
    static WARPX_NS: std::cell::Cell<f64> = const { std::cell::Cell::new(0.0) };
}

/// The inputs of a warp-level case: `WARP_N` scattered values of the case's range, 32 a warp.
/// An input in [lo, hi) from 64 random bits: log-uniform for a positive range, uniform otherwise.
fn scattered(lo: f32, hi: f32, bits: u64) -> u32 {
    let u = (bits >> 11) as f64 / (1u64 << 53) as f64;
    let v = if lo > 0.0 {
        (lo as f64 * ((hi / lo) as f64).powf(u)) as f32
    } else {
        (lo as f64 + (hi - lo) as f64 * u) as f32
    };
    v.to_bits()
}

fn warp_inputs(c: &WCase, next: &mut impl FnMut() -> u64) -> Vec<[u64; 32]> {
    let range = cases()
        .into_iter()
        .find(|k| k.name == c.name)
        .map(|k| k.range)
        .unwrap();
    let (lo, hi) = range;
    (0..WARP_N / 32)
        .map(|_| std::array::from_fn(|_| scattered(lo, hi, next()) as u64))
        .collect()
}

fn warp_main(args: &[String]) {
    let mut rng = 0x9e37_79b9_7f4a_7c15u64;
    let mut next = move || {
        rng ^= rng << 13;
        rng ^= rng >> 7;
        rng ^= rng << 17;
        rng
    };
    if let [_, one, isa, name, variant, ..] = args {
        assert_eq!(one, "one", "usage: warp [one ISA CASE VARIANT]");
        for c in wcases() {
            let inputs = warp_inputs(&c, &mut next);
            if c.name == name {
                let acc = warp_pass(&c, isa, variant, &inputs);
                let lv = gpumemsim::exec::mufu::warp::level();
                println!("{isa} {name} {variant} ({lv:?}): {acc:#x}");
            }
        }
        return;
    }
    const WREPS: usize = 15;
    println!(
        "ns per warp instruction (32 lanes, scattered inputs), fastest of {WREPS} interleaved passes"
    );
    println!(
        "isa   function |  old(ptr) old(inline) | new(ptr)  warp | loop | warp/old(ptr) warp/old(inline) | warpx /old(ptr)"
    );
    // Every variant once before the timed passes: on this host the first ~100 ms of vector
    // code run several times slower (seen as an order effect: whichever cases came first).
    let all: Vec<(WCase, Vec<[u64; 32]>)> = wcases()
        .into_iter()
        .map(|c| {
            let i = warp_inputs(&c, &mut next);
            (c, i)
        })
        .collect();
    let t = Instant::now();
    while t.elapsed().as_secs_f64() < 0.5 {
        for (c, inputs) in &all {
            for isa in ["ptx", "sass"] {
                for v in ["old", "oldv", "new", "warp", "none", "warpx"] {
                    black_box(warp_pass(c, isa, v, inputs));
                }
            }
        }
    }
    println!(
        "warp forms at level {:?}",
        gpumemsim::exec::mufu::warp::level()
    );
    for (c, inputs) in &all {
        let (c, inputs) = (c, inputs.as_slice());
        for isa in ["ptx", "sass"] {
            let vs = ["old", "oldv", "new", "warp", "none", "warpx"];
            let mut best = [f64::MAX; 6];
            for _ in 0..WREPS {
                for (k, v) in vs.iter().enumerate() {
                    let t = Instant::now();
                    black_box(warp_pass(c, isa, v, inputs));
                    let mut ns = t.elapsed().as_secs_f64() * 1e9;
                    if isa == "sass" && *v == "warpx" {
                        ns = WARPX_NS.with(|c| c.get());
                    }
                    let ns = ns / inputs.len() as f64;
                    best[k] = best[k].min(ns);
                }
            }
            println!(
                "{isa:5} {:8} | {:9.1} {:10.1} | {:8.1} {:5.1} | {:4.1} | {:13.2} {:16.2} | {:9.1} {:9.2}",
                c.name,
                best[0],
                best[1],
                best[2],
                best[3],
                best[4],
                best[3] / best[0],
                best[3] / best[1],
                best[5],
                best[5] / best[0]
            );
        }
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    if let Some(i) = args.iter().position(|a| a == "warp") {
        warp_main(&args[i..]);
        return;
    }
    // `cargo bench --bench mufu -- one CASE VARIANT PATTERN`: one pass of one variant (old,
    // new, table, interp, none, or decode: none after decoding the table), for instruction counts under callgrind.
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
        let scat: Vec<u32> = (0..n).map(|_| scattered(lo, hi, next())).collect();
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
