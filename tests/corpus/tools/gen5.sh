set -e
HERE=$(cd "$(dirname "$0")" && pwd)
cd "${CUDA_SAMPLES:?a checkout of NVIDIA/cuda-samples at the commit below}"
C=c94ff366aed18c797b8a85dfaac7817b0228b420; R=NVIDIA/cuda-samples; L=BSD-3-Clause; M="python3 $HERE/mk.py"
S=Samples
$M globalToShmemAsyncCopy $R $C $L . -- $S/3_CUDA_Features/globalToShmemAsyncCopy/globalToShmemAsyncCopy.cu:1-41,44-46,48-55,59-70,79-736 -- "host-only includes (assert.h, stdio.h, cuda_runtime.h, helper_cuda.h, helper_functions.h; lines 42-43, 47, 56-58) are left out; the host variable kernelNames (lines 71-78; NVRTC rejects host variables in JIT mode) and the host code from ConstantInit on (lines 737-1055) are left out."
