// Shared-memory bank conflicts by stride (seed 000, "뱅크 충돌"; CUDA C++ Programming Guide,
// "Shared Memory" for compute capability 5.x and later: 32 banks of 4 bytes).
//
// Each warp reads sh[threadIdx.x * S + k]: lanes t and t' hit the same bank when
// (t - t') * S is a multiple of 32, so the warp needs gcd(S, 32) wavefronts per load
// (S = 1: conflict-free, S = 2: 2-way, S = 3: conflict-free, S = 32: 32-way).
// The uniform offset k only rotates the banks; it keeps the compiler from hoisting the load.

#define BLOCK 128

template <int S>
__global__ void sh_stride(float* out, int iters)
{
    __shared__ float sh[BLOCK * 32 + 32];
    const unsigned t = threadIdx.x;

    // Fill with small integers (stride-1 stores: conflict-free).
    for (unsigned i = t; i < BLOCK * 32 + 32; i += BLOCK)
        sh[i] = (float)(i & 1023);
    __syncthreads();

    float acc = 0.0f;
    for (int k = 0; k < iters; ++k)
        acc += sh[t * S + (k & 31)];  // the measured load: stride S words

    out[blockIdx.x * BLOCK + t] = acc;  // sums of small integers: exact in float
}
