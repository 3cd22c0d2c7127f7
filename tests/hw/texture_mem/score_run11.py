#!/usr/bin/env python3
"""Scores committed predictions of the pair-class rule (analyse_run11.py predict, committed before
scoring) against the H200's l1tex__data_pipe_tex_wavefronts_mem_texture.sum (helper tscat5,
issue 10). Per family: launches, exact, below the H200, above; then the misses.
Needs `zstd` on PATH. Usage: python3 tests/hw/texture_mem/score_run11.py RUN PREDICTIONS
  e.g. score_run11.py run10 tests/hw/h200/texture_mem/run11/blind/run10_predictions.txt
"""
import collections, os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a

if __name__ == '__main__':
    runs = {l['name']: l for l in a.load(sys.argv[1])}
    pred = {}
    for line in open(sys.argv[2]):
        if not line.startswith('#'):
            p = line.split()
            pred[p[0]] = (int(p[1]), int(p[2]))
    score = collections.defaultdict(lambda: [0, 0, 0, 0])
    misses = []
    for name, l in runs.items():
        g, w = pred[name]
        s = score[name.split('_')[0]]
        s[0] += 1
        s[1 + (w < l['W']) + 2 * (w > l['W'])] += 1
        if g != l['req']:
            print(f'{name}: {g} groups but {l["req"]} requests')
        if w != l['W']:
            misses.append((name, w, l['W'], l['lanes']))
    for fam in sorted(score):
        n, ex, lo, hi = score[fam]
        print(f'{fam}: {n} launches: exact {ex}, below {lo}, above {hi}')
    for name, w, hw, lanes in misses:
        print(name, 'rule', w, 'H200', hw,
              [(l, A >> 7, (A >> 7) & 3, (A >> 2) & 31) for l, A in lanes])
