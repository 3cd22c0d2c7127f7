#!/usr/bin/env bash
# tshare batch (issue 10, run16/blind): the blind test of the quad rule (analyse_run16.py), for a
# later device call. fetch_probe.cu (texw5's probe, unchanged) over gen_run16b.py's case
# list, under Nsight Compute. Writes $OUT/texture16b.tar.gz (top folder texture16b/) and $OUT/summary16b.txt.
# Run from the repo root with the folder holding this script, fetch_probe.cu, gen_run16b.py carried.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture16b
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/p" "$W/q"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
python3 "$HERE/gen_run16b.py" "$W/logs/cases.txt" > "$W/logs/gen.log" 2>&1
cp "$HERE"/fetch_probe.cu "$HERE"/run16b.sh "$HERE"/gen_run16b.py "$W/logs/"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/fetch_bin" "$HERE/fetch_probe.cu" > "$W/logs/build.log" 2>&1
echo "build rc=$?" >> "$W/logs/build.log"
(time timeout 20 "$W/fetch_bin" "$W/logs/cases.txt" "$W/q") > "$W/logs/plain.run.log" 2>&1
echo "plain rc=$?" >> "$W/logs/plain.run.log"
NC="ncu --clock-control none --cache-control all --csv --print-units base"
M=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_set_conflicts_pipe_tex_mem_texture.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,smsp__sass_inst_executed_op_texture.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
(time timeout 150 $NC --metrics "$M" --log-file "$W/ncu/f.log" "$W/fetch_bin" "$W/logs/cases.txt" "$W/p") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/f.log" > "$W/ncu/fetch_probe.csv"; grep -v '^"' "$W/ncu/f.log" | head -50 > "$W/logs/ncu_messages.log"; rm -f "$W/ncu/f.log"
gzip -9 -k "$W/ncu/fetch_probe.csv"; rm -f "$W/ncu/fetch_probe.csv"
cp "$W/p/launches.txt" "$W/launches.txt"
cmp "$W/p/launches.txt" "$W/q/launches.txt" >> "$W/logs/plain.run.log" 2>&1
rm -rf "$W/p" "$W/q" "$W/fetch_bin"
tar czf "$OUT/texture16b.tar.gz" -C /tmp texture16b
{
    cat "$W/versions.txt"; tail -n 4 "$W"/logs/*.run.log; cat "$W"/logs/build.log "$W"/logs/gen.log
    wc -l "$W"/launches.txt; zcat "$W"/ncu/fetch_probe.csv.gz | wc -l
} > "$OUT/summary16b.txt" 2>&1
cat "$OUT/summary16b.txt"
