//! The rounded arithmetic of f32 and f64 (PTX ISA 9.0, 9.7.3 "Floating-Point Instructions":
//! `add`, `sub`, `mul`, `fma`, `mad`, `div`, `rcp`, `sqrt`) with their rounding, `.ftz` and
//! `.sat` modifiers ([`FMode`]) and NaN results: the canonical NaN `0x7fffffff` for f32, the
//! first NaN operand quieted for f64 ([`F64_NAN_PROPAGATES`]), checked bit for bit on an H200
//! (see the parent module's sources). Round-to-nearest uses the host's IEEE hardware
//! (bit-identical by IEEE 754); the directed roundings use the soft-float core
//! ([`super::soft`]).
//!
//! `.ftz` flushes a result that is subnormal *after* rounding (assumption, see report).

use super::*;

/// Rounding, flush-to-zero and saturation modifiers of an arithmetic instruction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct FMode {
    /// `.rn .rz .rm .rp` (default `.rn`).
    pub rnd: Rounding,
    /// `.ftz`: subnormal inputs and results become sign-preserving zeros (f32, f16).
    pub ftz: bool,
    /// `.sat`: clamp the result to \[0, 1\], NaN to +0.
    pub sat: bool,
}

impl FMode {
    /// Round-to-nearest without modifiers.
    pub const RN: FMode = FMode {
        rnd: Rounding::Rn,
        ftz: false,
        sat: false,
    };
    /// Only a rounding mode.
    #[inline]
    pub const fn rnd(rnd: Rounding) -> FMode {
        FMode {
            rnd,
            ftz: false,
            sat: false,
        }
    }
}

/// Applies `.ftz` to an input of format `f`.
#[inline]
pub fn ftz_in(bits: u64, f: Fmt, ftz: bool) -> u64 {
    if ftz {
        f.flush(bits)
    } else {
        bits
    }
}

/// Finishes a result in format `f`: NaN policy already applied; `.ftz` then `.sat`.
#[inline]
pub(crate) fn finish(bits: u64, f: Fmt, m: FMode) -> u64 {
    let bits = ftz_in(bits, f, m.ftz);
    if m.sat {
        saturate(bits, f)
    } else {
        bits
    }
}

/// `.sat`: clamp to \[+0, 1\]; NaN and every value <= 0 (including -0) become +0.
#[inline]
pub(crate) fn saturate(bits: u64, f: Fmt) -> u64 {
    let one = (f.bias() as u64) << f.mbits;
    if f.is_nan(bits) || bits & f.sign_bit() != 0 {
        0
    } else if bits > one {
        one
    } else {
        bits
    }
}

#[inline]
pub(super) fn nan_or32(o: Out) -> u32 {
    match o {
        Out::Bits(b) => b as u32,
        Out::Nan => CANON_NAN_F32,
    }
}

/// The canonical f32 NaN of NVIDIA hardware.
pub const CANON_NAN_F32: u32 = 0x7fff_ffff;
/// The canonical f64 NaN.
pub const CANON_NAN_F64: u64 = 0xfff8_0000_0000_0000;

#[inline]
pub(super) fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        CANON_NAN_F32
    } else {
        x.to_bits()
    }
}

#[inline]
pub(super) fn fin32(bits: u32, m: FMode) -> u32 {
    finish(bits as u64, Fmt::F32, m) as u32
}

#[inline]
pub(super) fn in32(bits: u32, m: FMode) -> u32 {
    ftz_in(bits as u64, Fmt::F32, m.ftz) as u32
}

/// `add{.rnd}{.ftz}{.sat}.f32`.
#[inline]
pub fn add_f32(a: u32, b: u32, m: FMode) -> u32 {
    let (a, b) = (in32(a, m), in32(b, m));
    let r = if m.rnd == Rounding::Rn {
        canon32(f32::from_bits(a) + f32::from_bits(b))
    } else {
        nan_or32(soft_add(a as u64, b as u64, Fmt::F32, m.rnd))
    };
    fin32(r, m)
}

/// `sub{.rnd}{.ftz}{.sat}.f32`.
#[inline]
pub fn sub_f32(a: u32, b: u32, m: FMode) -> u32 {
    // a - b == a + (-b) exactly, NaN results are canonical either way.
    add_f32(a, b ^ 0x8000_0000, m)
}

/// `mul{.rnd}{.ftz}{.sat}.f32`.
#[inline]
pub fn mul_f32(a: u32, b: u32, m: FMode) -> u32 {
    let (a, b) = (in32(a, m), in32(b, m));
    let r = if m.rnd == Rounding::Rn {
        canon32(f32::from_bits(a) * f32::from_bits(b))
    } else {
        nan_or32(soft_mul(a as u64, b as u64, Fmt::F32, m.rnd))
    };
    fin32(r, m)
}

/// `fma.rnd{.ftz}{.sat}.f32` and `mad{.rnd}{.ftz}{.sat}.f32` (fused on sm_20+).
#[inline]
pub fn fma_f32(a: u32, b: u32, c: u32, m: FMode) -> u32 {
    let (a, b, c) = (in32(a, m), in32(b, m), in32(c, m));
    let r = if m.rnd == Rounding::Rn {
        canon32(fma_rn_f32(
            f32::from_bits(a),
            f32::from_bits(b),
            f32::from_bits(c),
        ))
    } else {
        nan_or32(soft_fma(a as u64, b as u64, c as u64, Fmt::F32, m.rnd))
    };
    fin32(r, m)
}

/// Correctly rounded f32 fused multiply-add without a hardware FMA: the product of two f32 is
/// exact in f64, the sum is rounded to odd in f64 (TwoSum gives its exact error), and rounding
/// that to f32 to nearest is then correct, since f64 carries more than f32's 24 bits plus two
/// (Boldo and Melquiond, "Emulation of FMA and correctly rounded sums: proved algorithms using
/// rounding to odd", IEEE Trans. Computers 57(4), 2008). Non-finite and zero cases use `mul_add`.
#[inline(always)]
pub(super) fn fma_rn_f32(a: f32, b: f32, c: f32) -> f32 {
    let p = a as f64 * b as f64;
    let cd = c as f64;
    let s = p + cd;
    if !s.is_finite() || s == 0.0 || !p.is_finite() {
        return a.mul_add(b, c);
    }
    let bb = s - p;
    let e = (p - (s - bb)) + (cd - bb);
    let bits = s.to_bits();
    let s = if e != 0.0 && bits & 1 == 0 {
        // Step to the odd neighbour on the side of the exact value.
        let away = (e > 0.0) == (s > 0.0);
        f64::from_bits(if away { bits + 1 } else { bits - 1 })
    } else {
        s
    };
    s as f32
}

/// `div.rnd{.ftz}.f32` (IEEE-correct division).
#[inline]
pub fn div_f32(a: u32, b: u32, m: FMode) -> u32 {
    let (a, b) = (in32(a, m), in32(b, m));
    let r = if m.rnd == Rounding::Rn {
        canon32(f32::from_bits(a) / f32::from_bits(b))
    } else {
        nan_or32(soft_div(a as u64, b as u64, Fmt::F32, m.rnd))
    };
    fin32(r, m)
}

/// `rcp.rnd{.ftz}.f32` (IEEE-correct reciprocal).
#[inline]
pub fn rcp_f32(a: u32, m: FMode) -> u32 {
    div_f32(0x3f80_0000, a, m)
}

/// `sqrt.rnd{.ftz}.f32` (IEEE-correct square root; sqrt(-0) = -0).
#[inline]
pub fn sqrt_f32(a: u32, m: FMode) -> u32 {
    let a = in32(a, m);
    let r = if m.rnd == Rounding::Rn {
        canon32(f32::from_bits(a).sqrt())
    } else {
        nan_or32(soft_sqrt(a as u64, Fmt::F32, m.rnd))
    };
    fin32(r, m)
}

/// The NaN an f64 operation returns when some operand is NaN (see [`F64_NAN_PROPAGATES`]).
#[inline]
pub(super) fn nan_in64(ops: &[u64]) -> Option<u64> {
    let mut first = None;
    for &x in ops {
        if Fmt::F64.is_nan(x) && first.is_none() {
            first = Some(x);
        }
    }
    first.map(|x| {
        if F64_NAN_PROPAGATES {
            Fmt::F64.quiet(x)
        } else {
            CANON_NAN_F64
        }
    })
}

#[inline]
pub(super) fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        CANON_NAN_F64
    } else {
        x.to_bits()
    }
}

#[inline]
pub(super) fn nan_or64(o: Out) -> u64 {
    match o {
        Out::Bits(b) => b,
        Out::Nan => CANON_NAN_F64,
    }
}

#[inline]
pub(super) fn fin64(bits: u64, m: FMode) -> u64 {
    // `.ftz` is not defined for f64 arithmetic: only `.sat` (where PTX allows it) applies.
    if m.sat {
        saturate(bits, Fmt::F64)
    } else {
        bits
    }
}

/// `add{.rnd}.f64`.
#[inline]
pub fn add_f64(a: u64, b: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a, b]) {
        return fin64(n, m);
    }
    let r = if m.rnd == Rounding::Rn {
        canon64(f64::from_bits(a) + f64::from_bits(b))
    } else {
        nan_or64(soft_add(a, b, Fmt::F64, m.rnd))
    };
    fin64(r, m)
}

/// `sub{.rnd}.f64`.
#[inline]
pub fn sub_f64(a: u64, b: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a, b]) {
        return fin64(n, m);
    }
    add_f64(a, b ^ (1 << 63), m)
}

/// `mul{.rnd}.f64`.
#[inline]
pub fn mul_f64(a: u64, b: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a, b]) {
        return fin64(n, m);
    }
    let r = if m.rnd == Rounding::Rn {
        canon64(f64::from_bits(a) * f64::from_bits(b))
    } else {
        nan_or64(soft_mul(a, b, Fmt::F64, m.rnd))
    };
    fin64(r, m)
}

/// `fma.rnd.f64` / `mad.rnd.f64`.
#[inline]
pub fn fma_f64(a: u64, b: u64, c: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a, b, c]) {
        return fin64(n, m);
    }
    let r = if m.rnd == Rounding::Rn {
        canon64(f64::from_bits(a).mul_add(f64::from_bits(b), f64::from_bits(c)))
    } else {
        nan_or64(soft_fma(a, b, c, Fmt::F64, m.rnd))
    };
    fin64(r, m)
}

/// `div.rnd.f64`.
#[inline]
pub fn div_f64(a: u64, b: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a, b]) {
        return fin64(n, m);
    }
    let r = if m.rnd == Rounding::Rn {
        canon64(f64::from_bits(a) / f64::from_bits(b))
    } else {
        nan_or64(soft_div(a, b, Fmt::F64, m.rnd))
    };
    fin64(r, m)
}

/// `rcp.rnd.f64`.
#[inline]
pub fn rcp_f64(a: u64, m: FMode) -> u64 {
    div_f64(1f64.to_bits(), a, m)
}

/// `sqrt.rnd.f64`.
#[inline]
pub fn sqrt_f64(a: u64, m: FMode) -> u64 {
    if let Some(n) = nan_in64(&[a]) {
        return fin64(n, m);
    }
    let r = if m.rnd == Rounding::Rn {
        canon64(f64::from_bits(a).sqrt())
    } else {
        nan_or64(soft_sqrt(a, Fmt::F64, m.rnd))
    };
    fin64(r, m)
}

#[cfg(test)]
mod fma_emulation_tests {
    use super::fma_rn_f32;

    #[test]
    fn matches_the_host_fma_on_random_and_hard_inputs() {
        // Reference: the host's IEEE fused multiply-add (`f32::mul_add`).
        let mut x = 0x1234_5678_9abc_def0u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x
        };
        for i in 0..200_000 {
            let r = next();
            let (a, b, c) = (
                f32::from_bits(r as u32),
                f32::from_bits((r >> 32) as u32),
                f32::from_bits(next() as u32),
            );
            // Also products near c in magnitude, where cancellation and ties happen.
            let c = if i % 2 == 0 {
                c
            } else {
                -(a * b) * (1.0 + f32::EPSILON * (i % 7) as f32)
            };
            let want = a.mul_add(b, c);
            let got = fma_rn_f32(a, b, c);
            assert!(
                want.to_bits() == got.to_bits() || (want.is_nan() && got.is_nan()),
                "{a:e} * {b:e} + {c:e}: {want:e} vs {got:e}"
            );
        }
    }
}
