#!/usr/bin/env python3
"""mk.py NAME REPO COMMIT LICENSE SRCROOT -- FILE:RANGES[:as=OUTNAME] ... [-- note text]
Writes tests/corpus/NAME/NAME.cu from verbatim line ranges of FILE (1-based, inclusive, comma-separated A-B).
A FILE spec with as=OUT copies the ranges into a separate file OUT (for local headers)."""
import sys, os
args = sys.argv[1:]
name, repo, commit, lic, root = args[:5]
rest = args[6:]
notes = []
if '--' in rest:
    i = rest.index('--'); notes = rest[i+1:]; rest = rest[:i]
outdir = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), name)
os.makedirs(outdir, exist_ok=True)
main_parts = []
def grab(path, ranges):
    lines = open(os.path.join(root, path), encoding='utf-8', errors='surrogateescape').read().split('\n')
    out = []
    desc = []
    for r in ranges.split(','):
        if r == 'all':
            a, b = 1, len(lines) - (1 if lines[-1] == '' else 0)
        else:
            a, b = (int(x) for x in r.split('-'))
        out += lines[a-1:b]
        desc.append(f"{a}-{b}")
    return out, ', '.join(desc)
for spec in rest:
    parts = spec.split(':')
    path, ranges = parts[0], parts[1]
    asname = parts[2][3:] if len(parts) > 2 else None
    body, desc = grab(path, ranges)
    hdr = [f"// gpumemsim corpus ({name}): copied from https://github.com/{repo}",
           f"//   file {path}, lines {desc}, commit {commit} ({lic}; the license header is kept verbatim).",
           "//   The lines are verbatim; host code (main, allocation, launches) is left out."]
    if asname:
        open(os.path.join(outdir, asname), 'w', encoding='utf-8', errors='surrogateescape').write('\n'.join(hdr + body) + '\n')
    else:
        main_parts.append('\n'.join(hdr + [f"//   Changes: {n}" for n in notes] + body))
open(os.path.join(outdir, f"{name}.cu"), 'w', encoding='utf-8', errors='surrogateescape').write('\n\n'.join(main_parts) + '\n')
print("wrote", outdir)
