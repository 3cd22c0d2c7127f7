#!/bin/bash
# Trilinear slice-alignment probes (issue 10, branch texf4). From the repository root:
#   OUT=dir bash tests/hw/texture/run6.sh   (the recorded run used D=.dev/texf4, a copy of this
#   folder's sweep.cu and sweep_kernels.cu)
D=${D:-tests/hw/texture}
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/sweep $D/sweep.cu > $OUT/build.log 2>&1; echo "build rc $?" >> $OUT/build.log
cat $OUT/build.log
/tmp/sweep /tmp/sweep_triprobe.bin triprobe > $OUT/run.log 2>&1; echo "run rc $?" >> $OUT/run.log
/tmp/sweep /tmp/sweep_triprobe2.bin triprobe >> $OUT/run.log 2>&1; echo "run2 rc $?" >> $OUT/run.log
cmp /tmp/sweep_triprobe.bin /tmp/sweep_triprobe2.bin >> $OUT/run.log 2>&1; echo "cmp rc $?" >> $OUT/run.log
cat $OUT/run.log
sha256sum /tmp/sweep_triprobe.bin /tmp/sweep_triprobe2.bin > $OUT/sweep_triprobe.sha256
if command -v zstd >/dev/null; then zstd -q -19 -T0 /tmp/sweep_triprobe.bin -o $OUT/sweep_triprobe.bin.zst; else xz -9 -T0 -c /tmp/sweep_triprobe.bin > $OUT/sweep_triprobe.bin.xz; fi
ls -la $OUT
