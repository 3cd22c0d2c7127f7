//! Lane functions of the sm_90 half-precision pair instructions (`HADD2`, `HMUL2`, `HFMA2` and
//! its `.MMA` form, `HMNMX2`, `HADD2.F32`) and of `DSETP.MIN/MAX`, for
//! [`crate::ir::sass::SOp::Alu`] and [`crate::ir::sass::SOp::AluP`].
//!
//! The arithmetic is that of the PTX path ([`crate::exec::half`]: PTX `add/mul/fma.rn.f16x2`,
//! `.bf16x2`, `.sat`, `.relu`, `min/max{.NaN}`), elementwise on the two 16-bit halves, element 0
//! in the low half; the operands arrive with their SASS modifiers applied (`.H0_H0`, `-`, `|..|`,
//! [`crate::ir::sass::Src::apply`]). `.MMA` names the pipe that executes an `HFMA2` (ptxas moves
//! some to the tensor pipe), not another result. ptxas emits these for `__hadd`, `__hmul`,
//! `__hfma`, `__hfma_relu`, `__hfma_sat`, `__hmin`, `__hmax(_nan)`, the bf16 `__hfma`, and
//! `__half2float` (`HADD2.F32 d, -RZ, a.H0_H0`); checked bit for bit against the H200's outputs
//! of tests/hw/kernels/isa.cu (tests/front/sass.rs).
//!
//! The instruction constant `k` packs the element format and the modes: [`BF16`], [`SAT`],
//! [`RELU`].

use crate::exec::float::{self, FMode, Fmt};
use crate::exec::half;

/// `.BF16_V2`: the halves are bf16.
pub const BF16: u32 = 1;
/// `.SAT`: results clamped to \[0, 1\].
pub const SAT: u32 = 2;
/// `.RELU`: negative results become +0.
pub const RELU: u32 = 4;

#[inline(always)]
fn fmt(k: u32) -> Fmt {
    if k & BF16 != 0 {
        Fmt::BF16
    } else {
        Fmt::F16
    }
}

#[inline(always)]
fn mode(k: u32) -> FMode {
    FMode {
        sat: k & SAT != 0,
        ..FMode::RN
    }
}

/// `HADD2 d, a, b`: `add.rn.f16x2` (or `.bf16x2`).
pub fn hadd2(a: u32, b: u32, _: u32, k: u32) -> u32 {
    half::add_h2(fmt(k), a, b, mode(k))
}

/// `HMUL2 d, a, b`: `mul.rn.f16x2`.
pub fn hmul2(a: u32, b: u32, _: u32, k: u32) -> u32 {
    half::mul_h2(fmt(k), a, b, mode(k))
}

/// `HFMA2{.MMA} d, a, b, c`: `fma.rn.f16x2` with one rounding (`.RELU`, `.SAT`, `.BF16_V2`
/// from `k`). ptxas also moves 32-bit constants with it: `HFMA2.MMA R7, -RZ, RZ, 1.875, 0` is
/// `-0 * 0 + c`, which is `c`'s bits in each half (a `+0` half stays `+0`).
pub fn hfma2(a: u32, b: u32, c: u32, k: u32) -> u32 {
    half::fma_h2(fmt(k), a, b, c, mode(k), k & RELU != 0)
}

/// `HADD2.F32 d, a, b`: the sum of the low halves as an f32 (`__half2float(x)` is
/// `HADD2.F32 d, -RZ, x.H0_H0`: `-0 + x` is `x`, exactly; a NaN becomes the canonical f32 NaN,
/// as PTX `cvt.f32.f16` gives it).
pub fn hadd2_f32(a: u32, b: u32, _: u32, k: u32) -> u32 {
    let wide = |x: u32| {
        crate::exec::cvt::cvt(
            u64::from(x & 0xffff),
            crate::ir::types::ScalarType::F32,
            if k & BF16 != 0 {
                crate::ir::types::ScalarType::BF16
            } else {
                crate::ir::types::ScalarType::F16
            },
            None,
            false,
            false,
            false,
        ) as u32
    };
    float::add_f32(wide(a), wide(b), FMode::RN)
}

/// `HMNMX2 d, a, b, p`: `p ? min : max` of each half (`min/max.f16x2`: a NaN operand gives the
/// other, both NaN the canonical NaN).
pub fn hmnmx2(a: u32, b: u32, _: u32, p: u32) -> u32 {
    let f = Fmt::F16;
    half::map2(a, b, |x, y| {
        if p != 0 {
            half::min_h(f, x, y, false, false)
        } else {
            half::max_h(f, x, y, false, false)
        }
    })
}

/// `HMNMX2.NAN d, a, b, p`: as [`hmnmx2`], a NaN operand giving the canonical NaN
/// (`min/max.NaN.f16x2`).
pub fn hmnmx2_nan(a: u32, b: u32, _: u32, p: u32) -> u32 {
    let f = Fmt::F16;
    half::map2(a, b, |x, y| {
        if p != 0 {
            half::min_h(f, x, y, false, true)
        } else {
            half::max_h(f, x, y, false, true)
        }
    })
}

/// The compared value of an `HSETP2` operand: its low half (both halves are equal under
/// `.H0_H0`/`.H1_H1`, the only forms decoded), as an f64 for [`crate::ir::sass::Cmp`].
#[inline]
pub fn low_half(x: u32) -> f64 {
    ::half::f16::from_bits((x & 0xffff) as u16).to_f64()
}

/// `DSETP.MIN.AND p, q, a, b, pin` and `DSETP.MAX...` (what ptxas makes of `fmin`/`fmax` on
/// doubles): `p` says whether `a` is the result (the smaller, or larger, with `-0 < +0`, and
/// the operand that is not NaN when one is), `q` whether both are NaN; the code then selects
/// `p ? a : b` and, under `q`, sets the quiet bit of `b`'s high word. Returns `(p, q)` before
/// combining with `pin`.
pub fn dsetp_minmax(a: f64, b: f64, max: bool) -> (bool, bool) {
    let (an, bn) = (a.is_nan(), b.is_nan());
    let pick_a = if an {
        false
    } else if bn {
        true
    } else if a == b {
        // Equal values have equal bits except for the zeros' signs.
        a.is_sign_negative() != max
    } else {
        (a < b) != max
    };
    (pick_a, an && bn)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hfma2_of_zero_products_moves_the_immediate() {
        // HFMA2.MMA R7, -RZ, RZ, 1.875, 0 puts 0x3f800000 (1.0f) in R7.
        let c = (::half::f16::from_f32(1.875).to_bits() as u32) << 16;
        assert_eq!(hfma2(0x8000_8000, 0, c, 0), 0x3f80_0000);
    }

    #[test]
    fn half_to_float_is_exact() {
        // -0 + 1.5 (0x3e00) is 1.5f; -0 + +0 is +0; a NaN is the canonical f32 NaN.
        assert_eq!(hadd2_f32(0x8000_8000, 0x3e00_3e00, 0, 0), 1.5f32.to_bits());
        assert_eq!(hadd2_f32(0x8000_8000, 0, 0, 0), 0);
        assert_eq!(hadd2_f32(0x8000_8000, 0x7e01, 0, 0), 0x7fff_ffff);
    }

    #[test]
    fn dsetp_minmax_picks_as_fmin_and_fmax() {
        let nan = f64::NAN;
        assert_eq!(dsetp_minmax(1.0, 2.0, false), (true, false));
        assert_eq!(dsetp_minmax(1.0, 2.0, true), (false, false));
        assert_eq!(dsetp_minmax(nan, 2.0, false), (false, false));
        assert_eq!(dsetp_minmax(1.0, nan, true), (true, false));
        assert_eq!(dsetp_minmax(nan, nan, false), (false, true));
        assert_eq!(dsetp_minmax(-0.0, 0.0, false), (true, false));
        assert_eq!(dsetp_minmax(-0.0, 0.0, true), (false, false));
    }
}
