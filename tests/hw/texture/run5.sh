#!/bin/bash
# Trilinear float sums (issue 10, branch texf3). From the repository root:
#   OUT=dir bash tests/hw/texture/run5.sh   (the recorded run used D=.dev/texf3, a copy of this
#   folder's sweep.cu and sweep_kernels.cu)
D=${D:-tests/hw/texture}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/sweep $D/sweep.cu > $OUT/build.log 2>&1; echo "build rc $?" >> $OUT/build.log
cat $OUT/build.log
/tmp/sweep /tmp/sweep_trilinear.bin trilinear > $OUT/run.log 2>&1; echo "run rc $?" >> $OUT/run.log
# the same run again: is every word reproduced?
/tmp/sweep /tmp/sweep_trilinear2.bin trilinear >> $OUT/run.log 2>&1; echo "run2 rc $?" >> $OUT/run.log
cmp /tmp/sweep_trilinear.bin /tmp/sweep_trilinear2.bin >> $OUT/run.log 2>&1; echo "cmp rc $?" >> $OUT/run.log
cat $OUT/run.log
sha256sum /tmp/sweep_trilinear.bin /tmp/sweep_trilinear2.bin > $OUT/sweep_trilinear.sha256
if command -v zstd >/dev/null; then zstd -q -19 -T0 /tmp/sweep_trilinear.bin -o $OUT/sweep_trilinear.bin.zst; else xz -9 -T0 -c /tmp/sweep_trilinear.bin > $OUT/sweep_trilinear.bin.xz; fi
ls -la $OUT
