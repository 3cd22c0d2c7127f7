// The driver's shared-memory configuration per launch (launch__shared_mem_config_size), swept over
// block size x dynamic shared memory x grid size x register use, for gpumemsim's occupancy model.
// Build and run on the H200 (tests/hw/carveout/README.md):
//   nvcc -O3 -arch=sm_90 -o carveout carveout.cu
//   ncu --clock-control none --csv --print-units base --metrics <list> ./carveout > ncu.csv
// Each launch prints one line "launch N block B dyn D grid G regs R" in launch order (ncu's ID).
#include <cstdio>

template <int R>
__global__ void sweep(float *out, int n) {
    __shared__ float s[32];  // 128 bytes of static shared memory; the dynamic part is unused
    float acc[R];
#pragma unroll
    for (int i = 0; i < R; i++) acc[i] = out[(threadIdx.x + i * 7) % n];
    s[threadIdx.x % 32] = acc[0];
    __syncthreads();
    float t = 0;
#pragma unroll
    for (int i = 0; i < R; i++) t += acc[i] * acc[(i * 5 + 3) % R];
    if (threadIdx.x == 0) out[blockIdx.x % n] = t + s[0];
}

int main() {
    float *out;
    const int n = 1 << 16;
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(out, 0, n * sizeof(float));
    int blocks[] = {32, 64, 96, 128, 160, 192, 256, 320, 384, 512, 640, 768, 1024};
    int dyns[] = {0,    256,   512,   1024,  1536,  2048,  3072,  4096,
                  6144, 8192, 12288, 16384, 24576, 32768, 40960, 49152};
    int grids[] = {1, 132, 2048};
    void (*kernels[])(float *, int) = {sweep<1>, sweep<12>, sweep<24>, sweep<40>, sweep<60>};
    int regsel[] = {1, 12, 24, 40, 60};
    int id = 0;
    for (int k = 0; k < 5; k++) {
        cudaFuncSetAttribute(kernels[k], cudaFuncAttributeMaxDynamicSharedMemorySize, 49152);
        for (int b : blocks)
            for (int d : dyns)
                for (int g : grids) {
                    if (k > 0 && g != 132) continue;
                    kernels[k]<<<g, b, d>>>(out, n);
                    cudaError_t e = cudaDeviceSynchronize();
                    printf("launch %d block %d dyn %d grid %d regsel %d err %d\n", ++id, b, d, g,
                           regsel[k], (int)e);
                }
    }
    return 0;
}
