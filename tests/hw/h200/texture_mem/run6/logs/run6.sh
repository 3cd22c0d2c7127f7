#!/usr/bin/env bash
# Sixth texture batch (helper texw6, issue 10): tex6_probe single-warp f32x2 column quads and one-lane footprints under ncu.
# tex6_probe (3D point and trilinear fetches of chosen footprints, whole-grid 3D patterns of five
# formats and three array sizes, scattered tex1Dfetch pairs) under Nsight Compute with the
# texture pipe, L1, L2 and DRAM counters (ncu/tex6_probe.csv; launches in launches.txt, arrays in
# arrays.txt), and the PTX nvcc makes of the same source (tex6_probe.ptx, what the simulator runs).
# Writes $OUT/texture6.tar.gz (top folder texture6/) and $OUT/summary6.txt.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture6
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/p" "$W/q"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/tex6_probe.cu "$HERE"/run6.sh "$W/logs/"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/tex6_bin" "$HERE/tex6_probe.cu" > "$W/logs/build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$W/tex6_probe.ptx" "$HERE/tex6_probe.cu" > "$W/logs/ptx.log" 2>&1 &
wait
(time timeout 30 "$W/tex6_bin" "$W/q") > "$W/logs/plain.run.log" 2>&1
echo "plain rc=$?" >> "$W/logs/plain.run.log"
NC="ncu --clock-control none --cache-control all --csv --print-units base"
M=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_set_conflicts_pipe_tex_mem_texture.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum,smsp__sass_inst_executed_op_texture.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
(time timeout 120 $NC --metrics "$M" --log-file "$W/ncu/tex6.log" "$W/tex6_bin" "$W/p") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/tex6.log" > "$W/ncu/tex6_probe.csv"; grep -v '^"' "$W/ncu/tex6.log" | head -50 > "$W/logs/ncu_messages.log"; rm -f "$W/ncu/tex6.log"
cp "$W/p/launches.txt" "$W/launches.txt"; cp "$W/p/arrays.txt" "$W/arrays.txt"
cmp "$W/p/launches.txt" "$W/q/launches.txt" >> "$W/logs/plain.run.log" 2>&1
rm -rf "$W/p" "$W/q" "$W/tex6_bin"
tar czf "$OUT/texture6.tar.gz" -C /tmp texture6
{
    cat "$W/versions.txt"; tail -n 4 "$W"/logs/*.run.log; cat "$W"/logs/build.log "$W"/logs/ptx.log
    wc -l "$W"/ncu/*.csv "$W"/launches.txt
} > "$OUT/summary6.txt" 2>&1
cat "$OUT/summary6.txt"
