#!/usr/bin/env bash
# Third corpus recording (tests/hw/README.md, "corpus3/"): the corpus programs added in issue 9's
# third session, each run twice on the H200, as the two earlier recordings did:
#   - JIT: the embedded NVRTC PTX, compiled by the driver (as tests/corpus/collect_corpus.sh):
#     outputs in jit/ (what `--isa ptx` is compared with);
#   - cubin: the sm_90 cubin `gpumemsim sass --cubin` made with the pinned ptxas, loaded through
#     GPUMEMSIM_MODULE (as tests/hw/sass_collect2.sh): outputs in cubin/ and Nsight Compute's
#     instruction, op_*, local, shared and thread-instruction counters in ncu/ (what
#     `--isa sass` is compared with).
#
# Usage, on the H200 machine, from a folder holding progs/c_NAME.cu (gpumemsim export-cuda SPEC,
# from a copy of tests/corpus/ beside progs/, so that `file:` inputs are ../tests/corpus/inputs/..)
# and cubins/c_NAME.cubin (gpumemsim sass SPEC --cubin ...):
#     OUT=DIR BUDGET=150 bash sass_collect3.sh
# Writes $OUT/corpus3_hw.tar.gz (top folder corpus3/) and $OUT/corpus3_summary.txt.
set -u
START=$(date +%s)
BUDGET=${BUDGET:-150}
HERE=$(pwd)
OUT=${OUT:-$HERE/sass-out}
mkdir -p "$OUT"
W=$(mktemp -d)
S=$W/corpus3
mkdir -p "$S/ncu" "$S/logs" "$S/jit" "$S/cubin" "$W/build" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "driver: $(nvidia-smi --query-gpu=driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$S/versions.txt"
METRICS="smsp__inst_executed.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_local_ld.sum,smsp__sass_inst_executed_op_local_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_red.sum,smsp__sass_inst_executed_op_shared_atom.sum,l1tex__t_requests_pipe_lsu_mem_local_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_local_op_st.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,launch__registers_per_thread,launch__grid_size,launch__block_size,smsp__sass_thread_inst_executed.sum,smsp__sass_thread_inst_executed_pred_on.sum,smsp__thread_inst_executed.sum,smsp__thread_inst_executed_pred_on.sum"
echo "$METRICS" | tr , '\n' > "$S/metrics.txt"
NAMES=$(cd progs && ls c_*.cu | sed 's/\.cu$//')
echo "$NAMES" | xargs -P "$(nproc)" -I{} sh -c 'nvcc -O3 -arch=sm_90 -o "$1/{}" "progs/{}.cu" -lcuda > "$2/{}.build.log" 2>&1 || true' _ "$W/build" "$S/logs"
echo "built after $(( $(date +%s) - START )) s" > "$S/summary.txt"
for n in $NAMES; do
    el=$(( $(date +%s) - START ))
    if [ "$el" -gt "$BUDGET" ]; then echo "$n skipped (budget, $el s)" >> "$S/summary.txt"; continue; fi
    [ -x "$W/build/$n" ] || { echo "$n build FAIL" >> "$S/summary.txt"; continue; }
    mkdir -p "$S/jit/$n" "$S/cubin/$n"
    jit=ok run=ok prof=ok
    timeout 30 "$W/build/$n" "$S/jit/$n" "$HERE/progs" > "$S/logs/$n.jit.log" 2>&1 || jit=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 30 "$W/build/$n" "$S/cubin/$n" "$HERE/progs" > "$S/logs/$n.run.log" 2>&1 || run=FAIL
    GPUMEMSIM_MODULE=cubins/$n.cubin timeout 45 ncu --clock-control none --csv --print-units base \
        --metrics "$METRICS" --log-file "$S/ncu/$n.log" "$W/build/$n" "$W/scratch" "$HERE/progs" > "$S/logs/$n.ncu-app.log" 2>&1 || prof=FAIL
    grep -h '^"' "$S/ncu/$n.log" > "$S/ncu/$n.csv" 2>/dev/null || true
    echo "$n jit=$jit run=$run ncu=$prof at $(( $(date +%s) - START )) s" >> "$S/summary.txt"
done
(cd "$S" && find jit cubin -type f -print0 | sort -z | xargs -0 -r sha256sum) > "$S/outputs.sha256"
echo "total $(( $(date +%s) - START )) s" >> "$S/summary.txt"
tar -C "$W" -czf "$OUT/corpus3_hw.tar.gz" corpus3
cp "$S/summary.txt" "$OUT/corpus3_summary.txt"
cat "$S/summary.txt"
rm -rf "$W"
