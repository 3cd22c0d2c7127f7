// gpumemsim corpus (llmc_crossentropy_forward): copied from https://github.com/karpathy/llm.c
//   file dev/cuda/crossentropy_forward.cu, lines 1-10, 14-14, 34-50, commit f1e2ace651495b74ae22d45d1723443fd00ecd3a (MIT; the license header is kept verbatim).
//   The lines are verbatim; host code (main, allocation, launches) is left out.
//   Changes: host-only includes (stdio.h, stdlib.h, helper_cuda.h and the like; NVRTC has none of them and the device code uses none) are left out (lines 11-13); the CPU reference (lines 15-33) and the host code (lines 51 on) are left out; common.h is copied beside it with only its device code (lines 8, 10-56, 101-204: WARP_SIZE, ceil_div, warpReduceSum, blockReduce, Packed128 and the floatX typedefs); its host includes, the host declaration deviceProp, the error-checking and cuBLAS host code (lines 1-7, 9, 57-100) and lines 205 on are left out. The LICENSE is MIT (Copyright (c) 2024 Andrej Karpathy).
/*
Kernels for crossentropy forward pass.

Compile example:
nvcc -O3 --use_fast_math -lcublas -lcublasLt crossentropy_forward.cu -o crossentropy_forward

version 1 is a straight-forward port from CPU code to kernel, parallel over B,T
./crossentropy_forward 1
*/

#include "common.h"

// ----------------------------------------------------------------------------
// GPU kernels

__global__ void crossentropy_forward_kernel1(float* losses,
                            const float* probs, const int* targets,
                            int B, int T, int V) {
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < B * T) {
        int b = i / T;
        int t = i % T;
        const float* probs_bt = probs + b * T * V + t * V;
        int ix = targets[b * T + t];
        losses[b * T + t] = -logf(probs_bt[ix]);
    }
}

