// Tiled matrix multiply C = A * B (n x n, n a multiple of 16).
// Planted bug: no __syncthreads() after the inner loop: the next iteration's stores
// overwrite tiles other warps still read.
__global__ void matmul_no_second_sync(float* C, const float* A, const float* B, int n)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        As[ty][tx] = A[row * n + t + tx]; // planted: racecheck war warning (As's row is one warp's)
        Bs[ty][tx] = B[(t + ty) * n + col]; // planted: racecheck war error
        __syncthreads();
        for (int k = 0; k < 16; ++k)
            acc += As[ty][k] * Bs[k][tx]; // planted: racecheck war error

    }
    C[row * n + col] = acc;
}
