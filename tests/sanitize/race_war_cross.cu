// Planted bug: each thread overwrites s[t] while the other warp may still read it.
__global__ void rotate_in_place(int* out, const int* in)
{
    __shared__ int s[64];
    int t = threadIdx.x;
    s[t] = in[t];
    __syncthreads();
    int v = s[(t + 32) % 64]; // planted: racecheck war error
    s[t] = v + 1; // planted: racecheck war error
    __syncthreads();
    out[t] = s[t];
}
