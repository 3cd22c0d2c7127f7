#!/usr/bin/env bash
# srange (issue 9): packs the 20 metric profiles of each program of tests/hw/h200/srange/srange.tar.gz
# into PROGRAM.csv.zst, the form the tests read (gpumemsim::testing::ncu_profiles): each profile's
# CSV unchanged, after a line `# FILE`. Usage: bash tests/hw/cas/srange_pack.sh [DIR]
# (DIR: tests/hw/h200/srange).
set -euo pipefail
D=${1:-tests/hw/h200/srange}
T=$(mktemp -d); trap 'rm -rf "$T"' EXIT
tar xzf "$D/srange.tar.gz" -C "$T"
for p in k_isa cas_probe; do
  for f in "$T"/srange/${p}_m??.csv; do echo "# $(basename "$f")"; cat "$f"; done |
    zstd -q -19 -f -o "$D/$p.csv.zst"
done
for i in 1 2 3; do cp "$T/srange/k_isa_src$i.csv" "$D/"; done
ls -l "$D"
