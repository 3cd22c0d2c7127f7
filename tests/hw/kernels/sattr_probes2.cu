// Second set of probes for the warp-instructions the H200 counts in smsp__inst_executed.sum but
// attributes to no SASS instruction of the Source page (docs/notes/issue-9-sprobe2.md, after
// docs/notes/issue-9-sattr.md): `BRX` jump tables reached by a warp with inactive, exited or
// predicated-off lanes, and chains of collectives over lane-group masks reached by 1 to 4 groups.
// Arguments: (in, out, k lane groups, n repetitions, a: the lanes taking part or the masks).
// Every collective is well defined by the CUDA Programming Guide (each calling lane is in its own
// mask and every lane of a mask executes the call with that mask).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// The mask of `lane`'s group, kind `c` (a uniform kernel argument, so no divergence): bits 0..2
// q, bit 3 the pattern: contiguous groups of 32 >> q lanes, or (bit 3 set) the lanes of equal
// lane % (1 << q).
__device__ __forceinline__ unsigned group_mask(unsigned c, unsigned lane) {
    unsigned q = c & 7u;
    unsigned w = 32u >> q;
    unsigned contiguous = (w == 32u ? 0xffffffffu : ((1u << w) - 1u)) << (lane / w * w);
    unsigned s = 1u << q;
    unsigned interleaved = (0xffffffffu / (s == 32u ? 0xffffffffu : ((1u << s) - 1u))) << (lane % s);
    return (c & 8u) ? interleaved : contiguous;
}

// An if/else chain of g = lane % k (compiled to a `BRX` over a jump table), run only by the lanes
// below a: the others wait at the reconvergence point (inactive at the `BRX`).
extern "C" __global__ void b_div(const unsigned *in, unsigned *out, int k, int n, int a) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned g = lane % (unsigned)k;
    unsigned v = in[tid];
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (lane < (unsigned)a) {
            if (g == 0) {
                v = v * 3u + 1u;
            } else if (g == 1) {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 1u; t++) v = v * 5u + t;
            } else if (g == 2) {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 2u; t++) v = (v ^ t) * 7u;
            } else {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 3u; t++) v = v * 9u - t;
            }
            out[tid] = v;
        }
    }
    out[tid] = v;
}

// The same chain after the lanes at or above a have exited.
extern "C" __global__ void b_exit(const unsigned *in, unsigned *out, int k, int n, int a) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    if (lane >= (unsigned)a) {
        out[tid] = 7u;
        return;
    }
    unsigned g = lane % (unsigned)k;
    unsigned v = in[tid];
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (g == 0) {
            v = v * 3u + 1u;
        } else if (g == 1) {
#pragma unroll 1
            for (unsigned t = 0; t < (unsigned)n + 1u; t++) v = v * 5u + t;
        } else if (g == 2) {
#pragma unroll 1
            for (unsigned t = 0; t < (unsigned)n + 2u; t++) v = (v ^ t) * 7u;
        } else {
#pragma unroll 1
            for (unsigned t = 0; t < (unsigned)n + 3u; t++) v = v * 9u - t;
        }
        out[tid] = v;
    }
    out[tid] = v;
}

// An if/else chain of g = lane % k with five looping arms (ptxas 13.0: still a `BRX` over a
// 3-entry jump table, the third entry comparing further), under lane < a. (A guarded `brx.idx` in PTX
// becomes `@P BRA` around the `BRX` in ptxas 13.0, so the lanes at or above a are inactive at the
// `BRX`, not predicated off.)
extern "C" __global__ void b_sw4(const unsigned *in, unsigned *out, int k, int n, int a) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned g = lane % (unsigned)k;
    unsigned v = in[tid];
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (lane < (unsigned)a) {
            if (g == 0) {
                v = v * 3u + 1u;
            } else if (g == 1) {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 1u; t++) v = v * 5u + t;
            } else if (g == 2) {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 2u; t++) v = (v ^ t) * 7u;
            } else if (g == 3) {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 3u; t++) v = v * 9u - t;
            } else {
#pragma unroll 1
                for (unsigned t = 0; t < (unsigned)n + 4u; t++) v = (v + t) * 11u;
            }
            out[tid] = v;
        }
    }
    out[tid] = v;
}

// Splits the warp into k groups (labels lane % k: `__match_any_sync`, then a reduce over the
// label mask), then a chain of reduces over masks of kinds a & 15, (a >> 4) & 15, (a >> 8) & 15
// (group_mask), as mask_intrinsics' 0x0d20..0x0f20.
extern "C" __global__ void c_chain(const unsigned *in, unsigned *out, int k, int n, int a) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned m1 = group_mask((unsigned)a & 15u, lane);
    unsigned m2 = group_mask(((unsigned)a >> 4) & 15u, lane);
    unsigned m3 = group_mask(((unsigned)a >> 8) & 15u, lane);
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned lab = __match_any_sync(0xffffffffu, lane % (unsigned)k + (unsigned)i);
        acc += __reduce_max_sync(lab, v + acc);
        acc += __reduce_add_sync(m1, v ^ acc);
        acc ^= __reduce_min_sync(m2, v + acc);
        acc += __reduce_or_sync(m3, v & (acc | 0xf0u));
    }
    out[tid] = acc;
}

// The same split, then votes, a shuffle and a __syncwarp over masks of kinds a & 15,
// (a >> 4) & 15, (a >> 8) & 15 (their divergent-warp slow paths, `WARPSYNC.COLLECTIVE`).
extern "C" __global__ void c_vote(const unsigned *in, unsigned *out, int k, int n, int a) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned m1 = group_mask((unsigned)a & 15u, lane);
    unsigned m2 = group_mask(((unsigned)a >> 4) & 15u, lane);
    unsigned m3 = group_mask(((unsigned)a >> 8) & 15u, lane);
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned lab = __match_any_sync(0xffffffffu, lane % (unsigned)k + (unsigned)i);
        acc += __reduce_add_sync(lab, v + acc);
        acc += __ballot_sync(m1, (v >> i) & 1u);
        acc ^= __match_any_sync(m2, (v + acc) & 1u);
        __syncwarp(m3);
        acc += __shfl_sync(m1, v + acc, (unsigned)__ffs((int)m1) - 1u);
    }
    out[tid] = acc;
}

// The same split, then a tiled_partition<16> (a == 16) or <8> (otherwise) of the block: its sync
// and a reduce over it, then a __syncwarp of the whole warp.
extern "C" __global__ void c_tiled(const unsigned *in, unsigned *out, int k, int n, int a) {
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned lab = __match_any_sync(0xffffffffu, lane % (unsigned)k + (unsigned)i);
        acc += __reduce_add_sync(lab, v + acc);
        if (a == 16) {
            auto t = cg::tiled_partition<16>(block);
            t.sync();
            acc += cg::reduce(t, v ^ acc, cg::plus<unsigned>());
        } else {
            auto t = cg::tiled_partition<8>(block);
            t.sync();
            acc += cg::reduce(t, v ^ acc, cg::plus<unsigned>());
        }
        __syncwarp();
    }
    out[tid] = acc;
}
