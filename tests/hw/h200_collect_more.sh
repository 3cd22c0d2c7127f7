#!/usr/bin/env bash
# The second H200 batch (2026-12-01): programs exported beforehand on the development machine
# (`gpumemsim export-cuda`, the commit named in versions.txt), run on the H200 in two parts,
# each within one device call:
#   part 1: hw/progs-new (tests/hw/kernels/warp_masks.toml as k_warp_masks,
#           tests/fixtures/device_runtime/device_runtime.toml) with the base and extra metrics,
#           into $OUT/new/; then the corpus (tests/corpus, exported into hw/corpus-progs) through
#           tests/corpus/collect_corpus.sh with CORPUS_PREEXPORTED=1, into $OUT/.
#   part 2: every example and validation program (hw/cache-progs) with the L1/L2/DRAM metrics of
#           tests/hw/cache/metrics.txt (names ncu does not know on this chip are dropped and
#           listed in $OUT/cache/dropped_metrics.txt), into $OUT/cache/.
# Usage: bash tests/hw/h200_collect_more.sh 1|2 [new-only]   (from the repository root, $OUT set)
# (The first part-1 run, 10:01 UTC, lost the base metric list to a `grep` that prefixed file names;
# the hw/ files of k_warp_masks and device_runtime come from `... 1 new-only` after the fix.)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/hw-out}
metrics_of() { grep -hv '^[[:space:]]*$' "$@" | tr -d ' ' | tr ',' '\n' | awk 'NF && !seen[$0]++' | paste -sd, -; }
case "${1:-}" in
1)
    BASE=$(sed -n '/<!-- metrics:begin -->/,/<!-- metrics:end -->/p' "$HERE/README.md" | grep -v '<!--' > /tmp/base.txt; metrics_of /tmp/base.txt "$HERE/kernels/metrics.txt")
    mkdir -p "$OUT/new"
    time GMS_METRICS="$BASE" OUT="$OUT/new" bash "$HERE/collect.sh" hw/progs-new
    [ "${2:-}" = new-only ] && exit 0
    time CORPUS_PREEXPORTED=1 CORPUS_NCU_BUDGET=${CORPUS_NCU_BUDGET:-240} OUT="$OUT" \
        bash tests/corpus/collect_corpus.sh
    ;;
2)
    mkdir -p "$OUT/cache"
    ncu --query-metrics --chips gh100 2>/dev/null | awk '{print $1}' | sort -u > /tmp/known.txt
    KEEP=()
    : > "$OUT/cache/dropped_metrics.txt"
    while read -r m; do
        [ -z "$m" ] && continue
        if [ ! -s /tmp/known.txt ] || [[ $m == launch__* ]] || grep -qx "${m%%.*}" /tmp/known.txt; then KEEP+=("$m"); else echo "$m" >> "$OUT/cache/dropped_metrics.txt"; fi
    done < "$HERE/cache/metrics.txt"
    wc -l /tmp/known.txt "$OUT/cache/dropped_metrics.txt"
    M=$(printf '%s\n' "${KEEP[@]}" | paste -sd, -)
    time GMS_METRICS="$M" OUT="$OUT/cache" bash "$HERE/collect.sh" hw/cache-progs
    ;;
*)
    echo "usage: $0 1|2" >&2
    exit 2
    ;;
esac
ls -laR "$OUT"
