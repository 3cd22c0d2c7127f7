// scas2 (issue 9): isa_atom's shared 64-bit atomicAdd (ptxas's LDS.64 + ATOMS.CAST.SPIN.64
// loop) with its serving order recorded. isa_atom, isa_atom_init, acc_init and sacc_init are
// copied unchanged from tests/hw/kernels/isa.cu (the control: its Source page must still show
// the loop's 2,023 executions); isa_atom_log is the same kernel that also writes the old value
// its add saw to rank[g] (sorting a block's lanes by old value + 0x10, mod 2^64, gives the order
// in which they were served, each adding x * 3 > 0).
typedef unsigned int u32;
typedef unsigned long long u64;

struct Out {
    u32* out;
    u32 n, g, k;
    __device__ Out(u32* o) : out(o), n(gridDim.x * blockDim.x), g(blockIdx.x * blockDim.x + threadIdx.x), k(0) {}
    __device__ void w(u32 v) { out[(k++) * n + g] = v; }
    __device__ void w64(u64 v) { w((u32)v); w((u32)(v >> 32)); }
};

// acc: 32 u32 contended slots (initialised by isa_atom_init); acc64: 4 u64 slots;
// per: per-thread slots (4 per thread); out: recorded old values and shared results.
__device__ const u32 acc_init[16] = {0xffffffffu, 0u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0u,
                                     0x12345678u, 0u, 0u, 0u, 5u, 5u, 3u, 0u, 0u, 0u};
__device__ const u32 sacc_init[16] = {0xffffffffu, 0u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0u,
                                      0x9abcdef0u, 0u, 0u, 5u, 0u, 0u, 0u, 0u, 0u, 0u};

__global__ void isa_atom_init(u32* acc, u64* acc64, u32* per, const u32* a)
{
    const u32 g = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 n = gridDim.x * blockDim.x;
    if (g < 32) {
        acc[g] = acc_init[g & 15];
    }
    if (g < 4) acc64[g] = (u64)g << 60 | 0xfffffff0ull;
    for (u32 i = g; i < 4 * n; i += n) per[i] = a[i % n] ^ 0x5a5a5a5au;
}

__global__ void isa_atom(u32* out, u32* acc, u64* acc64, u32* per, const u32* a, const u32* b)
{
    Out o(out);
    const u32 g = o.g;
    const u32 tid = threadIdx.x;
    const u32 x = a[g];
    const u32 y = b[g];

    // Contended global atomics: order-independent final values, results unused (RED).
    atomicMin(&acc[0], x);
    atomicMax(&acc[1], x);
    atomicMin((int*)&acc[2], (int)x);
    atomicMax((int*)&acc[3], (int)x);
    atomicAnd(&acc[4], x | 0xfeeffbbfu);
    atomicOr(&acc[5], x & 0x01100410u);
    atomicXor(&acc[6], x);
    atomicAdd(&acc[7], x);                     // wraps
    atomicInc(&acc[8], 99u);                   // n=512 increments mod 100
    atomicInc(&acc[9], 0xffffffffu);           // never wraps: counts
    atomicDec(&acc[10], 6u);                   // cycle of 7 starting from 5
    atomicDec(&acc[11], 0u);                   // always stores 0
    atomicInc(&acc[12 + (x & 1)], 2u);
    atomicSub(&acc[14], y & 0xffff);
    atomicAdd(&acc64[0], (u64)x * y);
    atomicAdd(&acc64[1], (u64)x << 31);
    atomicMin(&acc64[2], ((u64)y << 32) | x);
    atomicMax(&acc64[3], ((u64)x << 32) | y);

    // Per-thread global slots: old values are deterministic and recorded.
    const u32 n = o.n;
    u32* s0 = &per[g];
    u32* s1 = &per[n + g];
    u32* s2 = &per[2 * n + g];
    u32* s3 = &per[3 * n + g];
    const u32 cur = *s0;
    o.w(atomicCAS(s0, (y & 1) ? cur : cur + 1, y));   // succeeds for odd y
    o.w(atomicExch(s1, y));
    o.w(atomicInc(s2, y & 0x7fffffffu));               // limit may be below the old value
    o.w(atomicDec(s3, (y >> 1) & 3));                  // old may be 0 or above the limit
    o.w(atomicMin(s1, x));
    o.w(atomicMax((int*)s2, (int)x));
    o.w(atomicAdd(s3, x));
    o.w(atomicCAS(s1, x, 0xdeadbeefu));

    // Shared memory: same operations on per-block state.
    __shared__ u32 sacc[16];
    __shared__ u32 sper[128 * 2];
    __shared__ unsigned long long s64[2];
    if (tid < 16) {
        sacc[tid] = sacc_init[tid];
    }
    if (tid < 2) s64[tid] = 0xfffffffffffffff0ull;
    sper[tid] = x;
    sper[128 + tid] = y;
    __syncthreads();
    atomicMin(&sacc[0], x);
    atomicMax(&sacc[1], y);
    atomicMin((int*)&sacc[2], (int)y);
    atomicMax((int*)&sacc[3], (int)x);
    atomicAnd(&sacc[4], y | 0xbfeffdffu);
    atomicOr(&sacc[5], y & 0x00200408u);
    atomicXor(&sacc[6], y);
    atomicAdd(&sacc[7], x ^ y);
    atomicInc(&sacc[8], 9u);
    atomicDec(&sacc[9], 10u);
    atomicAdd(&s64[0], (u64)x * 3u);
    atomicAdd(&sacc[10 + (tid & 3)], 1u);
    const u32 scur = sper[tid];
    u32 r0 = atomicCAS(&sper[tid], (y & 2) ? scur : ~scur, y ^ 0x1234u);
    u32 r1 = atomicExch(&sper[128 + tid], x + 1u);
    u32 r2 = atomicInc(&sper[tid], 0x7fffffffu);
    u32 r3 = atomicMax(&sper[128 + tid], y);
    __syncthreads();
    o.w(r0);
    o.w(r1);
    o.w(r2);
    o.w(r3);
    o.w(sper[tid]);
    o.w(sper[128 + tid]);
    o.w(sacc[tid & 15]);
    o.w64(s64[0]);
}


__global__ void isa_atom_log(u64* rank, u32* out, u32* acc, u64* acc64, u32* per, const u32* a, const u32* b)
{
    Out o(out);
    const u32 g = o.g;
    const u32 tid = threadIdx.x;
    const u32 x = a[g];
    const u32 y = b[g];

    // Contended global atomics: order-independent final values, results unused (RED).
    atomicMin(&acc[0], x);
    atomicMax(&acc[1], x);
    atomicMin((int*)&acc[2], (int)x);
    atomicMax((int*)&acc[3], (int)x);
    atomicAnd(&acc[4], x | 0xfeeffbbfu);
    atomicOr(&acc[5], x & 0x01100410u);
    atomicXor(&acc[6], x);
    atomicAdd(&acc[7], x);                     // wraps
    atomicInc(&acc[8], 99u);                   // n=512 increments mod 100
    atomicInc(&acc[9], 0xffffffffu);           // never wraps: counts
    atomicDec(&acc[10], 6u);                   // cycle of 7 starting from 5
    atomicDec(&acc[11], 0u);                   // always stores 0
    atomicInc(&acc[12 + (x & 1)], 2u);
    atomicSub(&acc[14], y & 0xffff);
    atomicAdd(&acc64[0], (u64)x * y);
    atomicAdd(&acc64[1], (u64)x << 31);
    atomicMin(&acc64[2], ((u64)y << 32) | x);
    atomicMax(&acc64[3], ((u64)x << 32) | y);

    // Per-thread global slots: old values are deterministic and recorded.
    const u32 n = o.n;
    u32* s0 = &per[g];
    u32* s1 = &per[n + g];
    u32* s2 = &per[2 * n + g];
    u32* s3 = &per[3 * n + g];
    const u32 cur = *s0;
    o.w(atomicCAS(s0, (y & 1) ? cur : cur + 1, y));   // succeeds for odd y
    o.w(atomicExch(s1, y));
    o.w(atomicInc(s2, y & 0x7fffffffu));               // limit may be below the old value
    o.w(atomicDec(s3, (y >> 1) & 3));                  // old may be 0 or above the limit
    o.w(atomicMin(s1, x));
    o.w(atomicMax((int*)s2, (int)x));
    o.w(atomicAdd(s3, x));
    o.w(atomicCAS(s1, x, 0xdeadbeefu));

    // Shared memory: same operations on per-block state.
    __shared__ u32 sacc[16];
    __shared__ u32 sper[128 * 2];
    __shared__ unsigned long long s64[2];
    if (tid < 16) {
        sacc[tid] = sacc_init[tid];
    }
    if (tid < 2) s64[tid] = 0xfffffffffffffff0ull;
    sper[tid] = x;
    sper[128 + tid] = y;
    __syncthreads();
    atomicMin(&sacc[0], x);
    atomicMax(&sacc[1], y);
    atomicMin((int*)&sacc[2], (int)y);
    atomicMax((int*)&sacc[3], (int)x);
    atomicAnd(&sacc[4], y | 0xbfeffdffu);
    atomicOr(&sacc[5], y & 0x00200408u);
    atomicXor(&sacc[6], y);
    atomicAdd(&sacc[7], x ^ y);
    atomicInc(&sacc[8], 9u);
    atomicDec(&sacc[9], 10u);
    rank[g] = atomicAdd(&s64[0], (u64)x * 3u);
    atomicAdd(&sacc[10 + (tid & 3)], 1u);
    const u32 scur = sper[tid];
    u32 r0 = atomicCAS(&sper[tid], (y & 2) ? scur : ~scur, y ^ 0x1234u);
    u32 r1 = atomicExch(&sper[128 + tid], x + 1u);
    u32 r2 = atomicInc(&sper[tid], 0x7fffffffu);
    u32 r3 = atomicMax(&sper[128 + tid], y);
    __syncthreads();
    o.w(r0);
    o.w(r1);
    o.w(r2);
    o.w(r3);
    o.w(sper[tid]);
    o.w(sper[128 + tid]);
    o.w(sacc[tid & 15]);
    o.w64(s64[0]);
}

