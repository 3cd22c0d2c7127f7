// Planted hazard: 32 lanes store the same value to s[0] (benign).
__global__ void same_writer(int* out)
{
    __shared__ int s[1];
    s[0] = 7; // planted: racecheck waw warning
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
