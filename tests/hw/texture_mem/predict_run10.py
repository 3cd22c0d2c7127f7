#!/usr/bin/env python3
"""Predictions of tscat2's split rule (analyse_run8.py: passes(split)) for run10's cases
(gen_run10.py), written BEFORE the device call so that run10 is a blind test (helper tscat3,
issue 10). Each 8-lane group is one request (run5/run8: requests = active 8-lane groups); the
prediction for a launch is the sum over its groups of the split rule on that group's lanes
(tag passes, then the split packing), i.e. no sharing across groups. For context it also gives
bank8 (first fit, the upper bound on single groups) and passes(bank4+pair) (the lower bound).
Output: one line per case: NAME GROUPS SPLIT_PER_GROUP(comma) SPLIT_TOTAL BANK8 LOWER
Usage: python3 predict_run10.py CASES > predictions.txt
"""
import os, sys
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import analyse_run8 as a

def groups(us):
    g = {}
    for u in us:
        g.setdefault(u[0] // 8, []).append(u)
    return [g[k] for k in sorted(g)]

def predict(us):
    per = [a.RULES['passes(split)'](g) for g in groups(us)]
    b8 = sum(a.RULES['bank8'](g) for g in groups(us))
    lo = sum(a.RULES['passes(bank4+pair)'](g) for g in groups(us))
    return per, b8, lo

if __name__ == '__main__':
    print('# name groups split_per_group split_total bank8 lower')
    for line in open(sys.argv[1]):
        p = line.split()
        idx = [int(x) for x in p[1:33]]
        us = [(l, 4 * e) for l, e in enumerate(idx) if e >= 0]
        per, b8, lo = predict(us)
        print(p[0], len(per), ','.join(map(str, per)), sum(per), b8, lo)
