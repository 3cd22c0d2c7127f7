set -e
HERE=$(cd "$(dirname "$0")" && pwd)
cd "${CUDA_SAMPLES:?a checkout of NVIDIA/cuda-samples at the commit below}"
C=c94ff366aed18c797b8a85dfaac7817b0228b420; R=NVIDIA/cuda-samples; L=BSD-3-Clause; M="python3 $HERE/mk.py"
S=Samples
HOSTINC="host-only includes (assert.h, stdio.h, stdlib.h, string.h, helper_cuda.h and the like; NVRTC has none of them and the device code uses none) are left out"
$M binomialOptions $R $C $L . -- $S/5_Domain_Specific/binomialOptions/binomialOptions_common.h:all:as=binomialOptions_common.h $S/5_Domain_Specific/binomialOptions/realtype.h:all:as=realtype.h $S/5_Domain_Specific/binomialOptions/binomialOptions_kernel.cu:1-31,34-36,38-121 -- "$HOSTINC (lines 32-33, 37: stdio.h, stdlib.h, helper_cuda.h); the host interface binomialOptionsGPU (lines 122-159) is left out (the spec does its cudaMemcpyToSymbol and launch; its option preprocessing is done by tests/corpus/inputs/gen_inputs.py); binomialOptions_common.h and realtype.h are copied beside it, whole."
# shfl_scan_full runs the device code of tests/corpus/shfl_scan (its spec names ../shfl_scan/shfl_scan.cu and .ptx).
