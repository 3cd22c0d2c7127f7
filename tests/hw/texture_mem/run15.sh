#!/usr/bin/env bash
# run15 (helper tnarrow, issue 10): tex13_probe on point-sampled texels of 1 to 16 bytes in two or
# three tag blocks, and a blind random set of narrow texels (cases15.txt from gen_run15.py, which
# imports gen_run13.py), under ncu with the
# texture pipe, L1, L2 and DRAM counters of run9 (ncu/tex13_probe.csv; launches in launches.txt,
# arrays in arrays.txt, output words in outputs.txt), and the PTX nvcc makes of the same source
# (tex13_probe.ptx, what the simulator runs).
# Writes $OUT/texture15.tar.gz (top folder texture15/) and $OUT/summary15.txt.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture15
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/p" "$W/q"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/tex13_probe.cu "$HERE"/run15.sh "$HERE"/gen_run15.py "$HERE"/gen_run13.py "$HERE"/cases15.txt "$W/logs/"
python3 "$HERE/gen_run15.py" "$W/cases_regen.txt" > "$W/logs/gen.log" 2>&1 && cmp "$HERE/cases15.txt" "$W/cases_regen.txt" >> "$W/logs/gen.log" 2>&1
echo "regen cmp rc=$?" >> "$W/logs/gen.log"; rm -f "$W/cases_regen.txt"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/tex13_bin" "$HERE/tex13_probe.cu" > "$W/logs/build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$W/tex13_probe.ptx" "$HERE/tex13_probe.cu" > "$W/logs/ptx.log" 2>&1 &
wait
(time timeout 30 "$W/tex13_bin" "$HERE/cases15.txt" "$W/q") > "$W/logs/plain.run.log" 2>&1
echo "plain rc=$?" >> "$W/logs/plain.run.log"
NC="ncu --clock-control none --cache-control all --csv --print-units base"
M=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_set_conflicts_pipe_tex_mem_texture.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum,smsp__sass_inst_executed_op_texture.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
(time timeout 165 $NC --metrics "$M" --log-file "$W/ncu/tex13.log" "$W/tex13_bin" "$HERE/cases15.txt" "$W/p") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/tex13.log" > "$W/ncu/tex13_probe.csv"; grep -v '^"' "$W/ncu/tex13.log" | head -50 > "$W/logs/ncu_messages.log"; rm -f "$W/ncu/tex13.log"
cp "$W/p/launches.txt" "$W/p/arrays.txt" "$W/p/outputs.txt" "$W/"; cmp "$W/p/outputs.txt" "$W/q/outputs.txt" >> "$W/logs/plain.run.log" 2>&1
cmp "$W/p/launches.txt" "$W/q/launches.txt" >> "$W/logs/plain.run.log" 2>&1
rm -rf "$W/p" "$W/q" "$W/tex13_bin"
tar czf "$OUT/texture15.tar.gz" -C /tmp texture15
{
    cat "$W/versions.txt"; cat "$W/logs/gen.log"; tail -n 4 "$W"/logs/*.run.log; cat "$W"/logs/build.log "$W"/logs/ptx.log
    wc -l "$W"/ncu/*.csv "$W"/launches.txt
} > "$OUT/summary15.txt" 2>&1
cat "$OUT/summary15.txt"
