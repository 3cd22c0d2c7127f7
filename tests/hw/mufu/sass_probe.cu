#define U(NAME, S) extern "C" __global__ void NAME(float* p) { float a = p[threadIdx.x], r; asm volatile(S " %0, %1;" : "=f"(r) : "f"(a)); p[threadIdx.x] = r; }
#define D(NAME, S) extern "C" __global__ void NAME(double* p) { double a = p[threadIdx.x], r; asm volatile(S " %0, %1;" : "=d"(r) : "d"(a)); p[threadIdx.x] = r; }
#define H(NAME, S) extern "C" __global__ void NAME(unsigned short* p) { unsigned short a = p[threadIdx.x], r; asm volatile(S " %0, %1;" : "=h"(r) : "h"(a)); p[threadIdx.x] = r; }
#define H2(NAME, S) extern "C" __global__ void NAME(unsigned* p) { unsigned a = p[threadIdx.x], r; asm volatile(S " %0, %1;" : "=r"(r) : "r"(a)); p[threadIdx.x] = r; }
U(ex2, "ex2.approx.f32") U(ex2f, "ex2.approx.ftz.f32") U(lg2, "lg2.approx.f32") U(lg2f, "lg2.approx.ftz.f32")
U(rcp, "rcp.approx.f32") U(rcpf, "rcp.approx.ftz.f32") U(rsq, "rsqrt.approx.f32") U(rsqf, "rsqrt.approx.ftz.f32")
U(sqr, "sqrt.approx.f32") U(sqrf, "sqrt.approx.ftz.f32") U(sin_, "sin.approx.f32") U(sinf_, "sin.approx.ftz.f32")
U(cos_, "cos.approx.f32") U(cosf_, "cos.approx.ftz.f32") U(tanh_, "tanh.approx.f32")
D(rcp64, "rcp.approx.ftz.f64") D(rsq64, "rsqrt.approx.f64") D(rsq64f, "rsqrt.approx.ftz.f64")
H(ex2h, "ex2.approx.f16") H(ex2bh, "ex2.approx.ftz.bf16") H(tanhh, "tanh.approx.f16") H(tanhbh, "tanh.approx.bf16")
H2(ex2h2, "ex2.approx.f16x2") H2(ex2bh2, "ex2.approx.ftz.bf16x2") H2(tanhh2, "tanh.approx.f16x2") H2(tanhbh2, "tanh.approx.bf16x2")
