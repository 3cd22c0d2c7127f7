#!/bin/bash
# txq probe (issue 10, branch texf). From the repository root: OUT=dir bash tests/hw/texture/run3.sh
# (the recorded run used a copy of this folder's txq_probe.cu and sweep_kernels.ptx in .dev/texf)
D=tests/hw/texture
{ date -u; nvidia-smi --query-gpu=name,driver_version --format=csv,noheader; nvcc --version | tail -2; ncu --version | tail -1; } > $OUT/versions.txt 2>&1
nvcc -O3 -arch=sm_90 -o /tmp/txq_probe $D/txq_probe.cu -lcuda > $OUT/build.log 2>&1; echo "build rc $?" >> $OUT/build.log
/tmp/txq_probe tests/hw/texture/sweep_kernels.ptx > $OUT/txq.txt 2>&1; echo "run rc $?" >> $OUT/txq.txt
cuobjdump -sass /tmp/txq_probe > $OUT/txq_probe.sass 2>&1
# the nvcc build of the original sweep: its txq_all as SASS
nvcc -O3 -arch=sm_90 -cubin -o /tmp/sweep.cubin tests/hw/texture/sweep.cu >> $OUT/build.log 2>&1 && cuobjdump -sass /tmp/sweep.cubin | awk '/Function : txq_all/,/EXIT/' > $OUT/sweep_txq_all.sass 2>&1
cat $OUT/build.log $OUT/txq.txt
