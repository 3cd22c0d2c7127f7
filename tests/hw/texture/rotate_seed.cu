// The seed's texture example verbatim (../shared/seeds/, "Example of Using Texture Memory"),
// its kernel compiled by nvcc, plus a write of the output to $ROTATE_OUT (free(h_data) moved
// after it). nvcc -O3 -arch=sm_90 -o rotate_seed tests/hw/texture/rotate_seed.cu
#include <cuda_runtime.h>
#include <cstdlib>
#include <cstring>
#include <cstdio>

// ============================================================
// Device code (page 47)
// ============================================================
__global__ void transformKernel(float* output,
                                cudaTextureObject_t texObj,
                                int width, int height,
                                float theta)
{
    // Calculate normalized texture coordinates
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;

    float u = x / (float)width;
    float v = y / (float)height;

    // Transform coordinates
    u -= 0.5f;
    v -= 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;

    // Read from texture and write to global memory
    output[y * width + x] = tex2D<float>(texObj, tu, tv);
}

// ============================================================
// Host code (page 48~50)
// ============================================================
int main()
{
    const int height = 1024;
    const int width  = 1024;
    float angle = 0.5;

    // -------- ① Allocate and set some host data --------
    float *h_data = (float *)std::malloc(sizeof(float) * width * height);
    for (int i = 0; i < height * width; ++i)
        h_data[i] = i;

    // -------- ② Allocate CUDA array in device memory --------
    cudaChannelFormatDesc channelDesc =
        cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
    cudaArray_t cuArray;
    cudaMallocArray(&cuArray, &channelDesc, width, height);

    // -------- ③ Copy host → CUDA array --------
    // Set pitch of the source (width in bytes, no padding)
    const size_t spitch = width * sizeof(float);
    cudaMemcpy2DToArray(cuArray, 0, 0, h_data, spitch,
                        width * sizeof(float), height,
                        cudaMemcpyHostToDevice);

    // -------- ④ Specify texture (Resource descriptor) --------
    struct cudaResourceDesc resDesc;
    memset(&resDesc, 0, sizeof(resDesc));
    resDesc.resType = cudaResourceTypeArray;
    resDesc.res.array.array = cuArray;

    // -------- ⑤ Specify texture object parameters (Texture descriptor) --------
    struct cudaTextureDesc texDesc;
    memset(&texDesc, 0, sizeof(texDesc));
    texDesc.addressMode[0]   = cudaAddressModeWrap;
    texDesc.addressMode[1]   = cudaAddressModeWrap;
    texDesc.filterMode       = cudaFilterModeLinear;
    texDesc.readMode         = cudaReadModeElementType;
    texDesc.normalizedCoords = 1;

    // -------- ⑥ Create texture object --------
    cudaTextureObject_t texObj = 0;
    cudaCreateTextureObject(&texObj, &resDesc, &texDesc, NULL);

    // -------- ⑦ Allocate result buffer in device memory --------
    float *output;
    cudaMalloc(&output, width * height * sizeof(float));

    // -------- ⑧ Invoke kernel --------
    dim3 threadsperBlock(16, 16);
    dim3 numBlocks((width  + threadsperBlock.x - 1) / threadsperBlock.x,
                   (height + threadsperBlock.y - 1) / threadsperBlock.y);
    transformKernel<<<numBlocks, threadsperBlock>>>(output, texObj,
                                                     width, height, angle);

    // -------- ⑨ Copy device → host --------
    cudaMemcpy(h_data, output, width * height * sizeof(float),
               cudaMemcpyDeviceToHost);

    // -------- ⑩ Cleanup --------
    cudaDestroyTextureObject(texObj);
    cudaFreeArray(cuArray);
    cudaFree(output);

    FILE* o = fopen(getenv("ROTATE_OUT"), "wb");
    fwrite(h_data, sizeof(float), width * height, o);
    fclose(o);
    return 0;
}
