#!/usr/bin/env python3
"""scas (issue 9): reads the H200 recording of cas_probe (tests/hw/h200/cas/cas.tar.gz, unpacked
to DIR/cas) and prints, per launch, the serving order of the lanes, tries per lane, and the
Source page's counts of the CAS instructions (executed, thread instructions, L1 wavefronts
shared). Usage: cas_analyze.py DIR"""
import csv, struct, sys, os

C = [(1, 32, n) for n in (1, 2, 3, 4, 8, 16, 31, 32)] + [(1, 64, 32), (1, 128, 32), (1, 256, 32),
                                                      (2, 32, 32), (2, 128, 32), (4, 128, 32)]
D = os.path.join(sys.argv[1], "cas")


def u64s(path):
    b = open(path, "rb").read()
    return list(struct.unpack("<%dQ" % (len(b) // 8), b))


def u32s(path):
    b = open(path, "rb").read()
    return list(struct.unpack("<%dI" % (len(b) // 4), b))


def src(i, pref="src"):
    p = os.path.join(D, "%s_%02d.csv" % (pref, i))
    if not os.path.exists(p):
        return None
    rows = list(csv.reader(open(p)))
    hi = next(k for k, r in enumerate(rows) if r and r[0] == "Address")
    h = rows[hi]
    col = {n: (h.index(n) if n in h else None)
           for n in ("Source", "Instructions Executed", "Thread Instructions Executed",
                     "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal")}
    num = lambda r, n: int(r[col[n]]) if col[n] is not None else -1
    out = []
    for r in rows[hi + 1:]:
        if len(r) < len(h):
            continue
        s = r[col["Source"]].strip()
        if "CAS" in s or s.startswith("LDS") or s.startswith("LDG"):
            out.append((s.split()[0] if not s.startswith("@") else s.split()[1],
                        num(r, "Instructions Executed"), num(r, "Thread Instructions Executed"),
                        num(r, "L1 Wavefronts Shared"), num(r, "L1 Wavefronts Shared Ideal")))
    return out


runs = [r for r in sorted(os.listdir(D)) if r.startswith("run") and os.path.isdir(os.path.join(D, r))]
base = 0
for ci, (g, b, n) in enumerate(C):
    nt = g * b
    for kk, (kname, rk, tr) in enumerate([("spin_sh", "rank_spin", None), ("cas_sh", "rank_sh", "tries_sh"),
                                          ("cas_g", "rank_g", "tries_g")]):
        li = 3 * ci + kk
        print("== launch %d %s grid %d block %d lanes %d" % (li, kname, g, b, n))
        for r in runs:
            ranks = u64s(os.path.join(D, r, rk + ".bin"))[base:base + nt]
            order = [(v >> 40 if kname == "spin_sh" else v, t) for t, v in enumerate(ranks) if v != (1 << 64) - 1]
            order.sort()
            seq = [t for _, t in order]
            line = "  %s order(thread ids): %s" % (r, " ".join(map(str, seq)))
            if tr:
                tries = u32s(os.path.join(D, r, tr + ".bin"))[base:base + nt]
                line += "\n  %s tries (in order): %s  sum %d" % (r, " ".join(str(tries[t]) for t in seq), sum(tries))
            print(line)
        for pref in ("src", "src2"):
            s = src(li, pref)
            if s:
                print("  %s: %s" % (pref, "; ".join("%s ex %d th %d wf %d ideal %d" % x for x in s)))
    base += nt
for li, name in ((42, "cas_pat ok"), (43, "cas_pat fail")):
    for pref in ("src", "src2"):
        s = src(li, pref)
        if s:
            print("== launch %d %s %s" % (li, name, pref))
            for x in s:
                print("  %-14s ex %d th %d wf %d ideal %d" % x)


def pack(out_path):
    """Every instruction of every launch of both Source-page passes as one CSV (what
    tests/hardware/cas.rs reads): pass,launch,offset,source,executed,threads,wavefronts_shared,
    ideal_shared; offset from the kernel's first instruction."""
    with open(out_path, "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        w.writerow(["pass", "launch", "offset", "source", "executed", "threads", "wavefronts_shared",
                    "ideal_shared"])
        for pref, ps in (("src", 1), ("src2", 2)):
            for li in range(44):
                p = os.path.join(D, "%s_%02d.csv" % (pref, li))
                rows = list(csv.reader(open(p)))
                hi = next(k for k, r in enumerate(rows) if r and r[0] == "Address")
                h = rows[hi]
                ix = lambda n: h.index(n) if n in h else None
                c = [ix(n) for n in ("Source", "Instructions Executed", "Thread Instructions Executed",
                                      "L1 Wavefronts Shared", "L1 Wavefronts Shared Ideal")]
                body = [r for r in rows[hi + 1:] if len(r) >= len(h)]
                a0 = int(body[0][0], 16)
                for r in body:
                    v = lambda i: (r[i].replace(",", "") if i is not None and r[i] not in ("", "-") else "0")
                    w.writerow([ps, li, "0x%04x" % (int(r[0], 16) - a0), " ".join(r[c[0]].split()),
                                v(c[1]), v(c[2]), v(c[3]), v(c[4])])


if len(sys.argv) > 2 and sys.argv[2] == "--pack":
    pack(sys.argv[3])
