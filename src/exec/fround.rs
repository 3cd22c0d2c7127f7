//! Per-lane floating-point primitives with PTX rounding, flush-to-zero and saturation
//! (PTX ISA 9.7.3). The directed roundings step from the nearest result by the sign of the
//! exact error, found with error-free transformations.

use crate::ir::types::Rounding;

/// Reads an f32 lane, flushing a subnormal to a signed zero under `.ftz`.
#[inline(always)]
pub fn in32(x: u64, ftz: bool) -> f32 {
    let v = f32::from_bits(x as u32);
    if ftz && v.is_subnormal() {
        f32::from_bits(x as u32 & 0x8000_0000)
    } else {
        v
    }
}

/// Writes an f32 result: `.ftz` flushes subnormals, `.sat` clamps to [0, 1] with NaN to 0;
/// NaN results are the canonical NaN `0x7fffffff` (PTX ISA 9.7.3).
#[inline(always)]
pub fn out32(v: f32, ftz: bool, sat: bool) -> f32 {
    let mut v = v;
    if v.is_nan() {
        return if sat {
            0.0
        } else {
            f32::from_bits(0x7fff_ffff)
        };
    }
    if ftz && v.is_subnormal() {
        v = f32::from_bits(v.to_bits() & 0x8000_0000);
    }
    if sat {
        v = v.clamp(0.0, 1.0);
    }
    v
}

/// Moves `v` one step towards the rounding direction when the exact result differs from it by
/// `err` (exact minus `v`), for f32 results computed from an exact f64 value.
#[inline(always)]
fn direct32(exact: f64, r: Rounding) -> f32 {
    let v = exact as f32;
    if r == Rounding::Rn || r == Rounding::Rna || v.is_nan() {
        return v;
    }
    let back = v as f64;
    if back == exact {
        return v;
    }
    let up = exact > back;
    match r {
        Rounding::Rz => {
            if (up && v < 0.0) || (!up && v > 0.0) {
                step32(v, up)
            } else if v.is_infinite() {
                f32::MAX.copysign(v)
            } else {
                v
            }
        }
        Rounding::Rm => {
            if up {
                if v.is_infinite() && v > 0.0 {
                    f32::MAX
                } else {
                    v
                }
            } else {
                step32(v, false)
            }
        }
        _ => {
            if up {
                step32(v, true)
            } else if v.is_infinite() && v < 0.0 {
                -f32::MAX
            } else {
                v
            }
        }
    }
}

#[inline(always)]
fn step32(v: f32, up: bool) -> f32 {
    if v.is_infinite() {
        return if (v > 0.0) == up {
            v
        } else {
            f32::MAX.copysign(v)
        };
    }
    if up {
        v.next_up()
    } else {
        v.next_down()
    }
}

/// f32 add with rounding (the sum of two f32 is exact in f64).
#[inline(always)]
pub fn add32(a: f32, b: f32, r: Rounding) -> f32 {
    if r == Rounding::Rn {
        return a + b;
    }
    direct32(a as f64 + b as f64, r)
}

/// f32 multiply with rounding (the product of two f32 is exact in f64).
#[inline(always)]
pub fn mul32(a: f32, b: f32, r: Rounding) -> f32 {
    if r == Rounding::Rn {
        return a * b;
    }
    direct32(a as f64 * b as f64, r)
}

/// f32 fused multiply-add.
#[inline(always)]
pub fn fma32(a: f32, b: f32, c: f32, r: Rounding) -> f32 {
    if r == Rounding::Rn {
        return a.mul_add(b, c);
    }
    // a*b is exact in f64; the sum may round in f64, so decide with the f64 error term.
    let p = a as f64 * b as f64;
    let s = p + c as f64;
    let err = (p - (s - (s - p))) + (c as f64 - (s - p));
    let v = s as f32;
    let back = v as f64;
    let diff = (s - back) + err;
    if diff == 0.0 {
        return v;
    }
    direct32(back + diff, r)
}

/// f32 IEEE division with rounding.
#[inline(always)]
pub fn div32(a: f32, b: f32, r: Rounding) -> f32 {
    let q = a / b;
    if r == Rounding::Rn || !q.is_finite() || q == 0.0 {
        return if r == Rounding::Rn {
            q
        } else {
            direct32(a as f64 / b as f64, r)
        };
    }
    // Exact remainder in f64: a - q*b.
    let rem = (a as f64) - (q as f64) * (b as f64);
    if rem == 0.0 {
        return q;
    }
    let up = (rem > 0.0) == (b > 0.0);
    let exact_dir = if up { f64::INFINITY } else { f64::NEG_INFINITY };
    directed_from(q, exact_dir, r)
}

/// f32 IEEE square root with rounding.
#[inline(always)]
pub fn sqrt32(a: f32, r: Rounding) -> f32 {
    let s = a.sqrt();
    if r == Rounding::Rn || !s.is_finite() || s == 0.0 {
        return s;
    }
    let rem = a as f64 - (s as f64) * (s as f64);
    if rem == 0.0 {
        return s;
    }
    directed_from(
        s,
        if rem > 0.0 {
            f64::INFINITY
        } else {
            f64::NEG_INFINITY
        },
        r,
    )
}

/// Given the nearest result `v` and the side of the exact value, the directed result.
#[inline(always)]
fn directed_from(v: f32, side: f64, r: Rounding) -> f32 {
    let up = side > 0.0;
    match r {
        Rounding::Rz => {
            if (up && v < 0.0) || (!up && v > 0.0) {
                step32(v, up)
            } else {
                v
            }
        }
        Rounding::Rm => {
            if up {
                v
            } else {
                step32(v, false)
            }
        }
        Rounding::Rp => {
            if up {
                step32(v, true)
            } else {
                v
            }
        }
        _ => v,
    }
}

/// `div.approx.f32`: a * rcp.approx(b) (PTX ISA 9.7.3.8: max error 2 ulp in full range).
#[inline(always)]
pub fn div_approx32(a: f32, b: f32) -> f32 {
    a * rcp_approx32(b)
}

/// `div.full.f32`: max 2 ulp error (PTX ISA 9.7.3.8); correctly rounded here.
#[inline(always)]
pub fn div_full32(a: f32, b: f32) -> f32 {
    a / b
}

/// `rcp.approx.f32`.
#[inline(always)]
pub fn rcp_approx32(a: f32) -> f32 {
    1.0 / a
}

/// `sqrt.approx.f32`.
#[inline(always)]
pub fn sqrt_approx32(a: f32) -> f32 {
    a.sqrt()
}

/// `rsqrt.approx.f32`.
#[inline(always)]
pub fn rsqrt_approx32(a: f32) -> f32 {
    (1.0 / (a as f64).sqrt()) as f32
}

/// `sin.approx.f32`.
#[inline(always)]
pub fn sin_approx32(a: f32) -> f32 {
    (a as f64).sin() as f32
}

/// `cos.approx.f32`.
#[inline(always)]
pub fn cos_approx32(a: f32) -> f32 {
    (a as f64).cos() as f32
}

/// `lg2.approx.f32`.
#[inline(always)]
pub fn lg2_approx32(a: f32) -> f32 {
    (a as f64).log2() as f32
}

/// `ex2.approx.f32`.
#[inline(always)]
pub fn ex2_approx32(a: f32) -> f32 {
    (a as f64).exp2() as f32
}

/// `tanh.approx.f32`.
#[inline(always)]
pub fn tanh_approx32(a: f32) -> f32 {
    (a as f64).tanh() as f32
}

/// `min.f32`: the other operand when one is NaN; -0 < +0.
#[inline(always)]
pub fn min32(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
}

/// `max.f32`.
#[inline(always)]
pub fn max32(a: f32, b: f32) -> f32 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_positive() { a } else { b };
    }
    a.max(b)
}

/// `min.NaN.f32`: NaN when either is NaN.
#[inline(always)]
pub fn min_nan32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        min32(a, b)
    }
}

/// `max.NaN.f32`.
#[inline(always)]
pub fn max_nan32(a: f32, b: f32) -> f32 {
    if a.is_nan() || b.is_nan() {
        f32::NAN
    } else {
        max32(a, b)
    }
}

/// f64 add with rounding.
#[inline(always)]
pub fn add64(a: f64, b: f64, r: Rounding) -> f64 {
    let s = a + b;
    if r == Rounding::Rn || !s.is_finite() {
        return s;
    }
    let bb = s - a;
    let err = (a - (s - bb)) + (b - bb);
    directed64(s, err, r)
}

/// f64 multiply with rounding.
#[inline(always)]
pub fn mul64(a: f64, b: f64, r: Rounding) -> f64 {
    let p = a * b;
    if r == Rounding::Rn || !p.is_finite() {
        return p;
    }
    directed64(p, a.mul_add(b, -p), r)
}

/// f64 fused multiply-add (directed modes exact except in double-rounding corner cases).
#[inline(always)]
pub fn fma64(a: f64, b: f64, c: f64, r: Rounding) -> f64 {
    let s = a.mul_add(b, c);
    if r == Rounding::Rn || !s.is_finite() {
        return s;
    }
    // Error of the fused result: exact a*b = p + e; (p + e + c) - s.
    let p = a * b;
    let e = a.mul_add(b, -p);
    let t = p + c;
    let bb = t - p;
    let et = (p - (t - bb)) + (c - bb);
    let err = (t - s) + et + e;
    directed64(s, err, r)
}

/// f64 division with rounding.
#[inline(always)]
pub fn div64(a: f64, b: f64, r: Rounding) -> f64 {
    let q = a / b;
    if r == Rounding::Rn || !q.is_finite() || q == 0.0 {
        return q;
    }
    let rem = (-q).mul_add(b, a);
    directed64(q, if b > 0.0 { rem } else { -rem }, r)
}

/// f64 square root with rounding.
#[inline(always)]
pub fn sqrt64(a: f64, r: Rounding) -> f64 {
    let s = a.sqrt();
    if r == Rounding::Rn || !s.is_finite() || s == 0.0 {
        return s;
    }
    directed64(s, (-s).mul_add(s, a), r)
}

#[inline(always)]
fn directed64(v: f64, err: f64, r: Rounding) -> f64 {
    if err == 0.0 || err.is_nan() {
        return v;
    }
    let up = err > 0.0;
    match r {
        Rounding::Rz => {
            if (up && v < 0.0) || (!up && v > 0.0) {
                if up {
                    v.next_up()
                } else {
                    v.next_down()
                }
            } else {
                v
            }
        }
        Rounding::Rm => {
            if up {
                v
            } else {
                v.next_down()
            }
        }
        Rounding::Rp => {
            if up {
                v.next_up()
            } else {
                v
            }
        }
        _ => v,
    }
}

/// `rcp.approx.ftz.f64`.
#[inline(always)]
pub fn rcp_approx64(a: f64) -> f64 {
    1.0 / a
}

/// `rsqrt.approx.f64`.
#[inline(always)]
pub fn rsqrt_approx64(a: f64) -> f64 {
    1.0 / a.sqrt()
}

/// `min.f64`.
#[inline(always)]
pub fn min64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_negative() { a } else { b };
    }
    a.min(b)
}

/// `max.f64`.
#[inline(always)]
pub fn max64(a: f64, b: f64) -> f64 {
    if a.is_nan() {
        return b;
    }
    if b.is_nan() {
        return a;
    }
    if a == b {
        return if a.is_sign_positive() { a } else { b };
    }
    a.max(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_third_rounds_each_way() {
        // 1/3 in f32: nearest and up 0x3eaaaaab, down and towards zero 0x3eaaaaaa.
        assert_eq!(div32(1.0, 3.0, Rounding::Rn).to_bits(), 0x3eaa_aaab);
        assert_eq!(div32(1.0, 3.0, Rounding::Rp).to_bits(), 0x3eaa_aaab);
        assert_eq!(div32(1.0, 3.0, Rounding::Rm).to_bits(), 0x3eaa_aaaa);
        assert_eq!(div32(1.0, 3.0, Rounding::Rz).to_bits(), 0x3eaa_aaaa);
        assert_eq!(div32(-1.0, 3.0, Rounding::Rz).to_bits(), 0xbeaa_aaaa);
        assert_eq!(div32(-1.0, 3.0, Rounding::Rm).to_bits(), 0xbeaa_aaab);
        // 1 + 2^-30 rounds to 1 except upwards.
        let tiny = f32::from_bits(0x3080_0000);
        assert_eq!(add32(1.0, tiny, Rounding::Rp), 1.0f32.next_up());
        assert_eq!(add32(1.0, tiny, Rounding::Rz), 1.0);
    }
}
