#!/usr/bin/env bash
# scas3 (issue 9): spin_sh (ATOMS.CAST.SPIN.64) with 5..32 warps per block, 2 and 4 blocks of 8.
# From .dev/scas3 (progs/cas_warps.cu = gpumemsim export-cuda tests/hw/cas/cas_warps.toml,
# cubins/cas_probe.cubin = tests/hw/cas/cas_probe.cubin): OUT=DIR bash go.sh
set -u
cd "$(dirname "$0")"
START=$(date +%s)
HERE=$(pwd)
W=$(mktemp -d); C=$W/warps; mkdir -p "$C"
exec > >(tee "$OUT/run.log") 2>&1
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$C/versions.txt"
N=13
nvcc -O3 -arch=sm_90 -o "$W/prog" progs/cas_warps.cu -lcuda > "$C/build.log" 2>&1; echo "build rc=$? at $(( $(date +%s) - START )) s"
for r in 1 2 3 4 5; do
    mkdir -p "$C/run$r"
    GPUMEMSIM_MODULE=cubins/cas_probe.cubin timeout 20 "$W/prog" "$C/run$r" "$HERE/progs" > "$C/run$r.log" 2>&1
    echo "run $r rc=$?"
done
for p in 1 2 3; do
    mkdir -p "$C/prof$p"
    GPUMEMSIM_MODULE=cubins/cas_probe.cubin timeout 50 ncu --clock-control none --section SourceCounters \
        -c 20 -f -o "$W/rep$p" "$W/prog" "$C/prof$p" "$HERE/progs" > "$C/ncu$p.log" 2>&1
    echo "ncu $p rc=$? at $(( $(date +%s) - START )) s"
    seq 0 $((N-1)) | xargs -P 13 -I{} sh -c 'ncu -i "$1/rep$3.ncu-rep" --launch-skip {} --launch-count 1 --page source --csv --print-source sass > "$2/src${3}_$(printf %02d {}).csv" 2>&1' _ "$W" "$C" "$p"
    echo "exported $p at $(( $(date +%s) - START )) s"
    grep -h "CAST.SPIN" "$C"/src${p}_*.csv | cut -c1-120
    [ $(( $(date +%s) - START )) -gt 120 ] && break
done
tar -C "$W" -czf "$OUT/warps.tar.gz" warps
ls -la "$OUT"; echo "done at $(( $(date +%s) - START )) s"
