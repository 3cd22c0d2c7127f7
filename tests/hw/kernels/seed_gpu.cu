// The seed's GPU_0 / GPU_1 / GPU_2 kernels (seeds/001, "Coalesced Global Memory Access").
// gpu_0: standard 1D indexing, consecutive lanes read consecutive floats.
// gpu_1: i = threadIdx.x * stride + blockIdx.x (the seed's stride is 65536): every lane of a
//        warp is `stride` floats from its neighbour.
// gpu_2: 2D block; warps are formed from the linear id threadIdx.y * blockDim.x + threadIdx.x,
//        so the block shape decides how many rows one warp touches.

__global__ void gpu_0(float* out, const float* in, int n)
{
    const int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n) out[i] = in[i] * 2.0f;
}

__global__ void gpu_1(float* out, const float* in, int stride)
{
    const int i = threadIdx.x * stride + blockIdx.x;
    out[i] = in[i] * 2.0f;
}

__global__ void gpu_2(float* out, const float* in, int width)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    out[y * width + x] = in[y * width + x] * 2.0f;
}
