// Merges the MUFU.SIN and MUFU.COS tables (2^25 entries each, indexed by the argument in
// 2^-25 turns) into one: sin(i) = U[i], cos(i) = U[(i + 2^23) mod 2^25]. The H200 run showed
// C[i] = S[i + 2^23] wherever both indices are reachable (tests/hw/h200/mufu/report_run2.txt);
// U takes S where an input reaches index i of sin, else C[i - 2^23] where an input reaches that
// cos index. Reachability: enumerate every f32 x, y = x * (1/(2 pi)) rounded toward zero.
// Build: cc -O2 -o sincos tests/hw/mufu/sincos.c -lm; usage: sincos SIN.u32 COS.u32 OUT.u32
#include <fenv.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#define N (1u << 25)
static uint32_t idx(uint32_t y) {
  uint32_t e = (y >> 23) & 0xff, M = (1u << 23) | (y & 0x7fffff);
  if (e == 0) return 0;
  int sh = (int)e - 150 + 25;
  if (sh >= 25 || sh <= -24) return 0;
  uint64_t q = sh >= 0 ? ((uint64_t)M << sh) : ((uint64_t)M >> -sh);
  return (uint32_t)(q & (N - 1));
}
int main(int argc, char** argv) {
  if (argc != 4) return 2;
  uint32_t *s = malloc(4ull * N), *c = malloc(4ull * N), *u = malloc(4ull * N);
  uint8_t* reach = calloc(N, 1);
  FILE* f = fopen(argv[1], "rb"); if (!f || fread(s, 4, N, f) != N) return 1; fclose(f);
  f = fopen(argv[2], "rb"); if (!f || fread(c, 4, N, f) != N) return 1; fclose(f);
  fesetround(FE_TOWARDZERO);
  volatile float k; uint32_t kb = 0x3e22f983u; memcpy((void*)&k, &kb, 4);
  for (uint64_t i = 0; i < (1ull << 32); i++) {
    uint32_t xb = (uint32_t)i; float x; memcpy(&x, &xb, 4);
    float y = x * k; uint32_t yb; memcpy(&yb, &y, 4);
    if (((yb >> 23) & 0xff) == 0xff) continue;
    reach[idx(yb)] = 1;
  }
  size_t fromc = 0, agree = 0, both = 0;
  for (uint32_t i = 0; i < N; i++) {
    uint32_t j = (i - (N / 4)) & (N - 1);  // cos index whose value sits at i
    if (reach[i]) { u[i] = s[i]; if (reach[j]) { both++; agree += s[i] == c[j]; } }
    else if (reach[j]) { u[i] = c[j]; fromc++; }
    else u[i] = s[i];
  }
  size_t nr = 0; for (uint32_t i = 0; i < N; i++) nr += reach[i];
  printf("reachable %zu of %u; taken from cos %zu; S[i] = C[i - 2^23] on %zu of %zu pairs\n", nr, N, fromc, agree, both);
  if (agree != both) return 1;
  f = fopen(argv[3], "wb"); fwrite(u, 4, N, f); fclose(f);
  return 0;
}
