// Second carveout sweep (2026-12-01): does the driver's choice of launch__shared_mem_config_size
// depend on launch order, on cudaFuncAttributeMaxDynamicSharedMemorySize, or on the carveout
// preference? One kernel (128 bytes of static shared memory), three sequences:
//   A: block x dynamic shared memory ascending, no attribute set (dynamic <= 48 KB needs none);
//   B: the same pairs in a shuffled order (fixed seed), each launched twice in a row;
//   C: cudaFuncAttributePreferredSharedMemoryCarveout in {0, 25, 50, 75, 100} for a few pairs.
// Each launch prints "launch N seq S block B dyn D pref P err E" in launch order (ncu's ID + 1).
#include <cstdio>
#include <cstdlib>
#include <vector>

__global__ void sweep2(float *out, int n) {
    __shared__ float s[32];
    s[threadIdx.x % 32] = out[threadIdx.x % n];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x % n] = s[0] + s[31];
}
// A copy for sequence C, so that the preference set there cannot leak into A and B.
__global__ void sweep2c(float *out, int n) {
    __shared__ float s[32];
    s[threadIdx.x % 32] = out[threadIdx.x % n];
    __syncthreads();
    if (threadIdx.x == 0) out[blockIdx.x % n] = s[0] + s[31];
}

int main() {
    float *out;
    const int n = 1 << 16;
    cudaMalloc(&out, n * sizeof(float));
    cudaMemset(out, 0, n * sizeof(float));
    int blocks[] = {32, 64, 96, 128, 160, 192, 224, 256, 288, 320, 384, 448, 512, 576, 640, 704, 768, 896, 1024};
    int dyns[] = {0, 128, 256, 512, 768, 1024, 1536, 2048, 3072, 4096, 6144, 8192, 12288, 16384, 24576, 32768, 40960, 48128};
    std::vector<std::pair<int, int>> pairs;
    for (int b : blocks)
        for (int d : dyns) pairs.push_back({b, d});
    int id = 0;
    for (auto p : pairs) {
        sweep2<<<132, p.first, p.second>>>(out, n);
        cudaError_t e = cudaDeviceSynchronize();
        printf("launch %d seq A block %d dyn %d pref -1 err %d\n", ++id, p.first, p.second, (int)e);
    }
    srand(12345);
    for (size_t i = pairs.size() - 1; i > 0; i--) {
        size_t j = rand() % (i + 1);
        std::swap(pairs[i], pairs[j]);
    }
    for (auto p : pairs)
        for (int rep = 0; rep < 2; rep++) {
            sweep2<<<132, p.first, p.second>>>(out, n);
            cudaError_t e = cudaDeviceSynchronize();
            printf("launch %d seq B block %d dyn %d pref -1 err %d\n", ++id, p.first, p.second, (int)e);
        }
    int prefs[] = {0, 25, 50, 75, 100};
    int cb[] = {128, 1024};
    int cd[] = {0, 4096, 16384};
    for (int pr : prefs) {
        cudaFuncSetAttribute(sweep2c, cudaFuncAttributePreferredSharedMemoryCarveout, pr);
        for (int b : cb)
            for (int d : cd) {
                sweep2c<<<132, b, d>>>(out, n);
                cudaError_t e = cudaDeviceSynchronize();
                printf("launch %d seq C block %d dyn %d pref %d err %d\n", ++id, b, d, pr, (int)e);
            }
    }
    return 0;
}
