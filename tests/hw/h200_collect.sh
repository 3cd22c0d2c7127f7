#!/usr/bin/env bash
# Everything gpumemsim measures on a real H200, in one device call (run from the repo root):
#   1. every example and validation spec, exported as host programs into hw/progs
#      (`gpumemsim export-cuda`), built with nvcc, run for outputs and under ncu for counters;
#   2. the occupancy sweep (tests/hw/occupancy);
#   3. the .approx instruction sweep (tests/hw/approx).
# Files written to $OUT: hw.tar.gz, summary.txt, occupancy.csv, occupancy_props.txt,
# approx.tar.gz, run.log.
set -u
OUT=${OUT:-$PWD/hw-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
BASE=$(sed -n '/<!-- metrics:begin -->/,/<!-- metrics:end -->/p' "$HERE/README.md" | grep -v '<!--' | grep -v '^[[:space:]]*$' | paste -sd, -)
EXTRA=$(tr -d ' \n' < "$HERE/kernels/metrics.txt")
ALL=$(printf '%s,%s' "$BASE" "$EXTRA" | tr , '\n' | awk 'NF && !seen[$0]++' | paste -sd, -)
# Probe the extra metric names once on a tiny program; fall back to the base list if ncu rejects any.
cat > /tmp/probe.cu <<'CU'
__global__ void k(float* p) { p[threadIdx.x] += 1.0f; }
int main() { float* p; cudaMalloc(&p, 4096); k<<<1, 32>>>(p); cudaDeviceSynchronize(); return 0; }
CU
nvcc -arch=sm_90 -o /tmp/probe /tmp/probe.cu
if ncu --clock-control none --metrics "$ALL" /tmp/probe > /tmp/probe.log 2>&1 && ! grep -qi "error" /tmp/probe.log; then
    export GMS_METRICS="$ALL"
    echo "metrics: base + extra"
else
    echo "metrics: extra names rejected, base only"; tail -5 /tmp/probe.log
fi
time bash "$HERE/collect.sh" hw/progs
( cd "$HERE/occupancy" && nvcc -O3 -arch=sm_90 -o /tmp/occ occupancy.cu && /tmp/occ > "$OUT/occupancy.csv" 2> "$OUT/occupancy_props.txt"; echo "occupancy rc=$?"
  { nvcc --version | tail -2; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; date -u; } >> "$OUT/occupancy_props.txt"; wc -l "$OUT/occupancy.csv" )
( nvcc -O2 -arch=sm_90 -o /tmp/approx "$HERE/approx/approx.cu" && mkdir -p /tmp/approx_out && /tmp/approx /tmp/approx_out && tar -C /tmp -czf "$OUT/approx.tar.gz" approx_out; echo "approx rc=$?" )
ls -la "$OUT"
