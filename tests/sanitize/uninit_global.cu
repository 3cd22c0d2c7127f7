// Planted bug: `in` is allocated but never written.
__global__ void double_it(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = 2.0f * in[i]; // planted: initcheck global read
}
