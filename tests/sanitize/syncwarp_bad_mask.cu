// Planted bug: all 32 lanes execute __syncwarp(0x0000ffff); lanes 16-31 are not in the mask.
__global__ void half_mask(int* out)
{
    __shared__ int s[32];
    int t = threadIdx.x;
    s[t] = t;
    __syncwarp(0x0000ffffu); // planted: synccheck
    out[t] = s[31 - t];
}
