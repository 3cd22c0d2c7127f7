// Broadcast and multicast in shared memory (CUDA C++ Programming Guide, "Shared Memory",
// compute capability 5.x and later: lanes reading the same 32-bit word are served by one
// access, a broadcast; several words each read by a group of lanes is a multicast).
//
// broadcast_read: all 32 lanes read one word: 1 wavefront.
// multicast_read<G, STRIDE>: lanes in groups of G read word (lane / G) * STRIDE.
//   <4, 1>:  8 distinct words in 8 different banks: 1 wavefront.
//   <8, 32>: 4 distinct words, all in bank 0: 4 wavefronts (broadcast inside each group,
//            conflict between groups).

__device__ void fill(float* sh, unsigned n)
{
    for (unsigned i = threadIdx.x; i < n; i += blockDim.x)
        sh[i] = (float)(i % 251);
    __syncthreads();
}

__global__ void broadcast_read(float* out)
{
    __shared__ float sh[1024];
    fill(sh, 1024);
    const unsigned warp = threadIdx.x / 32;
    float v = sh[(blockIdx.x * 8 + warp) % 1024];   // one word per warp
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + (float)threadIdx.x;
}

template <int G, int STRIDE>
__global__ void multicast_read(float* out)
{
    __shared__ float sh[1024];
    fill(sh, 1024);
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;
    float v = sh[(lane / G) * STRIDE + warp];       // 32 / G words per warp
    out[blockIdx.x * blockDim.x + threadIdx.x] = v + (float)threadIdx.x;
}
