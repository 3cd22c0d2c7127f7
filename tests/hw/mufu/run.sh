#!/bin/bash
# Runs the MUFU sweep (mufu.cu) and the CUDA-math validation program on the H200.
# Usage (repository root, on the H200 machine): bash tests/hw/mufu/run.sh SRCDIR OUTDIR
#   SRCDIR holds mufu.cu, mufu_ref.h, sass_probe.cu and k_cuda_math.cu (gpumemsim export-cuda
#   tests/hw/kernels/cuda_math.toml); OUTDIR receives mufu.tar.xz (split in 15 MB parts if
#   larger) and report.txt.
set -u
SRC=$1; OUT=$2
W=$(mktemp -d)
cp "$SRC"/mufu.cu "$SRC"/mufu_ref.h "$SRC"/sass_probe.cu "$SRC"/k_cuda_math.cu "$W"/
cd "$W"
mkdir -p res/sass res/cuda_math
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version; ncu --version; } > res/versions.txt 2>&1
nvcc -O3 -arch=sm_90 -o mufu mufu.cu > res/build.log 2>&1 || { cat res/build.log; exit 1; }
nvcc -O3 -arch=sm_90 -o k_cuda_math k_cuda_math.cu -lcuda >> res/build.log 2>&1 || { cat res/build.log; exit 1; }
nvcc -arch=sm_90 -cubin -o probe.cubin sass_probe.cu && cuobjdump -sass probe.cubin > res/sass/sass_probe.sass
./k_cuda_math --ptx > cm.ptx && ptxas -arch=sm_90 -O3 cm.ptx -o cm.cubin && cuobjdump -sass cm.cubin > res/sass/cuda_math.sass
./k_cuda_math res/cuda_math . > res/cuda_math/run.log 2>&1; echo "cuda_math rc=$?" >> res/cuda_math/run.log
( time ./mufu res ${PHASE:-1} ) > res/mufu.log 2>&1; echo "mufu rc=$?" >> res/mufu.log
tail -5 res/mufu.log
ls -la res res/cuda_math | head -20
tar cf - res | xz -T0 -6 > mufu.tar.xz
ls -la mufu.tar.xz
if [ $(stat -c %s mufu.tar.xz) -gt 15000000 ]; then split -b 15000000 -d mufu.tar.xz "$OUT"/mufu.tar.xz.; else cp mufu.tar.xz "$OUT"/; fi
cp res/report.txt "$OUT"/report.txt 2>/dev/null
cp res/mufu.log "$OUT"/mufu.log
ls -la "$OUT"
