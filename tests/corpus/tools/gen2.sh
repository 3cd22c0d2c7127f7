set -e
HERE=$(cd "$(dirname "$0")" && pwd)
cd "${CUDA_SAMPLES:?a checkout of NVIDIA/cuda-samples at the commit below}"
C=c94ff366aed18c797b8a85dfaac7817b0228b420; R=NVIDIA/cuda-samples; L=BSD-3-Clause; M="python3 $HERE/mk.py"
S=Samples
HOSTINC="host-only includes (assert.h, stdio.h, stdlib.h, string.h, helper_cuda.h and the like; NVRTC has none of them and the device code uses none) are left out"
$M shfl_scan $R $C $L . -- $S/2_Concepts_and_Techniques/shfl_scan/shfl_integral_image.cuh:all:as=shfl_integral_image.cuh $S/2_Concepts_and_Techniques/shfl_scan/shfl_scan.cu:1-35,40-148 -- "$HOSTINC (lines 36-39: cuda_runtime.h, helper_cuda.h, helper_functions.h, stdio.h); the host part (lines 149-419) is left out; shfl_integral_image.cuh is copied beside it, whole."
$M simpleVoteIntrinsics $R $C $L . -- $S/0_Introduction/simpleVoteIntrinsics/simpleVote_kernel.cuh:all -- "none (the whole simpleVote_kernel.cuh)."
$M simpleAtomicIntrinsics $R $C $L . -- $S/0_Introduction/simpleAtomicIntrinsics/simpleAtomicIntrinsics_kernel.cuh:all -- "none (the whole simpleAtomicIntrinsics_kernel.cuh)."
$M binaryPartitionCG $R $C $L . -- $S/3_CUDA_Features/binaryPartitionCG/binaryPartitionCG.cu:1-47,50-52,59-99 -- "$HOSTINC (lines 48-49); the host function initOddEvenArr (lines 53-58) and main (lines 100-158) are left out."
$M warpAggregatedAtomicsCG $R $C $L . -- $S/3_CUDA_Features/warpAggregatedAtomicsCG/warpAggregatedAtomicsCG.cu:1-27,29-31,35-104,149-183 -- "$HOSTINC (lines 28, 32-34: stdio.h, cuda_runtime.h, helper_cuda.h, helper_functions.h); the host functions (lines 105-148, 184-313) are left out."
$M BlackScholes $R $C $L . -- $S/5_Domain_Specific/BlackScholes/BlackScholes_kernel.cuh:all -- "none (the whole BlackScholes_kernel.cuh)."
$M threadFenceReduction $R $C $L . -- $S/2_Concepts_and_Techniques/threadFenceReduction/threadFenceReduction_kernel.cuh:1-131,136-206,403-403 -- "the host functions setRetirementCount (lines 132-135), isPow2 and the launch wrappers (lines 207-402) are left out."
