//! Per-lane f16 / bf16 arithmetic (`.f16 .f16x2 .bf16 .bf16x2`) as NVRTC emits it for `__half`
//! and `__nv_bfloat16` code (PTX ISA 9.0, section 9.7.4 "Half Precision Floating-Point
//! Instructions": 9.7.4.1 `add`, 9.7.4.2 `sub`, 9.7.4.3 `mul`, 9.7.4.4 `fma` (`.relu` clamps
//! negative results to +0), 9.7.4.5 `neg`, 9.7.4.6 `abs`, 9.7.4.7 `min`, 9.7.4.8 `max`;
//! `.ftz` and `.sat` exist for f16 only; packed forms operate elementwise, element 0 in the low
//! half).
//!
//! Every result is the exact value rounded once (IEEE 754 section 5.4): the exact product of two
//! half-precision operands (at most 2×11 = 22 significant bits) is formed in an integer, added to
//! the third operand exactly (`u128` with a sticky bit) and rounded by
//! [`super::float::round_pack`] — no double rounding, so `fma` is exact for f16 and bf16 alike
//! (an f64 `a*b+c` would not be: with a product near 2^31 and `c` = 2^-24 the exact sum spans 56
//! bits). NaN results are the canonical NaN `0x7fff` (assumed to match HADD2/HFMA2, like f32).

use super::float::{finish, fmax, fmin, ftz_in, soft_add, soft_fma, soft_mul, FMode, Fmt, Out};

#[inline]
fn out(o: Out, f: Fmt) -> u64 {
    match o {
        Out::Bits(b) => b,
        Out::Nan => f.canonical_nan(),
    }
}

#[inline]
fn ins(f: Fmt, x: u16, m: FMode) -> u64 {
    ftz_in(x as u64, f, m.ftz)
}

/// `add{.rn}{.ftz}{.sat}` on one f16 (`Fmt::F16`) or bf16 (`Fmt::BF16`) element.
#[inline]
pub fn add_h(f: Fmt, a: u16, b: u16, m: FMode) -> u16 {
    finish(out(soft_add(ins(f, a, m), ins(f, b, m), f, m.rnd), f), f, m) as u16
}

/// `sub{.rn}{.ftz}{.sat}` on one element.
#[inline]
pub fn sub_h(f: Fmt, a: u16, b: u16, m: FMode) -> u16 {
    let nb = ins(f, b, m) ^ f.sign_bit();
    finish(out(soft_add(ins(f, a, m), nb, f, m.rnd), f), f, m) as u16
}

/// `mul{.rn}{.ftz}{.sat}` on one element.
#[inline]
pub fn mul_h(f: Fmt, a: u16, b: u16, m: FMode) -> u16 {
    finish(out(soft_mul(ins(f, a, m), ins(f, b, m), f, m.rnd), f), f, m) as u16
}

/// `fma.rn{.ftz}{.sat}{.relu}` on one element.
#[inline]
pub fn fma_h(f: Fmt, a: u16, b: u16, c: u16, m: FMode, relu: bool) -> u16 {
    let r = finish(
        out(
            soft_fma(ins(f, a, m), ins(f, b, m), ins(f, c, m), f, m.rnd),
            f,
        ),
        f,
        m,
    );
    if relu && r & f.sign_bit() != 0 && !f.is_nan(r) {
        0
    } else {
        r as u16
    }
}

/// `neg{.ftz}` on one element: flips the sign bit (NaN payload kept; PTX leaves it unspecified).
#[inline]
pub fn neg_h(f: Fmt, a: u16, ftz: bool) -> u16 {
    (ftz_in(a as u64, f, ftz) ^ f.sign_bit()) as u16
}

/// `abs{.ftz}` on one element: clears the sign bit.
#[inline]
pub fn abs_h(f: Fmt, a: u16, ftz: bool) -> u16 {
    (ftz_in(a as u64, f, ftz) & !f.sign_bit()) as u16
}

/// `min{.ftz}{.NaN}` on one element (NaN rules of [`fmin`]).
#[inline]
pub fn min_h(f: Fmt, a: u16, b: u16, ftz: bool, nan: bool) -> u16 {
    fmin(f, a as u64, b as u64, ftz, nan) as u16
}

/// `max{.ftz}{.NaN}` on one element.
#[inline]
pub fn max_h(f: Fmt, a: u16, b: u16, ftz: bool, nan: bool) -> u16 {
    fmax(f, a as u64, b as u64, ftz, nan) as u16
}

/// `min.xorsign.abs` / `max.xorsign.abs`: the min (max) of |a| and |b| with sign bit
/// sign(a) XOR sign(b); a NaN result stays the canonical NaN.
#[inline]
pub fn minmax_xorsign_abs_h(f: Fmt, a: u16, b: u16, ftz: bool, nan: bool, is_max: bool) -> u16 {
    let s = (a as u64 ^ b as u64) & f.sign_bit();
    let (x, y) = (abs_h(f, a, ftz) as u64, abs_h(f, b, ftz) as u64);
    let r = if is_max {
        fmax(f, x, y, false, nan)
    } else {
        fmin(f, x, y, false, nan)
    };
    if f.is_nan(r) {
        r as u16
    } else {
        (r | s) as u16
    }
}

/// Applies `op` to both 16-bit elements of packed operands (element 0 in the low half).
#[inline]
pub fn map2(a: u32, b: u32, op: impl Fn(u16, u16) -> u16) -> u32 {
    (op(a as u16, b as u16) as u32) | ((op((a >> 16) as u16, (b >> 16) as u16) as u32) << 16)
}

/// Three-operand version of [`map2`].
#[inline]
pub fn map3(a: u32, b: u32, c: u32, op: impl Fn(u16, u16, u16) -> u16) -> u32 {
    (op(a as u16, b as u16, c as u16) as u32)
        | ((op((a >> 16) as u16, (b >> 16) as u16, (c >> 16) as u16) as u32) << 16)
}

/// `add.f16x2` / `add.bf16x2`.
#[inline]
pub fn add_h2(f: Fmt, a: u32, b: u32, m: FMode) -> u32 {
    map2(a, b, |x, y| add_h(f, x, y, m))
}

/// `sub.f16x2` / `sub.bf16x2`.
#[inline]
pub fn sub_h2(f: Fmt, a: u32, b: u32, m: FMode) -> u32 {
    map2(a, b, |x, y| sub_h(f, x, y, m))
}

/// `mul.f16x2` / `mul.bf16x2`.
#[inline]
pub fn mul_h2(f: Fmt, a: u32, b: u32, m: FMode) -> u32 {
    map2(a, b, |x, y| mul_h(f, x, y, m))
}

/// `fma.rn.f16x2` / `fma.rn.bf16x2`.
#[inline]
pub fn fma_h2(f: Fmt, a: u32, b: u32, c: u32, m: FMode, relu: bool) -> u32 {
    map3(a, b, c, |x, y, z| fma_h(f, x, y, z, m, relu))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ir::types::Rounding;
    use half::{bf16, f16};

    const F: Fmt = Fmt::F16;
    const B: Fmt = Fmt::BF16;
    const RN: FMode = FMode::RN;

    #[test]
    fn hand_values() {
        // 1 + 1 = 2 (0x4000); 1 + 2^-11 (0x1000) is a tie -> even -> 1.0.
        assert_eq!(add_h(F, 0x3c00, 0x3c00, RN), 0x4000);
        assert_eq!(add_h(F, 0x3c00, 0x1000, RN), 0x3c00);
        // 1 + 1.5*2^-11 (0x1200): above the midpoint -> 1 + 2^-10 = 0x3c01.
        assert_eq!(add_h(F, 0x3c00, 0x1200, RN), 0x3c01);
        // 65504 + 16 = 65520 overflows under rn (tie to even -> inf); .sat gives 1.0.
        assert_eq!(add_h(F, 0x7bff, 0x4c00, RN), 0x7c00);
        assert_eq!(add_h(F, 0x7bff, 0x4c00, FMode { sat: true, ..RN }), 0x3c00);
        // x - x = +0; inf - inf = canonical NaN.
        assert_eq!(sub_h(F, 0x4500, 0x4500, RN), 0x0000);
        assert_eq!(sub_h(F, 0x7c00, 0x7c00, RN), 0x7fff);
        // .ftz: subnormal 0x0001 * 1 -> +0; without ftz stays 0x0001.
        assert_eq!(mul_h(F, 0x0001, 0x3c00, FMode { ftz: true, ..RN }), 0x0000);
        assert_eq!(mul_h(F, 0x0001, 0x3c00, RN), 0x0001);
        // bf16: 1 + 1 = 2 (0x4000); 3 * 3 = 9 (0x4110).
        assert_eq!(add_h(B, 0x3f80, 0x3f80, RN), 0x4000);
        assert_eq!(mul_h(B, 0x4040, 0x4040, RN), 0x4110);
        // fma: (1 + 2^-10)^2 - 1 = 2^-9 + 2^-20, exact only when fused: 2^-9 + 2^-20 rounds to
        // 2^-9 + 2^-19 (f16 near 2^-9 has ulp 2^-19, 2^-20 is a tie -> even = 2^-9 = 0x1800).
        assert_eq!(fma_h(F, 0x3c01, 0x3c01, 0xbc00, RN, false), 0x1800);
        // relu: -1*1 + 0 -> +0.
        assert_eq!(fma_h(F, 0xbc00, 0x3c00, 0x0000, RN, true), 0x0000);
        // Packed: element 0 in the low half.
        assert_eq!(add_h2(F, 0x4000_3c00, 0x3c00_3c00, RN), 0x4200_4000);
        assert_eq!(neg_h(F, 0x3c00, false), 0xbc00);
        assert_eq!(abs_h(B, 0xbf80, false), 0x3f80);
        // min/max: NaN and the other -> the other; both NaN -> canonical; .NaN -> canonical.
        assert_eq!(min_h(F, 0x7e00, 0x3c00, false, false), 0x3c00);
        assert_eq!(max_h(F, 0x7e00, 0x7d00, false, false), 0x7fff);
        assert_eq!(max_h(F, 0x7e00, 0x3c00, false, true), 0x7fff);
        assert_eq!(min_h(F, 0x8000, 0x0000, false, false), 0x8000);
        // xorsign.abs: min(|-2|, |3|) with sign - xor + = -2.
        assert_eq!(
            minmax_xorsign_abs_h(F, 0xc000, 0x4200, false, false, false),
            0xc000
        );
    }

    fn rng(state: &mut u64) -> u64 {
        // splitmix64
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// rn add/mul agree with the `half` crate, which computes in f32 and rounds once more; for
    /// +, * that double rounding is harmless since 24 >= 2*11 + 2 (Figueroa, "When is double
    /// rounding innocuous?", 1995).
    #[test]
    fn rn_matches_half_crate() {
        let mut s = 1;
        for _ in 0..20000 {
            let r = rng(&mut s);
            let (a, b) = (r as u16, (r >> 16) as u16);
            let (ha, hb) = (f16::from_bits(a), f16::from_bits(b));
            let sum = f16::from_f32(ha.to_f32() + hb.to_f32());
            let prod = f16::from_f32(ha.to_f32() * hb.to_f32());
            if !sum.is_nan() {
                assert_eq!(add_h(F, a, b, RN), sum.to_bits(), "{a:#x}+{b:#x}");
            }
            if !prod.is_nan() {
                assert_eq!(mul_h(F, a, b, RN), prod.to_bits(), "{a:#x}*{b:#x}");
            }
            let (ba, bb) = (bf16::from_bits(a), bf16::from_bits(b));
            let bsum = bf16::from_f32(ba.to_f32() + bb.to_f32());
            if !bsum.is_nan() {
                assert_eq!(add_h(B, a, b, RN), bsum.to_bits(), "bf {a:#x}+{b:#x}");
            }
        }
    }

    /// fma against f64 whenever the f64 `a*b+c` is exact (checked by TwoSum), then one rounding
    /// by the `half` crate; directed results bracket the exact value.
    #[test]
    fn fma_against_exact_f64() {
        let mut s = 7;
        let mut checked = 0;
        for _ in 0..20000 {
            let r = rng(&mut s);
            let (a, b, c) = (r as u16, (r >> 16) as u16, (r >> 32) as u16);
            let (x, y, z) = (
                f16::from_bits(a).to_f64(),
                f16::from_bits(b).to_f64(),
                f16::from_bits(c).to_f64(),
            );
            let p = x * y; // exact: 22 bits
            let sum = p + z;
            let bb = sum - p;
            let err = (p - (sum - bb)) + (z - bb);
            if !sum.is_finite() || err != 0.0 {
                continue;
            }
            checked += 1;
            assert_eq!(
                fma_h(F, a, b, c, RN, false),
                f16::from_f64(sum).to_bits(),
                "{a:#x} {b:#x} {c:#x}"
            );
            let dn = f16::from_bits(fma_h(F, a, b, c, FMode::rnd(Rounding::Rm), false)).to_f64();
            let up = f16::from_bits(fma_h(F, a, b, c, FMode::rnd(Rounding::Rp), false)).to_f64();
            assert!(dn <= sum && sum <= up);
        }
        assert!(checked > 10000);
    }
}
