#!/usr/bin/env python3
"""Joins carveout3's launch lines with Nsight Compute's CSV (one row per metric) into one CSV row
per launch: the program's own columns (idx kern regs static block dyn pref set) and every metric.
Usage: compact3.py PLAIN.txt NCU_LOG > OUT.csv"""
import csv, sys

plain, log = sys.argv[1], sys.argv[2]
launches = []
for line in open(plain):
    w = line.split()
    if w and w[0] == "launch":
        d = dict(zip(w[0::2], w[1::2]))
        if d["err"] == "0":
            launches.append(d)
rows = {}
names = []
with open(log) as f:
    lines = [l for l in f if l.startswith('"')]
for r in csv.DictReader(lines):
    i = int(r["ID"])
    m = r["Metric Name"]
    if m not in names:
        names.append(m)
    rows.setdefault(i, {})[m] = r["Metric Value"].replace(",", "")
if len(rows) != len(launches):
    sys.stderr.write(f"ncu has {len(rows)} launches, the program {len(launches)}\n")
cols = ["idx", "kern", "regs", "static", "block", "dyn", "pref", "set"]
w = csv.writer(sys.stdout, lineterminator="\n")
w.writerow(cols + names)
for i, d in enumerate(launches):
    m = rows.get(i, {})
    w.writerow([d[c] for c in cols] + [m.get(n, "") for n in names])
