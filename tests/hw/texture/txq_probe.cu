// txq on the H200 (issue 10): nvcc-built inline asm vs the NVRTC PTX (sweep_kernels.ptx, txq_all)
// loaded through the driver, on texture objects of known geometry and modes.
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstring>
#include <vector>
extern "C" __global__ void txq_nvcc(cudaTextureObject_t t, unsigned* out) {
  unsigned v[10];
  asm volatile("txq.width.b32 %0, [%1];" : "=r"(v[0]) : "l"(t));
  asm volatile("txq.height.b32 %0, [%1];" : "=r"(v[1]) : "l"(t));
  asm volatile("txq.depth.b32 %0, [%1];" : "=r"(v[2]) : "l"(t));
  asm volatile("txq.channel_data_type.b32 %0, [%1];" : "=r"(v[3]) : "l"(t));
  asm volatile("txq.channel_order.b32 %0, [%1];" : "=r"(v[4]) : "l"(t));
  asm volatile("txq.normalized_coords.b32 %0, [%1];" : "=r"(v[5]) : "l"(t));
  asm volatile("txq.filter_mode.b32 %0, [%1];" : "=r"(v[6]) : "l"(t));
  asm volatile("txq.addr_mode_0.b32 %0, [%1];" : "=r"(v[7]) : "l"(t));
  asm volatile("txq.addr_mode_1.b32 %0, [%1];" : "=r"(v[8]) : "l"(t));
  asm volatile("txq.addr_mode_2.b32 %0, [%1];" : "=r"(v[9]) : "l"(t));
  for (int k = 0; k < 10; ++k) out[k] = v[k];
}
// A fetch in the same kernel, to see whether the handle itself works there.
extern "C" __global__ void txq_and_fetch(cudaTextureObject_t t, unsigned* out) {
  unsigned w;
  asm volatile("txq.width.b32 %0, [%1];" : "=r"(w) : "l"(t));
  out[0] = w;
  float f = tex2D<float>(t, 1.5f, 1.5f);
  memcpy(&out[1], &f, 4);
}
#define CK(x) do { auto e_ = (x); if (e_) { printf("%s:%d %s -> %d\n", __FILE__, __LINE__, #x, (int)e_); return 1; } } while (0)
int main(int argc, char** argv) {
  CK(cudaFree(0));
  CUmodule mod; CUfunction fq;
  std::vector<char> ptx;
  { FILE* f = fopen(argv[1], "rb"); if (!f) { printf("no ptx\n"); return 1; }
    fseek(f, 0, SEEK_END); long n = ftell(f); fseek(f, 0, SEEK_SET); ptx.resize(n + 1); fread(ptx.data(), 1, n, f); ptx[n] = 0; fclose(f); }
  int r1 = cuModuleLoadData(&mod, ptx.data());
  int r2 = r1 ? -1 : cuModuleGetFunction(&fq, mod, "txq_all");
  CUfunction ft; int r3 = r1 ? -1 : cuModuleGetFunction(&ft, mod, "tex2d_f");
  printf("load %d txq_all %d tex2d_f %d ptx bytes %zu\n", r1, r2, r3, ptx.size());
  struct Cfg { int w, h, d, filt, am, norm, read, bits; cudaChannelFormatKind kind; };
  Cfg cfgs[] = {{5, 4, 0, 1, 1, 0, 0, 32, cudaChannelFormatKindFloat}, {5, 4, 0, 0, 0, 1, 0, 32, cudaChannelFormatKindFloat},
                {3, 2, 4, 1, 2, 1, 0, 32, cudaChannelFormatKindFloat}, {7, 0, 0, 0, 3, 0, 1, 8, cudaChannelFormatKindUnsigned},
                {1024, 1024, 0, 1, 0, 1, 0, 32, cudaChannelFormatKindFloat}};
  unsigned* dq; CK(cudaMalloc(&dq, 64));
  for (auto& c : cfgs) {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc(c.bits, 0, 0, 0, c.kind);
    cudaArray_t arr; CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(c.w, c.h, c.d), 0));
    cudaResourceDesc rd; memset(&rd, 0, sizeof rd); rd.resType = cudaResourceTypeArray; rd.res.array.array = arr;
    cudaTextureDesc td; memset(&td, 0, sizeof td);
    cudaTextureAddressMode am[4] = {cudaAddressModeWrap, cudaAddressModeClamp, cudaAddressModeMirror, cudaAddressModeBorder};
    for (int k = 0; k < 3; ++k) td.addressMode[k] = am[c.am];
    td.filterMode = c.filt ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = c.read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = c.norm;
    cudaTextureObject_t t; CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    unsigned h[16];
    CK(cudaMemset(dq, 0xee, 64)); txq_nvcc<<<1, 1>>>(t, dq); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(h, dq, 40, cudaMemcpyDeviceToHost));
    printf("cfg %dx%dx%d filt%d am%d norm%d read%d bits%d handle=0x%llx\n  nvcc:  ", c.w, c.h, c.d, c.filt, c.am, c.norm, c.read, c.bits, (unsigned long long)t);
    for (int k = 0; k < 10; ++k) printf("%u ", h[k]);
    CK(cudaMemset(dq, 0xee, 64));
    void* args[] = {&t, &dq};
    if (r2 == 0) { CK(cuLaunchKernel(fq, 1, 1, 1, 1, 1, 1, 0, 0, args, nullptr)); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(h, dq, 40, cudaMemcpyDeviceToHost)); }
    printf("\n  nvrtc: "); for (int k = 0; k < 10; ++k) printf("%u ", h[k]);
    CK(cudaMemset(dq, 0xee, 64)); txq_and_fetch<<<1, 1>>>(t, dq); CK(cudaDeviceSynchronize()); CK(cudaMemcpy(h, dq, 8, cudaMemcpyDeviceToHost));
    printf("\n  txq+fetch: width %u fetch word 0x%08x\n", h[0], h[1]);
    CK(cudaDestroyTextureObject(t)); CK(cudaFreeArray(arr));
  }
  return 0;
}
