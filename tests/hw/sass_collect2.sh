#!/usr/bin/env bash
# Second SASS recording (tests/hw/README.md, "sass2/"): the sm_90 cubins gpumemsim runs with
# --isa sass, for the corpus programs (tests/corpus, host programs named c_NAME) and again for
# every example and validation program, now with the thread-instruction counters.
#
# Usage, on the H200 machine, from a folder holding progs/NAME.cu (gpumemsim export-cuda SPEC,
# `file:` inputs rewritten to be read relative to progs/) and cubins/NAME.cubin
# (gpumemsim sass SPEC --cubin ...):
#     OUT=DIR BUDGET=200 bash sass_collect2.sh
# Each program runs once for its outputs (GPUMEMSIM_MODULE=cubin) and once under ncu; programs
# are taken in order (the never-recorded ones first) until BUDGET seconds have passed. Writes
# $OUT/sass2_hw.tar.gz (top folder sass2/) and $OUT/sass2_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-200}
HERE=$(pwd)
OUT=${OUT:-$HERE/sass-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/sass2
mkdir -p "$S/ncu" "$S/logs" "$S/outputs" "$W/build" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$S/versions.txt"
SURE="smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,launch__registers_per_thread,launch__grid_size,launch__block_size"
MAYBE="smsp__sass_thread_inst_executed.sum,smsp__sass_thread_inst_executed_pred_on.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum"
# Never recorded first (validation programs not in the first SASS run, then the corpus), then
# the examples and validation programs again (for the thread-instruction counters).
NAMES=$( (cd progs && for n in k_isa k_warp_masks; do [ -f "$n.cu" ] && echo "$n"; done; ls c_*.cu | sed 's/\.cu$//'; \
    ls *.cu | sed 's/\.cu$//' | grep -v '^c_' | grep -vx -e k_isa -e k_warp_masks) )
echo "$NAMES" | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
METRICS="$SURE"
first=c_vectorAdd
for mm in $(echo "$MAYBE" | tr , ' '); do
    if GPUMEMSIM_MODULE=cubins/$first.cubin timeout 30 ncu --clock-control none --csv --metrics "$mm" \
        "$W/build/$first" "$W/scratch" "$HERE/progs" > "$S/logs/metric_check_$mm.log" 2>&1 \
        && ! grep -q "ERR" "$S/logs/metric_check_$mm.log"; then
        METRICS="$METRICS,$mm"
    fi
done
echo "metrics: $METRICS" >> "$S/summary.txt"
echo "$METRICS" | tr , '\n' > "$S/metrics.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    mkdir -p "$S/outputs/$n"
    run=ok; prof=ok
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 30 "$W/build/$n" "$S/outputs/$n" "$HERE/progs" > "$S/logs/$n.run.log" 2>&1 || run=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$METRICS" --log-file "$S/ncu/$n.log" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.ncu-app.log" 2>&1 || prof=FAIL
    grep -h '^"' "$S/ncu/$n.log" > "$S/ncu/$n.csv" 2>/dev/null || true
    echo "$n run=$run ncu=$prof at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
done
(cd "$S" && find outputs -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$S/outputs.sha256"
# Raw outputs of the order-dependent corpus programs (compared sorted or word by word).
mkdir -p "$W/keep"
for n in c_simpleAtomicIntrinsics c_warpAggregatedAtomicsCG; do
    [ -d "$S/outputs/$n" ] && cp -r "$S/outputs/$n" "$W/keep/"
done
rm -rf "$S/outputs"
mv "$W/keep" "$S/outputs"
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
tar -C "$W" -czf "$OUT/sass2_hw.tar.gz" sass2
cp "$S/summary.txt" "$OUT/sass2_summary.txt"
cat "$S/summary.txt"
rm -rf "$W"
