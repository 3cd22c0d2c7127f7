//! The special-function unit's quadratic interpolator: the H200's `MUFU` results on one binade,
//! computed as the unit computes them instead of looked up.
//!
//! What is modelled: the datapath of NVIDIA's multifunction interpolator (Oberman and Siu, "A
//! high-performance area-efficient multifunction interpolator", ARITH 2005), as envytools
//! documents it for the G80 (`nvhw/sfu.c`, from hardware tests on G80-GT200): the top 6 or 7
//! bits of the significand select a segment, the low 16 or 17 bits `x` enter
//!
//! ```text
//! f = (A + B * x + C * sq(x)) >> sr
//! ```
//!
//! where `sq` is a squarer that truncates every partial product (`x >> (18 - i)` for each set
//! bit `i` of `x`, summed, halved), and `A`, `B`, `C` are the segment's coefficients
//! ([`super::coef`]). The H200 (sm_90) computes exactly this: `tests/hw/mufu/interp_fit.py`
//! solved every segment's coefficients from the exhaustive H200 tables
//! (`tests/hw/h200/mufu/tables/`) and every entry of `rcp`, `rsq0/1`, `sqrt0/1`, `ex2p/n`,
//! `lg2u/l`, `rcp64h`, `rsq64h0/1` and every H200-reached entry of `sincos` equals the result
//! of these functions (checked there and by `tests/hardware/approx.rs`). Per function:
//!
//! - `RCP` of 1.m: 128 segments of 16 bits, the square of `2x`, `sr` = 15; the result is
//!   `f / 2^24` (1 exactly when f = 2^24, at m = 0).
//! - `RSQ` of 1.m and 2 * 1.m: 64 segments of 17 bits per exponent parity, `sr` = 16; result
//!   `f / 2^24`; `RSQ(1)` = 1 is a special case of the unit.
//! - `SQRT` (not on G80; the same datapath fits, `sr` = 17): result `f / 2^23`.
//! - `EX2` of a fraction: the unit reads 23 fraction bits (the exhaustive tables' entries `2k`
//!   and `2k + 1` are equal); 64 segments, `sr` = 15, result `f / 2^23`; for negative inputs
//!   the fraction is one's-complemented and the result halved (2^-f = 2^-1 * 2^(1 - f)).
//! - `LG2` of 1.m: 64 segments, `sr` = 2, `r` = log2(1.m) in fixed point with 36 fraction
//!   bits; [0.5, 1) is `r - 2^36`, made sign-magnitude by one's complement; both truncated to
//!   24 significant bits.
//! - `SIN` of `i / 2^25` turns: the quadrant `i >> 23`; odd quadrants mirror the 23-bit
//!   fraction (one's complement), the upper two negate; 64 segments, no shift, `r / 2^37`
//!   truncated to 24 significant bits. Only 4 of 5 of the 2^25 indices are reachable from
//!   `sin.approx`/`cos.approx` (`tests/hw/mufu/sincos.c`): the remaining ones (odd indices of
//!   the last quadrant, indices beyond 0.318 turns that no `x * (1/(2 pi))` hits) were never
//!   produced by the H200, and these functions give the interpolator's value there.
//! - `RCP64H` / `RSQ64H`: `RCP` / `RSQ` of the high word's 20-bit mantissa (low bits zero),
//!   the result's mantissa truncated to 20 bits (true of every entry of the exhaustive tables).

use super::coef;

/// The low part of the truncated square, by `(x >> 9) << 7 | (x >> 2) & 0x7f` ([`sq`]).
pub(super) static SQ_LO: [u16; 1 << 15] = sq_lo_table();

/// The truncated squarer of a 17-bit `x`: `(sum over set bits i of x of x >> (18 - i)) >> 1`.
/// With `h = x >> 9` and `l = x & 0x1ff`, the partial products of the bits `i >= 10` are
/// `h_(i-9) * (h << (i - 9))` plus `h_(i-9) * (l >> (18 - i))`, so the sum is
/// `h * (h & 0xfe)` plus a term of `h` and bits 2..8 of `l` only ([`SQ_LO`]).
#[inline(always)]
fn sq(x: u32) -> u32 {
    let h = x >> 9;
    (h * (h & 0xfe) + SQ_LO[((h << 7 | (x >> 2) & 0x7f) & 0x7fff) as usize] as u32) >> 1
}

/// The squarer as the hardware describes it (one partial product per bit); for the table and
/// the tests.
pub const fn sq_reference(x: u32) -> u32 {
    let mut r = 0;
    let mut i = 2;
    while i < 17 {
        if x & (1 << i) != 0 {
            r += x >> (18 - i);
        }
        i += 1;
    }
    r >> 1
}

const fn sq_lo_table() -> [u16; 1 << 15] {
    let mut t = [0u16; 1 << 15];
    let mut k = 0;
    while k < 1 << 15 {
        let h = (k >> 7) as u32;
        let l = ((k & 0x7f) << 2) as u32;
        let x = h << 9 | l;
        // Partial products of bits 2..=9 (h >> (9 - i) for bit i of l, h for bit 0 of h) and
        // the l-parts of bits 10..=16.
        let mut r = 0u32;
        let mut i = 2;
        while i < 17 {
            if x & (1 << i) != 0 {
                r += if i <= 9 { h >> (9 - i) } else { l >> (18 - i) };
            }
            i += 1;
        }
        t[k] = r as u16;
        k += 1;
    }
    t
}

/// `A + B * x + C * sq`, the interpolator's sum for one segment.
#[inline(always)]
fn eval(c: (i64, i32, i32), x: u32, s: u32) -> i64 {
    c.0 + c.1 as i64 * x as i64 + c.2 as i64 * s as i64
}

/// f32 bits of `t / 2^point` truncated to 24 significant bits, `t` in sign-magnitude by one's
/// complement (the unit's conversion of a negative fixed-point sum). `|t| < 2^53`, so the f64 of
/// the magnitude is exact and truncating its significand to 24 bits is the unit's truncation.
#[inline(always)]
fn pack(t: i64, point: u32) -> u32 {
    let sign = ((t >> 63) as u32) << 31;
    let mag = t ^ (t >> 63);
    if mag == 0 {
        return sign;
    }
    let d = (mag as f64).to_bits();
    sign | ((d >> 29) as u32).wrapping_sub((1023 - 127 + point) << 23)
}

/// `MUFU.RCP` of `1.m` (f32 bits, in (0.5, 1]).
#[inline]
pub fn rcp(m: u32) -> u32 {
    let x = m & 0xffff;
    let f = eval(coef::RCP[(m >> 16 & 0x7f) as usize], x, sq(x << 1)) >> 15;
    // f in [2^23, 2^24]: exponent 126, or 127 through the carry when f = 2^24
    (125 << 23) + f as u32
}

/// `MUFU.RSQ` of `1.m` (`odd` = false) or `2 * 1.m` (f32 bits, in (0.5, 1]).
#[inline]
pub fn rsq(odd: bool, m: u32) -> u32 {
    if m == 0 && !odd {
        return 0x3f80_0000;
    }
    let c = if odd { &coef::RSQ1 } else { &coef::RSQ0 };
    let x = m & 0x1ffff;
    (125 << 23) + (eval(c[(m >> 17 & 0x3f) as usize], x, sq(x)) >> 16) as u32
}

/// `MUFU.SQRT` of `1.m` (`odd` = false) or `2 * 1.m` (f32 bits, in [1, 2)).
#[inline]
pub fn sqrt(odd: bool, m: u32) -> u32 {
    let c = if odd { &coef::SQRT1 } else { &coef::SQRT0 };
    let x = m & 0x1ffff;
    (126 << 23) + (eval(c[(m >> 17 & 0x3f) as usize], x, sq(x)) >> 17) as u32
}

/// `MUFU.EX2` of `f / 2^24` (f32 bits, in [1, 2)).
#[inline]
pub fn ex2p(f: u32) -> u32 {
    let g = f >> 1 & 0x7f_ffff;
    let x = g & 0x1ffff;
    (126 << 23) + (eval(coef::EX2[(g >> 17) as usize], x, sq(x)) >> 15) as u32
}

/// `MUFU.EX2` of `-f / 2^24` (f32 bits, in (0.5, 1]).
#[inline]
pub fn ex2n(f: u32) -> u32 {
    let g = f >> 1 & 0x7f_ffff;
    if g == 0 {
        return 0x3f80_0000;
    }
    let g = 0x7f_ffff - g;
    let x = g & 0x1ffff;
    (125 << 23) + (eval(coef::EX2[(g >> 17) as usize], x, sq(x)) >> 15) as u32
}

/// log2(1.m) in fixed point with 36 fraction bits, as the unit computes it.
#[inline(always)]
fn lg2_fixed(m: u32) -> i64 {
    let x = m & 0x1ffff;
    eval(coef::LG2[(m >> 17 & 0x3f) as usize], x, sq(x)) >> 2
}

/// `MUFU.LG2` of `1.m` (f32 bits).
#[inline]
pub fn lg2u(m: u32) -> u32 {
    if m == 0 {
        return 0;
    }
    pack(lg2_fixed(m), 36)
}

/// `MUFU.LG2` of `0.5 * 1.m` (f32 bits).
#[inline]
pub fn lg2l(m: u32) -> u32 {
    pack(lg2_fixed(m) - (1 << 36), 36)
}

/// `MUFU.SIN` of `i / 2^25` turns (`i < 2^25`; `MUFU.COS` of `i` is this of `i + 2^23`).
#[inline]
pub fn sincos(i: u32) -> u32 {
    let q = i >> 23 & 3;
    let f = (i & 0x7f_ffff) ^ (q & 1).wrapping_neg() & 0x7f_ffff;
    let x = f & 0x1ffff;
    pack(eval(coef::SIN[(f >> 17) as usize], x, sq(x)), 37) | (q >> 1) << 31
}

/// An f32 in [0.5, 2) as the high word of the double, mantissa truncated to 20 bits.
#[inline(always)]
fn high_word(t: u32) -> u32 {
    (t >> 3) + ((1023 - 127) << 20)
}

/// `MUFU.RCP64H` of the high word `1.m` (`m` 20 bits): the high word of the result.
#[inline]
pub fn rcp64h(m: u32) -> u32 {
    high_word(rcp(m << 3))
}

/// `MUFU.RSQ64H` of the high word `1.m` or `2 * 1.m` (`m` 20 bits): the high word of the result.
#[inline]
pub fn rsq64h(odd: bool, m: u32) -> u32 {
    high_word(rsq(odd, m << 3))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn split_squarer_equals_the_partial_products() {
        for x in 0..1u32 << 17 {
            assert_eq!(sq(x), sq_reference(x), "x = {x:#x}");
        }
    }
}
