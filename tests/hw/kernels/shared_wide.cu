// Shared-memory 64-bit (float2, LDS.64) and 128-bit (float4, LDS.128) accesses.
// One warp (block = 32). The buffer is filled with stride-1 32-bit stores (FILL4 / 32 STS).
// Part 1: strides S (in 8- or 16-byte units) 1, 2, 3, 4, 8, 16, 32.
// Part 2: index tables (a global int buffer `idx`, one entry per lane; a negative entry makes the
//         lane skip the access) that tell the candidate wide-access rules apart; see README.md.
//         Reading idx costs one extra LDG per launch (4 sectors).

#define N2 1088             // float2 elements: 31*32 + 32 + 32 headroom
#define N4 1088             // float4 elements
#define FILL2 (2 * N2)      // floats = 2176 = 68 * 32
#define FILL4 (4 * N4)      // floats = 4352 = 136 * 32

template <int S>
__global__ void sh_v2_stride(float* out, int off, float scale)
{
    __shared__ float2 s[N2];
    const int t = threadIdx.x;
    float* f = reinterpret_cast<float*>(s);
    for (int i = t; i < FILL2; i += 32) f[i] = scale * (float)i;
    __syncthreads();
    float2 v = s[t * S + off];  // the measured LDS.64
    out[t] = v.x + v.y;
}

template <int S>
__global__ void sh_v4_stride(float* out, int off, float scale)
{
    __shared__ float4 s[N4];
    const int t = threadIdx.x;
    float* f = reinterpret_cast<float*>(s);
    for (int i = t; i < FILL4; i += 32) f[i] = scale * (float)i;
    __syncthreads();
    float4 v = s[t * S + off];  // the measured LDS.128
    out[t] = v.x + v.y + v.z + v.w;
}

// 64-bit stores at stride S, read back with the same pattern.
template <int S>
__global__ void sh_v2_store_stride(float* out, int off, float scale)
{
    __shared__ float2 s[N2];
    const int t = threadIdx.x;
    s[t * S + off] = make_float2(scale * t, scale * t + 1.0f);  // the measured STS.64
    __syncthreads();
    float2 v = s[t * S + off];
    out[t] = v.x + v.y;
}

template <int S>
__global__ void sh_v4_store_stride(float* out, int off, float scale)
{
    __shared__ float4 s[N4];
    const int t = threadIdx.x;
    s[t * S + off] = make_float4(scale * t, 1.0f, 2.0f, 3.0f);  // the measured STS.128
    __syncthreads();
    float4 v = s[t * S + off];
    out[t] = v.x + v.y + v.z + v.w;
}

__global__ void sh_v2_table(float* out, const int* idx, float scale)
{
    __shared__ float2 s[N2];
    const int t = threadIdx.x;
    float* f = reinterpret_cast<float*>(s);
    for (int i = t; i < FILL2; i += 32) f[i] = scale * (float)i;
    __syncthreads();
    const int i = idx[t];
    float r = 0.0f;
    if (i >= 0) {
        float2 v = s[i];  // the measured LDS.64 (predicated per lane)
        r = v.x + v.y;
    }
    out[t] = r;
}

__global__ void sh_v4_table(float* out, const int* idx, float scale)
{
    __shared__ float4 s[N4];
    const int t = threadIdx.x;
    float* f = reinterpret_cast<float*>(s);
    for (int i = t; i < FILL4; i += 32) f[i] = scale * (float)i;
    __syncthreads();
    const int i = idx[t];
    float r = 0.0f;
    if (i >= 0) {
        float4 v = s[i];  // the measured LDS.128 (predicated per lane)
        r = v.x + v.y + v.z + v.w;
    }
    out[t] = r;
}

template __global__ void sh_v2_stride<1>(float*, int, float);
template __global__ void sh_v2_stride<2>(float*, int, float);
template __global__ void sh_v2_stride<3>(float*, int, float);
template __global__ void sh_v2_stride<4>(float*, int, float);
template __global__ void sh_v2_stride<8>(float*, int, float);
template __global__ void sh_v2_stride<16>(float*, int, float);
template __global__ void sh_v2_stride<32>(float*, int, float);
template __global__ void sh_v4_stride<1>(float*, int, float);
template __global__ void sh_v4_stride<2>(float*, int, float);
template __global__ void sh_v4_stride<3>(float*, int, float);
template __global__ void sh_v4_stride<4>(float*, int, float);
template __global__ void sh_v4_stride<8>(float*, int, float);
template __global__ void sh_v4_stride<16>(float*, int, float);
template __global__ void sh_v4_stride<32>(float*, int, float);
template __global__ void sh_v2_store_stride<1>(float*, int, float);
template __global__ void sh_v2_store_stride<2>(float*, int, float);
template __global__ void sh_v2_store_stride<16>(float*, int, float);
template __global__ void sh_v4_store_stride<1>(float*, int, float);
template __global__ void sh_v4_store_stride<2>(float*, int, float);
template __global__ void sh_v4_store_stride<8>(float*, int, float);
