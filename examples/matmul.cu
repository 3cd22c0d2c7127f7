// Tiled matrix multiply C = A * B (n x n, row-major, n a multiple of TILE), after the CUDA C++
// Programming Guide's shared-memory matrix multiplication example: each block stages a TILE x
// TILE tile of A and of B in shared memory, then every thread accumulates one element of C.
// In the inner loop As[ty][k] is one word per warp row (broadcast) and Bs[k][tx] is a row
// (consecutive words, conflict-free).
//
// fill_small makes the inputs small integers in [-8, 7], so every product and partial sum is
// an integer below 2^24 and the float result is exact, whatever the summation order.

__global__ void fill_small(float* m, int n_elems, unsigned salt)
{
    const unsigned i = blockIdx.x * blockDim.x + threadIdx.x;
    if (i < (unsigned)n_elems)
        m[i] = (float)(((i + salt) * 2654435761u) >> 28) - 8.0f;
}

template <int TILE>
__global__ void matmul_tiled(float* C, const float* A, const float* B, int n)
{
    __shared__ float As[TILE][TILE];
    __shared__ float Bs[TILE][TILE];
    const int tx = threadIdx.x, ty = threadIdx.y;
    const int row = blockIdx.y * TILE + ty;
    const int col = blockIdx.x * TILE + tx;

    float acc = 0.0f;
    for (int t = 0; t < n; t += TILE) {
        As[ty][tx] = A[row * n + t + tx];
        Bs[ty][tx] = B[(t + ty) * n + col];
        __syncthreads();
        for (int k = 0; k < TILE; ++k)
            acc += As[ty][k] * Bs[k][tx];
        __syncthreads();
    }
    C[row * n + col] = acc;
}
