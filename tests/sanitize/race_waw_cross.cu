// Planted bug: 64 threads (two warps) store different values to s[0].
__global__ void two_warp_writer(int* out)
{
    __shared__ int s[1];
    s[0] = threadIdx.x; // planted: racecheck waw error
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
