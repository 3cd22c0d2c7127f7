#!/usr/bin/env bash
# Collects H200 outputs and Nsight Compute metrics for generated CUDA host programs.
# Usage (on the GPU machine, from the repository root):
#   bash tests/hw/collect.sh PROGDIR [NAME ...]
# Each program's stdout and stderr (its gpumemsim-attr lines and JIT log) go to logs/NAME.run.log.
# Writes $OUT/hw.tar.gz and $OUT/summary.txt ($OUT defaults to ./hw-out). See tests/hw/README.md.
set -u
set -o pipefail

if [ $# -lt 1 ] || [ ! -d "$1" ]; then
    echo "usage: $0 PROGDIR [NAME ...]" >&2
    exit 2
fi
PROGDIR=$(cd "$1" && pwd)
shift
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/hw-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)

# The metric list: the lines between the markers in README.md.
METRICS=${GMS_METRICS:-$(sed -n '/<!-- metrics:begin -->/,/<!-- metrics:end -->/p' "$HERE/README.md" \
    | grep -v '<!--' | grep -v '^[[:space:]]*$' | paste -sd, -)}
if [ -z "$METRICS" ]; then
    echo "no metrics found in $HERE/README.md" >&2
    exit 2
fi

WORK=$(mktemp -d)
STAGE=$WORK/hw
BUILD=$WORK/build
mkdir -p "$STAGE/outputs" "$STAGE/ncu" "$STAGE/logs" "$BUILD"

if [ $# -gt 0 ]; then
    NAMES=("$@")
else
    NAMES=()
    for f in "$PROGDIR"/*.cu; do
        [ -e "$f" ] && NAMES+=("$(basename "$f" .cu)")
    done
fi
if [ ${#NAMES[@]} -eq 0 ]; then
    echo "no NAME.cu programs in $PROGDIR" >&2
    exit 2
fi

# Versions.
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -a)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,vbios_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
    echo "--- nvidia-smi"
    nvidia-smi 2>&1
    echo "--- nvcc --version"
    nvcc --version 2>&1
    echo "--- ncu --version"
    ncu --version 2>&1
    echo "--- metrics"
    echo "$METRICS" | tr , '\n'
} > "$STAGE/versions.txt"

# Build everything first, in parallel (one failure does not stop the others). The programs
# load their embedded PTX with the driver API (-lcuda); for the SASS the driver's JIT makes of
# it, the same PTX (`./NAME --ptx`) is also compiled offline with ptxas for sm_90.
JOBS=$(nproc 2>/dev/null || echo 4)
printf '%s\n' "${NAMES[@]}" | xargs -P "$JOBS" -I{} sh -c \
    'nvcc -O3 -arch=sm_90 -o "$1/{}" "$2/{}.cu" -lcuda > "$3/{}.build.log" 2>&1 || exit 0
     if "$1/{}" --ptx > "$1/{}.ptx" 2>> "$3/{}.build.log"; then
         ptxas -arch=sm_90 -O3 -lineinfo -v -o "$1/{}.cubin" "$1/{}.ptx" > "$3/{}.ptxas.log" 2>&1 &&
             cuobjdump -sass "$1/{}.cubin" > "$3/{}.sass" 2>&1
     else
         cuobjdump -sass "$1/{}" > "$3/{}.sass" 2>&1
     fi
     exit 0' \
    _ "$BUILD" "$PROGDIR" "$STAGE/logs"

SUMMARY=$WORK/summary.txt
echo "gpumemsim hardware collection, $(date -u +%Y-%m-%dT%H:%M:%SZ), $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1)" > "$SUMMARY"
printf '%-24s %-6s %-6s %-6s %s\n' program build run ncu "kernel launches profiled" >> "$SUMMARY"

for n in "${NAMES[@]}"; do
    build=ok run=- prof=- launches=0
    if [ ! -x "$BUILD/$n" ]; then
        build=FAIL
    else
        mkdir -p "$STAGE/outputs/$n"
        if timeout 300 "$BUILD/$n" "$STAGE/outputs/$n" "$PROGDIR" > "$STAGE/logs/$n.run.log" 2>&1; then
            run=ok
        else
            run=FAIL
        fi
        scratch=$WORK/ncu-out/$n
        mkdir -p "$scratch"
        if timeout 540 ncu --clock-control none --csv --print-units base \
            --metrics "$METRICS" --log-file "$STAGE/ncu/$n.log" \
            "$BUILD/$n" "$scratch" "$PROGDIR" > "$STAGE/logs/$n.ncu-app.log" 2>&1; then
            prof=ok
        else
            prof=FAIL
        fi
        rm -rf "$scratch"
        # CSV rows start with a quote; ncu's ==PROF== and ==WARNING== lines do not.
        if [ -f "$STAGE/ncu/$n.log" ]; then
            # (Should ncu print the report to stdout instead, take it from the app log.)
            grep -h '^"' "$STAGE/ncu/$n.log" "$STAGE/logs/$n.ncu-app.log" > "$STAGE/ncu/$n.csv" || true
            launches=$(tail -n +2 "$STAGE/ncu/$n.csv" | cut -d, -f1 | sort -u | wc -l)
        fi
    fi
    printf '%-24s %-6s %-6s %-6s %s\n' "$n" "$build" "$run" "$prof" "$launches" >> "$SUMMARY"
done

# Hashes of every output, then drop raw outputs too big to bring back.
(cd "$STAGE" && find outputs -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$STAGE/outputs.sha256"
find "$STAGE/outputs" -type f -size +4M -print -delete > "$STAGE/outputs.dropped"
cp "$SUMMARY" "$STAGE/summary.txt"

tar -C "$WORK" -czf "$OUT/hw.tar.gz" hw
if [ "$(stat -c %s "$OUT/hw.tar.gz")" -gt $((15 * 1024 * 1024)) ]; then
    find "$STAGE/outputs" -type f -print -delete >> "$STAGE/outputs.dropped"
    echo "raw outputs left out: tarball over 15 MiB (hashes kept in outputs.sha256)" >> "$SUMMARY"
    cp "$SUMMARY" "$STAGE/summary.txt"
    tar -C "$WORK" -czf "$OUT/hw.tar.gz" hw
fi
echo "hw.tar.gz: $(stat -c %s "$OUT/hw.tar.gz") bytes; outputs left out: $(wc -l < "$STAGE/outputs.dropped")" >> "$SUMMARY"
cp "$SUMMARY" "$OUT/summary.txt"
cat "$OUT/summary.txt"
rm -rf "$WORK"
