#!/usr/bin/env bash
# Nsight Compute's Source page of the sm_90 cubins `--isa sass` runs (tests/hw/README.md,
# "source/"): per SASS instruction, the counters of the SourceCounters section (instructions
# executed, thread instructions executed, predicated-on thread instructions, divergent branches,
# the L1/L2 memory columns), for the example and validation programs and some corpus programs.
#
# Usage, on the H200 machine, from a folder holding progs/NAME.cu (gpumemsim export-cuda SPEC)
# and cubins/NAME.cubin (gpumemsim sass SPEC --cubin ...), the same as tests/hw/sass_collect2.sh:
#     OUT=DIR BUDGET=150 MAXLAUNCH=20 bash source_collect.sh NAME...
# Each program runs once under
#     ncu --clock-control none --section SourceCounters --import-source yes -c MAXLAUNCH -o R
# (programs are taken in the order given until BUDGET seconds have passed), then every report is
# exported, result by result, with
#     ncu -i R --launch-skip I --launch-count 1 --page source --csv --print-source sass
# (source/NAME/II.csv) and, whole, with `--print-source sass`, `--print-source cuda,sass` and
# `--page raw --csv`.
# Writes $OUT/source_hw.tar.gz (top folder source/) and $OUT/source_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-150}
MAXLAUNCH=${MAXLAUNCH:-20}
HERE=$(pwd)
OUT=${OUT:-$HERE/source-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/source
mkdir -p "$S/logs" "$W/build" "$W/scratch" "$W/rep"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
    echo "--- profile: ncu --clock-control none --section SourceCounters --import-source yes -c $MAXLAUNCH"
} > "$S/versions.txt"
NAMES="$*"
# The cubins' line tables name the sources as /work/main/...; give ncu a path to them.
# ROOT: the repository root on this machine (default: two folders up, as .dev/NAME/).
ROOT=${ROOT:-$(cd "$HERE/../.." && pwd)}
[ -e /work/main ] || { mkdir -p /work && ln -s "$ROOT" /work/main 2>/dev/null; }
echo "sources: /work/main -> $(readlink -f /work/main)" >> "$S/versions.txt"
echo "$NAMES" | tr ' ' '\n' | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    prof=ok
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 60 ncu --clock-control none --section SourceCounters \
        --import-source yes -c "$MAXLAUNCH" -f -o "$W/rep/$n" \
        "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.ncu.log" 2>&1 || prof=FAIL
    echo "$n ncu=$prof at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
    # Export in the background while the next program is profiled.
    (
        r="$W/rep/$n.ncu-rep"
        [ -f "$r" ] || exit 0
        mkdir -p "$S/$n"
        ncu -i "$r" --page raw --csv --print-units base > "$S/$n/raw.csv" 2> "$S/$n/raw.err"
        ncu -i "$r" --page source --csv --print-source sass > "$S/$n/sass.csv" 2> "$S/$n/sass.err"
        ncu -i "$r" --page source --csv --print-source cuda,sass > "$S/$n/cuda_sass.csv" 2> "$S/$n/cuda_sass.err"
        # One result at a time; stop at the first empty export, or when the import ignores
        # the filter (the second export equal to the first).
        for i in $(seq 0 $(( MAXLAUNCH - 1 ))); do
            f="$S/$n/$(printf %02d "$i").csv"
            ncu -i "$r" --launch-skip "$i" --launch-count 1 --page source --csv --print-source sass \
                > "$f" 2> "${f%.csv}.err"
            if [ "$(grep -c . "$f")" -lt 2 ]; then rm -f "$f"; break; fi
            if [ "$i" = 1 ] && cmp -s "$f" "$S/$n/00.csv"; then rm -f "$f"; echo "$n: filter ignored" >> "$S/summary.txt"; break; fi
        done
    ) &
done
wait
echo "profiled and exported at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
find "$S" -name '*.err' -size 0 -delete
du -sh "$W/rep" >> "$S/summary.txt"
tar -C "$W" -czf "$OUT/source_hw.tar.gz" source
# The reports too, when small enough to come back.
tar -C "$W" -czf "$OUT/source_reps.tar.gz" rep
[ "$(stat -c %s "$OUT/source_reps.tar.gz")" -lt 15000000 ] || rm -f "$OUT/source_reps.tar.gz"
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
cp "$S/summary.txt" "$OUT/source_summary.txt"
cat "$S/summary.txt"
rm -rf "$W"
