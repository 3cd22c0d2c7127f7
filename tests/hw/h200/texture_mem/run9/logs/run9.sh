#!/usr/bin/env bash
# Ninth texture batch (helper tf32x4, issue 10): tex9_probe partial four-channel quads (f32x4, u16x4, u8x4), 3D and 2D, under ncu.
# tex9_probe (single-warp 3D and 2D fetches where only some lanes of a quad are active, f32x4,
# u16x4, u8x4, f32x2, f32; whole-grid 3D patterns of u16x4 and u8x4) under Nsight Compute with the
# texture pipe, L1, L2 and DRAM counters (ncu/tex9_probe.csv; launches in launches.txt, arrays in
# arrays.txt, output words in outputs.txt), and the PTX nvcc makes of the same source
# (tex9_probe.ptx, what the simulator runs).
# Writes $OUT/texture9.tar.gz (top folder texture9/) and $OUT/summary9.txt.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture9
rm -rf "$W"; mkdir -p "$W/ncu" "$W/logs" "$W/p" "$W/q"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/tex9_probe.cu "$HERE"/run9.sh "$W/logs/"
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/tex9_bin" "$HERE/tex9_probe.cu" > "$W/logs/build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -ptx -o "$W/tex9_probe.ptx" "$HERE/tex9_probe.cu" > "$W/logs/ptx.log" 2>&1 &
wait
(time timeout 30 "$W/tex9_bin" "$W/q") > "$W/logs/plain.run.log" 2>&1
echo "plain rc=$?" >> "$W/logs/plain.run.log"
NC="ncu --clock-control none --cache-control all --csv --print-units base"
M=l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__t_set_conflicts_pipe_tex_mem_texture.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__m_xbar2l1tex_read_sectors.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,dram__sectors_read.sum,smsp__sass_inst_executed_op_texture.sum
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
(time timeout 100 $NC --metrics "$M" --log-file "$W/ncu/tex9.log" "$W/tex9_bin" "$W/p") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/tex9.log" > "$W/ncu/tex9_probe.csv"; grep -v '^"' "$W/ncu/tex9.log" | head -50 > "$W/logs/ncu_messages.log"; rm -f "$W/ncu/tex9.log"
cp "$W/p/launches.txt" "$W/p/arrays.txt" "$W/p/outputs.txt" "$W/"; cmp "$W/p/outputs.txt" "$W/q/outputs.txt" >> "$W/logs/plain.run.log" 2>&1
cmp "$W/p/launches.txt" "$W/q/launches.txt" >> "$W/logs/plain.run.log" 2>&1
rm -rf "$W/p" "$W/q" "$W/tex9_bin"
tar czf "$OUT/texture9.tar.gz" -C /tmp texture9
{
    cat "$W/versions.txt"; tail -n 4 "$W"/logs/*.run.log; cat "$W"/logs/build.log "$W"/logs/ptx.log
    wc -l "$W"/ncu/*.csv "$W"/launches.txt
} > "$OUT/summary9.txt" 2>&1
cat "$OUT/summary9.txt"
