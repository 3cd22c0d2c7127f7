#!/usr/bin/env python3
"""The pair-class rule of tex1Dfetch data-stage wavefronts (helper tscat5, issue 10), fitted on
run5, run8, run8/call2 and run11 (tests/hw/h200/texture_mem/), and its scores there.
Needs `zstd` on PATH. A is a lane's byte address; "position" is the 8-byte position of A in its
128-byte line, (A>>3)&15. Per 8-lane group (lanes 8r..8r+7, one request each):
  1. Tag passes (texw5's set-conflict rule): per L1 set (address bits 7-8) the k-th distinct line
     in lane order goes to pass k. Passes never share a wavefront; each is packed alone.
  2. Conflicts between two lanes of one pass (reading the same 8-byte word never conflicts):
     - lanes of one pair (2k, 2k+1): conflict when address bits 3 and 5 are equal
       (((A^B)>>3) & 0b101 == 0), on one line or on two;
     - other lanes: conflict when they are on different lines at the same position.
  3. Split lanes: lane 2k+1 is split when lane 2k is active in the same pass and the two conflict
     (rule 2). A split lane never shares a wavefront with a lane that is not split.
  4. First fit in lane order: each lane goes to the first wavefront holding no lane it conflicts
     with (rules 2 and 3); a new wavefront when none.
  The launch's count is the sum over its groups (no sharing across groups).
Usage: python3 tests/hw/texture_mem/analyse_run11.py   (prints the scores)
       python3 tests/hw/texture_mem/analyse_run11.py predict CASES   (NAME GROUPS WAVES a line)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a

def conflict(u, v):
    (la, A), (lb, B) = u, v
    if A >> 3 == B >> 3:
        return False
    if la // 2 == lb // 2:
        return ((A ^ B) >> 3) & 0b101 == 0
    return A >> 7 != B >> 7 and (A >> 3) & 15 == (B >> 3) & 15

def pack(us):
    """Wavefronts of one tag pass: us = [(lane, byte address)] in lane order."""
    act = {u[0]: u for u in us}
    def split(u):
        l = u[0]
        return l % 2 == 1 and (l - 1) in act and conflict(act[l - 1], u)
    ws = []
    for u in us:
        s = split(u)
        for w in ws:
            if not any(conflict(u, v) or split(v) != s for v in w):
                w.append(u)
                break
        else:
            ws.append([u])
    return len(ws)

def group_waves(us):
    return sum(pack(p) for p in a.tag_passes(us))

def launch_waves(us):
    g = {}
    for u in us:
        g.setdefault(u[0] // 8, []).append(u)
    return sum(group_waves(g[k]) for k in sorted(g))

def score(run, show=False):
    res = [(launch_waves(l['lanes']), l['W'], l['req'], l['name']) for l in a.load(run)]
    for one in (True, False):
        r = [x for x in res if (x[2] == 1) == one]
        print(f"{run} {'one group ' if one else 'two or more'}: {len(r)} launches, exact "
              f"{sum(p == w for p, w, _, _ in r)}, below {sum(p < w for p, w, _, _ in r)}, "
              f"above {sum(p > w for p, w, _, _ in r)}")
    if show:
        for p, w, _, n in res:
            if p != w:
                print(f'  {n}: rule {p}, H200 {w}')

if __name__ == '__main__':
    if sys.argv[1:2] == ['predict']:
        print('# name groups waves (analyse_run11.py: the pair-class rule)')
        for line in open(sys.argv[2]):
            p = line.split()
            us = [(l, 4 * int(e)) for l, e in enumerate(p[1:33]) if int(e) >= 0]
            print(p[0], len({l // 8 for l, _ in us}), launch_waves(us))
        sys.exit(0)
    for run in ('run5', 'run8', 'run8/call2', 'run11'):
        score(run, show=True)
