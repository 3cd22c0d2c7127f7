//! The soft-float core shared by the f32/f64 instructions here, [`crate::exec::cvt`] and
//! [`crate::exec::half`]: operands unpacked to `sig * 2^exp`, exact sums, products, quotients
//! and roots, and one rounding ([`round_pack`]) in any of the IEEE 754-2008 section 4.3
//! rounding directions; an exact zero sum is `+0` except under roundTowardNegative (section
//! 6.3), and overflow under round-toward-zero gives the largest finite number (section 7.4).
//!
//! Design: the directed roundings `.rz .rm .rp` (and `.rna`) are computed exactly on integers:
//! operands are unpacked to `sig * 2^exp`, the product/sum/quotient/root is formed exactly in a
//! `u128` (with a "jam" bit that keeps the result odd when non-zero bits were shifted out, the
//! classic sticky technique: an odd value v then stands for some value strictly between v-1 and
//! v+1, which rounds identically as long as at least two bits are cut), then [`round_pack`]
//! rounds once. Round-to-nearest f32/f64 `add sub mul fma div sqrt` use the host's IEEE hardware
//! (bit-identical by IEEE 754) and only fix NaN, `.ftz` and `.sat`.

use super::*;

/// An unpacked operand.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Val {
    Nan,
    Inf(bool),
    Zero(bool),
    /// `(-1)^neg * sig * 2^exp`, `sig != 0`.
    Fin {
        neg: bool,
        sig: u64,
        exp: i32,
    },
}

/// Unpacks `bits` (low bits of the lane) of format `f`.
#[inline]
pub(crate) fn unpack(bits: u64, f: Fmt) -> Val {
    let neg = bits & f.sign_bit() != 0;
    let e = (bits >> f.mbits) & f.exp_field_max();
    let frac = bits & f.frac_mask();
    if e == f.exp_field_max() {
        if frac == 0 {
            Val::Inf(neg)
        } else {
            Val::Nan
        }
    } else if e == 0 {
        if frac == 0 {
            Val::Zero(neg)
        } else {
            Val::Fin {
                neg,
                sig: frac,
                exp: 1 - f.bias() - f.mbits as i32,
            }
        }
    } else {
        Val::Fin {
            neg,
            sig: frac | (1u64 << f.mbits),
            exp: e as i32 - f.bias() - f.mbits as i32,
        }
    }
}

/// Rounds `(-1)^neg * sig * 2^exp` (`sig != 0`) once to format `f`.
///
/// `sig` is taken as exact; callers that dropped bits keep its lowest bit set ("jam") and leave at
/// least two bits below the rounding position, which then rounds as the exact value would.
#[inline]
pub(crate) fn round_pack(neg: bool, sig: u128, exp: i32, f: Fmt, rnd: Rounding) -> u64 {
    let sign = if neg { f.sign_bit() } else { 0 };
    if sig == 0 {
        return sign;
    }
    let msb = 127 - sig.leading_zeros() as i32;
    let e_val = exp + msb;
    let emin = 1 - f.bias();
    let mut lsb = e_val.max(emin) - f.mbits as i32;
    let shift = lsb - exp;
    // q: the truncated significand; (above, at, inexact) describe the cut-off part vs. half an ulp.
    let (mut q, above, at, inexact) = if shift <= 0 {
        ((sig << (-shift) as u32) as u64, false, false, false)
    } else if shift < 128 {
        let rem = sig & ((1u128 << shift) - 1);
        let half = 1u128 << (shift - 1);
        ((sig >> shift) as u64, rem > half, rem == half, rem != 0)
    } else if shift == 128 {
        let half = 1u128 << 127;
        (0, sig > half, sig == half, true)
    } else {
        (0, false, false, true)
    };
    let up = match rnd {
        Rounding::Rn => above || (at && q & 1 == 1),
        Rounding::Rna => above || at,
        Rounding::Rz => false,
        Rounding::Rp => inexact && !neg,
        Rounding::Rm => inexact && neg,
    };
    q += up as u64;
    if q == 1u64 << (f.mbits + 1) {
        q >>= 1;
        lsb += 1;
    }
    if q >> f.mbits == 0 {
        // Subnormal or zero (lsb is the subnormal lsb here).
        return sign | q;
    }
    let e_field = (lsb + f.mbits as i32 + f.bias()) as i64;
    if e_field >= f.exp_field_max() as i64 {
        let to_inf = match rnd {
            Rounding::Rn | Rounding::Rna => true,
            Rounding::Rz => false,
            Rounding::Rp => !neg,
            Rounding::Rm => neg,
        };
        return if to_inf {
            f.inf(neg)
        } else {
            f.max_finite(neg)
        };
    }
    sign | ((e_field as u64) << f.mbits) | (q & f.frac_mask())
}

/// Shift right, OR-ing every bit shifted out into bit 0.
#[inline]
pub(super) fn shr_jam(x: u128, d: u32) -> u128 {
    if d == 0 {
        x
    } else if d < 128 {
        (x >> d) | ((x & ((1u128 << d) - 1)) != 0) as u128
    } else {
        (x != 0) as u128
    }
}

/// Exact signed sum of `s1*2^e1` and `s2*2^e2` (both `0 < s < 2^107`), as (neg, sig, exp) with a
/// jam bit, or `None` for an exact zero.
#[inline]
pub(super) fn add_parts(
    n1: bool,
    s1: u128,
    e1: i32,
    n2: bool,
    s2: u128,
    e2: i32,
) -> Option<(bool, u128, i32)> {
    let l1 = s1.leading_zeros() - 2;
    let l2 = s2.leading_zeros() - 2;
    let (mut n1, mut s1, mut e1) = (n1, s1 << l1, e1 - l1 as i32);
    let (mut n2, mut s2, mut e2) = (n2, s2 << l2, e2 - l2 as i32);
    if e1 < e2 {
        std::mem::swap(&mut n1, &mut n2);
        std::mem::swap(&mut s1, &mut s2);
        std::mem::swap(&mut e1, &mut e2);
    }
    let d = (e1 as i64 - e2 as i64).min(200) as u32;
    let s2 = shr_jam(s2, d);
    if n1 == n2 {
        Some((n1, s1 + s2, e1))
    } else if s1 > s2 {
        Some((n1, s1 - s2, e1))
    } else if s2 > s1 {
        Some((n2, s2 - s1, e1))
    } else {
        None
    }
}

/// The sign of an exact zero sum of two operands that are not both zeros of equal sign.
#[inline]
pub(super) fn exact_zero_sum(f: Fmt, rnd: Rounding) -> u64 {
    f.zero(rnd == Rounding::Rm)
}

/// Result of a soft operation: a value or "some NaN" (the caller picks which NaN).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Out {
    Bits(u64),
    Nan,
}

/// IEEE multiplication in format `f`.
#[inline]
pub(crate) fn soft_mul(a: u64, b: u64, f: Fmt, rnd: Rounding) -> Out {
    match (unpack(a, f), unpack(b, f)) {
        (Val::Nan, _) | (_, Val::Nan) => Out::Nan,
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => Out::Nan,
        (Val::Inf(x), Val::Inf(y))
        | (Val::Inf(x), Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Inf(y)) => Out::Bits(f.inf(x ^ y)),
        (Val::Zero(x), Val::Zero(y) | Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Zero(y)) => Out::Bits(f.zero(x ^ y)),
        (
            Val::Fin {
                neg: na,
                sig: sa,
                exp: ea,
            },
            Val::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
        ) => Out::Bits(round_pack(
            na ^ nb,
            sa as u128 * sb as u128,
            ea + eb,
            f,
            rnd,
        )),
    }
}

/// IEEE fused multiply-add `a*b + c` in format `f`, one rounding.
#[inline]
pub(crate) fn soft_fma(a: u64, b: u64, c: u64, f: Fmt, rnd: Rounding) -> Out {
    let (va, vb, vc) = (unpack(a, f), unpack(b, f), unpack(c, f));
    if matches!(va, Val::Nan) || matches!(vb, Val::Nan) || matches!(vc, Val::Nan) {
        return Out::Nan;
    }
    // The product, as a Val (exact).
    let p = match (va, vb) {
        (Val::Inf(_), Val::Zero(_)) | (Val::Zero(_), Val::Inf(_)) => return Out::Nan,
        (Val::Inf(x), Val::Inf(y) | Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Inf(y)) => Val::Inf(x ^ y),
        (Val::Zero(x), Val::Zero(y) | Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Zero(y)) => Val::Zero(x ^ y),
        (
            Val::Fin {
                neg: na,
                sig: sa,
                exp: ea,
            },
            Val::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
        ) => {
            return fma_finite_product(na ^ nb, sa as u128 * sb as u128, ea + eb, vc, c, f, rnd);
        }
        _ => return Out::Nan, // unreachable: NaNs handled above
    };
    add_vals(p, vc, c, f, rnd)
}

#[inline]
pub(super) fn fma_finite_product(
    np: bool,
    sp: u128,
    ep: i32,
    vc: Val,
    c: u64,
    f: Fmt,
    rnd: Rounding,
) -> Out {
    match vc {
        Val::Nan => Out::Nan,
        Val::Inf(_) => Out::Bits(c),
        Val::Zero(_) => Out::Bits(round_pack(np, sp, ep, f, rnd)),
        Val::Fin { neg, sig, exp } => {
            Out::Bits(match add_parts(np, sp, ep, neg, sig as u128, exp) {
                Some((n, s, e)) => round_pack(n, s, e, f, rnd),
                None => exact_zero_sum(f, rnd),
            })
        }
    }
}

/// Sum of an exact non-finite/zero value `p` and operand `c` (bits `cb`).
#[inline]
pub(super) fn add_vals(p: Val, vc: Val, cb: u64, f: Fmt, rnd: Rounding) -> Out {
    match (p, vc) {
        (Val::Nan, _) | (_, Val::Nan) => Out::Nan,
        (Val::Inf(x), Val::Inf(y)) => {
            if x == y {
                Out::Bits(f.inf(x))
            } else {
                Out::Nan
            }
        }
        (Val::Inf(x), _) => Out::Bits(f.inf(x)),
        (_, Val::Inf(_)) => Out::Bits(cb),
        (Val::Zero(x), Val::Zero(y)) => Out::Bits(if x == y {
            f.zero(x)
        } else {
            exact_zero_sum(f, rnd)
        }),
        (Val::Zero(_), Val::Fin { .. }) => Out::Bits(cb),
        (Val::Fin { neg, sig, exp }, Val::Zero(_)) => {
            Out::Bits(round_pack(neg, sig as u128, exp, f, rnd))
        }
        (
            Val::Fin { neg, sig, exp },
            Val::Fin {
                neg: nc,
                sig: sc,
                exp: ec,
            },
        ) => Out::Bits(match add_parts(neg, sig as u128, exp, nc, sc as u128, ec) {
            Some((n, s, e)) => round_pack(n, s, e, f, rnd),
            None => exact_zero_sum(f, rnd),
        }),
    }
}

/// IEEE addition in format `f`.
#[inline]
pub(crate) fn soft_add(a: u64, b: u64, f: Fmt, rnd: Rounding) -> Out {
    add_vals(unpack(a, f), unpack(b, f), b, f, rnd)
}

/// IEEE division in format `f`.
#[inline]
pub(crate) fn soft_div(a: u64, b: u64, f: Fmt, rnd: Rounding) -> Out {
    match (unpack(a, f), unpack(b, f)) {
        (Val::Nan, _) | (_, Val::Nan) => Out::Nan,
        (Val::Inf(_), Val::Inf(_)) | (Val::Zero(_), Val::Zero(_)) => Out::Nan,
        (Val::Inf(x), Val::Zero(y) | Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Zero(y)) => Out::Bits(f.inf(x ^ y)),
        (Val::Zero(x), Val::Inf(y) | Val::Fin { neg: y, .. })
        | (Val::Fin { neg: x, .. }, Val::Inf(y)) => Out::Bits(f.zero(x ^ y)),
        (
            Val::Fin {
                neg: na,
                sig: sa,
                exp: ea,
            },
            Val::Fin {
                neg: nb,
                sig: sb,
                exp: eb,
            },
        ) => {
            // Dividend with its msb at bit 126: quotient has >= 73 bits, remainder jams.
            let k = 126 - (63 - sa.leading_zeros());
            let num = (sa as u128) << k;
            let q = num / sb as u128;
            let r = num % sb as u128;
            Out::Bits(round_pack(
                na ^ nb,
                q | (r != 0) as u128,
                ea - k as i32 - eb,
                f,
                rnd,
            ))
        }
    }
}

/// IEEE square root in format `f`.
#[inline]
pub(crate) fn soft_sqrt(a: u64, f: Fmt, rnd: Rounding) -> Out {
    match unpack(a, f) {
        Val::Nan | Val::Inf(true) | Val::Fin { neg: true, .. } => Out::Nan,
        Val::Inf(false) | Val::Zero(_) => Out::Bits(a),
        Val::Fin { sig, exp, .. } => {
            let msb = 63 - sig.leading_zeros() as i32;
            let mut k = 124 - msb;
            if (exp - k) & 1 != 0 {
                k += 1;
            }
            let m = (sig as u128) << k;
            let s = m.isqrt();
            let r = m - s * s;
            Out::Bits(round_pack(
                false,
                s | (r != 0) as u128,
                (exp - k) / 2,
                f,
                rnd,
            ))
        }
    }
}
