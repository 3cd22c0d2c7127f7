__global__ void histogram_ok(unsigned* hist, const unsigned char* data, int n)
{
    __shared__ unsigned bins[256];
    int t = threadIdx.x;
    bins[t] = 0;
    __syncthreads();
    for (int i = blockIdx.x * blockDim.x + t; i < n; i += gridDim.x * blockDim.x)
        atomicAdd(&bins[data[i]], 1u);
    __syncthreads();
    atomicAdd(&hist[t], bins[t]);
}
