#!/usr/bin/env python3
"""The quad rule for tex1Dfetch wavefronts across 8-lane requests (helper tshare, issue 10), found
on run16 AFTER its device call (not blind), and its scores on every tex1Dfetch recording.
Needs `zstd` on PATH. It keeps the pair-class rule (analyse_run11.py) for every request, except:
  a request that is NOT the first active request of the instruction, whose active lanes all lie
  in one quad (lanes 4q..4q+3) and whose lanes fall in one tag pass, is packed first fit in lane
  order with the position rule alone: two lanes conflict when they read different 8-byte words
  on different 128-byte lines at the same 8-byte position (address bits 3-6); no pair conflict,
  no split lanes.
The count of the instruction is the sum over its requests.
Usage: python3 tests/hw/texture_mem/analyse_run16.py   (prints the scores, and any miss)
       python3 tests/hw/texture_mem/analyse_run16.py predict CASES   (NAME GROUPS WAVES a line)
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a
import analyse_run11 as r

def position_conflict(u, v):
    (_, A), (_, B) = u, v
    return A >> 3 != B >> 3 and A >> 7 != B >> 7 and (A >> 3) & 15 == (B >> 3) & 15

def groups(us):
    g = {}
    for u in us:
        g.setdefault(u[0] // 8, []).append(u)
    return [g[k] for k in sorted(g)]

def request_waves(g, later):
    passes = a.tag_passes(g)
    if later and len({l // 4 for l, _ in g}) == 1 and len(passes) == 1:
        return a.first_fit(passes[0], position_conflict)
    return r.group_waves(g)

def launch_waves(us):
    return sum(request_waves(g, i > 0) for i, g in enumerate(groups(us)))

RUNS = ('run5', 'run8', 'run8/call2', 'run10', 'run11', 'run11/call2', 'run16')

if __name__ == '__main__':
    if sys.argv[1:2] == ['predict']:
        print('# name groups waves (analyse_run16.py: the quad rule)')
        for line in open(sys.argv[2]):
            p = line.split()
            us = [(l, 4 * int(e)) for l, e in enumerate(p[1:33]) if int(e) >= 0]
            print(p[0], len(groups(us)), launch_waves(us))
        sys.exit(0)
    for run in RUNS:
        ls = a.load(run)
        res = [(launch_waves(l['lanes']), r.launch_waves(l['lanes']), l['W'], l['name']) for l in ls]
        print(f"{run}: {len(res)} launches; quad rule exact {sum(q == w for q, _, w, _ in res)}, "
              f"pair-class sum exact {sum(s == w for _, s, w, _ in res)}, the two differ on "
              f"{sum(q != s for q, s, _, _ in res)}")
        for q, s, w, n in res:
            if q != w:
                print(f'  {n}: quad rule {q}, H200 {w}')
