// Local memory: a dynamically indexed per-thread array (hand-checkable) and a kernel that really
// spills registers (counts depend on ptxas; check them against the SASS, see README.md).
// One warp (block = 32).

// a[64] is written at runtime indices (j + k) & 63, so it must live in local memory: 64 STL.32,
// each at one offset shared by the warp. It is then read once: mode 0: every lane reads a[k]
// (uniform offset); mode 1: lane t reads a[(k + t) & 63] (32 different offsets).
__global__ void local_array(float* out, const float* in, int k, int mode)
{
    float a[64];
    const int t = threadIdx.x;
#pragma unroll
    for (int j = 0; j < 64; ++j) a[(j + k) & 63] = in[j] * (float)(t + 1);
    const int i = mode == 0 ? (k & 63) : ((k + t) & 63);
    out[t] = a[i];  // the measured LDL (32-bit)
}

// 128-bit local load by the first `nact` lanes only (nact = 1 in the spec): tells a 4-byte
// local interleave (4 sectors) from a 16-byte one (1 sector).
__global__ void local_v4(float* out, const float4* in, int k, int nact)
{
    float4 b[16];
    const int t = threadIdx.x;
#pragma unroll
    for (int j = 0; j < 16; ++j) {
        float4 v = in[j];
        b[(j + k) & 15] = make_float4(v.x * t, v.y, v.z, v.w);  // 16 STL.128, uniform offset
    }
    float r = 0.0f;
    if (t < nact) {
        float4 v = b[k & 15];  // the measured LDL.128
        r = v.x + v.y + v.z + v.w;
    }
    out[t] = r;
}

// Register pressure: NV values stay live across a loop whose trip count is a runtime argument,
// so ptxas (255 registers at most) must spill. Verified with NVRTC -arch=sm_90
// --ptxas-options=-v (see README.md for the reported spill bytes).
#define NV 320
__global__ void local_spill(float* out, const float* in, int reps)
{
    float a[NV];
    const int t = threadIdx.x;
#pragma unroll
    for (int j = 0; j < NV; ++j) a[j] = in[j * 32 + t];
    for (int r = 0; r < reps; ++r) {
#pragma unroll
        for (int j = 0; j < NV; ++j) a[j] = a[j] * a[(j + 1) % NV] + 1.0f;
    }
    float acc = 0.0f;
#pragma unroll
    for (int j = 0; j < NV; ++j) acc += a[j];
    out[t] = acc;
}
