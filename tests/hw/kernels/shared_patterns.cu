// Shared-memory 32-bit and sub-word patterns: [32][32] vs [32][33] columns, broadcast,
// multicast, two words in one bank, an XOR-swizzled tile, u8/u16, shared atomics.
// One warp (block = 32). `k` is a runtime argument (0 in the specs).

// float s[32][W]; filled row-major with stride-1 stores (W STS, 1 wavefront each);
// lane t reads column k of row t: bank (t*W + k) % 32.
template <int W>
__global__ void sh_column(float* out, int k, float scale)
{
    __shared__ float s[32][W];
    const int t = threadIdx.x;
    float* f = &s[0][0];
    for (int i = t; i < 32 * W; i += 32) f[i] = scale * (float)i;
    __syncthreads();
    out[t] = s[t][k];
}
template __global__ void sh_column<32>(float*, int, float);
template __global__ void sh_column<33>(float*, int, float);

#define FILL 1088

// mode 0: broadcast, every lane reads word k.
// mode 1: multicast, lanes 2j and 2j+1 read word j + k (16 words, 16 banks).
// mode 2: multicast with conflict, lanes 2j, 2j+1 read word 32j + k (16 words, one bank).
// mode 3: two words in one bank, lane t reads word t + k, lane 31 reads word 32 + k.
// mode 4: 4 groups of 8 lanes, group g reads word 32g + k (4 distinct words in bank k).
// The mode selects an index only; there is exactly one LDS in every mode.
__global__ void sh_pattern(float* out, int k, int mode, float scale)
{
    __shared__ float s[FILL];
    const int t = threadIdx.x;
    for (int i = t; i < FILL; i += 32) s[i] = scale * (float)i;
    __syncthreads();
    int idx;
    if (mode == 0)      idx = k;
    else if (mode == 1) idx = (t >> 1) + k;
    else if (mode == 2) idx = (t >> 1) * 32 + k;
    else if (mode == 3) idx = (t == 31 ? 32 : t) + k;
    else                idx = (t >> 3) * 32 + k;
    out[t] = s[idx];
}

// XOR-swizzled 32x32 tile: element (r, c) lives at s[r][c ^ r].
// Fill: lane t writes (r, t) for r = 0..31: 32 STS, each a permutation of one row (1 wavefront).
// Read: lane t reads column k of row t, at s[t][k ^ t]: banks k ^ t all different (1 wavefront).
// The same read without swizzle would be 32-way (see sh_column<32>).
__global__ void sh_xor_swizzle(float* out, int k, float scale)
{
    __shared__ float s[32][32];
    const int t = threadIdx.x;
    for (int r = 0; r < 32; ++r) s[r][t ^ r] = scale * (float)(r * 32 + t);
    __syncthreads();
    out[t] = s[t][(k ^ t) & 31];
}

// Sub-word loads. The buffer is filled as 32-bit words (34 STS) and read as bytes/halves.
// mode 0: u8, lane t reads byte t + k        -> words 0..7, 8 banks        : 1 wavefront
// mode 1: u8, lane t reads byte 128*t + k    -> 32 words, all bank 0       : 32 wavefronts
// mode 2: u16, lane t reads half (t/2)*64 + (t%2) + k/2 -> lane pairs share word 32*(t/2): 16
// mode 3: u8, lane t reads byte 4*t + (t%4) + k -> word t, different byte offsets: 1
__global__ void sh_subword(float* out, int k, int mode, unsigned int scale)
{
    __shared__ unsigned int w[FILL];
    const int t = threadIdx.x;
    for (int i = t; i < FILL; i += 32) w[i] = scale * (unsigned int)i;
    __syncthreads();
    const unsigned char* b = reinterpret_cast<const unsigned char*>(w);
    const unsigned short* h = reinterpret_cast<const unsigned short*>(w);
    unsigned int v;
    if (mode == 0)      v = b[t + k];
    else if (mode == 1) v = b[128 * t + k];
    else if (mode == 2) v = h[(t >> 1) * 64 + (t & 1) + (k >> 1)];
    else                v = b[4 * t + (t & 3) + k];
    out[t] = (float)v;
}

// Shared atomics (result used, so ptxas emits ATOMS with a return value).
// mode 0: all lanes on word k; mode 1: lane t on word t + k; mode 2: lane t on word 32t + k.
__global__ void sh_atomic(float* out, int k, int mode)
{
    __shared__ unsigned int w[FILL];
    const int t = threadIdx.x;
    for (int i = t; i < FILL; i += 32) w[i] = 0u;
    __syncthreads();
    int idx = mode == 0 ? k : (mode == 1 ? t + k : 32 * t + k);
    unsigned int old = atomicAdd(&w[idx], 1u);
    out[t] = (float)old;
}
