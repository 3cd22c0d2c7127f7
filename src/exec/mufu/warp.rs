//! The special-function unit on a whole warp at once: `MUFU.RCP/RSQ/SQRT/EX2/LG2/SIN/COS` and
//! the PTX `.approx` instructions built on them, as functions of all 32 lanes' operands.
//!
//! What is modelled: exactly what the per-lane functions of [`super`] compute (the H200's bits;
//! the unit test below and `--ignored warp_forms_exhaustive` compare every lane function with
//! its warp form on every 2^32 input). Only the evaluation order differs: the common case of
//! each function (a normal input that needs no special case and no wrapper scaling, the
//! `*_fast` paths of [`super`]) is computed in every lane by straight-line integer code over
//! fixed-size lane arrays, with no branch and no table other than the segment coefficients,
//! so that the host compiler vectorises it (AVX-512 or AVX2 where the CPU has them, chosen at
//! run time; the same code without them otherwise). The lanes outside that case are then
//! recomputed one by one by the general per-lane code. The interpolator's datapath
//! ([`super::interp`]: segment coefficients `A, B, C`, `(A + B x + C sq(x)) >> sr`, the
//! truncating squarer) is written here a second time in this branch-free form:
//!
//! - the squarer sums its partial products `x >> (18 - i)` under a mask of bit `i` (instead of
//!   [`super::interp`]'s split table lookup);
//! - the coefficients are read from per-field arrays (`A`, `B`, `C` apart), the two RSQ and
//!   SQRT tables concatenated and selected by the exponent's parity;
//! - `EX2` of a negative argument is the positive datapath on the one's complement of the
//!   fraction with the result exponent one lower, as in [`super::interp::ex2n`];
//! - `LG2` of `1.m * 2^E` is `pack(E * 2^36 + L(m))` (one truncation to 24 bits of the exact
//!   fixed-point sum) where [`super::lg2`] truncates `L` first and the sum second: the two
//!   truncations toward zero give the same bits because the sum's grid is a multiple of `L`'s
//!   (checked on every input by the tests below).

use super::coef;
#[cfg(test)]
use super::interp;

/// One warp's 32-bit operands or results.
pub type Lanes = [u32; 32];

/// A table of segment coefficients, one array per field.
struct Soa<const N: usize> {
    a: [i64; N],
    b: [i32; N],
    c: [i32; N],
}

/// `t` as [`Soa`]; with `u` (when `N` is twice `t`'s length) appended.
const fn soa<const N: usize>(t: &[(i64, i32, i32)], u: &[(i64, i32, i32)]) -> Soa<N> {
    let mut s = Soa {
        a: [0; N],
        b: [0; N],
        c: [0; N],
    };
    let mut i = 0;
    while i < N {
        let e = if i < t.len() { t[i] } else { u[i - t.len()] };
        s.a[i] = e.0;
        s.b[i] = e.1;
        s.c[i] = e.2;
        i += 1;
    }
    s
}

static RCP: Soa<128> = soa(&coef::RCP, &[]);
/// RSQ0 (even E) at 0..64, RSQ1 (odd E) at 64..128.
static RSQ: Soa<128> = soa(&coef::RSQ0, &coef::RSQ1);
/// SQRT0 at 0..64, SQRT1 at 64..128.
static SQRT: Soa<128> = soa(&coef::SQRT0, &coef::SQRT1);
static EX2: Soa<64> = soa(&coef::EX2, &[]);
static LG2: Soa<64> = soa(&coef::LG2, &[]);

/// The truncating squarer ([`interp::sq_reference`]) without a branch or a table.
#[inline(always)]
fn sq(x: u32) -> u32 {
    let mut r = 0u32;
    let mut i = 2;
    while i < 17 {
        let bit = ((x << (31 - i)) as i32 >> 31) as u32;
        r = r.wrapping_add(x >> (18 - i) & bit);
        i += 1;
    }
    r >> 1
}

/// `A + B x + C sq` of segment `k` (masked to the table).
#[inline(always)]
fn eval<const N: usize>(t: &Soa<N>, k: u32, x: u32, s: u32) -> i64 {
    let k = k as usize & (N - 1);
    t.a[k]
        .wrapping_add(t.b[k] as i64 * x as i32 as i64)
        .wrapping_add(t.c[k] as i64 * s as i32 as i64)
}

/// [`interp::rcp`] of `m` (its low 23 bits).
#[inline(always)]
fn rcp_unit(m: u32) -> u32 {
    let x = m & 0xffff;
    let f = eval(&RCP, m >> 16 & 0x7f, x, sq(x << 1)) >> 15;
    (125u32 << 23).wrapping_add(f as u32)
}

/// [`super::rcp_fast`], for any input (meaningful on [`super::rcp_fast_input`]).
#[inline(always)]
fn rcp_fast(x: u32) -> u32 {
    (x & super::SIGN) | rcp_unit(x).wrapping_add((127u32 << 23).wrapping_sub(x & super::INF))
}

/// `(E - (E & 1)) / 2` of the biased exponent field, wrapping.
#[inline(always)]
fn half_e(x: u32) -> u32 {
    ((((x >> 23) & 0xff) as i32 - 127) >> 1) as u32
}

/// [`super::rsq_fast`], for any input.
#[inline(always)]
fn rsq_fast(x: u32) -> u32 {
    let odd = (x >> 23 & 1) ^ 1;
    let m = x & 0x7f_ffff;
    let xx = m & 0x1ffff;
    let t = (125u32 << 23).wrapping_add((eval(&RSQ, odd << 6 | m >> 17, xx, sq(xx)) >> 16) as u32);
    let t = if m == 0 && odd == 0 { 0x3f80_0000 } else { t };
    t.wrapping_sub(half_e(x) << 23)
}

/// [`super::sqrt_fast`], for any input.
#[inline(always)]
fn sqrt_fast(x: u32) -> u32 {
    let odd = (x >> 23 & 1) ^ 1;
    let m = x & 0x7f_ffff;
    let xx = m & 0x1ffff;
    let t = (126u32 << 23).wrapping_add((eval(&SQRT, odd << 6 | m >> 17, xx, sq(xx)) >> 17) as u32);
    t.wrapping_add(half_e(x) << 23)
}

/// [`super::ex2_fast`], for any input.
#[inline(always)]
fn ex2_fast(x: u32) -> u32 {
    let e = (x >> 23) & 0xff;
    let sh = 133u32.wrapping_sub(e).min(63);
    let q = ((((1u32 << 23) | (x & 0x7f_ffff)) as u64) << 7) >> sh;
    let (n, f) = ((q >> 24) as u32, (q & 0xff_ffff) as u32);
    let neg = x >> 31;
    let g = f >> 1 & 0x7f_ffff;
    let gg = g ^ (neg.wrapping_neg() & 0x7f_ffff);
    let xx = gg & 0x1ffff;
    let t = ((126 - neg) << 23).wrapping_add((eval(&EX2, gg >> 17, xx, sq(xx)) >> 15) as u32);
    let t = if neg != 0 && g == 0 { 0x3f80_0000 } else { t };
    let up = t.wrapping_add(n << 23);
    let down = if t >> 23 <= n {
        0
    } else {
        t.wrapping_sub(n << 23)
    };
    if neg == 0 {
        up
    } else {
        down
    }
}

/// [`super::lg2_fast`], for any input: `pack(E * 2^36 + L(m), 36)`, where L(0) counts as 0 for
/// E >= 0 (the unit's `LG2(1) = 0`).
#[inline(always)]
fn lg2_fast(x: u32) -> u32 {
    let big_e = ((x >> 23) & 0xff) as i32 - 127;
    let m = x & 0x7f_ffff;
    let xx = m & 0x1ffff;
    let l = eval(&LG2, m >> 17, xx, sq(xx)) >> 2;
    let l = if m == 0 && big_e >= 0 { 0 } else { l };
    let t = ((big_e as i64) << 36).wrapping_add(l);
    let sign = ((t >> 63) as u32) << 31;
    let mag = t ^ (t >> 63);
    let d = (mag as f64).to_bits();
    let r = sign | ((d >> 29) as u32).wrapping_sub((1023 - 127 + 36) << 23);
    if mag == 0 {
        sign
    } else {
        r
    }
}

/// Recomputes the lanes of `slow` with the per-lane `f`.
#[inline(always)]
fn fix(a: &Lanes, out: &mut Lanes, mut slow: u32, f: impl Fn(u32) -> u32) {
    while slow != 0 {
        let l = slow.trailing_zeros() as usize;
        out[l] = f(a[l]);
        slow &= slow - 1;
    }
}

/// Defines the warp form `$name` of a fast path and its domain, with the general per-lane
/// function for the other lanes; the fast part compiled for AVX-512 and AVX2 and chosen at run
/// time.
macro_rules! warp_form {
    ($(#[$doc:meta])* $name:ident, $fast:expr, $domain:expr, $general:expr) => {
        $(#[$doc])*
        pub fn $name(a: &Lanes, out: &mut Lanes) {
            /// `out[l] = fast(a[l])` in every lane; the lanes outside the domain as bits.
            #[inline(always)]
            fn body(a: &Lanes, out: &mut Lanes) -> u32 {
                let mut slow = 0u32;
                for l in 0..32 {
                    out[l] = $fast(a[l]);
                    slow |= (!$domain(a[l]) as u32) << l;
                }
                slow
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw")]
            unsafe fn body_avx512(a: &Lanes, out: &mut Lanes) -> u32 {
                body(a, out)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            unsafe fn body_avx2(a: &Lanes, out: &mut Lanes) -> u32 {
                body(a, out)
            }
            let slow = match level() {
                // SAFETY: `level` found the CPU's AVX-512 F, DQ, VL and BW.
                #[cfg(target_arch = "x86_64")]
                Level::Avx512 => unsafe { body_avx512(a, out) },
                // SAFETY: `level` found the CPU's AVX2.
                #[cfg(target_arch = "x86_64")]
                Level::Avx2 => unsafe { body_avx2(a, out) },
                _ => body(a, out),
            };
            fix(a, out, slow, $general);
        }
    };
}

/// The vector extensions the warp forms use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// AVX-512 F, DQ, VL and BW.
    Avx512,
    /// AVX2.
    Avx2,
    /// Neither (the same code, compiled for the target's baseline).
    Base,
}

/// The best [`Level`] of this CPU (or the one forced by `set_level`, for tests and benches).
#[inline(always)]
pub fn level() -> Level {
    match FORCED.load(std::sync::atomic::Ordering::Relaxed) {
        1 => return Level::Avx512,
        2 => return Level::Avx2,
        3 => return Level::Base,
        _ => {}
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Level::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return Level::Avx2;
        }
    }
    Level::Base
}

static FORCED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Uses at most `l` from now on (`None`: the CPU's best). A level the CPU lacks is not
/// forced (the CPU's best applies).
pub fn set_level(l: Option<Level>) {
    let best = {
        FORCED.store(0, std::sync::atomic::Ordering::Relaxed);
        level()
    };
    let rank = |l: Level| match l {
        Level::Avx512 => 0,
        Level::Avx2 => 1,
        Level::Base => 2,
    };
    let v = match l {
        Some(l) if rank(l) >= rank(best) => match l {
            Level::Avx512 => 1,
            Level::Avx2 => 2,
            Level::Base => 3,
        },
        _ => 0,
    };
    FORCED.store(v, std::sync::atomic::Ordering::Relaxed);
}

use super::{positive_normal, rcp_fast_input};

#[inline(always)]
fn ex2_domain(x: u32) -> bool {
    super::ex2_fast_input(x)
}

warp_form!(
    /// `MUFU.RCP` in every lane ([`super::rcp`]).
    rcp, rcp_fast, rcp_fast_input, super::rcp_general
);
warp_form!(
    /// `MUFU.RSQ` in every lane ([`super::rsq`]).
    rsq, rsq_fast, positive_normal, super::rsq_general
);
warp_form!(
    /// `MUFU.SQRT` in every lane ([`super::sqrt`]).
    sqrt, sqrt_fast, positive_normal, super::sqrt_general
);
warp_form!(
    /// `MUFU.EX2` in every lane ([`super::ex2`]).
    ex2, ex2_fast, ex2_domain, super::ex2_general
);
warp_form!(
    /// `MUFU.LG2` in every lane ([`super::lg2`]).
    lg2, lg2_fast, positive_normal, super::lg2_general
);
warp_form!(
    /// `rcp.approx.f32` in every lane ([`super::rcp_approx_f32`]).
    rcp_approx_f32, rcp_fast, rcp_fast_input, |x| super::rcp_approx_f32_general(x, false)
);
warp_form!(
    /// `rcp.approx.ftz.f32` in every lane.
    rcp_approx_ftz_f32, rcp_fast, rcp_fast_input, |x| super::rcp_approx_f32_general(x, true)
);
warp_form!(
    /// `rsqrt.approx.f32` in every lane ([`super::rsqrt_approx_f32`]).
    rsqrt_approx_f32, rsq_fast, positive_normal, |x| super::rsqrt_approx_f32(x, false)
);
warp_form!(
    /// `rsqrt.approx.ftz.f32` in every lane.
    rsqrt_approx_ftz_f32, rsq_fast, positive_normal, |x| super::rsqrt_approx_f32(x, true)
);
warp_form!(
    /// `sqrt.approx.f32` in every lane ([`super::sqrt_approx_f32`]).
    sqrt_approx_f32, sqrt_fast, positive_normal, |x| super::sqrt_approx_f32(x, false)
);
warp_form!(
    /// `sqrt.approx.ftz.f32` in every lane.
    sqrt_approx_ftz_f32, sqrt_fast, positive_normal, |x| super::sqrt_approx_f32(x, true)
);
warp_form!(
    /// `ex2.approx.f32` in every lane ([`super::ex2_approx_f32`]).
    ex2_approx_f32, ex2_fast, ex2_domain, |x| super::ex2_approx_f32(x, false)
);
warp_form!(
    /// `ex2.approx.ftz.f32` in every lane.
    ex2_approx_ftz_f32, ex2_fast, ex2_domain, |x| super::ex2_approx_f32(x, true)
);
warp_form!(
    /// `lg2.approx.f32` in every lane ([`super::lg2_approx_f32`]).
    lg2_approx_f32, lg2_fast, positive_normal, |x| super::lg2_approx_f32(x, false)
);
warp_form!(
    /// `lg2.approx.ftz.f32` in every lane.
    lg2_approx_ftz_f32, lg2_fast, positive_normal, |x| super::lg2_approx_f32(x, true)
);

/// `MUFU.SIN` in every lane (the per-lane code, already branch-light, in one loop).
pub fn sin(a: &Lanes, out: &mut Lanes) {
    for l in 0..32 {
        out[l] = super::sin(a[l]);
    }
}

/// `MUFU.COS` in every lane.
pub fn cos(a: &Lanes, out: &mut Lanes) {
    for l in 0..32 {
        out[l] = super::cos(a[l]);
    }
}

/// `sin.approx{.ftz}.f32` in every lane.
pub fn sin_approx_f32(a: &Lanes, out: &mut Lanes) {
    for l in 0..32 {
        out[l] = super::sin_approx_f32(a[l]);
    }
}

/// `cos.approx{.ftz}.f32` in every lane.
pub fn cos_approx_f32(a: &Lanes, out: &mut Lanes) {
    for l in 0..32 {
        out[l] = super::cos_approx_f32(a[l]);
    }
}

/// A warp form and the per-lane function it equals, for the tests and the bench.
pub type Pair = (&'static str, fn(&Lanes, &mut Lanes), fn(u32) -> u32);

/// Every warp form with its per-lane function.
pub fn pairs() -> [Pair; 19] {
    [
        ("rcp", rcp, super::rcp),
        ("rsq", rsq, super::rsq),
        ("sqrt", sqrt, super::sqrt),
        ("ex2", ex2, super::ex2),
        ("lg2", lg2, super::lg2),
        ("sin", sin, super::sin),
        ("cos", cos, super::cos),
        ("rcp.approx", rcp_approx_f32, |x| super::rcp_approx_f32(x, false)),
        ("rcp.approx.ftz", rcp_approx_ftz_f32, |x| super::rcp_approx_f32(x, true)),
        ("rsqrt.approx", rsqrt_approx_f32, |x| super::rsqrt_approx_f32(x, false)),
        ("rsqrt.approx.ftz", rsqrt_approx_ftz_f32, |x| super::rsqrt_approx_f32(x, true)),
        ("sqrt.approx", sqrt_approx_f32, |x| super::sqrt_approx_f32(x, false)),
        ("sqrt.approx.ftz", sqrt_approx_ftz_f32, |x| super::sqrt_approx_f32(x, true)),
        ("ex2.approx", ex2_approx_f32, |x| super::ex2_approx_f32(x, false)),
        ("ex2.approx.ftz", ex2_approx_ftz_f32, |x| super::ex2_approx_f32(x, true)),
        ("lg2.approx", lg2_approx_f32, |x| super::lg2_approx_f32(x, false)),
        ("lg2.approx.ftz", lg2_approx_ftz_f32, |x| super::lg2_approx_f32(x, true)),
        ("sin.approx", sin_approx_f32, super::sin_approx_f32),
        ("cos.approx", cos_approx_f32, super::cos_approx_f32),
    ]
}

/// A difference between a warp form and its lane function: `(form, level, input, warp result,
/// lane result)`.
pub type Mismatch = (String, Level, u32, u32, u32);

/// Compares the warp forms (the first `forms` of [`pairs`]) with their per-lane functions on
/// the inputs `start, start + step, ...` below 2^32 (32 to a warp) and the edges of every
/// binade, at every [`Level`] the CPU has; the number of lane results compared, or the first
/// difference.
pub fn compare(start: u64, step: u64, forms: usize) -> Result<u64, Mismatch> {
    let mut edges = Vec::new();
    for e in 0..=255u32 {
        for s in [0, super::SIGN] {
            for m in [0, 1, 2, 0x40_0000, 0x7f_fffe, 0x7f_ffff] {
                edges.push(s | e << 23 | m);
            }
        }
    }
    let mut n = 0u64;
    for lv in [Level::Avx512, Level::Avx2, Level::Base] {
        set_level(Some(lv));
        let got = level();
        if got != lv {
            continue;
        }
        let mut check = |a: &Lanes| -> Result<(), Mismatch> {
            let mut out = [0u32; 32];
            for (name, w, f) in pairs().into_iter().take(forms) {
                w(a, &mut out);
                for l in 0..32 {
                    let want = f(a[l]);
                    if out[l] != want {
                        return Err((name.to_string(), lv, a[l], out[l], want));
                    }
                }
            }
            n += 32 * forms as u64;
            Ok(())
        };
        let mut x = start;
        let mut a = [0u32; 32];
        let mut k = 0;
        while x < 1 << 32 {
            a[k] = x as u32;
            k += 1;
            if k == 32 {
                check(&a)?;
                k = 0;
            }
            x += step;
        }
        for c in edges.chunks(32) {
            let mut a = [0u32; 32];
            for (l, v) in c.iter().enumerate() {
                a[l] = *v;
            }
            check(&a)?;
        }
    }
    set_level(None);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn branch_free_squarer_equals_the_partial_products() {
        for x in 0..1u32 << 17 {
            assert_eq!(sq(x), interp::sq_reference(x), "x = {x:#x}");
        }
    }

    #[test]
    fn warp_forms_equal_the_lane_functions() {
        // Every 4,099th input plus the binade edges, at every level this CPU has.
        let r = compare(0, 4099, pairs().len());
        assert!(r.is_ok(), "{r:?}");
        assert!(r.unwrap() > 1 << 20);
    }

    /// The five `MUFU` forms on all 2^32 inputs at every level this CPU has (the `.approx`
    /// forms use the same fast paths on the same domains and the lane functions elsewhere, and
    /// SIN/COS are the lane functions): `cargo test --release --lib -- --ignored
    /// warp_forms_exhaustive`.
    #[test]
    #[ignore]
    fn warp_forms_exhaustive() {
        let r = compare(0, 1, 5);
        assert!(r.is_ok(), "{r:?}");
        assert!(r.unwrap() >= 5 << 32);
    }
}
