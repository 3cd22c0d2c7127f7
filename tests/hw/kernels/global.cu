// Global-memory coalescing: 32-bit strides 1..32, misaligned starts, float2/float4 loads and
// stores, a random gather, a fully predicated-off load, atomics and reductions.
// One warp (block = 32) unless the spec says otherwise. Buffers come from the runtime's
// allocator (256-byte aligned, like cudaMalloc). `off` is a runtime argument.
// Every kernel also stores out[t] once: 1 STG, 1 request, 4 sectors (32 consecutive floats).

template <int K>
__global__ void gl_stride(float* out, const float* in, int off)
{
    const int t = threadIdx.x;
    out[t] = in[t * K + off];  // the measured LDG
}

template <int S>
__global__ void gl_v2_ld(float* out, const float2* in, int off)
{
    const int t = threadIdx.x;
    float2 v = in[t * S + off];  // LDG.64
    out[t] = v.x + v.y;
}

template <int S>
__global__ void gl_v4_ld(float* out, const float4* in, int off)
{
    const int t = threadIdx.x;
    float4 v = in[t * S + off];  // LDG.128
    out[t] = v.x + v.y + v.z + v.w;
}

// Stores only: no load at all. out2 / out4 get one STG.64 / STG.128 each.
template <int S>
__global__ void gl_v2_st(float2* out2, int off, float scale)
{
    const int t = threadIdx.x;
    out2[t * S + off] = make_float2(scale * t, 1.0f);
}

template <int S>
__global__ void gl_v4_st(float4* out4, int off, float scale)
{
    const int t = threadIdx.x;
    out4[t * S + off] = make_float4(scale * t, 1.0f, 2.0f, 3.0f);
}

// 32-bit store at stride K (no load).
template <int K>
__global__ void gl_st_stride(float* out, int off, float scale)
{
    const int t = threadIdx.x;
    out[t * K + off] = scale * t;
}

// Random gather: lane t reads in[idx[t]]; idx is a fixed table in the spec.
// Two LDG: idx (4 sectors) and the gather.
__global__ void gl_gather(float* out, const float* in, const int* idx)
{
    const int t = threadIdx.x;
    out[t] = in[idx[t]];
}

// n = 0 at run time: the load is an explicitly predicated PTX `@p ld.global` (inline PTX, so
// ptxas keeps one predicated LDG rather than branching around it) with every lane's predicate
// false. It checks whether a warp instruction with no active lane still makes an L1TEX request.
__global__ void gl_pred_off(float* out, const float* in, int n)
{
    const int t = threadIdx.x;
    float v = 0.0f;
    asm volatile("{\n\t.reg .pred p;\n\tsetp.lt.s32 p, %1, %2;\n\t@p ld.global.f32 %0, [%3];\n\t}"
                 : "+f"(v)
                 : "r"(t), "r"(n), "l"(in + t));
    out[t] = v;
}

// Atomics with the result used (ATOMG) and unused (RED), 32-bit.
// mode 0: all lanes on element 0; mode 1: lane t on element t; mode 2: lane t on element 8t.
__global__ void gl_atom(float* out, unsigned int* cnt, int mode)
{
    const int t = threadIdx.x;
    const int i = mode == 0 ? 0 : (mode == 1 ? t : 8 * t);
    unsigned int old = atomicAdd(&cnt[i], 1u);
    out[t] = (float)old;
}

__global__ void gl_red(unsigned int* cnt, int mode)
{
    const int t = threadIdx.x;
    const int i = mode == 0 ? 0 : (mode == 1 ? t : 8 * t);
    atomicAdd(&cnt[i], 1u);
}

template __global__ void gl_stride<1>(float*, const float*, int);
template __global__ void gl_stride<2>(float*, const float*, int);
template __global__ void gl_stride<3>(float*, const float*, int);
template __global__ void gl_stride<4>(float*, const float*, int);
template __global__ void gl_stride<5>(float*, const float*, int);
template __global__ void gl_stride<6>(float*, const float*, int);
template __global__ void gl_stride<7>(float*, const float*, int);
template __global__ void gl_stride<8>(float*, const float*, int);
template __global__ void gl_stride<9>(float*, const float*, int);
template __global__ void gl_stride<10>(float*, const float*, int);
template __global__ void gl_stride<11>(float*, const float*, int);
template __global__ void gl_stride<12>(float*, const float*, int);
template __global__ void gl_stride<13>(float*, const float*, int);
template __global__ void gl_stride<14>(float*, const float*, int);
template __global__ void gl_stride<15>(float*, const float*, int);
template __global__ void gl_stride<16>(float*, const float*, int);
template __global__ void gl_stride<17>(float*, const float*, int);
template __global__ void gl_stride<18>(float*, const float*, int);
template __global__ void gl_stride<19>(float*, const float*, int);
template __global__ void gl_stride<20>(float*, const float*, int);
template __global__ void gl_stride<21>(float*, const float*, int);
template __global__ void gl_stride<22>(float*, const float*, int);
template __global__ void gl_stride<23>(float*, const float*, int);
template __global__ void gl_stride<24>(float*, const float*, int);
template __global__ void gl_stride<25>(float*, const float*, int);
template __global__ void gl_stride<26>(float*, const float*, int);
template __global__ void gl_stride<27>(float*, const float*, int);
template __global__ void gl_stride<28>(float*, const float*, int);
template __global__ void gl_stride<29>(float*, const float*, int);
template __global__ void gl_stride<30>(float*, const float*, int);
template __global__ void gl_stride<31>(float*, const float*, int);
template __global__ void gl_stride<32>(float*, const float*, int);
template __global__ void gl_v2_ld<1>(float*, const float2*, int);
template __global__ void gl_v2_ld<2>(float*, const float2*, int);
template __global__ void gl_v4_ld<1>(float*, const float4*, int);
template __global__ void gl_v4_ld<2>(float*, const float4*, int);
template __global__ void gl_v2_st<1>(float2*, int, float);
template __global__ void gl_v4_st<1>(float4*, int, float);
template __global__ void gl_v4_st<2>(float4*, int, float);
template __global__ void gl_st_stride<1>(float*, int, float);
template __global__ void gl_st_stride<2>(float*, int, float);
template __global__ void gl_st_stride<8>(float*, int, float);
