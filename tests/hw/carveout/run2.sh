#!/usr/bin/env bash
# On the H200, from the repository root, $OUT set: builds and profiles carveout2.cu.
set -u
cd "$(dirname "$0")"
M=launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__registers_per_thread,launch__block_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__shared_mem_per_block_driver
nvcc -O3 -arch=sm_90 -o /tmp/carveout2 carveout2.cu 2>&1 | tail -3
/tmp/carveout2 > "$OUT/carveout2_plain.txt"
ncu --clock-control none --csv --print-units base --metrics "$M" --log-file /tmp/carveout2_ncu.log /tmp/carveout2 > /dev/null 2>&1
grep -h '^"' /tmp/carveout2_ncu.log | gzip -9 > "$OUT/carveout2_ncu.csv.gz"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > "$OUT/carveout2_versions.txt"
