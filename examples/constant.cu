// Constant memory (seed 001, "Constant Memory"; CUDA C++ Programming Guide, "Constant
// Memory": a warp's request is split into as many separate requests as there are distinct
// addresses, so it is fastest when every lane reads the same word).
//
// const_uniform:      every lane reads c_tab[0]: one address per warp.
// const_divergent<K>: lane t reads c_tab[threadIdx.x % K]: K distinct addresses per warp.

__constant__ float c_tab[64];

__global__ void const_uniform(float* out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = c_tab[0] * 2.0f + (float)i;
}

template <int K>
__global__ void const_divergent(float* out)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    out[i] = c_tab[threadIdx.x % K] * 2.0f + (float)i;
}
