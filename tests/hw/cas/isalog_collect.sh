#!/usr/bin/env bash
# scas2 (issue 9): isa_atom's ATOMS.CAST.SPIN.64 serving order under the profiler.
# From a folder holding progs/isa_atom_log.cu (gpumemsim export-cuda tests/hw/cas/isa_atom_log.toml)
# and cubins/isa_atom_log.cubin (gpumemsim sass ... --cubin): OUT=DIR bash isalog_collect.sh
set -u
cd "$(dirname "$0")"
START=$(date +%s)
HERE=$(pwd)
W=$(mktemp -d); C=$W/isalog; mkdir -p "$C"
exec > >(tee "$OUT/run.log") 2>&1
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$C/versions.txt"
nvcc -O3 -arch=sm_90 -o "$W/prog" progs/isa_atom_log.cu -lcuda > "$C/build.log" 2>&1; echo "build rc=$? at $(( $(date +%s) - START )) s"
for r in 1 2 3; do
    mkdir -p "$C/run$r"
    GPUMEMSIM_MODULE=cubins/isa_atom_log.cubin timeout 20 "$W/prog" "$C/run$r" "$HERE/progs" > "$C/run$r.log" 2>&1
    echo "run $r rc=$?"
done
for p in 1 2 3; do
    mkdir -p "$C/prof$p"
    GPUMEMSIM_MODULE=cubins/isa_atom_log.cubin timeout 40 ncu --clock-control none --section SourceCounters \
        -c 10 -f -o "$W/rep$p" "$W/prog" "$C/prof$p" "$HERE/progs" > "$C/ncu$p.log" 2>&1
    echo "ncu $p rc=$? at $(( $(date +%s) - START )) s"
    for l in 1 3; do
        ncu -i "$W/rep$p.ncu-rep" --launch-skip $l --launch-count 1 --page source --csv --print-source sass > "$C/src${p}_$l.csv" 2>&1
    done
    grep -h "CAST.SPIN" "$C"/src${p}_1.csv "$C"/src${p}_3.csv | cut -c1-160
    [ $(( $(date +%s) - START )) -gt 110 ] && break
done
tar -C "$W" -czf "$OUT/isalog.tar.gz" isalog
ls -la "$OUT"; echo "done at $(( $(date +%s) - START )) s"
