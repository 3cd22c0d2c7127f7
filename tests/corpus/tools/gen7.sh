# Issue 9 (third session): dct8x8, dwtHaar1D, FDTD3d, template from NVIDIA/cuda-samples and six
# kernel files of karpathy/llm.c's dev/cuda (the fp32 build).
#   CUDA_SAMPLES=... LLMC=... bash tools/gen7.sh
set -e
HERE=$(cd "$(dirname "$0")" && pwd)
M="python3 $HERE/mk.py"
HOSTINC="host-only includes (stdio.h, stdlib.h, helper_cuda.h and the like; NVRTC has none of them and the device code uses none) are left out"
cd "${CUDA_SAMPLES:?a checkout of NVIDIA/cuda-samples at the commit below}"
C=c94ff366aed18c797b8a85dfaac7817b0228b420; R=NVIDIA/cuda-samples; L=BSD-3-Clause
D=Samples/2_Concepts_and_Techniques/dct8x8
$M dct8x8 $R $C $L . -- $D/Common.h:1-37,44-87:as=Common.h $D/dct8x8_kernel2.cuh:all $D/dct8x8_kernel_short.cuh:all $D/dct8x8_kernel_quantization.cuh:all -- "the three device headers dct8x8_kernel2.cuh, dct8x8_kernel_short.cuh and dct8x8_kernel_quantization.cuh, whole, one after the other (the sample's dct8x8.cu includes them); dct8x8_kernel1.cuh is not taken (its kernels read the image through a texture object); Common.h is copied beside it without its $HOSTINC (lines 38-43)."
D=Samples/5_Domain_Specific/dwtHaar1D
$M dwtHaar1D $R $C $L . -- $D/dwtHaar1D.cu:1-27,96-101 $D/dwtHaar1D_kernel.cuh:all -- "from dwtHaar1D.cu only the license and the constants shared by host and device code (lines 96-101); its host code and $HOSTINC are left out; then dwtHaar1D_kernel.cuh whole (dwtHaar1D.cu includes it after those constants)."
D=Samples/5_Domain_Specific/FDTD3d
$M FDTD3d $R $C $L . -- $D/inc/FDTD3dGPU.h:1-30,38-43,55-56:as=FDTD3dGPU.h $D/inc/FDTD3dGPUKernel.cuh:all -- "FDTD3dGPUKernel.cuh whole; FDTD3dGPU.h is copied beside it without the memsize_t typedef and its includes (lines 31-37) and the host declarations getTargetDeviceGlobalMemSize and fdtdGPU (lines 44-54; NVRTC rejects host functions in JIT mode)."
D=Samples/0_Introduction/template
$M template $R $C $L . -- $D/template.cu:1-31,52-78 -- "the license and the kernel testKernel (lines 52-78); $HOSTINC (lines 32-44), the host declarations (lines 45-51) and the host code (lines 79-165) are left out."
cd "${LLMC:?a checkout of karpathy/llm.c at the commit below}"
C=f1e2ace651495b74ae22d45d1723443fd00ecd3a; R=karpathy/llm.c; L=MIT
CH="common.h is copied beside it with only its device code (lines 8, 10-56, 101-204: WARP_SIZE, ceil_div, warpReduceSum, blockReduce, Packed128 and the floatX typedefs); its host includes, the host declaration deviceProp, the error-checking and cuBLAS host code (lines 1-7, 9, 57-100) and lines 205 on are left out"
$M llmc_layernorm_forward $R $C $L . -- dev/cuda/layernorm_forward.cu:1-23,28-29,72-338 -- "$HOSTINC (lines 24-27; common.h, line 30, is not needed by these kernels); the CPU reference (lines 31-71), layernorm_forward_kernel6 (lines 339-403: it uses assert, which NVRTC has not) and the host code (lines 404 on) are left out. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy)."
$M llmc_softmax_forward $R $C $L . -- dev/cuda/common.h:8-8,10-56,101-204:as=common.h dev/cuda/softmax_forward.cu:1-29,34-36,96-564 -- "$HOSTINC (lines 30-33); the CPU reference (lines 37-95) and the host code (lines 565 on) are left out; $CH. One line is ADDED, at the top of the copied common.h: #include <cuda/std/cmath>, for INFINITY, which nvcc's cuda_runtime.h brings in through math.h and NVRTC does not. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy)."
# The one added line (see the note above): INFINITY for NVRTC.
sed -i '4i #include <cuda/std/cmath>  // gpumemsim corpus: ADDED (INFINITY; nvcc gets it from math.h via cuda_runtime.h)' "$HERE/../llmc_softmax_forward/common.h"
$M llmc_encoder_forward $R $C $L . -- dev/cuda/common.h:8-8,10-56,101-204:as=common.h dev/cuda/encoder_forward.cu:1-16,23-23,44-117 -- "$HOSTINC (lines 17-20); line 22, #define ENABLE_BF16, is left out, so floatX is float (llm.c's fp32 build of the same code); the CPU reference (lines 24-43) and the host code (lines 118 on) are left out; $CH. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy)."
$M llmc_residual_forward $R $C $L . -- dev/cuda/common.h:8-8,10-56,101-204:as=common.h dev/cuda/residual_forward.cu:1-12,18-18,28-53 -- "$HOSTINC (lines 13-15); line 17, #define ENABLE_BF16, is left out, so floatX is float (llm.c's fp32 build of the same code); the CPU reference (lines 19-27) and the host code (lines 54 on) are left out; $CH. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy)."
$M llmc_crossentropy_forward $R $C $L . -- dev/cuda/common.h:8-8,10-56,101-204:as=common.h dev/cuda/crossentropy_forward.cu:1-10,14-14,34-50 -- "$HOSTINC (lines 11-13); the CPU reference (lines 15-33) and the host code (lines 51 on) are left out; $CH. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy)."
