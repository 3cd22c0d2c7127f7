// Planted bug: thread 0 reads s[-1].
__global__ void shared_shift(float* out, const float* in)
{
    __shared__ float s[128];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    out[t] = s[t - 1]; // planted: memcheck shared read
}
