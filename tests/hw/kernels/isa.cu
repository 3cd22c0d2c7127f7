// Instruction-semantics validation: outputs are compared bit for bit with a real H200.
// Every kernel writes result k of global thread g to out[k * n + g] (n = threads in the grid),
// one writer per element. Inputs come from the spec (`random:SEED` u32 / f32 buffers); float
// special values (zeros, denormals, inf, NaN, ties) are injected in-kernel from fixed bit
// patterns. No transcendental / .approx math, no float atomics, no races: contended atomics are
// order-independent (min/max/and/or/xor/add, inc/dec with one common limit) and their return
// values are not recorded; atomics whose old value is recorded use one thread per address.
#include <cuda_fp16.h>
#include <cuda_bf16.h>

typedef unsigned int u32;
typedef unsigned long long u64;

#define FULL 0xffffffffu

// Sequential result writer: slot indices are compile-time constants (calls are never divergent).
struct Out {
    u32* out;
    u32 n, g, k;
    __device__ Out(u32* o) : out(o), n(gridDim.x * blockDim.x), g(blockIdx.x * blockDim.x + threadIdx.x), k(0) {}
    __device__ void w(u32 v) { out[(k++) * n + g] = v; }
    __device__ void w64(u64 v) { w((u32)v); w((u32)(v >> 32)); }
    __device__ void f(float v) { w(__float_as_uint(v)); }
    __device__ void d(double v) { w64((u64)__double_as_longlong(v)); }
    __device__ void h(__half v) { w((u32)__half_as_ushort(v)); }
    __device__ void h2(__half2 v) { w(*reinterpret_cast<u32*>(&v)); }
};

// ---------------------------------------------------------------------------------------------
// Warp-level: shuffles (widths 32/16/8), votes, activemask in divergent branches, match, redux,
// divergent loop with per-lane trip counts, __syncwarp.
__global__ void isa_warp(u32* out, const u32* a, const u32* b)
{
    Out o(out);
    const u32 lane = threadIdx.x & 31;
    const u32 x = a[o.g];
    const u32 y = b[o.g];

    // shfl.idx: data-dependent source lane, widths 32 / 16 / 8 (source may exceed the width).
    o.w(__shfl_sync(FULL, x, (int)(y & 31), 32));
    o.w(__shfl_sync(FULL, x, (int)(y & 31), 16));
    o.w(__shfl_sync(FULL, x, (int)(y & 31), 8));
    o.w(__shfl_sync(FULL, x, 5, 32));
    o.w(__shfl_sync(FULL, x, 5, 16));
    o.w(__shfl_sync(FULL, x, 3, 8));
    o.w(__shfl_sync(FULL, (int)x, -1, 32));
    // shfl.up / down: constant and data-dependent deltas.
    o.w(__shfl_up_sync(FULL, x, 1, 32));
    o.w(__shfl_up_sync(FULL, x, 3, 16));
    o.w(__shfl_up_sync(FULL, x, 5, 8));
    o.w(__shfl_up_sync(FULL, x, y & 15, 32));
    o.w(__shfl_up_sync(FULL, x, y & 7, 8));
    o.w(__shfl_down_sync(FULL, x, 1, 32));
    o.w(__shfl_down_sync(FULL, x, 3, 16));
    o.w(__shfl_down_sync(FULL, x, 5, 8));
    o.w(__shfl_down_sync(FULL, x, y & 15, 32));
    o.w(__shfl_down_sync(FULL, x, (y >> 4) & 15, 16));
    // shfl.bfly
    o.w(__shfl_xor_sync(FULL, x, 1, 32));
    o.w(__shfl_xor_sync(FULL, x, 16, 32));
    o.w(__shfl_xor_sync(FULL, x, 5, 16));
    o.w(__shfl_xor_sync(FULL, x, 12, 16));
    o.w(__shfl_xor_sync(FULL, x, 3, 8));
    o.w(__shfl_xor_sync(FULL, x, 9, 8));
    o.w(__shfl_xor_sync(FULL, x, y & 31, 32));
    // 64-bit and float shuffles (two SHFLs each).
    o.w64(__shfl_xor_sync(FULL, ((u64)y << 32) | x, 7, 32));
    o.f(__shfl_down_sync(FULL, __uint_as_float(x), 2, 16));

    // Votes, full warp.
    o.w(__ballot_sync(FULL, x & 1));
    o.w(__ballot_sync(FULL, (x % 7u) == 0));
    o.w((u32)__all_sync(FULL, (x & 3) != 0));
    o.w((u32)__all_sync(FULL, lane < 32));
    o.w((u32)__any_sync(FULL, (x % 97u) == 0));
    o.w((u32)__any_sync(FULL, lane == 31 && (y & 1)));
    o.w(__activemask());

    // Divergent branches: activemask and votes over the active subset.
    u32 am = 0, bal = 0, all = 0, anyv = 0, sh = 0;
    if (x & 1) {
        am = __activemask();
        bal = __ballot_sync(am, y & 1);
        all = __all_sync(am, y & 2);
        anyv = __any_sync(am, (y & 12) == 12);
    } else if (x & 2) {
        am = __activemask() | 0x80000000u;
        am ^= 0x80000000u;
        bal = __ballot_sync(__activemask(), (y >> 3) & 1);
        all = __all_sync(__activemask(), y & 4);
        anyv = 7;
    } else {
        am = ~__activemask();
    }
    o.w(am);
    o.w(bal);
    o.w(all);
    o.w(anyv);
    // Shuffle inside a divergent region: lanes 0..19, sources within 0..19.
    if (lane < 20) {
        sh = __shfl_sync(0x000fffffu, x, (int)((y & 0xffff) % 20u), 32);
    }
    o.w(sh);

    // match.any / match.all (keys from small ranges so groups form).
    o.w(__match_any_sync(FULL, x & 7));
    o.w(__match_any_sync(FULL, (u64)(y & 3) << 33 | (x & 1)));
    int pred = -1;
    u32 ma = __match_all_sync(FULL, lane < 32 ? (y & 0) + 42u : 0u, &pred);
    o.w(ma);
    o.w((u32)pred);
    pred = -1;
    ma = __match_all_sync(FULL, x & 1, &pred);
    o.w(ma);
    o.w((u32)pred);
    // Match inside a divergent branch (half-warp mask from activemask).
    u32 mdiv = 0;
    if (lane & 4) {
        mdiv = __match_any_sync(__activemask(), (x >> 8) & 3);
    }
    o.w(mdiv);

    // redux.sync (sm_80+): unsigned and signed add / min / max, and/or/xor.
    o.w(__reduce_add_sync(FULL, x));
    o.w(__reduce_min_sync(FULL, x));
    o.w(__reduce_max_sync(FULL, x));
    o.w((u32)__reduce_add_sync(FULL, (int)y));
    o.w((u32)__reduce_min_sync(FULL, (int)y));
    o.w((u32)__reduce_max_sync(FULL, (int)y));
    o.w(__reduce_and_sync(FULL, x | 0x0ff00ff0u));
    o.w(__reduce_or_sync(FULL, x & 0x10010001u));
    o.w(__reduce_xor_sync(FULL, x));
    u32 rdiv = 0;
    if (y & 1) {
        rdiv = __reduce_add_sync(__activemask(), x & 0xff);
    }
    o.w(rdiv);

    // Divergent loop: lane-specific trip count, then reconverge and communicate.
    const u32 trips = (x >> 3) & 31;
    u32 t = 0, acc = y;
    for (u32 i = 0; i < trips; ++i) {
        acc = acc * 1664525u + 1013904223u + i;
        if (acc & 0x100) {
            acc ^= acc >> 7;
        }
        ++t;
    }
    o.w(t);
    o.w(acc);
    __syncwarp();
    o.w(__shfl_xor_sync(FULL, acc, 1));
    o.w(__ballot_sync(FULL, t > 15));
    // Early-exit divergence with a while loop and a break.
    u32 v = x, steps = 0;
    while (v != 1 && steps < 40) {
        v = (v & 1) ? (v >> 1) ^ 0xedb88320u : v >> 1;
        ++steps;
        if ((v & 0xff) == 0x5a) break;
    }
    __syncwarp();
    o.w(steps);
    o.w(v);
    o.w(__reduce_max_sync(FULL, steps));
}

// ---------------------------------------------------------------------------------------------
// Integer ALU: bit ops, prmt, funnel shifts, hi/24-bit multiplies, sad, division, 64-bit.
__global__ void isa_int(u32* out, const u32* a, const u32* b, int sh)
{
    Out o(out);
    const u32 x = a[o.g];
    const u32 y = b[o.g];
    const u32 z = a[(o.g + 37) % o.n];
    // Some lanes get edge values.
    u32 xe = x;
    switch (o.g & 15) {
        case 0: xe = 0; break;
        case 1: xe = 0xffffffffu; break;
        case 2: xe = 0x80000000u; break;
        case 3: xe = 1; break;
        case 4: xe = 0x7fffffffu; break;
        default: break;
    }
    const int sx = (int)xe;
    const int sy = (int)y;

    o.w((u32)__popc(xe));
    o.w((u32)__clz((int)xe));
    o.w((u32)__ffs((int)xe));
    o.w(__brev(xe));
    o.w((u32)__popcll(((u64)y << 32) | xe));
    o.w((u32)__clzll((long long)(((u64)(y >> (y & 31))) << 32 | (xe >> 9))));
    o.w((u32)__ffsll((long long)((u64)(xe & 0xffff0000u) << 16)));
    o.w64(__brevll(((u64)y << 32) | xe));

    // prmt: data selector (incl. sign-replicate bit 3), and the fixed modes.
    o.w(__byte_perm(xe, y, z));
    o.w(__byte_perm(xe, y, z & 0x7777u));
    o.w(__byte_perm(xe, y, 0x3210));
    o.w(__byte_perm(xe, y, 0x5140));
    o.w(__byte_perm(xe, y, 0x8888 | (z & 0x7777)));
    // funnel shifts: wrapping (l/r) and clamping (lc/rc), shift counts up to 63.
    o.w(__funnelshift_l(xe, y, z & 63));
    o.w(__funnelshift_r(xe, y, z & 63));
    o.w(__funnelshift_lc(xe, y, z & 63));
    o.w(__funnelshift_rc(xe, y, z & 63));
    o.w(__funnelshift_l(xe, y, (u32)sh));
    // hi / 24-bit multiplies, sad.
    o.w(__umulhi(xe, y));
    o.w((u32)__mulhi(sx, sy));
    o.w((u32)__mul24(sx, sy));
    o.w(__umul24(xe, y));
    o.w(__sad(sx, sy, z));
    o.w(__usad(xe, y, z));
    o.w64(__umul64hi(((u64)y << 32) | xe, ((u64)z << 32) | x));
    o.w64((u64)__mul64hi((long long)(((u64)y << 32) | xe), (long long)(((u64)x << 32) | z)));
    o.w64(((u64)y << 32 | xe) * ((u64)z << 32 | x));
    o.w64((u64)xe * (u64)y);  // mul.wide.u32
    o.w64((u64)((long long)sx * (long long)sy));  // mul.wide.s32
    o.w(xe * y + z);  // mad.lo

    // Division and remainder (signed operands include negatives; divisors never 0, no INT_MIN/-1).
    const int sd = (sy >> (z & 31)) | 1;          // nonzero, often small, either sign
    const int sdd = (sd == -1 && sx == (int)0x80000000) ? 3 : sd;
    o.w((u32)(sx / sdd));
    o.w((u32)(sx % sdd));
    const int s7 = (o.g & 1) ? -7 : 7;
    o.w((u32)(sx / s7));
    o.w((u32)(sx % s7));
    const u32 ud = (y >> (z & 31)) | 1;
    o.w(xe / ud);
    o.w(xe % ud);
    o.w(xe / 10u);
    o.w(xe % 10u);
    o.w((u32)(sx / 3));
    o.w((u32)(sx % 3));
    const u64 bx = ((u64)y << 32) | xe;
    const u64 bd = (((u64)z << 32) | x) >> (y & 63) | 1;
    o.w64(bx / bd);
    o.w64(bx % bd);
    const long long sbx = (long long)bx;
    const long long sbd = (long long)bd * ((z & 2) ? -1 : 1);
    o.w64((u64)(sbx / sbd));
    o.w64((u64)(sbx % sbd));

    // Shifts (arithmetic, clamped counts via explicit masks) and bit-field extract / insert.
    o.w((u32)(sx >> (z & 31)));
    o.w(xe >> (z & 31));
    o.w(xe << (z & 31));
    o.w((xe >> (z & 31)) & ((1u << ((y & 15) + 1)) - 1));
    o.w((xe >> 7) & 0x3ffu);
    o.w((u32)((sx << 5) >> 20));  // signed bit-field extract
    o.w((xe & ~(0xffu << 8)) | ((y & 0xffu) << 8));  // insert
    o.w(__sad(0, 0, 0) + (u32)min(sx, sy));
    o.w((u32)max(sx, sy));
    o.w(min(xe, y));
    o.w(max(xe, y));
    o.w((u32)abs(sx == (int)0x80000000 ? 5 : sx));
    o.w(__uhadd(xe, y));
    o.w((u32)__hadd(sx, sy));
    o.w(__urhadd(xe, y));
    o.w((u32)__rhadd(sx, sy));
    // 16-bit and 8-bit arithmetic through narrow types.
    o.w((u32)(unsigned short)((unsigned short)xe * (unsigned short)y));
    o.w((u32)(int)(short)((short)xe >> 3));
    o.w((u32)(int)(signed char)(xe + y));
}

// ---------------------------------------------------------------------------------------------
// Float / conversion semantics.
__device__ const u32 specials[48] = {
    0x00000000u, 0x80000000u, 0x00000001u, 0x807fffffu, 0x007fffffu, 0x00800000u, 0x7f800000u,
    0xff800000u, 0x7fc00000u, 0xffc00000u, 0x7f800001u, 0x7fa12345u, 0x3f000000u, 0x3fc00000u,
    0x40200000u, 0xbf000000u, 0xbfc00000u, 0xc0200000u, 0x4b000001u, 0x3effffffu, 0x7f7fffffu,
    0xff7fffffu, 0x4f000000u, 0xcf000000u, 0x4f800000u, 0xcf000001u, 0x477fe000u, 0x477ff000u,
    0x477fefffu, 0x33800000u, 0x33000000u, 0x33000001u, 0x3f801000u, 0x3f803000u, 0x3f808000u,
    0x3f818000u, 0x3f800001u, 0x387fc000u, 0x38800000u, 0xb8000000u, 0x4effffffu, 0x4f7fffffu,
    0x3f7fffffu, 0x40490fdbu, 0xc0490fdbu, 0x34000000u, 0x5f000000u, 0xdf000000u};

// A float in a useful range: specials, .5 ties, random bits with moderate exponents, raw bits.
__device__ float pick(u32 r, float f, u32 sel)
{
    switch (sel & 7) {
        case 0: return __uint_as_float(specials[(r >> 8) % 48u]);
        case 1: return (float)(int)(r & 0xffff) * ((r & 0x10000) ? -1.0f : 1.0f) + 0.5f;
        case 2: return f * 1024.0f - 512.0f;
        case 3: return __uint_as_float((r & 0x807fffffu) | ((100u + (r >> 23) % 60u) << 23));
        case 4: return __uint_as_float(r);
        case 5: return __uint_as_float((r & 0x807fffffu) | ((110u + (r >> 23) % 20u) << 23));
        case 6: return f;
        default: return __uint_as_float((r & 0x80ffffffu) | (((r >> 24) % 5u) << 24));  // denormal-ish
    }
}

__global__ void isa_float(u32* out, const u32* a, const u32* b, const float* fa, const float* fb)
{
    Out o(out);
    const u32 g = o.g;
    const u32 ra = a[g], rb = b[g];
    const float x = pick(ra, fa[g], g);
    const float y = pick(rb, fb[g], g / 8u + (rb >> 29));
    const float z = pick(ra ^ rb, fa[(g + 1) % o.n], g + 3);
    const int ix = (int)ra >> (rb & 15);
    const u32 ux = ra >> (rb & 15);

    o.f(x);
    o.f(y);
    // float -> int / uint, four roundings (saturating, NaN -> 0 in PTX cvt).
    o.w((u32)__float2int_rn(x));
    o.w((u32)__float2int_rz(x));
    o.w((u32)__float2int_rd(x));
    o.w((u32)__float2int_ru(x));
    o.w(__float2uint_rn(x));
    o.w(__float2uint_rz(x));
    o.w(__float2uint_rd(x));
    o.w(__float2uint_ru(x));
    o.w64((u64)__float2ll_rn(y));
    o.w64(__float2ull_rz(y));
    o.w((u32)(int)x);  // C cast (rz), UB when out of range in C++, defined saturation in PTX
    // int -> float, four roundings.
    o.f(__int2float_rn(ix));
    o.f(__int2float_rz(ix));
    o.f(__int2float_rd(ix));
    o.f(__int2float_ru(ix));
    o.f(__uint2float_rn(ux | (ra & 0x80000000u)));
    o.f(__uint2float_rz(ux));
    o.f(__uint2float_rd(ux));
    o.f(__uint2float_ru(ux | 1));
    o.f(__ll2float_rn((long long)(((u64)rb << 32) | ra)));
    o.d(__ll2double_rn((long long)(((u64)rb << 32) | ra)));
    o.d((double)ix);
    // double -> float, four roundings; the double has extra mantissa bits from b.
    double dx = (double)x;
    if ((g & 3) == 1) {
        // exponents 2^-127 .. 2^128: float denormals, normals and overflow; low word from b
        dx = __hiloint2double((int)((ra & 0x800fffffu) | ((0x380u + ((ra >> 20) & 0xffu)) << 20)), (int)rb);
    } else if ((g & 3) == 2) {
        dx = (double)x + (double)y * 1.0e-9;
    }
    o.d(dx);
    o.f(__double2float_rn(dx));
    o.f(__double2float_rz(dx));
    o.f(__double2float_rd(dx));
    o.f(__double2float_ru(dx));
    o.w((u32)__double2int_rn(dx));
    o.w((u32)__double2int_rz(dx * 1.0e6));
    o.w64((u64)__double2ll_rd(dx * 1.0e12));
    o.w64(__double2ull_ru(dx));
    o.d((double)y);
    // float -> half / bfloat16, four roundings, and back.
    const __half hx = __float2half_rn(x);
    o.h(hx);
    o.h(__float2half_rz(x));
    o.h(__float2half_rd(x));
    o.h(__float2half_ru(x));
    o.f(__half2float(hx));
    o.f(__half2float(__ushort_as_half((unsigned short)ra)));
    const __nv_bfloat16 bx = __float2bfloat16_rn(x);
    o.w((u32)__bfloat16_as_ushort(bx));
    o.w((u32)__bfloat16_as_ushort(__float2bfloat16_rz(y)));
    o.f(__bfloat162float(bx));
    o.f(__bfloat162float(__ushort_as_bfloat16((unsigned short)rb)));
    o.h(__double2half(dx));
    // half / half2 arithmetic.
    const __half h1 = __ushort_as_half((unsigned short)ra);
    const __half h2v = __ushort_as_half((unsigned short)(ra >> 16));
    const __half h3 = __float2half_rn(y);
    o.h(__hadd(h1, h2v));
    o.h(__hmul(h1, h3));
    o.h(__hfma(h1, h2v, h3));
    o.h(__hsub(hx, h3));
    o.h(__hmax(h1, h2v));
    o.h(__hmin_nan(h1, h2v));
    const __half2 p = __halves2half2(h1, hx);
    const __half2 q = __halves2half2(h3, h2v);
    const __half2 r = *reinterpret_cast<const __half2*>(&rb);
    o.h2(__hadd2(p, q));
    o.h2(__hmul2(p, r));
    o.h2(__hfma2(p, q, r));
    o.h2(__hfma2_relu(p, q, r));
    o.h2(__hadd2_sat(p, r));
    o.h2(__floats2half2_rn(x, y));
    o.w((u32)__hlt(h1, h2v) | (u32)__hequ(h1, h3) << 1 | (u32)__hisnan(h1) << 2);
    const __nv_bfloat162 bp = __floats2bfloat162_rn(x, z);
    const __nv_bfloat162 bq = *reinterpret_cast<const __nv_bfloat162*>(&ra);
    const __nv_bfloat162 bs = __hfma2(bp, bq, bp);
    o.w(*reinterpret_cast<const u32*>(&bs));

    // Directed-rounding float arithmetic.
    o.f(__fadd_rn(x, y));
    o.f(__fadd_rz(x, y));
    o.f(__fadd_rd(x, y));
    o.f(__fadd_ru(x, y));
    o.f(__fsub_rn(x, z));
    o.f(__fmul_rn(x, y));
    o.f(__fmul_rz(x, y));
    o.f(__fmul_rd(x, z));
    o.f(__fmul_ru(x, z));
    o.f(__fmaf_rn(x, y, z));
    o.f(__fmaf_rz(x, y, z));
    o.f(__fmaf_rd(x, y, z));
    o.f(__fmaf_ru(x, y, z));
    o.f(__fdiv_rn(x, y));
    o.f(__fdiv_rz(x, y));
    o.f(x / z);  // prec-div default: IEEE division
    o.f(__frcp_rn(y));
    o.f(__frcp_rd(x));
    o.f(__fsqrt_rn(x));
    o.f(__fsqrt_rz(y));
    o.f(__fsqrt_ru(fabsf(z)));
    o.f(sqrtf(y));
    o.f(__fsqrt_rn(__uint_as_float(ra & 0x80ffffffu)));  // denormal inputs
    o.f(__fmul_rn(x, 0x1p-126f));  // denormal results
    o.f(__fadd_rn(__uint_as_float(ra & 0x807fffffu), __uint_as_float(rb & 0x807fffffu)));
    // min / max / copysign / abs / neg / compares with NaN and signed zeros.
    o.f(fminf(x, y));
    o.f(fmaxf(x, y));
    o.f(fminf(x, __uint_as_float(0x7fc00000u)));
    o.f(fmaxf(__uint_as_float(0xffc00001u), y));
    o.f(fminf(0.0f, (g & 1) ? -0.0f : x));
    o.f(fmaxf(-0.0f, (g & 2) ? 0.0f : y));
    o.f(copysignf(x, y));
    o.f(copysignf(__uint_as_float(0x7fc00000u), z));
    o.f(fabsf(x));
    o.f(-y);
    o.w((u32)(x < y) | (u32)(x <= y) << 1 | (u32)(x == y) << 2 | (u32)(x != y) << 3 |
        (u32)isnan(x) << 4 | (u32)isinf(y) << 5 | (u32)(x > z) << 6 | (u32)!(x >= z) << 7 |
        (u32)signbit(x) << 8);
    o.f(x < y ? z : x);
    o.f(truncf(x));
    o.f(floorf(y));
    o.f(ceilf(z));
    o.f(rintf(x));
    o.f(roundf(y));  // round-half-away: several instructions
    o.f(fmaf(x, y, z));
    o.f(x * y + z);  // contracted to fma by default
    o.f(__saturatef(x));
    o.f(fdimf(x, y));

    // Double arithmetic with directed rounding.
    const double dy = (double)y * 3.0 + (double)z;
    o.d(__dadd_rn(dx, dy));
    o.d(__dadd_rz(dx, dy));
    o.d(__dadd_ru(dx, dy));
    o.d(__dmul_rd(dx, dy));
    o.d(__dmul_rz(dx, dy));
    o.d(__fma_rz(dx, dy, (double)z));
    o.d(__ddiv_rn(dx, dy));
    o.d(__ddiv_ru(dx, dy));
    o.d(__ddiv_rz(dx, dy));
    o.d(__drcp_rn(dy));
    o.d(__dsqrt_rn(dx));
    o.d(__dsqrt_rd(dx));
    o.d(__dsqrt_ru(fabs(dy)));
    o.d(fmin(dx, dy));
    o.d(fmax(dx, (double)__uint_as_float(0x7fc00000u)));
    o.d(copysign(dx, dy));
    o.d(floor(dx));
    o.d(rint(dy));
}

// ---------------------------------------------------------------------------------------------
// Integer atomics on global and shared memory.
// acc: 32 u32 contended slots (initialised by isa_atom_init); acc64: 4 u64 slots;
// per: per-thread slots (4 per thread); out: recorded old values and shared results.
__device__ const u32 acc_init[16] = {0xffffffffu, 0u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0u,
                                     0x12345678u, 0u, 0u, 0u, 5u, 5u, 3u, 0u, 0u, 0u};
__device__ const u32 sacc_init[16] = {0xffffffffu, 0u, 0x7fffffffu, 0x80000000u, 0xffffffffu, 0u,
                                      0x9abcdef0u, 0u, 0u, 5u, 0u, 0u, 0u, 0u, 0u, 0u};

__global__ void isa_atom_init(u32* acc, u64* acc64, u32* per, const u32* a)
{
    const u32 g = blockIdx.x * blockDim.x + threadIdx.x;
    const u32 n = gridDim.x * blockDim.x;
    if (g < 32) {
        acc[g] = acc_init[g & 15];
    }
    if (g < 4) acc64[g] = (u64)g << 60 | 0xfffffff0ull;
    for (u32 i = g; i < 4 * n; i += n) per[i] = a[i % n] ^ 0x5a5a5a5au;
}

__global__ void isa_atom(u32* out, u32* acc, u64* acc64, u32* per, const u32* a, const u32* b)
{
    Out o(out);
    const u32 g = o.g;
    const u32 tid = threadIdx.x;
    const u32 x = a[g];
    const u32 y = b[g];

    // Contended global atomics: order-independent final values, results unused (RED).
    atomicMin(&acc[0], x);
    atomicMax(&acc[1], x);
    atomicMin((int*)&acc[2], (int)x);
    atomicMax((int*)&acc[3], (int)x);
    atomicAnd(&acc[4], x | 0xfeeffbbfu);
    atomicOr(&acc[5], x & 0x01100410u);
    atomicXor(&acc[6], x);
    atomicAdd(&acc[7], x);                     // wraps
    atomicInc(&acc[8], 99u);                   // n=512 increments mod 100
    atomicInc(&acc[9], 0xffffffffu);           // never wraps: counts
    atomicDec(&acc[10], 6u);                   // cycle of 7 starting from 5
    atomicDec(&acc[11], 0u);                   // always stores 0
    atomicInc(&acc[12 + (x & 1)], 2u);
    atomicSub(&acc[14], y & 0xffff);
    atomicAdd(&acc64[0], (u64)x * y);
    atomicAdd(&acc64[1], (u64)x << 31);
    atomicMin(&acc64[2], ((u64)y << 32) | x);
    atomicMax(&acc64[3], ((u64)x << 32) | y);

    // Per-thread global slots: old values are deterministic and recorded.
    const u32 n = o.n;
    u32* s0 = &per[g];
    u32* s1 = &per[n + g];
    u32* s2 = &per[2 * n + g];
    u32* s3 = &per[3 * n + g];
    const u32 cur = *s0;
    o.w(atomicCAS(s0, (y & 1) ? cur : cur + 1, y));   // succeeds for odd y
    o.w(atomicExch(s1, y));
    o.w(atomicInc(s2, y & 0x7fffffffu));               // limit may be below the old value
    o.w(atomicDec(s3, (y >> 1) & 3));                  // old may be 0 or above the limit
    o.w(atomicMin(s1, x));
    o.w(atomicMax((int*)s2, (int)x));
    o.w(atomicAdd(s3, x));
    o.w(atomicCAS(s1, x, 0xdeadbeefu));

    // Shared memory: same operations on per-block state.
    __shared__ u32 sacc[16];
    __shared__ u32 sper[128 * 2];
    __shared__ unsigned long long s64[2];
    if (tid < 16) {
        sacc[tid] = sacc_init[tid];
    }
    if (tid < 2) s64[tid] = 0xfffffffffffffff0ull;
    sper[tid] = x;
    sper[128 + tid] = y;
    __syncthreads();
    atomicMin(&sacc[0], x);
    atomicMax(&sacc[1], y);
    atomicMin((int*)&sacc[2], (int)y);
    atomicMax((int*)&sacc[3], (int)x);
    atomicAnd(&sacc[4], y | 0xbfeffdffu);
    atomicOr(&sacc[5], y & 0x00200408u);
    atomicXor(&sacc[6], y);
    atomicAdd(&sacc[7], x ^ y);
    atomicInc(&sacc[8], 9u);
    atomicDec(&sacc[9], 10u);
    atomicAdd(&s64[0], (u64)x * 3u);
    atomicAdd(&sacc[10 + (tid & 3)], 1u);
    const u32 scur = sper[tid];
    u32 r0 = atomicCAS(&sper[tid], (y & 2) ? scur : ~scur, y ^ 0x1234u);
    u32 r1 = atomicExch(&sper[128 + tid], x + 1u);
    u32 r2 = atomicInc(&sper[tid], 0x7fffffffu);
    u32 r3 = atomicMax(&sper[128 + tid], y);
    __syncthreads();
    o.w(r0);
    o.w(r1);
    o.w(r2);
    o.w(r3);
    o.w(sper[tid]);
    o.w(sper[128 + tid]);
    o.w(sacc[tid & 15]);
    o.w64(s64[0]);
}

// Written back so that the contended final values and per-thread slots can be compared.
