#!/usr/bin/env python3
"""Predictions for run16 (helper tshare, issue 10), written before the device call.
Two rules, both on top of the pair-class rule (analyse_run11.py, per 8-lane request):
  sum   the model as it stands: the sum over requests (no sharing across requests);
  cand  the candidate share rule, fitted on run5, run8, run8/call2, run10, run11, run11/call2
        (3673 of 3674 exact there; x_32 missed): one wavefront less than the sum when some
        request S that is not the first active request has exactly two active lanes, the pair
        (2k, 2k+1), in one tag pass, split (rule 2's pair conflict) and not at one 8-byte
        position on two lines, and another request has two or more tag passes. At most one
        less per instruction.
Usage: python3 predict_run16.py CASES > predictions.txt  (NAME GROUPS SUM CAND a line)
       python3 predict_run16.py score RUN   (scores both rules on a recording, by family)
"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a
import analyse_run11 as r

def groups(us):
    g = {}
    for u in us:
        g.setdefault(u[0] // 8, []).append(u)
    return [g[k] for k in sorted(g)]

def split_pairs(us):
    out = []
    for p in a.tag_passes(us):
        pa = {u[0]: u for u in p}
        for u in p:
            if u[0] % 2 and u[0] - 1 in pa and r.conflict(pa[u[0] - 1], u):
                out.append((pa[u[0] - 1], u))
    return out

def cand(us):
    gs = groups(us)
    base = sum(r.group_waves(g) for g in gs)
    npass = [len(a.tag_passes(g)) for g in gs]
    for i, g in enumerate(gs):
        if i == 0 or npass[i] != 1 or len(g) != 2:
            continue
        sp = split_pairs(g)
        if not sp or any((A >> 3) & 15 == (B >> 3) & 15 for (_, A), (_, B) in sp):
            continue
        if any(n >= 2 for j, n in enumerate(npass) if j != i):
            return base - 1
    return base

def lanes(p):
    return [(l, 4 * int(e)) for l, e in enumerate(p[1:33]) if int(e) >= 0]

if __name__ == '__main__':
    if sys.argv[1:2] == ['score']:
        c = collections.defaultdict(lambda: [0, 0, 0])
        for l in a.load(sys.argv[2]):
            fam = l['name'].split('_')[0]
            s = sum(r.group_waves(g) for g in groups(l['lanes']))
            k = cand(l['lanes'])
            c[fam][0] += 1; c[fam][1] += s == l['W']; c[fam][2] += k == l['W']
            if len(sys.argv) > 3 and (k != l['W'] or s != l['W']):
                print(f"  {l['name']}: sum {s} cand {k} H200 {l['W']}")
        for fam, (n, s, k) in sorted(c.items()):
            print(f'{fam:5s} {n:4d} launches: sum exact {s}, cand exact {k}')
        sys.exit(0)
    print('# name groups sum cand (predict_run16.py)')
    for line in open(sys.argv[1]):
        p = line.split()
        us = lanes(p)
        print(p[0], len(groups(us)), sum(r.group_waves(g) for g in groups(us)), cand(us))
