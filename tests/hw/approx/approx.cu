// Records what the H200 computes for PTX floating-point instructions whose results gpumemsim
// models in src/exec/{float,cvt,mufu}.rs: the MUFU instructions, div.approx/div.full, and a set of
// exactly-rounded instructions and NaN cases, all checked bit for bit by tests/hardware/approx.rs.
//
// Build and run (on the H200 machine; nvcc 13.0):
//   nvcc -O2 -arch=sm_90 -o approx tests/hw/approx/approx.cu && ./approx tests/hw/h200/approx
// Writes one file per instruction, <dir>/<ptx name>.bin:
//   8 bytes magic "GMSAPX01", u64 count, then count records of 4 little-endian u64:
//   a, b, c, result (f32/f16 values in the low bits). Inputs are deterministic (splitmix64).
#include <cstdio>
#include <cstdint>
#include <cstring>
#include <string>
#include <vector>
#include <sys/stat.h>

struct Op { const char* name; int kind; };  // kind: 1 = f32 in, 2 = f64 in; arity below
// Order matters: the kernel switches on the index.
static const Op OPS[] = {
  {"rcp.approx.f32", 1}, {"rcp.approx.ftz.f32", 1}, {"sqrt.approx.f32", 1},
  {"sqrt.approx.ftz.f32", 1}, {"rsqrt.approx.f32", 1}, {"rsqrt.approx.ftz.f32", 1},
  {"ex2.approx.f32", 1}, {"ex2.approx.ftz.f32", 1}, {"lg2.approx.f32", 1},
  {"lg2.approx.ftz.f32", 1}, {"sin.approx.f32", 1}, {"sin.approx.ftz.f32", 1},
  {"cos.approx.f32", 1}, {"cos.approx.ftz.f32", 1}, {"tanh.approx.f32", 1},
  {"div.approx.f32", 1}, {"div.approx.ftz.f32", 1}, {"div.full.f32", 1}, {"div.full.ftz.f32", 1},
  {"rcp.approx.ftz.f64", 2}, {"rsqrt.approx.f64", 2}, {"rsqrt.approx.ftz.f64", 2},
  // exact instructions: must match bit for bit
  {"add.rz.f32", 1}, {"add.rm.f32", 1}, {"mul.rp.f32", 1}, {"fma.rz.f32", 1}, {"fma.rm.ftz.f32", 1},
  {"div.rz.f32", 1}, {"div.rp.f32", 1}, {"sqrt.rm.f32", 1}, {"rcp.rz.f32", 1},
  {"add.rn.f32", 1}, {"add.sat.f32", 1},
  {"add.rn.f64", 2}, {"add.rz.f64", 2}, {"fma.rp.f64", 2}, {"div.rm.f64", 2}, {"sqrt.rz.f64", 2},
  {"mul.rn.f64", 2},
  {"abs.f32", 1}, {"neg.f32", 1}, {"min.f32", 1}, {"max.NaN.f32", 1},
  {"cvt.rz.f16.f32", 1}, {"cvt.rn.bf16.f32", 1}, {"cvt.f64.f32", 1}, {"cvt.rn.f32.f64", 2},
  {"cvt.rni.s32.f32", 1}, {"cvt.rna.tf32.f32", 1}, {"cvt.rp.f16.f64", 2},
};
static const int NOPS = sizeof(OPS) / sizeof(OPS[0]);

__device__ __forceinline__ float f(uint64_t x) { return __uint_as_float((uint32_t)x); }
__device__ __forceinline__ double d(uint64_t x) { return __longlong_as_double((long long)x); }
__device__ __forceinline__ uint64_t uf(float x) { return __float_as_uint(x); }
__device__ __forceinline__ uint64_t ud(double x) { return (uint64_t)__double_as_longlong(x); }

#define U1(S) { float r; asm volatile(S " %0, %1;" : "=f"(r) : "f"(a)); return uf(r); }
#define B1(S) { float r; asm volatile(S " %0, %1, %2;" : "=f"(r) : "f"(a), "f"(b)); return uf(r); }
#define T1(S) { float r; asm volatile(S " %0, %1, %2, %3;" : "=f"(r) : "f"(a), "f"(b), "f"(c)); return uf(r); }
#define U2(S) { double r; asm volatile(S " %0, %1;" : "=d"(r) : "d"(A)); return ud(r); }
#define B2(S) { double r; asm volatile(S " %0, %1, %2;" : "=d"(r) : "d"(A), "d"(B)); return ud(r); }
#define T2(S) { double r; asm volatile(S " %0, %1, %2, %3;" : "=d"(r) : "d"(A), "d"(B), "d"(C)); return ud(r); }

__device__ uint64_t run(int op, uint64_t x, uint64_t y, uint64_t z) {
  float a = f(x), b = f(y), c = f(z);
  double A = d(x), B = d(y), C = d(z);
  switch (op) {
    case 0: U1("rcp.approx.f32") case 1: U1("rcp.approx.ftz.f32") case 2: U1("sqrt.approx.f32")
    case 3: U1("sqrt.approx.ftz.f32") case 4: U1("rsqrt.approx.f32") case 5: U1("rsqrt.approx.ftz.f32")
    case 6: U1("ex2.approx.f32") case 7: U1("ex2.approx.ftz.f32") case 8: U1("lg2.approx.f32")
    case 9: U1("lg2.approx.ftz.f32") case 10: U1("sin.approx.f32") case 11: U1("sin.approx.ftz.f32")
    case 12: U1("cos.approx.f32") case 13: U1("cos.approx.ftz.f32") case 14: U1("tanh.approx.f32")
    case 15: B1("div.approx.f32") case 16: B1("div.approx.ftz.f32") case 17: B1("div.full.f32")
    case 18: B1("div.full.ftz.f32")
    case 19: U2("rcp.approx.ftz.f64") case 20: U2("rsqrt.approx.f64") case 21: U2("rsqrt.approx.ftz.f64")
    case 22: B1("add.rz.f32") case 23: B1("add.rm.f32") case 24: B1("mul.rp.f32")
    case 25: T1("fma.rz.f32") case 26: T1("fma.rm.ftz.f32") case 27: B1("div.rz.f32")
    case 28: B1("div.rp.f32") case 29: U1("sqrt.rm.f32") case 30: U1("rcp.rz.f32")
    case 31: B1("add.rn.f32") case 32: B1("add.sat.f32")
    case 33: B2("add.rn.f64") case 34: B2("add.rz.f64") case 35: T2("fma.rp.f64")
    case 36: B2("div.rm.f64") case 37: U2("sqrt.rz.f64") case 38: B2("mul.rn.f64")
    case 39: U1("abs.f32") case 40: U1("neg.f32") case 41: B1("min.f32") case 42: B1("max.NaN.f32")
    case 43: { unsigned short h; asm volatile("cvt.rz.f16.f32 %0, %1;" : "=h"(h) : "f"(a)); return h; }
    case 44: { unsigned short h; asm volatile("cvt.rn.bf16.f32 %0, %1;" : "=h"(h) : "f"(a)); return h; }
    case 45: { double r; asm volatile("cvt.f64.f32 %0, %1;" : "=d"(r) : "f"(a)); return ud(r); }
    case 46: { float r; asm volatile("cvt.rn.f32.f64 %0, %1;" : "=f"(r) : "d"(A)); return uf(r); }
    case 47: { int r; asm volatile("cvt.rni.s32.f32 %0, %1;" : "=r"(r) : "f"(a)); return (uint32_t)r; }
    case 48: { uint32_t r; asm volatile("cvt.rna.tf32.f32 %0, %1;" : "=r"(r) : "f"(a)); return r; }
    case 49: { unsigned short h; asm volatile("cvt.rp.f16.f64 %0, %1;" : "=h"(h) : "d"(A)); return h; }
  }
  return 0;
}

__global__ void kern(int op, const uint64_t* in, uint64_t* out, size_t n) {
  size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
  if (i < n) out[i] = run(op, in[3 * i], in[3 * i + 1], in[3 * i + 2]);
}

static uint64_t sm(uint64_t& s) {
  uint64_t z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

static const uint32_t SPECIAL32[] = {0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x00800000, 0x3f800000,
  0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001, 0x7f800001,
  0x7e800000, 0x7f000000, 0x3f000000, 0x40490fdb, 0xc2c80000, 0x43000000, 0xc3160000};
static const uint64_t SPECIAL64[] = {0, 0x8000000000000000ULL, 1, 0x8000000000000001ULL,
  0x3ff0000000000000ULL, 0xbff0000000000000ULL, 0x7fefffffffffffffULL, 0x7ff0000000000000ULL,
  0xfff0000000000000ULL, 0x7ff8000000000000ULL, 0x7ff0000000000001ULL, 0xfff8000000000123ULL,
  0x000fffffffffffffULL, 0x0010000000000000ULL, 0x4000000000000000ULL};

// f32 operand i: specials, then every 2^18-th bit pattern with random low bits, then random.
static uint64_t in32(size_t i, uint64_t& s) {
  const size_t NS = sizeof(SPECIAL32) / 4;
  if (i < NS) return SPECIAL32[i];
  if (i < 16384 + NS) return ((uint64_t)(i - NS) << 18) | (sm(s) & 0x3ffff);
  uint64_t r = sm(s);
  // bias half of the rest to moderate exponents so two operands interact
  if (r & 1) return (uint32_t)r; 
  return ((r >> 8) & 0x807fffff) | ((uint64_t)(110 + (r >> 40) % 36) << 23);
}
static uint64_t in64(size_t i, uint64_t& s) {
  const size_t NS = sizeof(SPECIAL64) / 8;
  if (i < NS) return SPECIAL64[i];
  uint64_t r = sm(s);
  switch (r & 3) {
    case 0: return r;
    case 1: return r & 0x800fffffffffffffULL;
    default: return (r & 0x800fffffffffffffULL) | ((uint64_t)(1000 + (r >> 52) % 48) << 52);
  }
}

int main(int argc, char** argv) {
  std::string dir = argc > 1 ? argv[1] : "tests/hw/h200/approx";
  mkdir(dir.c_str(), 0755);
  const size_t N = 32768;
  std::vector<uint64_t> in(3 * N), out(N);
  uint64_t *din, *dout;
  cudaMalloc(&din, in.size() * 8);
  cudaMalloc(&dout, N * 8);
  for (int op = 0; op < NOPS; op++) {
    uint64_t s = 0x1234 + op;
    for (size_t i = 0; i < N; i++) {
      for (int k = 0; k < 3; k++) {
        // operand k uses index i for k == 0 and a scrambled index otherwise
        size_t j = k == 0 ? i : (size_t)(sm(s) % N);
        in[3 * i + k] = OPS[op].kind == 1 ? in32(j, s) : in64(j, s);
      }
    }
    cudaMemcpy(din, in.data(), in.size() * 8, cudaMemcpyHostToDevice);
    kern<<<(N + 255) / 256, 256>>>(op, din, dout, N);
    cudaError_t e = cudaMemcpy(out.data(), dout, N * 8, cudaMemcpyDeviceToHost);
    if (e != cudaSuccess) { fprintf(stderr, "%s: %s\n", OPS[op].name, cudaGetErrorString(e)); return 1; }
    std::string path = dir + "/" + OPS[op].name + ".bin";
    FILE* fp = fopen(path.c_str(), "wb");
    if (!fp) { perror(path.c_str()); return 1; }
    uint64_t n = N;
    fwrite("GMSAPX01", 1, 8, fp);
    fwrite(&n, 8, 1, fp);
    for (size_t i = 0; i < N; i++) {
      uint64_t rec[4] = {in[3 * i], in[3 * i + 1], in[3 * i + 2], out[i]};
      fwrite(rec, 8, 4, fp);
    }
    fclose(fp);
    printf("%-24s %zu records -> %s\n", OPS[op].name, N, path.c_str());
  }
  return 0;
}
