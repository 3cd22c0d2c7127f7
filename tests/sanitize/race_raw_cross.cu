// Planted bug: no __syncthreads() between the write and the read of the other warp's element.
__global__ void swap_halves(int* out)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = t * 3; // planted: racecheck raw error
    out[t] = s[(t + 32) % 64]; // planted: racecheck raw error
}
