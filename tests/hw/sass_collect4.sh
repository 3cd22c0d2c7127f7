#!/usr/bin/env bash
# Fourth corpus recording (tests/hw/README.md, "corpus4/"): the two corpus programs that no
# earlier recording ran (reduction_multiwarp: cg::block_tile_memory, %reserved_smem_offset_1;
# globalToShmemAsyncCopy: cp.async, cp.async.bulk, mbarrier). Earlier sessions could not record
# them because `gpumemsim export-cuda` needed a kernel gpumemsim can run; it now writes the host
# program of any kernel whose parameters it can read. As tests/hw/sass_collect3.sh, each program
# runs
#   - as the JIT of its embedded NVRTC PTX (outputs in jit/),
#   - as the committed cubin through GPUMEMSIM_MODULE (outputs in cubin/), under Nsight Compute
#     with corpus3's metric set (ncu/NAME.csv),
# and in addition
#   - under Nsight Compute with the LDGSTS / async-copy metrics this ncu knows
#     (`ncu --query-metrics` filtered for ldgsts; extra/NAME.csv, the list in extra_metrics.txt),
#   - under the SourceCounters section (per-SASS-instruction counts: source/NAME/*.csv).
#
# Usage, on the H200 machine, from a folder holding progs/c_NAME.cu (gpumemsim export-cuda SPEC)
# and cubins/c_NAME.cubin (gpumemsim sass SPEC --cubin ...):
#     OUT=DIR BUDGET=150 bash sass_collect4.sh
# Writes $OUT/corpus4_hw.tar.gz (top folder corpus4/) and $OUT/corpus4_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-150}
HERE=$(pwd)
OUT=${OUT:-$HERE/sass-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/corpus4
mkdir -p "$S/ncu" "$S/extra" "$S/source" "$S/logs" "$S/jit" "$S/cubin" "$W/build" "$W/scratch" "$W/rep"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
    echo "--- build: nvcc -O3 -arch=sm_90 -o PROG progs/PROG.cu -lcuda"
    echo "--- profile: ncu --clock-control none --csv --print-units base --metrics (metrics.txt)"
} > "$S/versions.txt"
METRICS="smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__sass_thread_inst_executed.sum,smsp__sass_thread_inst_executed_pred_on.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum"
echo "$METRICS" | tr , '\n' > "$S/metrics.txt"
# Every counter this ncu names for LDGSTS and the shared/global pipes' other async ops.
ncu --query-metrics --chip gh100 > "$S/logs/query-metrics.txt" 2>&1 || true
EXTRA=$(grep -oiE '^[a-z0-9_]*(ldgsts|ldsm|op_ld_?gsts)[a-z0-9_]*' "$S/logs/query-metrics.txt" | sort -u | sed 's/$/.sum/' | paste -sd, -)
EXTRA="smsp__inst_executed.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,l1tex__data_pipe_lsu_wavefronts.sum${EXTRA:+,$EXTRA}"
echo "$EXTRA" | tr , '\n' > "$S/extra_metrics.txt"
NAMES=$(cd progs && ls c_*.cu | sed 's/\.cu$//')
echo "$NAMES" | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    mkdir -p "$S/jit/$n" "$S/cubin/$n"
    jit=ok run=ok prof=ok extra=ok src=ok
    timeout 30 "$W/build/$n" "$S/jit/$n" "$HERE/progs" > "$S/logs/$n.jit.log" 2>&1 || jit=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 30 "$W/build/$n" "$S/cubin/$n" "$HERE/progs" > "$S/logs/$n.run.log" 2>&1 || run=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$METRICS" --log-file "$S/ncu/$n.log" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.ncu-app.log" 2>&1 || prof=FAIL
    grep -h '^"' "$S/ncu/$n.log" > "$S/ncu/$n.csv" 2>/dev/null || true
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$EXTRA" --log-file "$S/extra/$n.log" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.extra-app.log" 2>&1 || extra=FAIL
    grep -h '^"' "$S/extra/$n.log" > "$S/extra/$n.csv" 2>/dev/null || true
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 60 ncu --clock-control none --section SourceCounters \
        -c 20 -f -o "$W/rep/$n" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.source-app.log" 2>&1 || src=FAIL
    if [ -f "$W/rep/$n.ncu-rep" ]; then
        mkdir -p "$S/source/$n"
        ncu -i "$W/rep/$n.ncu-rep" --page raw --csv --print-units base > "$S/source/$n/raw.csv" 2> "$S/logs/$n.raw.err"
        for i in $(seq 0 19); do
            f="$S/source/$n/$(printf %02d "$i").csv"
            ncu -i "$W/rep/$n.ncu-rep" --launch-skip "$i" --launch-count 1 --page source --csv --print-source sass \
                > "$f" 2> "$S/logs/$n.source$i.err"
            if [ "$(grep -c . "$f")" -lt 2 ]; then rm -f "$f"; break; fi
        done
    fi
    echo "$n jit=$jit run=$run ncu=$prof extra=$extra source=$src at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
done
find "$S" -name '*.err' -size 0 -delete
(cd "$S" && find jit cubin -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$S/outputs.sha256"
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
# The full metric list is large; keep it compressed.
gzip -9 "$S/logs/query-metrics.txt"
tar -C "$W" -czf "$OUT/corpus4_hw.tar.gz" corpus4
cp "$S/summary.txt" "$OUT/corpus4_summary.txt"
cat "$S/summary.txt"
cat "$S/extra_metrics.txt"
rm -rf "$W"
