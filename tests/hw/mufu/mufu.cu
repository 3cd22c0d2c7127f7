// Sweeps every special-function (MUFU) PTX instruction over its whole input space on the H200,
// checks on the device that a compact description (tables + rules, below) reproduces every
// result, and writes the tables, a random sample of raw results and a report.
//
// Build and run (H200 machine, nvcc 13.0): see tests/hw/mufu/README.md
//   nvcc -O3 -arch=sm_90 -o mufu tests/hw/mufu/mufu.cu && ./mufu OUTDIR
//
// The descriptions (hypotheses checked here, over all 2^32 inputs of each f32 instruction; the
// second run, `./mufu OUTDIR 2`, checks only lg2, sin/cos and tanh with the refined rules):
//   MUFU.RCP  x = 1.m * 2^E: result = T[m] * 2^-E (T = results on [1, 2)), zero when subnormal.
//   MUFU.RSQ  result = T[E & 1][m] * 2^-(E - (E & 1))/2 (T = results on [1, 2) and [2, 4)).
//   MUFU.SQRT result = T[E & 1][m] * 2^(E - (E & 1))/2.
//   MUFU.EX2  q = trunc(|x| * 2^24) (sign-magnitude fixed point, 24 fraction bits),
//             result = TP[q mod 2^24] * 2^(q >> 24) for x >= 0, TN[q mod 2^24] * 2^-(q >> 24) else.
//   MUFU.LG2  tables on [1, 2) and [0.5, 1); elsewhere 8 rounding variants of E + L are counted
//             (run 1) and variant 8, RZ(E + L[1,2)) for E > 0 and RZ((E + 1) + L[0.5,1)) for
//             E < -1, is the rule (run 2).
//   MUFU.SIN/COS of y = FMUL.RZ(x, 1/(2 pi)): i = trunc(|y| * 2^TB) mod 2^TB, result = T[i]
//             (sin: sign of y applied). T built from the sweep itself; conflicts are reported.
//             TB = 24 in run 1 (wrong: conflicts), 25 in run 2 (exact).
//   MUFU.TANH: run 1 counts how many mantissa bits the result depends on per binade; run 2
//             checks identity below 2^-8, +-1 from 8, per-binade tables of the top K bits.
//   MUFU.RCP64H / RSQ64H: as RCP / RSQ on the high word (20-bit mantissa), low word zero.
//   f16/bf16 ex2 and tanh: exhaustive tables (2^16 inputs); the x2 forms checked against them.
// Non-.ftz f32 forms are the wrappers ptxas emits around MUFU (cuobjdump -sass, README.md).
#include <cstdio>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include <sys/stat.h>
#include "mufu_ref.h"

typedef uint32_t u32;
typedef uint64_t u64;
typedef int64_t i64;

#define CK(x)                                                                     \
  do {                                                                            \
    cudaError_t e_ = (x);                                                         \
    if (e_ != cudaSuccess) {                                                      \
      fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
      exit(1);                                                                    \
    }                                                                             \
  } while (0)

static FILE* REP;
#define P(...) do { printf(__VA_ARGS__); fprintf(REP, __VA_ARGS__); } while (0)

__device__ __forceinline__ float F(u32 x) { return __uint_as_float(x); }
__device__ __forceinline__ u32 U(float x) { return __float_as_uint(x); }

#define OP1(S) { float r; asm volatile(S " %0, %1;" : "=f"(r) : "f"(F(x))); return U(r); }
// f32 instructions by id
enum {
  RCPF, RCP, RSQF, RSQ, SQRTF, SQRT, EX2F, EX2, LG2F, LG2, SINF, SIN, COSF, COS, TANH, NOPS
};
static const char* NAMES[NOPS] = {
  "rcp.approx.ftz.f32", "rcp.approx.f32", "rsqrt.approx.ftz.f32", "rsqrt.approx.f32",
  "sqrt.approx.ftz.f32", "sqrt.approx.f32", "ex2.approx.ftz.f32", "ex2.approx.f32",
  "lg2.approx.ftz.f32", "lg2.approx.f32", "sin.approx.ftz.f32", "sin.approx.f32",
  "cos.approx.ftz.f32", "cos.approx.f32", "tanh.approx.f32"};

template <int OP> __device__ __forceinline__ u32 hw(u32 x) {
  if (OP == RCPF) OP1("rcp.approx.ftz.f32")
  if (OP == RCP) OP1("rcp.approx.f32")
  if (OP == RSQF) OP1("rsqrt.approx.ftz.f32")
  if (OP == RSQ) OP1("rsqrt.approx.f32")
  if (OP == SQRTF) OP1("sqrt.approx.ftz.f32")
  if (OP == SQRT) OP1("sqrt.approx.f32")
  if (OP == EX2F) OP1("ex2.approx.ftz.f32")
  if (OP == EX2) OP1("ex2.approx.f32")
  if (OP == LG2F) OP1("lg2.approx.ftz.f32")
  if (OP == LG2) OP1("lg2.approx.f32")
  if (OP == SINF) OP1("sin.approx.ftz.f32")
  if (OP == SIN) OP1("sin.approx.f32")
  if (OP == COSF) OP1("cos.approx.ftz.f32")
  if (OP == COS) OP1("cos.approx.f32")
  if (OP == TANH) OP1("tanh.approx.f32")
  return 0;
}

#define GRID 8448
#define BLOCK 256
#define FOR_ALL(i) for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 32); i += (u64)gridDim.x * blockDim.x)

template <int OP> __global__ void fill(u32* R) { FOR_ALL(i) R[i] = hw<OP>((u32)i); }

// ------------------------------------------------------------------------------------------
// Models (ported to src/exec/mufu.rs)
// ------------------------------------------------------------------------------------------
struct Tabs {
  const u32* t0;  // rcp / rsq even / sqrt even / ex2 positive / lg2 [1,2) / sin
  const u32* t1;  // rsq odd / sqrt odd / ex2 negative / lg2 [0.5,1) / cos
  u32 nan;        // NaN the unit returns
  int variant;    // lg2: rounding variant
};
#define QNAN 0x7fffffffu

__device__ u32 m_rcp(u32 x, const Tabs& T) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return m ? T.nan : s;
  if (e == 0) return s | 0x7f800000u;
  u32 t = T.t0[m];
  int re = (int)((t >> 23) & 0xff) + 127 - (int)e;
  if (re <= 0) return s;
  return s | ((u32)re << 23) | (t & 0x7fffff);
}
__device__ u32 m_rsq(u32 x, const Tabs& T) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (m || s) ? T.nan : 0;
  if (e == 0) return s | 0x7f800000u;
  if (s) return T.nan;
  int E = (int)e - 127, p = E & 1;
  u32 t = p ? T.t1[m] : T.t0[m];
  int re = (int)((t >> 23) & 0xff) - (E - p) / 2;
  return ((u32)re << 23) | (t & 0x7fffff);
}
__device__ u32 m_sqrt(u32 x, const Tabs& T) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (m || s) ? T.nan : 0x7f800000u;
  if (e == 0) return s;
  if (s) return T.nan;
  int E = (int)e - 127, p = E & 1;
  u32 t = p ? T.t1[m] : T.t0[m];
  int re = (int)((t >> 23) & 0xff) + (E - p) / 2;
  return ((u32)re << 23) | (t & 0x7fffff);
}
__device__ u32 m_ex2(u32 x, const Tabs& T) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return m ? T.nan : (s ? 0 : 0x7f800000u);
  if (e == 0) return 0x3f800000u;
  if (e >= 134) return s ? 0 : 0x7f800000u;
  u64 M = (1u << 23) | m;
  int sh = (int)e - 126;
  u64 q = sh >= 0 ? (M << sh) : (sh > -40 ? (M >> -sh) : 0);
  u32 n = (u32)(q >> 24), f = (u32)(q & 0xffffff);
  if (!s) {
    u32 t = T.t0[f];
    int re = (int)((t >> 23) & 0xff) + (int)n;
    if (re >= 255) return 0x7f800000u;
    return ((u32)re << 23) | (t & 0x7fffff);
  }
  u32 t = T.t1[f];
  int re = (int)((t >> 23) & 0xff) - (int)n;
  if (re <= 0) return 0;
  return ((u32)re << 23) | (t & 0x7fffff);
}
// lg2: variant v: 0..3 = RN/RZ/RD/RU of E + L0 (L0 = [1,2) result), 4..7 = the same with
// L = L0 where L0 < 0.5 else L1 + 1 (L1 = the [0.5,1) result, more fraction bits there).
__device__ u32 m_lg2(u32 x, const Tabs& T) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return (m || s) ? T.nan : 0x7f800000u;
  if (e == 0) return 0xff800000u;
  if (s) return T.nan;
  int E = (int)e - 127;
  if (E == 0) return T.t0[m];
  if (E == -1) return T.t1[m];
  if (T.variant == 8) {
    double v = E > 0 ? (double)E + (double)F(T.t0[m]) : (double)(E + 1) + (double)F(T.t1[m]);
    return U(__double2float_rz(v));
  }
  double L = (double)F(T.t0[m]);
  if (T.variant >= 4 && L >= 0.5) L = (double)F(T.t1[m]) + 1.0;
  double v = (double)E + L;
  switch (T.variant & 3) {
    case 0: return U(__double2float_rn(v));
    case 1: return U(__double2float_rz(v));
    case 2: return U(__double2float_rd(v));
    default: return U(__double2float_ru(v));
  }
}
// sin/cos: y = FMUL.RZ(x, 1/(2 pi)), index of |y| in 2^-24 turns.
#define INV2PI 0x3e22f983u
#define TB 25
#define TN_ (1u << TB)
__device__ __forceinline__ u32 turn_index(u32 y) {
  u32 e = (y >> 23) & 0xff, M = (1u << 23) | (y & 0x7fffff);
  if (e == 0) return 0;
  int sh = (int)e - 150 + TB;
  if (sh >= TB || sh <= -24) return 0;
  u64 q = sh >= 0 ? ((u64)M << sh) : ((u64)M >> -sh);
  return (u32)(q & (TN_ - 1));
}
__device__ u32 m_sin(u32 x, const Tabs& T) {
  u32 y = U(__fmul_rz(F(x), F(INV2PI)));
  if (((y >> 23) & 0xff) == 0xff) return T.nan;
  return T.t0[turn_index(y)] ^ (y & 0x80000000u);
}
__device__ u32 m_cos(u32 x, const Tabs& T) {
  u32 y = U(__fmul_rz(F(x), F(INV2PI)));
  if (((y >> 23) & 0xff) == 0xff) return T.nan;
  return T.t1[turn_index(y)];
}
// The non-.ftz wrappers, as ptxas 13.0 emits them (sm_90).
__device__ u32 w_rcp(u32 x, const Tabs& T) {
  float a = F(x), ax = fabsf(a);
  float r4 = !(ax >= 1.175494350822287508e-38f || ax != ax) ? 16777216.0f : 1.0f;
  float r5 = !(ax > 8.50705917302346158658e+37f) ? r4 : 0.25f;
  float xs = __fmul_rn(a, r5);
  return U(__fmul_rn(r5, F(m_rcp(U(xs), T))));
}
__device__ __forceinline__ bool tiny(float a) { float ax = fabsf(a); return !(ax >= 1.175494350822287508e-38f || ax != ax); }
__device__ u32 w_rsq(u32 x, const Tabs& T) {
  float a = F(x); bool p = tiny(a);
  if (p) a = __fmul_rn(a, 16777216.0f);
  float r = F(m_rsq(U(a), T));
  if (p) r = __fmul_rn(r, 4096.0f);
  return U(r);
}
__device__ u32 w_sqrt(u32 x, const Tabs& T) {
  float a = F(x); bool p = tiny(a);
  if (p) a = __fmul_rn(a, 16777216.0f);
  float r = F(m_sqrt(U(a), T));
  if (p) r = __fmul_rn(r, 0.000244140625f);
  return U(r);
}
__device__ u32 w_lg2(u32 x, const Tabs& T) {
  float a = F(x); bool p = tiny(a);
  if (p) a = __fmul_rn(a, 16777216.0f);
  float r = F(m_lg2(U(a), T));
  if (p) r = __fadd_rn(r, -24.0f);
  return U(r);
}
__device__ u32 w_ex2(u32 x, const Tabs& T) {
  float a = F(x); bool p = !(a >= -126.0f || a != a);
  if (p) a = __fmul_rn(a, 0.5f);
  float r = F(m_ex2(U(a), T));
  if (p) r = __fmul_rn(r, r);
  return U(r);
}

// ------------------------------------------------------------------------------------------
// Verification: mismatch counts per (sign, exponent) bucket and the first example of each.
// ------------------------------------------------------------------------------------------
struct Check {
  unsigned long long cnt[512];
  u32 ex[512], exhw[512], expred[512];
};
enum { MRCP, WRCP, MRSQ, WRSQ, MSQRT, WSQRT, MEX2, WEX2, MLG2, WLG2, MSIN, MCOS };
__device__ __forceinline__ u32 model(int k, u32 x, const Tabs& T) {
  switch (k) {
    case MRCP: return m_rcp(x, T);
    case WRCP: return w_rcp(x, T);
    case MRSQ: return m_rsq(x, T);
    case WRSQ: return w_rsq(x, T);
    case MSQRT: return m_sqrt(x, T);
    case WSQRT: return w_sqrt(x, T);
    case MEX2: return m_ex2(x, T);
    case WEX2: return w_ex2(x, T);
    case MLG2: return m_lg2(x, T);
    case WLG2: return w_lg2(x, T);
    case MSIN: return m_sin(x, T);
    default: return m_cos(x, T);
  }
}
__global__ void verify(int k, const u32* R, Tabs T, Check* C) {
  FOR_ALL(i) {
    u32 x = (u32)i, h = R[i], p = model(k, x, T);
    if (h != p) {
      u32 b = x >> 23;
      if (atomicAdd(&C->cnt[b], 1ull) == 0) {
        C->ex[b] = x; C->exhw[b] = h; C->expred[b] = p;
      }
    }
  }
}
// lg2: all 8 variants at once, counts per exponent (positive inputs only).
__global__ void lg2_variants(const u32* R, Tabs T, unsigned long long* cnt) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 31); i += (u64)gridDim.x * blockDim.x) {
    u32 x = (u32)i;
    Tabs t = T;
    for (int v = 0; v < 9; v++) {
      t.variant = v;
      if (m_lg2(x, t) != R[i]) atomicAdd(&cnt[(x >> 23) * 9 + v], 1ull);
    }
  }
}
// sin/cos: build the table from the sweep (scatter); count conflicts.
#define HOLE 0x7fbadbadu
__global__ void scatter(int cos_, const u32* R, u32* T, unsigned long long* conf, u32* ex) {
  FOR_ALL(i) {
    u32 x = (u32)i;
    u32 y = U(__fmul_rz(F(x), F(INV2PI)));
    if (((y >> 23) & 0xff) == 0xff) continue;
    u32 v = R[i] ^ (cos_ ? 0 : (y & 0x80000000u));
    u32 idx = turn_index(y);
    u32 old = T[idx];
    if (old == HOLE) old = atomicCAS(&T[idx], HOLE, v);
    if (old != HOLE && old != v) {
      if (atomicAdd(conf, 1ull) == 0) { ex[0] = x; ex[1] = old; ex[2] = v; ex[3] = idx; }
    }
  }
}
// ex2 tables from the sweep: TP[f] = R[f * 2^-24], TN[f] = R[-f * 2^-24].
__global__ void ex2_tables(const u32* R, u32* TP, u32* TN) {
  for (u32 f = blockIdx.x * blockDim.x + threadIdx.x; f < (1u << 24); f += gridDim.x * blockDim.x) {
    u32 b = U((float)f * 5.9604644775390625e-8f);
    TP[f] = R[b];
    TN[f] = R[b | 0x80000000u];
  }
}
// tanh diagnostics: per positive exponent, how often the result changes when the low 23-K
// mantissa bits are cleared, for K in KS; odd symmetry; identity; saturation.
__constant__ int KS[10] = {14, 15, 16, 17, 18, 19, 20, 21, 22, 23};
__global__ void tanh_diag(const u32* R, unsigned long long* c) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 31); i += (u64)gridDim.x * blockDim.x) {
    u32 x = (u32)i, h = R[i], e = x >> 23;
    for (int k = 0; k < 10; k++) {
      u32 mask = (1u << (23 - KS[k])) - 1;
      if (R[x & ~mask] != h) atomicAdd(&c[e * 16 + k], 1ull);
    }
    if (R[x | 0x80000000u] != (h ^ 0x80000000u)) atomicAdd(&c[e * 16 + 10], 1ull);
    if (h == x) atomicAdd(&c[e * 16 + 11], 1ull);
    if (h == 0x3f800000u) atomicAdd(&c[e * 16 + 12], 1ull);
  }
}
// tanh: identity below 2^-8, +-1 from 8 up, in between T_e[top K_e mantissa bits].
__constant__ int TK[256];
__constant__ u32 TOFF[256];
__device__ u32 m_tanh(u32 x, const u32* T, u32 nan) {
  u32 s = x & 0x80000000u, e = (x >> 23) & 0xff, m = x & 0x7fffff;
  if (e == 0xff) return m ? nan : (s | 0x3f800000u);
  if (e <= 118) return x;
  if (e >= 130) return s | 0x3f800000u;
  return T[TOFF[e] + (m >> (23 - TK[e]))] ^ s;
}
__global__ void tanh_tab(const u32* R, u32* T) {
  for (u32 e = 119; e < 130; e++)
    for (u32 j = blockIdx.x * blockDim.x + threadIdx.x; j < (1u << TK[e]); j += gridDim.x * blockDim.x)
      T[TOFF[e] + j] = R[(e << 23) | (j << (23 - TK[e]))];
}
__global__ void verify_tanh(const u32* R, const u32* T, u32 nan, Check* C) {
  FOR_ALL(i) {
    u32 x = (u32)i, h = R[i], p = m_tanh(x, T, nan);
    if (h != p) {
      u32 b = x >> 23;
      if (atomicAdd(&C->cnt[b], 1ull) == 0) { C->ex[b] = x; C->exhw[b] = h; C->expred[b] = p; }
    }
  }
}
// Residual (hw - predicted) of slices, for lg2 exploration off the device.
__global__ void lg2_slice(const u32* R, Tabs T, int E, int* out) {
  for (u32 m = blockIdx.x * blockDim.x + threadIdx.x; m < (1u << 23); m += gridDim.x * blockDim.x) {
    u32 x = ((u32)(E + 127) << 23) | m;
    out[m] = (int)(R[x] - m_lg2(x, T));
  }
}

__global__ void model_slice(int k, const u32* R, Tabs T, u32 x0, int* out) {
  for (u32 m = blockIdx.x * blockDim.x + threadIdx.x; m < (1u << 23); m += gridDim.x * blockDim.x)
    out[m] = (int)(R[x0 + m] - model(k, x0 + m, T));
}
static void dump_slices(const char* name, int k, const u32* R, Tabs T, std::vector<u32> x0s, int* ds);

// ------------------------------------------------------------------------------------------
// f16 / bf16
// ------------------------------------------------------------------------------------------
#define OPH(S) { unsigned short r, a = x; asm volatile(S " %0, %1;" : "=h"(r) : "h"(a)); return r; }
#define OPH2(S) { u32 r; asm volatile(S " %0, %1;" : "=r"(r) : "r"(x)); return r; }
__device__ u32 hw16(int k, u32 x) {
  switch (k) {
    case 0: OPH("ex2.approx.f16")
    case 1: OPH("ex2.approx.ftz.bf16")
    case 2: OPH("tanh.approx.f16")
    default: OPH("tanh.approx.bf16")
  }
}
__device__ u32 hw16x2(int k, u32 x) {
  switch (k) {
    case 0: OPH2("ex2.approx.f16x2")
    case 1: OPH2("ex2.approx.ftz.bf16x2")
    case 2: OPH2("tanh.approx.f16x2")
    default: OPH2("tanh.approx.bf16x2")
  }
}
static const char* NAMES16[4] = {"ex2.approx.f16", "ex2.approx.ftz.bf16", "tanh.approx.f16", "tanh.approx.bf16"};
static const char* NAMES16X2[4] = {"ex2.approx.f16x2", "ex2.approx.ftz.bf16x2", "tanh.approx.f16x2", "tanh.approx.bf16x2"};
__global__ void fill16(u32* T) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < 4 * 65536) T[i] = hw16(i >> 16, i & 0xffff) & 0xffff;
}
__global__ void check16x2(int k, const u32* T, unsigned long long* c, u32* ex) {
  FOR_ALL(i) {
    u32 x = (u32)i, h = hw16x2(k, x);
    u32 p = T[k * 65536 + (x & 0xffff)] | (T[k * 65536 + (x >> 16)] << 16);
    if (h != p && atomicAdd(c, 1ull) == 0) { ex[0] = x; ex[1] = h; ex[2] = p; }
  }
}

// ------------------------------------------------------------------------------------------
// f64: MUFU.RCP64H / RSQ64H through rcp.approx.ftz.f64 / rsqrt.approx.ftz.f64
// ------------------------------------------------------------------------------------------
__device__ __forceinline__ u64 hw64(int k, u64 x) {
  double r, a = __longlong_as_double((long long)x);
  if (k == 0) asm volatile("rcp.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(a));
  else if (k == 1) asm volatile("rsqrt.approx.ftz.f64 %0, %1;" : "=d"(r) : "d"(a));
  else asm volatile("rsqrt.approx.f64 %0, %1;" : "=d"(r) : "d"(a));
  return (u64)__double_as_longlong(r);
}
__global__ void fill64(int k, u32* R, unsigned long long* lo_nonzero) {
  FOR_ALL(i) {
    u64 r = hw64(k, i << 32);
    R[i] = (u32)(r >> 32);
    if ((u32)r) atomicAdd(lo_nonzero, 1ull);
  }
}
__device__ u32 m_rcp64h(u32 h, const u32* T, u32 nanh) {
  u32 s = h & 0x80000000u, e = (h >> 20) & 0x7ff, m = h & 0xfffff;
  if (e == 0x7ff) return m ? nanh : s;
  if (e == 0) return s | 0x7ff00000u;
  u32 t = T[m];
  int re = (int)((t >> 20) & 0x7ff) + 1023 - (int)e;
  if (re <= 0) return s;
  return s | ((u32)re << 20) | (t & 0xfffff);
}
__device__ u32 m_rsq64h(u32 h, const u32* T0, const u32* T1, u32 nanh) {
  u32 s = h & 0x80000000u, e = (h >> 20) & 0x7ff, m = h & 0xfffff;
  if (e == 0x7ff) return (m || s) ? nanh : 0;
  if (e == 0) return s | 0x7ff00000u;
  if (s) return nanh;
  int E = (int)e - 1023, p = E & 1;
  u32 t = p ? T1[m] : T0[m];
  int re = (int)((t >> 20) & 0x7ff) - (E - p) / 2;
  return ((u32)re << 20) | (t & 0xfffff);
}
__global__ void verify64(int k, const u32* R, const u32* T0, const u32* T1, u32 nanh, Check* C) {
  FOR_ALL(i) {
    u32 h = (u32)i;
    u32 p = k == 0 ? m_rcp64h(h, T0, nanh) : m_rsq64h(h, T0, T1, nanh);
    if (p != R[i]) {
      u32 b = h >> 23;
      if (atomicAdd(&C->cnt[b], 1ull) == 0) { C->ex[b] = h; C->exhw[b] = R[i]; C->expred[b] = p; }
    }
  }
}
__device__ __forceinline__ u64 mix(u64 z) {
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
// rsqrt.approx.f64 (non-ftz) as ptxas emits it: RSQ64H, one Newton step, slow path.
__device__ u64 w_rsq64(u64 xb, const u32* T0, const u32* T1, u32 nanh) {
  double x = __longlong_as_double((long long)xb);
  u32 hi = (u32)(xb >> 32);
  auto nt = [&](double a) {
    u32 ah = (u32)((u64)__double_as_longlong(a) >> 32);
    double y = __longlong_as_double((long long)((u64)m_rsq64h(ah, T0, T1, nanh) << 32));
    double t = __dmul_rn(y, y);
    t = __fma_rn(a, -t, 1.0);
    double h = __fma_rn(t, 0.375, 0.5);
    double t2 = __dmul_rn(y, t);
    return __fma_rn(h, t2, y);
  };
  if (hi - 0x00100000u < 0x7fe00000u) return (u64)__double_as_longlong(nt(x));
  if (x == 0.0) return (u64)(hi & 0x80000000u | 0x7ff00000u) << 32;
  if (!(fabs(x) <= __longlong_as_double(0x7ff0000000000000LL))) return (u64)__double_as_longlong(__dadd_rn(x, x));
  if (hi & 0x80000000u) return 0xfff8000000000000ULL;
  if (fabs(x) == __longlong_as_double(0x7ff0000000000000LL)) return 0;
  return (u64)__double_as_longlong(__dmul_rn(nt(__dmul_rn(x, 18014398509481984.0)), 134217728.0));
}
// random low words: does the result depend on them? and the non-ftz rsqrt emulation.
__global__ void check64(const u32* RR, const u32* RS0, const u32* RS1, u32 nr, u32 ns,
                        unsigned long long* c, u64* ex) {
  for (u64 i = blockIdx.x * (u64)blockDim.x + threadIdx.x; i < (1ull << 30); i += (u64)gridDim.x * blockDim.x) {
    u64 x = mix(i * 0x9e3779b97f4a7c15ULL + 77);
    if (i & 1) x = (x & 0x800fffffffffffffULL) | ((u64)(1000 + (x >> 52) % 48) << 52);
    if ((i & 7) == 2) x &= 0x800fffffffffffffULL;  // subnormals
    u64 a = hw64(0, x), b = hw64(1, x), w = hw64(2, x);
    u32 h = (u32)(x >> 32);
    u64 pa = (u64)m_rcp64h(h, RR, nr) << 32;
    u64 pb = (u64)m_rsq64h(h, RS0, RS1, ns) << 32;
    if (a != pa && atomicAdd(&c[0], 1ull) == 0) { ex[0] = x; ex[1] = a; ex[2] = pa; }
    if (b != pb && atomicAdd(&c[1], 1ull) == 0) { ex[3] = x; ex[4] = b; ex[5] = pb; }
    u64 pw = w_rsq64(x, RS0, RS1, ns);
    if (w != pw && atomicAdd(&c[2], 1ull) == 0) { ex[6] = x; ex[7] = w; ex[8] = pw; }
  }
}

// ------------------------------------------------------------------------------------------
// host
// ------------------------------------------------------------------------------------------
static std::string DIR;
static void wfile(const std::string& name, const void* p, size_t n) {
  std::string path = DIR + "/" + name;
  FILE* f = fopen(path.c_str(), "wb");
  if (!f || fwrite(p, 1, n, f) != n) { perror(path.c_str()); exit(1); }
  fclose(f);
}
// Residual table: int8 (hw - ref) with 0x80 as escape; escapes listed as (index, hw) u32 pairs.
static void wres(const std::string& name, const u32* hwt, size_t n, u32 (*ref)(u32, int), int arg) {
  std::vector<int8_t> r(n);
  std::vector<u32> ex;
  for (size_t i = 0; i < n; i++) {
    i64 d = (i64)(int32_t)hwt[i] - (i64)(int32_t)ref((u32)i, arg);
    if (d >= -127 && d <= 127) r[i] = (int8_t)d;
    else { r[i] = (int8_t)0x80; ex.push_back((u32)i); ex.push_back(hwt[i]); }
  }
  wfile(name + ".r8", r.data(), n);
  wfile(name + ".x32", ex.data(), ex.size() * 4);
  P("table %-28s %9zu entries, %zu escapes\n", name.c_str(), n, ex.size() / 2);
}
static u32 r_rcp(u32 i, int) { return ref_rcp(i); }
static u32 r_rsq(u32 i, int o) { return ref_rsq(i, o); }
static u32 r_sqrt(u32 i, int o) { return ref_sqrt(i, o); }
static u32 r_ex2(u32 i, int n) { return ref_ex2(i, n); }
static u32 r_lg2(u32 i, int u) { return ref_lg2(i, u); }
static u32 r_sin(u32 i, int) { return ref_bits(ref_sin_turn(i)); }
static u32 r_cos(u32 i, int) { return ref_bits(ref_cos_turn(i)); }
static u32 r_rcp64(u32 i, int) { return ref_rcp64h(i); }
static u32 r_rsq64(u32 i, int o) { return ref_rsq64h(i, o); }

static Check* CHK;
static void dump_slices(const char* name, int k, const u32* R, Tabs T, std::vector<u32> x0s, int* ds) {
  std::vector<int> hs(1 << 23);
  for (u32 x0 : x0s) {
    model_slice<<<4096, 256>>>(k, R, T, x0, ds);
    CK(cudaMemcpy(hs.data(), ds, 4 << 23, cudaMemcpyDeviceToHost));
    std::vector<int8_t> b(1 << 23);
    size_t nz = 0;
    for (int m = 0; m < (1 << 23); m++) { b[m] = (int8_t)(hs[m] < -127 ? -128 : hs[m] > 127 ? 127 : hs[m]); nz += hs[m] != 0; }
    char fn[64];
    snprintf(fn, sizeof fn, "diag/%s_%08x.r8", name, x0);
    wfile(fn, b.data(), b.size());
    P("%s slice from %08x: %zu of 2^23 differ from the model\n", name, x0, nz);
  }
}
static bool report(const char* what, int k, const u32* R, Tabs T) {
  CK(cudaMemset(CHK, 0, sizeof(Check)));
  verify<<<GRID, BLOCK>>>(k, R, T, CHK);
  CK(cudaDeviceSynchronize());
  Check c;
  CK(cudaMemcpy(&c, CHK, sizeof c, cudaMemcpyDeviceToHost));
  unsigned long long tot = 0;
  for (int b = 0; b < 512; b++) tot += c.cnt[b];
  P("verify %-24s mismatches %llu of 2^32\n", what, tot);
  int shown = 0;
  for (int b = 0; b < 512 && shown < 40; b++)
    if (c.cnt[b]) {
      P("  sign %d exp %3d: %10llu  e.g. x=%08x hw=%08x model=%08x\n", b >> 8, b & 255, c.cnt[b], c.ex[b], c.exhw[b], c.expred[b]);
      shown++;
    }
  return tot == 0;
}
static u64 smx(u64& s) {
  u64 z = (s += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static const u32 SPECIAL[] = {0, 0x80000000, 1, 0x80000001, 0x007fffff, 0x807fffff, 0x00800000, 0x80800000,
  0x3f800000, 0xbf800000, 0x7f7fffff, 0xff7fffff, 0x7f800000, 0xff800000, 0x7fc00000, 0xffc00001,
  0x7f800001, 0x3f000000, 0x40490fdb, 0xc2fc0000, 0xc2fe0000, 0x43000000, 0xc3000000, 0x42fe0000,
  0x7e800000, 0x7f000000, 0x00400000, 0x3effffff, 0x3f7fffff, 0x3f800001, 0x4b800000, 0xcb800000};
// Sample inputs: specials, then a mix of raw bits, moderate values, boundaries.
static std::vector<u32> sample_inputs(u64 seed, size_t n) {
  std::vector<u32> v;
  for (u32 s : SPECIAL) v.push_back(s);
  u64 s = seed;
  while (v.size() < n) {
    u64 r = smx(s);
    u32 x;
    switch (v.size() & 3) {
      case 0: x = (u32)r; break;
      case 1: x = ((u32)(r >> 8) & 0x807fffffu) | ((u32)(110 + (r >> 40) % 30) << 23); break;
      case 2: x = ((u32)(r >> 8) & 0x807fffffu) | ((u32)((r >> 40) % 256) << 23); break;
      default: {
        u32 m = (r >> 60) & 1 ? (u32)(r >> 32) % 64 : 0x7fffff - (u32)(r >> 32) % 64;
        x = ((u32)r & 0x80000000u) | ((u32)((r >> 40) % 256) << 23) | m;
      }
    }
    v.push_back(x);
  }
  return v;
}
__global__ void gather(const u32* R, const u32* in, u32* out, u32 n) {
  u32 i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = R[in[i]];
}
#define NS 32768
static u32 *DIN, *DOUT;
static void sample(int op, const u32* R) {
  std::vector<u32> in = sample_inputs(0x5eed0000 + op, NS), out(NS);
  CK(cudaMemcpy(DIN, in.data(), NS * 4, cudaMemcpyHostToDevice));
  gather<<<NS / 256, 256>>>(R, DIN, DOUT, NS);
  CK(cudaMemcpy(out.data(), DOUT, NS * 4, cudaMemcpyDeviceToHost));
  std::vector<u32> rec;
  for (int i = 0; i < NS; i++) { rec.push_back(in[i]); rec.push_back(out[i]); }
  wfile(std::string("sample/") + NAMES[op] + ".bin", rec.data(), rec.size() * 4);
}
static std::vector<u32> slice(const u32* R, u64 start, size_t n) {
  std::vector<u32> v(n);
  CK(cudaMemcpy(v.data(), R + start, n * 4, cudaMemcpyDeviceToHost));
  return v;
}
template <int OP> static void sweep(u32* R) {
  fill<OP><<<GRID, BLOCK>>>(R);
  CK(cudaGetLastError());
  CK(cudaDeviceSynchronize());
  sample(OP, R);
}

__global__ void run64(int k, const u64* in, u64* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hw64(k, in[i]);
}
__global__ void run16x2(int k, const u32* in, u32* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i < n) out[i] = hw16x2(k, in[i]);
}

int main(int argc, char** argv) {
  DIR = argc > 1 ? argv[1] : "mufu-out";
  bool p2 = argc > 2 && !strcmp(argv[2], "2");  // second run: lg2, sin/cos, tanh only
  mkdir(DIR.c_str(), 0755);
  mkdir((DIR + "/sample").c_str(), 0755);
  mkdir((DIR + "/tables").c_str(), 0755);
  mkdir((DIR + "/diag").c_str(), 0755);
  REP = fopen((DIR + "/report.txt").c_str(), "w");
  u32 *RA, *RB;
  CK(cudaMalloc(&RA, 4ull << 32));
  CK(cudaMalloc(&RB, 4ull << 32));
  CK(cudaMalloc(&CHK, sizeof(Check)));
  CK(cudaMalloc(&DIN, NS * 4));
  CK(cudaMalloc(&DOUT, NS * 4));
  u32 *TP, *TN;
  CK(cudaMalloc(&TP, 4u << 24));
  CK(cudaMalloc(&TN, 4u << 24));
  unsigned long long* dc;
  CK(cudaMalloc(&dc, 8 * 8192));
  u32* dex;
  CK(cudaMalloc(&dex, 64));
  const u64 ONE = 127ull << 23;
  auto nanof = [&](const u32* R) { u32 v; CK(cudaMemcpy(&v, R + 0x7fc00000u, 4, cudaMemcpyDeviceToHost)); return v; };

  if (!p2) {
  // --- rcp
  sweep<RCPF>(RA); sweep<RCP>(RB);
  {
    Tabs T{RA + ONE, nullptr, nanof(RA), 0};
    P("rcp: NaN(0x7fc00000) -> %08x, nonftz %08x\n", T.nan, nanof(RB));
    report("MUFU.RCP", MRCP, RA, T); report("rcp.approx.f32 wrapper", WRCP, RB, T);
    wres("tables/rcp", slice(RA, ONE, 1 << 23).data(), 1 << 23, r_rcp, 0);
  }
  // --- rsqrt
  sweep<RSQF>(RA); sweep<RSQ>(RB);
  {
    Tabs T{RA + ONE, RA + ONE + (1 << 23), nanof(RA), 0};
    P("rsq: NaN -> %08x; -1 -> %08x\n", T.nan, slice(RA, 0xbf800000u, 1)[0]);
    report("MUFU.RSQ", MRSQ, RA, T); report("rsqrt.approx.f32 wrapper", WRSQ, RB, T);
    wres("tables/rsq0", slice(RA, ONE, 1 << 23).data(), 1 << 23, r_rsq, 0);
    wres("tables/rsq1", slice(RA, ONE + (1 << 23), 1 << 23).data(), 1 << 23, r_rsq, 1);
  }
  // --- sqrt
  sweep<SQRTF>(RA); sweep<SQRT>(RB);
  {
    Tabs T{RA + ONE, RA + ONE + (1 << 23), nanof(RA), 0};
    P("sqrt: NaN -> %08x; -1 -> %08x\n", T.nan, slice(RA, 0xbf800000u, 1)[0]);
    report("MUFU.SQRT", MSQRT, RA, T); report("sqrt.approx.f32 wrapper", WSQRT, RB, T);
    wres("tables/sqrt0", slice(RA, ONE, 1 << 23).data(), 1 << 23, r_sqrt, 0);
    wres("tables/sqrt1", slice(RA, ONE + (1 << 23), 1 << 23).data(), 1 << 23, r_sqrt, 1);
  }
  // --- ex2
  sweep<EX2F>(RA); sweep<EX2>(RB);
  {
    ex2_tables<<<4096, 256>>>(RA, TP, TN);
    CK(cudaDeviceSynchronize());
    Tabs T{TP, TN, nanof(RA), 0};
    P("ex2: NaN -> %08x\n", T.nan);
    bool ok = report("MUFU.EX2", MEX2, RA, T); report("ex2.approx.f32 wrapper", WEX2, RB, T);
    if (!ok) {
      int* ds; CK(cudaMalloc(&ds, 4 << 23));
      dump_slices("ex2", MEX2, RA, T, {110u << 23, 120u << 23, 126u << 23, 0x80000000u | (110u << 23), 0x80000000u | (120u << 23), 0x80000000u | (126u << 23)}, ds);
      CK(cudaFree(ds));
    }
    std::vector<u32> tp(1 << 24), tn(1 << 24);
    CK(cudaMemcpy(tp.data(), TP, 4 << 24, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tn.data(), TN, 4 << 24, cudaMemcpyDeviceToHost));
    size_t rel = 0;
    for (u32 f = 1; f < (1u << 24); f++) rel += tn[f] != tp[(1u << 24) - f] - (1u << 23);
    P("ex2: TN[f] != TP[2^24-f]/2 for %zu of 2^24-1 entries\n", rel);
    wres("tables/ex2p", tp.data(), 1 << 24, r_ex2, 0);
    wres("tables/ex2n", tn.data(), 1 << 24, r_ex2, 1);
  }
  }
  // --- lg2
  sweep<LG2F>(RA); sweep<LG2>(RB);
  {
    Tabs T{RA + ONE, RA + ONE - (1 << 23), nanof(RA), 0};
    P("lg2: NaN -> %08x; -1 -> %08x; +0 -> %08x\n", T.nan, slice(RA, 0xbf800000u, 1)[0], slice(RA, 0, 1)[0]);
    CK(cudaMemset(dc, 0, 8 * 8192));
    lg2_variants<<<GRID, BLOCK>>>(RA, T, dc);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned long long> c(9 * 256);
    CK(cudaMemcpy(c.data(), dc, 8 * 9 * 256, cudaMemcpyDeviceToHost));
    unsigned long long tot[9] = {0};
    for (int e = 1; e < 255; e++) {
      P("lg2 E=%4d:", e - 127);
      for (int v = 0; v < 9; v++) { P(" %8llu", c[e * 9 + v]); tot[v] += c[e * 9 + v]; }
      P("\n");
    }
    P("lg2 totals (RN RZ RD RU; with L1; RZ with L0 above, L1 below):");
    int best = 0;
    for (int v = 0; v < 9; v++) { P(" %llu", tot[v]); if (tot[v] < tot[best]) best = v; }
    P("\n");
    T.variant = best;
    P("lg2 best variant %d\n", best);
    report("MUFU.LG2", MLG2, RA, T); report("lg2.approx.f32 wrapper", WLG2, RB, T);
    wres("tables/lg2u", slice(RA, ONE, 1 << 23).data(), 1 << 23, r_lg2, 1);
    wres("tables/lg2l", slice(RA, ONE - (1 << 23), 1 << 23).data(), 1 << 23, r_lg2, 0);
    int* ds = (int*)TP;
    std::vector<int> hs(1 << 23);
    const int ES[6] = {1, 2, -2, 7, -30, 100};
    for (int E : ES) {
      lg2_slice<<<4096, 256>>>(RA, T, E, ds);
      CK(cudaMemcpy(hs.data(), ds, 4 << 23, cudaMemcpyDeviceToHost));
      std::vector<int8_t> b(1 << 23);
      size_t nz = 0;
      for (int m = 0; m < (1 << 23); m++) { b[m] = (int8_t)(hs[m] < -127 ? -128 : hs[m] > 127 ? 127 : hs[m]); nz += hs[m] != 0; }
      wfile("diag/lg2_E" + std::to_string(E) + ".r8", b.data(), b.size());
      P("lg2 slice E=%d: %zu nonzero residuals\n", E, nz);
    }
  }
  // --- sin / cos
  u32 *TS, *TC;
  CK(cudaMalloc(&TS, 4u << TB));
  CK(cudaMalloc(&TC, 4u << TB));
  for (int cs = 0; cs < 2; cs++) {
    if (cs == 0) { sweep<SINF>(RA); sweep<SIN>(RB); } else { sweep<COSF>(RA); sweep<COS>(RB); }
    u32* T = cs ? TC : TS;
    std::vector<u32> hole(TN_, HOLE);
    CK(cudaMemcpy(T, hole.data(), 4ull << TB, cudaMemcpyHostToDevice));
    CK(cudaMemset(dc, 0, 8));
    scatter<<<GRID, BLOCK>>>(cs, RA, T, dc, dex);
    CK(cudaDeviceSynchronize());
    unsigned long long conf; u32 ex[4];
    CK(cudaMemcpy(&conf, dc, 8, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(ex, dex, 16, cudaMemcpyDeviceToHost));
    std::vector<u32> t(TN_);
    CK(cudaMemcpy(t.data(), T, 4ull << TB, cudaMemcpyDeviceToHost));
    size_t holes = 0;
    for (u32 v : t) holes += v == HOLE;
    P("%s: scatter conflicts %llu (e.g. x=%08x %08x vs %08x idx %06x), holes %zu\n", cs ? "cos" : "sin", conf, ex[0], ex[1], ex[2], ex[3], holes);
  }
  {
    Tabs T{TS, TC, QNAN, 0};
    // NaN: model returns T.nan; read the sweep's answer for a NaN input
    CK(cudaMemcpy(&T.nan, RA + 0x7fc00000u, 4, cudaMemcpyDeviceToHost));
    P("cos: NaN -> %08x\n", T.nan);
    report("MUFU.COS", MCOS, RA, T); report("cos.approx.f32", MCOS, RB, T);
    sweep<SINF>(RA); sweep<SIN>(RB);
    bool ok = report("MUFU.SIN", MSIN, RA, T); report("sin.approx.f32", MSIN, RB, T);
    if (!ok) {
      int* ds; CK(cudaMalloc(&ds, 4 << 23));
      dump_slices("sin", MSIN, RA, T, {110u << 23, 125u << 23, 127u << 23, 0x80000000u | (125u << 23)}, ds);
      CK(cudaFree(ds));
    }
    std::vector<u32> ts(TN_), tc(TN_);
    CK(cudaMemcpy(ts.data(), TS, 4ull << TB, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(tc.data(), TC, 4ull << TB, cudaMemcpyDeviceToHost));
    const u32 N = TN_, H = N / 2, Q = N / 4;
    size_t cnt[6] = {0}, both[6] = {0};
    auto cmp = [&](int k, u32 a, u32 b) { if (a != HOLE && b != HOLE) { both[k]++; cnt[k] += a != b; } };
    for (u32 i = 1; i < H; i++) cmp(0, ts[H - i], ts[i]);
    for (u32 i = 0; i < H; i++) cmp(1, ts[i + H], ts[i] ^ 0x80000000u);
    for (u32 i = 0; i < N; i++) cmp(2, tc[i], ts[(i + Q) & (N - 1)]);
    for (u32 i = 1; i < N; i++) cmp(3, tc[i], tc[N - i]);
    for (u32 i = 0; i < Q; i++) cmp(4, tc[i], ts[Q - i]);
    for (u32 i = 0; i < H; i++) cmp(5, tc[i + H], tc[i] ^ 0x80000000u);
    P("symmetry (differ/compared): S[H-i]=S[i] %zu/%zu, S[i+H]=-S[i] %zu/%zu, C[i]=S[i+Q] %zu/%zu, C[N-i]=C[i] %zu/%zu, C[i]=S[Q-i] %zu/%zu, C[i+H]=-C[i] %zu/%zu\n",
      cnt[0], both[0], cnt[1], both[1], cnt[2], both[2], cnt[3], both[3], cnt[4], both[4], cnt[5], both[5]);
    size_t hs = 0, hc = 0;
    for (u32 i = 0; i < N; i++) {
      if (ts[i] == HOLE) { ts[i] = r_sin(i, 0); hs++; }
      if (tc[i] == HOLE) { tc[i] = r_cos(i, 0); hc++; }
    }
    P("holes (unreachable indices, stored as the reference): sin %zu cos %zu\n", hs, hc);
    wres("tables/sin", ts.data(), N, r_sin, 0);
    wres("tables/cos", tc.data(), N, r_cos, 0);
  }
  // --- tanh
  sweep<TANH>(RA);
  {
    CK(cudaMemset(dc, 0, 8 * 8192));
    tanh_diag<<<GRID, BLOCK>>>(RA, dc);
    CK(cudaDeviceSynchronize());
    std::vector<unsigned long long> c(4096);
    CK(cudaMemcpy(c.data(), dc, 8 * 4096, cudaMemcpyDeviceToHost));
    P("tanh: NaN -> %08x. per exponent: changes when keeping K=8,10,11,12,13,14,16,18,20,22 mantissa bits | odd-sym | identity | ==1\n", nanof(RA));
    for (int e = 0; e < 256; e++) {
      P("tanh e=%3d:", e);
      for (int k = 0; k < 13; k++) P(" %llu", c[e * 16 + k]);
      P("\n");
    }
    int tk[256] = {0};
    u32 toff[256] = {0}, tot = 0;
    for (int e = 119; e < 130; e++) {
      tk[e] = 23;
      for (int k = 9; k >= 0; k--) if (c[e * 16 + k] == 0) tk[e] = (int[]){14, 15, 16, 17, 18, 19, 20, 21, 22, 23}[k];
      toff[e] = tot; tot += 1u << tk[e];
      P("tanh e=%d: K=%d\n", e, tk[e]);
    }
    P("tanh: inf -> %08x, -inf -> %08x, table entries %u\n", slice(RA, 0x7f800000u, 1)[0], slice(RA, 0xff800000u, 1)[0], tot);
    CK(cudaMemcpyToSymbol(TK, tk, sizeof tk));
    CK(cudaMemcpyToSymbol(TOFF, toff, sizeof toff));
    u32* TT;
    CK(cudaMalloc(&TT, 4ull * tot));
    tanh_tab<<<4096, 256>>>(RA, TT);
    CK(cudaDeviceSynchronize());
    CK(cudaMemset(CHK, 0, sizeof(Check)));
    verify_tanh<<<GRID, BLOCK>>>(RA, TT, nanof(RA), CHK);
    CK(cudaDeviceSynchronize());
    {
      Check cc;
      CK(cudaMemcpy(&cc, CHK, sizeof cc, cudaMemcpyDeviceToHost));
      unsigned long long t2 = 0;
      for (int b = 0; b < 512; b++) t2 += cc.cnt[b];
      P("verify MUFU.TANH mismatches %llu of 2^32\n", t2);
      for (int b = 0, sh = 0; b < 512 && sh < 30; b++)
        if (cc.cnt[b]) { P("  sign %d exp %3d: %10llu  e.g. x=%08x hw=%08x model=%08x\n", b >> 8, b & 255, cc.cnt[b], cc.ex[b], cc.exhw[b], cc.expred[b]); sh++; }
    }
    std::vector<u32> tt(tot);
    CK(cudaMemcpy(tt.data(), TT, 4ull * tot, cudaMemcpyDeviceToHost));
    for (u32 i = tot - 1; i > 0; i--) tt[i] -= tt[i - 1];  // first differences
    wfile("tables/tanh.d32", tt.data(), 4ull * tot);
    wfile("tables/tanh_k.txt", tk, sizeof tk);
    std::vector<u32> s1 = slice(RA, 126ull << 23, 1 << 19), s2 = slice(RA, 120ull << 23, 1 << 19), s3 = slice(RA, 128ull << 23, 1 << 19);
    wfile("diag/tanh_e126.u32", s1.data(), s1.size() * 4);
    wfile("diag/tanh_e120.u32", s2.data(), s2.size() * 4);
    wfile("diag/tanh_e128.u32", s3.data(), s3.size() * 4);
  }
  if (!p2) {
  // --- f16 / bf16
  {
    u32* T16 = TP;
    fill16<<<1024, 256>>>(T16);
    CK(cudaDeviceSynchronize());
    std::vector<u32> t(4 * 65536);
    CK(cudaMemcpy(t.data(), T16, 4 * 4 * 65536, cudaMemcpyDeviceToHost));
    for (int k = 0; k < 4; k++) {
      std::vector<uint16_t> h(65536);
      for (int i = 0; i < 65536; i++) h[i] = (uint16_t)t[k * 65536 + i];
      wfile(std::string("tables/") + NAMES16[k] + ".u16", h.data(), 65536 * 2);
      CK(cudaMemset(dc, 0, 8));
      check16x2<<<GRID, BLOCK>>>(k, T16, dc, dex);
      CK(cudaDeviceSynchronize());
      unsigned long long n; u32 ex[3];
      CK(cudaMemcpy(&n, dc, 8, cudaMemcpyDeviceToHost));
      CK(cudaMemcpy(ex, dex, 12, cudaMemcpyDeviceToHost));
      {
        std::vector<u32> in(NS), out(NS);
        u64 sd = 0x16160000 + k;
        for (int i = 0; i < NS; i++) in[i] = (u32)smx(sd);
        CK(cudaMemcpy(DIN, in.data(), NS * 4, cudaMemcpyHostToDevice));
        run16x2<<<NS / 256, 256>>>(k, DIN, DOUT, NS);
        CK(cudaMemcpy(out.data(), DOUT, NS * 4, cudaMemcpyDeviceToHost));
        std::vector<u32> rec;
        for (int i = 0; i < NS; i++) { rec.push_back(in[i]); rec.push_back(out[i]); }
        wfile(std::string("sample/") + NAMES16X2[k] + ".bin", rec.data(), rec.size() * 4);
      }
      P("%s: mismatches against two %s lookups: %llu of 2^32 (e.g. %08x hw %08x pred %08x)\n", NAMES16X2[k], NAMES16[k], n, ex[0], ex[1], ex[2]);
    }
  }
  // --- f64
  {
    CK(cudaMemset(dc, 0, 8 * 16));
    fill64<<<GRID, BLOCK>>>(0, RA, dc);
    fill64<<<GRID, BLOCK>>>(1, RB, dc + 1);
    CK(cudaDeviceSynchronize());
    unsigned long long lo[2];
    CK(cudaMemcpy(lo, dc, 16, cudaMemcpyDeviceToHost));
    const u64 ONE64 = 1023ull << 20;
    u32 nr = slice(RA, 0x7ff80000u, 1)[0], ns = slice(RB, 0x7ff80000u, 1)[0];
    P("f64: low words nonzero: rcp %llu rsq %llu; NaN hi -> %08x / %08x\n", lo[0], lo[1], nr, ns);
    CK(cudaMemset(CHK, 0, sizeof(Check)));
    verify64<<<GRID, BLOCK>>>(0, RA, RA + ONE64, nullptr, nr, CHK);
    CK(cudaDeviceSynchronize());
    for (int k = 0; k < 2; k++) {
      if (k == 1) {
        CK(cudaMemset(CHK, 0, sizeof(Check)));
        verify64<<<GRID, BLOCK>>>(1, RB, RB + ONE64, RB + ONE64 + (1 << 20), ns, CHK);
        CK(cudaDeviceSynchronize());
      }
      Check c;
      CK(cudaMemcpy(&c, CHK, sizeof c, cudaMemcpyDeviceToHost));
      unsigned long long tot = 0;
      for (int b = 0; b < 512; b++) tot += c.cnt[b];
      P("verify %s (high words) mismatches %llu of 2^32\n", k ? "MUFU.RSQ64H" : "MUFU.RCP64H", tot);
      for (int b = 0, shown = 0; b < 512 && shown < 20; b++)
        if (c.cnt[b]) { P("  hi>>23=%d: %llu e.g. %08x hw %08x model %08x\n", b, c.cnt[b], c.ex[b], c.exhw[b], c.expred[b]); shown++; }
    }
    CK(cudaMemset(dc, 0, 8 * 16));
    u64* dex64;
    CK(cudaMalloc(&dex64, 8 * 9));
    CK(cudaMemset(dex64, 0, 8 * 9));
    check64<<<GRID, BLOCK>>>(RA + ONE64, RB + ONE64, RB + ONE64 + (1 << 20), nr, ns, dc, dex64);
    CK(cudaDeviceSynchronize());
    unsigned long long c3[3]; u64 e9[9];
    CK(cudaMemcpy(c3, dc, 24, cudaMemcpyDeviceToHost));
    CK(cudaMemcpy(e9, dex64, 72, cudaMemcpyDeviceToHost));
    P("f64 random 2^30: rcp.ftz %llu (%016llx hw %016llx m %016llx), rsqrt.ftz %llu (%016llx %016llx %016llx), rsqrt %llu (%016llx %016llx %016llx)\n",
      c3[0], (unsigned long long)e9[0], (unsigned long long)e9[1], (unsigned long long)e9[2], c3[1], (unsigned long long)e9[3], (unsigned long long)e9[4], (unsigned long long)e9[5], c3[2], (unsigned long long)e9[6], (unsigned long long)e9[7], (unsigned long long)e9[8]);
    wres("tables/rcp64h", slice(RA, ONE64, 1 << 20).data(), 1 << 20, r_rcp64, 0);
    wres("tables/rsq64h0", slice(RB, ONE64, 1 << 20).data(), 1 << 20, r_rsq64, 0);
    wres("tables/rsq64h1", slice(RB, ONE64 + (1 << 20), 1 << 20).data(), 1 << 20, r_rsq64, 1);
    // samples of the f64 instructions (random doubles incl. subnormals, specials)
    const char* n64[3] = {"rcp.approx.ftz.f64", "rsqrt.approx.ftz.f64", "rsqrt.approx.f64"};
    for (int k = 0; k < 3; k++) {
      std::vector<u64> in(NS);
      u64 s = 0x64640000 + k;
      for (int i = 0; i < NS; i++) {
        u64 r = smx(s);
        if (i % 3 == 1) r = (r & 0x800fffffffffffffULL) | ((u64)(1000 + (r >> 52) % 48) << 52);
        if (i % 7 == 2) r &= 0x800fffffffffffffULL;
        in[i] = r;
      }
      const u64 SP[] = {0, 0x8000000000000000ULL, 1, 0x3ff0000000000000ULL, 0xbff0000000000000ULL,
        0x7ff0000000000000ULL, 0xfff0000000000000ULL, 0x7ff8000000000000ULL, 0x7ff0000000000001ULL,
        0x000fffffffffffffULL, 0x0010000000000000ULL, 0x7fefffffffffffffULL, 0x7ff0000100000000ULL};
      for (size_t i = 0; i < sizeof SP / 8; i++) in[i] = SP[i];
      u64 *di, *dout;
      CK(cudaMalloc(&di, NS * 8)); CK(cudaMalloc(&dout, NS * 8));
      CK(cudaMemcpy(di, in.data(), NS * 8, cudaMemcpyHostToDevice));
      run64<<<NS / 256, 256>>>(k, di, dout, NS);
      std::vector<u64> out(NS);
      CK(cudaMemcpy(out.data(), dout, NS * 8, cudaMemcpyDeviceToHost));
      std::vector<u64> rec;
      for (int i = 0; i < NS; i++) { rec.push_back(in[i]); rec.push_back(out[i]); }
      wfile(std::string("sample/") + n64[k] + ".bin", rec.data(), rec.size() * 8);
    }
  }
  }
  P("done\n");
  fclose(REP);
  return 0;
}
