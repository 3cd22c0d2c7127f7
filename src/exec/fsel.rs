//! Floating-point instruction selection: maps an opcode, its modifiers and type to a per-lane
//! function (PTX ISA 9.7.3 "Floating-Point Instructions", 9.7.4 "Half Precision Floating-Point
//! Instructions"). The arithmetic itself lives in [`super::float`] and [`super::half`]; here the
//! rounding, `.ftz` and `.sat` modifiers are fixed once per instruction so that the executor calls
//! a plain function per lane.

use crate::ir::types::{Rounding, ScalarType};
use crate::ir::{CmpFn, LaneFn, WarpFn};

use super::alu::rounding;
use super::float::{self as fl, CmpOp, FMode, Fmt, TestpOp};
use super::half as hf;
use super::mufu;

/// Expands `$body` (which uses the constant `M: FMode`) once per modifier combination and
/// returns the matching lane function.
macro_rules! with_mode {
    ($mode:expr, |$a:ident, $b:ident, $c:ident| $body:expr) => {{
        macro_rules! one {
            ($r:expr, $f:expr, $s:expr) => {{
                const M: FMode = FMode {
                    rnd: $r,
                    ftz: $f,
                    sat: $s,
                };
                let _ = M;
                (|$a: u64, $b: u64, $c: u64, _e: u64| {
                    let _ = (&$a, &$b, &$c);
                    $body
                }) as LaneFn
            }};
        }
        macro_rules! flags {
            ($r:expr) => {
                match ($mode.ftz, $mode.sat) {
                    (false, false) => one!($r, false, false),
                    (true, false) => one!($r, true, false),
                    (false, true) => one!($r, false, true),
                    (true, true) => one!($r, true, true),
                }
            };
        }
        match $mode.rnd {
            Rounding::Rn | Rounding::Rna => flags!(Rounding::Rn),
            Rounding::Rz => flags!(Rounding::Rz),
            Rounding::Rm => flags!(Rounding::Rm),
            Rounding::Rp => flags!(Rounding::Rp),
        }
    }};
}

/// The warp form ([`WarpFn`]) of the lane function [`select`] returns for the same
/// instruction, where it has one: the `.f32` special functions (`rcp.approx`, `sqrt.approx`,
/// `rsqrt`, `ex2`, `lg2`, `sin`, `cos`), computed by [`mufu::warp`] (the same bits).
pub fn select_warp(opcode: &str, mods: &[&str], ty: ScalarType) -> Option<WarpFn> {
    use mufu::warp as mw;
    /// `$f` on the low words of the lanes, the results zero-extended (as the lane functions).
    macro_rules! w {
        ($f:path) => {
            (|a: &[u64], out: &mut [u64; 32]| {
                let a: &[u64; 32] = a.try_into().expect("a warp's register has 32 lanes");
                $f(a, out)
            }) as WarpFn
        };
    }
    let approx = mods.contains(&"approx");
    let ftz = mods.contains(&"ftz");
    if ty != ScalarType::F32 {
        return None;
    }
    Some(match (opcode, ftz) {
        ("rcp", false) if approx => w!(mw::rcp_approx_f32),
        ("rcp", true) if approx => w!(mw::rcp_approx_ftz_f32),
        ("sqrt", false) if approx => w!(mw::sqrt_approx_f32),
        ("sqrt", true) if approx => w!(mw::sqrt_approx_ftz_f32),
        ("rsqrt", false) => w!(mw::rsqrt_approx_f32),
        ("rsqrt", true) => w!(mw::rsqrt_approx_ftz_f32),
        ("ex2", false) => w!(mw::ex2_approx_f32),
        ("ex2", true) => w!(mw::ex2_approx_ftz_f32),
        ("lg2", false) => w!(mw::lg2_approx_f32),
        ("lg2", true) => w!(mw::lg2_approx_ftz_f32),
        ("sin", _) => w!(mw::sin_approx_f32),
        ("cos", _) => w!(mw::cos_approx_f32),
        _ => return None,
    })
}

/// Selects a floating-point lane function.
pub fn select(opcode: &str, mods: &[&str], ty: ScalarType) -> Result<LaneFn, String> {
    let has = |m: &str| mods.contains(&m);
    let mode = FMode {
        rnd: rounding(mods).unwrap_or(Rounding::Rn),
        ftz: has("ftz"),
        sat: has("sat"),
    };
    let approx = has("approx");
    let nan = has("NaN");
    let relu = has("relu");
    let unsupported = || {
        let m: Vec<String> = mods.iter().map(|m| format!(".{m}")).collect();
        Err(format!("unsupported instruction '{opcode}{}'", m.concat()))
    };
    use ScalarType::*;
    let f: LaneFn = match (ty, opcode) {
        (F32, "mov") => |a, _, _, _| a & 0xffff_ffff,
        (F64, "mov") => |a, _, _, _| a,
        (F16 | BF16, "mov") => |a, _, _, _| a & 0xffff,
        (F16x2 | BF16x2, "mov") => |a, _, _, _| a & 0xffff_ffff,
        (F32, "add") => with_mode!(mode, |a, b, c| fl::add_f32(a as u32, b as u32, M) as u64),
        (F32, "sub") => with_mode!(mode, |a, b, c| fl::sub_f32(a as u32, b as u32, M) as u64),
        (F32, "mul") => with_mode!(mode, |a, b, c| fl::mul_f32(a as u32, b as u32, M) as u64),
        (F32, "fma" | "mad") => {
            with_mode!(mode, |a, b, c| fl::fma_f32(a as u32, b as u32, c as u32, M)
                as u64)
        }
        (F32, "div") if approx => with_mode!(mode, |a, b, c| fl::div_approx_f32(
            a as u32, b as u32, M.ftz
        ) as u64),
        (F32, "div") if has("full") => {
            with_mode!(mode, |a, b, c| fl::div_full_f32(a as u32, b as u32, M.ftz)
                as u64)
        }
        (F32, "div") => with_mode!(mode, |a, b, c| fl::div_f32(a as u32, b as u32, M) as u64),
        (F32, "rcp") if approx => {
            with_mode!(mode, |a, b, c| fl::rcp_approx_f32(a as u32, M.ftz) as u64)
        }
        (F32, "rcp") => with_mode!(mode, |a, b, c| fl::rcp_f32(a as u32, M) as u64),
        (F32, "sqrt") if approx => {
            with_mode!(mode, |a, b, c| fl::sqrt_approx_f32(a as u32, M.ftz) as u64)
        }
        (F32, "sqrt") => with_mode!(mode, |a, b, c| fl::sqrt_f32(a as u32, M) as u64),
        (F32, "rsqrt") => with_mode!(mode, |a, b, c| fl::rsqrt_approx_f32(a as u32, M.ftz) as u64),
        (F32, "sin") => with_mode!(mode, |a, b, c| fl::sin_approx_f32(a as u32, M.ftz) as u64),
        (F32, "cos") => with_mode!(mode, |a, b, c| fl::cos_approx_f32(a as u32, M.ftz) as u64),
        (F32, "lg2") => with_mode!(mode, |a, b, c| fl::lg2_approx_f32(a as u32, M.ftz) as u64),
        (F32, "ex2") => with_mode!(mode, |a, b, c| fl::ex2_approx_f32(a as u32, M.ftz) as u64),
        (F32, "tanh") => |a, _, _, _| fl::tanh_approx_f32(a as u32) as u64,
        (F32, "min") => match (mode.ftz, nan) {
            (false, false) => |a, b, _, _| fl::fmin(Fmt::F32, a, b, false, false),
            (true, false) => |a, b, _, _| fl::fmin(Fmt::F32, a, b, true, false),
            (false, true) => |a, b, _, _| fl::fmin(Fmt::F32, a, b, false, true),
            (true, true) => |a, b, _, _| fl::fmin(Fmt::F32, a, b, true, true),
        },
        (F32, "max") => match (mode.ftz, nan) {
            (false, false) => |a, b, _, _| fl::fmax(Fmt::F32, a, b, false, false),
            (true, false) => |a, b, _, _| fl::fmax(Fmt::F32, a, b, true, false),
            (false, true) => |a, b, _, _| fl::fmax(Fmt::F32, a, b, false, true),
            (true, true) => |a, b, _, _| fl::fmax(Fmt::F32, a, b, true, true),
        },
        (F32, "abs") => with_mode!(mode, |a, b, c| fl::abs_f32(a as u32, M.ftz) as u64),
        (F32, "neg") => with_mode!(mode, |a, b, c| fl::neg_f32(a as u32, M.ftz) as u64),
        (F32, "copysign") => |a, b, _, _| fl::copysign(Fmt::F32, a, b),
        (F64, "add") => with_mode!(mode, |a, b, c| fl::add_f64(a, b, M)),
        (F64, "sub") => with_mode!(mode, |a, b, c| fl::sub_f64(a, b, M)),
        (F64, "mul") => with_mode!(mode, |a, b, c| fl::mul_f64(a, b, M)),
        (F64, "fma" | "mad") => with_mode!(mode, |a, b, c| fl::fma_f64(a, b, c, M)),
        (F64, "div") => with_mode!(mode, |a, b, c| fl::div_f64(a, b, M)),
        (F64, "rcp") if approx => |a, _, _, _| fl::rcp_approx_ftz_f64(a),
        (F64, "rcp") => with_mode!(mode, |a, b, c| fl::rcp_f64(a, M)),
        (F64, "sqrt") => with_mode!(mode, |a, b, c| fl::sqrt_f64(a, M)),
        (F64, "rsqrt") => with_mode!(mode, |a, b, c| fl::rsqrt_approx_f64(a, M.ftz)),
        (F64, "min") => {
            if nan {
                |a, b, _, _| fl::fmin(Fmt::F64, a, b, false, true)
            } else {
                |a, b, _, _| fl::fmin(Fmt::F64, a, b, false, false)
            }
        }
        (F64, "max") => {
            if nan {
                |a, b, _, _| fl::fmax(Fmt::F64, a, b, false, true)
            } else {
                |a, b, _, _| fl::fmax(Fmt::F64, a, b, false, false)
            }
        }
        (F64, "abs") => |a, _, _, _| fl::abs_f64(a),
        (F64, "neg") => |a, _, _, _| fl::neg_f64(a),
        (F64, "copysign") => |a, b, _, _| fl::copysign(Fmt::F64, a, b),
        // 16-bit special functions: the H200's tables (super::mufu).
        (F16, "ex2") if approx => |a, _, _, _| mufu::ex2_f16(a as u16) as u64,
        (BF16, "ex2") if approx => |a, _, _, _| mufu::ex2_bf16(a as u16) as u64,
        (F16, "tanh") if approx => |a, _, _, _| mufu::tanh_f16(a as u16) as u64,
        (BF16, "tanh") if approx => |a, _, _, _| mufu::tanh_bf16(a as u16) as u64,
        (F16x2, "ex2") if approx => |a, _, _, _| mufu::both_halves(a as u32, mufu::ex2_f16) as u64,
        (BF16x2, "ex2") if approx => {
            |a, _, _, _| mufu::both_halves(a as u32, mufu::ex2_bf16) as u64
        }
        (F16x2, "tanh") if approx => {
            |a, _, _, _| mufu::both_halves(a as u32, mufu::tanh_f16) as u64
        }
        (BF16x2, "tanh") if approx => {
            |a, _, _, _| mufu::both_halves(a as u32, mufu::tanh_bf16) as u64
        }
        (F16 | BF16, "add" | "sub" | "mul" | "fma" | "neg" | "abs" | "min" | "max") => {
            half_op(opcode, ty == F16, false, mode, nan, relu)?
        }
        (F16x2 | BF16x2, "add" | "sub" | "mul" | "fma" | "neg" | "abs" | "min" | "max") => {
            half_op(opcode, ty == F16x2, true, mode, nan, relu)?
        }
        _ => return unsupported(),
    };
    Ok(f)
}

/// Half-precision arithmetic on f16/bf16 and their packed pairs.
fn half_op(
    opcode: &str,
    is_f16: bool,
    packed: bool,
    mode: FMode,
    nan: bool,
    relu: bool,
) -> Result<LaneFn, String> {
    macro_rules! fmt_and_pack {
        ($scalar:expr, $pair:expr) => {
            match (is_f16, packed) {
                (true, false) => {
                    const F: Fmt = Fmt::F16;
                    with_mode!(mode, |a, b, c| $scalar(F, a, b, c, M))
                }
                (false, false) => {
                    const F: Fmt = Fmt::BF16;
                    with_mode!(mode, |a, b, c| $scalar(F, a, b, c, M))
                }
                (true, true) => {
                    const F: Fmt = Fmt::F16;
                    with_mode!(mode, |a, b, c| $pair(F, a, b, c, M))
                }
                (false, true) => {
                    const F: Fmt = Fmt::BF16;
                    with_mode!(mode, |a, b, c| $pair(F, a, b, c, M))
                }
            }
        };
    }
    let f: LaneFn = match (opcode, relu, nan) {
        ("add", _, _) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m| hf::add_h(f, a as u16, b as u16, m) as u64,
            |f, a: u64, b: u64, _c: u64, m| hf::add_h2(f, a as u32, b as u32, m) as u64
        ),
        ("sub", _, _) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m| hf::sub_h(f, a as u16, b as u16, m) as u64,
            |f, a: u64, b: u64, _c: u64, m| hf::sub_h2(f, a as u32, b as u32, m) as u64
        ),
        ("mul", _, _) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m| hf::mul_h(f, a as u16, b as u16, m) as u64,
            |f, a: u64, b: u64, _c: u64, m| hf::mul_h2(f, a as u32, b as u32, m) as u64
        ),
        ("fma", false, _) => fmt_and_pack!(
            |f, a: u64, b: u64, c: u64, m| hf::fma_h(f, a as u16, b as u16, c as u16, m, false)
                as u64,
            |f, a: u64, b: u64, c: u64, m| hf::fma_h2(f, a as u32, b as u32, c as u32, m, false)
                as u64
        ),
        ("fma", true, _) => fmt_and_pack!(
            |f, a: u64, b: u64, c: u64, m| hf::fma_h(f, a as u16, b as u16, c as u16, m, true)
                as u64,
            |f, a: u64, b: u64, c: u64, m| hf::fma_h2(f, a as u32, b as u32, c as u32, m, true)
                as u64
        ),
        ("neg", _, _) => fmt_and_pack!(
            |f, a: u64, _b: u64, _c: u64, m: FMode| hf::neg_h(f, a as u16, m.ftz) as u64,
            |f, a: u64, _b: u64, _c: u64, m: FMode| hf::map2(a as u32, 0, |x, _| hf::neg_h(
                f, x, m.ftz
            )) as u64
        ),
        ("abs", _, _) => fmt_and_pack!(
            |f, a: u64, _b: u64, _c: u64, m: FMode| hf::abs_h(f, a as u16, m.ftz) as u64,
            |f, a: u64, _b: u64, _c: u64, m: FMode| hf::map2(a as u32, 0, |x, _| hf::abs_h(
                f, x, m.ftz
            )) as u64
        ),
        ("min", _, false) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::min_h(f, a as u16, b as u16, m.ftz, false)
                as u64,
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::map2(a as u32, b as u32, |x, y| hf::min_h(
                f, x, y, m.ftz, false
            )) as u64
        ),
        ("min", _, true) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::min_h(f, a as u16, b as u16, m.ftz, true)
                as u64,
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::map2(a as u32, b as u32, |x, y| hf::min_h(
                f, x, y, m.ftz, true
            )) as u64
        ),
        ("max", _, false) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::max_h(f, a as u16, b as u16, m.ftz, false)
                as u64,
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::map2(a as u32, b as u32, |x, y| hf::max_h(
                f, x, y, m.ftz, false
            )) as u64
        ),
        ("max", _, true) => fmt_and_pack!(
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::max_h(f, a as u16, b as u16, m.ftz, true)
                as u64,
            |f, a: u64, b: u64, _c: u64, m: FMode| hf::map2(a as u32, b as u32, |x, y| hf::max_h(
                f, x, y, m.ftz, true
            )) as u64
        ),
        _ => return Err(format!("unsupported half-precision instruction '{opcode}'")),
    };
    Ok(f)
}

fn fmt_of(ty: ScalarType) -> Option<u8> {
    match ty {
        ScalarType::F32 => Some(0),
        ScalarType::F64 => Some(1),
        ScalarType::F16 => Some(2),
        ScalarType::BF16 => Some(3),
        _ => None,
    }
}

macro_rules! fcmp_fn {
    ($op:expr, $fmt:expr, $ftz:expr) => {{
        const OP: CmpOp = $op;
        let f: CmpFn = match ($fmt, $ftz) {
            (0, false) => |a, b| fl::fcmp(OP, Fmt::F32, a, b, false).unwrap_or(false),
            (0, true) => |a, b| fl::fcmp(OP, Fmt::F32, a, b, true).unwrap_or(false),
            (1, _) => |a, b| fl::fcmp(OP, Fmt::F64, a, b, false).unwrap_or(false),
            (2, _) => |a, b| fl::fcmp(OP, Fmt::F16, a, b, false).unwrap_or(false),
            _ => |a, b| fl::fcmp(OP, Fmt::BF16, a, b, false).unwrap_or(false),
        };
        f
    }};
}

/// Selects a floating-point comparison; the `u` forms are true when either input is NaN.
pub fn select_cmp(cmp: &str, ty: ScalarType, ftz: bool) -> Result<CmpFn, String> {
    let fmt = fmt_of(ty).ok_or_else(|| format!("comparison on unsupported type .{ty:?}"))?;
    let op = CmpOp::from_suffix(cmp).ok_or_else(|| format!("unknown comparison '.{cmp}'"))?;
    // Check the operator applies to floats at all.
    fl::fcmp(op, Fmt::F32, 0, 0, false).map_err(|e| e.to_string())?;
    Ok(match op {
        CmpOp::Eq => fcmp_fn!(CmpOp::Eq, fmt, ftz),
        CmpOp::Ne => fcmp_fn!(CmpOp::Ne, fmt, ftz),
        CmpOp::Lt => fcmp_fn!(CmpOp::Lt, fmt, ftz),
        CmpOp::Le => fcmp_fn!(CmpOp::Le, fmt, ftz),
        CmpOp::Gt => fcmp_fn!(CmpOp::Gt, fmt, ftz),
        CmpOp::Ge => fcmp_fn!(CmpOp::Ge, fmt, ftz),
        CmpOp::Equ => fcmp_fn!(CmpOp::Equ, fmt, ftz),
        CmpOp::Neu => fcmp_fn!(CmpOp::Neu, fmt, ftz),
        CmpOp::Ltu => fcmp_fn!(CmpOp::Ltu, fmt, ftz),
        CmpOp::Leu => fcmp_fn!(CmpOp::Leu, fmt, ftz),
        CmpOp::Gtu => fcmp_fn!(CmpOp::Gtu, fmt, ftz),
        CmpOp::Geu => fcmp_fn!(CmpOp::Geu, fmt, ftz),
        CmpOp::Num => fcmp_fn!(CmpOp::Num, fmt, ftz),
        CmpOp::Nan => fcmp_fn!(CmpOp::Nan, fmt, ftz),
        _ => {
            return Err(format!(
                "comparison '.{cmp}' does not apply to floating-point types"
            ))
        }
    })
}

/// `testp` (PTX ISA 9.7.3.2) as a comparison that ignores its second operand.
pub fn select_testp(mode: &str, ty: ScalarType) -> Result<CmpFn, String> {
    macro_rules! t {
        ($op:expr) => {{
            const OP: TestpOp = $op;
            let f: CmpFn = if ty == ScalarType::F64 {
                |a, _| fl::testp(OP, Fmt::F64, a)
            } else {
                |a, _| fl::testp(OP, Fmt::F32, a)
            };
            f
        }};
    }
    if !matches!(ty, ScalarType::F32 | ScalarType::F64) {
        return Err(format!("testp on unsupported type .{ty:?}"));
    }
    Ok(match mode {
        "finite" => t!(TestpOp::Finite),
        "infinite" => t!(TestpOp::Infinite),
        "number" => t!(TestpOp::Number),
        "notanumber" => t!(TestpOp::NotANumber),
        "normal" => t!(TestpOp::Normal),
        "subnormal" => t!(TestpOp::Subnormal),
        _ => return Err(format!("unknown testp mode '.{mode}'")),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Every PTX warp form (on the executor's u64 registers) equals its lane function, lane by
    /// lane, at every level this CPU has, on every 65,537th input with the high words of the
    /// registers set or not (the lane functions read the low word).
    #[test]
    fn warp_forms_on_u64_registers_equal_the_lane_functions() {
        use mufu::warp::{level, set_level, Level};
        let forms: [(&str, &[&str]); 12] = [
            ("rcp", &["approx"]),
            ("rcp", &["approx", "ftz"]),
            ("sqrt", &["approx"]),
            ("sqrt", &["approx", "ftz"]),
            ("rsqrt", &["approx"]),
            ("rsqrt", &["approx", "ftz"]),
            ("ex2", &["approx"]),
            ("ex2", &["approx", "ftz"]),
            ("lg2", &["approx"]),
            ("lg2", &["approx", "ftz"]),
            ("sin", &["approx"]),
            ("cos", &["approx"]),
        ];
        let mut n = 0u64;
        for lv in [Level::Avx512, Level::Avx2, Level::Base] {
            set_level(Some(lv));
            if level() != lv {
                continue;
            }
            for (op, mods) in forms {
                let w = select_warp(op, mods, ScalarType::F32).expect("a warp form");
                let f = select(op, mods, ScalarType::F32).expect("a lane function");
                let mut x = 0u64;
                while x < 1 << 32 {
                    let a: [u64; 32] = std::array::from_fn(|l| {
                        let v = (x + l as u64 * 65_537) & 0xffff_ffff;
                        v | if l % 3 == 0 { 0xdead_beef << 32 } else { 0 }
                    });
                    let mut out = [0u64; 32];
                    w(&a, &mut out);
                    for l in 0..32 {
                        assert_eq!(out[l], f(a[l], 0, 0, 0), "{op}.{mods:?} {:#x} {lv:?}", a[l]);
                    }
                    n += 32;
                    x += 32 * 65_537;
                }
            }
        }
        set_level(None);
        assert!(n >= 12 * (1 << 16));
    }
}
