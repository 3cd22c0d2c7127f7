#!/usr/bin/env bash
# On the H200, from the repository root, $OUT set: builds and profiles carveout.cu.
set -u
cd "$(dirname "$0")"
M=launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__shared_mem_per_block_driver
nvcc -O3 -arch=sm_90 -o /tmp/carveout carveout.cu 2>&1 | tail -3
/tmp/carveout > "$OUT/carveout_plain.txt"
ncu --clock-control none --csv --print-units base --metrics "$M" --log-file "$OUT/carveout_ncu.log" /tmp/carveout > "$OUT/carveout_launches.txt" 2>&1
grep -h '^"' "$OUT/carveout_ncu.log" > "$OUT/carveout_ncu.csv"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > "$OUT/carveout_versions.txt"
wc -l "$OUT"/*
