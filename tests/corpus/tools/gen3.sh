set -e
HERE=$(cd "$(dirname "$0")" && pwd)
cd "${CUDA_SAMPLES:?a checkout of NVIDIA/cuda-samples at the commit below}"
C=c94ff366aed18c797b8a85dfaac7817b0228b420; R=NVIDIA/cuda-samples; L=BSD-3-Clause; M="python3 $HERE/mk.py"
S=Samples
HOSTINC="host-only includes (assert.h, stdio.h, stdlib.h, string.h, math.h, cuda_runtime.h, helper_cuda.h, helper_functions.h; NVRTC has none of them and the device code uses none) are left out"
$M alignedTypes $R $C $L . -- $S/6_Performance/alignedTypes/alignedTypes.cu:1-37,46-116,127-141 -- "$HOSTINC (lines 38-45); the host helpers iDivUp..iAlignDown (lines 117-126; NVRTC rejects host functions in JIT mode) and the host code after testKernel (lines 142-313) are left out."
$M inlinePTX $R $C $L . -- $S/2_Concepts_and_Techniques/inlinePTX/inlinePTX.cu:1-32,42-53 -- "$HOSTINC (lines 33-41); sequence_cpu and main (lines 54-108) are left out."
$M simpleTemplates $R $C $L . -- $S/0_Introduction/simpleTemplates/sharedmem.cuh:all:as=sharedmem.cuh $S/0_Introduction/simpleTemplates/simpleTemplates.cu:1-34,46-53,55-82 -- "$HOSTINC (lines 35-45); the host variable g_TotalFailures (line 54; NVRTC rejects host variables in JIT mode) and the host code (lines 83-265) are left out; sharedmem.cuh is copied beside it, whole."
