#!/usr/bin/env python3
"""Offline fit of tex1Dfetch data-stage wavefronts (helper tscat2, issue 10) over the H200 recordings
tests/hw/h200/texture_mem/run5 (481 launches) and run8 (882 launches). Needs `zstd` on PATH.

For each candidate rule it prints, over the single-request launches (one 8-lane group active),
how many launches the rule gives exactly, below and above the H200's
l1tex__data_pipe_tex_wavefronts_mem_texture.sum. The rules (A = a lane's byte address):
  bank4+pair   two lanes conflict when they read different 4-byte words in the same of 32 4-byte
               banks ((A>>2)&31), or when they are a lane pair 2k, 2k+1 reading different 8-byte
               words in the same of 8 8-byte banks ((A>>3)&7).
  bank8        any two lanes conflict when they read different 8-byte words in one 8-byte bank.
  passes(...)  first the tag passes: per L1 set (address bits 7-8) the k-th distinct line in lane
               order goes to pass k (the set-conflict rule, exact on run5); the rule then packs each
               pass by first fit in lane order; passes never share a wavefront.
  passes(eo)   tag passes as above; inside a pass the even lanes and the odd lanes are packed
               apart (first fit, bank4+pair), and the i-th even wavefront merges with the i-th
               odd one when no lane of one conflicts with a lane of the other.
  passes(split) tag passes as above; inside a pass, first fit in lane order with two additions:
               an odd lane 2k+1 never goes to a wavefront before the one lane 2k went to
               ("monotone within a pair"), and a lane placed in a later wavefront than its pair
               mate is "split"; split and non-split lanes in one wavefront also conflict on the
               8-byte bank (bank8), split with split and non-split with non-split only on
               bank4+pair.
Usage: python3 tests/hw/texture_mem/analyse_run8.py
"""
import collections, csv, io, os, subprocess
ROOT = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', 'h200', 'texture_mem')
WAVES = 'l1tex__data_pipe_tex_wavefronts_mem_texture.sum'
REQ = 'l1tex__t_requests_pipe_tex_mem_texture.sum'

def load(run):
    d = os.path.join(ROOT, run)
    txt = subprocess.run(['zstd', '-dc', os.path.join(d, 'ncu', 'fetch_probe.csv.zst')],
                         capture_output=True, text=True, check=True).stdout
    m = collections.defaultdict(dict)
    for row in csv.DictReader(io.StringIO(txt)):
        m[int(row['ID'])][row['Metric Name']] = float(row['Metric Value'].replace(',', ''))
    out = []
    for line in open(os.path.join(d, 'launches.txt')):
        p = line.split()
        no, idx = int(p[0]), [int(x) for x in p[2:34]]
        out.append(dict(name=p[1], lanes=[(l, 4 * x) for l, x in enumerate(idx) if x >= 0],
                        W=int(m[no][WAVES]), req=int(m[no][REQ])))
    return out

def bank4_pair(a, b):
    (la, A), (lb, B) = a, b
    if A >> 3 == B >> 3:
        return False
    if (A >> 2) & 31 == (B >> 2) & 31:
        return True
    return la // 2 == lb // 2 and (A >> 3) & 7 == (B >> 3) & 7

def bank8(a, b):
    (_, A), (_, B) = a, b
    return A >> 3 != B >> 3 and (A >> 3) & 7 == (B >> 3) & 7

def first_fit(us, conflict):
    ws = []
    for u in us:
        for w in ws:
            if not any(conflict(u, v) for v in w):
                w.append(u)
                break
        else:
            ws.append([u])
    return len(ws)

def tag_passes(us):
    seen, passes = {}, collections.defaultdict(list)
    for u in us:
        line = u[1] >> 7
        lines = seen.setdefault(line & 3, [])
        if line not in lines:
            lines.append(line)
        passes[lines.index(line)].append(u)
    return [passes[k] for k in sorted(passes)]

def even_odd(us, conflict):
    def ff(vs):
        ws = []
        for u in vs:
            for w in ws:
                if not any(conflict(u, v) for v in w):
                    w.append(u)
                    break
            else:
                ws.append([u])
        return ws
    e = ff([u for u in us if u[0] % 2 == 0])
    o = ff([u for u in us if u[0] % 2 == 1])
    n = abs(len(e) - len(o))
    for a, b in zip(e, o):
        n += 2 if any(conflict(x, y) for x in a for y in b) else 1
    return n

def split_rule(us):
    ws, wave_of, split = [], {}, set()
    for u in us:
        lane = u[0]
        mate = wave_of.get(lane - 1) if lane % 2 == 1 else None
        placed = None
        for i in range(mate or 0, len(ws)):
            u_split = mate is not None and i > mate
            if not any(bank4_pair(u, v) or ((v[0] in split) != u_split and bank8(u, v))
                       for v in ws[i]):
                placed = i
                break
        if placed is None:
            ws.append([])
            placed = len(ws) - 1
        ws[placed].append(u)
        wave_of[lane] = placed
        if mate is not None and placed > mate:
            split.add(lane)
    return len(ws)

RULES = {
    'bank4+pair': lambda us: first_fit(us, bank4_pair),
    'bank8': lambda us: first_fit(us, bank8),
    'passes(bank4+pair)': lambda us: sum(first_fit(p, bank4_pair) for p in tag_passes(us)),
    'passes(bank8)': lambda us: sum(first_fit(p, bank8) for p in tag_passes(us)),
    'passes(eo)': lambda us: sum(even_odd(p, bank4_pair) for p in tag_passes(us)),
    'passes(split)': lambda us: sum(split_rule(p) for p in tag_passes(us)),
}

if __name__ == '__main__':
    for run in ('run5', 'run8', 'run8/call2'):
        single = [l for l in load(run) if l['req'] == 1]
        for name, rule in RULES.items():
            r = [(rule(l['lanes']), l['W']) for l in single]
            print(f"{run} {name:20s} {len(single)} single-request launches: exact "
                  f"{sum(a == b for a, b in r)}, below {sum(a < b for a, b in r)}, above {sum(a > b for a, b in r)}")
