// Probes for the warp-instructions the H200 counts in smsp__inst_executed.sum but attributes to
// no SASS instruction of the Source page (docs/notes/issue-9-sattr.md): one kind of
// divergence/reconvergence event per kernel, repeated n times, with k lane groups chosen at run
// time, so that the launch counter minus the Source page's sum gives a cost per event.
// Every collective is well defined by the CUDA Programming Guide (each calling lane is in its own
// mask and every lane of a mask executes the call with that mask).
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
namespace cg = cooperative_groups;

// No divergence: the baseline.
extern "C" __global__ void p_base(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
#pragma unroll 1
    for (int i = 0; i < n; i++) v = v * 3u + (unsigned)k;
    out[tid] = v;
}

// An if/else chain of lane % k (k <= 4 groups), reconverging at the end of the chain (BSYNC).
extern "C" __global__ void p_ifelse(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned g = (threadIdx.x & 31) % (unsigned)k;
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

// k groups (lane % k, k <= 4), each reducing over its own group and one lane of each adding the
// sum to out[g] atomically, then __syncwarp(): binaryPartitionCG's loop (WARPSYNC.ALL reached by
// k groups).
extern "C" __global__ void p_syncall(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned g = lane % (unsigned)k;
    unsigned v = in[tid];
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        unsigned m = __match_any_sync(0xffffffffu, g);
        unsigned first = (unsigned)__ffs((int)m) - 1u;
        if (g == 0) {
            unsigned r = __reduce_add_sync(m, v + (unsigned)i);
            if (lane == first) atomicAdd(&out[240], r);
        } else if (g == 1) {
            unsigned r = __reduce_max_sync(m, v);
            if (lane == first) atomicAdd(&out[241], r);
        } else if (g == 2) {
            unsigned r = __reduce_min_sync(m, v);
            if (lane == first) atomicAdd(&out[242], r);
        } else {
            unsigned r = __reduce_or_sync(m, v);
            if (lane == first) atomicAdd(&out[243], r);
        }
        __syncwarp();
    }
    out[tid] = v;
}

// labeled_partition of the converged warp into k partitions (WARPSYNC.EXCLUSIVE) and a reduce.
extern "C" __global__ void p_labeled(const unsigned *in, unsigned *out, int k, int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    auto warp = cg::tiled_partition<32>(block);
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        auto lab = cg::labeled_partition(warp, (int)((threadIdx.x & 31) % (unsigned)k));
        acc += cg::reduce(lab, v + (unsigned)i, cg::plus<unsigned>());
    }
    out[tid] = acc;
}

// __match_any_sync over the full warp, k distinct values.
extern "C" __global__ void p_match(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) acc += __match_any_sync(0xffffffffu, (threadIdx.x & 31) % (unsigned)k + (unsigned)i);
    out[tid] = acc + in[tid];
}

// __reduce_add_sync with the mask of the lane's group of k (contiguous groups of 32/k lanes, k a
// power of two), called by the whole converged warp.
extern "C" __global__ void p_redux(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned w = 32u / (unsigned)k;
    unsigned m = (w == 32u ? 0xffffffffu : ((1u << w) - 1u)) << (lane / w * w);
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) acc += __reduce_add_sync(m, v + (unsigned)i);
    out[tid] = acc;
}

// The same inside divergent code: each group of the if/else chain calls it with its own mask.
extern "C" __global__ void p_redux_div(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned w = 32u / (unsigned)k;
    unsigned m = (w == 32u ? 0xffffffffu : ((1u << w) - 1u)) << (lane / w * w);
    unsigned g = lane / w;
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (g == 0) acc += __reduce_add_sync(m, v + (unsigned)i);
        else if (g == 1) acc ^= __reduce_add_sync(m, v * 3u);
        else acc += __reduce_max_sync(m, v);
    }
    out[tid] = acc;
}

// __ballot_sync and __shfl_sync with the group mask, in the converged warp.
extern "C" __global__ void p_shfl(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned w = 32u / (unsigned)k;
    unsigned m = (w == 32u ? 0xffffffffu : ((1u << w) - 1u)) << (lane / w * w);
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        acc += __ballot_sync(m, (v >> i) & 1u);
        acc += __shfl_sync(m, v, (lane + 1u) % w, (int)w);
    }
    out[tid] = acc;
}

// tiled_partition<16/8/4> and its sync and reduce.
extern "C" __global__ void p_tiled(const unsigned *in, unsigned *out, int k, int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (k == 16) {
            auto t = cg::tiled_partition<16>(block);
            t.sync();
            acc += cg::reduce(t, v + (unsigned)i, cg::plus<unsigned>());
        } else if (k == 8) {
            auto t = cg::tiled_partition<8>(block);
            t.sync();
            acc += cg::reduce(t, v + (unsigned)i, cg::plus<unsigned>());
        } else {
            auto t = cg::tiled_partition<4>(block);
            t.sync();
            acc += cg::reduce(t, v + (unsigned)i, cg::plus<unsigned>());
        }
    }
    out[tid] = acc;
}

// binary_partition of the warp and a reduce (what binaryPartitionCG and mask_groups use).
extern "C" __global__ void p_binary(const unsigned *in, unsigned *out, int k, int n) {
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    auto warp = cg::tiled_partition<32>(block);
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        auto bin = cg::binary_partition(warp, ((threadIdx.x & 31) % (unsigned)k) == 0);
        acc += cg::reduce(bin, v + (unsigned)i, cg::plus<unsigned>());
    }
    out[tid] = acc;
}

// A divergent coalesced group (coalesced_threads in an if of lane % k == 0) and its reduce.
extern "C" __global__ void p_coalesced(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    unsigned acc = 0;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        if (((threadIdx.x & 31) % (unsigned)k) == 0) {
            auto co = cg::coalesced_threads();
            acc += cg::reduce(co, v + (unsigned)i, cg::plus<unsigned>());
        }
    }
    out[tid] = acc;
}

// Collectives whose masks cut across the groups the previous one left (mask_intrinsics'
// sequence): a quarter-warp reduce, then an even/odd-lane reduce, then a half-warp reduce.
extern "C" __global__ void p_chain(const unsigned *in, unsigned *out, int k, int n) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned quarter = 0xffu << (lane & 0x18);
    unsigned odd = (lane & 1) ? 0xaaaaaaaau : 0x55555555u;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    unsigned v = in[tid];
    unsigned acc = (unsigned)k;
#pragma unroll 1
    for (int i = 0; i < n; i++) {
        acc += __reduce_min_sync(quarter, v + acc);
        acc ^= __reduce_max_sync(odd, v + acc);
        acc += __reduce_add_sync(half, v ^ acc);
    }
    out[tid] = acc;
}
