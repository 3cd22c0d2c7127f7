// Planted bug: the stencil's last row reads one row (129 elements) past the end of its 1 MiB
// input, into the buffer allocated after it.
__global__ void stencil_rows(float* out, const float* in, int n, int w)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = in[i] + in[i + w]; // planted: memcheck global read
}
