//! Per-lane floating-point semantics of the PTX arithmetic instructions on f32 and f64, the
//! `setp`/`testp` predicates and `min`/`max`, and the shared soft-float core (exact arithmetic on
//! integers plus one rounding) that [`super::cvt`] and [`super::half`] also use.
//!
//! Sources of the hardware facts:
//! - IEEE 754-2008 section 4.3 (rounding-direction attributes), 6.3 (sign of exact zero sums:
//!   `+0` except under roundTowardNegative), 7.4 (overflow: round-toward-zero gives the largest
//!   finite number).
//! - PTX ISA 9.0, section 9.7.3 "Floating-Point Instructions": 9.7.3.1 `add`, 9.7.3.3 `mul`,
//!   9.7.3.4 `fma`, 9.7.3.5 `mad` (`mad.f32` on sm_20+ is the fused `mad.rn.f32`), 9.7.3.6 `div`
//!   (`div.approx.f32` = `a * (1/b)`, max 2 ulp for |b| in \[2^-126, 2^126\], zero for larger |b|;
//!   `div.full.f32` max 2 ulp full range), 9.7.3.8 `rcp`, 9.7.3.10 `sqrt`, 9.7.3.11 `rsqrt`,
//!   9.7.3.14 `sin`, 9.7.3.15 `cos`, 9.7.3.16 `lg2`, 9.7.3.17 `ex2`, 9.7.3.18 `tanh`, 9.7.3.9/10
//!   `min`/`max` ("if one input is NaN the result is the other; if both are NaN the result is
//!   canonical NaN; `.NaN` returns canonical NaN if either is NaN"), 9.7.3.2 `testp`,
//!   9.7.3.3 `copysign` (`d` = `b` with the sign of `a`), 9.7.6.1 `setp` comparison operators
//!   (table "Floating-point comparison operators"), `.ftz` (subnormal inputs and results flushed
//!   to sign-preserving zero, f32 only) and `.sat` (clamp to \[0.0, 1.0\], NaN results to +0.0).
//! - PTX ISA 9.0 section 9.7.3 notes: single-precision arithmetic produces the canonical NaN
//!   `0x7fffffff`. For f64 we propagate the first NaN operand (quieted) and produce
//!   `0x7fffffffffffffff` for invalid operations ([`F64_NAN_PROPAGATES`]). Checked bit for bit on
//!   an H200: `tests/h200.rs` compares the outputs of `isa_float` (`tests/hw/kernels/isa.cu`,
//!   NaN operands injected) exactly, and `tests/approx_hw.rs` the recorded f64 add/fma/div/sqrt
//!   results (`tests/hw/h200/approx/`).
//!
//! Design: the directed roundings `.rz .rm .rp` (and `.rna`) are computed exactly on integers:
//! operands are unpacked to `sig * 2^exp`, the product/sum/quotient/root is formed exactly in a
//! `u128` (with a "jam" bit that keeps the result odd when non-zero bits were shifted out, the
//! classic sticky technique: an odd value v then stands for some value strictly between v-1 and
//! v+1, which rounds identically as long as at least two bits are cut), then [`round_pack`]
//! rounds once. Round-to-nearest f32/f64 `add sub mul fma div sqrt` use the host's IEEE hardware
//! (bit-identical by IEEE 754) and only fix NaN, `.ftz` and `.sat`.
//!
//! `.ftz` flushes a result that is subnormal *after* rounding (assumption, see report).

use super::mufu;
use crate::ir::types::{Rounding, ScalarType};
use thiserror::Error;

/// Errors for operation/type combinations PTX does not define.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
pub enum FloatError {
    /// The comparison operator does not apply to this type (e.g. `ltu` on an integer).
    #[error("comparison `{op:?}` is not defined for type {ty:?}")]
    BadCompare {
        /// The operator.
        op: CmpOp,
        /// The operand type.
        ty: ScalarType,
    },
    /// The type is not a scalar floating-point type this module handles.
    #[error("type {0:?} is not a supported floating-point type here")]
    NotFloat(ScalarType),
}

/// When true, f64 arithmetic returns its first NaN operand with the quiet bit set; when false it
/// returns the canonical NaN. See the module docs for the hardware data that checks it.
pub const F64_NAN_PROPAGATES: bool = true;

/// A binary floating-point format: exponent and stored-fraction widths.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Fmt {
    /// Exponent field width.
    pub ebits: u32,
    /// Stored fraction width (precision minus one).
    pub mbits: u32,
}

impl Fmt {
    /// IEEE binary16.
    pub const F16: Fmt = Fmt {
        ebits: 5,
        mbits: 10,
    };
    /// bfloat16.
    pub const BF16: Fmt = Fmt { ebits: 8, mbits: 7 };
    /// TensorFloat-32 (19 significant bits; stored by PTX in the top of an f32 register).
    pub const TF32: Fmt = Fmt {
        ebits: 8,
        mbits: 10,
    };
    /// IEEE binary32.
    pub const F32: Fmt = Fmt {
        ebits: 8,
        mbits: 23,
    };
    /// IEEE binary64.
    pub const F64: Fmt = Fmt {
        ebits: 11,
        mbits: 52,
    };

    /// The format of a scalar PTX float type (`.tf32` is stored like `.f32`).
    #[inline]
    pub fn of(ty: ScalarType) -> Option<Fmt> {
        match ty {
            ScalarType::F16 => Some(Fmt::F16),
            ScalarType::BF16 => Some(Fmt::BF16),
            ScalarType::F32 | ScalarType::TF32 => Some(Fmt::F32),
            ScalarType::F64 => Some(Fmt::F64),
            _ => None,
        }
    }
    #[inline]
    const fn bias(self) -> i32 {
        (1 << (self.ebits - 1)) - 1
    }
    /// Mask of the sign bit.
    #[inline]
    pub const fn sign_bit(self) -> u64 {
        1u64 << (self.ebits + self.mbits)
    }
    #[inline]
    const fn exp_field_max(self) -> u64 {
        (1u64 << self.ebits) - 1
    }
    #[inline]
    const fn frac_mask(self) -> u64 {
        (1u64 << self.mbits) - 1
    }
    /// Mask of all bits of the format.
    #[inline]
    pub const fn all_bits(self) -> u64 {
        (self.sign_bit() << 1).wrapping_sub(1)
    }
    /// Infinity with the given sign.
    #[inline]
    pub const fn inf(self, neg: bool) -> u64 {
        (self.exp_field_max() << self.mbits) | if neg { self.sign_bit() } else { 0 }
    }
    /// Largest finite magnitude with the given sign.
    #[inline]
    pub const fn max_finite(self, neg: bool) -> u64 {
        self.inf(neg) - 1
    }
    /// Signed zero.
    #[inline]
    pub const fn zero(self, neg: bool) -> u64 {
        if neg {
            self.sign_bit()
        } else {
            0
        }
    }
    /// The canonical NaN NVIDIA hardware produces: every bit but the sign set
    /// (`0x7fff`, `0x7fffffff`, `0x7fffffffffffffff`).
    #[inline]
    pub const fn canonical_nan(self) -> u64 {
        self.sign_bit() - 1
    }
    /// True for a NaN encoding.
    #[inline]
    pub const fn is_nan(self, bits: u64) -> bool {
        (bits & (self.sign_bit() - 1)) > self.inf(false)
    }
    /// True for a non-zero subnormal encoding.
    #[inline]
    pub const fn is_subnormal(self, bits: u64) -> bool {
        (bits >> self.mbits) & self.exp_field_max() == 0 && bits & self.frac_mask() != 0
    }
    /// Replaces a subnormal by a zero of the same sign.
    #[inline]
    pub const fn flush(self, bits: u64) -> u64 {
        if self.is_subnormal(bits) {
            bits & self.sign_bit()
        } else {
            bits
        }
    }
    /// Quiets a NaN (sets the top fraction bit).
    #[inline]
    const fn quiet(self, bits: u64) -> u64 {
        bits | (1u64 << (self.mbits - 1))
    }
}

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
fn shr_jam(x: u128, d: u32) -> u128 {
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
fn add_parts(
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
fn exact_zero_sum(f: Fmt, rnd: Rounding) -> u64 {
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
fn fma_finite_product(np: bool, sp: u128, ep: i32, vc: Val, c: u64, f: Fmt, rnd: Rounding) -> Out {
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
fn add_vals(p: Val, vc: Val, cb: u64, f: Fmt, rnd: Rounding) -> Out {
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
fn nan_or32(o: Out) -> u32 {
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
fn canon32(x: f32) -> u32 {
    if x.is_nan() {
        CANON_NAN_F32
    } else {
        x.to_bits()
    }
}

#[inline]
fn fin32(bits: u32, m: FMode) -> u32 {
    finish(bits as u64, Fmt::F32, m) as u32
}

#[inline]
fn in32(bits: u32, m: FMode) -> u32 {
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
fn fma_rn_f32(a: f32, b: f32, c: f32) -> f32 {
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
fn nan_in64(ops: &[u64]) -> Option<u64> {
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
fn canon64(x: f64) -> u64 {
    if x.is_nan() {
        CANON_NAN_F64
    } else {
        x.to_bits()
    }
}

#[inline]
fn nan_or64(o: Out) -> u64 {
    match o {
        Out::Bits(b) => b,
        Out::Nan => CANON_NAN_F64,
    }
}

#[inline]
fn fin64(bits: u64, m: FMode) -> u64 {
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

// ---------------------------------------------------------------------------------------------
// Approximate (MUFU) instructions: the H200's results, bit for bit ([`super::mufu`]).
// ---------------------------------------------------------------------------------------------

/// `rcp.approx{.ftz}.f32`.
#[inline]
pub fn rcp_approx_f32(a: u32, ftz: bool) -> u32 {
    mufu::rcp_approx_f32(a, ftz)
}

/// `sqrt.approx{.ftz}.f32`.
#[inline]
pub fn sqrt_approx_f32(a: u32, ftz: bool) -> u32 {
    mufu::sqrt_approx_f32(a, ftz)
}

/// `rsqrt.approx{.ftz}.f32`.
#[inline]
pub fn rsqrt_approx_f32(a: u32, ftz: bool) -> u32 {
    mufu::rsqrt_approx_f32(a, ftz)
}

/// `ex2.approx{.ftz}.f32`.
#[inline]
pub fn ex2_approx_f32(a: u32, ftz: bool) -> u32 {
    mufu::ex2_approx_f32(a, ftz)
}

/// `lg2.approx{.ftz}.f32`.
#[inline]
pub fn lg2_approx_f32(a: u32, ftz: bool) -> u32 {
    mufu::lg2_approx_f32(a, ftz)
}

/// `sin.approx{.ftz}.f32` (ptxas emits the same code with and without `.ftz`).
#[inline]
pub fn sin_approx_f32(a: u32, _ftz: bool) -> u32 {
    mufu::sin_approx_f32(a)
}

/// `cos.approx{.ftz}.f32` (ptxas emits the same code with and without `.ftz`).
#[inline]
pub fn cos_approx_f32(a: u32, _ftz: bool) -> u32 {
    mufu::cos_approx_f32(a)
}

/// `tanh.approx.f32`.
#[inline]
pub fn tanh_approx_f32(a: u32) -> u32 {
    mufu::tanh_approx_f32(a)
}

/// `div.approx{.ftz}.f32`: `a * MUFU.RCP(b)` (operands scaled by 2^24 when `b` is subnormal).
#[inline]
pub fn div_approx_f32(a: u32, b: u32, ftz: bool) -> u32 {
    mufu::div_approx_f32(a, b, ftz)
}

/// `div.full{.ftz}.f32`: `a * MUFU.RCP(b)` with operand scaling for large and subnormal `b`.
#[inline]
pub fn div_full_f32(a: u32, b: u32, ftz: bool) -> u32 {
    mufu::div_full_f32(a, b, ftz)
}

/// `rcp.approx.ftz.f64`: `MUFU.RCP64H` of the operand's high word, result's low word zero.
#[inline]
pub fn rcp_approx_ftz_f64(a: u64) -> u64 {
    mufu::rcp_approx_ftz_f64(a)
}

/// `rsqrt.approx{.ftz}.f64`: `MUFU.RSQ64H` (`.ftz`), refined by one Newton step otherwise.
#[inline]
pub fn rsqrt_approx_f64(a: u64, ftz: bool) -> u64 {
    mufu::rsqrt_approx_f64(a, ftz)
}

// ---------------------------------------------------------------------------------------------
// Sign operations, min/max, testp, comparisons (any format).
// ---------------------------------------------------------------------------------------------

/// `abs{.ftz}.f32`: NaN gives the canonical NaN (the SASS lowering is `FADD d, -RZ, |a|`).
#[inline]
pub fn abs_f32(a: u32, ftz: bool) -> u32 {
    let a = ftz_in(a as u64, Fmt::F32, ftz) as u32;
    if Fmt::F32.is_nan(a as u64) {
        CANON_NAN_F32
    } else {
        a & 0x7fff_ffff
    }
}

/// `neg{.ftz}.f32`: NaN gives the canonical NaN.
#[inline]
pub fn neg_f32(a: u32, ftz: bool) -> u32 {
    let a = ftz_in(a as u64, Fmt::F32, ftz) as u32;
    if Fmt::F32.is_nan(a as u64) {
        CANON_NAN_F32
    } else {
        a ^ 0x8000_0000
    }
}

/// `abs.f64`: clears the sign bit.
#[inline]
pub fn abs_f64(a: u64) -> u64 {
    a & !(1 << 63)
}

/// `neg.f64`: flips the sign bit.
#[inline]
pub fn neg_f64(a: u64) -> u64 {
    a ^ (1 << 63)
}

/// `copysign.f32/.f64 d, a, b`: `b` with the sign of `a` (bits of format `f`).
#[inline]
pub fn copysign(f: Fmt, a: u64, b: u64) -> u64 {
    (b & !f.sign_bit()) | (a & f.sign_bit())
}

/// Total order key of a non-NaN encoding (-0 < +0).
#[inline]
fn order_key(bits: u64, f: Fmt) -> i64 {
    let mag = (bits & (f.sign_bit() - 1)) as i64;
    if bits & f.sign_bit() != 0 {
        -mag - 1
    } else {
        mag
    }
}

/// `min{.ftz}{.NaN}` on format `f` (f16, bf16, f32, f64): a NaN operand yields the other one;
/// two NaNs (or any NaN with `.NaN`) yield the canonical NaN; -0 is smaller than +0.
#[inline]
pub fn fmin(f: Fmt, a: u64, b: u64, ftz: bool, propagate_nan: bool) -> u64 {
    minmax(f, a, b, ftz, propagate_nan, true)
}

/// `max{.ftz}{.NaN}` on format `f`; see [`fmin`].
#[inline]
pub fn fmax(f: Fmt, a: u64, b: u64, ftz: bool, propagate_nan: bool) -> u64 {
    minmax(f, a, b, ftz, propagate_nan, false)
}

#[inline]
fn minmax(f: Fmt, a: u64, b: u64, ftz: bool, propagate_nan: bool, min: bool) -> u64 {
    let (a, b) = (ftz_in(a, f, ftz), ftz_in(b, f, ftz));
    let (na, nb) = (f.is_nan(a), f.is_nan(b));
    if na || nb {
        return if na && nb && f == Fmt::F64 && !propagate_nan {
            // Both NaN: the H200's DMNMX returns the second operand quieted
            // (tests/hw/h200/hw/outputs/k_isa/isa_float.bin, results 139-142).
            b | (1 << 51)
        } else if propagate_nan || (na && nb) {
            f.canonical_nan()
        } else if na {
            b
        } else {
            a
        };
    }
    let a_first = (order_key(a, f) < order_key(b, f)) == min;
    if a_first {
        a
    } else {
        b
    }
}

/// `testp` operators (PTX ISA 9.7.3.2).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum TestpOp {
    /// `.finite`: not infinite, not NaN.
    Finite,
    /// `.infinite`: plus or minus infinity.
    Infinite,
    /// `.number`: not NaN.
    Number,
    /// `.notanumber`: NaN.
    NotANumber,
    /// `.normal`: a normal number (not zero, subnormal, infinite or NaN).
    Normal,
    /// `.subnormal`: a non-zero subnormal.
    Subnormal,
}

/// `testp.op.type p, a` on format `f`.
#[inline]
pub fn testp(op: TestpOp, f: Fmt, a: u64) -> bool {
    let nan = f.is_nan(a);
    let exp = (a >> f.mbits) & f.exp_field_max();
    let inf = !nan && exp == f.exp_field_max();
    match op {
        TestpOp::Finite => exp != f.exp_field_max(),
        TestpOp::Infinite => inf,
        TestpOp::Number => !nan,
        TestpOp::NotANumber => nan,
        TestpOp::Normal => exp != 0 && exp != f.exp_field_max(),
        TestpOp::Subnormal => f.is_subnormal(a),
    }
}

/// Comparison operators of `setp`/`set` (PTX ISA 9.7.6.1 / 9.7.7.1 tables).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CmpOp {
    /// `eq` (ordered for floats).
    Eq,
    /// `ne` (ordered for floats: false if either is NaN).
    Ne,
    /// `lt` (signed or ordered).
    Lt,
    /// `le`.
    Le,
    /// `gt`.
    Gt,
    /// `ge`.
    Ge,
    /// `lo`: unsigned lower.
    Lo,
    /// `ls`: unsigned lower or same.
    Ls,
    /// `hi`: unsigned higher.
    Hi,
    /// `hs`: unsigned higher or same.
    Hs,
    /// `equ`: equal or unordered.
    Equ,
    /// `neu`: not equal or unordered.
    Neu,
    /// `ltu`.
    Ltu,
    /// `leu`.
    Leu,
    /// `gtu`.
    Gtu,
    /// `geu`.
    Geu,
    /// `num`: both are numbers.
    Num,
    /// `nan`: either is NaN.
    Nan,
}

impl CmpOp {
    /// Parses the operator as written after `setp.` (`"ltu"`).
    pub fn from_suffix(s: &str) -> Option<CmpOp> {
        use CmpOp::*;
        Some(match s {
            "eq" => Eq,
            "ne" => Ne,
            "lt" => Lt,
            "le" => Le,
            "gt" => Gt,
            "ge" => Ge,
            "lo" => Lo,
            "ls" => Ls,
            "hi" => Hi,
            "hs" => Hs,
            "equ" => Equ,
            "neu" => Neu,
            "ltu" => Ltu,
            "leu" => Leu,
            "gtu" => Gtu,
            "geu" => Geu,
            "num" => Num,
            "nan" => Nan,
            _ => return None,
        })
    }
}

/// Floating-point comparison on format `f` (`setp{.ftz}.op.type`). Integer-only operators
/// (`lo ls hi hs`) give an error.
#[inline]
pub fn fcmp(op: CmpOp, f: Fmt, a: u64, b: u64, ftz: bool) -> Result<bool, FloatError> {
    let (a, b) = (ftz_in(a, f, ftz), ftz_in(b, f, ftz));
    let unordered = f.is_nan(a) || f.is_nan(b);
    // For non-NaN operands: compare with +0 == -0.
    let key = |x: u64| {
        let k = order_key(x, f);
        if k == -1 {
            0
        } else {
            k
        }
    };
    let ord = key(a).cmp(&key(b));
    use std::cmp::Ordering::*;
    let r = |o: bool| !unordered && o;
    let u = |o: bool| unordered || o;
    Ok(match op {
        CmpOp::Eq => r(ord == Equal),
        CmpOp::Ne => r(ord != Equal),
        CmpOp::Lt => r(ord == Less),
        CmpOp::Le => r(ord != Greater),
        CmpOp::Gt => r(ord == Greater),
        CmpOp::Ge => r(ord != Less),
        CmpOp::Equ => u(ord == Equal),
        CmpOp::Neu => u(ord != Equal),
        CmpOp::Ltu => u(ord == Less),
        CmpOp::Leu => u(ord != Greater),
        CmpOp::Gtu => u(ord == Greater),
        CmpOp::Geu => u(ord != Less),
        CmpOp::Num => !unordered,
        CmpOp::Nan => unordered,
        CmpOp::Lo | CmpOp::Ls | CmpOp::Hi | CmpOp::Hs => {
            return Err(FloatError::BadCompare {
                op,
                ty: scalar_of(f),
            })
        }
    })
}

fn scalar_of(f: Fmt) -> ScalarType {
    match f {
        Fmt::F16 => ScalarType::F16,
        Fmt::BF16 => ScalarType::BF16,
        Fmt::F64 => ScalarType::F64,
        _ => ScalarType::F32,
    }
}

/// Integer comparison of the low `ty.bits()` bits of `a` and `b` (`setp.op.{s,u,b}N`).
/// `lt le gt ge` are signed on `.sN` types and unsigned otherwise; `lo ls hi hs` are unsigned.
#[inline]
pub fn icmp(op: CmpOp, ty: ScalarType, a: u64, b: u64) -> Result<bool, FloatError> {
    let bits = ty.bits();
    if ty.is_float() || bits > 64 || ty == ScalarType::Pred {
        return Err(FloatError::BadCompare { op, ty });
    }
    let sh = 64 - bits;
    let (ua, ub) = ((a << sh) >> sh, (b << sh) >> sh);
    let (sa, sb) = (((a << sh) as i64) >> sh, ((b << sh) as i64) >> sh);
    let signed = ty.is_signed();
    let lt = if signed { sa < sb } else { ua < ub };
    let gt = if signed { sa > sb } else { ua > ub };
    Ok(match op {
        CmpOp::Eq => ua == ub,
        CmpOp::Ne => ua != ub,
        CmpOp::Lt => lt,
        CmpOp::Le => !gt,
        CmpOp::Gt => gt,
        CmpOp::Ge => !lt,
        CmpOp::Lo => ua < ub,
        CmpOp::Ls => ua <= ub,
        CmpOp::Hi => ua > ub,
        CmpOp::Hs => ua >= ub,
        _ => return Err(FloatError::BadCompare { op, ty }),
    })
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

#[cfg(test)]
mod tests {
    use super::*;
    use Rounding::*;

    const MODES: [Rounding; 4] = [Rn, Rz, Rm, Rp];

    fn m(r: Rounding) -> FMode {
        FMode::rnd(r)
    }
    fn f(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn one_third_each_way() {
        // 1/3 = 0x3eaaaaab rounded to nearest/up, 0x3eaaaaaa towards zero/down.
        let exp = [0x3eaa_aaab, 0x3eaa_aaaa, 0x3eaa_aaaa, 0x3eaa_aaab];
        for (r, e) in MODES.iter().zip(exp) {
            assert_eq!(div_f32(f(1.0), f(3.0), m(*r)), e, "{r:?}");
            assert_eq!(rcp_f32(f(3.0), m(*r)), e, "{r:?}");
        }
        // -1/3: rm goes away from zero.
        assert_eq!(div_f32(f(-1.0), f(3.0), m(Rm)), 0xbeaa_aaab);
        assert_eq!(div_f32(f(-1.0), f(3.0), m(Rp)), 0xbeaa_aaaa);
        // f64: 1/3 = 0x3fd5555555555555 (below the exact value), rp one ulp above.
        let d = [
            0x3fd5_5555_5555_5555,
            0x3fd5_5555_5555_5555,
            0x3fd5_5555_5555_5555,
            0x3fd5_5555_5555_5556,
        ];
        for (r, e) in MODES.iter().zip(d) {
            assert_eq!(div_f64(1f64.to_bits(), 3f64.to_bits(), m(*r)), e, "{r:?}");
        }
    }

    #[test]
    fn sqrt_two_each_way() {
        // sqrt(2) = 1.41421356237...; f32 0x3fb504f3 = 1.4142135381... (below),
        // f64 0x3ff6a09e667f3bcd = 1.41421356237309514547... (above).
        let e32 = [0x3fb5_04f3, 0x3fb5_04f3, 0x3fb5_04f3, 0x3fb5_04f4];
        let e64 = [
            0x3ff6_a09e_667f_3bcd,
            0x3ff6_a09e_667f_3bcc,
            0x3ff6_a09e_667f_3bcc,
            0x3ff6_a09e_667f_3bcd,
        ];
        for i in 0..4 {
            assert_eq!(sqrt_f32(f(2.0), m(MODES[i])), e32[i]);
            assert_eq!(sqrt_f64(2f64.to_bits(), m(MODES[i])), e64[i]);
        }
        assert_eq!(sqrt_f32(f(-0.0), m(Rz)), 0x8000_0000);
        assert_eq!(sqrt_f32(f(-1.0), m(Rz)), CANON_NAN_F32);
        assert_eq!(sqrt_f64((-1f64).to_bits(), m(Rn)), CANON_NAN_F64);
    }

    #[test]
    fn subnormals_and_ftz() {
        let t = f(2f32.powi(-75));
        // 2^-75 * 2^-75 = 2^-150: half of the smallest subnormal 2^-149 (0x00000001).
        assert_eq!(mul_f32(t, t, m(Rn)), 0); // tie to even
        assert_eq!(mul_f32(t, t, m(Rz)), 0);
        assert_eq!(mul_f32(t, t, m(Rp)), 1);
        assert_eq!(mul_f32(t, t, m(Rm)), 0);
        assert_eq!(mul_f32(t | 0x8000_0000, t, m(Rm)), 0x8000_0001);
        assert_eq!(mul_f32(t | 0x8000_0000, t, m(Rp)), 0x8000_0000);
        // 3 * 2^-150 rounds to nearest 2^-148 (0x00000002).
        // 1.5 * 2^-149 (3 * 2^-150) is a tie between 1 and 2 units: even -> 2 (0x00000002).
        assert_eq!(mul_f32(f(3.0 * 2f32.powi(-75)), t, m(Rn)), 2);
        // .ftz: a subnormal input is zero, a subnormal result is zero (sign kept).
        let ftz = FMode {
            ftz: true,
            ..FMode::RN
        };
        assert_eq!(add_f32(1, 0, ftz), 0);
        assert_eq!(add_f32(0x8000_0001, 0x8000_0000, ftz), 0x8000_0000);
        assert_eq!(
            mul_f32(f(2f32.powi(-100)), f(-2f32.powi(-30)), ftz),
            0x8000_0000
        );
        assert_eq!(
            mul_f32(f(2f32.powi(-100)), f(2f32.powi(-30)), FMode::RN),
            0x0008_0000
        ); // 2^-130 = 2^19 units
           // Directed f64 with a subnormal result: 2^-1074 * 0.75 -> rn 2^-1074, rz 0, rp 2^-1074.
        let tiny = 1u64;
        assert_eq!(mul_f64(tiny, 0.75f64.to_bits(), m(Rn)), 1);
        assert_eq!(mul_f64(tiny, 0.75f64.to_bits(), m(Rz)), 0);
        assert_eq!(mul_f64(tiny, 0.75f64.to_bits(), m(Rp)), 1);
        assert_eq!(mul_f64(tiny, 0.25f64.to_bits(), m(Rn)), 0);
    }

    #[test]
    fn overflow_per_mode() {
        let max = f(f32::MAX);
        let inf = 0x7f80_0000;
        let e = [inf, max, max, inf];
        for (r, e) in MODES.iter().zip(e) {
            assert_eq!(add_f32(max, max, m(*r)), e, "{r:?}");
            assert_eq!(fma_f32(max, f(2.0), f(-1.0), m(*r)), e, "{r:?}");
        }
        assert_eq!(mul_f32(max | 0x8000_0000, f(2.0), m(Rp)), max | 0x8000_0000);
        assert_eq!(mul_f32(max | 0x8000_0000, f(2.0), m(Rm)), inf | 0x8000_0000);
        // MAX + half an ulp is a tie that rn sends to infinity; rz keeps MAX.
        let half_ulp = f(2f32.powi(103));
        assert_eq!(add_f32(max, half_ulp, m(Rn)), inf);
        assert_eq!(add_f32(max, half_ulp, m(Rz)), max);
        let dmax = f64::MAX.to_bits();
        assert_eq!(add_f64(dmax, dmax, m(Rz)), dmax);
        assert_eq!(add_f64(dmax, dmax, m(Rp)), f64::INFINITY.to_bits());
        // MAX + min subnormal: rn MAX, rp inf.
        assert_eq!(add_f64(dmax, 1, m(Rn)), dmax);
        assert_eq!(add_f64(dmax, 1, m(Rp)), f64::INFINITY.to_bits());
    }

    #[test]
    fn zero_signs_and_nans() {
        assert_eq!(add_f32(f(1.0), f(-1.0), m(Rn)), 0);
        assert_eq!(add_f32(f(1.0), f(-1.0), m(Rm)), 0x8000_0000);
        assert_eq!(sub_f32(f(2.5), f(2.5), m(Rm)), 0x8000_0000);
        assert_eq!(fma_f32(f(1.0), f(1.0), f(-1.0), m(Rm)), 0x8000_0000);
        assert_eq!(fma_f32(f(1.0), f(1.0), f(-1.0), m(Rp)), 0);
        assert_eq!(add_f32(f(-0.0), f(-0.0), m(Rp)), 0x8000_0000);
        assert_eq!(add_f32(f(0.0), f(-0.0), m(Rz)), 0);
        assert_eq!(add_f32(f(0.0), f(-0.0), m(Rm)), 0x8000_0000);
        // -0 * 5 + +0 = +0 (rn), -0 (rm); -0*5 + -0 = -0.
        assert_eq!(fma_f32(f(-0.0), f(5.0), f(0.0), m(Rz)), 0);
        assert_eq!(fma_f32(f(-0.0), f(5.0), f(0.0), m(Rm)), 0x8000_0000);
        assert_eq!(fma_f32(f(-0.0), f(5.0), f(-0.0), m(Rp)), 0x8000_0000);
        // f32 NaN results are canonical, whatever the input payload.
        for r in MODES {
            assert_eq!(add_f32(0xffc0_0001, f(1.0), m(r)), CANON_NAN_F32);
            assert_eq!(
                add_f32(f(f32::INFINITY), f(f32::NEG_INFINITY), m(r)),
                CANON_NAN_F32
            );
            assert_eq!(mul_f32(f(0.0), f(f32::INFINITY), m(r)), CANON_NAN_F32);
            assert_eq!(
                fma_f32(f(0.0), f(f32::INFINITY), f(1.0), m(r)),
                CANON_NAN_F32
            );
            assert_eq!(div_f32(f(0.0), f(0.0), m(r)), CANON_NAN_F32);
            assert_eq!(div_f32(f(1.0), f(0.0), m(r)), 0x7f80_0000);
            assert_eq!(div_f32(f(-1.0), f(0.0), m(r)), 0xff80_0000);
        }
        // f64: NaN operands propagate (quieted), invalid operations give the canonical NaN.
        assert_eq!(
            add_f64(0x7ff0_0000_0000_0001, 1f64.to_bits(), m(Rn)),
            0x7ff8_0000_0000_0001
        );
        assert_eq!(
            mul_f64(1f64.to_bits(), 0xfff8_0000_0000_0002, m(Rz)),
            0xfff8_0000_0000_0002
        );
        assert_eq!(
            add_f64(f64::INFINITY.to_bits(), f64::NEG_INFINITY.to_bits(), m(Rz)),
            CANON_NAN_F64
        );
    }

    #[test]
    fn saturation() {
        let sat = FMode {
            sat: true,
            ..FMode::RN
        };
        assert_eq!(add_f32(f(0.5), f(0.75), sat), f(1.0));
        assert_eq!(add_f32(f(-1.0), f(0.5), sat), 0);
        assert_eq!(add_f32(f(0.25), f(0.25), sat), f(0.5));
        assert_eq!(mul_f32(f(0.0), f(f32::INFINITY), sat), 0);
        assert_eq!(mul_f32(f(-0.0), f(1.0), sat), 0);
    }

    #[test]
    fn minmax_cmp_testp() {
        let nan = 0x7fc0_0000u64;
        let one = f(1.0) as u64;
        assert_eq!(fmin(Fmt::F32, nan, one, false, false), one);
        assert_eq!(fmax(Fmt::F32, one, nan, false, false), one);
        assert_eq!(
            fmin(Fmt::F32, nan, nan | 1, false, false),
            CANON_NAN_F32 as u64
        );
        assert_eq!(fmin(Fmt::F32, nan, one, false, true), CANON_NAN_F32 as u64);
        assert_eq!(fmin(Fmt::F32, 0x8000_0000, 0, false, false), 0x8000_0000);
        assert_eq!(fmax(Fmt::F32, 0x8000_0000, 0, false, false), 0);
        assert_eq!(
            fmin(Fmt::F32, f(-2.0) as u64, f(-3.0) as u64, false, false),
            f(-3.0) as u64
        );
        assert_eq!(
            fmax(Fmt::F64, 2f64.to_bits(), (-3f64).to_bits(), false, false),
            2f64.to_bits()
        );
        assert_eq!(fmin(Fmt::F32, 1, 0x8000_0000, true, false), 0x8000_0000); // ftz: 1 -> +0
        assert_eq!(copysign(Fmt::F32, 0x8000_0000, one), f(-1.0) as u64);
        assert_eq!(abs_f32(0xffc0_0000, false), CANON_NAN_F32);
        assert_eq!(neg_f32(f(1.0), false), f(-1.0));
        assert_eq!(abs_f32(0x8000_0001, true), 0);

        let c = |op, a: f32, b: f32| fcmp(op, Fmt::F32, f(a) as u64, f(b) as u64, false).unwrap();
        let n = f32::NAN;
        assert!(c(CmpOp::Eq, 0.0, -0.0));
        assert!(!c(CmpOp::Ne, 0.0, -0.0));
        assert!(!c(CmpOp::Ne, n, 1.0));
        assert!(c(CmpOp::Neu, n, 1.0));
        assert!(c(CmpOp::Lt, -1.0, 1.0));
        assert!(!c(CmpOp::Lt, n, 1.0));
        assert!(c(CmpOp::Ltu, n, 1.0));
        assert!(c(CmpOp::Geu, 2.0, 2.0));
        assert!(!c(CmpOp::Gtu, 2.0, 2.0));
        assert!(c(CmpOp::Le, -0.0, 0.0));
        assert!(c(CmpOp::Num, 1.0, 2.0) && !c(CmpOp::Num, 1.0, n));
        assert!(c(CmpOp::Nan, n, n) && !c(CmpOp::Nan, 1.0, 2.0));
        assert!(c(CmpOp::Gt, f32::INFINITY, f32::MAX));
        assert!(fcmp(CmpOp::Lo, Fmt::F32, 0, 0, false).is_err());
        // ftz: 2^-149 == 0 under .ftz only.
        assert!(fcmp(CmpOp::Eq, Fmt::F32, 1, 0, true).unwrap());
        assert!(!fcmp(CmpOp::Eq, Fmt::F32, 1, 0, false).unwrap());
        // f16: 0x3c00 (1.0) > 0x3800 (0.5).
        assert!(fcmp(CmpOp::Gt, Fmt::F16, 0x3c00, 0x3800, false).unwrap());

        let i = |op, ty, a: u64, b: u64| icmp(op, ty, a, b).unwrap();
        assert!(i(CmpOp::Lt, ScalarType::S32, 0xffff_ffff, 0)); // -1 < 0
        assert!(!i(CmpOp::Lt, ScalarType::U32, 0xffff_ffff, 0));
        assert!(i(CmpOp::Hi, ScalarType::S32, 0xffff_ffff, 0));
        assert!(i(CmpOp::Ge, ScalarType::S8, 0x7f, 0x80)); // 127 >= -128
        assert!(i(CmpOp::Eq, ScalarType::B16, 0x1_0005, 0x5)); // only low 16 bits
        assert!(i(CmpOp::Ls, ScalarType::U64, 3, 3));
        assert!(icmp(CmpOp::Ltu, ScalarType::S32, 0, 0).is_err());

        let t = |op, x: f32| testp(op, Fmt::F32, f(x) as u64);
        assert!(
            t(TestpOp::Finite, 1.0) && !t(TestpOp::Finite, f32::INFINITY) && !t(TestpOp::Finite, n)
        );
        assert!(t(TestpOp::Infinite, f32::NEG_INFINITY) && !t(TestpOp::Infinite, n));
        assert!(t(TestpOp::Number, 0.0) && !t(TestpOp::Number, n) && t(TestpOp::NotANumber, n));
        assert!(t(TestpOp::Normal, 1.0) && !t(TestpOp::Normal, 0.0) && !t(TestpOp::Normal, 1e-40));
        assert!(t(TestpOp::Subnormal, 1e-40) && !t(TestpOp::Subnormal, 0.0));
    }

    #[test]
    fn approx_spot_values() {
        assert_eq!(rcp_approx_f32(f(2.0), false), f(0.5));
        assert_eq!(rcp_approx_f32(f(0.0), false), 0x7f80_0000);
        assert_eq!(rcp_approx_f32(f(-0.0), true), 0xff80_0000);
        assert_eq!(ex2_approx_f32(f(1.0), true), f(2.0));
        assert_eq!(ex2_approx_f32(f(f32::NEG_INFINITY), true), 0);
        assert_eq!(ex2_approx_f32(f(-130.0), true), 0); // 2^-130 is subnormal: flushed
        assert_ne!(ex2_approx_f32(f(-130.0), false), 0);
        assert_eq!(lg2_approx_f32(f(8.0), false), f(3.0));
        assert_eq!(lg2_approx_f32(f(0.0), false), 0xff80_0000);
        assert_eq!(lg2_approx_f32(f(-1.0), false), CANON_NAN_F32);
        assert_eq!(sin_approx_f32(f(0.0), false), 0);
        assert_eq!(cos_approx_f32(f(0.0), false), f(1.0));
        assert_eq!(sin_approx_f32(f(f32::INFINITY), false), CANON_NAN_F32);
        assert_eq!(rsqrt_approx_f32(f(4.0), false), f(0.5));
        assert_eq!(sqrt_approx_f32(f(9.0), false), f(3.0));
        assert_eq!(tanh_approx_f32(f(0.0)), 0);
        assert_eq!(div_approx_f32(f(1.0), f(2f32.powi(127)), false), 0);
        assert_eq!(div_approx_f32(f(-6.0), f(3.0), false), f(-2.0));
        assert_eq!(
            div_full_f32(f(1.0), f(2f32.powi(127)), false),
            f(2f32.powi(-127))
        );
        // 1/3 as a*rcp(b): rcp(3) rounds to 0x3eaaaaab, times 1 exact.
        assert_eq!(div_full_f32(f(1.0), f(3.0), false), 0x3eaa_aaab);
        // rcp.approx.ftz.f64: only the high word is computed.
        let r = rcp_approx_ftz_f64(3f64.to_bits());
        assert_eq!(r & 0xffff_ffff, 0);
        assert!((f64::from_bits(r) - 1.0 / 3.0).abs() < 2f64.powi(-21));
        assert_eq!(rcp_approx_ftz_f64(2f64.to_bits()), 0.5f64.to_bits());
        assert_eq!(rsqrt_approx_f64(4f64.to_bits(), false), 0.5f64.to_bits());
    }

    fn rng(state: &mut u64) -> u64 {
        *state = state.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = *state;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }

    /// A random f32 pattern; a third of them with exponents near each other so that additions
    /// interact, some subnormals.
    fn rand_f32(s: &mut u64) -> u32 {
        let r = rng(s);
        match r % 3 {
            0 => r as u32,
            1 => ((r >> 8) as u32 & 0x807f_ffff) | (((120 + (r >> 40) % 16) as u32) << 23),
            _ => (r as u32) & 0x80ff_ffff, // subnormal or tiny normal
        }
    }

    fn next_up(x: f64) -> f64 {
        f32::from_bits(nu32((x as f32).to_bits())) as f64
    }
    fn nu32(b: u32) -> u32 {
        // next f32 towards +inf (finite, non-NaN inputs).
        if b == 0x8000_0000 || b == 0 {
            1
        } else if b & 0x8000_0000 != 0 {
            b - 1
        } else {
            b + 1
        }
    }

    /// (s, e) with s + e == x + y exactly (TwoSum, Knuth).
    fn two_sum(x: f64, y: f64) -> (f64, f64) {
        let s = x + y;
        let bb = s - x;
        (s, (x - (s - bb)) + (y - bb))
    }

    /// Lexicographic (value, tail) comparison for values written as s + e with |e| <= ulp(s)/2.
    fn le(a: (f64, f64), b: (f64, f64)) -> bool {
        a.0 < b.0 || (a.0 == b.0 && a.1 <= b.1)
    }

    /// Checks one operation's four roundings against the exact value `ex` = ex.0 + ex.1.
    fn check_bracket(name: &str, res: [u32; 4], native_rn: u32, ex: (f64, f64), args: &[u32]) {
        let [rn, rz, rm, rp] = res;
        assert_eq!(rn, native_rn, "{name} rn vs host {args:x?}");
        let (dn, up) = (f32::from_bits(rm) as f64, f32::from_bits(rp) as f64);
        if !dn.is_finite() || !up.is_finite() || ex.0.abs() > f32::MAX as f64 {
            return;
        }
        assert!(
            le((dn, 0.0), ex) && le(ex, (up, 0.0)),
            "{name} bracket {args:x?}: {dn} {ex:?} {up}"
        );
        let exact = ex.1 == 0.0 && ex.0 == dn;
        if exact {
            assert_eq!(rm, rp, "{name} exact {args:x?}");
        } else {
            assert_eq!(up, next_up(dn), "{name} one step {args:x?}");
        }
        // rz: rm for positive results, rp for negative ones.
        let positive = ex.0 > 0.0 || (ex.0 == 0.0 && ex.1 > 0.0);
        if ex.0 != 0.0 || ex.1 != 0.0 {
            assert_eq!(rz, if positive { rm } else { rp }, "{name} rz {args:x?}");
        }
        assert!(rn == rm || rn == rp, "{name} rn in bracket {args:x?}");
    }

    /// Property test: for random f32 operands, directed results bracket the exact value (f64
    /// TwoSum/TwoProd as the oracle) and rn equals the host's IEEE result.
    #[test]
    fn directed_bracket_f32() {
        let mut s = 0x5eed;
        for _ in 0..4000 {
            let (a, b, c) = (rand_f32(&mut s), rand_f32(&mut s), rand_f32(&mut s));
            let (x, y, z) = (f32::from_bits(a), f32::from_bits(b), f32::from_bits(c));
            if x.is_nan()
                || y.is_nan()
                || z.is_nan()
                || x.is_infinite()
                || y.is_infinite()
                || z.is_infinite()
            {
                continue;
            }
            let (xd, yd, zd) = (x as f64, y as f64, z as f64);
            let all = |op: &dyn Fn(FMode) -> u32| MODES.map(|r| op(m(r)));
            check_bracket(
                "add",
                all(&|md| add_f32(a, b, md)),
                (x + y).to_bits(),
                two_sum(xd, yd),
                &[a, b],
            );
            check_bracket(
                "sub",
                all(&|md| sub_f32(a, b, md)),
                (x - y).to_bits(),
                two_sum(xd, -yd),
                &[a, b],
            );
            check_bracket(
                "mul",
                all(&|md| mul_f32(a, b, md)),
                (x * y).to_bits(),
                (xd * yd, 0.0),
                &[a, b],
            );
            check_bracket(
                "fma",
                all(&|md| fma_f32(a, b, c, md)),
                x.mul_add(y, z).to_bits(),
                two_sum(xd * yd, zd),
                &[a, b, c],
            );
            // div: q >= a/b  <=>  q*b >= a for b > 0 (products exact in f64).
            if y != 0.0 {
                let res = all(&|md| div_f32(a, b, md));
                assert_eq!(res[0], (x / y).to_bits());
                let sgn = if y > 0.0 { 1.0 } else { -1.0 };
                let (dn, up) = (f32::from_bits(res[2]) as f64, f32::from_bits(res[3]) as f64);
                if dn.is_finite() && up.is_finite() {
                    assert!(
                        dn * yd * sgn <= xd * sgn && xd * sgn <= up * yd * sgn,
                        "div {a:x} {b:x}"
                    );
                    assert!(
                        res[2] == res[3] || up == next_up(dn),
                        "div step {a:x} {b:x}"
                    );
                }
            }
            let ax = x.abs();
            let res = MODES.map(|r| sqrt_f32(ax.to_bits(), m(r)));
            assert_eq!(res[0], ax.sqrt().to_bits());
            let (dn, up) = (f32::from_bits(res[2]) as f64, f32::from_bits(res[3]) as f64);
            assert!(dn * dn <= ax as f64 && ax as f64 <= up * up, "sqrt {a:x}");
            assert_eq!(res[1], res[2]);
        }
    }

    /// The integer soft path in round-to-nearest equals the host's IEEE f64 arithmetic on random
    /// bit patterns (all exponents, subnormals included); directed results contain rn.
    #[test]
    fn soft_f64_matches_host() {
        let mut s = 42;
        let pick = |s: &mut u64| {
            let r = rng(s);
            match r % 4 {
                0 => r & 0x800f_ffff_ffff_ffff, // subnormal
                1 => (r & 0x800f_ffff_ffff_ffff) | ((1000 + (r >> 52) % 48) << 52),
                _ => r,
            }
        };
        let same = |o: Out, h: f64| match o {
            Out::Nan => h.is_nan(),
            Out::Bits(b) => b == h.to_bits(),
        };
        for _ in 0..20000 {
            let (a, b, c) = (pick(&mut s), pick(&mut s), pick(&mut s));
            let (x, y, z) = (f64::from_bits(a), f64::from_bits(b), f64::from_bits(c));
            let f = Fmt::F64;
            assert!(same(soft_add(a, b, f, Rn), x + y), "add {a:x} {b:x}");
            assert!(same(soft_mul(a, b, f, Rn), x * y), "mul {a:x} {b:x}");
            assert!(
                same(soft_fma(a, b, c, f, Rn), x.mul_add(y, z)),
                "fma {a:x} {b:x} {c:x}"
            );
            assert!(same(soft_div(a, b, f, Rn), x / y), "div {a:x} {b:x}");
            assert!(same(soft_sqrt(a, f, Rn), x.sqrt()), "sqrt {a:x}");
            // f32 soft path vs host too.
            let (a32, b32, c32) = (a as u32, b as u32, c as u32);
            let (p, q, r) = (
                f32::from_bits(a32),
                f32::from_bits(b32),
                f32::from_bits(c32),
            );
            let g = Fmt::F32;
            let same32 = |o: Out, h: f32| match o {
                Out::Nan => h.is_nan(),
                Out::Bits(bb) => bb == h.to_bits() as u64,
            };
            assert!(same32(
                soft_fma(a32 as u64, b32 as u64, c32 as u64, g, Rn),
                p.mul_add(q, r)
            ));
            assert!(same32(soft_div(a32 as u64, b32 as u64, g, Rn), p / q));
            // Directed: rm <= rn <= rp, one ulp apart at most.
            if x.is_finite() && y.is_finite() && (x + y).is_finite() {
                let dn = f64::from_bits(add_f64(a, b, m(Rm)));
                let up = f64::from_bits(add_f64(a, b, m(Rp)));
                let rn = x + y;
                assert!(dn <= rn && rn <= up, "add64 {a:x} {b:x}");
                let (_, e) = two_sum(x, y);
                assert_eq!(dn == up, e == 0.0, "add64 exactness {a:x} {b:x}");
            }
        }
    }
}
