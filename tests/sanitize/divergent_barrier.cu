// Planted bug: lanes 0-15 and 16-31 of one warp wait at two different barriers.
__global__ void split_barrier(int* out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    if (t < 16) {
        s[t] = t;
        __syncthreads(); // planted: synccheck
    } else {
        s[t] = -t;
        __syncthreads(); // planted: synccheck
    }
    out[t] = s[31 - t];
}
