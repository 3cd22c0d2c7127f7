// Shared-memory 32-bit strides 1..33 (loads) and conflicting stores.
// One warp (block = 32). `off` and `scale` are runtime arguments so nothing is folded or hoisted.
// Fill: s is written row by row with stride-1 stores, 1088 / 32 = 34 STS, each 1 wavefront.

#define FILL 1088  // 34 * 32 >= 31 * 33 + 32

template <int K>
__global__ void sh_stride(float* out, int off, float scale)
{
    __shared__ float s[FILL];
    const int t = threadIdx.x;
    for (int i = t; i < FILL; i += 32) s[i] = scale * (float)i;
    __syncthreads();
    out[t] = s[t * K + off];  // the measured LDS: gcd(K, 32) wavefronts
}

// One measured STS at stride K, read back at the same stride (same bank pattern).
template <int K>
__global__ void sh_store_stride(float* out, int off, float scale)
{
    __shared__ float s[FILL];
    const int t = threadIdx.x;
    s[t * K + off] = scale * (float)t;  // the measured STS: gcd(K, 32) wavefronts
    __syncthreads();
    out[t] = s[t * K + off];  // one LDS, same pattern
}

// Name expressions used by shared_stride.toml (instantiated explicitly for nvcc builds).
template __global__ void sh_stride<1>(float*, int, float);
template __global__ void sh_stride<2>(float*, int, float);
template __global__ void sh_stride<3>(float*, int, float);
template __global__ void sh_stride<4>(float*, int, float);
template __global__ void sh_stride<5>(float*, int, float);
template __global__ void sh_stride<6>(float*, int, float);
template __global__ void sh_stride<7>(float*, int, float);
template __global__ void sh_stride<8>(float*, int, float);
template __global__ void sh_stride<9>(float*, int, float);
template __global__ void sh_stride<10>(float*, int, float);
template __global__ void sh_stride<11>(float*, int, float);
template __global__ void sh_stride<12>(float*, int, float);
template __global__ void sh_stride<13>(float*, int, float);
template __global__ void sh_stride<14>(float*, int, float);
template __global__ void sh_stride<15>(float*, int, float);
template __global__ void sh_stride<16>(float*, int, float);
template __global__ void sh_stride<17>(float*, int, float);
template __global__ void sh_stride<18>(float*, int, float);
template __global__ void sh_stride<19>(float*, int, float);
template __global__ void sh_stride<20>(float*, int, float);
template __global__ void sh_stride<21>(float*, int, float);
template __global__ void sh_stride<22>(float*, int, float);
template __global__ void sh_stride<23>(float*, int, float);
template __global__ void sh_stride<24>(float*, int, float);
template __global__ void sh_stride<25>(float*, int, float);
template __global__ void sh_stride<26>(float*, int, float);
template __global__ void sh_stride<27>(float*, int, float);
template __global__ void sh_stride<28>(float*, int, float);
template __global__ void sh_stride<29>(float*, int, float);
template __global__ void sh_stride<30>(float*, int, float);
template __global__ void sh_stride<31>(float*, int, float);
template __global__ void sh_stride<32>(float*, int, float);
template __global__ void sh_stride<33>(float*, int, float);
template __global__ void sh_store_stride<1>(float*, int, float);
template __global__ void sh_store_stride<2>(float*, int, float);
template __global__ void sh_store_stride<3>(float*, int, float);
template __global__ void sh_store_stride<4>(float*, int, float);
template __global__ void sh_store_stride<8>(float*, int, float);
template __global__ void sh_store_stride<16>(float*, int, float);
template __global__ void sh_store_stride<32>(float*, int, float);
template __global__ void sh_store_stride<33>(float*, int, float);
