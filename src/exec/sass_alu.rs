//! Per-lane semantics of the sm_90 SASS arithmetic the decoder ([`crate::sass`]) maps to
//! [`crate::ir::sass::SOp::Alu`] and its siblings: pure functions of 32-bit register values.
//!
//! Sources for the semantics: NVIDIA's CUDA Binary Utilities documentation ("Hopper Instruction
//! Set" table: one line per opcode), the PTX each SASS sequence was compiled from (ptxas 13.0
//! on the committed `.ptx` files), and the differential test `tests/front/sass.rs`, which runs every
//! example and validation spec as PTX and as SASS and requires bit-identical outputs. Where
//! the operand order is not documented it was read off those compilations: `SHF` takes the low
//! word first and the high word third; `LEA.HI d, lo, b, hi, s` adds the high word of
//! `(hi:lo) << s`; `HFMA2`'s two immediates are the high half first; `VIMNMX`'s predicate
//! selects the minimum when true.

use crate::exec::float::{self, FMode};
use crate::ir::types::Rounding;

/// `IMAD d, a, b, c` (and its `.MOV`, `.IADD`, `.SHL`, `.U32` spellings): `a * b + c`.
pub fn imad(a: u32, b: u32, c: u32, _: u32) -> u32 {
    a.wrapping_mul(b).wrapping_add(c)
}

/// `IADD3 d, a, b, c` without carries, and `VIADD d, a, b` (`c` the zero register).
pub fn iadd3(a: u32, b: u32, c: u32, _: u32) -> u32 {
    a.wrapping_add(b).wrapping_add(c)
}

/// `MOV d, b` (the first operand is unused).
pub fn mov(_: u32, b: u32, _: u32, _: u32) -> u32 {
    b
}

/// `LEA d, a, b, k`: `(a << k) + b`.
pub fn lea(a: u32, b: u32, _: u32, k: u32) -> u32 {
    (a << (k & 31)).wrapping_add(b)
}

/// `LEA.HI d, lo, b, hi, k`: `b + high word of ((hi:lo) << k)`.
pub fn lea_hi(a: u32, b: u32, c: u32, k: u32) -> u32 {
    let v = ((c as u64) << 32) | a as u64;
    b.wrapping_add(((v << (k & 63)) >> 32) as u32)
}

/// `LEA.HI.SX32 d, a, b, k`: as [`lea_hi`] with the high word `a`'s sign.
pub fn lea_hi_sx32(a: u32, b: u32, _: u32, k: u32) -> u32 {
    let v = a as i32 as i64 as u64;
    b.wrapping_add(((v << (k & 63)) >> 32) as u32)
}

/// The three-input truth table `lut` applied bitwise (`LOP3.LUT`, `PLOP3.LUT`): bit `i` of the
/// result is bit `(a_i << 2 | b_i << 1 | c_i)` of `lut`.
#[inline(always)]
pub fn lut3(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    let mut r = 0u32;
    for i in 0..8u32 {
        if lut >> i & 1 == 1 {
            let ma = if i & 4 != 0 { a } else { !a };
            let mb = if i & 2 != 0 { b } else { !b };
            let mc = if i & 1 != 0 { c } else { !c };
            r |= ma & mb & mc;
        }
    }
    r
}

/// `LOP3.LUT d, a, b, c, lut`.
pub fn lop3(a: u32, b: u32, c: u32, lut: u32) -> u32 {
    lut3(a, b, c, lut)
}

/// [`shf`] flag: shift right.
pub const SHF_R: u32 = 1;
/// [`shf`] flag: the high word of the result.
pub const SHF_HI: u32 = 2;
/// [`shf`] flag: arithmetic (`.S32`, `.S64`).
pub const SHF_S: u32 = 4;
/// [`shf`] flag: `.W`, the shift count wraps at 32.
pub const SHF_W: u32 = 8;
/// [`shf`] flag: a 64-bit type (`.U64`, `.S64`): counts clamp at 64, not 32.
pub const SHF_64: u32 = 16;

/// `SHF.{L,R}{.W}.{U32,S32,U64,S64}{.HI} d, lo, n, hi`: a funnel shift of `hi:lo` by `n`,
/// the low word of the result (or the high word with `.HI`).
pub fn shf(lo: u32, n: u32, hi: u32, k: u32) -> u32 {
    let v = ((hi as u64) << 32) | lo as u64;
    let n = if k & SHF_W != 0 {
        n & 31
    } else if k & SHF_64 != 0 {
        n.min(64)
    } else {
        n.min(32)
    };
    let r: u64 = if k & SHF_R == 0 {
        ((v as u128) << n) as u64
    } else if k & SHF_S != 0 {
        ((v as i64 as i128) >> n) as u64
    } else {
        ((v as u128) >> n) as u64
    };
    if k & SHF_HI != 0 {
        (r >> 32) as u32
    } else {
        r as u32
    }
}

/// `PRMT d, a, sel, c`: byte `i` of the result is byte `sel[4i+2..4i]` of `c:a`, or that
/// byte's sign bit repeated when `sel[4i+3]` is set (PTX `prmt.b32` default mode).
pub fn prmt(a: u32, sel: u32, c: u32, _: u32) -> u32 {
    let bytes = ((c as u64) << 32) | a as u64;
    let mut r = 0u32;
    for i in 0..4 {
        let s = (sel >> (4 * i)) & 0xf;
        let b = ((bytes >> (8 * (s & 7))) & 0xff) as u32;
        let b = if s & 8 != 0 {
            if b & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            b
        };
        r |= b << (8 * i);
    }
    r
}

/// `POPC d, b`.
pub fn popc(_: u32, b: u32, _: u32, _: u32) -> u32 {
    b.count_ones()
}

/// `BREV d, b`.
pub fn brev(_: u32, b: u32, _: u32, _: u32) -> u32 {
    b.reverse_bits()
}

/// `FLO.U32 d, b`: the bit position of the most significant 1, `0xffffffff` for 0; with
/// `.SH` (`k` = 1) the number of leading zeros instead.
pub fn flo_u32(_: u32, b: u32, _: u32, k: u32) -> u32 {
    if b == 0 {
        return u32::MAX;
    }
    if k == 1 {
        b.leading_zeros()
    } else {
        31 - b.leading_zeros()
    }
}

/// `FLO.S32 d, b`: as [`flo_u32`] on `b`, or on `!b` when `b` is negative.
pub fn flo_s32(a: u32, b: u32, c: u32, k: u32) -> u32 {
    let v = if (b as i32) < 0 { !b } else { b };
    flo_u32(a, v, c, k)
}

/// `IABS d, b`.
pub fn iabs(_: u32, b: u32, _: u32, _: u32) -> u32 {
    (b as i32).wrapping_abs() as u32
}

/// `SGXT{.U32} d, a, n`: the low `n` bits of `a`, sign-extended (zero-extended with `k` = 1).
pub fn sgxt(a: u32, n: u32, _: u32, k: u32) -> u32 {
    let n = n.min(32);
    if n == 0 {
        return 0;
    }
    if n == 32 {
        return a;
    }
    let m = (1u32 << n) - 1;
    let v = a & m;
    if k == 0 && v >> (n - 1) & 1 == 1 {
        v | !m
    } else {
        v
    }
}

/// `SEL d, a, b, p` and `FSEL`: `p ? a : b` (`p` the predicate's bit).
pub fn sel(a: u32, b: u32, _: u32, p: u32) -> u32 {
    if p != 0 {
        a
    } else {
        b
    }
}

/// `VIMNMX d, a, b, p` (signed): `p ? min : max`.
pub fn vimnmx_s32(a: u32, b: u32, _: u32, p: u32) -> u32 {
    let (x, y) = (a as i32, b as i32);
    (if p != 0 { x.min(y) } else { x.max(y) }) as u32
}

/// `VIMNMX.U32 d, a, b, p`: `p ? min : max`.
pub fn vimnmx_u32(a: u32, b: u32, _: u32, p: u32) -> u32 {
    if p != 0 {
        a.min(b)
    } else {
        a.max(b)
    }
}

/// Packs a float mode into an instruction constant (see [`fmode`]).
pub const fn fmode_bits(rnd: Rounding, ftz: bool, sat: bool) -> u32 {
    let r = match rnd {
        Rounding::Rn | Rounding::Rna => 0,
        Rounding::Rz => 1,
        Rounding::Rm => 2,
        Rounding::Rp => 3,
    };
    r | (ftz as u32) << 2 | (sat as u32) << 3
}

/// The float mode an instruction constant of [`fmode_bits`] stands for.
#[inline(always)]
pub fn fmode(k: u32) -> FMode {
    FMode {
        rnd: match k & 3 {
            0 => Rounding::Rn,
            1 => Rounding::Rz,
            2 => Rounding::Rm,
            _ => Rounding::Rp,
        },
        ftz: k & 4 != 0,
        sat: k & 8 != 0,
    }
}

/// `FADD{.rnd}{.FTZ}{.SAT} d, a, b`: IEEE addition, NaN results canonical (as PTX `add.f32`).
pub fn fadd(a: u32, b: u32, _: u32, k: u32) -> u32 {
    if k == 0 {
        let r = f32::from_bits(a) + f32::from_bits(b);
        return if r.is_nan() {
            float::CANON_NAN_F32
        } else {
            r.to_bits()
        };
    }
    float::add_f32(a, b, fmode(k))
}

/// `FMUL{.rnd}{.FTZ}{.SAT} d, a, b`.
pub fn fmul(a: u32, b: u32, _: u32, k: u32) -> u32 {
    if k == 0 {
        let r = f32::from_bits(a) * f32::from_bits(b);
        return if r.is_nan() {
            float::CANON_NAN_F32
        } else {
            r.to_bits()
        };
    }
    float::mul_f32(a, b, fmode(k))
}

/// `FFMA{.rnd}{.FTZ}{.SAT} d, a, b, c`: fused, one rounding.
pub fn ffma(a: u32, b: u32, c: u32, k: u32) -> u32 {
    float::fma_f32(a, b, c, fmode(k))
}

/// `FFMA d, a, b, c` (round to nearest, no `.FTZ`/`.SAT`): [`ffma`] without the mode decoding.
/// On an x86-64 host with FMA3 the host's fused multiply-add computes it (IEEE 754's
/// correctly rounded `fusedMultiplyAdd`, subnormals kept, as the software path; NaN results
/// canonical); otherwise [`float::fma_f32`]. Both give the same bits
/// (`the_host_fma_equals_the_software_fma`).
pub fn ffma_rn(a: u32, b: u32, c: u32, _: u32) -> u32 {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports FMA3, checked just above.
        return unsafe { ffma_rn_fma3(a, b, c) };
    }
    float::fma_f32(a, b, c, FMode::RN)
}

/// [`ffma_rn`] with the host's `vfmadd` (the `fma` target feature).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn ffma_rn_fma3(a: u32, b: u32, c: u32) -> u32 {
    let r = f32::from_bits(a).mul_add(f32::from_bits(b), f32::from_bits(c));
    if r.is_nan() {
        float::CANON_NAN_F32
    } else {
        r.to_bits()
    }
}

/// [`ffma_rn`] in every lane of a warp (an [`crate::ir::sass::SOp::AluW`]): the same bits,
/// computed with the host's vector `vfmadd` when the CPU has FMA3.
pub fn ffma_rn_warp(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    #[cfg(target_arch = "x86_64")]
    if std::arch::is_x86_feature_detected!("fma") {
        // SAFETY: the CPU supports FMA3, checked just above.
        unsafe { ffma_rn_warp_fma3(a, b, c, out) };
        return;
    }
    for l in 0..32 {
        out[l] = float::fma_f32(a[l], b[l], c[l], FMode::RN);
    }
}

/// [`ffma_rn_warp`] with the host's `vfmadd` (the `fma` target feature).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "fma")]
unsafe fn ffma_rn_warp_fma3(a: &[u32; 32], b: &[u32; 32], c: &[u32; 32], out: &mut [u32; 32]) {
    for l in 0..32 {
        let r = f32::from_bits(a[l]).mul_add(f32::from_bits(b[l]), f32::from_bits(c[l]));
        out[l] = if r.is_nan() {
            float::CANON_NAN_F32
        } else {
            r.to_bits()
        };
    }
}

/// `I2FP.F32.S32 d, a` and `I2F.S32` (round to nearest even).
pub fn i2f_s32(a: u32, _: u32, _: u32, _: u32) -> u32 {
    (a as i32 as f32).to_bits()
}

/// `I2FP.F32.U32 d, a` and `I2F.U32`.
pub fn i2f_u32(a: u32, _: u32, _: u32, _: u32) -> u32 {
    (a as f32).to_bits()
}

/// `VIADDMNMX d, a, b, c, p` (signed): `p ? min(a + b, c) : max(a + b, c)`.
pub fn viaddmnmx_s32(a: u32, b: u32, c: u32, p: u32) -> u32 {
    vimnmx_s32(a.wrapping_add(b), c, 0, p)
}

/// `VIADDMNMX.U32 d, a, b, c, p`.
pub fn viaddmnmx_u32(a: u32, b: u32, c: u32, p: u32) -> u32 {
    vimnmx_u32(a.wrapping_add(b), c, 0, p)
}

/// `VABSDIFF d, a, b, c` (signed): `|a - b| + c` (PTX `sad.s32`).
pub fn vabsdiff_s32(a: u32, b: u32, c: u32, _: u32) -> u32 {
    ((a as i32 as i64 - b as i32 as i64).unsigned_abs() as u32).wrapping_add(c)
}

/// `VABSDIFF.U32 d, a, b, c`: `|a - b| + c` (PTX `sad.u32`).
pub fn vabsdiff_u32(a: u32, b: u32, c: u32, _: u32) -> u32 {
    a.abs_diff(b).wrapping_add(c)
}

/// `FMNMX d, a, b, p`: `p ? min : max` of two f32, a NaN operand giving the other (both NaN:
/// the canonical NaN), as PTX `min.f32`/`max.f32`.
pub fn fmnmx(a: u32, b: u32, _: u32, p: u32) -> u32 {
    let f = float::Fmt::F32;
    if p != 0 {
        float::fmin(f, a as u64, b as u64, false, false) as u32
    } else {
        float::fmax(f, a as u64, b as u64, false, false) as u32
    }
}

/// `FMNMX.FTZ d, a, b, p`.
pub fn fmnmx_ftz(a: u32, b: u32, _: u32, p: u32) -> u32 {
    let f = float::Fmt::F32;
    if p != 0 {
        float::fmin(f, a as u64, b as u64, true, false) as u32
    } else {
        float::fmax(f, a as u64, b as u64, true, false) as u32
    }
}

/// `MUFU.{RCP,RSQ,SQRT,EX2,LG2,SIN,COS} d, b` in every lane of a warp (an
/// [`crate::ir::sass::SOp::AluW`]): the same bits as the lane functions below, computed by
/// [`crate::exec::mufu::warp`].
macro_rules! mufu_warp {
    ($($(#[$doc:meta])* $name:ident => $f:ident;)*) => {$(
        $(#[$doc])*
        pub fn $name(_: &[u32; 32], b: &[u32; 32], _: &[u32; 32], out: &mut [u32; 32]) {
            crate::exec::mufu::warp::$f(b, out)
        }
    )*};
}

mufu_warp! {
    /// `MUFU.RCP` in every lane.
    mufu_rcp_warp => rcp;
    /// `MUFU.RSQ` in every lane.
    mufu_rsq_warp => rsq;
    /// `MUFU.SQRT` in every lane.
    mufu_sqrt_warp => sqrt;
    /// `MUFU.EX2` in every lane.
    mufu_ex2_warp => ex2;
    /// `MUFU.LG2` in every lane.
    mufu_lg2_warp => lg2;
    /// `MUFU.SIN` in every lane.
    mufu_sin_warp => sin;
    /// `MUFU.COS` in every lane.
    mufu_cos_warp => cos;
}

/// `MUFU.RCP d, b` (the special-function unit's table, [`crate::exec::mufu`]).
pub fn mufu_rcp(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::rcp(b)
}

/// `MUFU.RSQ d, b`.
pub fn mufu_rsq(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::rsq(b)
}

/// `MUFU.SQRT d, b`.
pub fn mufu_sqrt(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::sqrt(b)
}

/// `MUFU.EX2 d, b`.
pub fn mufu_ex2(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::ex2(b)
}

/// `MUFU.LG2 d, b`.
pub fn mufu_lg2(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::lg2(b)
}

/// `MUFU.SIN d, b` (the argument in turns).
pub fn mufu_sin(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::sin(b)
}

/// `MUFU.COS d, b`.
pub fn mufu_cos(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::cos(b)
}

/// `MUFU.TANH d, b`.
pub fn mufu_tanh(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::tanh(b)
}

/// `MUFU.RCP64H d, b`: on the high word of a double.
pub fn mufu_rcp64h(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::rcp64h(b)
}

/// `MUFU.RSQ64H d, b`.
pub fn mufu_rsq64h(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::rsq64h(b)
}

/// `MUFU.EX2.F16 d, b{.H1}`: the low half of `b` (the decoder moves the high one there for
/// `.H1`) in, the 16-bit result in `d`'s low half, zero above (ptxas stores an F16 result as
/// the zero-extended u16 it is; for BF16 it masks the upper half, which is therefore unobserved).
pub fn mufu_ex2_f16(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::ex2_f16(b as u16) as u32
}

/// `MUFU.TANH.F16 d, b{.H1}`: the low half of `b` (the decoder moves the high one there for
/// `.H1`) in, the 16-bit result in `d`'s low half, zero above (ptxas stores an F16 result as
/// the zero-extended u16 it is; for BF16 it masks the upper half, which is therefore unobserved).
pub fn mufu_tanh_f16(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::tanh_f16(b as u16) as u32
}

/// `MUFU.EX2.BF16 d, b{.H1}`: the low half of `b` (the decoder moves the high one there for
/// `.H1`) in, the 16-bit result in `d`'s low half, zero above (ptxas stores an F16 result as
/// the zero-extended u16 it is; for BF16 it masks the upper half, which is therefore unobserved).
pub fn mufu_ex2_bf16(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::ex2_bf16(b as u16) as u32
}

/// `MUFU.TANH.BF16 d, b{.H1}`: the low half of `b` (the decoder moves the high one there for
/// `.H1`) in, the 16-bit result in `d`'s low half, zero above (ptxas stores an F16 result as
/// the zero-extended u16 it is; for BF16 it masks the upper half, which is therefore unobserved).
pub fn mufu_tanh_bf16(_: u32, b: u32, _: u32, _: u32) -> u32 {
    crate::exec::mufu::tanh_bf16(b as u16) as u32
}

/// `DADD{.rnd} d, a, b`: IEEE f64 addition (NaN results canonical, as PTX `add.f64`).
pub fn dadd(a: u64, b: u64, _: u64, k: u32) -> u64 {
    float::add_f64(a, b, fmode(k))
}

/// `DMUL{.rnd} d, a, b`.
pub fn dmul(a: u64, b: u64, _: u64, k: u32) -> u64 {
    float::mul_f64(a, b, fmode(k))
}

/// `DFMA{.rnd} d, a, b, c`: fused, one rounding.
pub fn dfma(a: u64, b: u64, c: u64, k: u32) -> u64 {
    float::fma_f64(a, b, c, fmode(k))
}

/// `FCHK p, a, b`: true where the program must take the slow path of `div.rn.f32` (ptxas's
/// fast sequence is `MUFU.RCP`, `FCHK`, four `FFMA`s, then `@P0 CALL.REL.NOINC
/// __cuda_sm3x_div_rn_noftz_f32_slowpath`). The test is over the biased exponents `ea`, `eb`
/// of `a` and `b` alone (not the mantissas, not the signs): the fast path is taken exactly
/// when `25 <= ea <= 254`, `2 <= eb <= 251` and `-124 <= ea - eb <= 126`. So a zero,
/// subnormal, infinite or NaN operand, and a zero dividend (`0 / y`), take the slow path.
///
/// Measured on the H200 (tests/hw/h200/fchk/fchk.tar.gz, tests/hw/fchk/fchk_probe.cu,
/// 2026-12-02): 1,048,576 divisions, every exponent pair (256 x 256) x 16 mantissa pairs
/// (1.0, 1.5, max, min: zero, subnormals, infinities and NaNs included). Two methods agree
/// with this rule: (1) the Source page's thread count of the slow path's CALL in each of the 8
/// launches of 131,072 pairs (114,160, 43,776, 27,392, 11,008, 11,008, 27,392, 43,776, 62,128)
/// equals the number of pairs the rule sends down the slow path, exactly; (2) `%clock64`
/// around each division: no pair the rule sends to the slow path took less than 180 cycles
/// (the fast path's mode is 58, the slow path's 282; timing noise only adds cycles).
/// tests/hardware/fchk.rs checks this function against (1) and against the timing of every pair.
/// Both paths return the correctly rounded quotient, so the rule decides only which
/// instructions run.
pub fn fchk(a: u32, b: u32) -> bool {
    let ea = ((a >> 23) & 0xff) as i32;
    let eb = ((b >> 23) & 0xff) as i32;
    !((25..=254).contains(&ea) && (2..=251).contains(&eb) && (-124..=126).contains(&(ea - eb)))
}

/// `F2FP.F16.F32.PACK_AB d, a, b`: `a` and `b` rounded to f16 (nearest even), `a` in the high
/// half (PTX `cvt.rn.f16x2.f32 d, a, b`).
pub fn f2fp_f16(a: u32, b: u32, _: u32, _: u32) -> u32 {
    let h = |x: u32| half::f16::from_f32(f32::from_bits(x));
    let bits = |x: u32| {
        let v = h(x);
        if v.is_nan() {
            0x7fff
        } else {
            v.to_bits() as u32
        }
    };
    bits(a) << 16 | bits(b)
}

/// `F2FP.BF16.F32.PACK_AB d, a, b`: as [`f2fp_f16`] to bf16.
pub fn f2fp_bf16(a: u32, b: u32, _: u32, _: u32) -> u32 {
    let bits = |x: u32| {
        let v = half::bf16::from_f32(f32::from_bits(x));
        if v.is_nan() {
            0x7fff
        } else {
            v.to_bits() as u32
        }
    };
    bits(a) << 16 | bits(b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_host_fma_equals_the_software_fma() {
        // Special values, subnormals, halfway cases and a deterministic pseudo-random sweep.
        let special = [
            0u32,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x3f80_0001,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0001,
            0x3400_0000,
            0x3380_0000,
            0x4b80_0000,
        ];
        let mut x = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut n = 0;
        for &a in &special {
            for &b in &special {
                for &c in &special {
                    assert_eq!(
                        ffma_rn(a, b, c, 0),
                        float::fma_f32(a, b, c, FMode::RN),
                        "{a:#x} * {b:#x} + {c:#x}"
                    );
                    n += 1;
                }
            }
        }
        for _ in 0..200_000 {
            let (a, b) = (next(), next());
            // The addend near the product's magnitude, so that the sum cancels and rounds.
            let p = f32::from_bits(a) * f32::from_bits(b);
            let c = if next() & 1 == 0 {
                next()
            } else {
                (-p).to_bits() ^ (next() & 0xff)
            };
            assert_eq!(
                ffma_rn(a, b, c, 0),
                float::fma_f32(a, b, c, FMode::RN),
                "{a:#x} * {b:#x} + {c:#x}"
            );
            n += 1;
        }
        assert!(n > 200_000);
    }

    #[test]
    fn the_warp_fma_equals_the_lane_fma() {
        // Every lane of the vectorised form against the software FMA, special values and a
        // pseudo-random sweep spread over the lanes.
        let special = [
            0u32,
            0x8000_0000,
            1,
            0x8000_0001,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0xbf80_0000,
            0x7f7f_ffff,
            0xff7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0x7fa0_0001,
            0x3400_0000,
            0x4b80_0000,
        ];
        let mut x = 0x2545_f491_4f6c_dd1du64;
        let mut next = || {
            x ^= x << 13;
            x ^= x >> 7;
            x ^= x << 17;
            x as u32
        };
        let mut checked = 0;
        for round in 0..4_000 {
            let (mut a, mut b, mut c) = ([0u32; 32], [0u32; 32], [0u32; 32]);
            for l in 0..32 {
                let i = round * 32 + l;
                if i < special.len().pow(3) {
                    a[l] = special[i % special.len()];
                    b[l] = special[i / special.len() % special.len()];
                    c[l] = special[i / special.len().pow(2)];
                } else {
                    a[l] = next();
                    b[l] = next();
                    let p = f32::from_bits(a[l]) * f32::from_bits(b[l]);
                    c[l] = if next() & 1 == 0 {
                        next()
                    } else {
                        (-p).to_bits() ^ (next() & 0xff)
                    };
                }
            }
            let mut out = [0u32; 32];
            ffma_rn_warp(&a, &b, &c, &mut out);
            for l in 0..32 {
                assert_eq!(
                    out[l],
                    float::fma_f32(a[l], b[l], c[l], FMode::RN),
                    "lane {l}: {:#x} * {:#x} + {:#x}",
                    a[l],
                    b[l],
                    c[l]
                );
                checked += 1;
            }
        }
        assert_eq!(checked, 128_000);
    }

    #[test]
    fn funnel_shifts_take_the_low_word_first() {
        // SHF.L.U32 R2, R10, 0x5, RZ  is  R10 << 5  (examples/transpose.cu line 28).
        assert_eq!(shf(3, 5, 0, 0), 96);
        // SHF.R.U32.HI R7, RZ, 0x5, R7  is  R7 >> 5.
        assert_eq!(shf(0, 5, 0x1000, SHF_R | SHF_HI), 0x80);
        // SHF.R.S32.HI of a negative high word keeps the sign.
        assert_eq!(shf(0, 31, 0x8000_0000, SHF_R | SHF_HI | SHF_S), u32::MAX);
        // Counts past 32 clamp (without .W) and wrap with .W.
        assert_eq!(shf(1, 40, 0, 0), 0);
        assert_eq!(shf(1, 33, 0, SHF_W), 2);
    }

    #[test]
    fn lea_hi_adds_the_high_word_of_the_shifted_pair() {
        // LEA.HI R0, R5, R5, RZ, 0x1: R5 + (R5 >> 31), the rounding of a signed division by 2.
        assert_eq!(lea_hi(0xffff_fffd, 0xffff_fffd, 0, 1), 0xffff_fffe);
        assert_eq!(lea_hi_sx32(0xffff_ffff, 10, 0, 2), 9);
    }

    #[test]
    fn lut_and_permute() {
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0xc0), 0xf0 & 0xcc);
        assert_eq!(lop3(0xf0, 0xcc, 0xaa, 0x96), 0xf0 ^ 0xcc ^ 0xaa);
        // PRMT 0x9910 sign-extends the low 16 bits, 0x7710 with RZ zero-extends them.
        assert_eq!(prmt(0x0000_8001, 0x9910, 0, 0), 0xffff_8001);
        assert_eq!(prmt(0x1234_8001, 0x7710, 0, 0), 0x0000_8001);
    }
}
