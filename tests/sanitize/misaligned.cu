// Planted bug: an int read through a pointer that is 2 bytes off alignment.
__global__ void unaligned_read(int* out, const char* in)
{
    int i = threadIdx.x;
    out[i] = *(const int*)(in + 4 * i + 2); // planted: memcheck global read misaligned
}
