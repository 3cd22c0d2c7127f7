#!/usr/bin/env bash
# The LDC recording (tests/hw/h100/ldc/): Nsight Compute's `smsp__inst_executed_op_ldc.sum` (warp
# instructions executed: LDC, `ncu --query-metrics --chip gh100`) and `idc__requests.sum` of the
# sm_90 cubins `gpumemsim run --isa sass` runs, for every example and validation program of
# tests/common/mod.rs and every corpus program (c_NAME), with `smsp__inst_executed.sum` and the
# grid and block size to check that the launches are the ones sass2/ recorded.
#
# Usage, on the device, from a folder holding progs/NAME.cu (`gpumemsim export-cuda SPEC`) and
# cubins/NAME.cubin (`gpumemsim sass SPEC --cubin ...`), made on the development machine:
#     OUT=DIR BUDGET=300 bash ldc_collect.sh
# Writes $OUT/ldc.tar.gz (top folder ldc/) and $OUT/ldc_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-300}
HERE=$(pwd)
OUT=${OUT:-$HERE/ldc-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/ldc
mkdir -p "$S/ncu" "$S/logs" "$W/build" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$S/versions.txt"
METRICS="smsp__inst_executed.sum,smsp__inst_executed_op_ldc.sum,idc__requests.sum,launch__grid_size,launch__block_size"
echo "$METRICS" | tr , '\n' > "$S/metrics.txt"
NAMES=$(cd progs && ls *.cu | sed 's/\.cu$//')
echo "$NAMES" | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    prof=ok
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$METRICS" --log-file "$S/ncu/$n.log" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.ncu-app.log" 2>&1 || prof=FAIL
    grep -h '^"' "$S/ncu/$n.log" > "$S/ncu/$n.csv" 2>/dev/null || true
    echo "$n ncu=$prof at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
done
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
tar -C "$W" -czf "$OUT/ldc.tar.gz" ldc
cp "$S/summary.txt" "$OUT/ldc_summary.txt"
cat "$S/summary.txt"
rm -rf "$W"
