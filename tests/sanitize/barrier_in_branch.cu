// Planted bug: only lanes 0-15 reach the barrier; lanes 16-31 skip it and exit. On the H200 it is no bug (sm_70 and later): lanes 16-31 exit, and exited threads count as arrived at the barrier, so compute-sanitizer's synccheck and gpumemsim report nothing.
__global__ void partial_barrier(int* out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    if (t < 16) {
        __syncthreads(); // planted: none
        out[t] = s[31 - t];
    }
}
