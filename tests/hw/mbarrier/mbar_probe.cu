// mbarrier word probe: dumps the raw 64-bit shared-memory word of an mbarrier after each
// PTX mbarrier operation, for several arrival counts and transaction byte counts, plus the
// state tokens arrive returns and the test_wait results. One thread of one block does every
// step (no waits that can block). Output: one line per step,
//   case=<n> count=<c> tx=<t> tx1=<t1> step=<k> <name> word=<hex64>
// Built and run on the H200 by tests/hw/mbarrier/run.sh.
#include <cstdint>
#include <cstdio>
#include <cuda_runtime.h>

#define MAXSTEP 40
struct Rec { uint64_t v[MAXSTEP]; };

__device__ __forceinline__ uint64_t rd(uint32_t a) {
  uint64_t v;
  asm volatile("ld.shared.b64 %0, [%1];" : "=l"(v) : "r"(a) : "memory");
  return v;
}
__device__ __forceinline__ uint64_t arrive(uint32_t a) {
  uint64_t t;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1];" : "=l"(t) : "r"(a) : "memory");
  return t;
}
__device__ __forceinline__ uint64_t arrive_n(uint32_t a, uint32_t n) {
  uint64_t t;
  asm volatile("mbarrier.arrive.shared::cta.b64 %0, [%1], %2;" : "=l"(t) : "r"(a), "r"(n) : "memory");
  return t;
}
__device__ __forceinline__ uint64_t arrive_tx(uint32_t a, uint32_t tx) {
  uint64_t t;
  asm volatile("mbarrier.arrive.expect_tx.shared::cta.b64 %0, [%1], %2;" : "=l"(t) : "r"(a), "r"(tx) : "memory");
  return t;
}
__device__ __forceinline__ void expect_tx(uint32_t a, uint32_t tx) {
  asm volatile("mbarrier.expect_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(tx) : "memory");
}
__device__ __forceinline__ void complete_tx(uint32_t a, uint32_t tx) {
  asm volatile("mbarrier.complete_tx.relaxed.cta.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(tx) : "memory");
}
__device__ __forceinline__ uint32_t test_par(uint32_t a, uint32_t par) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.parity.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(a), "r"(par) : "memory");
  return r;
}
__device__ __forceinline__ uint32_t test_tok(uint32_t a, uint64_t tok) {
  uint32_t r;
  asm volatile("{ .reg .pred p; mbarrier.test_wait.shared::cta.b64 p, [%1], %2; selp.u32 %0, 1, 0, p; }"
               : "=r"(r) : "r"(a), "l"(tok) : "memory");
  return r;
}
__device__ __forceinline__ uint32_t pending(uint64_t tok) {
  uint32_t r;
  asm volatile("mbarrier.pending_count.b64 %0, %1;" : "=r"(r) : "l"(tok));
  return r;
}

// mode 0: init, arrive, expect_tx, complete_tx part, arrive(n), complete_tx rest, arrive last,
//         then phase 1: arrive.expect_tx, complete_tx, arrive rest, inval.
// mode 1: complete_tx before expect_tx (negative tx count), then expect_tx.
// mode 2: cp.async (16 B) + cp.async.mbarrier.arrive.noinc, and without .noinc.
// mode 3: cp.async.bulk of tx bytes after arrive.expect_tx, bounded wait.
// mode 4: raw words: the word stored with st.shared, then one arrive.
__global__ void probe(Rec* out, const float* src, uint32_t mode, uint32_t c, uint32_t t, uint32_t t1,
                      uint64_t raw) {
  __shared__ __align__(8) uint64_t bar[2];
  __shared__ __align__(128) float buf[1024];
  if (threadIdx.x != 0) return;
  uint32_t a = (uint32_t)__cvta_generic_to_shared(&bar[0]);
  Rec& r = out[0];
  for (int i = 0; i < MAXSTEP; i++) r.v[i] = 0xdeadbeefdeadbeefull;
  int k = 0;
  bar[0] = 0x5555555555555555ull;
  __syncwarp();
  r.v[k++] = rd(a);  // the word before init
  if (mode == 4) {
    asm volatile("st.shared.b64 [%0], %1;" ::"r"(a), "l"(raw) : "memory");
    r.v[k++] = rd(a);
    uint64_t tok = arrive(a);
    r.v[k++] = rd(a);
    r.v[k++] = tok;
    r.v[k++] = test_par(a, 0);
    r.v[k++] = test_par(a, 1);
    return;
  }
  asm volatile("mbarrier.init.shared::cta.b64 [%0], %1;" ::"r"(a), "r"(c) : "memory");
  r.v[k++] = rd(a);  // 1 init
  r.v[k++] = test_par(a, 0);  // 2
  r.v[k++] = test_par(a, 1);  // 3
  if (mode == 0) {
    uint64_t tok = arrive(a);
    r.v[k++] = rd(a);            // 4 after arrive
    r.v[k++] = tok;              // 5 token
    r.v[k++] = pending(tok);     // 6
    expect_tx(a, t);
    r.v[k++] = rd(a);            // 7 after expect_tx(t)
    complete_tx(a, t1);
    r.v[k++] = rd(a);            // 8 after complete_tx(t1)
    uint64_t tok2 = 0;
    if (c > 2) tok2 = arrive_n(a, c - 2);
    r.v[k++] = rd(a);            // 9 after arrive(c-2)
    r.v[k++] = tok2;             // 10
    complete_tx(a, t - t1);
    r.v[k++] = rd(a);            // 11 after complete_tx(t-t1)
    r.v[k++] = test_tok(a, tok); // 12
    uint64_t tok3 = 0;
    if (c > 1) tok3 = arrive(a);
    r.v[k++] = rd(a);            // 13 after the last arrive
    r.v[k++] = tok3;             // 14
    r.v[k++] = test_tok(a, tok); // 15
    r.v[k++] = test_par(a, 0);   // 16
    r.v[k++] = test_par(a, 1);   // 17
    uint64_t tok4 = arrive_tx(a, t);
    r.v[k++] = rd(a);            // 18 phase 1 after arrive.expect_tx(t)
    r.v[k++] = tok4;             // 19
    complete_tx(a, t);
    r.v[k++] = rd(a);            // 20 after complete_tx(t)
    uint64_t tok5 = 0;
    if (c > 1) tok5 = arrive_n(a, c - 1);
    r.v[k++] = rd(a);            // 21 after arrive(c-1): phase 1 done
    r.v[k++] = tok5;             // 22
    r.v[k++] = test_par(a, 0);   // 23
    r.v[k++] = test_par(a, 1);   // 24
    asm volatile("mbarrier.inval.shared::cta.b64 [%0];" ::"r"(a) : "memory");
    r.v[k++] = rd(a);            // 25 after inval
  } else if (mode == 1) {
    complete_tx(a, t);
    r.v[k++] = rd(a);            // 4 after complete_tx(t) first
    expect_tx(a, t1);
    r.v[k++] = rd(a);            // 5 after expect_tx(t1)
    expect_tx(a, t - t1);
    r.v[k++] = rd(a);            // 6 after expect_tx(t-t1)
    uint64_t tok = arrive(a);
    r.v[k++] = rd(a);            // 7 after arrive
    r.v[k++] = tok;              // 8
  } else if (mode == 2) {
    uint32_t d = (uint32_t)__cvta_generic_to_shared(&buf[0]);
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(d), "l"(src) : "memory");
    asm volatile("cp.async.mbarrier.arrive.noinc.shared::cta.b64 [%0];" ::"r"(a) : "memory");
    r.v[k++] = rd(a);            // 4 right after (.noinc)
    for (int i = 0; i < 1000 && !test_par(a, 0); i++) __nanosleep(100);
    r.v[k++] = rd(a);            // 5 later
    asm volatile("cp.async.ca.shared.global [%0], [%1], 16;" ::"r"(d + 16), "l"(src + 4) : "memory");
    asm volatile("cp.async.mbarrier.arrive.shared::cta.b64 [%0];" ::"r"(a) : "memory");
    r.v[k++] = rd(a);            // 6 right after (no .noinc)
    for (int i = 0; i < 100; i++) __nanosleep(100);
    r.v[k++] = rd(a);            // 7 later
    uint64_t tok = arrive(a);
    r.v[k++] = rd(a);            // 8 after a plain arrive
    r.v[k++] = tok;              // 9
  } else if (mode == 3) {
    uint32_t d = (uint32_t)__cvta_generic_to_shared(&buf[0]);
    uint64_t tok = arrive_tx(a, t);
    r.v[k++] = rd(a);            // 4 after arrive.expect_tx(t)
    r.v[k++] = tok;              // 5
    asm volatile("cp.async.bulk.shared::cluster.global.mbarrier::complete_tx::bytes [%0], [%1], %2, [%3];"
                 ::"r"(d), "l"(src), "r"(t), "r"(a) : "memory");
    r.v[k++] = rd(a);            // 6 right after the bulk copy's issue
    uint32_t n = 0;
    while (n < 100000 && !test_par(a, 0)) { __nanosleep(100); n++; }
    r.v[k++] = rd(a);            // 7 after it landed
    r.v[k++] = n;                // 8 turns waited
    r.v[k++] = __float_as_uint(buf[t / 4 - 1]) == __float_as_uint(src[t / 4 - 1]);  // 9
  }
}

int main() {
  Rec* d;
  float* src;
  cudaMalloc(&d, sizeof(Rec));
  cudaMalloc(&src, 4096 * 4);
  float h[4096];
  for (int i = 0; i < 4096; i++) h[i] = (float)i + 0.5f;
  cudaMemcpy(src, h, sizeof h, cudaMemcpyHostToDevice);
  struct Case { uint32_t mode, c, t, t1; uint64_t raw; };
  const Case cases[] = {
      {0, 1, 16, 8, 0},      {0, 2, 16, 8, 0},       {0, 3, 64, 16, 0},     {0, 4, 1024, 512, 0},
      {0, 5, 4096, 1, 0},    {0, 32, 4096, 4095, 0}, {0, 256, 12345, 345, 0}, {0, 1000, 65536, 1, 0},
      {0, 65535, 131072, 65536, 0}, {0, 1048575, 1048575, 524288, 0}, {0, 7, 1, 0, 0},
      {1, 2, 256, 100, 0},   {1, 3, 1048575, 1, 0},  {1, 1, 4096, 4096, 0},
      {2, 1, 0, 0, 0},       {2, 2, 0, 0, 0},        {2, 3, 0, 0, 0},
      {3, 1, 256, 0, 0},     {3, 1, 4096, 0, 0},     {3, 2, 1024, 0, 0},
      // raw words stored before one arrive: init(2)'s word as ptxas builds it
      // ((0x100000 - 2) << 1 low, << 11 high), with bit 63 set, bit 0 set, pending 1, and zero.
      {4, 0, 0, 0, 0x7ffff000001ffffcull}, {4, 0, 0, 0, 0xfffff000001ffffcull},
      {4, 0, 0, 0, 0x7ffff000001ffffdull}, {4, 0, 0, 0, 0x7ffff000001ffffeull},
      {4, 0, 0, 0, 0x0000000000000000ull},
  };
  int n = sizeof cases / sizeof cases[0];
  for (int i = 0; i < n; i++) {
    const Case& cs = cases[i];
    cudaMemset(d, 0, sizeof(Rec));
    probe<<<1, 32>>>(d, src, cs.mode, cs.c, cs.t, cs.t1, cs.raw);
    cudaError_t e = cudaDeviceSynchronize();
    Rec r;
    cudaMemcpy(&r, d, sizeof r, cudaMemcpyDeviceToHost);
    printf("case=%d mode=%u count=%u tx=%u tx1=%u raw=%016llx err=%s\n", i, cs.mode, cs.c, cs.t, cs.t1,
           (unsigned long long)cs.raw, cudaGetErrorString(e));
    for (int s = 0; s < MAXSTEP; s++) {
      if (r.v[s] == 0xdeadbeefdeadbeefull) break;
      printf("case=%d step=%d word=%016llx\n", i, s, (unsigned long long)r.v[s]);
    }
    if (e != cudaSuccess) return 1;
  }
  return 0;
}
