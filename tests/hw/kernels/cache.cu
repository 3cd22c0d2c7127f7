// Cache validation kernels: what L1, L2 and DRAM do with loads, stores, atomics and constants.
// Each kernel's launches in cache.toml vary one thing: the footprint, the cache operator, the
// order of loads and stores, the grid. Every load feeds `out` so nothing is removed.
//
// reread:       every thread sums in[i] over a grid-stride loop, `reps` passes over n floats.
//               One block: the pass-to-pass reuse L1 keeps; many blocks: what L2 keeps.
// reread_cg/cs/lu/nc/cv: reread with __ldcg / __ldcs / __ldlu / __ldg / __ldcv (one block).
// st_then_ld:   one block stores n floats, then (after a barrier) loads them back: do stores
//               allocate in L1?
// ld_then_st:   one block loads n floats, then stores to the same addresses: do stores hit?
// st_ops:       stores with __stwb / __stcg / __stcs / __stwt (mode), then loads them back.
// row_walk:     thread t walks row t of a rows x cols matrix (lanes `cols` floats apart, 32
//               sectors per request); the next 7 iterations find the sector in L1.
// stencil5:     5-point stencil on a W x H grid, 32 x 8 blocks.
// fill4:        float4 stores over n floats (store-heavy, no loads).
// atom_distinct / atom_same / red_distinct / red_same: global atomics and reductions.
// cst_words:    each lane reads c[(lane % k) * 32 + off] from __constant__ memory: k distinct
//               words, 128 bytes apart.
// cst_bytes:    each lane reads byte (lane % k) of a __constant__ char array.
// smid_map:     records %smid and the block's start in the global timer per block (the block
//               scheduler's assignment).

__global__ void reread(float* out, const float* in, int n, int reps)
{
    float acc = 0.0f;
    const int stride = gridDim.x * blockDim.x;
    for (int r = 0; r < reps; ++r)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            acc += in[i];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template <int OP>
__device__ __forceinline__ float load_op(const float* p)
{
    if (OP == 0) return __ldcg(p);
    if (OP == 1) return __ldcs(p);
    if (OP == 2) return __ldlu(p);
    if (OP == 3) return __ldg(p);
    return __ldcv(p);
}

template <int OP>
__global__ void reread_op(float* out, const float* in, int n, int reps)
{
    float acc = 0.0f;
    const int stride = gridDim.x * blockDim.x;
    for (int r = 0; r < reps; ++r)
        for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n; i += stride)
            acc += load_op<OP>(in + i);
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

template __global__ void reread_op<0>(float*, const float*, int, int);
template __global__ void reread_op<1>(float*, const float*, int, int);
template __global__ void reread_op<2>(float*, const float*, int, int);
template __global__ void reread_op<3>(float*, const float*, int, int);
template __global__ void reread_op<4>(float*, const float*, int, int);

__global__ void st_then_ld(float* out, float* buf, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = (float)i;
    __syncthreads();
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += buf[(i + 32) % n];
    out[threadIdx.x] = acc;
}

__global__ void ld_then_st(float* out, float* buf, int n)
{
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += buf[i];
    __syncthreads();
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        buf[i] = acc;
    out[threadIdx.x] = acc;
}

template <int MODE>
__global__ void st_ops(float* out, float* buf, int n)
{
    for (int i = threadIdx.x; i < n; i += blockDim.x) {
        if (MODE == 0) __stwb(buf + i, (float)i);
        if (MODE == 1) __stcg(buf + i, (float)i);
        if (MODE == 2) __stcs(buf + i, (float)i);
        if (MODE == 3) __stwt(buf + i, (float)i);
    }
    __syncthreads();
    float acc = 0.0f;
    for (int i = threadIdx.x; i < n; i += blockDim.x)
        acc += buf[i];
    out[threadIdx.x] = acc;
}

template __global__ void st_ops<0>(float*, float*, int);
template __global__ void st_ops<1>(float*, float*, int);
template __global__ void st_ops<2>(float*, float*, int);
template __global__ void st_ops<3>(float*, float*, int);

__global__ void row_walk(float* out, const float* in, int cols)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    float acc = 0.0f;
    for (int c = 0; c < cols; ++c)
        acc += in[t * cols + c];
    out[t] = acc;
}

__global__ void stencil5(float* out, const float* in, int w, int h)
{
    const int x = blockIdx.x * blockDim.x + threadIdx.x;
    const int y = blockIdx.y * blockDim.y + threadIdx.y;
    if (x < 1 || y < 1 || x >= w - 1 || y >= h - 1) return;
    const int i = y * w + x;
    out[i] = 0.2f * (in[i] + in[i - 1] + in[i + 1] + in[i - w] + in[i + w]);
}

__global__ void fill4(float4* out, int n4)
{
    const int stride = gridDim.x * blockDim.x;
    for (int i = blockIdx.x * blockDim.x + threadIdx.x; i < n4; i += stride)
        out[i] = make_float4((float)i, 1.0f, 2.0f, 3.0f);
}

__global__ void atom_distinct(unsigned* cnt, int reps)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned s = 0;
    for (int r = 0; r < reps; ++r)
        s += atomicAdd(&cnt[t], 1u);
    if (s == 0xffffffffu) cnt[0] = s;
}

__global__ void atom_same(unsigned* cnt, int reps)
{
    unsigned s = 0;
    for (int r = 0; r < reps; ++r)
        s += atomicAdd(&cnt[blockIdx.x], (unsigned)threadIdx.x);
    if (s == 0xffffffffu) cnt[0] = s;
}

__global__ void red_distinct(unsigned* cnt, int reps)
{
    const int t = blockIdx.x * blockDim.x + threadIdx.x;
    for (int r = 0; r < reps; ++r)
        atomicAdd(&cnt[t], 1u);
}

__global__ void red_same(float* acc, int reps)
{
    for (int r = 0; r < reps; ++r)
        atomicAdd(&acc[blockIdx.x % 4], 1.0f);
}

__constant__ float c_words[32 * 32];
__constant__ char c_bytes[256];

__global__ void cst_words(float* out, int k, int off, int reps)
{
    float acc = 0.0f;
    const int lane = threadIdx.x % 32;
    for (int r = 0; r < reps; ++r)
        acc += c_words[((lane % k) * 32 + off + r) % (32 * 32)];
    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;
}

__global__ void cst_bytes(float* out, int k, int off)
{
    const int lane = threadIdx.x % 32;
    out[blockIdx.x * blockDim.x + threadIdx.x] = (float)c_bytes[(lane % k) + off];
}

__global__ void smid_map(unsigned long long* out)
{
    if (threadIdx.x == 0) {
        unsigned sm;
        unsigned long long t;
        asm volatile("mov.u32 %0, %%smid;" : "=r"(sm));
        asm volatile("mov.u64 %0, %%globaltimer;" : "=l"(t));
        out[2 * (blockIdx.x + gridDim.x * blockIdx.y)] = sm;
        out[2 * (blockIdx.x + gridDim.x * blockIdx.y) + 1] = t;
    }
}
