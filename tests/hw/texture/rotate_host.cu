// The seed's host code for examples/rotate (transformKernel), running the committed PTX
// (examples/rotate.ptx, what gpumemsim runs) through the driver API instead of an nvcc-compiled
// kernel. Build and run on the H200:
//   nvcc -O3 -arch=sm_90 -o rotate_host tests/hw/texture/rotate_host.cu -lcuda
//   ./rotate_host examples/rotate.ptx out.bin
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <vector>

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s\n", #x, __LINE__, cudaGetErrorString(e_)); return 1; } } while (0)
#define CU(x) do { CUresult r_ = (x); if (r_ != CUDA_SUCCESS) { const char* s_; \
  cuGetErrorString(r_, &s_); fprintf(stderr, "%s:%d %s\n", #x, __LINE__, s_); return 1; } } while (0)

int main(int argc, char** argv) {
  if (argc < 3) { fprintf(stderr, "usage: rotate_host PTX OUT\n"); return 2; }
  FILE* f = fopen(argv[1], "rb");
  if (!f) { perror(argv[1]); return 1; }
  std::vector<char> ptx;
  char buf[65536];
  size_t n;
  while ((n = fread(buf, 1, sizeof buf, f)) > 0) ptx.insert(ptx.end(), buf, buf + n);
  fclose(f);
  ptx.push_back(0);
  CK(cudaFree(0));  // the runtime's primary context, shared with the driver API
  CUmodule mod;
  CU(cuModuleLoadData(&mod, ptx.data()));
  CUfunction fn;
  CU(cuModuleGetFunction(&fn, mod, "_Z15transformKernelPfyiif"));

  const int height = 1024;
  const int width = 1024;
  float angle = 0.5;
  float* h_data = (float*)std::malloc(sizeof(float) * width * height);
  for (int i = 0; i < height * width; ++i) h_data[i] = i;
  cudaChannelFormatDesc channelDesc = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
  cudaArray_t cuArray;
  CK(cudaMallocArray(&cuArray, &channelDesc, width, height));
  const size_t spitch = width * sizeof(float);
  CK(cudaMemcpy2DToArray(cuArray, 0, 0, h_data, spitch, width * sizeof(float), height,
                         cudaMemcpyHostToDevice));
  struct cudaResourceDesc resDesc;
  memset(&resDesc, 0, sizeof(resDesc));
  resDesc.resType = cudaResourceTypeArray;
  resDesc.res.array.array = cuArray;
  struct cudaTextureDesc texDesc;
  memset(&texDesc, 0, sizeof(texDesc));
  texDesc.addressMode[0] = cudaAddressModeWrap;
  texDesc.addressMode[1] = cudaAddressModeWrap;
  texDesc.filterMode = cudaFilterModeLinear;
  texDesc.readMode = cudaReadModeElementType;
  texDesc.normalizedCoords = 1;
  cudaTextureObject_t texObj = 0;
  CK(cudaCreateTextureObject(&texObj, &resDesc, &texDesc, NULL));
  float* output;
  CK(cudaMalloc(&output, width * height * sizeof(float)));
  int w = width, h = height;
  void* args[] = {&output, &texObj, &w, &h, &angle};
  CU(cuLaunchKernel(fn, (width + 15) / 16, (height + 15) / 16, 1, 16, 16, 1, 0, 0, args, 0));
  CK(cudaDeviceSynchronize());
  CK(cudaMemcpy(h_data, output, width * height * sizeof(float), cudaMemcpyDeviceToHost));
  FILE* o = fopen(argv[2], "wb");
  if (!o) { perror(argv[2]); return 1; }
  fwrite(h_data, sizeof(float), width * height, o);
  fclose(o);
  printf("texObj handle %llu\n", (unsigned long long)texObj);
  return 0;
}
