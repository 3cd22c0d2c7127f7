// Column access of a shared 2D tile (seed 000, table "최악 32-way (열 접근)" and
// "패딩으로 해결"): lane t reads tile[t][k]. With 32 floats per row, word t*32 + k is in bank
// k for every lane: a 32-way conflict. With one float of padding per row (33), word
// t*33 + k is in bank (t + k) % 32: 32 different banks, conflict-free.

template <int PAD>
__global__ void bank_columns(float* out, const float* in)
{
    __shared__ float tile[32][32 + PAD];
    const unsigned lane = threadIdx.x % 32;
    const unsigned warp = threadIdx.x / 32;    // 4 warps per block
    const float* src = in + blockIdx.x * 1024;

    // Row-wise fill, coalesced and conflict-free: element i goes to tile[i / 32][i % 32].
    for (unsigned i = threadIdx.x; i < 1024; i += blockDim.x)
        tile[i / 32][i % 32] = src[i];
    __syncthreads();

    // Lane t sums row t by walking the columns: every load is a column access.
    float acc = 0.0f;
    for (unsigned k = 0; k < 32; ++k)
        acc += tile[lane][(k + warp) % 32];

    out[blockIdx.x * blockDim.x + threadIdx.x] = acc;  // integer sums below 2^24: exact
}
