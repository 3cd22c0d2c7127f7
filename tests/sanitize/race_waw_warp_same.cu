// Planted hazard: 32 lanes store the same value to s[0] (benign). On the H200 nothing is left of it: NVRTC folds the same-value store away (out[] gets 7 directly), so no shared access is left and neither tool reports a hazard.
__global__ void same_writer(int* out)
{
    __shared__ int s[1];
    s[0] = 7; // planted: none
    __syncthreads();
    if (threadIdx.x == 0)
        out[blockIdx.x] = s[0];
}
