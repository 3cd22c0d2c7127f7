// Planted bug: a 16-element local array indexed with 4096.
__global__ void local_table(int* out, int idx)
{
    int table[16];
    for (int k = 0; k < 16; ++k)
        table[k] = k * (int)threadIdx.x;
    out[threadIdx.x] = table[idx]; // planted: memcheck local read
}
