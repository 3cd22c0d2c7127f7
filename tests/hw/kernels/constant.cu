// Constant-cache serialization. Lane t reads c_tab[(t % D) * scale + base]; with scale = 1 at run
// time the warp presents D distinct addresses, and because the index is not known at compile time
// ptxas emits an indexed LDC (not a c[bank][imm] operand).
// The tables are zero-initialised (no host copy needed); the outputs are all zero.

__constant__ float c_tab[1024];
__constant__ unsigned char c_bytes[1024];

template <int D>
__global__ void const_distinct(float* out, int scale, int base)
{
    const int t = threadIdx.x;
    out[t] = c_tab[(t % D) * scale + base] + 1.0f;  // the measured LDC
}

// Byte loads: mode 0: lane t reads byte t*scale (32 bytes in 8 words);
//             mode 1: lane t reads byte (t % 4)*scale (4 bytes of one word).
__global__ void const_bytes(float* out, int scale, int mode)
{
    const int t = threadIdx.x;
    const int i = mode == 0 ? t * scale : (t & 3) * scale;
    out[t] = (float)c_bytes[i] + 1.0f;  // the measured LDC.U8
}

template __global__ void const_distinct<1>(float*, int, int);
template __global__ void const_distinct<2>(float*, int, int);
template __global__ void const_distinct<4>(float*, int, int);
template __global__ void const_distinct<8>(float*, int, int);
template __global__ void const_distinct<16>(float*, int, int);
template __global__ void const_distinct<32>(float*, int, int);
