//! The approximate instructions (PTX ISA 9.0, 9.7.3: `rcp.approx`, `sqrt.approx`,
//! `rsqrt.approx`, `ex2.approx`, `lg2.approx`, `sin.approx`, `cos.approx`, `tanh.approx`,
//! `div.approx`, `div.full`, `rcp.approx.ftz.f64`, `rsqrt.approx.f64`), which run on the SFU
//! (MUFU): their results are the H200's, bit for bit, from the tables of [`crate::exec::mufu`].

use super::*;

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
