#!/usr/bin/env bash
# tpair batch (issue 10, run14): single trilinear quads of 3D f32 arrays (gen_run14.py's
# case list) through tex12_probe.cu (run12's probe), under Nsight Compute. Writes $OUT/texture14.tar.gz (top
# folder texture14/) and $OUT/summary14.txt. Run from the repo root with the folder holding this
# script, tex12_probe.cu, gen_run14.py and cases_run14.txt (gen_run14.py's output) carried.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture14
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/p" "$W/q"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/tex12_probe.cu "$HERE"/run14.sh "$HERE"/gen_run14.py "$HERE"/cases_run14.txt "$W/logs/"
python3 "$HERE/gen_run14.py" "$W/logs/cases_regen.txt" > "$W/logs/gen.log" 2>&1
cmp "$HERE/cases_run14.txt" "$W/logs/cases_regen.txt" >> "$W/logs/gen.log" 2>&1 && rm -f "$W/logs/cases_regen.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/tex14_bin" "$HERE/tex12_probe.cu" > "$W/logs/build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$W/tex12_probe.ptx" "$HERE/tex12_probe.cu" > "$W/logs/ptx.log" 2>&1 &
wait
(time timeout 30 "$W/tex14_bin" "$HERE/cases_run14.txt" "$W/q") > "$W/logs/plain.run.log" 2>&1
echo "plain rc=$?" >> "$W/logs/plain.run.log"
NC="ncu --clock-control none --cache-control all --csv --print-units base"
M=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_set_conflicts_pipe_tex_mem_texture.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum,smsp__sass_inst_executed_op_texture.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
(time timeout 180 $NC --metrics "$M" --log-file "$W/ncu/tex14.log" "$W/tex14_bin" "$HERE/cases_run14.txt" "$W/p") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/tex14.log" > "$W/ncu/tex12_probe.csv"; grep -v '^"' "$W/ncu/tex14.log" | head -50 > "$W/logs/ncu_messages.log"; rm -f "$W/ncu/tex14.log"
cp "$W/p/launches.txt" "$W/p/arrays.txt" "$W/p/outputs.txt" "$W/"
cmp "$W/p/outputs.txt" "$W/q/outputs.txt" >> "$W/logs/plain.run.log" 2>&1
cmp "$W/p/launches.txt" "$W/q/launches.txt" >> "$W/logs/plain.run.log" 2>&1
rm -rf "$W/p" "$W/q" "$W/tex14_bin"
tar czf "$OUT/texture14.tar.gz" -C /tmp texture14
{
    cat "$W/versions.txt"; tail -n 4 "$W"/logs/*.run.log; cat "$W"/logs/build.log "$W"/logs/ptx.log "$W"/logs/gen.log
    wc -l "$W"/ncu/*.csv "$W"/launches.txt "$W"/outputs.txt
} > "$OUT/summary14.txt" 2>&1
cat "$OUT/summary14.txt"
