// gpumemsim corpus (llmc_residual_forward): copied from https://github.com/karpathy/llm.c
//   file dev/cuda/residual_forward.cu, lines 1-12, 18-18, 28-53, commit f1e2ace651495b74ae22d45d1723443fd00ecd3a (MIT; the license header is kept verbatim).
//   The lines are verbatim; host code (main, allocation, launches) is left out.
//   Changes: host-only includes (stdio.h, stdlib.h, helper_cuda.h and the like; NVRTC has none of them and the device code uses none) are left out (lines 13-15); line 17, #define ENABLE_BF16, is left out, so floatX is float (llm.c's fp32 build of the same code); the CPU reference (lines 19-27) and the host code (lines 54 on) are left out; common.h is copied beside it with only its device code (lines 8, 10-56, 101-204: WARP_SIZE, ceil_div, warpReduceSum, blockReduce, Packed128 and the floatX typedefs); its host includes, the host declaration deviceProp, the error-checking and cuBLAS host code (lines 1-7, 9, 57-100) and lines 205 on are left out. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy).
/*
Kernels for residual forward pass.

Compile example:
nvcc -O3 --use_fast_math -lcublas -lcublasLt residual_forward.cu -o residual_forward

version 1 is naive port from CPU code to kernel
./residual_forward 1
version 2 packs input into 128 bit memory reads
./residual_forward 2
*/

#include "common.h"

// ----------------------------------------------------------------------------
// GPU kernels

// elementwise ops are nice and ez
__global__ void residual_forward_kernel1(floatX* out, const floatX* inp1, const floatX* inp2, int N) {
    int idx = blockIdx.x * blockDim.x + threadIdx.x;
    if (idx < N) {
        out[idx] = (floatX)((float)inp1[idx] + (float)inp2[idx]);
    }
}

__global__ void residual_forward_kernel2(floatX* out, const floatX* inp1, const floatX* inp2, int N) {
    int idx = (blockIdx.x * blockDim.x + threadIdx.x) * x128::size;
    if (idx < N) {
        x128 packed_out;
        x128 packed_inp1 = load128cs(inp1 + idx);
        x128 packed_inp2 = load128cs(inp2 + idx);
        for (int k = 0; k < packed_inp1.size; ++k)
        {
            packed_out[k] = (floatX)((float)packed_inp1[k] + (float)packed_inp2[k]);
        }
        store128(out + idx, packed_out);
    }
}

