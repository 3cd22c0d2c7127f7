//! The special-function unit on a whole warp at once: `MUFU.RCP/RSQ/SQRT/EX2/LG2/SIN/COS` and
//! the PTX `.approx` instructions built on them, as functions of all 32 lanes' operands.
//!
//! What is modelled: exactly what the per-lane functions of [`super`] compute (the H200's bits;
//! the unit test below and `--ignored warp_forms_exhaustive` compare every lane function with
//! its warp form on every 2^32 input). Only the evaluation order differs: the common case of
//! each function (a normal input that needs no special case and no wrapper scaling, the
//! `*_fast` paths of [`super`]) is computed in every lane by straight-line integer code over
//! fixed-size lane arrays, with no branch and no table other than the segment coefficients,
//! so that the host compiler vectorises it (AVX-512 or AVX2 where the CPU has them, chosen at
//! run time; the same code without them otherwise). The lanes outside that case are then
//! recomputed one by one by the general per-lane code. The interpolator's datapath
//! ([`super::interp`]: segment coefficients `A, B, C`, `(A + B x + C sq(x)) >> sr`, the
//! truncating squarer) is written here a second time in this branch-free form:
//!
//! - the squarer is computed as `(h * h >> 1)` plus, for each set bit `a >= 1` of `h = q >> 9`,
//!   `(q & 0x1ff) >> (9 - a)` (the same sum as the partial products, regrouped: [`sq`]; no
//!   table, where [`super::interp`] reads its 64 KiB split table);
//! - the coefficients of a segment are read in one `u64` (`A`, `B`, `C` as offsets from the
//!   minima of the segment's table, packed: [`Packed`]), the two RSQ and SQRT tables
//!   concatenated and selected by the exponent's parity;
//! - `EX2` of a negative argument is the positive datapath on the one's complement of the
//!   fraction with the result exponent one lower, as in [`super::interp::ex2n`];
//! - `LG2` of `1.m * 2^E` is `pack(E * 2^36 + L(m))` (one truncation to 24 bits of the exact
//!   fixed-point sum) where [`super::lg2`] truncates `L` first and the sum second: the two
//!   truncations toward zero give the same bits because the sum's grid is a multiple of `L`'s
//!   (checked on every input by the tests below).

use super::coef;

/// One warp's 32-bit operands or results.
pub type Lanes = [u32; 32];

/// A register lane holding an f32 in its low 32 bits: `u32` (the SASS executor's registers)
/// or `u64` (the PTX executor's, results zero-extended as its lane functions return them).
/// The warp forms are generic over it so that the conversion is compiled into the same
/// vectorised code as the function.
pub trait Lane: Copy {
    /// The f32 bits of the lane.
    fn bits(self) -> u32;
    /// The lane holding the result `r`.
    fn of(r: u32) -> Self;
}

impl Lane for u32 {
    #[inline(always)]
    fn bits(self) -> u32 {
        self
    }
    #[inline(always)]
    fn of(r: u32) -> Self {
        r
    }
}

impl Lane for u64 {
    #[inline(always)]
    fn bits(self) -> u32 {
        self as u32
    }
    #[inline(always)]
    fn of(r: u32) -> Self {
        r as u64
    }
}

/// A table of segment coefficients, read by [`Coefs::get`].
trait Coefs {
    /// Segments (a power of two).
    const N: usize;
    /// `(A, B, C)` of segment `k < N`.
    fn get(&self, k: usize) -> (i64, i32, i32);
}

/// `t` followed by `u` (`u` empty or as long as `t`).
const fn entry(t: &[(i64, i32, i32)], u: &[(i64, i32, i32)], i: usize) -> (i64, i32, i32) {
    if i < t.len() {
        t[i]
    } else {
        u[i - t.len()]
    }
}

/// A table of segment coefficients in one `u64` per segment (one load, one gather per
/// vector): `(A - a0) >> ka` in the low `sb` bits, `B - b0` in the next `sc - sb`, `C - c0`
/// above, with `a0, ka, b0, c0` those of the segment's half of the table (`[0]` for both
/// halves unless `split`: two concatenated tables, RSQ0/RSQ1 and SQRT0/SQRT1) so that the
/// fields fit (checked for every entry when the table is built, at compile time).
struct Packed<const N: usize> {
    w: [u64; N],
    split: bool,
    a0: [i64; 2],
    ka: [u32; 2],
    b0: [i32; 2],
    c0: [i32; 2],
    sb: u32,
    sc: u32,
}

impl<const N: usize> Packed<N> {
    /// The coefficients of an entry `w` of the second half (`hi`) or the first.
    #[inline(always)]
    const fn unpack(&self, w: u64, hi: bool) -> (i64, i32, i32) {
        // The second half's parameters as differences under a mask (no indexing, so that the
        // host vectorises it as arithmetic).
        let m = ((self.split && hi) as i64).wrapping_neg();
        let a0 = self.a0[0] + (m & (self.a0[1] - self.a0[0]));
        let ka = self.ka[0] + (m as u32 & (self.ka[1].wrapping_sub(self.ka[0])));
        let b0 = self.b0[0] + (m as i32 & (self.b0[1] - self.b0[0]));
        let c0 = self.c0[0] + (m as i32 & (self.c0[1] - self.c0[0]));
        let a = a0 + ((w & ((1 << self.sb) - 1)) << (ka & 63)) as i64;
        let b = b0 + ((w >> self.sb) & ((1 << (self.sc - self.sb)) - 1)) as i32;
        let c = c0 + (w >> self.sc) as i32;
        (a, b, c)
    }
}

/// The bits of `v`.
const fn bits(v: u64) -> u32 {
    64 - v.leading_zeros()
}

/// A half's `(a0, ka, b0, c0)` ([`Packed`]).
type Offsets = (i64, u32, i32, i32);
/// The bits of `(A - a0) >> ka`, `B - b0`, `C - c0`.
type Widths = (u32, u32, u32);

/// `(a0, ka, b0, c0)` and the field widths of the entries `lo..hi` of `t` followed by `u`.
const fn fields(
    t: &[(i64, i32, i32)],
    u: &[(i64, i32, i32)],
    lo: usize,
    hi: usize,
) -> (Offsets, Widths) {
    let (mut a0, mut amax, mut b0, mut bmax, mut c0, mut cmax) =
        (i64::MAX, i64::MIN, i32::MAX, i32::MIN, i32::MAX, i32::MIN);
    let mut i = lo;
    while i < hi {
        let e = entry(t, u, i);
        if e.0 < a0 {
            a0 = e.0;
        }
        if e.0 > amax {
            amax = e.0;
        }
        if e.1 < b0 {
            b0 = e.1;
        }
        if e.1 > bmax {
            bmax = e.1;
        }
        if e.2 < c0 {
            c0 = e.2;
        }
        if e.2 > cmax {
            cmax = e.2;
        }
        i += 1;
    }
    // The low bits all `A - a0` have zero.
    let mut or = 0u64;
    let mut i = lo;
    while i < hi {
        or |= (entry(t, u, i).0 - a0) as u64;
        i += 1;
    }
    let ka = if or == 0 { 0 } else { or.trailing_zeros() };
    let widths = (
        bits((amax - a0) as u64 >> ka),
        bits((bmax - b0) as u32 as u64),
        bits((cmax - c0) as u32 as u64),
    );
    ((a0, ka, b0, c0), widths)
}

const fn max(a: u32, b: u32) -> u32 {
    if a > b {
        a
    } else {
        b
    }
}

/// `t` (followed by `u`, as the second half) as [`Packed`].
const fn packed<const N: usize>(t: &[(i64, i32, i32)], u: &[(i64, i32, i32)]) -> Packed<N> {
    assert!(t.len() + u.len() == N);
    let split = !u.is_empty();
    let (p0, w0) = fields(t, u, 0, if split { N / 2 } else { N });
    let (p1, w1) = if split {
        fields(t, u, N / 2, N)
    } else {
        (p0, w0)
    };
    let sb = max(w0.0, w1.0);
    let sc = sb + max(w0.1, w1.1);
    assert!(sc + max(w0.2, w1.2) <= 64, "the fields fit in 64 bits");
    let mut p = Packed {
        w: [0; N],
        split,
        a0: [p0.0, p1.0],
        ka: [p0.1, p1.1],
        b0: [p0.2, p1.2],
        c0: [p0.3, p1.3],
        sb,
        sc,
    };
    let mut i = 0;
    while i < N {
        let e = entry(t, u, i);
        let h = (split && i >= N / 2) as usize;
        p.w[i] = ((e.0 - p.a0[h]) as u64 >> p.ka[h])
            | ((e.1 - p.b0[h]) as u32 as u64) << sb
            | ((e.2 - p.c0[h]) as u32 as u64) << sc;
        let back = p.unpack(p.w[i], i >= N / 2);
        assert!(
            back.0 == e.0 && back.1 == e.1 && back.2 == e.2,
            "packing is exact"
        );
        i += 1;
    }
    p
}

impl<const N: usize> Coefs for Packed<N> {
    const N: usize = N;
    #[inline(always)]
    fn get(&self, k: usize) -> (i64, i32, i32) {
        self.unpack(self.w[k], k >= N / 2)
    }
}

static RCP: Packed<128> = packed(&coef::RCP, &[]);
/// RSQ0 (even E) at 0..64, RSQ1 (odd E) at 64..128.
static RSQ: Packed<128> = packed(&coef::RSQ0, &coef::RSQ1);
/// SQRT0 at 0..64, SQRT1 at 64..128.
static SQRT: Packed<128> = packed(&coef::SQRT0, &coef::SQRT1);
static EX2: Packed<64> = packed(&coef::EX2, &[]);
static LG2: Packed<64> = packed(&coef::LG2, &[]);

/// The coefficients of segment `seg` of `t` (its low bits).
#[inline(always)]
fn coefs<T: Coefs>(t: &T, seg: u32) -> (i64, i32, i32) {
    t.get(seg as usize & (T::N - 1))
}

/// A lane's segment coefficients, read in a first pass over the warp (loads only) so that
/// the second pass is arithmetic the host vectorises without gathers.
struct Staged {
    a: [i64; 32],
    b: [i32; 32],
    c: [i32; 32],
}

/// The truncated squarer of a 17-bit `q` ([`super::interp::sq_reference`]), computed. With
/// `h = q >> 9` and `l = q & 0x1ff`, the partial products `q >> (18 - i)` summed are the
/// columns `>= 18` of `q * q`: all of `h * h`, none of `l * l`, and of the cross products
/// `h_a l_j 2^(a + j + 9)` (twice each) those with `a + j >= 9`, whose sum over `j` is
/// `l >> (9 - a)`; so the halved sum is `(h * h >> 1) + sum over set bits a >= 1 of h of
/// l >> (9 - a)` (equal to the partial products on every 17-bit input: the test below).
#[inline(always)]
fn sq(q: u32) -> u32 {
    let h = (q >> 9) & 0xff;
    let l = q & 0x1ff;
    let mut t = (h * h) >> 1;
    let mut a = 1;
    while a < 8 {
        t += ((h >> a) & 1).wrapping_neg() & (l >> (9 - a));
        a += 1;
    }
    t
}

/// `A + B x + C sq(q)` of lane `l` of `s`.
#[inline(always)]
fn eval(s: &Staged, l: usize, x: u32, q: u32) -> i64 {
    s.a[l]
        .wrapping_add(s.b[l] as i64 * x as i32 as i64)
        .wrapping_add(s.c[l] as i64 * sq(q) as i32 as i64)
}

/// `RCP`'s segment and squarer input (`2x`, [`super::interp::rcp`]).
#[inline(always)]
fn rcp_seg(x: u32) -> u32 {
    x >> 16 & 0x7f
}
#[inline(always)]
fn rcp_sqin(x: u32) -> u32 {
    (x & 0xffff) << 1
}

/// [`super::rcp_fast`], for any input (meaningful on [`super::rcp_fast_input`]).
#[inline(always)]
fn rcp_fast(s: &Staged, l: usize, x: u32) -> u32 {
    let f = eval(s, l, x & 0xffff, rcp_sqin(x)) >> 15;
    let t = (125u32 << 23).wrapping_add(f as u32);
    (x & super::SIGN) | t.wrapping_add((127u32 << 23).wrapping_sub(x & super::INF))
}

/// `(E - (E & 1)) / 2` of the biased exponent field, wrapping.
#[inline(always)]
fn half_e(x: u32) -> u32 {
    ((((x >> 23) & 0xff) as i32 - 127) >> 1) as u32
}

/// RSQ's and SQRT's segment: the exponent's parity (odd E, even field: the second table) and
/// the top 6 fraction bits; their squarer input: the low 17 bits.
#[inline(always)]
fn rsq_seg(x: u32) -> u32 {
    ((x >> 23 & 1) ^ 1) << 6 | (x >> 17 & 0x3f)
}

/// [`super::rsq_fast`], for any input.
#[inline(always)]
fn rsq_fast(s: &Staged, l: usize, x: u32) -> u32 {
    let odd = (x >> 23 & 1) ^ 1;
    let m = x & 0x7f_ffff;
    let xx = m & 0x1ffff;
    let t = (125u32 << 23).wrapping_add((eval(s, l, xx, xx) >> 16) as u32);
    let t = if m == 0 && odd == 0 { 0x3f80_0000 } else { t };
    t.wrapping_sub(half_e(x) << 23)
}

/// [`super::sqrt_fast`], for any input.
#[inline(always)]
fn sqrt_fast(s: &Staged, l: usize, x: u32) -> u32 {
    let xx = x & 0x1ffff;
    let t = (126u32 << 23).wrapping_add((eval(s, l, xx, xx) >> 17) as u32);
    t.wrapping_add(half_e(x) << 23)
}

/// EX2's fraction index `g` (one's complemented for a negative argument) and the shift `n`.
#[inline(always)]
fn ex2_parts(x: u32) -> (u32, u32, u32) {
    let e = (x >> 23) & 0xff;
    let sh = 133u32.wrapping_sub(e).min(63);
    let q = ((((1u32 << 23) | (x & 0x7f_ffff)) as u64) << 7) >> sh;
    let (n, f) = ((q >> 24) as u32, (q & 0xff_ffff) as u32);
    let neg = x >> 31;
    let g = f >> 1 & 0x7f_ffff;
    (g, g ^ (neg.wrapping_neg() & 0x7f_ffff), n)
}
#[inline(always)]
fn ex2_seg(x: u32) -> u32 {
    ex2_parts(x).1 >> 17
}

/// [`super::ex2_fast`], for any input.
#[inline(always)]
fn ex2_fast(s: &Staged, l: usize, x: u32) -> u32 {
    let (g, gg, n) = ex2_parts(x);
    let neg = x >> 31;
    let xx = gg & 0x1ffff;
    let t = ((126 - neg) << 23).wrapping_add((eval(s, l, xx, xx) >> 15) as u32);
    let t = if neg != 0 && g == 0 { 0x3f80_0000 } else { t };
    let up = t.wrapping_add(n << 23);
    let down = if t >> 23 <= n {
        0
    } else {
        t.wrapping_sub(n << 23)
    };
    if neg == 0 {
        up
    } else {
        down
    }
}

/// LG2's segment: the top 6 fraction bits.
#[inline(always)]
fn lg2_seg(x: u32) -> u32 {
    x >> 17 & 0x3f
}

/// [`super::lg2_fast`], for any input: `pack(E * 2^36 + L(m), 36)`, where L(0) counts as 0 for
/// E >= 0 (the unit's `LG2(1) = 0`).
#[inline(always)]
fn lg2_fast(s: &Staged, l: usize, x: u32) -> u32 {
    let big_e = ((x >> 23) & 0xff) as i32 - 127;
    let m = x & 0x7f_ffff;
    let xx = m & 0x1ffff;
    let v = eval(s, l, xx, xx) >> 2;
    let v = if m == 0 && big_e >= 0 { 0 } else { v };
    let t = ((big_e as i64) << 36).wrapping_add(v);
    let sign = ((t >> 63) as u32) << 31;
    let mag = t ^ (t >> 63);
    let d = (mag as f64).to_bits();
    let r = sign | ((d >> 29) as u32).wrapping_sub((1023 - 127 + 36) << 23);
    if mag == 0 {
        sign
    } else {
        r
    }
}

/// The f32 bits of the lanes of `a`, read 16 bytes at a time. The callers have often just
/// written `a` (the SASS executor copies a register's low words into a `[u32; 32]` right
/// before the call) with 16-byte or narrower stores; a wider vector load overlapping several
/// of them cannot be served from the store buffer and waits until they reach the cache
/// (`benches/mufu.rs`: the SASS `warp` column against `warpx`). Each 16-byte load is passed
/// through an empty `asm!` so that the compiler keeps it as one load (it merges adjacent
/// loads into wider ones otherwise).
#[inline(always)]
fn load<L: Lane>(a: &[L; 32]) -> Lanes {
    #[cfg(target_arch = "x86_64")]
    {
        use std::arch::x86_64::{__m128i, _mm_loadu_si128};
        let size = std::mem::size_of::<L>();
        if size == 4 || size == 8 {
            // Lanes per 16 bytes; the low word of lane `j` of a chunk is its word `j * size / 4`
            // (little-endian).
            let per = 16 / size;
            let mut r = [0u32; 32];
            for k in 0..32 / per {
                // SAFETY: `a` holds `32 * size` bytes; the 16 bytes at `k * 16` (k < 32 / per)
                // lie within it; `_mm_loadu_si128` needs no alignment, and SSE2 is part of
                // the x86-64 baseline.
                let mut v: __m128i = unsafe {
                    _mm_loadu_si128(
                        (a.as_ptr() as *const __m128i)
                            .cast::<u8>()
                            .add(k * 16)
                            .cast(),
                    )
                };
                // SAFETY: a template of a comment only: no instruction, no memory access.
                unsafe {
                    std::arch::asm!("/* {0} */", inout(xmm_reg) v, options(pure, nomem, nostack, preserves_flags));
                }
                // SAFETY: `__m128i` and `[u32; 4]` are 16 bytes of plain data.
                let w: [u32; 4] = unsafe { std::mem::transmute(v) };
                for j in 0..per {
                    r[k * per + j] = w[j * size / 4];
                }
            }
            return r;
        }
    }
    std::array::from_fn(|l| a[l].bits())
}

/// Recomputes the lanes of `slow` with the per-lane `f`.
#[inline(always)]
fn fix<L: Lane>(a: &[L; 32], out: &mut [L; 32], mut slow: u32, f: impl Fn(u32) -> u32) {
    while slow != 0 {
        let l = slow.trailing_zeros() as usize;
        out[l] = L::of(f(a[l].bits()));
        slow &= slow - 1;
    }
}

/// Defines the warp form `$name` of a fast path and its domain, with the general per-lane
/// function for the other lanes; the fast part compiled for AVX-512 and AVX2 and chosen at run
/// time.
macro_rules! warp_form {
    ($(#[$doc:meta])* $name:ident, $t:expr, $seg:expr, $fast:expr, $domain:expr, $general:expr) => {
        $(#[$doc])*
        pub fn $name<L: Lane>(a: &[L; 32], out: &mut [L; 32]) {
            /// `out[l] = fast(a[l])` in every lane; the lanes outside the domain as bits.
            #[inline(always)]
            fn body<L: Lane>(a: &[L; 32], out: &mut [L; 32]) -> u32 {
                let a = load(a);
                // First pass: loads only (the coefficients of each lane's segment).
                let mut s = Staged {
                    a: [0; 32],
                    b: [0; 32],
                    c: [0; 32],
                };
                for l in 0..32 {
                    (s.a[l], s.b[l], s.c[l]) = coefs(&$t, $seg(a[l]));
                }
                let mut slow = 0u32;
                for l in 0..32 {
                    out[l] = L::of($fast(&s, l, a[l]));
                    slow |= (!$domain(a[l]) as u32) << l;
                }
                slow
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx512f,avx512dq,avx512vl,avx512bw")]
            unsafe fn body_avx512<L: Lane>(a: &[L; 32], out: &mut [L; 32]) -> u32 {
                body(a, out)
            }
            #[cfg(target_arch = "x86_64")]
            #[target_feature(enable = "avx2")]
            unsafe fn body_avx2<L: Lane>(a: &[L; 32], out: &mut [L; 32]) -> u32 {
                body(a, out)
            }
            let slow = match level() {
                // SAFETY: `level` found the CPU's AVX-512 F, DQ, VL and BW.
                #[cfg(target_arch = "x86_64")]
                Level::Avx512 => unsafe { body_avx512(a, out) },
                // SAFETY: `level` found the CPU's AVX2.
                #[cfg(target_arch = "x86_64")]
                Level::Avx2 => unsafe { body_avx2(a, out) },
                _ => body(a, out),
            };
            fix(a, out, slow, $general);
        }
    };
}

/// The vector extensions the warp forms use.
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Level {
    /// AVX-512 F, DQ, VL and BW.
    Avx512,
    /// AVX2.
    Avx2,
    /// Neither (the same code, compiled for the target's baseline).
    Base,
}

/// The best [`Level`] of this CPU (or the one forced by `set_level`, for tests and benches).
#[inline(always)]
pub fn level() -> Level {
    match FORCED.load(std::sync::atomic::Ordering::Relaxed) {
        1 => return Level::Avx512,
        2 => return Level::Avx2,
        3 => return Level::Base,
        _ => {}
    }
    #[cfg(target_arch = "x86_64")]
    {
        if std::arch::is_x86_feature_detected!("avx512f")
            && std::arch::is_x86_feature_detected!("avx512dq")
            && std::arch::is_x86_feature_detected!("avx512vl")
            && std::arch::is_x86_feature_detected!("avx512bw")
        {
            return Level::Avx512;
        }
        if std::arch::is_x86_feature_detected!("avx2") {
            return Level::Avx2;
        }
    }
    Level::Base
}

static FORCED: std::sync::atomic::AtomicU8 = std::sync::atomic::AtomicU8::new(0);

/// Uses at most `l` from now on (`None`: the CPU's best). A level the CPU lacks is not
/// forced (the CPU's best applies).
pub fn set_level(l: Option<Level>) {
    let best = {
        FORCED.store(0, std::sync::atomic::Ordering::Relaxed);
        level()
    };
    let rank = |l: Level| match l {
        Level::Avx512 => 0,
        Level::Avx2 => 1,
        Level::Base => 2,
    };
    let v = match l {
        Some(l) if rank(l) >= rank(best) => match l {
            Level::Avx512 => 1,
            Level::Avx2 => 2,
            Level::Base => 3,
        },
        _ => 0,
    };
    FORCED.store(v, std::sync::atomic::Ordering::Relaxed);
}

use super::{positive_normal, rcp_fast_input};

#[inline(always)]
fn ex2_domain(x: u32) -> bool {
    super::ex2_fast_input(x)
}

warp_form!(
    /// `MUFU.RCP` in every lane ([`super::rcp`]).
    rcp, RCP, rcp_seg, rcp_fast, rcp_fast_input, super::rcp_general
);
warp_form!(
    /// `MUFU.RSQ` in every lane ([`super::rsq`]).
    rsq, RSQ, rsq_seg, rsq_fast, positive_normal, super::rsq_general
);
warp_form!(
    /// `MUFU.SQRT` in every lane ([`super::sqrt`]).
    sqrt, SQRT, rsq_seg, sqrt_fast, positive_normal, super::sqrt_general
);
warp_form!(
    /// `MUFU.EX2` in every lane ([`super::ex2`]).
    ex2, EX2, ex2_seg, ex2_fast, ex2_domain, super::ex2_general
);
warp_form!(
    /// `MUFU.LG2` in every lane ([`super::lg2`]).
    lg2, LG2, lg2_seg, lg2_fast, positive_normal, super::lg2_general
);
warp_form!(
    /// `rcp.approx.f32` in every lane ([`super::rcp_approx_f32`]).
    rcp_approx_f32, RCP, rcp_seg, rcp_fast, rcp_fast_input, |x| super::rcp_approx_f32_general(x, false)
);
warp_form!(
    /// `rcp.approx.ftz.f32` in every lane.
    rcp_approx_ftz_f32, RCP, rcp_seg, rcp_fast, rcp_fast_input, |x| super::rcp_approx_f32_general(x, true)
);
warp_form!(
    /// `rsqrt.approx.f32` in every lane ([`super::rsqrt_approx_f32`]).
    rsqrt_approx_f32, RSQ, rsq_seg, rsq_fast, positive_normal, |x| super::rsqrt_approx_f32(x, false)
);
warp_form!(
    /// `rsqrt.approx.ftz.f32` in every lane.
    rsqrt_approx_ftz_f32, RSQ, rsq_seg, rsq_fast, positive_normal, |x| super::rsqrt_approx_f32(x, true)
);
warp_form!(
    /// `sqrt.approx.f32` in every lane ([`super::sqrt_approx_f32`]).
    sqrt_approx_f32, SQRT, rsq_seg, sqrt_fast, positive_normal, |x| super::sqrt_approx_f32(x, false)
);
warp_form!(
    /// `sqrt.approx.ftz.f32` in every lane.
    sqrt_approx_ftz_f32, SQRT, rsq_seg, sqrt_fast, positive_normal, |x| super::sqrt_approx_f32(x, true)
);
warp_form!(
    /// `ex2.approx.f32` in every lane ([`super::ex2_approx_f32`]).
    ex2_approx_f32, EX2, ex2_seg, ex2_fast, ex2_domain, |x| super::ex2_approx_f32(x, false)
);
warp_form!(
    /// `ex2.approx.ftz.f32` in every lane.
    ex2_approx_ftz_f32, EX2, ex2_seg, ex2_fast, ex2_domain, |x| super::ex2_approx_f32(x, true)
);
warp_form!(
    /// `lg2.approx.f32` in every lane ([`super::lg2_approx_f32`]).
    lg2_approx_f32, LG2, lg2_seg, lg2_fast, positive_normal, |x| super::lg2_approx_f32(x, false)
);
warp_form!(
    /// `lg2.approx.ftz.f32` in every lane.
    lg2_approx_ftz_f32, LG2, lg2_seg, lg2_fast, positive_normal, |x| super::lg2_approx_f32(x, true)
);

/// `MUFU.SIN` in every lane (the per-lane code, already branch-light, in one loop).
pub fn sin<L: Lane>(a: &[L; 32], out: &mut [L; 32]) {
    for l in 0..32 {
        out[l] = L::of(super::sin(a[l].bits()));
    }
}

/// `MUFU.COS` in every lane.
pub fn cos<L: Lane>(a: &[L; 32], out: &mut [L; 32]) {
    for l in 0..32 {
        out[l] = L::of(super::cos(a[l].bits()));
    }
}

/// `sin.approx{.ftz}.f32` in every lane.
pub fn sin_approx_f32<L: Lane>(a: &[L; 32], out: &mut [L; 32]) {
    for l in 0..32 {
        out[l] = L::of(super::sin_approx_f32(a[l].bits()));
    }
}

/// `cos.approx{.ftz}.f32` in every lane.
pub fn cos_approx_f32<L: Lane>(a: &[L; 32], out: &mut [L; 32]) {
    for l in 0..32 {
        out[l] = L::of(super::cos_approx_f32(a[l].bits()));
    }
}

/// A warp form (its SASS `u32` and PTX `u64` instantiations) and the per-lane function it
/// equals, for the tests.
pub type Pair = (
    &'static str,
    fn(&Lanes, &mut Lanes),
    fn(&[u64; 32], &mut [u64; 32]),
    fn(u32) -> u32,
);

/// Every warp form with its per-lane function.
pub fn pairs() -> [Pair; 19] {
    [
        ("rcp", rcp, rcp, super::rcp),
        ("rsq", rsq, rsq, super::rsq),
        ("sqrt", sqrt, sqrt, super::sqrt),
        ("ex2", ex2, ex2, super::ex2),
        ("lg2", lg2, lg2, super::lg2),
        ("sin", sin, sin, super::sin),
        ("cos", cos, cos, super::cos),
        ("rcp.approx", rcp_approx_f32, rcp_approx_f32, |x| {
            super::rcp_approx_f32(x, false)
        }),
        (
            "rcp.approx.ftz",
            rcp_approx_ftz_f32,
            rcp_approx_ftz_f32,
            |x| super::rcp_approx_f32(x, true),
        ),
        ("rsqrt.approx", rsqrt_approx_f32, rsqrt_approx_f32, |x| {
            super::rsqrt_approx_f32(x, false)
        }),
        (
            "rsqrt.approx.ftz",
            rsqrt_approx_ftz_f32,
            rsqrt_approx_ftz_f32,
            |x| super::rsqrt_approx_f32(x, true),
        ),
        ("sqrt.approx", sqrt_approx_f32, sqrt_approx_f32, |x| {
            super::sqrt_approx_f32(x, false)
        }),
        (
            "sqrt.approx.ftz",
            sqrt_approx_ftz_f32,
            sqrt_approx_ftz_f32,
            |x| super::sqrt_approx_f32(x, true),
        ),
        ("ex2.approx", ex2_approx_f32, ex2_approx_f32, |x| {
            super::ex2_approx_f32(x, false)
        }),
        (
            "ex2.approx.ftz",
            ex2_approx_ftz_f32,
            ex2_approx_ftz_f32,
            |x| super::ex2_approx_f32(x, true),
        ),
        ("lg2.approx", lg2_approx_f32, lg2_approx_f32, |x| {
            super::lg2_approx_f32(x, false)
        }),
        (
            "lg2.approx.ftz",
            lg2_approx_ftz_f32,
            lg2_approx_ftz_f32,
            |x| super::lg2_approx_f32(x, true),
        ),
        (
            "sin.approx",
            sin_approx_f32,
            sin_approx_f32,
            super::sin_approx_f32,
        ),
        (
            "cos.approx",
            cos_approx_f32,
            cos_approx_f32,
            super::cos_approx_f32,
        ),
    ]
}

/// A difference between a warp form and its lane function: `(form, level, input, warp result,
/// lane result)`.
pub type Mismatch = (String, Level, u32, u32, u32);

/// Compares the warp forms (the first `forms` of [`pairs`], in `u32` and in `u64` lanes; a
/// `u64` result must be the lane result zero-extended) with their per-lane functions on
/// the inputs `start, start + step, ...` below 2^32 (32 to a warp) and the edges of every
/// binade, at every [`Level`] the CPU has; the number of lane results compared, or the first
/// difference.
pub fn compare(start: u64, step: u64, forms: usize) -> Result<u64, Mismatch> {
    compare_at(
        &[Level::Avx512, Level::Avx2, Level::Base],
        start,
        step,
        forms,
    )
}

/// [`compare`] at the given levels (those the CPU has).
pub fn compare_at(levels: &[Level], start: u64, step: u64, forms: usize) -> Result<u64, Mismatch> {
    let mut edges = Vec::new();
    for e in 0..=255u32 {
        for s in [0, super::SIGN] {
            for m in [0, 1, 2, 0x40_0000, 0x7f_fffe, 0x7f_ffff] {
                edges.push(s | e << 23 | m);
            }
        }
    }
    let mut n = 0u64;
    for &lv in levels {
        set_level(Some(lv));
        let got = level();
        if got != lv {
            continue;
        }
        let mut check = |a: &Lanes| -> Result<(), Mismatch> {
            let mut out = [0u32; 32];
            let mut out64 = [0u64; 32];
            // The PTX executor's lanes: the f32 in the low word; the high words, which the
            // forms ignore, set to a pattern here.
            let a64: [u64; 32] = std::array::from_fn(|l| {
                a[l] as u64 | (0x9e37_79b9u64.wrapping_mul(l as u64 + 1) << 32)
            });
            for (name, w, w64, f) in pairs().into_iter().take(forms) {
                w(a, &mut out);
                w64(&a64, &mut out64);
                for l in 0..32 {
                    let want = f(a[l]);
                    if out[l] != want {
                        return Err((name.to_string(), lv, a[l], out[l], want));
                    }
                    if out64[l] != want as u64 {
                        return Err((
                            format!("{name} (u64 lanes)"),
                            lv,
                            a[l],
                            out64[l] as u32,
                            want,
                        ));
                    }
                }
            }
            n += 64 * forms as u64;
            Ok(())
        };
        let mut x = start;
        let mut a = [0u32; 32];
        let mut k = 0;
        while x < 1 << 32 {
            a[k] = x as u32;
            k += 1;
            if k == 32 {
                check(&a)?;
                k = 0;
            }
            x += step;
        }
        for c in edges.chunks(32) {
            let mut a = [0u32; 32];
            for (l, v) in c.iter().enumerate() {
                a[l] = *v;
            }
            check(&a)?;
        }
    }
    set_level(None);
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn computed_squarer_equals_the_partial_products() {
        for q in 0..1u32 << 17 {
            assert_eq!(sq(q), super::super::interp::sq_reference(q), "q = {q:#x}");
        }
    }

    #[test]
    fn warp_forms_equal_the_lane_functions() {
        // Every 4,099th input plus the binade edges, at every level this CPU has.
        let r = compare(0, 4099, pairs().len());
        assert!(r.is_ok(), "{r:?}");
        assert!(r.unwrap() > 1 << 21);
    }

    /// The five `MUFU` forms (`u32` and `u64` lanes) on all 2^32 inputs at the level the executor uses on this CPU
    /// (the `.approx` forms use the same fast paths on the same domains and the lane functions
    /// elsewhere, and SIN/COS are the lane functions; the other levels are the same source,
    /// sampled above): `cargo test --release --lib -- --ignored warp_forms_exhaustive`.
    #[test]
    #[ignore]
    fn warp_forms_exhaustive() {
        set_level(None);
        let r = compare_at(&[level()], 0, 1, 5);
        assert!(r.is_ok(), "{r:?}");
        assert!(r.unwrap() >= 10 << 32);
    }
}
