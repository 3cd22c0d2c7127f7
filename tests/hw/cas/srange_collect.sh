#!/usr/bin/env bash
# srange (issue 9): repeated ncu profiles of the timing-dependent launches (k_isa = isa.toml, cas_probe).
set -u
cd "$(dirname "$0")"
START=$(date +%s); HERE=$(pwd)
W=$(mktemp -d); C=$W/srange; mkdir -p "$C" "$W/scratch"
exec > >(tee "$OUT/run.log") 2>&1
{ echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
  echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
  echo "--- nvcc --version"; nvcc --version 2>&1
  echo "--- ncu --version"; ncu --version 2>&1; } > "$C/versions.txt"
M=smsp__inst_executed.sum,smsp__sass_thread_inst_executed.sum,smsp__sass_inst_executed_op_shared_atom.sum,smsp__sass_inst_executed_op_shared_ld.sum,smsp__sass_inst_executed_op_shared_st.sum,smsp__sass_inst_executed_op_global_atom.sum,smsp__sass_inst_executed_op_global_ld.sum,smsp__sass_inst_executed_op_global_st.sum,smsp__sass_inst_executed_op_global_red.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_atom.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_ld.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_atom.sum,l1tex__data_bank_conflicts_pipe_lsu_mem_shared_op_st.sum
for p in k_isa cas_probe; do nvcc -O3 -arch=sm_90 -o "$W/$p" progs/$p.cu -lcuda > "$C/build_$p.log" 2>&1; echo "build $p rc=$?"; done
for r in 1 2 3; do for p in k_isa cas_probe; do mkdir -p "$C/run$r/$p"
  GPUMEMSIM_MODULE=cubins/$p.cubin timeout 20 "$W/$p" "$C/run$r/$p" "$HERE/progs" > "$C/run$r/$p.log" 2>&1; echo "run $r $p rc=$?"; done; done
echo "ran at $(( $(date +%s) - START )) s"
for i in $(seq -w 1 20); do
  for p in k_isa cas_probe; do
    GPUMEMSIM_MODULE=cubins/$p.cubin timeout 40 ncu --clock-control none --csv --print-units base --metrics "$M" \
      --log-file "$C/${p}_m$i.csv" "$W/$p" "$W/scratch" "$HERE/progs" > "$C/${p}_m$i.app.log" 2>&1
    echo "prof $i $p rc=$? at $(( $(date +%s) - START )) s"
  done
  [ $(( $(date +%s) - START )) -gt 200 ] && break
done
for i in 1 2 3; do
  [ $(( $(date +%s) - START )) -gt 250 ] && break
  GPUMEMSIM_MODULE=cubins/k_isa.cubin timeout 30 ncu --clock-control none --section SourceCounters -k regex:isa_atom \
    -f -o "$W/src$i" "$W/k_isa" "$W/scratch" "$HERE/progs" > "$C/src$i.log" 2>&1
  ncu -i "$W/src$i.ncu-rep" --page source --csv --print-source sass > "$C/k_isa_src$i.csv" 2>&1
  echo "src $i at $(( $(date +%s) - START )) s"
done
tar -C "$W" -czf "$OUT/srange.tar.gz" srange
ls -la "$OUT"; echo "done at $(( $(date +%s) - START )) s"
