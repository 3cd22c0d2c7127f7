// scas (issue 9): the order in which the H200 serves contending CAS lanes, and the shared
// ATOMS.CAS wavefronts. tests/hw/cas/README.md says how it was recorded.
typedef unsigned int u32;
typedef unsigned long long u64;

// ptxas's lowering of a shared 64-bit atomicAdd: LDS.64 + ATOMS.CAST.SPIN.64 retry loop (as in
// isa_atom). Lanes with (lane % 32) < nl take part, each adding 1 << 40 | 1 << lane (a value
// that differs per lane, so that ptxas does not aggregate the warp's adds into one lane's):
// rank[base + g] = the old value the lane's add saw (bits 40 up: its place in the serving
// order; bits 0-39: the lanes of the block served before it), ~0 for lanes that did not take
// part.
__global__ void spin_sh(u64* rank, u32 base, u32 nl)
{
    __shared__ u64 s;
    const u32 t = threadIdx.x;
    const u32 g = blockIdx.x * blockDim.x + t;
    if (t == 0) s = 0;
    __syncthreads();
    u64 r = ~0ull;
    if ((t & 31) < nl) r = atomicAdd(&s, 1ull << 40 | 1ull << (t & 31));
    rank[base + g] = r;
}

// A user CAS loop on one shared word (LDS.64 reload + ATOMS.CAS.64): rank as above, tries =
// how many CAS the lane issued.
__global__ void cas_sh(u64* rank, u32* tries, u32 base, u32 nl)
{
    __shared__ u64 s;
    const u32 t = threadIdx.x;
    const u32 g = blockIdx.x * blockDim.x + t;
    if (t == 0) s = 0;
    __syncthreads();
    u64 r = ~0ull;
    u32 n = 0;
    if ((t & 31) < nl) {
        u64 old;
        do {
            old = *(volatile u64*)&s;
            n++;
        } while (atomicCAS(&s, old, old + 1) != old);
        r = old;
    }
    rank[base + g] = r;
    tries[base + g] = n;
}

// The same loop on one global word shared by every block of the launch (gacc[slot], zero
// before the launch).
__global__ void cas_g(u64* rank, u32* tries, u64* gacc, u32 base, u32 slot, u32 nl)
{
    const u32 t = threadIdx.x;
    const u32 g = blockIdx.x * blockDim.x + t;
    u64* p = &gacc[slot];
    u64 r = ~0ull;
    u32 n = 0;
    if ((t & 31) < nl) {
        u64 old;
        do {
            old = *(volatile u64*)p;
            n++;
        } while (atomicCAS(p, old, old + 1) != old);
        r = old;
    }
    rank[base + g] = r;
    tries[base + g] = n;
}

// One warp, one ATOMS.CAS per pattern (the Source page's "L1 Wavefronts Shared" per
// instruction), each on its own words: 32- and 64-bit; same word, consecutive words, stride 2
// (two lanes a bank), one bank with distinct words; compare equal (stores) when fail = 0,
// unequal (no store) when fail = ~0; then half the lanes equal, as isa_atom's
// atomicCAS(&sper[tid], ...). Word i starts as i (64-bit: i << 32 | i). old[k*32 + lane].
__global__ void cas_pat(u32* old, u64* old64, u32 fail)
{
    __shared__ u32 w[1280];
    __shared__ u64 d[640];
    const u32 l = threadIdx.x;
    for (u32 i = l; i < 1280; i += 32) w[i] = i;
    for (u32 i = l; i < 640; i += 32) d[i] = (u64)i << 32 | i;
    __syncwarp();
    const u32 f = fail;
    const u64 F = (u64)f << 32 | f;
    u32 i = 0;
    old[0 * 32 + l] = atomicCAS(&w[i], i ^ f, 7u);
    __syncwarp();
    i = 64 + l;
    old[1 * 32 + l] = atomicCAS(&w[i], i ^ f, l + 100);
    __syncwarp();
    i = 128 + 2 * l;
    old[2 * 32 + l] = atomicCAS(&w[i], i ^ f, l + 200);
    __syncwarp();
    i = 256 + 32 * l;
    old[3 * 32 + l] = atomicCAS(&w[i], i ^ f, l + 300);
    __syncwarp();
    i = 1 + l;
    old[4 * 32 + l] = atomicCAS(&w[i], (l & 1) ? i : ~i, l + 400);
    __syncwarp();
    i = 0;
    old64[0 * 32 + l] = atomicCAS(&d[i], ((u64)i << 32 | i) ^ F, 7ull);
    __syncwarp();
    i = 32 + l;
    old64[1 * 32 + l] = atomicCAS(&d[i], ((u64)i << 32 | i) ^ F, l + 100ull);
    __syncwarp();
    i = 64 + 2 * l;
    old64[2 * 32 + l] = atomicCAS(&d[i], ((u64)i << 32 | i) ^ F, l + 200ull);
    __syncwarp();
    i = 128 + 16 * l;
    old64[3 * 32 + l] = atomicCAS(&d[i], ((u64)i << 32 | i) ^ F, l + 300ull);
    __syncwarp();
    old[5 * 32 + l] = w[64 + l];
    old64[4 * 32 + l] = d[32 + l];
}
