__global__ void produce(float* buf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        buf[i] = 0.5f * i;
}

__global__ void consume(float* out, const float* buf, int n)
{
    int i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < n)
        out[i] = buf[i] + buf[(i + 1) % n];
}
