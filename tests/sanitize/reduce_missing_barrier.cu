// Planted bug: the reduction loop has no __syncthreads(), so a thread reads a partial sum
// another warp has not written yet.
__global__ void block_sum(float* out, const float* in)
{
    __shared__ float s[256];
    int t = threadIdx.x;
    s[t] = in[blockIdx.x * 256 + t];
    __syncthreads();
    for (int stride = 128; stride > 0; stride /= 2) {
        if (t < stride)
            s[t] += s[t + stride]; // planted: racecheck raw error
    }
    if (t == 0)
        out[blockIdx.x] = s[0];
}
