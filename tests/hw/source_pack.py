#!/usr/bin/env python3
"""Packs what tests/hw/source_collect.sh brought back into tests/hw/h200/source/.

Usage: python3 tests/hw/source_pack.py UNPACKED/source tests/hw/h200/source

For each program NAME (a folder of UNPACKED/source holding II.csv, one Source-page export per
profiled launch, `ncu -i R --launch-skip II --launch-count 1 --page source --csv --print-source
sass`, and cuda_sass.csv, the whole report with `--print-source cuda,sass`), writes NAME.csv
(and launches.csv, one row per profiled launch of every program):
one row per SASS instruction of every profiled launch, with

- launch: the launch's index in the program (0-based, the order ncu profiled them);
- kernel: Nsight Compute's (demangled) kernel name;
- offset: the instruction's byte offset in the kernel (Address minus the kernel's first
  Address; nvdisasm's /*NNNN*/);
- file, line: the CUDA source line Nsight Compute correlates the instruction with (from
  cuda_sass.csv; empty where it names none);
- the Source page's columns, under Nsight Compute's own names, verbatim: the instruction text
  (`Source`, trimmed), the instruction counters and the memory columns of KEEP. A column the
  export did not have for that kernel (Nsight Compute leaves out the shared-memory columns of a
  kernel with no shared access, and `Divergent Branches` where there are none) is left empty.

Left out: the warp-stall sampling columns (statistical, not reproducible) and the L2 eviction
policy columns (cache-hint descriptors, not modelled). Nothing else is changed. The export of
a launch repeats its table when a kernel's code is listed twice; the copy is dropped (it is
checked to be identical).
"""
import csv
import os
import sys

KEEP = [
    "Instructions Executed",
    "Thread Instructions Executed",
    "Predicated-On Thread Instructions Executed",
    "Divergent Branches",
    "Address Space",
    "Access Operation",
    "Access Size",
    "L1 Tag Requests Global",
    "L1 Conflicts Shared N-Way",
    "L1 Wavefronts Shared Excessive",
    "L1 Wavefronts Shared",
    "L1 Wavefronts Shared Ideal",
    "L2 Theoretical Sectors Global Excessive",
    "L2 Theoretical Sectors Global",
    "L2 Theoretical Sectors Global Ideal",
]


def blocks(path):
    """(kernel name, header, rows) of each table in one per-launch export."""
    out = []
    kernel, header, rows = None, None, []
    for r in csv.reader(open(path, newline="")):
        if not r:
            continue
        if r[0] == "Kernel Name":
            if header is not None:
                out.append((kernel, header, rows))
            kernel, header, rows = r[1], None, []
        elif r[0] == "Address" and header is None:
            header = r
        elif header is not None:
            rows.append(r)
    if header is not None:
        out.append((kernel, header, rows))
    return out


def line_map(path):
    """(function, absolute address) -> (file name, line) from a `--print-source cuda,sass` export."""
    m = {}
    if not os.path.exists(path):
        return m
    fname, func, header, line = "", "", None, ""
    for r in csv.reader(open(path, newline="")):
        if not r:
            continue
        if r[0] == "File Path":
            fname, header = os.path.basename(r[1]), None
        elif r[0] == "Function Name":
            func, header = r[1], None
        elif r[0] == "Line No" and header is None:
            header = r
        elif header is not None:
            if r[0] != "":
                line = r[0]
            addr = r[2]
            if addr not in ("", "-"):
                m.setdefault((func, addr), (fname, line))
    return m


def main(src, dst):
    os.makedirs(dst, exist_ok=True)
    # launches.csv: program, launch, and the identifying columns of the raw page (raw.csv:
    # `ncu -i R --page raw --csv --print-units base`, a header row, a units row, one row a launch).
    with open(os.path.join(dst, "launches.csv"), "w", newline="") as f:
        w = csv.writer(f, lineterminator="\n")
        ids = ["ID", "Kernel Name", "Block Size", "Grid Size", "smsp__inst_executed.sum"]
        w.writerow(["program", "launch"] + ids)
        for name in sorted(os.listdir(src)):
            raw = os.path.join(src, name, "raw.csv")
            if not os.path.exists(raw):
                continue
            rows = list(csv.reader(open(raw, newline="")))
            col = {c: i for i, c in enumerate(rows[0])}
            for launch, r in enumerate(x for x in rows[1:] if x and x[0].strip().isdigit()):
                w.writerow([name, launch] + [r[col[c]] for c in ids])
    for name in sorted(os.listdir(src)):
        d = os.path.join(src, name)
        parts = sorted(f for f in os.listdir(d) if f[:2].isdigit() and f.endswith(".csv")) if os.path.isdir(d) else []
        if not parts:
            continue
        lines = line_map(os.path.join(d, "cuda_sass.csv"))
        with open(os.path.join(dst, name + ".csv"), "w", newline="") as f:
            w = csv.writer(f, lineterminator="\n")
            w.writerow(["launch", "kernel", "offset", "file", "line", "Source"] + KEEP)
            for p in parts:
                launch = int(p[:2])
                bs = blocks(os.path.join(d, p))
                assert bs, (name, p)
                for b in bs[1:]:
                    assert b == bs[0], f"{name}/{p}: the tables differ"
                kernel, header, rows = bs[0]
                col = {c: i for i, c in enumerate(header)}
                base = int(rows[0][col["Address"]], 16)
                for i, r in enumerate(rows):
                    a = int(r[col["Address"]], 16)
                    assert a - base == 16 * i, f"{name}/{p}: addresses not contiguous at row {i}"
                    fl = lines.get((kernel, r[col["Address"]]), ("", ""))
                    vals = [r[col[c]] if c in col else "" for c in KEEP]
                    w.writerow([launch, kernel, f"{a - base:#06x}", fl[0], fl[1], r[col["Source"]].strip()] + vals)


if __name__ == "__main__":
    main(sys.argv[1], sys.argv[2])
