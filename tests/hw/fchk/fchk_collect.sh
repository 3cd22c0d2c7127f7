#!/usr/bin/env bash
# sfchk (issue 9): FCHK's rule and isa_atom's run-to-run spread, in one H200 device call.
# Run on the H200 from a folder holding fchk_probe.cu, hwREADME.md (tests/hw/README.md),
# metrics.txt (tests/hw/kernels/metrics.txt), progs/k_isa.cu (gpumemsim export-cuda
# tests/hw/kernels/isa.toml) and cubins/k_isa.cubin (gpumemsim sass ... --cubin):
#     OUT=DIR bash fchk_collect.sh
# 1. fchk_probe: timing classification of 1,048,576 divisions (time.bin, quot.bin).
# 2. fchk_probe count under ncu SourceCounters: 8 launches, the slow-path CALL's thread count
#    per launch (count_NN.csv), to check 1.
# 3. k_isa (the committed cubin) 5 times under ncu, isa_atom only, the hardware-data metrics and
#    SourceCounters (isa_atom_raw_R.csv, isa_atom_src_R.csv).
# Writes $OUT/fchk.tar.gz (top folder fchk/) and $OUT/run.log.
set -u
START=$(date +%s)
OUT=${OUT:-$PWD/fchk-out}
mkdir -p "$OUT"
exec > >(tee "$OUT/run.log") 2>&1
HERE=$(pwd)
W=$(mktemp -d); F=$W/fchk; mkdir -p "$F" "$W/scratch"
{
    echo "date: $(date -u +%Y-%m-%dT%H:%M:%SZ)"
    echo "gpu: $(nvidia-smi --query-gpu=name,driver_version --format=csv,noheader 2>&1)"
    echo "--- nvcc --version"; nvcc --version 2>&1
    echo "--- ncu --version"; ncu --version 2>&1
} > "$F/versions.txt"
BASE=$(sed -n '/<!-- metrics:begin -->/,/<!-- metrics:end -->/p' hwREADME.md | grep -v '<!--' | grep -v '^[[:space:]]*$' | paste -sd, -)
EXTRA=$(tr -d ' \n' < metrics.txt)
ALL=$(printf '%s,%s' "$BASE" "$EXTRA" | tr , '\n' | awk 'NF && !seen[$0]++' | paste -sd, -)
# Wait for the two builds by pid: a bare `wait` also waits for the `tee` of the `exec` above,
# which never ends (the first call of this script, 2026-12-02, hung there until its limit).
nvcc -O3 -arch=sm_90 -o "$W/fchk_probe" fchk_probe.cu > "$F/probe.build.log" 2>&1 & P1=$!
nvcc -O3 -arch=sm_90 -o "$W/k_isa" progs/k_isa.cu -lcuda > "$F/k_isa.build.log" 2>&1 & P2=$!
wait "$P1" "$P2"
cuobjdump -sass "$W/fchk_probe" > "$F/fchk_probe.sass" 2>&1
echo "built at $(( $(date +%s) - START )) s"
"$W/fchk_probe" "$F" > "$F/time_hist.txt" 2>&1; echo "probe_time rc=$?"
echo "timed at $(( $(date +%s) - START )) s"
timeout 90 ncu --clock-control none --section SourceCounters -k probe_count -f -o "$W/count" \
    "$W/fchk_probe" "$F" count > "$F/count.ncu.log" 2>&1; echo "count ncu rc=$?"
for i in 0 1 2 3 4 5 6 7; do
    ncu -i "$W/count.ncu-rep" --launch-skip $i --launch-count 1 --page source --csv --print-source sass > "$F/count_0$i.csv" 2>&1
done
echo "counted at $(( $(date +%s) - START )) s"
for r in 1 2 3 4 5; do
    GPUMEMSIM_MODULE=cubins/k_isa.cubin timeout 60 ncu --clock-control none --metrics "$ALL" --section SourceCounters \
        -k isa_atom -f -o "$W/isa_$r" "$W/k_isa" "$W/scratch" "$HERE/progs" > "$F/isa_$r.ncu.log" 2>&1
    echo "isa run $r rc=$? at $(( $(date +%s) - START )) s"
    ncu -i "$W/isa_$r.ncu-rep" --page raw --csv --print-units base > "$F/isa_atom_raw_$r.csv" 2>&1
    ncu -i "$W/isa_$r.ncu-rep" --page source --csv --print-source sass > "$F/isa_atom_src_$r.csv" 2>&1
    grep -h "ATOMS.CAST.SPIN" "$F/isa_atom_src_$r.csv" | head -3
done
tar -C "$W" -czf "$OUT/fchk.tar.gz" fchk
ls -la "$OUT"; echo "done at $(( $(date +%s) - START )) s"
