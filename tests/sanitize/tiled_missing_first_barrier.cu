// Tiled matrix multiply C = A * B (n x n, n a multiple of 16).
// Planted bug: no __syncthreads() between the tile stores and the inner loop's reads.
__global__ void matmul_no_first_sync(float* C, const float* A, const float* B, int n)
{
    __shared__ float As[16][16];
    __shared__ float Bs[16][16];
    int tx = threadIdx.x, ty = threadIdx.y;
    int row = blockIdx.y * 16 + ty, col = blockIdx.x * 16 + tx;
    float acc = 0.0f;
    for (int t = 0; t < n; t += 16) {
        As[ty][tx] = A[row * n + t + tx]; // planted: racecheck raw warning (As's row is one warp's)
        Bs[ty][tx] = B[(t + ty) * n + col]; // planted: racecheck raw error

        for (int k = 0; k < 16; ++k)
            acc += As[ty][k] * Bs[k][tx]; // planted: racecheck raw error
        __syncthreads();
    }
    C[row * n + col] = acc;
}
