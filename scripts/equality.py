#!/usr/bin/env python3
"""Behaviour-equality check for refactors (issue 27): every output and every counter of every
example, validation spec, corpus program, sanitizer spec and fixture, before and after a change.

    python3 scripts/equality.py record OUTDIR [--rev REV] [--bin PATH] [--jobs N]
    python3 scripts/equality.py compare BEFORE AFTER [--allow-added FILE]

`record` builds gpumemsim at REV in a temporary worktree (or takes `--bin`, default the current
tree's `target/release/gpumemsim`), then runs each spec twice (`--isa sass`, the default ISA, and
`--isa ptx`), the sanitizer specs also with `--check racecheck,initcheck`, each in a private copy
of the repository's spec folders, and writes per run: the JSON report (`--json`), the exit code,
standard error, and the SHA-256 of every file the spec wrote under its folder.

`compare` requires the two recordings to be equal: same runs, same exit codes and messages, same
output hashes, and the same JSON reports, except that AFTER may add metrics (keys of a `metrics`
object absent from BEFORE) as `--allow-added` allows (see `read_rules`: a name pattern, a name
pattern whose value must be 0, or a rename). A metric removed or changed, or one added and not
allowed, fails. Paths of the private tree each run executed in are compared with that tree's
prefix removed.
"""

import argparse
import concurrent.futures as cf
import hashlib
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
# Spec folders copied into each run's private tree (specs read files beside them and write out/).
SPEC_DIRS = ["examples", "tests/hw/kernels", "tests/corpus", "tests/sanitize", "tests/fixtures"]
SKIP = re.compile(r"/(errors|out)/")  # error fixtures are not runnable specs


def specs():
    found = []
    for d in SPEC_DIRS:
        for p in sorted((ROOT / d).rglob("*.toml")):
            rel = p.relative_to(ROOT).as_posix()
            if SKIP.search("/" + rel) or "/fuzz/" in rel:
                continue
            found.append(rel)
    return found


def runs_for(spec):
    out = [("sass", ["--isa", "sass"]), ("ptx", ["--isa", "ptx"])]
    if spec.startswith("tests/sanitize/"):
        out.append(("check", ["--check", "racecheck,initcheck"]))
    return out


def build(rev, work):
    wt = Path(work) / "src"
    subprocess.run(["git", "-C", str(ROOT), "worktree", "add", "--detach", str(wt), rev],
                   check=True, stdout=subprocess.DEVNULL)
    try:
        subprocess.run(["cargo", "build", "--release", "--bin", "gpumemsim"], cwd=wt, check=True)
        binary = Path(work) / "gpumemsim"
        shutil.copy2(wt / "target/release/gpumemsim", binary)
        return binary
    finally:
        subprocess.run(["git", "-C", str(ROOT), "worktree", "remove", "--force", str(wt)],
                       check=False)


def sha(path):
    h = hashlib.sha256()
    with open(path, "rb") as f:
        for chunk in iter(lambda: f.read(1 << 20), b""):
            h.update(chunk)
    return h.hexdigest()


def run_one(binary, spec, tag, flags, outdir, tmp_root):
    tree = Path(tempfile.mkdtemp(dir=tmp_root))
    for d in SPEC_DIRS:
        shutil.copytree(ROOT / d, tree / d, symlinks=True,
                        ignore=shutil.ignore_patterns("out"))
    before = {p for p in tree.rglob("*") if p.is_file()}
    proc = subprocess.run([str(binary), "run", spec, "--json", *flags], cwd=tree,
                          capture_output=True, timeout=3600)
    written = {}
    for p in sorted(tree.rglob("*")):
        if p.is_file() and p not in before:
            written[p.relative_to(tree).as_posix()] = sha(p)
    shutil.rmtree(tree, ignore_errors=True)
    name = spec.replace("/", "__") + "." + tag
    rec = {
        "spec": spec,
        "flags": flags,
        "exit": proc.returncode,
        "stderr": proc.stderr.decode("utf-8", "replace"),
        "outputs": written,
    }
    try:
        rec["report"] = json.loads(proc.stdout) if proc.stdout.strip() else None
    except json.JSONDecodeError:
        rec["report"] = None
        rec["stdout"] = proc.stdout.decode("utf-8", "replace")
    (Path(outdir) / (name + ".json")).write_text(json.dumps(rec, indent=1, sort_keys=True))
    return name, proc.returncode


def record(args):
    outdir = Path(args.outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        binary = Path(args.bin) if args.bin else (
            build(args.rev, work) if args.rev else ROOT / "target/release/gpumemsim")
        jobs = [(s, t, f) for s in specs() for (t, f) in runs_for(s)]
        with cf.ThreadPoolExecutor(args.jobs) as ex:
            futs = [ex.submit(run_one, binary, s, t, f, outdir, work) for (s, t, f) in jobs]
            for fut in cf.as_completed(futs):
                name, rc = fut.result()
                print(f"{rc:3} {name}", flush=True)
    print(f"{len(jobs)} runs recorded in {outdir}")


# The private tree a run executed in (tempfile names), which reports quote in spec paths.
TREE = re.compile(r"/tmp/tmp[^/\s\"]+/tmp[^/\s\"]+/")


def norm(v):
    return TREE.sub("<tree>/", v) if isinstance(v, str) else v


def diff(a, b, path, rules, added, problems):
    """Differences of two JSON values; `rules` decides which added metrics are allowed."""
    if isinstance(a, dict) and isinstance(b, dict):
        metrics = path.endswith(".metrics")
        renamed_from = {new: old for old, new in rules["renamed"].items()} if metrics else {}
        for k in sorted(set(a) | set(b)):
            p = f"{path}.{k}"
            if metrics and k in rules["renamed"] and k not in b and rules["renamed"][k] in b:
                continue  # compared under its new name below
            if k not in b:
                problems.append(f"{p}: removed")
            elif k not in a:
                if k in renamed_from and renamed_from[k] in a:
                    added.add(f"{renamed_from[k]} -> {k}")
                    diff(a[renamed_from[k]], b[k], p, rules, added, problems)
                elif metrics and allowed(rules["added"], k, b[k]):
                    added.add(k)
                else:
                    problems.append(f"{p}: added ({json.dumps(b[k])[:80]})")
            else:
                diff(a[k], b[k], p, rules, added, problems)
    elif isinstance(a, list) and isinstance(b, list):
        if len(a) != len(b):
            problems.append(f"{path}: length {len(a)} -> {len(b)}")
        for i, (x, y) in enumerate(zip(a, b)):
            diff(x, y, f"{path}[{i}]", rules, added, problems)
    elif norm(a) != norm(b):
        problems.append(f"{path}: {json.dumps(a)[:80]} -> {json.dumps(b)[:80]}")


def allowed(patterns, name, value):
    for r, zero_only in patterns:
        if r.fullmatch(name):
            return not zero_only or value == 0
    return False


def read_rules(path):
    """`--allow-added FILE`: one rule a line, `#` comments: `REGEX` allows an added metric of
    that name with any value, `REGEX =0` only with the value 0 (a counter now reported for
    every launch), `OLD -> NEW` a renamed metric whose value must stay equal."""
    rules = {"added": [], "renamed": {}}
    if path:
        for line in Path(path).read_text().splitlines():
            line = line.split("#", 1)[0].strip()
            if not line:
                continue
            if "->" in line:
                old, new = (x.strip() for x in line.split("->", 1))
                rules["renamed"][old] = new
            elif line.endswith("=0"):
                rules["added"].append((re.compile(line[:-2].strip()), True))
            else:
                rules["added"].append((re.compile(line), False))
    return rules


def compare(args):
    rules = read_rules(args.allow_added)
    a_dir, b_dir = Path(args.before), Path(args.after)
    names = sorted({p.name for p in a_dir.glob("*.json")} | {p.name for p in b_dir.glob("*.json")})
    problems, added = [], set()
    for n in names:
        pa, pb = a_dir / n, b_dir / n
        if not pa.exists() or not pb.exists():
            problems.append(f"{n}: only in {'after' if pb.exists() else 'before'}")
            continue
        diff(json.loads(pa.read_text()), json.loads(pb.read_text()), n, rules, added, problems)
    for p in problems[:200]:
        print(p)
    print(f"{len(names)} runs compared; {len(problems)} differences; "
          f"{len(added)} metric names added: {', '.join(sorted(added)) or '-'}")
    return 1 if problems or not names else 0


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    r = sub.add_parser("record")
    r.add_argument("outdir")
    r.add_argument("--rev")
    r.add_argument("--bin")
    r.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    c = sub.add_parser("compare")
    c.add_argument("before")
    c.add_argument("after")
    c.add_argument("--allow-added")
    args = ap.parse_args()
    if args.cmd == "record":
        record(args)
        return 0
    return compare(args)


if __name__ == "__main__":
    sys.exit(main())
