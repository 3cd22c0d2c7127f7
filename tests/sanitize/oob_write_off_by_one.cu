// Planted bug: the bound check is i <= n, so out[n] is written.
__global__ void scale(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = 2.0f * in[i % n]; // planted: memcheck global write
}
