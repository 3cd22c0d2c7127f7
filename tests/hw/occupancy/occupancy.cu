// occupancy.cu: records what a real GPU's occupancy API and kernel launches say for many
// launch configurations, as a CSV on stdout, and the device's properties on stderr.
//
// Build and run on the H200 (see README.md in this directory):
//   nvcc -O3 -arch=sm_90 -o occ occupancy.cu
//   ./occ > occupancy.csv 2> occupancy_props.txt
//
// One CSV row per configuration (kernel, block size, dynamic shared memory, carveout,
// MaxDynamicSharedMemorySize). Columns:
//   kernel                    kernel name
//   num_regs                  cudaFuncAttributes::numRegs
//   static_shared             cudaFuncAttributes::sharedSizeBytes
//   block_threads             threads per block (1-D block)
//   dynamic_shared            dynamic shared memory per block, bytes
//   carveout                  value given to cudaFuncAttributePreferredSharedMemoryCarveout (-1 = default)
//   max_dynamic_shared_set    value given to cudaFuncAttributeMaxDynamicSharedMemorySize, -1 = not set
//   set_result                cudaSuccess, or the error name if setting the attributes failed
//   attr_max_dynamic_shared   cudaFuncAttributes::maxDynamicSharedSizeBytes after setting
//   attr_carveout             cudaFuncAttributes::preferredShmemCarveout after setting
//   occupancy                 cudaOccupancyMaxActiveBlocksPerMultiprocessor, or its error name
//   launch                    result of launching the kernel with 1 block of this configuration
//                             (cudaSuccess or the error name)
//
// Before every row each kernel's attributes are put back to their defaults (carveout -1,
// MaxDynamicSharedMemorySize = 48 KB - static shared), so rows do not depend on each other.
// A failed attribute set leaves the default in place (set_result says so).
//
// The kernels do no work when launched (n = 0); the register-heavy ones keep 256 floats live
// across a loop so that ptxas must use every register __maxnreg__ allows (spilling the rest).

#ifndef __CUDACC_RTC__  // NVRTC (used to check the device code) has no host headers
#include <cstdio>
#include <cstdlib>
#include <cuda_runtime.h>
#endif

// ---------------------------------------------------------------------------------------------
// Kernels
// ---------------------------------------------------------------------------------------------

// 256 live values: needs far more than 255 registers, so ptxas uses all it is allowed.
__device__ __forceinline__ void pressure(float* out, int n, float seed) {
    float v[256];
#pragma unroll
    for (int i = 0; i < 256; ++i) v[i] = seed * (float)(i + 1);
    for (int it = 0; it < n; ++it) {
#pragma unroll
        for (int i = 0; i < 256; ++i) v[i] = fmaf(v[i], v[(i + 1) % 256], 1.0f);
    }
    float s = 0.0f;
#pragma unroll
    for (int i = 0; i < 256; ++i) s += v[i];
    if (s == 1234.5f) out[threadIdx.x] = s;
}

#define REGS_KERNEL(N) \
    __global__ void __maxnreg__(N) k_regs_##N(float* out, int n, float seed) { pressure(out, n, seed); }

REGS_KERNEL(30)
REGS_KERNEL(33)
REGS_KERNEL(24)
REGS_KERNEL(32)
REGS_KERNEL(40)
REGS_KERNEL(48)
REGS_KERNEL(56)
REGS_KERNEL(64)
REGS_KERNEL(72)
REGS_KERNEL(80)
REGS_KERNEL(96)
REGS_KERNEL(128)
REGS_KERNEL(136)
REGS_KERNEL(168)
REGS_KERNEL(200)
REGS_KERNEL(255)

// A kernel with almost no registers and no shared memory.
__global__ void k_tiny(float* out, int n, float seed) {
    if (n > 0) out[threadIdx.x] = seed;
}

// Static shared memory of S bytes (S a multiple of 4).
#define SMEM_KERNEL(S) \
    __global__ void k_smem_##S(float* out, int n, float seed) { \
        __shared__ float buf[(S) / 4]; \
        for (int i = threadIdx.x; i < (S) / 4; i += blockDim.x) buf[i] = seed * (float)i; \
        __syncthreads(); \
        if (n > 0) out[threadIdx.x] = buf[(threadIdx.x * 7 + n) % ((S) / 4)]; \
    }

SMEM_KERNEL(1024)
SMEM_KERNEL(4096)
SMEM_KERNEL(12288)
SMEM_KERNEL(20000)
SMEM_KERNEL(32768)
SMEM_KERNEL(49152)

// Registers and static shared memory together.
__global__ void __maxnreg__(64) k_regs64_smem16k(float* out, int n, float seed) {
    __shared__ float buf[4096];
    for (int i = threadIdx.x; i < 4096; i += blockDim.x) buf[i] = seed * (float)i;
    __syncthreads();
    pressure(out, n, buf[(threadIdx.x * 3) % 4096]);
}

// ---------------------------------------------------------------------------------------------
// Host program (not compiled by NVRTC)
// ---------------------------------------------------------------------------------------------
#ifndef __CUDACC_RTC__

typedef void (*KernelFn)(float*, int, float);

struct Kernel {
    const char* name;
    KernelFn fn;
};

static const Kernel REG_KERNELS[] = {
    {"k_regs_24", k_regs_24},   {"k_regs_30", k_regs_30},   {"k_regs_32", k_regs_32},
    {"k_regs_33", k_regs_33},
    {"k_regs_40", k_regs_40},   {"k_regs_48", k_regs_48},   {"k_regs_56", k_regs_56},
    {"k_regs_64", k_regs_64},   {"k_regs_72", k_regs_72},   {"k_regs_80", k_regs_80},
    {"k_regs_96", k_regs_96},   {"k_regs_128", k_regs_128}, {"k_regs_136", k_regs_136},
    {"k_regs_168", k_regs_168}, {"k_regs_200", k_regs_200}, {"k_regs_255", k_regs_255},
};

static const Kernel SMEM_KERNELS[] = {
    {"k_tiny", k_tiny},
    {"k_smem_1024", k_smem_1024},
    {"k_smem_4096", k_smem_4096},
    {"k_smem_12288", k_smem_12288},
    {"k_smem_20000", k_smem_20000},
    {"k_smem_32768", k_smem_32768},
    {"k_smem_49152", k_smem_49152},
    {"k_regs64_smem16k", k_regs64_smem16k},
};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

static const int BLOCKS_REG_SWEEP[] = {32, 64, 96, 128, 160, 192, 256, 384, 480, 512, 640, 768, 992, 1024};
static const int BLOCKS_SMEM_SWEEP[] = {256};
static const int BLOCKS_EDGE[] = {1, 33, 1024, 1025, 2048};
static const int DYNAMIC[] = {0, 1024, 10 * 1024, 48 * 1024, 100 * 1024, 200 * 1024, 227 * 1024};
static const int CARVEOUTS[] = {-1, 0, 25, 50, 100};
static const int OPTIN_NONE = -1;
static const int OPTIN_100K = 100 * 1024;
static const int OPTIN_MAX = -2;  // means: 227 KB minus the kernel's static shared memory

static float* g_out = NULL;
static int g_optin_limit = 0;  // cudaDeviceProp::sharedMemPerBlockOptin

static void check(cudaError_t e, const char* what) {
    if (e != cudaSuccess) {
        fprintf(stderr, "fatal: %s: %s\n", what, cudaGetErrorName(e));
        exit(1);
    }
}

// Puts a kernel's attributes back to their defaults.
static void reset_attributes(const Kernel& k, const cudaFuncAttributes& initial) {
    check(cudaFuncSetAttribute((const void*)k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, -1),
          "reset carveout");
    check(cudaFuncSetAttribute((const void*)k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize,
                               initial.maxDynamicSharedSizeBytes),
          "reset max dynamic shared");
    cudaGetLastError();
}

static void row(const Kernel& k, const cudaFuncAttributes& initial, int block, int dyn, int carveout,
                int optin) {
    reset_attributes(k, initial);
    int optin_value = optin;
    if (optin == OPTIN_MAX) optin_value = g_optin_limit - (int)initial.sharedSizeBytes;

    cudaError_t set = cudaSuccess;
    if (carveout != -1) {
        set = cudaFuncSetAttribute((const void*)k.fn, cudaFuncAttributePreferredSharedMemoryCarveout, carveout);
    }
    if (set == cudaSuccess && optin_value != OPTIN_NONE) {
        set = cudaFuncSetAttribute((const void*)k.fn, cudaFuncAttributeMaxDynamicSharedMemorySize, optin_value);
    }
    cudaGetLastError();

    cudaFuncAttributes attr;
    check(cudaFuncGetAttributes(&attr, (const void*)k.fn), "cudaFuncGetAttributes");

    char occ_text[64];
    int blocks = -1;
    cudaError_t occ = cudaOccupancyMaxActiveBlocksPerMultiprocessor(&blocks, (const void*)k.fn, block, (size_t)dyn);
    if (occ == cudaSuccess) {
        snprintf(occ_text, sizeof occ_text, "%d", blocks);
    } else {
        snprintf(occ_text, sizeof occ_text, "%s", cudaGetErrorName(occ));
    }
    cudaGetLastError();

    float* out = g_out;
    int n = 0;
    float seed = 1.0f;
    void* args[] = {&out, &n, &seed};
    cudaError_t launch = cudaLaunchKernel((const void*)k.fn, dim3(1), dim3(block), args, (size_t)dyn, 0);
    if (launch == cudaSuccess) launch = cudaDeviceSynchronize();
    cudaGetLastError();

    printf("%s,%d,%d,%d,%d,%d,%d,%s,%d,%d,%s,%s\n", k.name, attr.numRegs, (int)attr.sharedSizeBytes, block,
           dyn, carveout, optin_value, cudaGetErrorName(set), attr.maxDynamicSharedSizeBytes,
           attr.preferredShmemCarveout, occ_text, cudaGetErrorName(launch));
    fflush(stdout);

    // A launch error must not be sticky; if the context broke, stop rather than print garbage.
    check(cudaDeviceSynchronize(), "context after row");
}

static void print_props() {
    int dev = 0;
    check(cudaGetDevice(&dev), "cudaGetDevice");
    cudaDeviceProp p;
    check(cudaGetDeviceProperties(&p, dev), "cudaGetDeviceProperties");
    int runtime = 0, driver = 0, clock = 0, mem_clock = 0, bus = 0;
    check(cudaRuntimeGetVersion(&runtime), "cudaRuntimeGetVersion");
    check(cudaDriverGetVersion(&driver), "cudaDriverGetVersion");
    check(cudaDeviceGetAttribute(&clock, cudaDevAttrClockRate, dev), "clock rate");
    check(cudaDeviceGetAttribute(&mem_clock, cudaDevAttrMemoryClockRate, dev), "memory clock rate");
    check(cudaDeviceGetAttribute(&bus, cudaDevAttrGlobalMemoryBusWidth, dev), "memory bus width");
    fprintf(stderr, "runtimeVersion=%d\n", runtime);
    fprintf(stderr, "driverVersion=%d\n", driver);
    fprintf(stderr, "name=%s\n", p.name);
    fprintf(stderr, "major=%d\n", p.major);
    fprintf(stderr, "minor=%d\n", p.minor);
    fprintf(stderr, "multiProcessorCount=%d\n", p.multiProcessorCount);
    fprintf(stderr, "warpSize=%d\n", p.warpSize);
    fprintf(stderr, "maxThreadsPerBlock=%d\n", p.maxThreadsPerBlock);
    fprintf(stderr, "maxThreadsPerMultiProcessor=%d\n", p.maxThreadsPerMultiProcessor);
    fprintf(stderr, "maxBlocksPerMultiProcessor=%d\n", p.maxBlocksPerMultiProcessor);
    fprintf(stderr, "regsPerMultiprocessor=%d\n", p.regsPerMultiprocessor);
    fprintf(stderr, "regsPerBlock=%d\n", p.regsPerBlock);
    fprintf(stderr, "sharedMemPerBlock=%zu\n", p.sharedMemPerBlock);
    fprintf(stderr, "sharedMemPerBlockOptin=%zu\n", p.sharedMemPerBlockOptin);
    fprintf(stderr, "sharedMemPerMultiprocessor=%zu\n", p.sharedMemPerMultiprocessor);
    fprintf(stderr, "reservedSharedMemPerBlock=%zu\n", p.reservedSharedMemPerBlock);
    fprintf(stderr, "totalConstMem=%zu\n", p.totalConstMem);
    fprintf(stderr, "l2CacheSize=%d\n", p.l2CacheSize);
    fprintf(stderr, "persistingL2CacheMaxSize=%d\n", p.persistingL2CacheMaxSize);
    fprintf(stderr, "memoryBusWidth=%d\n", bus);
    fprintf(stderr, "clockRate_kHz=%d\n", clock);
    fprintf(stderr, "memoryClockRate_kHz=%d\n", mem_clock);
    fprintf(stderr, "totalGlobalMem=%zu\n", p.totalGlobalMem);
    g_optin_limit = (int)p.sharedMemPerBlockOptin;
}

int main() {
    print_props();
    check(cudaMalloc((void**)&g_out, 2048 * sizeof(float)), "cudaMalloc");

    printf("kernel,num_regs,static_shared,block_threads,dynamic_shared,carveout,max_dynamic_shared_set,"
           "set_result,attr_max_dynamic_shared,attr_carveout,occupancy,launch\n");

    // 1. Registers: every register kernel at many block sizes, default shared memory settings.
    for (int k = 0; k < COUNT(REG_KERNELS); ++k) {
        cudaFuncAttributes initial;
        check(cudaFuncGetAttributes(&initial, (const void*)REG_KERNELS[k].fn), "cudaFuncGetAttributes");
        for (int b = 0; b < COUNT(BLOCKS_REG_SWEEP); ++b) {
            row(REG_KERNELS[k], initial, BLOCKS_REG_SWEEP[b], 0, -1, OPTIN_NONE);
        }
    }

    // 2. Shared memory: static sizes x dynamic sizes x carveouts x opt-in settings.
    const int optins[] = {OPTIN_NONE, OPTIN_100K, OPTIN_MAX};
    for (int k = 0; k < COUNT(SMEM_KERNELS); ++k) {
        cudaFuncAttributes initial;
        check(cudaFuncGetAttributes(&initial, (const void*)SMEM_KERNELS[k].fn), "cudaFuncGetAttributes");
        for (int b = 0; b < COUNT(BLOCKS_SMEM_SWEEP); ++b)
            for (int d = 0; d < COUNT(DYNAMIC); ++d)
                for (int c = 0; c < COUNT(CARVEOUTS); ++c)
                    for (int o = 0; o < COUNT(optins); ++o)
                        row(SMEM_KERNELS[k], initial, BLOCKS_SMEM_SWEEP[b], DYNAMIC[d], CARVEOUTS[c], optins[o]);
    }

    // 3. Edges: odd and invalid block sizes, odd dynamic sizes, and small shared memory with
    //    small carveouts (where the chosen configuration is smaller than 228 KB).
    {
        const Kernel& k = SMEM_KERNELS[0];  // k_tiny
        cudaFuncAttributes initial;
        check(cudaFuncGetAttributes(&initial, (const void*)k.fn), "cudaFuncGetAttributes");
        for (int b = 0; b < COUNT(BLOCKS_EDGE); ++b) row(k, initial, BLOCKS_EDGE[b], 0, -1, OPTIN_NONE);
        const int odd_dyn[] = {1, 127, 128, 129, 3000, 7000, 7169, 15000, 31000, 49152, 49153};
        const int small_carveouts[] = {-1, 1, 3, 5, 10, 25};
        for (int d = 0; d < COUNT(odd_dyn); ++d)
            for (int c = 0; c < COUNT(small_carveouts); ++c)
                row(k, initial, 64, odd_dyn[d], small_carveouts[c], OPTIN_NONE);
        const int invalid_carveouts[] = {-2, 101};
        for (int c = 0; c < COUNT(invalid_carveouts); ++c) row(k, initial, 64, 0, invalid_carveouts[c], OPTIN_NONE);
    }

    check(cudaFree(g_out), "cudaFree");
    return 0;
}

#endif  // __CUDACC_RTC__
