// Planted bug: 32 lanes store different values to s[0] in one instruction.
__global__ void last_writer(int* out)
{
    __shared__ int s[1];
    s[0] = threadIdx.x; // planted: racecheck waw error
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
