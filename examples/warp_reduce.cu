// Sum reduction with warp shuffles: each warp folds its 32 values with __shfl_down_sync
// (offsets 16, 8, 4, 2, 1: register exchange, no shared memory), then lane 0 stores the warp's
// sum and adds it to the total with one global atomicAdd per warp.
// Unsigned arithmetic wraps modulo 2^32, so the result does not depend on the order in which
// the atomics arrive.

__global__ void warp_reduce_sum(unsigned int* total, unsigned int* warp_sums,
                                const unsigned int* in, int n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int v = (i < (unsigned)n) ? in[i] : 0u;
    for (int offset = 16; offset > 0; offset /= 2)
        v += __shfl_down_sync(0xffffffffu, v, offset);
    if ((threadIdx.x & 31) == 0) {
        warp_sums[i / 32] = v;
        atomicAdd(total, v);
    }
}
