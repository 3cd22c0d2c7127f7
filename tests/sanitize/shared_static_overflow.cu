// Planted bug: the block has 128 threads but the shared array 64 elements.
__global__ void stage64(float* out, const float* in)
{
    __shared__ float tile[64];
    int t = threadIdx.x;
    tile[t] = in[blockIdx.x * blockDim.x + t]; // planted: memcheck shared write
    __syncthreads();
    out[blockIdx.x * blockDim.x + t] = tile[t % 64];
}
