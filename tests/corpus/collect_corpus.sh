#!/usr/bin/env bash
# Runs the corpus (tests/corpus/*/*.toml) on a real H200 and packs what CI compares with.
#
# Usage, on the GPU machine (nvcc 13.0, ncu, nvidia-smi), from the repository root, with
# target/release/gpumemsim carried along (or GMS=path/to/gpumemsim):
#   OUT=/some/dir bash tests/corpus/collect_corpus.sh [NAME ...]
# Without NAME, every corpus spec. Without $OUT, ./hw-out.
# Environment:
#   GMS=target/release/gpumemsim   the binary that exports the specs
#   CORPUS_NCU=1                    0: no Nsight Compute profiling (outputs only)
#   CORPUS_NCU_BUDGET=300           seconds of profiling in all; programs after that are not profiled
#   CORPUS_EXPORT_ONLY=1            only export (no nvcc needed): checks the host programs are written
#
# Steps (one failure does not stop the others):
#   1. export: `gpumemsim export-cuda SPEC -o hw/corpus-progs/NAME.cu` for every spec (NAME = the
#      spec's file stem). The programs embed the committed PTX; `file:` inputs are read relative to
#      hw/corpus-progs (so the repository layout must be the same as here).
#   2. build, in parallel, exactly as tests/hw/collect.sh does: nvcc -O3 -arch=sm_90 -o NAME NAME.cu -lcuda;
#      `./NAME --ptx` through ptxas -arch=sm_90 -O3 -v (registers, logs/NAME.ptxas.log).
#   3. run: ./NAME outputs/NAME hw/corpus-progs (stdout+stderr: logs/NAME.run.log), 120 s each.
#   4. profile (if CORPUS_NCU=1 and budget left): ncu with tests/hw/README.md's metric list, the same
#      flags as collect.sh (ncu/NAME.csv, ncu/NAME.log).
# Writes ONE tarball $OUT/corpus.tar.gz (top folder corpus/: outputs/, ncu/, logs/, outputs.sha256,
# versions.txt, summary.txt) and $OUT/corpus_summary.txt (the device returns at most 8 files).
# Output files over 4 MiB are left out of the tarball (their SHA-256 stays in outputs.sha256).
# Unpack with: tar xzf corpus.tar.gz -C tests/hw/h200/
set -u
set -o pipefail

ROOT=$PWD
if [ ! -d tests/corpus ]; then
    echo "run from the repository root" >&2
    exit 2
fi
GMS=${GMS:-$ROOT/target/release/gpumemsim}
OUT=${OUT:-$ROOT/hw-out}
mkdir -p "$OUT"
OUT=$(cd "$OUT" && pwd)
NCU_ON=${CORPUS_NCU:-1}
NCU_BUDGET=${CORPUS_NCU_BUDGET:-300}
PROGDIR=$ROOT/hw/corpus-progs
mkdir -p "$PROGDIR"

WORK=$(mktemp -d)
STAGE=$WORK/corpus
BUILD=$WORK/build
mkdir -p "$STAGE/outputs" "$STAGE/ncu" "$STAGE/logs" "$BUILD"

if [ $# -gt 0 ]; then
    SPECS=()
    for n in "$@"; do SPECS+=("tests/corpus/$n/$n.toml"); done
else
    SPECS=(tests/corpus/*/*.toml)
fi

# 1. Export (CORPUS_PREEXPORTED=1: the programs were exported elsewhere, with the same
#    gpumemsim, by a CORPUS_EXPORT_ONLY=1 run that left hw/corpus-progs/export.txt).
NAMES=()
if [ "${CORPUS_PREEXPORTED:-0}" = 1 ]; then
    cp "$PROGDIR/export.txt" "$STAGE/export.txt"
    while read -r n status _; do
        [ "$status" = exported ] || continue
        for spec in "${SPECS[@]}"; do
            [ "$(basename "$spec" .toml)" = "$n" ] && NAMES+=("$n")
        done
    done < "$STAGE/export.txt"
else
    : > "$STAGE/export.txt"
    for spec in "${SPECS[@]}"; do
        n=$(basename "$spec" .toml)
        if "$GMS" export-cuda "$spec" -o "$PROGDIR/$n.cu" > "$STAGE/logs/$n.export.log" 2>&1; then
            NAMES+=("$n")
            echo "$n exported" >> "$STAGE/export.txt"
        else
            echo "$n EXPORT-FAILED $(head -1 "$STAGE/logs/$n.export.log")" >> "$STAGE/export.txt"
        fi
    done
fi
echo "exported ${#NAMES[@]} of ${#SPECS[@]} specs into $PROGDIR"
if [ "${CORPUS_EXPORT_ONLY:-0}" = 1 ]; then
    cat "$STAGE/export.txt"
    cp "$STAGE/export.txt" "$OUT/corpus_export.txt"
    cp "$STAGE/export.txt" "$PROGDIR/export.txt"
    rm -rf "$WORK"
    exit 0
fi

METRICS=$(sed -n '/<!-- metrics:begin -->/,/<!-- metrics:end -->/p' "$ROOT/tests/hw/README.md" \
    | grep -v '<!--' | grep -v '^[[:space:]]*$' | paste -sd, -)

{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "host: $(uname -a)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version,vbios_version,memory.total,clocks.max.sm,clocks.max.mem --format=csv,noheader 2>&1)"
    echo "gpumemsim: $("$GMS" --version 2>&1 || echo "programs exported beforehand") commit $(git -C "$ROOT" rev-parse HEAD 2>/dev/null || echo unknown)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
    echo "--- metrics"; echo "$METRICS" | tr , '\n'
} > "$STAGE/versions.txt"

# 2. Build (parallel).
JOBS=$(nproc 2>/dev/null || echo 4)
printf '%s\n' "${NAMES[@]}" | xargs -r -P "$JOBS" -I{} sh -c \
    'nvcc -O3 -arch=sm_90 -o "$1/{}" "$2/{}.cu" -lcuda > "$3/{}.build.log" 2>&1 || exit 0
     if "$1/{}" --ptx > "$1/{}.ptx" 2>> "$3/{}.build.log"; then
         ptxas -arch=sm_90 -O3 -lineinfo -v -o "$1/{}.cubin" "$1/{}.ptx" > "$3/{}.ptxas.log" 2>&1
     fi
     exit 0' \
    _ "$BUILD" "$PROGDIR" "$STAGE/logs"

SUMMARY=$STAGE/summary.txt
echo "gpumemsim corpus on $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1 | head -1), $(date -u +%Y-%m-%dT%H:%M:%SZ)" > "$SUMMARY"
printf '%-28s %-6s %-6s %-6s %s\n' program build run ncu "launches profiled" >> "$SUMMARY"
grep EXPORT-FAILED "$STAGE/export.txt" | while read -r n _ rest; do
    printf '%-28s %-6s %-6s %-6s %s\n' "$n" EXPORT - - "$rest" >> "$SUMMARY"
done

START=$(date +%s)
for n in "${NAMES[@]}"; do
    build=ok run=- prof=- launches=0
    if [ ! -x "$BUILD/$n" ]; then
        build=FAIL
    else
        mkdir -p "$STAGE/outputs/$n"
        if timeout 120 "$BUILD/$n" "$STAGE/outputs/$n" "$PROGDIR" > "$STAGE/logs/$n.run.log" 2>&1; then
            run=ok
        else
            run=FAIL
        fi
        if [ "$NCU_ON" = 1 ] && [ $(( $(date +%s) - START )) -lt "$NCU_BUDGET" ]; then
            scratch=$WORK/ncu-out/$n
            mkdir -p "$scratch"
            if timeout 240 ncu --clock-control none --csv --print-units base \
                --metrics "$METRICS" --log-file "$STAGE/ncu/$n.log" \
                "$BUILD/$n" "$scratch" "$PROGDIR" > "$STAGE/logs/$n.ncu-app.log" 2>&1; then
                prof=ok
            else
                prof=FAIL
            fi
            rm -rf "$scratch"
            if [ -f "$STAGE/ncu/$n.log" ]; then
                grep -h '^"' "$STAGE/ncu/$n.log" "$STAGE/logs/$n.ncu-app.log" > "$STAGE/ncu/$n.csv" || true
                launches=$(tail -n +2 "$STAGE/ncu/$n.csv" | cut -d, -f1 | sort -u | wc -l)
            fi
        elif [ "$NCU_ON" = 1 ]; then
            prof=budget
        fi
    fi
    printf '%-28s %-6s %-6s %-6s %s\n' "$n" "$build" "$run" "$prof" "$launches" >> "$SUMMARY"
done

(cd "$STAGE" && find outputs -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$STAGE/outputs.sha256"
find "$STAGE/outputs" -type f -size +4M -print -delete | sed "s|$STAGE/||" > "$STAGE/outputs.dropped"
tar -C "$WORK" -czf "$OUT/corpus.tar.gz" corpus
if [ "$(stat -c %s "$OUT/corpus.tar.gz")" -gt $((15 * 1024 * 1024)) ]; then
    find "$STAGE/outputs" -type f -print -delete | sed "s|$STAGE/||" >> "$STAGE/outputs.dropped"
    echo "raw outputs left out: tarball over 15 MiB (hashes kept in outputs.sha256)" >> "$SUMMARY"
    tar -C "$WORK" -czf "$OUT/corpus.tar.gz" corpus
fi
echo "corpus.tar.gz: $(stat -c %s "$OUT/corpus.tar.gz") bytes; outputs left out: $(wc -l < "$STAGE/outputs.dropped")" >> "$SUMMARY"
cp "$SUMMARY" "$OUT/corpus_summary.txt"
cat "$OUT/corpus_summary.txt"
rm -rf "$WORK"
