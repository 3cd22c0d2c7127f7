// Planted bug: 4097 threads read a 4096-element (16 KiB) buffer; the last reads one element
// past its end.
__global__ void copy_one_past(float* out, const float* in, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i <= n)
        out[i] = in[i]; // planted: memcheck global read
}
