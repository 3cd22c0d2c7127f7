#!/usr/bin/env bash
# The third H200 batch (2026-12-01, for the cache models): programs exported beforehand on the
# development machine into hw/cache2-progs (`gpumemsim export-cuda`: tests/hw/kernels/cache.toml as
# k_cache, sched.toml as k_sched; k_constant, k_global, k_isa, k_local again), run on the H200 with
# the metrics of tests/hw/cache/metrics2.txt (ncu's default --cache-control all) into $OUT/cache2/;
# k_cache once more with --cache-control none (caches kept warm between launches) into
# $OUT/cache2/k_cache_warm.csv; then the second carveout sweep (tests/hw/carveout/run2.sh).
# Usage: bash tests/hw/h200_collect_cache2.sh   (from the repository root, $OUT set)
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/hw-out}
mkdir -p "$OUT/cache2"
M=$(grep -v '^[[:space:]]*$' "$HERE/cache/metrics2.txt" | paste -sd, -)
time GMS_METRICS="$M" OUT="$OUT/cache2" bash "$HERE/collect.sh" hw/cache2-progs
W=$(mktemp -d)
nvcc -O3 -arch=sm_90 -o "$W/k_cache" hw/cache2-progs/k_cache.cu -lcuda > /dev/null 2>&1
mkdir -p "$W/o"
time timeout 300 ncu --clock-control none --cache-control none --csv --print-units base \
    --metrics lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum,lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum,dram__sectors_read.sum,dram__sectors_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_miss.sum \
    --log-file "$W/warm.log" "$W/k_cache" "$W/o" hw/cache2-progs > /dev/null 2>&1
grep -h '^"' "$W/warm.log" > "$OUT/cache2/k_cache_warm.csv"
time bash "$HERE/carveout/run2.sh"
ls -la "$OUT" "$OUT/cache2"
