// The 16-bit special-function instructions and tanh.approx.f32 through the PTX front end:
// thread g evaluates input g (all 2^16 half / bfloat16 bit patterns) and, for the x2 forms and
// tanh.approx.f32, the word a[g]. tests/hardware/approx.rs compares the results with the H200's
// exhaustive tables (tests/hw/h200/mufu/tables).
typedef unsigned int u32;
typedef unsigned short u16;

extern "C" __global__ void half_sfu(u32* out, const u32* a) {
    u32 n = gridDim.x * blockDim.x, g = blockIdx.x * blockDim.x + threadIdx.x, k = 0;
    u16 h = (u16)g, r;
    u32 w = a[g], r2;
    float f = __uint_as_float(w), rf;
    asm("ex2.approx.f16 %0, %1;" : "=h"(r) : "h"(h)); out[(k++) * n + g] = r;
    asm("ex2.approx.ftz.bf16 %0, %1;" : "=h"(r) : "h"(h)); out[(k++) * n + g] = r;
    asm("tanh.approx.f16 %0, %1;" : "=h"(r) : "h"(h)); out[(k++) * n + g] = r;
    asm("tanh.approx.bf16 %0, %1;" : "=h"(r) : "h"(h)); out[(k++) * n + g] = r;
    asm("ex2.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w)); out[(k++) * n + g] = r2;
    asm("ex2.approx.ftz.bf16x2 %0, %1;" : "=r"(r2) : "r"(w)); out[(k++) * n + g] = r2;
    asm("tanh.approx.f16x2 %0, %1;" : "=r"(r2) : "r"(w)); out[(k++) * n + g] = r2;
    asm("tanh.approx.bf16x2 %0, %1;" : "=r"(r2) : "r"(w)); out[(k++) * n + g] = r2;
    asm("tanh.approx.f32 %0, %1;" : "=f"(rf) : "f"(f)); out[(k++) * n + g] = __float_as_uint(rf);
    out[(k++) * n + g] = w;  // the input, for the comparison
}
