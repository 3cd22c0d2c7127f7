//! `cvt` between PTX types (PTX ISA 9.7.9.21). Interim version: round-to-nearest for float
//! results, all four integer roundings, saturation of float-to-integer conversions.

use crate::ir::types::{Rounding, ScalarType};

fn to_f64(bits: u64, t: ScalarType) -> f64 {
    use ScalarType::*;
    match t {
        F32 => f32::from_bits(bits as u32) as f64,
        F64 => f64::from_bits(bits),
        F16 => half::f16::from_bits(bits as u16).to_f64(),
        BF16 => half::bf16::from_bits(bits as u16).to_f64(),
        S8 => bits as i8 as f64,
        S16 => bits as i16 as f64,
        S32 => bits as i32 as f64,
        S64 => bits as i64 as f64,
        U8 | B8 => bits as u8 as f64,
        U16 | B16 => bits as u16 as f64,
        U32 | B32 => bits as u32 as f64,
        _ => bits as f64,
    }
}

fn round_int(x: f64, r: Rounding) -> f64 {
    match r {
        Rounding::Rn => x.round_ties_even(),
        Rounding::Rz => x.trunc(),
        Rounding::Rm => x.floor(),
        Rounding::Rp => x.ceil(),
        Rounding::Rna => x.round(),
    }
}

/// Converts the lane value `bits` of type `src` to type `dst`.
pub fn cvt(
    bits: u64,
    dst: ScalarType,
    src: ScalarType,
    rnd: Option<Rounding>,
    _int_rnd: bool,
    sat: bool,
    ftz: bool,
) -> u64 {
    use ScalarType::*;
    let r = rnd.unwrap_or(Rounding::Rn);
    if !src.is_float() && !dst.is_float() {
        // Integer to integer: sign- or zero-extend from the source, then truncate or saturate.
        let v: i128 = match src {
            S8 => bits as i8 as i128,
            S16 => bits as i16 as i128,
            S32 => bits as i32 as i128,
            S64 => bits as i64 as i128,
            U8 | B8 => bits as u8 as i128,
            U16 | B16 => bits as u16 as i128,
            U32 | B32 => bits as u32 as i128,
            _ => bits as i128,
        };
        let (lo, hi): (i128, i128) = match dst {
            S8 => (i8::MIN as i128, i8::MAX as i128),
            S16 => (i16::MIN as i128, i16::MAX as i128),
            S32 => (i32::MIN as i128, i32::MAX as i128),
            S64 => (i64::MIN as i128, i64::MAX as i128),
            U8 | B8 => (0, u8::MAX as i128),
            U16 | B16 => (0, u16::MAX as i128),
            U32 | B32 => (0, u32::MAX as i128),
            _ => (0, u64::MAX as i128),
        };
        let v = if sat { v.clamp(lo, hi) } else { v };
        return (v as u64) & mask(dst);
    }
    if src.is_float() && !dst.is_float() {
        let x = to_f64(bits, src);
        if x.is_nan() {
            return 0;
        }
        let x = round_int(x, r);
        return match dst {
            S8 => (x.clamp(i8::MIN as f64, i8::MAX as f64) as i64 as u64) & 0xff,
            S16 => (x.clamp(i16::MIN as f64, i16::MAX as f64) as i64 as u64) & 0xffff,
            S32 => (x.clamp(i32::MIN as f64, i32::MAX as f64) as i64 as u64) & 0xffff_ffff,
            S64 => x as i64 as u64,
            U8 | B8 => x.clamp(0.0, u8::MAX as f64) as u64,
            U16 | B16 => x.clamp(0.0, u16::MAX as f64) as u64,
            U32 | B32 => x.clamp(0.0, u32::MAX as f64) as u64,
            _ => x as u64,
        };
    }
    // To float.
    let x = if src.is_float() {
        to_f64(bits, src)
    } else if matches!(src, U64 | B64) {
        // u64 → f32 through f64 would double-round; go direct.
        return match dst {
            F32 => (bits as f32).to_bits() as u64,
            F64 => (bits as f64).to_bits(),
            F16 => half::f16::from_f32(bits as f32).to_bits() as u64,
            _ => half::bf16::from_f32(bits as f32).to_bits() as u64,
        };
    } else if src == S64 {
        return match dst {
            F32 => ((bits as i64) as f32).to_bits() as u64,
            F64 => ((bits as i64) as f64).to_bits(),
            F16 => half::f16::from_f32((bits as i64) as f32).to_bits() as u64,
            _ => half::bf16::from_f32((bits as i64) as f32).to_bits() as u64,
        };
    } else {
        to_f64(bits, src)
    };
    let x = if src.is_float()
        && dst.is_float()
        && dst.size() >= src.size()
        && rnd.is_some()
        && _int_rnd
    {
        round_int(x, r)
    } else {
        x
    };
    let out = match dst {
        F32 => {
            let mut v = x as f32;
            if ftz && v.is_subnormal() {
                v = 0.0f32.copysign(v);
            }
            if sat {
                v = if v.is_nan() { 0.0 } else { v.clamp(0.0, 1.0) };
            }
            v.to_bits() as u64
        }
        F64 => {
            let v = if sat {
                if x.is_nan() {
                    0.0
                } else {
                    x.clamp(0.0, 1.0)
                }
            } else {
                x
            };
            v.to_bits()
        }
        F16 => half::f16::from_f64(x).to_bits() as u64,
        BF16 => half::bf16::from_f64(x).to_bits() as u64,
        _ => x.to_bits(),
    };
    out
}

fn mask(t: ScalarType) -> u64 {
    match t.size() {
        1 => 0xff,
        2 => 0xffff,
        4 => 0xffff_ffff,
        _ => !0,
    }
}
