#!/usr/bin/env python3
"""Finds the coefficients of the H200 special-function unit's quadratic interpolator from the
exhaustive H200 tables (tests/hw/h200/mufu/tables/*.mufu), checks that they reproduce every
entry, and writes src/exec/mufu/coef.rs.

The datapath (what is computed from which bits, the truncated squarer, the shifts and the
rounding constants) is that of the G80 ("Tesla") special-function unit as documented by
envytools (nvhw/sfu.c, Marcin Koscielnicki, from hardware tests on G80-GT200; the design is
Oberman and Siu, "A high-performance area-efficient multifunction interpolator", ARITH 2005):
the significand's top 6 or 7 bits select a segment, its low 16 or 17 bits x enter

    f = (A + B * x + C * sq(x)) >> sr

with sq() a squarer that drops the low partial-product bits. For every segment this script
solves for integers A, B, C (least squares, then a search of the neighbourhood for a triple
whose every result equals the H200's), so every coefficient comes from the H200 data. MUFU.SQRT
(newer than G80) has no documented constant: its A is solved as a free integer with sr = 17.

Usage: python3 tests/hw/mufu/interp_fit.py [TABLES_DIR] [OUT_RS]
Needs numpy and the zstd command-line tool. Takes about a minute.
"""
import subprocess
import sys

import numpy as np

TABLES = sys.argv[1] if len(sys.argv) > 1 else "tests/hw/h200/mufu/tables"
OUT = sys.argv[2] if len(sys.argv) > 2 else "src/exec/mufu/coef.rs"


def load(name):
    """Decodes one .mufu table (format: src/exec/mufu/table.rs) to an int64 array."""
    b = open(f"{TABLES}/{name}.mufu", "rb").read()
    assert b[:8] == b"GMSMUFU2"
    n, per, nb = np.frombuffer(b[8:20], "<u4")
    offs = np.frombuffer(b[20 : 24 + 4 * nb], "<u4")
    pay = 20 + 4 * (nb + 1)
    out = np.empty(n, np.int64)
    for k in range(nb):
        raw = subprocess.run(
            ["zstd", "-dc"], input=b[pay + offs[k] : pay + offs[k + 1]], capture_output=True, check=True
        ).stdout
        cnt = min(per, n - k * per)
        d = np.frombuffer(raw[:cnt], np.int8).astype(np.int64)
        esc = np.frombuffer(raw[cnt:], "<u4").astype(np.int64)
        isesc = d == -128
        assert isesc.sum() == len(esc)
        # prefix sums between escapes (wrapping u32)
        vals = np.empty(cnt, np.int64)
        prev, e = 0, 0
        starts = np.flatnonzero(isesc)
        seg_lo = 0
        for s in list(starts) + [cnt]:
            if s > seg_lo:
                vals[seg_lo:s] = (prev + np.cumsum(d[seg_lo:s])) & 0xFFFFFFFF
                prev = int(vals[s - 1])
            if s < cnt:
                prev = int(esc[e])
                e += 1
                vals[s] = prev
            seg_lo = s + 1
        out[k * per : k * per + cnt] = vals
    return out


def sq(x):
    """The truncated squarer of a 17-bit x: partial product i is x >> (18 - i), their sum >> 1."""
    r = np.zeros_like(x)
    for i in range(2, 17):
        r += np.where(x & (1 << i), x >> (18 - i), 0)
    return r >> 1


def solve(lo, hi, x, s, s0, kconst):
    """Integers (A, B, C) with lo <= (A << s0) + kconst + B x + C s <= hi for every x."""
    X = np.vstack([np.ones_like(x), x, s]).T.astype(np.float64)
    c, *_ = np.linalg.lstsq(X, ((lo + hi) / 2).astype(np.float64), rcond=None)
    b0, c0 = int(round(c[1])), int(round(c[2]))
    for dc in sorted(range(-8, 9), key=abs):
        r0 = (c0 + dc) * s
        for db in sorted(range(-48, 49), key=abs):
            r = (b0 + db) * x + r0
            l = (lo - kconst - r).max()
            h = (hi - kconst - r).min()
            a = -((-l) >> s0)
            if a << s0 <= h:
                return ((a << s0) + kconst, b0 + db, c0 + dc)
    raise SystemExit(f"no coefficients for a segment (lo[0]={lo[0]})")


def bitlen(v):
    n = np.zeros_like(v)
    t = v.copy()
    for k in (32, 16, 8, 4, 2, 1):
        m = (t >> k) > 0
        n += np.where(m, k, 0)
        t = np.where(m, t >> k, t)
    return n + (t > 0)


def pack(total, point):
    """f32 bits of total / 2^point, truncated to 24 significant bits (a negative total is
    one's-complemented first: the unit's sign-magnitude conversion)."""
    neg = total < 0
    mag = np.where(neg, ~total, total)
    n = bitlen(mag)
    m = (mag << np.maximum(24 - n, 0)) >> np.maximum(n - 24, 0)
    bits = np.where(mag == 0, 0, ((n - 1 - point + 127) << 23) | (m & 0x7FFFFF))
    return bits | np.where(neg, 1 << 31, 0)


def trunc_bounds(v, point):
    """Range of integers t >= 0 whose truncation to 24 significant bits over 2^point is the
    f32 magnitude v."""
    e = (v >> 23) & 0xFF
    m = (v & 0x7FFFFF) | np.where(e > 0, 1 << 23, 0)
    sh = e - 150 + point
    lo = np.where(sh >= 0, m << np.maximum(sh, 0), m >> np.maximum(-sh, 0))
    return lo, lo + np.where(sh >= 0, 1 << np.maximum(sh, 0), 1) - 1


def sig(v, e0):
    """The 24-bit significand of f32 bits v scaled to exponent e0 (v's exponent is e0 or e0+1)."""
    return ((v & 0x7FFFFF) | (1 << 23)) << (((v >> 23) & 0xFF) - e0)


def fit(lo, hi, segs, xbits, xs, ss, s0, k):
    n = 1 << xbits
    return [solve(lo[i * n : (i + 1) * n], hi[i * n : (i + 1) * n], xs, ss, s0, k) for i in range(segs)]


def ev(co, idx, x, s, sr):
    co = np.array(co, np.int64)
    return (co[idx, 0] + co[idx, 1] * x + co[idx, 2] * s) >> sr


def check(name, got, want, where=None):
    bad = got != want if where is None else (got != want) & where
    nb = int(bad.sum())
    print(f"{name}: {nb} mismatches of {len(want) if where is None else int(where.sum())}")
    if nb:
        raise SystemExit(f"{name}: the coefficients do not reproduce the table")


x16 = np.arange(1 << 16, dtype=np.int64)
x17 = np.arange(1 << 17, dtype=np.int64)
s16, s17 = sq(x16 << 1), sq(x17)
m23 = np.arange(1 << 23, dtype=np.int64)
i17, l17 = m23 >> 17, m23 & 0x1FFFF
sq23 = sq(l17)
out = {}

# MUFU.RCP of 1.m: 128 segments of 16 bits, the square of 2x; f = (A + Bx + C sq) >> 15.
t = load("rcp")
y = sig(t, 126)
out["RCP"] = fit(y << 15, ((y + 1) << 15) - 1, 128, 16, x16, s16, 13, 0x47E7)
f = ev(out["RCP"], m23 >> 16, m23 & 0xFFFF, sq((m23 & 0xFFFF) << 1), 15)
check("rcp", np.where(f == 1 << 24, 0x3F800000, (126 << 23) | (f - (1 << 23))), t)

# MUFU.RSQ of 1.m (even exponents) and 2 * 1.m (odd): 64 segments each, >> 16, C * 4.
for p in (0, 1):
    t = load(f"rsq{p}")
    y = sig(t, 126)
    lo, hi = y << 16, ((y + 1) << 16) - 1
    if p == 0:  # rsq(1) = 1 exactly (the unit's special case), left out of the fit
        lo[0], hi[0] = lo[1] - (1 << 40), hi[1] + (1 << 40)
    co = fit(lo, hi, 64, 17, x17, 4 * s17, 14, 0x7FFF)
    out[f"RSQ{p}"] = [(a, b, 4 * c) for a, b, c in co]
    f = ev(out[f"RSQ{p}"], i17, l17, sq23, 16)
    g = (126 << 23) | (f - (1 << 23))
    if p == 0:
        g[0] = 0x3F800000
    check(f"rsq{p}", g, t)

# MUFU.SQRT of 1.m and 2 * 1.m: 64 segments each, >> 17, A free.
for p in (0, 1):
    t = load(f"sqrt{p}")
    y = sig(t, 127)
    out[f"SQRT{p}"] = fit(y << 17, ((y + 1) << 17) - 1, 64, 17, x17, s17, 0, 0)
    f = ev(out[f"SQRT{p}"], i17, l17, sq23, 17)
    check(f"sqrt{p}", (127 << 23) | (f - (1 << 23)), t)

# MUFU.EX2 of f / 2^23 (the unit reads 23 fraction bits: entries 2k and 2k+1 of the 24-bit
# tables are equal): 64 segments, >> 15; 2^-f is 2^-1 * 2^((2^23 - 1 - f) / 2^23) (one's complement).
tp, tn = load("ex2p"), load("ex2n")
check("ex2p pairs", tp[0::2], tp[1::2])
check("ex2n pairs", tn[0::2], tn[1::2])
y = sig(tp[0::2], 127)
out["EX2"] = fit(y << 15, ((y + 1) << 15) - 1, 64, 17, x17, s17, 13, 0x77E2)
f = ev(out["EX2"], i17, l17, sq23, 15)
check("ex2p", (127 << 23) | (f - (1 << 23)), tp[0::2])
g = ev(out["EX2"], i17[::-1], l17[::-1], sq23[::-1], 15)
gb = np.where(g == 1 << 24, 127 << 23, (126 << 23) | (g - (1 << 23)))
gb[0] = 0x3F800000
check("ex2n", gb, tn[0::2])

# MUFU.LG2 of 1.m: 64 segments; r = (A + Bx + 2C sq) >> 2 is log2(1.m) in 36-bit fixed
# point; [0.5, 1) is r - 2^36 (one's complement to sign-magnitude), both truncated.
tu, tl = load("lg2u"), load("lg2l")
lo, hi = trunc_bounds(tu, 36)
lo, hi = 4 * lo, 4 * hi + 3
lo[0], hi[0] = lo[1] - (1 << 40), hi[1] + (1 << 40)  # lg2(1) = 0 exactly (special case)
co = fit(lo, hi, 64, 17, x17, 2 * s17, 12, 0x3345)
out["LG2"] = [(a, b, 2 * c) for a, b, c in co]
r = ev(out["LG2"], i17, l17, sq23, 2)
check("lg2u", np.where(m23 == 0, 0, pack(r, 36)), tu)
check("lg2l", pack(r - (1 << 36), 36), tl)

# MUFU.SIN of i / 2^25 turns: quadrant q = i >> 23; odd quadrants mirror the 23-bit fraction
# (one's complement), the upper two are negative; 64 segments, r / 2^37 truncated.
t = load("sincos")
lo, hi = trunc_bounds(t[: 1 << 23] & 0x7FFFFFFF, 37)
out["SIN"] = fit(lo, hi, 64, 17, x17, s17, 11, 0)
i = np.arange(1 << 25, dtype=np.int64)
q, fr = i >> 23, i & 0x7FFFFF
fr = np.where(q & 1, 0x7FFFFF - fr, fr)
r = ev(out["SIN"], fr >> 17, fr & 0x1FFFF, sq(fr & 0x1FFFF), 0)
got = pack(r, 37) | np.where(q >= 2, 1 << 31, 0)
# Only the entries an H200 input reached are the H200's (tests/hw/mufu/sincos.c: the rest of
# the table holds mufu_ref.h's stand-in): sin.approx reaches the first two quadrants fully up
# to 0.318 turns; the test in tests/hardware/approx.rs checks every reached entry.
check("sin, quadrants 0 and 1", got[: 1 << 24], t[: 1 << 24])
print("sin, quadrants 2 and 3 (not all reached by an H200 input):", int((got[1 << 24 :] != t[1 << 24 :]).sum()), "differ")

with open(OUT, "w") as o:
    o.write(
        "//! Coefficients of the special-function unit's interpolator, per segment `(A, B, C)` for\n"
        "//! `(A + B * x + C * sq(x)) >> sr` ([`super::interp`] says which bits and shifts).\n"
        "//! Generated by `tests/hw/mufu/interp_fit.py` from the H200 tables in\n"
        "//! `tests/hw/h200/mufu/tables/` (every entry checked there and in `tests/hardware/approx.rs`);\n"
        "//! do not edit.\n\n"
    )
    for k, v in out.items():
        o.write(f"pub(super) const {k}: [(i64, i32, i32); {len(v)}] = [\n")
        for a, b, c in v:
            o.write(f"    ({a}, {b}, {c}),\n")
        o.write("];\n")
print("wrote", OUT)
