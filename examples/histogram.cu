// 256-bin histogram: each block counts into a __shared__ histogram with shared-memory
// atomicAdd, then adds its counts to the global histogram with one global atomicAdd per bin.
// Counts are exact whatever order the atomics run in.
// With uniform random bytes the lanes of a warp mostly hit different bins; with a constant
// input every lane hits the same bin (all atomics to one address).

#define BINS 256

__global__ void histogram256(unsigned int* hist, const unsigned char* in, int n)
{
    __shared__ unsigned int sh_hist[BINS];
    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        sh_hist[b] = 0;
    __syncthreads();

    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
        atomicAdd(&sh_hist[in[i]], 1u);
    __syncthreads();

    for (int b = threadIdx.x; b < BINS; b += blockDim.x)
        if (sh_hist[b] != 0)
            atomicAdd(&hist[b], sh_hist[b]);
}
