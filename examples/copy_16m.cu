// Benchmark: a coalesced copy of 16M floats (64 MiB each way), one element per thread.
// Every warp request covers 128 consecutive bytes: 4 sectors.

__global__ void copy(float* out, const float* in, int n)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned)n)
        out[i] = in[i];
}
