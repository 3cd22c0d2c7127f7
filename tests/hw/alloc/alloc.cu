// Where cudaMalloc places consecutive allocations on the H200 (addresses, gaps, alignment),
// for gpumemsim's global-memory layout (tests/hw/h200/alloc/alloc.txt).
//   nvcc -O3 -arch=sm_90 -o alloc alloc.cu -lcuda && ./alloc
#include <cstdio>
#include <cuda.h>

int main() {
    size_t sizes[] = {1,      100,     256,      257,        4096,     65536,   1 << 20,
                      (1 << 20) + 1, 2 << 20, 5000000, 1, 1, 512, 513, 3 << 20, 64};
    const int n = sizeof sizes / sizeof sizes[0];
    char *p[n];
    for (int round = 0; round < 2; round++) {
        printf("round %d (cudaMalloc)\n", round);
        for (int i = 0; i < n; i++) {
            cudaMalloc(&p[i], sizes[i]);
            long long gap = i ? (long long)(p[i] - p[i - 1]) : 0;
            printf("size %zu addr %p delta_from_prev %lld\n", sizes[i], (void *)p[i], gap);
        }
        for (int i = 0; i < n; i++) cudaFree(p[i]);
    }
    cuInit(0);
    CUdeviceptr q[n];
    printf("cuMemAlloc\n");
    for (int i = 0; i < n; i++) {
        cuMemAlloc(&q[i], sizes[i]);
        long long gap = i ? (long long)(q[i] - q[i - 1]) : 0;
        printf("size %zu addr 0x%llx delta_from_prev %lld\n", sizes[i], (unsigned long long)q[i], gap);
    }
    return 0;
}
