// The study notes' texture example (seeds, "Example of Using Texture Memory", pages 47-50 of
// the CUDA Programming Guide they follow): rotate a 1024x1024 float image by `theta` radians
// through a texture object with wrap addressing, linear filtering and normalized coordinates.
// The host side (cudaMallocArray, cudaMemcpy2DToArray, cudaCreateTextureObject) is
// examples/rotate.toml.
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
