// Planted bug: the launch gives 512 bytes of dynamic shared memory, the kernel uses 1024.
__global__ void stage_dynamic(float* out, const float* in)
{
    extern __shared__ float buf[];
    int t = threadIdx.x;
    buf[t] = in[t]; // planted: memcheck shared write
    __syncthreads();
    out[t] = buf[(t + 1) % 128];
}
