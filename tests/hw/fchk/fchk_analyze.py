#!/usr/bin/env python3
"""FCHK's rule from fchk_collect.sh's data (issue 9, sfchk).

Usage: fchk_analyze.py DIR   (DIR: the unpacked fchk/ folder of fchk.tar.gz)

1. Splits the %clock64 cycles of every division (time.bin, u16 per pair) into fast and slow at
   the emptiest cycle count between the two modes, and says how many pairs lie near the split.
2. Checks the classification against the Source page: per launch of probe_count (count_0K.csv),
   the thread count of the slow-path CALL must equal the pairs classified slow in that chunk.
3. Says whether the class depends on the mantissas (16 combinations per exponent pair) and on
   nothing but the exponents, prints the slow exponents as intervals, and compares with
   gpumemsim's present rule (a port of src/exec/sass_alu.rs::fchk as of ae17721).
4. Writes DIR/slow.bin: one bit per pair (pair i: bit i % 8 of byte i / 8), slow by the split.
5. Writes the compact forms tests/hardware/fchk.rs reads (committed in tests/hw/h200/fchk/):
   DIR/calls.csv (chunk, the Source page's thread count of the slow path's CALL, copied from
   count_0K.csv) and DIR/fast.bin (one bit per pair, as slow.bin: timed under FAST_BELOW
   cycles, far below the slow path's shortest time; compress with `zstd -19`).
Pair i: ea = i >> 12 & 255, eb = i >> 4 & 255, ma = MANT[i >> 2 & 3], mb = MANT[i & 3]
(fchk_probe.cu).
"""
import csv
import struct
import sys
from array import array

MANT = [0x000000, 0x400000, 0x7FFFFF, 0x000001]
N = 1 << 20
FAST_BELOW = 130


def sim_rule(a, b):
    ea, eb = (a >> 23) & 0xFF, (b >> 23) & 0xFF
    if eb in (0, 0xFF) or ea in (0, 0xFF):
        return True
    d = ea - eb
    return not (-125 <= d <= 125) or eb >= 253 or eb <= 2 or ea >= 253 or ea <= 24


def hash32(x):
    x ^= x >> 16
    x = (x * 0x7FEB352D) & 0xFFFFFFFF
    x ^= x >> 15
    x = (x * 0x846CA68B) & 0xFFFFFFFF
    x ^= x >> 16
    return x


def pair(i):
    ea, eb = (i >> 12) & 255, (i >> 4) & 255
    h = hash32(i)
    a = ((h & 1) << 31) | (ea << 23) | MANT[(i >> 2) & 3]
    b = ((h & 2) << 30) | (eb << 23) | MANT[i & 3]
    return a, b


def intervals(xs):
    out, lo, prev = [], None, None
    for x in sorted(xs):
        if lo is None:
            lo = prev = x
        elif x == prev + 1:
            prev = x
        else:
            out.append((lo, prev))
            lo = prev = x
    if lo is not None:
        out.append((lo, prev))
    return " ".join(f"{a}" if a == b else f"{a}..{b}" for a, b in out) or "-"


def main(d):
    t = array("H")
    with open(f"{d}/time.bin", "rb") as f:
        t.frombytes(f.read())
    assert len(t) == N, len(t)
    hist = {}
    for c in t:
        hist[c] = hist.get(c, 0) + 1
    m1 = max(hist, key=hist.get)
    far = {c: n for c, n in hist.items() if c > 1.5 * m1 or c < m1 / 1.5}
    m2 = max(far, key=far.get)
    lo, hi = sorted((m1, m2))
    split = min(range(lo, hi + 1), key=lambda c: (hist.get(c, 0), abs(c - (lo + hi) / 2)))
    band = sum(n for c, n in hist.items() if lo + (hi - lo) / 4 < c < hi - (hi - lo) / 4)
    print(f"modes {lo} and {hi} cycles ({hist[lo]} and {hist[hi]} pairs); split at {split}; "
          f"{band} pairs in the middle half between the modes")
    slow = [c > split for c in t]
    print(f"slow: {sum(slow)} of {N}")

    chunk = N // 8
    calls = []
    for k in range(8):
        want = sum(slow[k * chunk:(k + 1) * chunk])
        got = None
        try:
            with open(f"{d}/count_0{k}.csv", newline="") as f:
                rows = list(csv.reader(f))
            hdr = next(r for r in rows if "Source" in r)
            si, ti = hdr.index("Source"), hdr.index("Thread Instructions Executed")
            for r in rows[rows.index(hdr) + 1:]:
                if len(r) > ti and "CALL" in r[si]:
                    got = int(r[ti].replace(",", ""))
        except (OSError, StopIteration, ValueError) as e:
            got = f"unreadable ({e})"
        calls.append(got)
        print(f"chunk {k}: timing says {want} slow, Source page CALL threads {got}: "
              f"{'EQUAL' if got == want else 'DIFFERENT'}")

    mixed = []
    by_exp = {}
    for ea in range(256):
        for eb in range(256):
            base = (ea << 12) | (eb << 4)
            cls = [slow[base | m] for m in range(16)]
            if len(set(cls)) > 1:
                mixed.append((ea, eb, "".join("S" if c else "." for c in cls)))
            by_exp[(ea, eb)] = cls
    print(f"exponent pairs whose class depends on the mantissas: {len(mixed)}")
    for m in mixed[:200]:
        print("  ea %3d eb %3d  mantissa combos (ma*4+mb) %s" % m)
    print("slow ea per eb (mantissas 1.0 / 1.0):")
    for eb in range(256):
        print(f"  eb {eb:3d}: {intervals([ea for ea in range(256) if by_exp[(ea, eb)][0]])}")
    diff = [i for i in range(N) if slow[i] != sim_rule(*pair(i))]
    print(f"pairs where gpumemsim's present rule differs: {len(diff)}")
    for i in diff[:50]:
        a, b = pair(i)
        print(f"  {a:08x} / {b:08x}: H200 {'slow' if slow[i] else 'fast'}")
    bits = bytearray(N // 8)
    for i, s in enumerate(slow):
        if s:
            bits[i >> 3] |= 1 << (i & 7)
    with open(f"{d}/slow.bin", "wb") as f:
        f.write(bits)
    with open(f"{d}/calls.csv", "w") as f:
        f.write("chunk,call_threads\n")
        for k, c in enumerate(calls):
            f.write(f"{k},{c}\n")
    fast = bytearray(N // 8)
    for i, c in enumerate(t):
        if c < FAST_BELOW:
            fast[i >> 3] |= 1 << (i & 7)
    with open(f"{d}/fast.bin", "wb") as f:
        f.write(fast)


if __name__ == "__main__":
    if len(sys.argv) != 2:
        sys.exit(__doc__)
    main(sys.argv[1])
