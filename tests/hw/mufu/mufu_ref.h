// Deterministic reference values the MUFU tables are stored against (tests/hw/mufu/README.md).
// Only IEEE-754 double +, -, *, / and sqrt, in a fixed order, no fused multiply-add and no libm,
// so that src/exec/mufu.rs computes the same bits on any machine. They are close to the true
// function (a few 1e-16 relative), which is all a residual needs: the table stores
// hw_bits - ref_bits, mostly tiny numbers that compress well.
#pragma once
#include <stdint.h>
#include <string.h>
#include <math.h>

static inline uint32_t ref_f2u(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }
static inline float ref_u2f(uint32_t u) { float f; memcpy(&f, &u, 4); return f; }
static inline uint64_t ref_d2u(double d) { uint64_t u; memcpy(&u, &d, 8); return u; }

// 2^f for |f| <= 1: e^(f ln 2) by its Taylor series, Horner, 24 terms.
static inline double ref_exp2(double f) {
  double y = f * 0.69314718055994530942;
  double s = 1.0;
  for (int k = 24; k >= 1; k--) s = 1.0 + (s * y) / (double)k;
  return s;
}
// log2(x) for x in [0.5, 2]: 2 atanh((x-1)/(x+1)) / ln 2, 20 terms.
static inline double ref_log2(double x) {
  double s = (x - 1.0) / (x + 1.0);
  double s2 = s * s;
  double p = 1.0 / 41.0;
  for (int k = 19; k >= 0; k--) p = p * s2 + 1.0 / (double)(2 * k + 1);
  return (2.0 * s * p) * 1.4426950408889634074;
}
// sin and cos of 2 pi u for u = i / 2^25, i in [0, 2^25): u moved to [-0.5, 0.5), Taylor, 16 terms.
static inline double ref_turn(uint32_t i) {
  double u = (double)i / 33554432.0;
  if (u >= 0.5) u -= 1.0;
  return u * 6.283185307179586477;
}
static inline double ref_sin_turn(uint32_t i) {
  double t = ref_turn(i), t2 = t * t, p = 1.0;
  for (int k = 16; k >= 1; k--) p = 1.0 - (p * t2) / (double)((2 * k) * (2 * k + 1));
  return t * p;
}
static inline double ref_cos_turn(uint32_t i) {
  double t = ref_turn(i), t2 = t * t, p = 1.0;
  for (int k = 16; k >= 1; k--) p = 1.0 - (p * t2) / (double)((2 * k - 1) * (2 * k));
  return p;
}
static inline uint32_t ref_bits(double d) { return ref_f2u((float)d); }
// Reference of each table entry (f32 tables): index -> f32 bits.
static inline uint32_t ref_rcp(uint32_t m) { return ref_bits(1.0 / (double)ref_u2f(0x3f800000u | m)); }
static inline uint32_t ref_rsq(uint32_t m, int odd) {
  return ref_bits(1.0 / sqrt((double)ref_u2f(((127u + odd) << 23) | m)));
}
static inline uint32_t ref_sqrt(uint32_t m, int odd) {
  return ref_bits(sqrt((double)ref_u2f(((127u + odd) << 23) | m)));
}
// ex2 tables: entry f is 2^(f/2^24) (positive inputs) or 2^-(f/2^24) (negative inputs).
static inline uint32_t ref_ex2(uint32_t f, int neg) {
  double u = (double)f / 16777216.0;
  return ref_bits(ref_exp2(neg ? -u : u));
}
// lg2 tables: x in [1, 2) (e0 = 1) or [0.5, 1) (e0 = 0).
static inline uint32_t ref_lg2(uint32_t m, int upper) {
  return ref_bits(ref_log2((double)ref_u2f(((126u + upper) << 23) | m)));
}
// f64 high-word tables (20-bit mantissa index m): high word of the double reference.
static inline uint32_t ref_rcp64h(uint32_t m) {
  return (uint32_t)(ref_d2u(1.0 / (1.0 + (double)m / 1048576.0)) >> 32);
}
static inline uint32_t ref_rsq64h(uint32_t m, int odd) {
  double x = (1.0 + (double)m / 1048576.0) * (odd ? 2.0 : 1.0);
  return (uint32_t)(ref_d2u(1.0 / sqrt(x)) >> 32);
}
