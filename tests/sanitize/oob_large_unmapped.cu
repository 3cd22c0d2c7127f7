// Planted bug: the offset argument points far past the end of the buffer.
__global__ void gather(float* out, const float* in, long long offset)
{
    int i = threadIdx.x;
    out[i] = in[offset + i]; // planted: memcheck global read
}
