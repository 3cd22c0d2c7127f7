// Planted bug: the host clears only the first 512 of 1024 elements.
__global__ void sum_pairs(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + 1.0f; // planted: initcheck global read
}
