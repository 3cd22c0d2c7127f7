// Planted bug: odd elements of the shared array are never written.
__global__ void half_filled(float* out, const float* in)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    if (t % 2 == 0)
        s[t] = in[t];
    __syncthreads();
    out[t] = s[t]; // planted: initcheck shared read
}
