//! Unit tests of the floating-point semantics: each rounding direction, subnormals and
//! `.ftz`, overflow, signed zeros and NaNs, saturation, min/max/compare/testp, the approximate
//! instructions, and the directed roundings bracketed against exact references.

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
