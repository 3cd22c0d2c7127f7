#!/usr/bin/env bash
# Texture-memory data on the H200, in one device call (from the folder holding this script):
#   1. layout.cu: the raw layout of CUDA arrays (layout.txt, maps.bin, req.txt);
#   2. tex_probe.cu: fetch patterns, their outputs, and Nsight Compute's texture, surface, L1, L2
#      and DRAM counters (ncu --clock-control none --cache-control all), one row per launch and
#      metric in the order of launches.txt.
# The metric list: every counter `ncu --query-metrics` lists whose name says texture or surface
# (l1tex__t_*, l1tex__data_*, l1tex__m_*, smsp__sass_inst_executed_op_*, smsp__inst_executed_op_*)
# as .sum, plus the L2/DRAM counters of ../cache/metrics2.txt that the cache tests use.
# Writes $OUT/texture.tar.gz (top folder texture/) and $OUT/summary.txt.
# Usage: OUT=... bash run.sh
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture
rm -rf "$W"; mkdir -p "$W/layout" "$W/outputs" "$W/ncu" "$W/logs"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/layout.cu "$HERE"/tex_probe.cu "$HERE"/run.sh "$W/logs/"
nvcc -O3 -arch=sm_90 -o "$W/layout_bin" "$HERE/layout.cu" -lcuda > "$W/logs/layout.build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/probe_bin" "$HERE/tex_probe.cu" > "$W/logs/probe.build.log" 2>&1 &
ncu --query-metrics > "$W/ncu/query_metrics.txt" 2>&1 &
wait
cuobjdump -sass "$W/probe_bin" > "$W/logs/tex_probe.sass" 2>&1
(time timeout 150 "$W/layout_bin" "$W/layout") > "$W/logs/layout.run.log" 2>&1
echo "layout rc=$?" >> "$W/logs/layout.run.log"
(time timeout 60 "$W/probe_bin" "$W/outputs") > "$W/logs/probe.run.log" 2>&1
echo "probe rc=$?" >> "$W/logs/probe.run.log"

# metric list
awk '{print $1}' "$W/ncu/query_metrics.txt" | grep -E '^(l1tex__t_|l1tex__data_|l1tex__texin|smsp__sass_inst_executed_op_|smsp__inst_executed_op_)' \
    | grep -E 'pipe_tex|op_tex|surface|texin' | grep -v -E 'rate|pct|ratio|per_' | sort -u > "$W/ncu/candidates.txt"
BASE="l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum smsp__sass_inst_executed_op_global_st.sum smsp__sass_inst_executed_op_global_ld.sum l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum l1tex__t_requests_pipe_lsu_mem_global_op_st.sum lts__t_requests_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read.sum lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum lts__t_sectors_srcunit_tex_op_read_lookup_miss.sum lts__t_requests_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write.sum lts__t_sectors_srcunit_tex_op_write_lookup_hit.sum lts__t_sectors_srcunit_tex.sum lts__t_sectors_srcunit_tex_lookup_hit.sum l1tex__m_xbar2l1tex_read_sectors.sum l1tex__m_l1tex2xbar_write_sectors.sum l1tex__t_sector_hit_rate.pct dram__sectors_read.sum dram__sectors_write.sum launch__grid_size launch__block_size launch__registers_per_thread launch__shared_mem_config_size"
M=$(for m in $(cat "$W/ncu/candidates.txt"); do echo "$m.sum"; done; for m in $BASE; do echo "$m"; done)
M=$(echo "$M" | sort -u | paste -sd, -)
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
mkdir -p "$W/o2"
(time timeout 300 ncu --clock-control none --cache-control all --csv --print-units base --metrics "$M" \
    --log-file "$W/ncu/probe.log" "$W/probe_bin" "$W/o2") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
if ! grep -q '^"' "$W/ncu/probe.log"; then
    # a metric the list should not have had: fall back to the fixed names
    M2="smsp__sass_inst_executed_op_texture.sum,l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_miss.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,$(echo $BASE | tr ' ' ',')"
    echo "$M2" | tr ',' '\n' > "$W/ncu/metrics_fallback.txt"
    (time timeout 200 ncu --clock-control none --cache-control all --csv --print-units base --metrics "$M2" \
        --log-file "$W/ncu/probe.log" "$W/probe_bin" "$W/o2") >> "$W/logs/ncu.run.log" 2>&1
    echo "ncu fallback rc=$?" >> "$W/logs/ncu.run.log"
fi
grep -h '^"' "$W/ncu/probe.log" > "$W/ncu/tex_probe.csv"
(cd "$W/outputs" && sha256sum *.bin) > "$W/outputs.sha256"
{
    cat "$W/versions.txt"
    tail -3 "$W/logs/layout.run.log" "$W/logs/probe.run.log" "$W/logs/ncu.run.log"
    grep -c '^MAP' "$W/layout/layout.txt"; grep -c '^FAIL' "$W/layout/layout.txt"
    grep -E '^(MAP|FAIL|SPARSE|deferred|sparse|texture)' "$W/layout/layout.txt" | head -40
    wc -l "$W/ncu/tex_probe.csv" "$W/ncu/metrics.txt"
    du -sh "$W"/*
} > "$OUT/summary.txt" 2>&1
tar czf "$OUT/texture.tar.gz" -C /tmp --exclude=texture/layout_bin --exclude=texture/probe_bin --exclude=texture/o2 --exclude=texture/outputs texture
tar czf "$OUT/outputs.tar.gz" -C /tmp texture/outputs
ls -la "$OUT"
cat "$OUT/summary.txt"
