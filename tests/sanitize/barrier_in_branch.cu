// Planted bug: only lanes 0-15 reach the barrier; lanes 16-31 skip it and exit.
__global__ void partial_barrier(int* out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        __syncthreads(); // planted: synccheck
        out[t] = s[31 - t];
    }
}
