//! The H200's special-function unit (SASS `MUFU`), bit for bit, and the PTX `.approx`
//! instructions as ptxas 13.0 lowers them onto it.
//!
//! What is modelled: `MUFU.RCP`, `.RSQ`, `.SQRT`, `.EX2`, `.LG2`, `.SIN`, `.COS`, `.TANH`,
//! `.RCP64H`, `.RSQ64H`, `.EX2.F16/.BF16`, `.TANH.F16/.BF16`, each on every input. The
//! hardware's results were recorded exhaustively on an H200 (all 2^32 inputs of each f32
//! instruction, 2^16 of each 16-bit one, all 2^32 high words of the f64 ones) by
//! `tests/hw/mufu/mufu.cu`, which also checked on the device, over every input, that the
//! descriptions below reproduce every result (0 mismatches; `tests/hw/h200/mufu/README.md`
//! has the runs, versions and reports). Each description is the unit's results on one binade
//! plus an exact rule for the exponent. The binade results are computed by the unit's own
//! quadratic interpolator ([`interp`], coefficients solved from the exhaustive tables and
//! checked against every entry) for RCP, RSQ, SQRT, EX2, LG2, SIN/COS, RCP64H and RSQ64H; TANH
//! and the 16-bit instructions read the H200's tables (decoded lazily: [`table`]):
//!
//! - `MUFU.RCP`: x = 1.m * 2^E gives `RCP[m] * 2^-E`; zero (sign kept) where that is subnormal;
//!   subnormal and zero inputs give infinity, infinity zero, NaN `0x7fffffff`.
//! - `MUFU.RSQ` / `MUFU.SQRT`: `T[E & 1][m] * 2^-(E - (E & 1))/2` (resp. `2^+...`), tables of
//!   [1, 2) and [2, 4); subnormal inputs are zeros; negative inputs NaN (`-0` gives `-inf`
//!   resp. `-0`).
//! - `MUFU.EX2`: the input as sign-magnitude fixed point with 24 fraction bits, truncated:
//!   q = trunc(|x| 2^24); `EX2P[q mod 2^24] * 2^(q >> 24)` for x >= 0, `EX2N[q mod 2^24] *
//!   2^-(q >> 24)` for x < 0; flushed to +0 below 2^-126, +inf from 2^128.
//! - `MUFU.LG2`: tables of [1, 2) (`LG2U`) and [0.5, 1) (`LG2L`); other binades
//!   `round_toward_zero(E + LG2U[m])` for E >= 1 and `round_toward_zero((E + 1) + LG2L[m])`
//!   for E <= -2 (the unit adds the exponent to a fixed-point logarithm and truncates).
//! - `MUFU.SIN` / `MUFU.COS` take the argument in turns (ptxas multiplies by 1/(2 pi) first,
//!   `FMUL.RZ`): i = trunc(|y| 2^25) mod 2^25 (25 fraction bits); `SIN[i]` with y's sign,
//!   `COS[i]`. The two tables are one, `COS[i] = SIN[i + 2^23]` (true on the H200 wherever an
//!   input reaches both indices; `tests/hw/mufu/sincos.c` merges them).
//! - `MUFU.TANH`: x itself below 2^-8, +-1 from 8 up, in between a table per binade indexed by
//!   the top K mantissa bits (K = 17..21, [`TANH_BITS`]); odd.
//! - `MUFU.RCP64H` / `MUFU.RSQ64H`: as RCP / RSQ on the high word of a double (20-bit mantissa
//!   index); the PTX instructions return a low word of zero.
//! - 16-bit `ex2`/`tanh`: one table of all 2^16 results each; the `x2` forms apply it to both
//!   halves (checked over all 2^32 pairs).
//!
//! The PTX wrappers (`cuobjdump -sass` of ptxas 13.0.88 output, `tests/hw/h200/mufu/sass/`):
//! non-`.ftz` `rcp`, `rsqrt`, `sqrt`, `lg2` scale subnormal inputs by 2^24 (and `rcp` inputs
//! above 2^126 by 1/4) with `FSETP`/`FMUL`, call MUFU and undo the scaling; `ex2` halves
//! inputs below -126 and squares the result; `sin`/`cos` (both forms) multiply by
//! `0x3e22f983` rounding toward zero; `rsqrt.approx.f64` refines `MUFU.RSQ64H` by one Newton
//! step in f64 (with a slow path for zero, NaN, negative, infinite and subnormal inputs);
//! `div.approx`/`div.full` are `a * MUFU.RCP(b)` with operand scaling.
//!
//! Cost: each of `rcp`, `rsq`, `sqrt`, `ex2`, `lg2` and its PTX wrapper first tests one range (a
//! normal input where no special case and no wrapper scaling applies) and then needs only the
//! interpolator and one add to the exponent field; other inputs take the general code
//! (`*_general`), which the fast paths equal on every input (unit test below; all 2^32 inputs
//! with `--ignored`). The executors apply the f32 functions to a whole warp at once
//! ([`warp`]: the fast paths vectorised over 32 lanes, the same bits).

mod coef;
pub mod interp;
pub mod table;
pub mod warp;

use super::float::{self as fl, FMode};

const NAN32: u32 = 0x7fff_ffff;
const NAN64H: u32 = 0x7fff_ffff;
const SIGN: u32 = 0x8000_0000;
const INF: u32 = 0x7f80_0000;

#[inline]
fn fields(x: u32) -> (u32, u32, u32) {
    (x & SIGN, (x >> 23) & 0xff, x & 0x7f_ffff)
}

/// Whether `x` is a normal f32 of biased exponent at most 252 (|x| in [2^-126, 2^126)): the
/// inputs where no wrapper scales and `MUFU.RCP`'s result is normal.
#[inline(always)]
fn rcp_fast_input(x: u32) -> bool {
    (x & !SIGN).wrapping_sub(0x0080_0000) < 0x7e00_0000
}

/// `MUFU.RCP` of an `x` with [`rcp_fast_input`]: the binade result with its exponent field
/// moved by `127 - e` (never below 1: the binade result's field is 126 or 127, e <= 252).
#[inline(always)]
fn rcp_fast(x: u32) -> u32 {
    (x & SIGN) | interp::rcp(x).wrapping_add((127 << 23) - (x & INF))
}

/// `MUFU.RCP`.
#[inline]
pub fn rcp(x: u32) -> u32 {
    if rcp_fast_input(x) {
        return rcp_fast(x);
    }
    rcp_general(x)
}

/// `MUFU.RCP` of any input (what [`rcp`] computes when its fast path does not apply).
#[inline(never)]
fn rcp_general(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 { NAN32 } else { s };
    }
    if e == 0 {
        return s | INF;
    }
    let t = interp::rcp(m);
    let re = ((t >> 23) & 0xff) as i32 + 127 - e as i32;
    if re <= 0 {
        return s;
    }
    s | (re as u32) << 23 | (t & 0x7f_ffff)
}

/// Table entry and the halved even part of the exponent, for RSQ and SQRT.
#[inline]
fn half_exp(e: u32, m: u32, unit: fn(bool, u32) -> u32) -> (u32, i32) {
    let big_e = e as i32 - 127;
    let p = big_e & 1;
    let t = unit(p != 0, m);
    (t, (big_e - p) / 2)
}

/// Whether `x` is a positive normal f32 (`MUFU.RSQ`'s and `MUFU.SQRT`'s fast path: no special
/// case, no wrapper scaling).
#[inline(always)]
fn positive_normal(x: u32) -> bool {
    x.wrapping_sub(0x0080_0000) < 0x7f00_0000
}

/// Half the unbiased exponent of a positive normal `x`, rounded down: `(E - (E & 1)) / 2`.
#[inline(always)]
fn half_e(x: u32) -> u32 {
    (((x >> 23) as i32 - 127) >> 1) as u32
}

/// `MUFU.RSQ` of a [`positive_normal`] `x` (odd E: the [2, 4) table, i.e. an even biased
/// exponent); the result's field is the binade result's (126 or 127) minus half E, in 63..=190.
#[inline(always)]
fn rsq_fast(x: u32) -> u32 {
    interp::rsq(x & (1 << 23) == 0, x & 0x7f_ffff).wrapping_sub(half_e(x) << 23)
}

/// `MUFU.SQRT` of a [`positive_normal`] `x`.
#[inline(always)]
fn sqrt_fast(x: u32) -> u32 {
    interp::sqrt(x & (1 << 23) == 0, x).wrapping_add(half_e(x) << 23)
}

/// `MUFU.RSQ`.
#[inline]
pub fn rsq(x: u32) -> u32 {
    if positive_normal(x) {
        return rsq_fast(x);
    }
    rsq_general(x)
}

/// `MUFU.RSQ` of any input.
#[inline(never)]
fn rsq_general(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 || s != 0 { NAN32 } else { 0 };
    }
    if e == 0 {
        return s | INF;
    }
    if s != 0 {
        return NAN32;
    }
    let (t, h) = half_exp(e, m, interp::rsq);
    let re = ((t >> 23) & 0xff) as i32 - h;
    (re as u32) << 23 | (t & 0x7f_ffff)
}

/// `MUFU.SQRT`.
#[inline]
pub fn sqrt(x: u32) -> u32 {
    if positive_normal(x) {
        return sqrt_fast(x);
    }
    sqrt_general(x)
}

/// `MUFU.SQRT` of any input.
#[inline(never)]
fn sqrt_general(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 || s != 0 { NAN32 } else { INF };
    }
    if e == 0 {
        return s;
    }
    if s != 0 {
        return NAN32;
    }
    let (t, h) = half_exp(e, m, interp::sqrt);
    let re = ((t >> 23) & 0xff) as i32 + h;
    (re as u32) << 23 | (t & 0x7f_ffff)
}

/// Whether `x` is a normal f32 with |x| < 126: `MUFU.EX2`'s fast path (no special case, no
/// overflow) and no `ex2.approx` wrapper scaling (that starts below -126).
#[inline(always)]
fn ex2_fast_input(x: u32) -> bool {
    (x & !SIGN).wrapping_sub(0x0080_0000) < 0x42fc_0000 - 0x0080_0000
}

/// `MUFU.EX2` of an `x` with [`ex2_fast_input`]: q = trunc(|x| 2^24) is `1.m << 7` shifted right
/// by `133 - e` (the general path's `<< (e - 126)` or `>> (126 - e)`; from 47 on it is 0, as
/// there); n = q >> 24 < 126, so a positive argument's result field (127 + n) stays below 255.
#[inline(always)]
fn ex2_fast(x: u32) -> u32 {
    let e = (x >> 23) & 0xff;
    let q = ((((1 << 23) | (x & 0x7f_ffff)) as u64) << 7) >> (133 - e).min(63);
    let (n, f) = ((q >> 24) as u32, (q & 0xff_ffff) as u32);
    if x & SIGN == 0 {
        interp::ex2p(f) + (n << 23)
    } else {
        let t = interp::ex2n(f);
        if t >> 23 <= n {
            return 0;
        }
        t - (n << 23)
    }
}

/// `MUFU.EX2`.
#[inline]
pub fn ex2(x: u32) -> u32 {
    if ex2_fast_input(x) {
        return ex2_fast(x);
    }
    ex2_general(x)
}

/// `MUFU.EX2` of any input.
#[inline(never)]
fn ex2_general(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 {
            NAN32
        } else if s != 0 {
            0
        } else {
            INF
        };
    }
    if e == 0 {
        return 0x3f80_0000;
    }
    if e >= 134 {
        return if s != 0 { 0 } else { INF };
    }
    let big_m = (1u64 << 23) | m as u64;
    let sh = e as i32 - 126;
    let q = if sh >= 0 {
        big_m << sh
    } else if sh > -40 {
        big_m >> -sh
    } else {
        0
    };
    let (n, f) = ((q >> 24) as i32, (q & 0xff_ffff) as u32);
    if s == 0 {
        let t = interp::ex2p(f);
        let re = ((t >> 23) & 0xff) as i32 + n;
        if re >= 255 {
            return INF;
        }
        (re as u32) << 23 | (t & 0x7f_ffff)
    } else {
        let t = interp::ex2n(f);
        let re = ((t >> 23) & 0xff) as i32 - n;
        if re <= 0 {
            return 0;
        }
        (re as u32) << 23 | (t & 0x7f_ffff)
    }
}

/// `MUFU.LG2` of a [`positive_normal`] `x`.
#[inline(always)]
fn lg2_fast(x: u32) -> u32 {
    let big_e = ((x >> 23) & 0xff) as i32 - 127;
    let m = x & 0x7f_ffff;
    match big_e {
        0 => interp::lg2u(m),
        -1 => interp::lg2l(m),
        _ => {
            let v = if big_e > 0 {
                big_e as f64 + f32::from_bits(interp::lg2u(m)) as f64
            } else {
                (big_e + 1) as f64 + f32::from_bits(interp::lg2l(m)) as f64
            };
            f64_to_f32_rz(v)
        }
    }
}

/// `MUFU.LG2`.
#[inline]
pub fn lg2(x: u32) -> u32 {
    if positive_normal(x) {
        return lg2_fast(x);
    }
    lg2_general(x)
}

/// `MUFU.LG2` of any input.
#[inline(never)]
fn lg2_general(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 || s != 0 { NAN32 } else { INF };
    }
    if e == 0 {
        return 0xff80_0000;
    }
    if s != 0 {
        return NAN32;
    }
    // A positive normal number.
    lg2_fast(x)
}

/// Rounds toward zero to f32 an f64 whose magnitude lies in f32's normal range (here sums of an
/// integer and an f32, 1 <= |v| < 2^8): truncating the significand to 23 fraction bits and
/// rebiasing the exponent is rounding toward zero.
#[inline]
fn f64_to_f32_rz(v: f64) -> u32 {
    let d = v.to_bits();
    ((d >> 32) as u32 & SIGN) | (((d & !(1 << 63)) >> 29) as u32 - ((1023 - 127) << 23))
}

/// The index of |y| in 2^-25 turns, modulo one turn.
#[inline]
fn turn_index(y: u32) -> u32 {
    let e = (y >> 23) & 0xff;
    if e == 0 {
        return 0;
    }
    let big_m = (1u64 << 23) | (y & 0x7f_ffff) as u64;
    let sh = e as i32 - 150 + 25;
    if !(-24..25).contains(&sh) {
        return 0;
    }
    let q = if sh >= 0 { big_m << sh } else { big_m >> -sh };
    (q & ((1 << 25) - 1)) as u32
}

/// `MUFU.SIN` (argument in turns).
#[inline]
pub fn sin(y: u32) -> u32 {
    if (y >> 23) & 0xff == 0xff {
        return NAN32;
    }
    interp::sincos(turn_index(y)) ^ (y & SIGN)
}

/// `MUFU.COS` (argument in turns).
#[inline]
pub fn cos(y: u32) -> u32 {
    if (y >> 23) & 0xff == 0xff {
        return NAN32;
    }
    interp::sincos((turn_index(y) + (1 << 23)) & ((1 << 25) - 1))
}

/// Mantissa bits `MUFU.TANH` reads, per biased exponent 119..=129 (found on the H200: the result
/// never changes when lower bits change, and does when the lowest of these does).
pub const TANH_BITS: [u32; 11] = [17, 17, 17, 18, 18, 19, 19, 19, 20, 21, 20];
/// Start of each binade's part of the tanh table.
const TANH_OFF: [usize; 11] = {
    let mut o = [0usize; 11];
    let mut i = 1;
    while i < 11 {
        o[i] = o[i - 1] + (1 << TANH_BITS[i - 1]);
        i += 1;
    }
    o
};
/// Entries of the tanh table.
pub const TANH_ENTRIES: usize = TANH_OFF[10] + (1 << TANH_BITS[10]);

/// `MUFU.TANH`.
#[inline]
pub fn tanh(x: u32) -> u32 {
    let (s, e, m) = fields(x);
    if e == 0xff {
        return if m != 0 { NAN32 } else { s | 0x3f80_0000 };
    }
    if e <= 118 {
        return x;
    }
    if e >= 130 {
        return s | 0x3f80_0000;
    }
    let k = (e - 119) as usize;
    table::TANH.at(TANH_OFF[k] + (m >> (23 - TANH_BITS[k])) as usize) ^ s
}

/// `MUFU.RCP64H`: high word in, high word out.
#[inline]
pub fn rcp64h(h: u32) -> u32 {
    let (s, e, m) = (h & SIGN, (h >> 20) & 0x7ff, h & 0xf_ffff);
    if e == 0x7ff {
        return if m != 0 { NAN64H } else { s };
    }
    if e == 0 {
        return s | 0x7ff0_0000;
    }
    let t = interp::rcp64h(m);
    let re = ((t >> 20) & 0x7ff) as i32 + 1023 - e as i32;
    if re <= 0 {
        return s;
    }
    s | (re as u32) << 20 | (t & 0xf_ffff)
}

/// `MUFU.RSQ64H`: high word in, high word out.
#[inline]
pub fn rsq64h(h: u32) -> u32 {
    let (s, e, m) = (h & SIGN, (h >> 20) & 0x7ff, h & 0xf_ffff);
    if e == 0x7ff {
        return if m != 0 || s != 0 { NAN64H } else { 0 };
    }
    if e == 0 {
        return s | 0x7ff0_0000;
    }
    if s != 0 {
        return NAN64H;
    }
    let big_e = e as i32 - 1023;
    let p = big_e & 1;
    let t = interp::rsq64h(p != 0, m);
    let re = ((t >> 20) & 0x7ff) as i32 - (big_e - p) / 2;
    (re as u32) << 20 | (t & 0xf_ffff)
}

/// `MUFU.EX2.F16` (`ex2.approx.f16`).
#[inline]
pub fn ex2_f16(x: u16) -> u16 {
    table::EX2_F16.at(x as usize) as u16
}
/// `MUFU.EX2.BF16` (`ex2.approx.ftz.bf16`).
#[inline]
pub fn ex2_bf16(x: u16) -> u16 {
    table::EX2_BF16.at(x as usize) as u16
}
/// `MUFU.TANH.F16` (`tanh.approx.f16`).
#[inline]
pub fn tanh_f16(x: u16) -> u16 {
    table::TANH_F16.at(x as usize) as u16
}
/// `MUFU.TANH.BF16` (`tanh.approx.bf16`).
#[inline]
pub fn tanh_bf16(x: u16) -> u16 {
    table::TANH_BF16.at(x as usize) as u16
}

// ---------------------------------------------------------------------------------------------
// The PTX instructions, as ptxas emits them around MUFU.
// ---------------------------------------------------------------------------------------------

const RN: FMode = FMode::RN;
const TWO24: u32 = 0x4b80_0000; // 2^24

#[inline]
fn fmul(a: u32, b: u32) -> u32 {
    fl::mul_f32(a, b, RN)
}

/// `FSETP.GEU |x|, 2^-126` is false: |x| is subnormal or zero (not NaN).
#[inline]
fn tiny(x: u32) -> bool {
    x & 0x7fff_ffff < 0x0080_0000
}

/// `rcp.approx{.ftz}.f32`.
#[inline]
pub fn rcp_approx_f32(x: u32, ftz: bool) -> u32 {
    if rcp_fast_input(x) {
        return rcp_fast(x);
    }
    rcp_approx_f32_general(x, ftz)
}

/// `rcp.approx{.ftz}.f32` of any input.
#[inline(never)]
fn rcp_approx_f32_general(x: u32, ftz: bool) -> u32 {
    if ftz {
        return rcp(x);
    }
    // FSETP.GT |x|, 2^126 (false for NaN)
    let big = f32::from_bits(x).abs() > f32::from_bits(0x7e80_0000);
    if !big && !tiny(x) {
        // The scale is 1: both FMULs are exact (a NaN becomes the canonical NaN MUFU.RCP
        // returns anyway, and MUFU.RCP never returns a subnormal).
        return rcp(x);
    }
    let r5 = if big { 0x3e80_0000 } else { TWO24 };
    fmul(r5, rcp(fmul(x, r5)))
}

/// `rsqrt.approx{.ftz}.f32`.
#[inline]
pub fn rsqrt_approx_f32(x: u32, ftz: bool) -> u32 {
    if positive_normal(x) {
        return rsq_fast(x);
    }
    if ftz || !tiny(x) {
        return rsq(x);
    }
    fmul(rsq(fmul(x, TWO24)), 0x4580_0000) // * 4096
}

/// `sqrt.approx{.ftz}.f32`.
#[inline]
pub fn sqrt_approx_f32(x: u32, ftz: bool) -> u32 {
    if positive_normal(x) {
        return sqrt_fast(x);
    }
    if ftz || !tiny(x) {
        return sqrt(x);
    }
    fmul(sqrt(fmul(x, TWO24)), 0x3980_0000) // * 2^-12
}

/// `lg2.approx{.ftz}.f32`.
#[inline]
pub fn lg2_approx_f32(x: u32, ftz: bool) -> u32 {
    if positive_normal(x) {
        return lg2_fast(x);
    }
    if ftz || !tiny(x) {
        return lg2(x);
    }
    fl::add_f32(lg2(fmul(x, TWO24)), 0xc1c0_0000, RN) // - 24
}

/// `ex2.approx{.ftz}.f32`.
#[inline]
pub fn ex2_approx_f32(x: u32, ftz: bool) -> u32 {
    if ex2_fast_input(x) {
        return ex2_fast(x);
    }
    // FSETP.GEU x, -126 is false exactly when x < -126 (a NaN compares unordered: true)
    let below = f32::from_bits(x) < -126.0;
    if ftz || !below {
        return ex2(x);
    }
    let r = ex2(fmul(x, 0x3f00_0000));
    fmul(r, r)
}

/// The argument of `sin.approx`/`cos.approx` in turns: `FMUL.RZ x, 1/(2 pi)`. The product of two
/// f32 is exact in f64 (48 significant bits), so rounding it once toward zero is the FMUL.
#[inline]
fn turns(x: u32) -> u32 {
    let p = f32::from_bits(x) as f64 * f32::from_bits(0x3e22_f983) as f64;
    let r = p as f32; // to nearest
    if p.is_nan() {
        NAN32
    } else if (r as f64).abs() > p.abs() {
        r.to_bits() - 1 // one step toward zero
    } else {
        r.to_bits()
    }
}

/// `sin.approx{.ftz}.f32` (ptxas emits the same code for both forms).
#[inline]
pub fn sin_approx_f32(x: u32) -> u32 {
    sin(turns(x))
}

/// `cos.approx{.ftz}.f32`.
#[inline]
pub fn cos_approx_f32(x: u32) -> u32 {
    cos(turns(x))
}

/// `div.approx{.ftz}.f32`.
#[inline]
pub fn div_approx_f32(a: u32, b: u32, ftz: bool) -> u32 {
    if ftz {
        return fl::mul_f32(a, rcp(b), FMode { ftz: true, ..RN });
    }
    let (a, b) = if tiny(b) {
        (fmul(a, TWO24), fmul(b, TWO24))
    } else {
        (a, b)
    };
    fmul(rcp(b), a)
}

/// `div.full{.ftz}.f32`.
#[inline]
pub fn div_full_f32(a: u32, b: u32, ftz: bool) -> u32 {
    let big = f32::from_bits(b).abs() > f32::from_bits(0x7e80_0000);
    let quarter = 0x3e80_0000;
    if ftz {
        let m = FMode { ftz: true, ..RN };
        let (a, b) = if big {
            (fl::mul_f32(a, quarter, m), fl::mul_f32(b, quarter, m))
        } else {
            (a, b)
        };
        return fl::mul_f32(rcp(b), a, m);
    }
    let small = tiny(b);
    let (a, b) = if big {
        (fmul(a, quarter), fmul(b, quarter))
    } else {
        (a, b)
    };
    let (a, b) = if small {
        (fmul(a, TWO24), fmul(b, TWO24))
    } else {
        (a, b)
    };
    fmul(rcp(b), a)
}

/// `tanh.approx.f32`.
#[inline]
pub fn tanh_approx_f32(x: u32) -> u32 {
    tanh(x)
}

/// `rcp.approx.ftz.f64`: `MUFU.RCP64H` of the high word, low word zero.
#[inline]
pub fn rcp_approx_ftz_f64(x: u64) -> u64 {
    (rcp64h((x >> 32) as u32) as u64) << 32
}

/// `rsqrt.approx{.ftz}.f64`.
#[inline]
pub fn rsqrt_approx_f64(x: u64, ftz: bool) -> u64 {
    let hi = (x >> 32) as u32;
    if ftz {
        return (rsq64h(hi) as u64) << 32;
    }
    // One Newton step on MUFU.RSQ64H, as ptxas emits it:
    // t = y*y; t = fma(x, -t, 1); h = fma(t, 0.375, 0.5); t = y*t; y = fma(h, t, y).
    let newton = |a: u64| {
        let y = (rsq64h((a >> 32) as u32) as u64) << 32;
        let t = fl::mul_f64(y, y, RN);
        let t = fl::fma_f64(a, t ^ (1 << 63), 1f64.to_bits(), RN);
        let h = fl::fma_f64(t, 0.375f64.to_bits(), 0.5f64.to_bits(), RN);
        let t2 = fl::mul_f64(y, t, RN);
        fl::fma_f64(h, t2, y, RN)
    };
    if hi.wrapping_sub(0x0010_0000) < 0x7fe0_0000 {
        return newton(x);
    }
    let v = f64::from_bits(x);
    if v == 0.0 {
        return ((hi & SIGN | 0x7ff0_0000) as u64) << 32;
    }
    if v.is_nan() {
        return fl::add_f64(x, x, RN);
    }
    if hi & SIGN != 0 {
        return 0xfff8_0000_0000_0000;
    }
    if v.is_infinite() {
        return 0;
    }
    let scaled = fl::mul_f64(x, 18014398509481984f64.to_bits(), RN); // * 2^54
    fl::mul_f64(newton(scaled), 134217728f64.to_bits(), RN) // * 2^27
}

/// `ex2.approx.f16x2` / `.ftz.bf16x2` / `tanh.approx.f16x2` / `.bf16x2`: `f` on both halves.
#[inline]
pub fn both_halves(x: u32, f: fn(u16) -> u16) -> u32 {
    f(x as u16) as u32 | (f((x >> 16) as u16) as u32) << 16
}

#[cfg(test)]
mod tests {
    //! The fast paths against the general code they bypass (which is the code the H200 data was
    //! checked against): equal on every input of their domain that the sweep visits.
    use super::*;

    /// The rounding toward zero [`f64_to_f32_rz`] replaced: round to nearest, then one step
    /// toward zero where that rounded away.
    fn rz_by_rounding(v: f64) -> u32 {
        let r = v as f32;
        if (r as f64).abs() > v.abs() {
            r.to_bits() - 1
        } else {
            r.to_bits()
        }
    }

    /// Every `step`-th f32 bit pattern plus the edges of every binade.
    fn sweep(step: u64, mut f: impl FnMut(u32)) {
        let mut x = 0u64;
        while x < 1 << 32 {
            f(x as u32);
            x += step;
        }
        for e in 0..=255u32 {
            for s in [0, SIGN] {
                for m in [0, 1, 2, 0x40_0000, 0x7f_fffe, 0x7f_ffff] {
                    f(s | e << 23 | m);
                }
            }
        }
    }

    fn check(step: u64) {
        sweep(step, |x| {
            if rcp_fast_input(x) {
                assert_eq!(rcp_fast(x), rcp_general(x), "rcp {x:#x}");
            }
            if positive_normal(x) {
                assert_eq!(rsq_fast(x), rsq_general(x), "rsq {x:#x}");
                assert_eq!(sqrt_fast(x), sqrt_general(x), "sqrt {x:#x}");
                assert_eq!(lg2_fast(x), lg2_general(x), "lg2 {x:#x}");
            }
            if ex2_fast_input(x) {
                assert_eq!(ex2_fast(x), ex2_general(x), "ex2 {x:#x}");
            }
        });
        // lg2's sums E + L (1 <= |v| < 2^8): truncation is rounding toward zero
        sweep(step, |x| {
            let l = f32::from_bits(x & 0x3fff_ffff) as f64; // |l| < 4
            for e in [-126i32, -3, -1, 1, 2, 127] {
                let v = e as f64 + if e < 0 { -(l.min(0.999)) } else { l.min(1.999) };
                if v.abs() >= 1.0 {
                    assert_eq!(f64_to_f32_rz(v), rz_by_rounding(v), "{v:e}");
                }
            }
        });
    }

    #[test]
    fn fast_paths_equal_the_general_code() {
        check(4099);
    }

    /// All 2^32 inputs (about 4 minutes of one core; passed on this branch): `cargo test --release --lib -- --ignored
    /// fast_paths_exhaustive`.
    #[test]
    #[ignore]
    fn fast_paths_exhaustive() {
        check(1);
    }
}
