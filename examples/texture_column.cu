// The study notes' reason for texture memory (seeds, "Texture and Surface Memory": images want
// 2D locality, not 1D): walk a 256x256 float image down its columns, thread gid reading texel
// (gid / 256, gid % 256), once as global loads of a row-major buffer and once through tex2D on
// a CUDA array. A warp's column is 32 rows of one float: 32 sectors of the buffer (one per row),
// 16 of the block-linear array (a sector holds 16 bytes of 2 rows). The index arithmetic is
// tests/hw/texture_mem/tex_probe.cu's column pattern, which the H200 measured (gld_col and
// f32_point_col in tests/hw/h200/texture_mem/ncu/tex_probe.csv).
__global__ void column_global(const float* img, float* out, int W, int H)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (gid / H) % W;
    int y = gid % H;
    out[gid] = img[y * W + x];
}

__global__ void column_texture(cudaTextureObject_t tex, float* out, int W, int H)
{
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x = (gid / H) % W;
    int y = gid % H;
    out[gid] = tex2D<float>(tex, x + 0.5f, y + 0.5f);
}
