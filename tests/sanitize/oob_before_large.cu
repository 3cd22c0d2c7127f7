// Planted bug: row 0 reads the row above the image, 2,048 bytes before the start of `img`,
// which begins a 2 MiB range of its own, so the address is unmapped. The division's slow
// path is a subroutine (CALL/RET in the SASS).
__global__ void north_gradient(float* out, const float* img, int cols)
{
    int i = blockIdx.y * cols + blockIdx.x * blockDim.x + threadIdx.x;
    float c = img[i];
    float n = img[i - cols]; // planted: memcheck global read
    out[i] = (n - c) / c;
}
