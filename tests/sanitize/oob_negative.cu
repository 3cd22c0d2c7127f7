// Planted bug: thread 0 reads in[-1].
__global__ void shift_left(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i - 1]; // planted: memcheck global read
}
