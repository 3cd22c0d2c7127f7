//! Floating-point instruction selection: maps an opcode, its modifiers and type to a per-lane
//! function (PTX ISA 9.7.3 "Floating-Point Instructions", 9.7.4 "Half Precision").
//!
//! Round-to-nearest arithmetic is Rust's IEEE arithmetic; the directed roundings, `.ftz`,
//! `.sat` and the `.approx` functions come from [`super::fround`].

use half::{bf16, f16};

use crate::ir::types::{Rounding, ScalarType};
use crate::ir::{CmpFn, LaneFn};

use super::alu::rounding;
use super::fround as fl;

#[inline(always)]
fn f32b(x: u64) -> f32 {
    f32::from_bits(x as u32)
}
#[inline(always)]
fn bf32(x: f32) -> u64 {
    x.to_bits() as u64
}
#[inline(always)]
fn f64b(x: u64) -> f64 {
    f64::from_bits(x)
}
#[inline(always)]
fn h(x: u64) -> f64 {
    f16::from_bits(x as u16).to_f64()
}
#[inline(always)]
fn hb(x: f64) -> u64 {
    f16::from_f64(x).to_bits() as u64
}
#[inline(always)]
fn b16(x: u64) -> f64 {
    bf16::from_bits(x as u16).to_f64()
}
#[inline(always)]
fn b16b(x: f64) -> u64 {
    bf16::from_f64(x).to_bits() as u64
}

/// Lanes of a packed pair: applies `f` to both halves.
#[inline(always)]
fn x2(a: u64, b: u64, c: u64, f: impl Fn(u64, u64, u64) -> u64) -> u64 {
    let lo = f(a & 0xffff, b & 0xffff, c & 0xffff) & 0xffff;
    let hi = f(a >> 16 & 0xffff, b >> 16 & 0xffff, c >> 16 & 0xffff) & 0xffff;
    hi << 16 | lo
}

macro_rules! f32_rnd {
    ($rnd:expr, $ftz:expr, $sat:expr, |$a:ident, $b:ident, $c:ident, $r:ident| $body:expr) => {{
        macro_rules! one {
            ($rr:expr, $fz:expr, $st:expr) => {
                (|x: u64, y: u64, z: u64, _e: u64| {
                    let ($a, $b, $c) = (fl::in32(x, $fz), fl::in32(y, $fz), fl::in32(z, $fz));
                    let $r = $rr;
                    let _ = (&$b, &$c, &$r);
                    bf32(fl::out32($body, $fz, $st))
                }) as LaneFn
            };
        }
        macro_rules! by_flags {
            ($rr:expr) => {
                match ($ftz, $sat) {
                    (false, false) => one!($rr, false, false),
                    (true, false) => one!($rr, true, false),
                    (false, true) => one!($rr, false, true),
                    (true, true) => one!($rr, true, true),
                }
            };
        }
        match $rnd {
            Rounding::Rn | Rounding::Rna => by_flags!(Rounding::Rn),
            Rounding::Rz => by_flags!(Rounding::Rz),
            Rounding::Rm => by_flags!(Rounding::Rm),
            Rounding::Rp => by_flags!(Rounding::Rp),
        }
    }};
}

macro_rules! f64_rnd {
    ($rnd:expr, |$a:ident, $b:ident, $c:ident, $r:ident| $body:expr) => {{
        macro_rules! one {
            ($rr:expr) => {
                (|x: u64, y: u64, z: u64, _e: u64| {
                    let ($a, $b, $c) = (f64b(x), f64b(y), f64b(z));
                    let $r = $rr;
                    let _ = (&$b, &$c, &$r);
                    ($body).to_bits()
                }) as LaneFn
            };
        }
        match $rnd {
            Rounding::Rn | Rounding::Rna => one!(Rounding::Rn),
            Rounding::Rz => one!(Rounding::Rz),
            Rounding::Rm => one!(Rounding::Rm),
            Rounding::Rp => one!(Rounding::Rp),
        }
    }};
}

/// Selects a floating-point lane function.
pub fn select(opcode: &str, mods: &[&str], ty: ScalarType) -> Result<LaneFn, String> {
    let has = |m: &str| mods.contains(&m);
    let ftz = has("ftz");
    let sat = has("sat");
    let approx = has("approx");
    let rnd = rounding(mods).unwrap_or(Rounding::Rn);
    let unsupported = || {
        let m: Vec<String> = mods.iter().map(|m| format!(".{m}")).collect();
        Err(format!(
            "unsupported instruction '{opcode}{}' for .{ty:?}",
            m.concat()
        ))
    };
    use ScalarType::*;
    let f: LaneFn = match (ty, opcode) {
        (F32, "mov") => |a, _, _, _| a & 0xffff_ffff,
        (F64, "mov") => |a, _, _, _| a,
        (F16 | BF16, "mov") => |a, _, _, _| a & 0xffff,
        (F16x2 | BF16x2, "mov") => |a, _, _, _| a & 0xffff_ffff,
        (F32, "add") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::add32(a, b, r)),
        (F32, "sub") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::add32(a, -b, r)),
        (F32, "mul") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::mul32(a, b, r)),
        (F32, "fma" | "mad") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::fma32(a, b, c, r)),
        (F32, "div") if approx => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::div_approx32(a, b)),
        (F32, "div") if has("full") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::div_full32(a, b)),
        (F32, "div") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::div32(a, b, r)),
        (F32, "rcp") if approx => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::rcp_approx32(a)),
        (F32, "rcp") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::div32(1.0, a, r)),
        (F32, "sqrt") if approx => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::sqrt_approx32(a)),
        (F32, "sqrt") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::sqrt32(a, r)),
        (F32, "rsqrt") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::rsqrt_approx32(a)),
        (F32, "sin") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::sin_approx32(a)),
        (F32, "cos") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::cos_approx32(a)),
        (F32, "lg2") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::lg2_approx32(a)),
        (F32, "ex2") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::ex2_approx32(a)),
        (F32, "tanh") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::tanh_approx32(a)),
        (F32, "min") if has("NaN") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::min_nan32(a, b)),
        (F32, "max") if has("NaN") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::max_nan32(a, b)),
        (F32, "min") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::min32(a, b)),
        (F32, "max") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| fl::max32(a, b)),
        (F32, "abs") if !ftz => |a, _, _, _| a & 0x7fff_ffff,
        (F32, "neg") if !ftz => |a, _, _, _| (a ^ 0x8000_0000) & 0xffff_ffff,
        (F32, "abs") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| a.abs()),
        (F32, "neg") => f32_rnd!(rnd, ftz, sat, |a, b, c, r| -a),
        (F32, "copysign") => |a, b, _, _| (b & 0x7fff_ffff) | (a & 0x8000_0000),
        (F64, "add") => f64_rnd!(rnd, |a, b, c, r| fl::add64(a, b, r)),
        (F64, "sub") => f64_rnd!(rnd, |a, b, c, r| fl::add64(a, -b, r)),
        (F64, "mul") => f64_rnd!(rnd, |a, b, c, r| fl::mul64(a, b, r)),
        (F64, "fma" | "mad") => f64_rnd!(rnd, |a, b, c, r| fl::fma64(a, b, c, r)),
        (F64, "div") => f64_rnd!(rnd, |a, b, c, r| fl::div64(a, b, r)),
        (F64, "rcp") if approx => f64_rnd!(rnd, |a, b, c, r| fl::rcp_approx64(a)),
        (F64, "rcp") => f64_rnd!(rnd, |a, b, c, r| fl::div64(1.0, a, r)),
        (F64, "sqrt") => f64_rnd!(rnd, |a, b, c, r| fl::sqrt64(a, r)),
        (F64, "rsqrt") => f64_rnd!(rnd, |a, b, c, r| fl::rsqrt_approx64(a)),
        (F64, "min") => f64_rnd!(rnd, |a, b, c, r| fl::min64(a, b)),
        (F64, "max") => f64_rnd!(rnd, |a, b, c, r| fl::max64(a, b)),
        (F64, "abs") => |a, _, _, _| a & !(1 << 63),
        (F64, "neg") => |a, _, _, _| a ^ (1 << 63),
        (F64, "copysign") => |a, b, _, _| (b & !(1 << 63)) | (a & (1 << 63)),
        // Half precision: exact in f64, rounded once (PTX ISA 9.7.4).
        (F16, "add") => {
            if sat {
                |a, b, _, _| hb(sat01(h(a) + h(b)))
            } else {
                |a, b, _, _| hb(h(a) + h(b))
            }
        }
        (F16, "sub") => {
            if sat {
                |a, b, _, _| hb(sat01(h(a) - h(b)))
            } else {
                |a, b, _, _| hb(h(a) - h(b))
            }
        }
        (F16, "mul") => {
            if sat {
                |a, b, _, _| hb(sat01(h(a) * h(b)))
            } else {
                |a, b, _, _| hb(h(a) * h(b))
            }
        }
        (F16, "fma") => {
            if sat {
                |a, b, c, _| hb(sat01(h(a).mul_add(h(b), h(c))))
            } else {
                |a, b, c, _| hb(h(a).mul_add(h(b), h(c)))
            }
        }
        (F16, "neg") => |a, _, _, _| (a ^ 0x8000) & 0xffff,
        (F16, "abs") => |a, _, _, _| a & 0x7fff,
        (F16, "min") => |a, b, _, _| hmin(a, b, h),
        (F16, "max") => |a, b, _, _| hmax(a, b, h),
        (F16x2, "add") => |a, b, c, _| x2(a, b, c, |a, b, _| hb(h(a) + h(b))),
        (F16x2, "sub") => |a, b, c, _| x2(a, b, c, |a, b, _| hb(h(a) - h(b))),
        (F16x2, "mul") => |a, b, c, _| x2(a, b, c, |a, b, _| hb(h(a) * h(b))),
        (F16x2, "fma") => |a, b, c, _| x2(a, b, c, |a, b, c| hb(h(a).mul_add(h(b), h(c)))),
        (F16x2, "neg") => |a, _, _, _| (a ^ 0x8000_8000) & 0xffff_ffff,
        (F16x2, "abs") => |a, _, _, _| a & 0x7fff_7fff,
        (F16x2, "min") => |a, b, c, _| x2(a, b, c, |a, b, _| hmin(a, b, h)),
        (F16x2, "max") => |a, b, c, _| x2(a, b, c, |a, b, _| hmax(a, b, h)),
        (BF16, "add") => |a, b, _, _| b16b(b16(a) + b16(b)),
        (BF16, "sub") => |a, b, _, _| b16b(b16(a) - b16(b)),
        (BF16, "mul") => |a, b, _, _| b16b(b16(a) * b16(b)),
        (BF16, "fma") => |a, b, c, _| b16b(b16(a).mul_add(b16(b), b16(c))),
        (BF16, "neg") => |a, _, _, _| (a ^ 0x8000) & 0xffff,
        (BF16, "abs") => |a, _, _, _| a & 0x7fff,
        (BF16, "min") => |a, b, _, _| hmin(a, b, b16),
        (BF16, "max") => |a, b, _, _| hmax(a, b, b16),
        (BF16x2, "add") => |a, b, c, _| x2(a, b, c, |a, b, _| b16b(b16(a) + b16(b))),
        (BF16x2, "sub") => |a, b, c, _| x2(a, b, c, |a, b, _| b16b(b16(a) - b16(b))),
        (BF16x2, "mul") => |a, b, c, _| x2(a, b, c, |a, b, _| b16b(b16(a) * b16(b))),
        (BF16x2, "fma") => |a, b, c, _| x2(a, b, c, |a, b, c| b16b(b16(a).mul_add(b16(b), b16(c)))),
        (BF16x2, "neg") => |a, _, _, _| (a ^ 0x8000_8000) & 0xffff_ffff,
        (BF16x2, "abs") => |a, _, _, _| a & 0x7fff_7fff,
        (BF16x2, "min") => |a, b, c, _| x2(a, b, c, |a, b, _| hmin(a, b, b16)),
        (BF16x2, "max") => |a, b, c, _| x2(a, b, c, |a, b, _| hmax(a, b, b16)),
        _ => return unsupported(),
    };
    Ok(f)
}

#[inline(always)]
fn sat01(x: f64) -> f64 {
    if x.is_nan() {
        0.0
    } else {
        x.clamp(0.0, 1.0)
    }
}

/// Half-precision min: the other operand when one is NaN; canonical NaN when both are.
#[inline(always)]
fn hmin(a: u64, b: u64, v: fn(u64) -> f64) -> u64 {
    let (x, y) = (v(a), v(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0x7fff,
        (true, false) => b & 0xffff,
        (false, true) => a & 0xffff,
        _ => {
            if x < y || (x == y && a & 0x8000 != 0) {
                a & 0xffff
            } else {
                b & 0xffff
            }
        }
    }
}

#[inline(always)]
fn hmax(a: u64, b: u64, v: fn(u64) -> f64) -> u64 {
    let (x, y) = (v(a), v(b));
    match (x.is_nan(), y.is_nan()) {
        (true, true) => 0x7fff,
        (true, false) => b & 0xffff,
        (false, true) => a & 0xffff,
        _ => {
            if x > y || (x == y && a & 0x8000 == 0) {
                a & 0xffff
            } else {
                b & 0xffff
            }
        }
    }
}

fn as_f64(ty: ScalarType) -> fn(u64) -> f64 {
    match ty {
        ScalarType::F64 => f64b,
        ScalarType::F16 => h,
        ScalarType::BF16 => b16,
        _ => |x| f32b(x) as f64,
    }
}

macro_rules! fcmp {
    ($conv:expr, |$a:ident, $b:ident| $body:expr) => {{
        let f: CmpFn = match $conv {
            0 => |x, y| {
                let ($a, $b) = (f32b(x) as f64, f32b(y) as f64);
                $body
            },
            1 => |x, y| {
                let ($a, $b) = (f64b(x), f64b(y));
                $body
            },
            2 => |x, y| {
                let ($a, $b) = (h(x), h(y));
                $body
            },
            _ => |x, y| {
                let ($a, $b) = (b16(x), b16(y));
                $body
            },
        };
        f
    }};
}

/// Selects a floating-point comparison; the `u` forms are true when either input is NaN.
pub fn select_cmp(cmp: &str, ty: ScalarType) -> Result<CmpFn, String> {
    let _ = as_f64(ty);
    let conv = match ty {
        ScalarType::F32 => 0,
        ScalarType::F64 => 1,
        ScalarType::F16 => 2,
        ScalarType::BF16 => 3,
        _ => return Err(format!("comparison on unsupported type .{ty:?}")),
    };
    Ok(match cmp {
        "eq" => fcmp!(conv, |a, b| a == b),
        "ne" => fcmp!(conv, |a, b| a != b && !a.is_nan() && !b.is_nan()),
        "lt" => fcmp!(conv, |a, b| a < b),
        "le" => fcmp!(conv, |a, b| a <= b),
        "gt" => fcmp!(conv, |a, b| a > b),
        "ge" => fcmp!(conv, |a, b| a >= b),
        "equ" => fcmp!(conv, |a, b| a == b || a.is_nan() || b.is_nan()),
        "neu" => fcmp!(conv, |a, b| a != b),
        "ltu" => fcmp!(conv, |a, b| !(a >= b)),
        "leu" => fcmp!(conv, |a, b| !(a > b)),
        "gtu" => fcmp!(conv, |a, b| !(a <= b)),
        "geu" => fcmp!(conv, |a, b| !(a < b)),
        "num" => fcmp!(conv, |a, b| !a.is_nan() && !b.is_nan()),
        "nan" => fcmp!(conv, |a, b| a.is_nan() || b.is_nan()),
        _ => return Err(format!("unknown comparison '.{cmp}' for .{ty:?}")),
    })
}

/// `testp` (PTX ISA 9.7.3.5) as a comparison that ignores its second operand.
pub fn select_testp(mode: &str, ty: ScalarType) -> Result<CmpFn, String> {
    let f: CmpFn = match (ty, mode) {
        (ScalarType::F32, "finite") => |a, _| f32b(a).is_finite(),
        (ScalarType::F32, "infinite") => |a, _| f32b(a).is_infinite(),
        (ScalarType::F32, "number") => |a, _| !f32b(a).is_nan(),
        (ScalarType::F32, "notanumber") => |a, _| f32b(a).is_nan(),
        (ScalarType::F32, "normal") => |a, _| f32b(a).is_normal(),
        (ScalarType::F32, "subnormal") => |a, _| f32b(a).is_subnormal(),
        (ScalarType::F64, "finite") => |a, _| f64b(a).is_finite(),
        (ScalarType::F64, "infinite") => |a, _| f64b(a).is_infinite(),
        (ScalarType::F64, "number") => |a, _| !f64b(a).is_nan(),
        (ScalarType::F64, "notanumber") => |a, _| f64b(a).is_nan(),
        (ScalarType::F64, "normal") => |a, _| f64b(a).is_normal(),
        (ScalarType::F64, "subnormal") => |a, _| f64b(a).is_subnormal(),
        _ => return Err(format!("unsupported testp.{mode} for .{ty:?}")),
    };
    Ok(f)
}
