// Special registers whose values the PTX ISA leaves to the implementation, read on the H200:
// the reserved shared-memory window (%reserved_smem_offset_*), the shared sizes, and where
// static and dynamic shared memory start, for gpumemsim's model of them.
//   nvcc -O3 -arch=sm_90 -o sregs sregs.cu && ./sregs
#include <cstdio>

__global__ void k(unsigned *out) {
    __shared__ unsigned st[40];
    extern __shared__ unsigned dyn[];
    unsigned v[12];
    asm volatile("mov.u32 %0, %%reserved_smem_offset_begin;" : "=r"(v[0]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_end;" : "=r"(v[1]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_cap;" : "=r"(v[2]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_0;" : "=r"(v[3]));
    asm volatile("mov.u32 %0, %%reserved_smem_offset_1;" : "=r"(v[4]));
    asm volatile("mov.u32 %0, %%total_smem_size;" : "=r"(v[5]));
    asm volatile("mov.u32 %0, %%dynamic_smem_size;" : "=r"(v[6]));
    asm volatile("mov.u32 %0, %%aggr_smem_size;" : "=r"(v[7]));
    v[8] = (unsigned)__cvta_generic_to_shared(st);
    v[9] = (unsigned)__cvta_generic_to_shared(dyn);
    st[threadIdx.x % 40] = threadIdx.x;
    dyn[0] = 1;
    __syncthreads();
    v[10] = st[0] + dyn[0];
    v[11] = 0;
    if (threadIdx.x == 0)
        for (int i = 0; i < 12; i++) out[blockIdx.x * 12 + i] = v[i];
}

int main() {
    unsigned *d, h[12];
    cudaMalloc(&d, 4096);
    const char *names[] = {"reserved_begin", "reserved_end", "reserved_cap", "reserved_0",
                           "reserved_1", "total_smem", "dynamic_smem", "aggr_smem",
                           "static_at", "dynamic_at", "check", "zero"};
    unsigned dyns[] = {0, 256, 4096, 40000};
    for (unsigned dsz : dyns) {
        cudaFuncSetAttribute(k, cudaFuncAttributeMaxDynamicSharedMemorySize, 48000);
        k<<<1, 64, dsz>>>(d);
        cudaError_t e = cudaDeviceSynchronize();
        cudaMemcpy(h, d, sizeof h, cudaMemcpyDeviceToHost);
        printf("dynamic %u err %d:", dsz, (int)e);
        for (int i = 0; i < 12; i++) printf(" %s=%u", names[i], h[i]);
        printf("\n");
    }
    return 0;
}
