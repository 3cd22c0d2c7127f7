// Global-memory coalescing patterns from seed 001 ("global memory coalescing 예시"):
// a warp's 32 addresses are served in 32-byte sectors (CUDA C++ Programming Guide,
// "Global Memory" for compute capability 5.x and later), so 32 consecutive floats need
// 4 sectors and 32 floats 4 KiB apart need 32.
//
// GPU_0 copy_coalesced: i = blockIdx.x * blockDim.x + threadIdx.x (consecutive lanes,
//       consecutive floats: 4 sectors per request).
// GPU_1 copy_chunked:   each thread walks its own contiguous chunk, i = tid * chunk + k
//       (lanes are `chunk` floats apart: 32 sectors per request).
// GPU_2 copy_2d:        2D blocks over a row-major matrix, i = y * width + x; a warp is 32
//       consecutive linear thread ids (threadIdx.y * blockDim.x + threadIdx.x), so
//       (32,32) gives one row segment per warp, (8,128) four, (1,1024) 32 rows.

__global__ void copy_coalesced(float* out, const float* in)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = in[i];
}

__global__ void copy_chunked(float* out, const float* in, int chunk)
{
    const unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    for (int k = 0; k < chunk; ++k) {
        const unsigned i = tid * chunk + k;
        out[i] = in[i];
    }
}

__global__ void copy_2d(float* out, const float* in, int width)
{
    const unsigned x = blockIdx.x * blockDim.x + threadIdx.x;
    const unsigned y = blockIdx.y * blockDim.y + threadIdx.y;
    const unsigned i = y * width + x;
    out[i] = in[i];
}
