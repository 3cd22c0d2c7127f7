__global__ void stencil_halo(float* out, const float* in, int n)
{
    __shared__ float s[256 + 2];
    int t = threadIdx.x;
    int i = blockIdx.x * blockDim.x + t;
    s[t + 1] = in[i];
    if (t == 0)
        s[0] = in[i > 0 ? i - 1 : 0];
    if (t == blockDim.x - 1)
        s[t + 2] = in[i + 1 < n ? i + 1 : n - 1];
    __syncthreads();
    out[i] = 0.25f * s[t] + 0.5f * s[t + 1] + 0.25f * s[t + 2];
}
