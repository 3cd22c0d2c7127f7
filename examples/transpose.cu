// Matrix transpose, after NVIDIA's "An Efficient Matrix Transpose in CUDA C/C++" (TILE_DIM 32,
// BLOCK_ROWS 8: a 32x8 block moves a 32x32 tile).
//
// transpose_naive:     reads rows (coalesced), writes columns (32 sectors per store request).
// transpose_tile<0>:   through __shared__ float tile[32][32]: both global accesses coalesced,
//                      but the column read tile[threadIdx.x][threadIdx.y + j] is a 32-way
//                      bank conflict.
// transpose_tile<1>:   tile[32][33]: the padding puts column elements in 32 different banks.

#define TILE_DIM 32
#define BLOCK_ROWS 8

__global__ void transpose_naive(float* odata, const float* idata)
{
    const int x = blockIdx.x * TILE_DIM + threadIdx.x;
    const int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[x * width + (y + j)] = idata[(y + j) * width + x];
}

template <int PAD>
__global__ void transpose_tile(float* odata, const float* idata)
{
    __shared__ float tile[TILE_DIM][TILE_DIM + PAD];
    int x = blockIdx.x * TILE_DIM + threadIdx.x;
    int y = blockIdx.y * TILE_DIM + threadIdx.y;
    const int width = gridDim.x * TILE_DIM;

    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        tile[threadIdx.y + j][threadIdx.x] = idata[(y + j) * width + x];
    __syncthreads();

    x = blockIdx.y * TILE_DIM + threadIdx.x;  // transposed block offset
    y = blockIdx.x * TILE_DIM + threadIdx.y;
    for (int j = 0; j < TILE_DIM; j += BLOCK_ROWS)
        odata[(y + j) * width + x] = tile[threadIdx.x][threadIdx.y + j];
}
