//! Per-lane arithmetic chosen at load time: integer, bit and logic instructions, comparisons
//! and the round-to-nearest floating-point arithmetic (PTX ISA 9.7.1 "Integer Arithmetic",
//! 9.7.2 "Extended-Precision Integer Arithmetic", 9.7.3 "Floating-Point", 9.7.6 "Comparison and
//! Selection", 9.7.7 "Logic and Shift").
//!
//! Each function maps lane values (raw bits, see [`crate::ir`]) to a result and never panics:
//! division by zero gives what the hardware gives (all ones for unsigned quotients, PTX ISA
//! 9.7.1.8 leaves it unspecified; we return `!0` masked to the width like the SASS sequence).

use crate::ir::types::{Rounding, ScalarType};
use crate::ir::{CmpFn, LaneFn};

use super::fsel as float;

macro_rules! int_fn {
    ($ty:expr, |$a:ident: $t:ident, $b:ident, $c:ident, $e:ident| $body:expr) => {{
        let f: LaneFn = match $ty {
            W::U16 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a as u16, b as u16, c as u16, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u16 as u64
            },
            W::S16 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a as i16, b as i16, c as i16, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u16 as u64
            },
            W::U32 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a as u32, b as u32, c as u32, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u32 as u64
            },
            W::S32 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a as i32, b as i32, c as i32, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u32 as u64
            },
            W::U64 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a, b, c, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u64
            },
            W::S64 => |a, b, c, e| {
                let ($a, $b, $c, $e) = (a as i64, b as i64, c as i64, e);
                let _ = (&$b, &$c, &$e);
                ($body) as u64
            },
        };
        f
    }};
}

/// Integer width and signedness of an instruction type.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum W {
    U16,
    S16,
    U32,
    S32,
    U64,
    S64,
}

fn width(ty: ScalarType) -> Option<W> {
    use ScalarType::*;
    Some(match ty {
        U16 | B16 => W::U16,
        S16 => W::S16,
        U32 | B32 => W::U32,
        S32 => W::S32,
        U64 | B64 => W::U64,
        S64 => W::S64,
        _ => return None,
    })
}

/// Mask of the low `bits` bits.
#[inline(always)]
pub fn low_mask(bits: u32) -> u64 {
    if bits >= 64 {
        !0
    } else {
        (1u64 << bits) - 1
    }
}

/// Selects the lane function for an arithmetic, logic or move instruction.
/// `mods` are the instruction's modifiers without the type.
pub fn select(opcode: &str, mods: &[&str], ty: ScalarType) -> Result<LaneFn, String> {
    let has = |m: &str| mods.contains(&m);
    let unsupported = || {
        Err(format!(
            "unsupported instruction '{opcode}' for type .{ty:?}"
        ))
    };
    if ty.is_float() {
        return float::select(opcode, mods, ty);
    }
    // Bitwise and moves on predicates are handled by the caller; bit types here.
    let w = match width(ty) {
        Some(w) => w,
        None => {
            if ty == ScalarType::B8 || ty == ScalarType::U8 || ty == ScalarType::S8 {
                return unsupported();
            }
            return unsupported();
        }
    };
    let f: LaneFn = match opcode {
        "mov" => match w {
            W::U16 | W::S16 => |a, _, _, _| a & 0xffff,
            W::U32 | W::S32 => |a, _, _, _| a & 0xffff_ffff,
            _ => |a, _, _, _| a,
        },
        "add" if has("sat") => |a, b, _, _| (a as i32).saturating_add(b as i32) as u32 as u64,
        "add" => int_fn!(w, |a: t, b, c, e| a.wrapping_add(b)),
        "sub" if has("sat") => |a, b, _, _| (a as i32).saturating_sub(b as i32) as u32 as u64,
        "sub" => int_fn!(w, |a: t, b, c, e| a.wrapping_sub(b)),
        "mul" | "mad" => {
            let mad = opcode == "mad";
            let part = if has("hi") {
                1
            } else if has("wide") {
                2
            } else {
                0
            };
            match (w, part, mad) {
                (_, 0, false) => int_fn!(w, |a: t, b, c, e| a.wrapping_mul(b)),
                (_, 0, true) => int_fn!(w, |a: t, b, c, e| a.wrapping_mul(b).wrapping_add(c)),
                (W::U16, 1, m) => {
                    if m {
                        |a, b, c, _| {
                            (((a as u16 as u32 * b as u16 as u32) >> 16) as u16)
                                .wrapping_add(c as u16) as u64
                        }
                    } else {
                        |a, b, _, _| ((a as u16 as u32 * b as u16 as u32) >> 16) as u64
                    }
                }
                (W::S16, 1, m) => {
                    if m {
                        |a, b, c, _| {
                            ((((a as i16 as i32 * b as i16 as i32) >> 16) as i16)
                                .wrapping_add(c as i16)) as u16 as u64
                        }
                    } else {
                        |a, b, _, _| ((a as i16 as i32 * b as i16 as i32) >> 16) as u16 as u64
                    }
                }
                (W::U32, 1, m) => {
                    if m {
                        |a, b, c, _| {
                            (((a as u32 as u64 * b as u32 as u64) >> 32) as u32)
                                .wrapping_add(c as u32) as u64
                        }
                    } else {
                        |a, b, _, _| (a as u32 as u64 * b as u32 as u64) >> 32
                    }
                }
                (W::S32, 1, m) => {
                    if m {
                        |a, b, c, _| {
                            ((((a as i32 as i64 * b as i32 as i64) >> 32) as i32)
                                .wrapping_add(c as i32)) as u32 as u64
                        }
                    } else {
                        |a, b, _, _| ((a as i32 as i64 * b as i32 as i64) >> 32) as u32 as u64
                    }
                }
                (W::U64, 1, m) => {
                    if m {
                        |a, b, c, _| (((a as u128 * b as u128) >> 64) as u64).wrapping_add(c)
                    } else {
                        |a, b, _, _| ((a as u128 * b as u128) >> 64) as u64
                    }
                }
                (W::S64, 1, m) => {
                    if m {
                        |a, b, c, _| {
                            ((((a as i64 as i128 * b as i64 as i128) >> 64) as i64)
                                .wrapping_add(c as i64)) as u64
                        }
                    } else {
                        |a, b, _, _| ((a as i64 as i128 * b as i64 as i128) >> 64) as u64
                    }
                }
                (W::U16, 2, m) => {
                    if m {
                        |a, b, c, _| {
                            (a as u16 as u32 * b as u16 as u32).wrapping_add(c as u32) as u64
                        }
                    } else {
                        |a, b, _, _| (a as u16 as u32 * b as u16 as u32) as u64
                    }
                }
                (W::S16, 2, m) => {
                    if m {
                        |a, b, c, _| {
                            (a as i16 as i32 * b as i16 as i32).wrapping_add(c as i32) as u32 as u64
                        }
                    } else {
                        |a, b, _, _| (a as i16 as i32 * b as i16 as i32) as u32 as u64
                    }
                }
                (W::U32, 2, m) => {
                    if m {
                        |a, b, c, _| (a as u32 as u64 * b as u32 as u64).wrapping_add(c)
                    } else {
                        |a, b, _, _| a as u32 as u64 * b as u32 as u64
                    }
                }
                (W::S32, 2, m) => {
                    if m {
                        |a, b, c, _| {
                            (a as i32 as i64 * b as i32 as i64).wrapping_add(c as i64) as u64
                        }
                    } else {
                        |a, b, _, _| (a as i32 as i64 * b as i32 as i64) as u64
                    }
                }
                _ => return unsupported(),
            }
        }
        "mul24" | "mad24" => {
            let mad = opcode == "mad24";
            match (w, has("hi"), mad) {
                (W::U32, false, false) => {
                    |a, b, _, _| ((a & 0xff_ffff) * (b & 0xff_ffff)) & 0xffff_ffff
                }
                (W::U32, false, true) => |a, b, c, _| {
                    (((a & 0xff_ffff) * (b & 0xff_ffff)) as u32).wrapping_add(c as u32) as u64
                },
                (W::S32, false, false) => {
                    |a, b, _, _| (sx24(a).wrapping_mul(sx24(b))) as u32 as u64
                }
                (W::S32, false, true) => |a, b, c, _| {
                    (sx24(a).wrapping_mul(sx24(b)) as i32).wrapping_add(c as i32) as u32 as u64
                },
                (W::U32, true, false) => {
                    |a, b, _, _| (((a & 0xff_ffff) * (b & 0xff_ffff)) >> 16) & 0xffff_ffff
                }
                (W::U32, true, true) => |a, b, c, _| {
                    ((((a & 0xff_ffff) * (b & 0xff_ffff)) >> 16) as u32).wrapping_add(c as u32)
                        as u64
                },
                (W::S32, true, false) => {
                    |a, b, _, _| ((sx24(a).wrapping_mul(sx24(b))) >> 16) as u32 as u64
                }
                (W::S32, true, true) => |a, b, c, _| {
                    (((sx24(a).wrapping_mul(sx24(b))) >> 16) as i32).wrapping_add(c as i32) as u32
                        as u64
                },
                _ => return unsupported(),
            }
        }
        "div" => int_fn!(w, |a: t, b, c, e| if b == 0 {
            !0
        } else {
            a.wrapping_div(b)
        }),
        "rem" => int_fn!(w, |a: t, b, c, e| if b == 0 {
            a
        } else {
            a.wrapping_rem(b)
        }),
        "abs" => match w {
            W::U16 | W::S16 => |a, _, _, _| (a as i16).wrapping_abs() as u16 as u64,
            W::U32 | W::S32 => |a, _, _, _| (a as i32).wrapping_abs() as u32 as u64,
            _ => |a, _, _, _| (a as i64).wrapping_abs() as u64,
        },
        "neg" => int_fn!(w, |a: t, b, c, e| a.wrapping_neg()),
        "min" => int_fn!(w, |a: t, b, c, e| a.min(b)),
        "max" => int_fn!(w, |a: t, b, c, e| a.max(b)),
        "popc" => int_fn!(w, |a: t, b, c, e| a.count_ones()),
        "clz" => int_fn!(w, |a: t, b, c, e| a.leading_zeros()),
        "brev" => int_fn!(w, |a: t, b, c, e| a.reverse_bits()),
        "and" => int_fn!(w, |a: t, b, c, e| a & b),
        "or" => int_fn!(w, |a: t, b, c, e| a | b),
        "xor" => int_fn!(w, |a: t, b, c, e| a ^ b),
        "not" => int_fn!(w, |a: t, b, c, e| !a),
        "cnot" => int_fn!(w, |a: t, b, c, e| (a == 0) as u8),
        "shl" => match w {
            W::U16 | W::S16 => |a, b, _, _| {
                if (b as u32) >= 16 {
                    0
                } else {
                    (a << b) & 0xffff
                }
            },
            W::U32 | W::S32 => |a, b, _, _| {
                if (b as u32) >= 32 {
                    0
                } else {
                    (a << b) & 0xffff_ffff
                }
            },
            _ => |a, b, _, _| if (b as u32) >= 64 { 0 } else { a << b },
        },
        "shr" => match w {
            W::U16 => |a, b, _, _| {
                if (b as u32) >= 16 {
                    0
                } else {
                    (a & 0xffff) >> b
                }
            },
            W::U32 => |a, b, _, _| {
                if (b as u32) >= 32 {
                    0
                } else {
                    (a & 0xffff_ffff) >> b
                }
            },
            W::U64 => |a, b, _, _| if (b as u32) >= 64 { 0 } else { a >> b },
            W::S16 => |a, b, _, _| ((a as i16) >> (b as u32).min(15)) as u16 as u64,
            W::S32 => |a, b, _, _| ((a as i32) >> (b as u32).min(31)) as u32 as u64,
            W::S64 => |a, b, _, _| ((a as i64) >> (b as u32).min(63)) as u64,
        },
        "bfe" => match w {
            W::U32 => |a, b, c, _| bfe(a & 0xffff_ffff, b, c, 32, false),
            W::S32 => |a, b, c, _| bfe(a & 0xffff_ffff, b, c, 32, true),
            W::U64 => |a, b, c, _| bfe(a, b, c, 64, false),
            W::S64 => |a, b, c, _| bfe(a, b, c, 64, true),
            _ => return unsupported(),
        },
        "bfi" => match w {
            W::U32 | W::S32 => |a, b, c, e| bfi(a, b, c, e, 32),
            W::U64 | W::S64 => |a, b, c, e| bfi(a, b, c, e, 64),
            _ => return unsupported(),
        },
        "fns" => match w {
            W::U32 | W::S32 => |a, b, c, _| fns(a as u32, b as u32, c as u32 as i32) as u64,
            _ => return unsupported(),
        },
        "bfind" => match (w, has("shiftamt")) {
            (W::U32, false) => |a, _, _, _| bfind(a as u32 as u64, 32, false, false),
            (W::S32, false) => |a, _, _, _| bfind(a as u32 as u64, 32, true, false),
            (W::U64, false) => |a, _, _, _| bfind(a, 64, false, false),
            (W::S64, false) => |a, _, _, _| bfind(a, 64, true, false),
            (W::U32, true) => |a, _, _, _| bfind(a as u32 as u64, 32, false, true),
            (W::S32, true) => |a, _, _, _| bfind(a as u32 as u64, 32, true, true),
            (W::U64, true) => |a, _, _, _| bfind(a, 64, false, true),
            (W::S64, true) => |a, _, _, _| bfind(a, 64, true, true),
            _ => return unsupported(),
        },
        "prmt" => {
            if mods
                .iter()
                .any(|m| matches!(*m, "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"))
            {
                let mode = mods
                    .iter()
                    .find(|m| matches!(**m, "f4e" | "b4e" | "rc8" | "ecl" | "ecr" | "rc16"))
                    .copied()
                    .unwrap_or("");
                match mode {
                    "f4e" => |a, b, c, _| prmt_mode(a, b, c, 0),
                    "b4e" => |a, b, c, _| prmt_mode(a, b, c, 1),
                    "rc8" => |a, b, c, _| prmt_mode(a, b, c, 2),
                    "ecl" => |a, b, c, _| prmt_mode(a, b, c, 3),
                    "ecr" => |a, b, c, _| prmt_mode(a, b, c, 4),
                    _ => |a, b, c, _| prmt_mode(a, b, c, 5),
                }
            } else {
                |a, b, c, _| prmt(a, b, c)
            }
        }
        "shf" => {
            let left = has("l");
            let clamp = has("clamp");
            match (left, clamp) {
                (true, true) => |a, b, c, _| shf(a, b, c, true, true),
                (true, false) => |a, b, c, _| shf(a, b, c, true, false),
                (false, true) => |a, b, c, _| shf(a, b, c, false, true),
                (false, false) => |a, b, c, _| shf(a, b, c, false, false),
            }
        }
        "sad" => int_fn!(w, |a: t, b, c, e| c.wrapping_add(if a > b {
            a.wrapping_sub(b)
        } else {
            b.wrapping_sub(a)
        })),
        _ => return unsupported(),
    };
    Ok(f)
}

#[inline(always)]
fn sx24(a: u64) -> i64 {
    ((a as i64) << 40) >> 40
}

/// `bfe`: extract `len` bits at `pos`, zero- or sign-extended (PTX ISA 9.7.1.15).
#[inline]
fn bfe(a: u64, pos: u64, len: u64, bits: u32, signed: bool) -> u64 {
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let msb = bits - 1;
    let sbit = if !signed || len == 0 {
        false
    } else {
        let bit = (pos + len - 1).min(msb);
        a >> bit & 1 == 1
    };
    let mut d = 0u64;
    for i in 0..bits {
        let v = if i < len && pos + i <= msb {
            a >> (pos + i) & 1 == 1
        } else {
            sbit
        };
        if v {
            d |= 1 << i;
        }
    }
    d
}

/// `bfi`: insert the low `len` bits of `a` into `b` at `pos` (PTX ISA 9.7.1.16).
#[inline]
fn bfi(a: u64, b: u64, pos: u64, len: u64, bits: u32) -> u64 {
    let pos = (pos & 0xff) as u32;
    let len = (len & 0xff) as u32;
    let mut f = b & low_mask(bits);
    let mut i = 0;
    while i < len && pos + i < bits {
        let bit = 1u64 << (pos + i);
        if a >> i & 1 == 1 {
            f |= bit;
        } else {
            f &= !bit;
        }
        i += 1;
    }
    f
}

/// `bfind`: position of the most significant non-sign bit, `!0` when none (PTX ISA 9.7.1.13).
#[inline]
/// `fns.b32`: the position of the `|offset|`-th set bit of `mask` counting from bit `base`
/// upwards (offset > 0) or downwards (offset < 0); `offset == 0` tests bit `base` itself;
/// 0xffffffff when there is none (PTX ISA §9.7.1.21, "Semantics"). A `base` above 31, undefined
/// in the ISA, finds nothing.
fn fns(mask: u32, base: u32, offset: i32) -> u32 {
    if base > 31 {
        return u32::MAX;
    }
    if offset == 0 {
        return if mask >> base & 1 == 1 {
            base
        } else {
            u32::MAX
        };
    }
    let mut count = offset.unsigned_abs() - 1;
    let mut pos = base as i32;
    let inc = if offset > 0 { 1 } else { -1 };
    while (0..32).contains(&pos) {
        if mask >> pos & 1 == 1 {
            if count == 0 {
                return pos as u32;
            }
            count -= 1;
        }
        pos += inc;
    }
    u32::MAX
}

fn bfind(a: u64, bits: u32, signed: bool, shiftamt: bool) -> u64 {
    let mut x = a & low_mask(bits);
    if signed && (x >> (bits - 1)) & 1 == 1 {
        x = !x & low_mask(bits);
    }
    if x == 0 {
        return 0xffff_ffff;
    }
    let msb = 63 - x.leading_zeros();
    if shiftamt {
        (bits - 1 - msb) as u64
    } else {
        msb as u64
    }
}

/// `prmt.b32` default mode (PTX ISA 9.7.8.7).
#[inline]
fn prmt(a: u64, b: u64, c: u64) -> u64 {
    let bytes = (b as u32 as u64) << 32 | (a as u32 as u64);
    let mut d = 0u64;
    for i in 0..4 {
        let sel = (c >> (4 * i)) & 0xf;
        let byte = (bytes >> ((sel & 7) * 8)) & 0xff;
        let byte = if sel & 8 != 0 {
            if byte & 0x80 != 0 {
                0xff
            } else {
                0
            }
        } else {
            byte
        };
        d |= byte << (8 * i);
    }
    d
}

/// `prmt.b32` with a named mode: 0 f4e, 1 b4e, 2 rc8, 3 ecl, 4 ecr, 5 rc16.
#[inline]
fn prmt_mode(a: u64, b: u64, c: u64, mode: u32) -> u64 {
    let bytes = (b as u32 as u64) << 32 | (a as u32 as u64);
    let s = (c & 3) as usize;
    let pick: [usize; 4] = match mode {
        0 => [s, (s + 1) & 7, (s + 2) & 7, (s + 3) & 7],
        1 => [s, (s + 7) & 7, (s + 6) & 7, (s + 5) & 7],
        2 => [s; 4],
        3 => [[0, 1, 2, 3], [1, 1, 2, 3], [2, 2, 2, 3], [3, 3, 3, 3]][s],
        4 => [[0, 0, 0, 0], [0, 1, 1, 1], [0, 1, 2, 2], [0, 1, 2, 3]][s],
        _ => [[0, 1, 0, 1], [2, 3, 2, 3], [0, 1, 0, 1], [2, 3, 2, 3]][s],
    };
    let mut d = 0u64;
    for (i, &p) in pick.iter().enumerate() {
        d |= ((bytes >> (p * 8)) & 0xff) << (8 * i);
    }
    d
}

/// `shf.{l,r}.{wrap,clamp}.b32` (PTX ISA 9.7.8.9).
#[inline]
fn shf(a: u64, b: u64, c: u64, left: bool, clamp: bool) -> u64 {
    let n = if clamp {
        (c as u32).min(32)
    } else {
        c as u32 & 31
    } as u64;
    let v = (b as u32 as u64) << 32 | (a as u32 as u64);
    if left {
        ((v << n) >> 32) & 0xffff_ffff
    } else {
        (v >> n) & 0xffff_ffff
    }
}

macro_rules! cmp_int {
    ($w:expr, $op:tt) => {{
        let f: CmpFn = match $w {
            W::U16 => |a, b| (a as u16) $op (b as u16),
            W::S16 => |a, b| (a as i16) $op (b as i16),
            W::U32 => |a, b| (a as u32) $op (b as u32),
            W::S32 => |a, b| (a as i32) $op (b as i32),
            W::U64 => |a, b| a $op b,
            W::S64 => |a, b| (a as i64) $op (b as i64),
        };
        f
    }};
}

/// Selects the comparison for `setp`/`set`/`slct`-like instructions (PTX ISA 9.7.6.1).
pub fn select_cmp(cmp: &str, ty: ScalarType, ftz: bool) -> Result<CmpFn, String> {
    if ty.is_float() {
        return float::select_cmp(cmp, ty, ftz);
    }
    let w = width(ty).ok_or_else(|| format!("comparison on unsupported type .{ty:?}"))?;
    // Unsigned spellings compare as unsigned whatever the type says.
    let wu = match w {
        W::S16 => W::U16,
        W::S32 => W::U32,
        W::S64 => W::U64,
        x => x,
    };
    Ok(match cmp {
        "eq" => cmp_int!(w, ==),
        "ne" => cmp_int!(w, !=),
        "lt" => cmp_int!(w, <),
        "le" => cmp_int!(w, <=),
        "gt" => cmp_int!(w, >),
        "ge" => cmp_int!(w, >=),
        "lo" => cmp_int!(wu, <),
        "ls" => cmp_int!(wu, <=),
        "hi" => cmp_int!(wu, >),
        "hs" => cmp_int!(wu, >=),
        _ => return Err(format!("unknown comparison '.{cmp}' for .{ty:?}")),
    })
}

/// The rounding named in `mods`, if any.
pub fn rounding(mods: &[&str]) -> Option<Rounding> {
    mods.iter().find_map(|m| match *m {
        "rn" | "rni" => Some(Rounding::Rn),
        "rz" | "rzi" => Some(Rounding::Rz),
        "rm" | "rmi" => Some(Rounding::Rm),
        "rp" | "rpi" => Some(Rounding::Rp),
        "rna" => Some(Rounding::Rna),
        _ => None,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fns_examples_from_the_ptx_isa() {
        // PTX ISA §9.7.1.21 "Examples".
        assert_eq!(fns(0xaaaa_aaaa, 3, 1), 3);
        assert_eq!(fns(0xaaaa_aaaa, 3, -1), 3);
        assert_eq!(fns(0xaaaa_aaaa, 2, 1), 3);
        assert_eq!(fns(0xaaaa_aaaa, 2, -1), 1);
        assert_eq!(fns(0xaaaa_aaaa, 2, 0), u32::MAX);
        assert_eq!(fns(0b1011, 0, 3), 3);
        assert_eq!(fns(0b1011, 0, 4), u32::MAX);
    }

    #[test]
    fn bit_field_examples_from_the_ptx_isa() {
        // bfe.u32 of 0xF0 at pos 4 len 4 = 0xF; signed of 0x80 at pos 4 len 4 = sign-extended 0x8.
        assert_eq!(bfe(0xf0, 4, 4, 32, false), 0xf);
        assert_eq!(bfe(0x80, 4, 4, 32, true), 0xffff_fff8);
        assert_eq!(bfi(0b101, 0xffff_0000, 4, 3, 32), 0xffff_0050);
        assert_eq!(bfind(1, 32, false, false), 0);
        assert_eq!(bfind(0, 32, false, false), 0xffff_ffff);
        assert_eq!(bfind(0x8000_0000, 32, false, true), 0);
        // prmt identity selector 0x3210 returns a.
        assert_eq!(prmt(0x4433_2211, 0x8877_6655, 0x3210), 0x4433_2211);
        assert_eq!(prmt(0x4433_2211, 0x8877_6655, 0x7654), 0x8877_6655);
        // funnel shift: (b:a) << 8, high word
        assert_eq!(shf(0xff00_0000, 0x0000_0001, 8, true, false), 0x1ff);
    }

    #[test]
    fn integer_ops() {
        let add = select("add", &[], ScalarType::S32).unwrap();
        assert_eq!(add(0xffff_ffff, 1, 0, 0), 0);
        let mulhi = select("mul", &["hi"], ScalarType::U32).unwrap();
        assert_eq!(mulhi(0x8000_0000, 4, 0, 0), 2);
        let wide = select("mul", &["wide"], ScalarType::S32).unwrap();
        assert_eq!(wide(0xffff_ffff, 2, 0, 0), (-2i64) as u64);
        let shr = select("shr", &[], ScalarType::S32).unwrap();
        assert_eq!(shr(0x8000_0000, 40, 0, 0), 0xffff_ffff);
        let div = select("div", &[], ScalarType::S32).unwrap();
        assert_eq!(div((-7i32) as u32 as u64, 2, 0, 0), (-3i32) as u32 as u64);
        assert_eq!(div(5, 0, 0, 0), 0xffff_ffff);
        let lt = select_cmp("lt", ScalarType::S32, false).unwrap();
        assert!(lt(0xffff_ffff, 0));
        let lo = select_cmp("lo", ScalarType::S32, false).unwrap();
        assert!(!lo(0xffff_ffff, 0));
    }
}
