#!/usr/bin/env bash
# Third texture-memory batch on the H200 (helper texw, from this folder), one device call:
#   1. tex_probe (TEX_PROBE_MASKS=1, the launches of run2) three more times under Nsight Compute
#      with the L1/L2 counters the exclusions name, for the run-to-run spread
#      (ncu/rep{1,2,3}.csv; with run 1 and run 2 that is 5 recordings of 66 launches, 4 of 98);
#   2. texw_probe smid: %smid of every block of the grid shapes tex_probe uses, 5 times each,
#      plainly and under ncu (smid.txt, smid_ncu.txt);
#   3. texw_probe: scattered single-warp fetches at chosen addresses under ncu with the texture
#      pipe counters (ncu/texw_probe.csv, launches in texw_launches.txt).
# Writes $OUT/texture3.tar.gz (top folder texture3/) and $OUT/summary3.txt.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture3
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/o" "$W/p" "$W/s" "$W/sn"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/tex_probe.cu "$HERE"/texw_probe.cu "$HERE"/run3.sh "$W/logs/"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/probe_bin" "$HERE/tex_probe.cu" > "$W/logs/probe.build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/texw_bin" "$HERE/texw_probe.cu" > "$W/logs/texw.build.log" 2>&1 &
wait
NC="ncu --clock-control none --cache-control all --csv --print-units base"
# 2. block-to-SM maps
(time timeout 30 "$W/texw_bin" "$W/s" smid) > "$W/logs/smid.run.log" 2>&1
echo "smid rc=$?" >> "$W/logs/smid.run.log"
(time timeout 60 $NC --metrics launch__grid_size --log-file "$W/ncu/smid.log" "$W/texw_bin" "$W/sn" smid) > "$W/logs/smid_ncu.run.log" 2>&1
echo "smid_ncu rc=$?" >> "$W/logs/smid_ncu.run.log"
cp "$W/s/smid.txt" "$W/smid.txt"; cp "$W/sn/smid.txt" "$W/smid_ncu.txt"
# 3. scattered fetches
MP=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,lts__t_sectors_srcunit_tex_op_read.sum
(time timeout 120 $NC --metrics "$MP" --log-file "$W/ncu/texw.log" "$W/texw_bin" "$W/p") > "$W/logs/texw_ncu.run.log" 2>&1
echo "texw_ncu rc=$?" >> "$W/logs/texw_ncu.run.log"
grep -h '^"' "$W/ncu/texw.log" > "$W/ncu/texw_probe.csv"; cp "$W/p/launches.txt" "$W/texw_launches.txt"
# 1. repetitions of tex_probe
M=l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
for r in 1 2 3; do
    rm -rf "$W/o"; mkdir -p "$W/o"
    (time TEX_PROBE_MASKS=1 timeout 80 $NC --metrics "$M" --log-file "$W/ncu/rep$r.log" "$W/probe_bin" "$W/o") > "$W/logs/rep$r.run.log" 2>&1
    echo "rep$r rc=$?" >> "$W/logs/rep$r.run.log"
    grep -h '^"' "$W/ncu/rep$r.log" > "$W/ncu/rep$r.csv"; rm -f "$W/ncu/rep$r.log"
done
cp "$W/o/launches.txt" "$W/launches.txt"
rm -rf "$W/o" "$W/p" "$W/s" "$W/sn" "$W/probe_bin" "$W/texw_bin"
tar czf "$OUT/texture3.tar.gz" -C /tmp texture3
{
    cat "$W/versions.txt"; tail -n 3 "$W"/logs/*.run.log; cat "$W"/logs/*.build.log
    wc -l "$W"/ncu/*.csv "$W"/smid*.txt
} > "$OUT/summary3.txt" 2>&1
cat "$OUT/summary3.txt"
