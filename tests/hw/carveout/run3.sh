#!/usr/bin/env bash
# Issue 32, one device call, from the repository root with $OUT set (the recorded run used
# D=hw/fidelity, a copy of tests/hw/carveout/{carveout3.cu,compact3.py} and
# tests/hw/texture/{sweep.cu,sweep_kernels.cu}):
#   1. carveout3.cu: launch-statistics sweep under ncu (rate measured on a 2% sample first, then
#      the share of the full sweep that fits ~200 s);
#   2. the same sample again with the per-size occupancy metrics (tolerated if ncu refuses them);
#   3. texture: `sweep unnorm` twice (compared) and `sweep refuse`;
#   4. compute-sanitizer on tests/sanitize/oob_before_large (its `gpumemsim export-cuda`
#      program in $D/san, through a copy of tests/sanitize/collect.sh).
# Everything is written under /tmp/res and comes back as $OUT/fidelity.tgz (plus run.log).
set -u
D=${D:-hw/fidelity}
W=/tmp/w; mkdir -p $W
FINAL_OUT=$OUT; OUT=/tmp/res; mkdir -p $OUT
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
cat $OUT/versions.txt
( nvcc -O3 -arch=sm_90 -o $W/carveout3 $D/carveout3.cu > $W/build_c3.log 2>&1; echo "rc $?" >> $W/build_c3.log ) &
( nvcc -O3 -arch=sm_90 -o $W/sweep $D/sweep.cu > $W/build_sw.log 2>&1; echo "rc $?" >> $W/build_sw.log ) &
wait
cat $W/build_c3.log $W/build_sw.log
M=launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__occupancy_limit_barriers,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__shared_mem_per_block_driver,launch__shared_mem_per_block,launch__occupancy_cluster_pct
NCU="ncu --clock-control none --csv --print-units base"
# Rate on a 2% sample (salt 7); if an optional metric is unknown, retry without it.
t0=$(date +%s.%N)
$NCU --metrics "$M" --log-file $W/s_ncu.log $W/carveout3 20 7 > $W/s_plain.txt 2> $W/s_err.txt
if ! grep -q launch__shared_mem_config_size $W/s_ncu.log; then
  echo "retry without optional metrics"; head -5 $W/s_ncu.log $W/s_err.txt
  M=launch__shared_mem_config_size,launch__occupancy_limit_shared_mem,launch__occupancy_limit_warps,launch__occupancy_limit_registers,launch__occupancy_limit_blocks,launch__registers_per_thread,launch__block_size,launch__grid_size,launch__shared_mem_per_block_dynamic,launch__shared_mem_per_block_static,launch__shared_mem_per_block_driver
  t0=$(date +%s.%N)
  $NCU --metrics "$M" --log-file $W/s_ncu.log $W/carveout3 20 7 > $W/s_plain.txt 2> $W/s_err.txt
fi
t1=$(date +%s.%N)
ns=$(grep -c '^launch' $W/s_plain.txt)
keep=$(python3 -c "r=$ns/max($t1-$t0-3,0.5); print(min(1000,int(r*200/13000*1000)))")
echo "sample: $ns launches in $(python3 -c "print($t1-$t0)") s; keep $keep permille"
python3 $D/compact3.py $W/s_plain.txt $W/s_ncu.log > $OUT/carveout3_sample.csv
cp $W/s_plain.txt $OUT/carveout3_sample_plain.txt
t0=$(date +%s)
timeout 300 $NCU --metrics "$M" --log-file $W/m_ncu.log $W/carveout3 $keep 0 > $W/m_plain.txt 2> $W/m_err.txt
echo "main rc $? in $(( $(date +%s) - t0 )) s, $(grep -c '^launch' $W/m_plain.txt) launches"
python3 $D/compact3.py $W/m_plain.txt $W/m_ncu.log > $OUT/carveout3_ncu.csv
cp $W/m_plain.txt $OUT/carveout3_plain.txt; gzip -c $W/m_ncu.log > $OUT/carveout3_ncu_raw.log.gz
tail -3 $W/m_err.txt
# Texture.
$W/sweep $W/unnorm.bin unnorm > $W/tex.log 2>&1; echo "unnorm rc $?" >> $W/tex.log
$W/sweep $W/unnorm2.bin unnorm >> $W/tex.log 2>&1; echo "unnorm2 rc $?" >> $W/tex.log
cmp $W/unnorm.bin $W/unnorm2.bin >> $W/tex.log 2>&1; echo "cmp rc $?" >> $W/tex.log
$W/sweep $W/r.bin refuse > $OUT/tex_refuse.txt 2>> $W/tex.log; echo "refuse rc $?" >> $W/tex.log
sha256sum $W/unnorm.bin >> $W/tex.log
zstd -q -19 -T0 $W/unnorm.bin -o $OUT/sweep_unnorm.bin.zst 2>>$W/tex.log || xz -9 -c $W/unnorm.bin > $OUT/sweep_unnorm.bin.xz
cp $W/tex.log $OUT/tex.log
grep -v '^launch' $W/m_plain.txt | head -20
tail -8 $W/tex.log
grep -c . $OUT/tex_refuse.txt; awk '{print $NF}' $OUT/tex_refuse.txt | sort | uniq -c
OUT=$OUT/san bash $D/collect.sh $D/san > $W/san.log 2>&1; echo "sanitize rc $?"; cat /tmp/res/san/summary.txt
ls -la $OUT $OUT/san
tar czf $FINAL_OUT/fidelity.tgz -C /tmp res
