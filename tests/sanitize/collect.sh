#!/usr/bin/env bash
# Runs every planted-bug and clean program of tests/sanitize/ under compute-sanitizer's four
# tools on the H200. Run from the repository root on the GPU machine:
#   bash tests/sanitize/collect.sh PROGDIR
# PROGDIR holds `gpumemsim export-cuda tests/sanitize/NAME.toml -o PROGDIR/NAME.cu` for every
# spec (the host program embeds the spec's committed PTX and JIT-compiles it with line info).
# Writes $OUT/sanitize.tar.gz (top folder sanitize/: versions.txt, NAME.TOOL.log, NAME.plain.log).
set -u
PROGS=${1:?PROGDIR}
OUTDIR=${OUT:-./sanitize-out}
W=$(mktemp -d)/sanitize
mkdir -p "$W/bin" "$W/run" "$OUTDIR"
{
    echo "date: $(date -u '+%Y-%m-%d %H:%M:%S UTC')"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader)"
    nvcc --version
    ncu --version
    compute-sanitizer --version
    echo "build: nvcc -O3 -arch=sm_90 -lineinfo -o NAME NAME.cu -lcuda (the kernel is the embedded PTX, JIT-compiled with CU_JIT_GENERATE_LINE_INFO)"
    echo "run: compute-sanitizer --tool TOOL --show-backtrace no --print-limit 10000 ./NAME OUTDIR (TOOL = memcheck racecheck initcheck synccheck; each run under timeout 60)"
} > "$W/versions.txt" 2>&1
export W
ls "$PROGS"/*.cu | xargs -P 16 -I{} sh -c 'n=$(basename {} .cu); nvcc -O3 -arch=sm_90 -lineinfo -o "$W/bin/$n" {} -lcuda > "$W/$n.build.log" 2>&1 || echo "build failed: $n"'
jobs=()
for f in "$PROGS"/*.cu; do
    n=$(basename "$f" .cu)
    for t in plain memcheck racecheck initcheck synccheck; do jobs+=("$n $t"); done
done
printf '%s\n' "${jobs[@]}" | xargs -P 12 -L 1 sh -c '
    n=$0; t=$1; d="$W/run/$n.$t"; mkdir -p "$d"
    if [ "$t" = plain ]; then
        timeout 60 "$W/bin/$n" "$d" > "$W/$n.$t.log" 2>&1
    else
        timeout 60 compute-sanitizer --tool "$t" --show-backtrace no --print-limit 10000 "$W/bin/$n" "$d" > "$W/$n.$t.log" 2>&1
    fi
    echo "exit status: $?" >> "$W/$n.$t.log"'
tar czf "$OUTDIR/sanitize.tar.gz" --exclude=sanitize/bin --exclude=sanitize/run -C "$(dirname "$W")" sanitize
grep -c "ERROR SUMMARY" "$W"/*.log | head -200 > "$OUTDIR/summary.txt"
grep -h "ERROR SUMMARY" "$W"/*.log | sort | uniq -c >> "$OUTDIR/summary.txt"
