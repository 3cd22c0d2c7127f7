#!/bin/bash
# Second H200 run (issue 10): the surface cases and the exported rotation program.
W=/tmp/texture2; mkdir -p $W; cd "$(dirname "$0")"
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $W/versions.txt 2>&1
( nvcc -O3 -arch=sm_90 -o /tmp/sweep tests/hw/texture/sweep.cu > $W/build.log 2>&1; echo "sweep build rc $?" >> $W/build.log ) &
( nvcc -O3 -arch=sm_90 -o /tmp/rotate_export tests/hw/texture/rotate_export.cu -lcuda > $W/build_export.log 2>&1; echo "export build rc $?" >> $W/build_export.log ) &
wait
/tmp/sweep $W/sweep_surf.bin surf > $W/sweep_surf.log 2>&1; echo "surf rc $?" >> $W/sweep_surf.log
/tmp/sweep $W/sweep_risky.bin risky > $W/sweep_risky.log 2>&1; echo "risky rc $?" >> $W/sweep_risky.log
mkdir -p /tmp/rexp && /tmp/rotate_export /tmp/rexp > $W/rotate_export.log 2>&1; echo "export rc $?" >> $W/rotate_export.log
(cd /tmp/rexp && sha256sum * >> $W/rotate_export.log)
cat $W/*.log $W/versions.txt > $OUT/summary.txt; ls -la $W >> $OUT/summary.txt
tar czf $OUT/texture2.tar.gz -C /tmp texture2
