// FCHK probe (issue 9, sfchk): which (a, b) send `a / b` (div.rn.f32, ptxas: MUFU.RCP, FCHK,
// four FFMA, @P0 CALL __cuda_sm3x_div_rn_noftz_f32_slowpath) down the slow path on the H200.
//
// Pairs: every exponent pair (256 x 256) x 4 x 4 mantissas {0, 0x400000, 0x7fffff, 1}
// (1.0, 1.5, max, min; with exponent 0: zero and subnormals; with 255: inf and NaNs), signs from
// a hash of the index. 1,048,576 pairs.
//
// Method 1 (timing): kernel `probe_time`, one active lane per block, times each division with
// %clock64 (min of 3): the slow path is a call of tens of instructions, a bimodal gap.
// Method 2 (counts, under ncu): kernel `probe_count`, one division per thread over 8 chunks of
// the pairs (one launch each); the Source page's thread count of the CALL is the number of
// slow-path pairs in the chunk, compared with method 1's classification.
//
// Usage: fchk_probe OUTDIR [count]  (writes OUTDIR/time.bin: u16 cycles per pair,
// OUTDIR/quot.bin: u32 quotient bits per pair; with `count` runs only probe_count).
#include <cstdio>
#include <cstdlib>
#include <cstdint>
#include <vector>
#include <string>
#include <cuda_runtime.h>

static const uint32_t MANT[4] = {0x000000u, 0x400000u, 0x7fffffu, 0x000001u};

static uint32_t hash(uint32_t x)
{
    x ^= x >> 16; x *= 0x7feb352du; x ^= x >> 15; x *= 0x846ca68bu; x ^= x >> 16;
    return x;
}

// Pair i: ea = i >> 12 & 255, eb = i >> 4 & 255, ma = MANT[i >> 2 & 3], mb = MANT[i & 3].
static void pair(uint32_t i, uint32_t& a, uint32_t& b)
{
    uint32_t ea = (i >> 12) & 255, eb = (i >> 4) & 255;
    uint32_t h = hash(i);
    a = ((h & 1u) << 31) | (ea << 23) | MANT[(i >> 2) & 3];
    b = ((h & 2u) << 30) | (eb << 23) | MANT[i & 3];
}

__device__ __forceinline__ long long clk()
{
    long long t;
    asm volatile("mov.u64 %0, %%clock64;" : "=l"(t) :: "memory");
    return t;
}

__global__ void probe_time(const uint32_t* A, const uint32_t* B, uint16_t* T, uint32_t* Q, int n, int per)
{
    if (threadIdx.x != 0) return;
    const int lo = blockIdx.x * per;
    const int hi = min(n, lo + per);
    for (int i = lo; i < hi; i++) {
        const float a0 = __uint_as_float(A[i]), b0 = __uint_as_float(B[i]);
        long long best = 1 << 30;
        float q = 0.0f;
#pragma unroll 1
        for (int r = 0; r < 3; r++) {
            float a, b;
            asm volatile("mov.b32 %0, %1;" : "=f"(a) : "f"(a0));
            asm volatile("mov.b32 %0, %1;" : "=f"(b) : "f"(b0));
            const long long t0 = clk();
            q = a / b;
            asm volatile("mov.b32 %0, %0;" : "+f"(q));
            const long long t1 = clk();
            if (t1 - t0 < best) best = t1 - t0;
        }
        T[i] = (uint16_t)(best > 65535 ? 65535 : best);
        Q[i] = __float_as_uint(q);
    }
}

__global__ void probe_count(const uint32_t* A, const uint32_t* B, uint32_t* Q, int lo, int n)
{
    const int i = lo + blockIdx.x * blockDim.x + threadIdx.x;
    if (i >= n) return;
    Q[i] = __float_as_uint(__uint_as_float(A[i]) / __uint_as_float(B[i]));
}

#define CK(x) do { cudaError_t e = (x); if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", #x, cudaGetErrorString(e)); return 1; } } while (0)

int main(int argc, char** argv)
{
    if (argc < 2) { fprintf(stderr, "usage: %s OUTDIR [count]\n", argv[0]); return 2; }
    const std::string dir = argv[1];
    const bool count_only = argc > 2 && std::string(argv[2]) == "count";
    const int n = 1 << 20;
    std::vector<uint32_t> a(n), b(n);
    for (int i = 0; i < n; i++) pair((uint32_t)i, a[i], b[i]);
    uint32_t *dA, *dB, *dQ; uint16_t* dT;
    CK(cudaMalloc(&dA, n * 4)); CK(cudaMalloc(&dB, n * 4)); CK(cudaMalloc(&dQ, n * 4)); CK(cudaMalloc(&dT, n * 2));
    CK(cudaMemcpy(dA, a.data(), n * 4, cudaMemcpyHostToDevice));
    CK(cudaMemcpy(dB, b.data(), n * 4, cudaMemcpyHostToDevice));
    if (count_only) {
        const int chunk = n / 8;
        for (int k = 0; k < 8; k++) probe_count<<<chunk / 256, 256>>>(dA, dB, dQ, k * chunk, (k + 1) * chunk);
        CK(cudaDeviceSynchronize());
        std::vector<uint32_t> q(n);
        CK(cudaMemcpy(q.data(), dQ, n * 4, cudaMemcpyDeviceToHost));
        FILE* f = fopen((dir + "/quot_count.bin").c_str(), "wb"); fwrite(q.data(), 4, n, f); fclose(f);
        return 0;
    }
    const int per = 256;
    probe_time<<<n / per, 32>>>(dA, dB, dT, dQ, n, per);
    CK(cudaDeviceSynchronize());
    std::vector<uint16_t> t(n); std::vector<uint32_t> q(n);
    CK(cudaMemcpy(t.data(), dT, n * 2, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(q.data(), dQ, n * 4, cudaMemcpyDeviceToHost));
    FILE* f = fopen((dir + "/time.bin").c_str(), "wb"); fwrite(t.data(), 2, n, f); fclose(f);
    f = fopen((dir + "/quot.bin").c_str(), "wb"); fwrite(q.data(), 4, n, f); fclose(f);
    // Histogram of cycles, for the log.
    std::vector<int> hist(65536, 0);
    for (int i = 0; i < n; i++) hist[t[i]]++;
    for (int c = 0; c < 65536; c++) if (hist[c]) printf("cycles %d: %d\n", c, hist[c]);
    return 0;
}
