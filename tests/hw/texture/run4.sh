#!/bin/bash
# Targeted texture sweeps (issue 10, branch texx). From the repository root:
#   OUT=dir bash tests/hw/texture/run4.sh (the recorded run used D=.dev/texx, a copy of this folder's sweep.cu and sweep_kernels.cu)
D=${D:-tests/hw/texture}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/sweep $D/sweep.cu > $OUT/build.log 2>&1; echo "build rc $?" >> $OUT/build.log
cat $OUT/build.log
/tmp/sweep /tmp/sweep_targeted.bin targeted > $OUT/run.log 2>&1; echo "run rc $?" >> $OUT/run.log
cat $OUT/run.log
ls -la /tmp/sweep_targeted.bin
sha256sum /tmp/sweep_targeted.bin > $OUT/sweep_targeted.sha256
if command -v zstd >/dev/null; then zstd -q -19 -T0 /tmp/sweep_targeted.bin -o $OUT/sweep_targeted.bin.zst; else xz -9 -T0 -c /tmp/sweep_targeted.bin > $OUT/sweep_targeted.bin.xz; fi
ls -la $OUT
