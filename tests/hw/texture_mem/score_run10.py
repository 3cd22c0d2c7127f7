#!/usr/bin/env python3
"""Scores run10's committed predictions (predictions.txt, written before the device call by
predict_run10.py) against the H200's l1tex__data_pipe_tex_wavefronts_mem_texture.sum (helper
tscat3, issue 10). Per family: launches, exact, below the H200, above; and the misses.
Needs `zstd` on PATH. Usage: python3 tests/hw/texture_mem/score_run10.py
"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a

if __name__ == '__main__':
    runs = {l['name']: l for l in a.load('run10')}
    pred = {}
    for line in open(os.path.join(a.ROOT, 'run10', 'predictions.txt')):
        if line.startswith('#'):
            continue
        p = line.split()
        pred[p[0]] = dict(groups=int(p[1]), total=int(p[3]), bank8=int(p[4]), lower=int(p[5]))
    score = collections.defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for name, l in runs.items():
        q = pred[name]
        fam = name.split('_')[0]
        s = score[fam]
        s[0] += 1
        s[1 + (q['total'] < l['W']) + 2 * (q['total'] > l['W'])] += 1
        if q['groups'] != l['req']:
            print(f'{name}: {q["groups"]} groups but {l["req"]} requests')
        if q['total'] != l['W']:
            misses.append((name, q['total'], l['W'], q['lower'], q['bank8'], l['lanes']))
    for fam in sorted(score):
        n, ex, lo, hi = score[fam]
        print(f'{fam}: {n} launches: exact {ex}, below {lo}, above {hi}')
    for m in misses:
        name, t, w, lo, b8, lanes = m
        print(name, 'split', t, 'H200', w, 'lower', lo, 'bank8', b8,
              [(l, A >> 7, (A >> 7) & 3, (A >> 5) & 3, (A >> 2) & 7) for l, A in lanes])
