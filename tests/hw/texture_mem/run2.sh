#!/usr/bin/env bash
# Second texture-memory batch on the H200 (from this folder): the block-height and block-depth
# sweep of imported CUDA arrays (`layout OUTDIR sweep`), and tex_probe again with the partial-warp
# launches (TEX_PROBE_MASKS=1) under Nsight Compute with the texture counters only (a second
# recording of every launch, for the run-to-run spread). Writes $OUT/texture2.tar.gz.
set -u
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
OUT=${OUT:-$PWD/tex-out}
W=/tmp/texture2
rm -rf "$W"; mkdir -p "$W/layout" "$W/outputs" "$W/ncu" "$W/logs"
{
    date -u '+%Y-%m-%d %H:%M:%S UTC'
    nvidia-smi --query-gpu=name,driver_version --format=csv,noheader
    nvcc --version
    ncu --version
} > "$W/versions.txt" 2>&1
cp "$HERE"/layout.cu "$HERE"/tex_probe.cu "$HERE"/run2.sh "$W/logs/"
nvcc -O3 -arch=sm_90 -o "$W/layout_bin" "$HERE/layout.cu" -lcuda > "$W/logs/layout.build.log" 2>&1 &
nvcc -O3 -arch=sm_90 -lineinfo -o "$W/probe_bin" "$HERE/tex_probe.cu" > "$W/logs/probe.build.log" 2>&1 &
wait
(time timeout 150 "$W/layout_bin" "$W/layout" sweep) > "$W/logs/layout.run.log" 2>&1
echo "layout rc=$?" >> "$W/logs/layout.run.log"
(time TEX_PROBE_MASKS=1 timeout 60 "$W/probe_bin" "$W/outputs") > "$W/logs/probe.run.log" 2>&1
echo "probe rc=$?" >> "$W/logs/probe.run.log"
M=smsp__sass_inst_executed_op_texture.sum,smsp__inst_executed_op_surface_ld.sum,smsp__inst_executed_op_surface_st.sum,l1tex__t_requests_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture.sum,l1tex__t_sectors_pipe_tex_mem_texture_lookup_hit.sum,l1tex__data_pipe_tex_wavefronts_mem_texture.sum,l1tex__t_set_accesses_pipe_tex_mem_texture.sum,l1tex__texin_requests_mem_texture.sum,l1tex__t_requests_pipe_tex_mem_surface_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_ld_lookup_hit.sum,l1tex__t_requests_pipe_tex_mem_surface_op_st.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_st.sum,l1tex__t_sectors_pipe_tex_mem_surface_op_st_lookup_hit.sum,l1tex__data_pipe_tex_wavefronts_mem_surface.sum,l1tex__texin_requests_mem_surface.sum,lts__t_requests_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_sectors_srcunit_tex_op_read_lookup_hit.sum,lts__t_sectors_srcunit_tex_op_write.sum,dram__sectors_read.sum,dram__sectors_write.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,launch__grid_size,launch__block_size
echo "$M" | tr ',' '\n' > "$W/ncu/metrics.txt"
mkdir -p "$W/o2"
(time TEX_PROBE_MASKS=1 timeout 200 ncu --clock-control none --cache-control all --csv --print-units base --metrics "$M" \
    --log-file "$W/ncu/probe.log" "$W/probe_bin" "$W/o2") > "$W/logs/ncu.run.log" 2>&1
echo "ncu rc=$?" >> "$W/logs/ncu.run.log"
grep -h '^"' "$W/ncu/probe.log" > "$W/ncu/tex_probe2.csv"
(cd "$W/outputs" && sha256sum *.bin) > "$W/outputs.sha256"
rm -rf "$W/outputs" "$W/o2" "$W/layout_bin" "$W/probe_bin"
tar czf "$OUT/texture2.tar.gz" -C /tmp texture2
{
    cat "$W/versions.txt"; tail -n 4 "$W/logs/layout.run.log" "$W/logs/probe.run.log" "$W/logs/ncu.run.log"
    grep -c '^MAP' "$W/layout/layout.txt"; grep -c '^FAIL' "$W/layout/layout.txt"; grep 'fit_bad_chunks=[1-9]' "$W/layout/layout.txt" | head -5
    wc -l "$W/ncu/tex_probe2.csv"
} > "$OUT/summary2.txt" 2>&1
cat "$OUT/summary2.txt"
