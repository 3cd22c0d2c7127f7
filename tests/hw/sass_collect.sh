#!/usr/bin/env bash
# Runs the sm_90 cubins gpumemsim simulates with --isa sass on the H200 and records Nsight
# Compute's instruction counters for them (tests/hw/README.md, "SASS").
#
# Usage, on the H200 machine, from a folder holding progs/NAME.cu (gpumemsim export-cuda SPEC)
# and cubins/NAME.cubin (gpumemsim sass SPEC --cubin ...):
#     OUT=DIR BUDGET=150 bash sass_collect.sh
# Each program runs once for its outputs (GPUMEMSIM_MODULE=cubin: the very SASS of the
# committed .sass) and once under ncu; programs are taken in order until BUDGET seconds have
# passed. Writes $OUT/sass_hw.tar.gz (top folder sass/) and $OUT/sass_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-150}
HERE=$(pwd)
OUT=${OUT:-$HERE/sass-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/sass
mkdir -p "$S/ncu" "$S/logs" "$S/outputs" "$W/build" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$S/versions.txt"
SURE="smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,launch__registers_per_thread,launch__grid_size,launch__block_size"
MAYBE="smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum,smsp__sass_thread_inst_executed.sum"
# The kernels the SASS path runs first, then the ones it does not decode yet.
NAMES=$( (cd progs && ls *.cu | sed 's/\.cu$//' | grep -vx -e k_isa -e k_warp_masks -e k_shared_patterns; \
    for n in k_shared_patterns k_warp_masks k_isa; do [ -f "$n.cu" ] && echo "$n"; done) )
echo "$NAMES" | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
# Check once which of the uncertain metrics this ncu knows.
METRICS="$SURE,$MAYBE"
first=$(echo "$NAMES" | grep -x k_seed_gpu || echo "$NAMES" | head -1)
if ! GPUMEMSIM_MODULE=cubins/$first.cubin timeout 40 ncu --clock-control none --csv --print-units base \
    --metrics "$METRICS" --log-file "$S/logs/metric_check.log" "$W/build/$first" "$W/scratch" > /dev/null 2>&1; then
    METRICS="$SURE"
    for mm in $(echo "$MAYBE" | tr , ' '); do
        GPUMEMSIM_MODULE=cubins/$first.cubin timeout 30 ncu --clock-control none --csv --metrics "$mm" \
            "$W/build/$first" "$W/scratch" > /dev/null 2>&1 && METRICS="$METRICS,$mm"
    done
fi
echo "metrics: $METRICS" >> "$S/summary.txt"
echo "$METRICS" | tr , '\n' > "$S/metrics.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    mkdir -p "$S/outputs/$n" "$W/scratch"
    run=ok; prof=ok
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 30 "$W/build/$n" "$S/outputs/$n" > "$S/logs/$n.run.log" 2>&1 || run=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$METRICS" --log-file "$S/ncu/$n.log" "$W/build/$n" "$W/scratch" > "$S/logs/$n.ncu-app.log" 2>&1 || prof=FAIL
    grep -h '^"' "$S/ncu/$n.log" > "$S/ncu/$n.csv" 2>/dev/null || true
    echo "$n run=$run ncu=$prof at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
done
# Per-instruction counters (Nsight Compute's Source page) of two small programs, if time is left.
for n in k_local transpose; do
    el=$(( $(date +%s) - START ))
    [ "$el" -gt "$BUDGET" ] && break
    [ -x "$W/build/$n" ] || continue
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 40 ncu --clock-control none --section SourceCounters \
        --page source --print-source sass --csv "$W/build/$n" "$W/scratch" > "$S/ncu/$n.source.csv" 2> "$S/logs/$n.source.log" \
        && echo "$n source page ok" >> "$S/summary.txt" || echo "$n source page FAIL" >> "$S/summary.txt"
done
(cd "$S" && find outputs -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$S/outputs.sha256"
rm -rf "$S/outputs"
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
tar -C "$W" -czf "$OUT/sass_hw.tar.gz" sass
cp "$S/summary.txt" "$OUT/sass_summary.txt"
cat "$S/summary.txt"
rm -rf "$W"
