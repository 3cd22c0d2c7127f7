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
//!   an H200: `tests/hardware/h200.rs` compares the outputs of `isa_float` (`tests/hw/kernels/isa.cu`,
//!   NaN operands injected) exactly, and `tests/hardware/approx.rs` the recorded f64 add/fma/div/sqrt
//!   results (`tests/hw/h200/approx/`).
//!
//! The parts: `soft.rs` is the soft-float core (exact arithmetic on integers, one rounding);
//! `arith.rs` the rounded `add sub mul fma div rcp sqrt` of f32 and f64 with their `.ftz` and
//! `.sat` modifiers; `approx.rs` the approximate (MUFU) instructions; `compare.rs` the sign
//! operations, `min`/`max`, `testp` and the comparisons of `setp`.

use super::mufu;
use crate::ir::types::{Rounding, ScalarType};
use thiserror::Error;

mod approx;
mod arith;
mod compare;
mod soft;
#[cfg(test)]
mod tests;

pub use approx::*;
pub use arith::*;
pub use compare::*;
pub(crate) use soft::*;

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
