// Texture and surface sweep kernels: each thread fetches at one coordinate record and writes the
// four result words. The same file is compiled by NVRTC for gpumemsim (tests/hw/texture/
// sweep_kernels.ptx, `gpumemsim compile`) and included by sweep.cu for the H200, so both sides
// run the same fetch at the same coordinate bits.
//
// c[i] = (x, y, z, lod) as float bits; for the integer-coordinate kernels the same words are
// read as int.

#define FETCH_KERNELS(SUF, T4)                                                                 \
  extern "C" __global__ void tex1d_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex1D<T4>(t, c[i].x);                                                 \
  }                                                                                           \
  extern "C" __global__ void tex2d_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2D<T4>(t, c[i].x, c[i].y);                                         \
  }                                                                                           \
  extern "C" __global__ void tex3d_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex3D<T4>(t, c[i].x, c[i].y, c[i].z);                                 \
  }                                                                                           \
  extern "C" __global__ void tex2dlod_##SUF(cudaTextureObject_t t, const float4* c, T4* out,  \
                                            int n) {                                          \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2DLod<T4>(t, c[i].x, c[i].y, c[i].w);                              \
  }                                                                                           \
  extern "C" __global__ void tex1dfetch_##SUF(cudaTextureObject_t t, const int4* c, T4* out,  \
                                              int n) {                                        \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex1Dfetch<T4>(t, c[i].x);                                            \
  }                                                                                           \
  extern "C" __global__ void tld4r_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2Dgather<T4>(t, c[i].x, c[i].y, 0);                                \
  }                                                                                           \
  extern "C" __global__ void tld4g_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2Dgather<T4>(t, c[i].x, c[i].y, 1);                                \
  }                                                                                           \
  extern "C" __global__ void tld4b_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2Dgather<T4>(t, c[i].x, c[i].y, 2);                                \
  }                                                                                           \
  extern "C" __global__ void tld4a_##SUF(cudaTextureObject_t t, const float4* c, T4* out,     \
                                         int n) {                                             \
    int i = blockIdx.x * blockDim.x + threadIdx.x;                                            \
    if (i < n) out[i] = tex2Dgather<T4>(t, c[i].x, c[i].y, 3);                                \
  }

FETCH_KERNELS(f, float4)
FETCH_KERNELS(i, int4)
FETCH_KERNELS(u, uint4)

// txq of every query the PTX ISA lists for a texture (10 words per texture).
extern "C" __global__ void txq_all(cudaTextureObject_t t, unsigned* out) {
  unsigned v[10];
  asm("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t));
  asm("txq.height.b32 %0, [%1];" : "=r"(v[1]) : "l"(t));
  asm("txq.depth.b32 %0, [%1];" : "=r"(v[2]) : "l"(t));
  asm("txq.channel_data_type.b32 %0, [%1];" : "=r"(v[3]) : "l"(t));
  asm("txq.channel_order.b32 %0, [%1];" : "=r"(v[4]) : "l"(t));
  asm("txq.normalized_coords.b32 %0, [%1];" : "=r"(v[5]) : "l"(t));
  asm("txq.filter_mode.b32 %0, [%1];" : "=r"(v[6]) : "l"(t));
  asm("txq.addr_mode_0.b32 %0, [%1];" : "=r"(v[7]) : "l"(t));
  asm("txq.addr_mode_1.b32 %0, [%1];" : "=r"(v[8]) : "l"(t));
  asm("txq.addr_mode_2.b32 %0, [%1];" : "=r"(v[9]) : "l"(t));
  for (int k = 0; k < 10; ++k) out[k] = v[k];
}

// Surfaces: c[i] = (x bytes, y, z, value); mode 0 = zero, 1 = clamp (trap only in bounds).
// Reads: out[i] = the 32-bit word read at (x, y, z).
extern "C" __global__ void suld2d_zero(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<unsigned>(s, c[i].x, c[i].y, cudaBoundaryModeZero);
}
extern "C" __global__ void suld2d_clamp(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<unsigned>(s, c[i].x, c[i].y, cudaBoundaryModeClamp);
}
extern "C" __global__ void suld2d_trap(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                       int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<unsigned>(s, c[i].x, c[i].y, cudaBoundaryModeTrap);
}
extern "C" __global__ void suld1d_clamp(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf1Dread<unsigned>(s, c[i].x, cudaBoundaryModeClamp);
}
extern "C" __global__ void suld3d_clamp(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                        int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf3Dread<unsigned>(s, c[i].x, c[i].y, c[i].z, cudaBoundaryModeClamp);
}
extern "C" __global__ void suld2d_v4_zero(cudaSurfaceObject_t s, const int4* c, uint4* out,
                                          int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<uint4>(s, c[i].x, c[i].y, cudaBoundaryModeZero);
}
extern "C" __global__ void suld2d_u8_clamp(cudaSurfaceObject_t s, const int4* c, unsigned* out,
                                           int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = surf2Dread<unsigned char>(s, c[i].x, c[i].y, cudaBoundaryModeClamp);
}
// Writes in record order by one thread (so later writes win deterministically).
extern "C" __global__ void sust2d_zero(cudaSurfaceObject_t s, const int4* c, int n) {
  for (int i = 0; i < n; ++i)
    surf2Dwrite<unsigned>((unsigned)c[i].w, s, c[i].x, c[i].y, cudaBoundaryModeZero);
}
extern "C" __global__ void sust2d_clamp(cudaSurfaceObject_t s, const int4* c, int n) {
  for (int i = 0; i < n; ++i)
    surf2Dwrite<unsigned>((unsigned)c[i].w, s, c[i].x, c[i].y, cudaBoundaryModeClamp);
}
extern "C" __global__ void sust3d_clamp(cudaSurfaceObject_t s, const int4* c, int n) {
  for (int i = 0; i < n; ++i)
    surf3Dwrite<unsigned>((unsigned)c[i].w, s, c[i].x, c[i].y, c[i].z, cudaBoundaryModeClamp);
}
