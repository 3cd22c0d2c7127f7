#!/usr/bin/env bash
# scas (issue 9): contending CAS lanes and shared ATOMS.CAS wavefronts, one H200 device call.
# Run on the H200 from a folder holding progs/cas_probe.cu (gpumemsim export-cuda
# tests/hw/cas/cas_probe.toml) and cubins/cas_probe.cubin (gpumemsim sass ... --cubin):
#     OUT=DIR bash cas_collect.sh
# 1. The program 5 times without a profiler (run1..5/: every output buffer).
# 2. Once under ncu --clock-control none --section SourceCounters --metrics M (all 44
#    launches): raw.csv, src_NN.csv (the Source page of launch NN, SASS).
# 3. Once more under SourceCounters alone when time is left (src2_NN.csv), for run-to-run.
# Writes $OUT/cas.tar.gz (top folder cas/) and $OUT/run.log.
set -u
START=$(date +%s)
OUT=${OUT:-$PWD/cas-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1
HERE=$(pwd)
W=$(mktemp -d); C=$W/cas; mkdir -p "$C" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$C/versions.txt"
M=smsp__inst_executed.sum,smsp__sass_thread_inst_executed.sum,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__t_requests_pipe_lsu_mem_global_op_atom.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_atom.sum
nvcc -O3 -arch=sm_90 -o "$W/cas_probe" progs/cas_probe.cu -lcuda > "$C/build.log" 2>&1; echo "build rc=$?"
echo "built at $(( $(date +%s) - START )) s"
for r in 1 2 3 4 5; do
    mkdir -p "$C/run$r"
    GPUMEMSIM_MODULE=cubins/cas_probe.cubin timeout 20 "$W/cas_probe" "$C/run$r" "$HERE/progs" > "$C/run$r.log" 2>&1
    echo "run $r rc=$?"
done
echo "ran at $(( $(date +%s) - START )) s"
GPUMEMSIM_MODULE=cubins/cas_probe.cubin timeout 100 ncu --clock-control none --metrics "$M" --section SourceCounters \
    -c 60 -f -o "$W/rep1" "$W/cas_probe" "$W/scratch" "$HERE/progs" > "$C/ncu1.log" 2>&1
echo "ncu 1 rc=$? at $(( $(date +%s) - START )) s"
ncu -i "$W/rep1.ncu-rep" --page raw --csv --print-units base > "$C/raw.csv" 2> "$C/raw.err"
seq 0 43 | xargs -P 12 -I{} sh -c 'ncu -i "$1/rep1.ncu-rep" --launch-skip {} --launch-count 1 --page source --csv --print-source sass > "$2/src_$(printf %02d {}).csv" 2>&1' _ "$W" "$C"
echo "exported 1 at $(( $(date +%s) - START )) s"
if [ $(( $(date +%s) - START )) -lt 95 ]; then
    GPUMEMSIM_MODULE=cubins/cas_probe.cubin timeout 60 ncu --clock-control none --section SourceCounters \
        -c 60 -f -o "$W/rep2" "$W/cas_probe" "$W/scratch" "$HERE/progs" > "$C/ncu2.log" 2>&1
    echo "ncu 2 rc=$? at $(( $(date +%s) - START )) s"
    seq 0 43 | xargs -P 12 -I{} sh -c 'ncu -i "$1/rep2.ncu-rep" --launch-skip {} --launch-count 1 --page source --csv --print-source sass > "$2/src2_$(printf %02d {}).csv" 2>&1' _ "$W" "$C"
    echo "exported 2 at $(( $(date +%s) - START )) s"
fi
grep -h "CAST.SPIN\|CAS" "$C"/src_0[0-5].csv | head -8
tar -C "$W" -czf "$OUT/cas.tar.gz" cas
ls -la "$OUT"; echo "done at $(( $(date +%s) - START )) s"
