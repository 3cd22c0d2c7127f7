// Planted bug: the second launch reads `in` after cudaFree(in).
__global__ void accumulate(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] += in[i]; // planted: memcheck global read
}
