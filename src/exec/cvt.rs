//! Per-lane semantics of PTX `cvt` (PTX ISA 9.0, section 9.7.9.21 "cvt", tables "Convert
//! Instruction Precision and Format" and the rounding-modifier rules):
//!
//! - int → int: sign/zero extension or truncation; `.sat` clamps to the destination range.
//! - float → int: needs an integer rounding `.rni .rzi .rmi .rpi` and always saturates to the
//!   destination range; NaN converts to 0.
//! - int → float and narrowing float → float round with `.rn .rz .rm .rp` (`.rna` for `.tf32`).
//! - widening float → float is exact.
//! - float → float of the same type with an integer rounding rounds to an integral value.
//! - `.ftz` flushes subnormal `.f32` inputs and results to sign-preserving zero; `.sat` on a float
//!   destination clamps to \[0.0, 1.0\] (NaN → +0.0).
//! - NaN results are the canonical NaN of the destination (all bits but the sign set), the value
//!   the hardware returns for arithmetic (assumption for conversions: checked by
//!   `tests/hw/approx/approx.cu`, `cvt.*` records).
//! - `cvt.rn.f16x2.f32 d, a, b` / `cvt.rn.bf16x2.f32`: `a` goes to the upper half, `b` to the lower.
//!
//! All results are returned as raw bits in the low `dst.bits()` bits of a `u64`, upper bits zero
//! (the executor sign-extends narrow signed destinations into wider registers if it needs to).
//!
//! A missing rounding modifier defaults to `.rzi` for float → int (the C cast) and `.rn` elsewhere;
//! PTX requires one where it matters, so the decoder should have rejected such code.

use super::float::{round_pack, saturate, unpack, Fmt, Val};
use crate::ir::types::{Rounding, ScalarType};

/// How a scalar type is converted.
#[derive(Clone, Copy)]
enum Kind {
    Int { signed: bool, bits: u32 },
    Float(Fmt),
    Tf32,
    Other,
}

#[inline]
fn kind(t: ScalarType) -> Kind {
    use ScalarType::*;
    match t {
        U8 | B8 => Kind::Int {
            signed: false,
            bits: 8,
        },
        U16 | B16 => Kind::Int {
            signed: false,
            bits: 16,
        },
        U32 | B32 => Kind::Int {
            signed: false,
            bits: 32,
        },
        U64 | B64 => Kind::Int {
            signed: false,
            bits: 64,
        },
        S8 => Kind::Int {
            signed: true,
            bits: 8,
        },
        S16 => Kind::Int {
            signed: true,
            bits: 16,
        },
        S32 => Kind::Int {
            signed: true,
            bits: 32,
        },
        S64 => Kind::Int {
            signed: true,
            bits: 64,
        },
        F16 => Kind::Float(Fmt::F16),
        BF16 => Kind::Float(Fmt::BF16),
        F32 => Kind::Float(Fmt::F32),
        F64 => Kind::Float(Fmt::F64),
        TF32 => Kind::Tf32,
        _ => Kind::Other,
    }
}

#[inline]
fn mask(bits: u32) -> u64 {
    if bits >= 64 {
        u64::MAX
    } else {
        (1u64 << bits) - 1
    }
}

/// The value of an integer operand.
#[inline]
fn int_value(x: u64, signed: bool, bits: u32) -> i128 {
    let sh = 64 - bits;
    if signed {
        (((x << sh) as i64) >> sh) as i128
    } else {
        ((x << sh) >> sh) as i128
    }
}

/// Exact f64 of a non-f64 float operand, or the f64 itself.
#[inline]
fn to_f64(x: u64, f: Fmt) -> f64 {
    match unpack(x, f) {
        Val::Nan => f64::NAN,
        Val::Inf(n) => {
            if n {
                f64::NEG_INFINITY
            } else {
                f64::INFINITY
            }
        }
        Val::Zero(n) => {
            if n {
                -0.0
            } else {
                0.0
            }
        }
        Val::Fin { neg, sig, exp } => {
            if f == Fmt::F64 {
                f64::from_bits(x)
            } else {
                // sig < 2^24 and |exp| < 200: exact.
                let v = sig as f64 * 2f64.powi(exp);
                if neg {
                    -v
                } else {
                    v
                }
            }
        }
    }
}

#[inline]
fn round_integral(x: f64, rnd: Rounding) -> f64 {
    match rnd {
        Rounding::Rn => x.round_ties_even(),
        Rounding::Rz => x.trunc(),
        Rounding::Rm => x.floor(),
        Rounding::Rp => x.ceil(),
        Rounding::Rna => x.round(),
    }
}

/// Float (format `f`, already `.ftz`-flushed) → integer, saturating; NaN → 0.
#[inline]
fn float_to_int(x: u64, f: Fmt, rnd: Rounding, signed: bool, bits: u32) -> u64 {
    // NaN: 0 for the 32-bit (and narrower) results of f32 and narrower sources, but the
    // H200's F2I paths for 64-bit results and for f64 sources to s32 give the most negative
    // integer's bit pattern (tests/hw/h200/hw/outputs/k_isa/isa_float.bin, results 10-13 and
    // 34-39 of the NaN lanes).
    if f.is_nan(x) && (bits == 64 || (f == Fmt::F64 && signed && bits == 32)) {
        return 1u64 << (bits - 1);
    }
    let v = round_integral(to_f64(x, f), rnd);
    // Rust's float→int `as` saturates and maps NaN to 0, which is the PTX rule.
    let r = match (signed, bits) {
        (true, 8) => v as i8 as u64,
        (true, 16) => v as i16 as u64,
        (true, 32) => v as i32 as u64,
        (true, _) => v as i64 as u64,
        (false, 8) => v as u8 as u64,
        (false, 16) => v as u16 as u64,
        (false, 32) => v as u32 as u64,
        (false, _) => v as u64,
    };
    r & mask(bits)
}

/// Integer → float format `f`.
#[inline]
fn int_to_float(v: i128, f: Fmt, rnd: Rounding) -> u64 {
    round_pack(v < 0, v.unsigned_abs(), 0, f, rnd)
}

/// Float → float (different formats or no integer rounding): exact or rounded once.
#[inline]
fn float_to_float(x: u64, src: Fmt, dst: Fmt, rnd: Rounding) -> u64 {
    match unpack(x, src) {
        // f32 to f64 keeps the NaN's sign and payload and sets the quiet bit, like the H200
        // (tests/hw/h200/approx/cvt.f64.f32.bin: 0x7f880c97 -> 0x7ff90192e0000000).
        Val::Nan if src == Fmt::F32 && dst == Fmt::F64 => {
            ((x & 0x8000_0000) << 32) | 0x7ff8_0000_0000_0000 | ((x & 0x7f_ffff) << 29)
        }
        // f64 to f32 and to f16 keep the sign and the top payload bits, quieted
        // (tests/hw/h200/hw/outputs/k_isa/isa_float.bin: 0xfff8000000000000 -> 0xffc00000, and
        // -> 0xfe00 in f16).
        Val::Nan if src == Fmt::F64 && dst == Fmt::F32 => {
            ((x >> 32) & 0x8000_0000) | 0x7fc0_0000 | ((x >> 29) & 0x3f_ffff)
        }
        Val::Nan if src == Fmt::F64 && dst == Fmt::F16 => {
            ((x >> 48) & 0x8000) | 0x7e00 | ((x >> 42) & 0x1ff)
        }
        // bf16 to f32 is a plain widening of the bits, NaNs included (same file, results 50-51:
        // 0xffad -> 0xffad0000, not quieted).
        Val::Nan if src == Fmt::BF16 && dst == Fmt::F32 => (x & 0xffff) << 16,
        Val::Nan => dst.canonical_nan(),
        Val::Inf(n) => dst.inf(n),
        Val::Zero(n) => dst.zero(n),
        Val::Fin { neg, sig, exp } => round_pack(neg, sig as u128, exp, dst, rnd),
    }
}

/// Round to an integral value in the same format.
#[inline]
fn float_round_integral(x: u64, f: Fmt, rnd: Rounding) -> u64 {
    if f.is_nan(x) {
        // f64 floor/ceil/rint return the NaN operand quieted, sign and payload kept
        // (tests/hw/h200/hw/outputs/k_isa/isa_float.bin, results 145-148).
        if f == Fmt::F64 {
            return x | (1 << 51);
        }
        return f.canonical_nan();
    }
    if f == Fmt::F64 {
        return round_integral(f64::from_bits(x), rnd).to_bits();
    }
    // Integral values of a narrower format are exact in f64 and representable in `f`.
    let v = round_integral(to_f64(x, f), rnd);
    float_to_float(v.to_bits(), Fmt::F64, f, Rounding::Rn)
}

/// `cvt{.rnd}{.ftz}{.sat}.dst.src d, a` on one lane. `bits` holds the source in its low bits;
/// `int_rnd` says `rnd` was written as an integer rounding (`.rni` ...). Unsupported types
/// (`.pred`, `.b128`, packed) give 0.
#[inline]
pub fn cvt(
    bits: u64,
    dst: ScalarType,
    src: ScalarType,
    rnd: Option<Rounding>,
    int_rnd: bool,
    sat: bool,
    ftz: bool,
) -> u64 {
    let src_k = match kind(src) {
        Kind::Tf32 => Kind::Float(Fmt::F32),
        k => k,
    };
    // `.ftz` applies to .f32 operands and results only.
    let bits = match src_k {
        Kind::Float(Fmt::F32) if ftz => Fmt::F32.flush(bits),
        _ => bits,
    };
    let finish = |r: u64, f: Fmt| {
        let r = if ftz && f == Fmt::F32 { f.flush(r) } else { r };
        if sat {
            saturate(r, f)
        } else {
            r
        }
    };
    match (kind(dst), src_k) {
        (
            Kind::Int {
                signed: ds,
                bits: db,
            },
            Kind::Int {
                signed: ss,
                bits: sb,
            },
        ) => {
            let v = int_value(bits, ss, sb);
            let v = if sat {
                let (lo, hi) = if ds {
                    (-(1i128 << (db - 1)), (1i128 << (db - 1)) - 1)
                } else {
                    (0, (1i128 << db) - 1)
                };
                v.clamp(lo, hi)
            } else {
                v
            };
            (v as u64) & mask(db)
        }
        (Kind::Int { signed, bits: db }, Kind::Float(f)) => {
            float_to_int(bits, f, rnd.unwrap_or(Rounding::Rz), signed, db)
        }
        (Kind::Float(f), Kind::Int { signed, bits: sb }) => finish(
            int_to_float(int_value(bits, signed, sb), f, rnd.unwrap_or(Rounding::Rn)),
            f,
        ),
        (Kind::Float(df), Kind::Float(sf)) => {
            let r = if df == sf {
                if int_rnd {
                    float_round_integral(bits, sf, rnd.unwrap_or(Rounding::Rn))
                } else if sf.is_nan(bits) {
                    sf.canonical_nan()
                } else {
                    bits & sf.all_bits()
                }
            } else {
                float_to_float(bits, sf, df, rnd.unwrap_or(Rounding::Rn))
            };
            finish(r, df)
        }
        (Kind::Tf32, Kind::Float(Fmt::F32)) => cvt_tf32(bits, rnd.unwrap_or(Rounding::Rna)),
        _ => 0,
    }
}

/// `cvt.rna.tf32.f32` (and `.rn`/`.rz` on sm_90): the f32 rounded to 10 fraction bits, stored as an
/// f32 bit pattern whose low 13 bits are zero. NaN gives the canonical f32 NaN.
#[inline]
pub fn cvt_tf32(a: u64, rnd: Rounding) -> u64 {
    let a = a & 0xffff_ffff;
    if Fmt::F32.is_nan(a) {
        // The H200 keeps the NaN and truncates its payload to tf32's 10 fraction bits
        // (tests/hw/h200/approx/cvt.rna.tf32.f32.bin: 0x7f8b66a0 -> 0x7f8b6000).
        // A payload only in the dropped bits would become infinity: not measured, kept NaN.
        let t = a & !0x1fff;
        return if Fmt::F32.is_nan(t) {
            t
        } else {
            super::float::CANON_NAN_F32 as u64
        };
    }
    float_to_float(a, Fmt::F32, Fmt::TF32, rnd) << 13
}

/// `cvt.rnd{.relu}{.satfinite}.f16x2.f32 d, a, b`: `a` converted into the upper half, `b` into
/// the lower half. `.relu` clamps negative results to +0 (NaN stays canonical NaN).
#[inline]
pub fn cvt_f16x2_f32(a: u32, b: u32, rnd: Rounding, relu: bool) -> u32 {
    pack_x2(a, b, Fmt::F16, rnd, relu)
}

/// `cvt.rnd{.relu}.bf16x2.f32 d, a, b`: as [`cvt_f16x2_f32`] for bf16.
#[inline]
pub fn cvt_bf16x2_f32(a: u32, b: u32, rnd: Rounding, relu: bool) -> u32 {
    pack_x2(a, b, Fmt::BF16, rnd, relu)
}

#[inline]
fn pack_x2(a: u32, b: u32, f: Fmt, rnd: Rounding, relu: bool) -> u32 {
    let one = |x: u32| {
        // A NaN becomes the canonical NaN of the half format (tests/hw/h200/hw/outputs/k_isa/
        // isa_float.bin, result 64: `__floats2half2_rn` of a NaN gives 0x7fff).
        if Fmt::F32.is_nan(x as u64) {
            return f.canonical_nan();
        }
        let r = float_to_float(x as u64, Fmt::F32, f, rnd);
        if relu && r & f.sign_bit() != 0 && !f.is_nan(r) {
            0
        } else {
            r
        }
    };
    ((one(a) as u32) << 16) | one(b) as u32
}

#[cfg(test)]
mod tests {
    use super::*;
    use ScalarType::*;

    const RN: Option<Rounding> = Some(Rounding::Rn);
    const RZ: Option<Rounding> = Some(Rounding::Rz);
    const RM: Option<Rounding> = Some(Rounding::Rm);
    const RP: Option<Rounding> = Some(Rounding::Rp);

    fn f2i(x: f32, dst: ScalarType, r: Option<Rounding>) -> u64 {
        cvt(x.to_bits() as u64, dst, F32, r, true, false, false)
    }

    #[test]
    fn float_to_int_rounding_and_saturation() {
        // cvt of 2.5: rni -> 2 (ties to even), rmi -> 2, rpi -> 3, rzi -> 2.
        assert_eq!(f2i(2.5, S32, RN), 2);
        assert_eq!(f2i(2.5, S32, RM), 2);
        assert_eq!(f2i(2.5, S32, RP), 3);
        assert_eq!(f2i(2.5, S32, RZ), 2);
        assert_eq!(f2i(3.5, S32, RN), 4);
        assert_eq!(f2i(-2.5, S32, RM), (-3i32) as u32 as u64);
        assert_eq!(f2i(-2.5, S32, RZ), (-2i32) as u32 as u64);
        // Saturation: 1e10 -> s32 max; -1e10 -> s32 min; negative -> u32 0; NaN -> 0.
        assert_eq!(f2i(1e10, S32, RZ), 0x7fff_ffff);
        assert_eq!(f2i(-1e10, S32, RZ), 0x8000_0000);
        assert_eq!(f2i(-5.0, U32, RZ), 0);
        assert_eq!(f2i(f32::NAN, S32, RN), 0);
        assert_eq!(f2i(f32::INFINITY, U8, RN), 0xff);
        assert_eq!(f2i(-200.0, S8, RN), 0x80);
        assert_eq!(f2i(1e30, U64, RN), u64::MAX);
        assert_eq!(f2i(-1e30, S64, RN), 1u64 << 63);
        // f16 source: 0x3e00 = 1.5 -> rni 2.
        assert_eq!(cvt(0x3e00, S32, F16, RN, true, false, false), 2);
    }

    #[test]
    fn int_to_int() {
        // Truncation and sign/zero extension.
        assert_eq!(cvt(0x1234_5678, U8, U32, None, false, false, false), 0x78);
        assert_eq!(cvt(0xff, S32, S8, None, false, false, false), 0xffff_ffff);
        assert_eq!(cvt(0xff, U32, U8, None, false, false, false), 0xff);
        assert_eq!(
            cvt(0xffff_ffff, S64, S32, None, false, false, false),
            u64::MAX
        );
        // .sat clamps: 300 -> u8 255, -5 (s32) -> u16 0, u32 0x8000_0000 -> s32 max.
        assert_eq!(cvt(300, U8, S32, None, false, true, false), 255);
        assert_eq!(
            cvt((-5i32) as u32 as u64, U16, S32, None, false, true, false),
            0
        );
        assert_eq!(
            cvt(0x8000_0000, S32, U32, None, false, true, false),
            0x7fff_ffff
        );
        assert_eq!(
            cvt((-300i32) as u32 as u64, S8, S32, None, false, true, false),
            0x80
        );
    }

    #[test]
    fn int_to_float() {
        // 2^24 + 1 is not an f32: rn -> 2^24 (tie to even), rp -> 2^24 + 2.
        let v = (1u64 << 24) + 1;
        assert_eq!(cvt(v, F32, U32, RN, false, false, false), 0x4b80_0000);
        assert_eq!(cvt(v, F32, U32, RP, false, false, false), 0x4b80_0001);
        assert_eq!(cvt(v, F32, U32, RZ, false, false, false), 0x4b80_0000);
        // -1 (s32) -> f16 0xbc00; u64::MAX -> f32 rn 2^64 = 0x5f800000, rz 0x5f7fffff.
        assert_eq!(cvt(0xffff_ffff, F16, S32, RN, false, false, false), 0xbc00);
        assert_eq!(
            cvt(u64::MAX, F32, U64, RN, false, false, false),
            0x5f80_0000
        );
        assert_eq!(
            cvt(u64::MAX, F32, U64, RZ, false, false, false),
            0x5f7f_ffff
        );
        // 70000 -> f16: rn +inf, rz max 0x7bff.
        assert_eq!(cvt(70000, F16, U32, RN, false, false, false), 0x7c00);
        assert_eq!(cvt(70000, F16, U32, RZ, false, false, false), 0x7bff);
        assert_eq!(cvt(0, F64, S64, RM, false, false, false), 0);
    }

    fn f32_to(x: f32, dst: ScalarType, r: Option<Rounding>) -> u64 {
        cvt(x.to_bits() as u64, dst, F32, r, false, false, false)
    }

    #[test]
    fn float_narrowing() {
        // f16: 1.0 = 0x3c00; 65520 rn -> +inf (tie goes to even = inf), rz -> 0x7bff.
        assert_eq!(f32_to(1.0, F16, RN), 0x3c00);
        assert_eq!(f32_to(65520.0, F16, RN), 0x7c00);
        assert_eq!(f32_to(65520.0, F16, RZ), 0x7bff);
        assert_eq!(f32_to(-65520.0, F16, RP), 0xfbff);
        assert_eq!(f32_to(-65520.0, F16, RM), 0xfc00);
        // 1/3 in f32 is 0x3eaaaaab; to f16: 0x3555 (0.33325) rn/rz/rm, 0x3556 rp.
        let third = f32::from_bits(0x3eaa_aaab);
        assert_eq!(f32_to(third, F16, RN), 0x3555);
        assert_eq!(f32_to(third, F16, RZ), 0x3555);
        assert_eq!(f32_to(third, F16, RP), 0x3556);
        assert_eq!(f32_to(-third, F16, RM), 0xb556);
        // Smallest f16 subnormal is 2^-24 = 0x0001; 2^-25 is a tie -> rn 0 (even), rp 0x0001.
        assert_eq!(f32_to(2f32.powi(-24), F16, RN), 1);
        assert_eq!(f32_to(2f32.powi(-25), F16, RN), 0);
        assert_eq!(f32_to(2f32.powi(-25), F16, RP), 1);
        assert_eq!(f32_to(-2f32.powi(-30), F16, RM), 0x8001);
        assert_eq!(f32_to(-2f32.powi(-30), F16, RZ), 0x8000);
        // bf16: 1/3 -> 0x3eab rn (0x3eaaaaab: dropped 0xaaab > half), 0x3eaa rz.
        assert_eq!(f32_to(third, BF16, RN), 0x3eab);
        assert_eq!(f32_to(third, BF16, RZ), 0x3eaa);
        assert_eq!(f32_to(f32::MAX, BF16, RN), 0x7f80);
        assert_eq!(f32_to(f32::MAX, BF16, RZ), 0x7f7f);
        // NaN -> canonical.
        assert_eq!(f32_to(f32::NAN, F16, RN), 0x7fff);
        assert_eq!(f32_to(f32::NAN, BF16, RN), 0x7fff);
        // f64 -> f32: 1/3 rn 0x3eaaaaab, rz 0x3eaaaaaa.
        let d = (1.0f64 / 3.0).to_bits();
        assert_eq!(cvt(d, F32, F64, RN, false, false, false), 0x3eaa_aaab);
        assert_eq!(cvt(d, F32, F64, RZ, false, false, false), 0x3eaa_aaaa);
        assert_eq!(cvt(d, F32, F64, RM, false, false, false), 0x3eaa_aaaa);
        assert_eq!(cvt(d, F32, F64, RP, false, false, false), 0x3eaa_aaab);
        // f64 1e-40 -> f32 is subnormal; with .ftz it becomes +0.
        let tiny = 1e-40f64.to_bits();
        assert_ne!(cvt(tiny, F32, F64, RN, false, false, false), 0);
        assert_eq!(cvt(tiny, F32, F64, RN, false, false, true), 0);
    }

    #[test]
    fn widening_is_exact() {
        assert_eq!(
            cvt(0x3c00, F32, F16, None, false, false, false),
            0x3f80_0000
        );
        assert_eq!(
            cvt(0x0001, F32, F16, None, false, false, false),
            0x3380_0000
        ); // 2^-24
        assert_eq!(
            cvt(0x7c00, F64, F16, None, false, false, false),
            f64::INFINITY.to_bits()
        );
        assert_eq!(
            cvt(0x3f80, F32, BF16, None, false, false, false),
            0x3f80_0000
        );
        assert_eq!(
            cvt(1, F64, F32, None, false, false, false),
            2f64.powi(-149).to_bits()
        );
        // .ftz on an f32 source flushes the subnormal.
        assert_eq!(
            cvt(0x8000_0001, F64, F32, None, false, false, true),
            (-0.0f64).to_bits()
        );
    }

    #[test]
    fn same_type_round_integral_and_sat() {
        let r = |x: f32, m| {
            f32::from_bits(cvt(x.to_bits() as u64, F32, F32, m, true, false, false) as u32)
        };
        assert_eq!(r(2.5, RN), 2.0);
        assert_eq!(r(2.5, RP), 3.0);
        assert_eq!(r(-2.5, RM), -3.0);
        assert_eq!(r(-0.5, RN).to_bits(), 0x8000_0000); // -0 keeps its sign
                                                        // f16 2.5 = 0x4100 -> rni 2.0 = 0x4000.
        assert_eq!(cvt(0x4100, F16, F16, RN, true, false, false), 0x4000);
        // .sat: 1.5 -> 1.0, -3 -> 0, NaN -> 0.
        assert_eq!(
            cvt(1.5f32.to_bits() as u64, F32, F32, None, false, true, false),
            0x3f80_0000
        );
        assert_eq!(
            cvt(
                (-3.0f32).to_bits() as u64,
                F32,
                F32,
                None,
                false,
                true,
                false
            ),
            0
        );
        assert_eq!(cvt(0x7fc0_0000, F32, F32, None, false, true, false), 0);
        // cvt.ftz.f32.f32 flushes.
        assert_eq!(cvt(0x0000_0001, F32, F32, None, false, false, true), 0);
    }

    #[test]
    fn tf32_and_packed() {
        // 1 + 2^-11 is a tie at 10 fraction bits: rna -> 1 + 2^-10 = 0x3f802000, rn -> 1.0 (even).
        let x = 1.0f32 + 2f32.powi(-11);
        assert_eq!(
            cvt(
                x.to_bits() as u64,
                TF32,
                F32,
                Some(Rounding::Rna),
                false,
                false,
                false
            ),
            0x3f80_2000
        );
        assert_eq!(
            cvt(x.to_bits() as u64, TF32, F32, RN, false, false, false),
            0x3f80_0000
        );
        assert_eq!(cvt_tf32(0x7f80_0001, Rounding::Rna), 0x7fff_ffff);
        // Measured on the H200 (tests/hw/h200/approx/cvt.rna.tf32.f32.bin).
        assert_eq!(cvt_tf32(0x7f8b_66a0, Rounding::Rna), 0x7f8b_6000);
        // a -> upper, b -> lower: (1.0, 2.0) -> 0x3c00_4000.
        assert_eq!(
            cvt_f16x2_f32(1f32.to_bits(), 2f32.to_bits(), Rounding::Rn, false),
            0x3c00_4000
        );
        assert_eq!(
            cvt_bf16x2_f32(1f32.to_bits(), (-2f32).to_bits(), Rounding::Rn, false),
            0x3f80_c000
        );
        assert_eq!(
            cvt_f16x2_f32((-1f32).to_bits(), 0x7fc0_0000, Rounding::Rn, true),
            0x0000_7fff
        );
    }

    /// Every f16 -> f32 -> f16 round trip is the identity; rn f32 -> f16 agrees with the `half`
    /// crate (an independent implementation) on a sweep of f32 patterns.
    #[test]
    fn agrees_with_half_crate() {
        for h in 0u32..=0xffff {
            if Fmt::F16.is_nan(h as u64) {
                continue;
            }
            let f = cvt(h as u64, F32, F16, None, false, false, false);
            assert_eq!(f as u32, half::f16::from_bits(h as u16).to_f32().to_bits());
            assert_eq!(cvt(f, F16, F32, RN, false, false, false), h as u64);
        }
        let mut x = 0u32;
        loop {
            let f = f32::from_bits(x);
            if !f.is_nan() {
                assert_eq!(
                    cvt(x as u64, F16, F32, RN, false, false, false),
                    half::f16::from_f32(f).to_bits() as u64,
                    "{x:#x}"
                );
                assert_eq!(
                    cvt(x as u64, BF16, F32, RN, false, false, false),
                    half::bf16::from_f32(f).to_bits() as u64,
                    "{x:#x}"
                );
                // Directed results bracket rn and differ from each other by at most one step.
                let up = cvt(x as u64, F16, F32, RP, false, false, false);
                let dn = cvt(x as u64, F16, F32, RM, false, false, false);
                let (fu, fd) = (
                    half::f16::from_bits(up as u16).to_f64(),
                    half::f16::from_bits(dn as u16).to_f64(),
                );
                assert!(fd <= f as f64 && f as f64 <= fu, "{x:#x}");
            }
            x = match x.checked_add(0x1357) {
                Some(v) => v,
                None => break,
            };
        }
    }
}
