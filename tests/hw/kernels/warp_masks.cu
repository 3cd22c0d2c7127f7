// Warp-collectives with member masks smaller than the warp, and the cooperative-groups partitions
// built on them (labeled_partition, binary_partition, tiled_partition, coalesced_threads): every
// result is per thread, so the H200's outputs pin down which lanes take part in each instruction.
// Every call is well defined by the CUDA Programming Guide: each calling lane is in its own mask
// and every lane of a mask executes the call with that mask.
#include <cooperative_groups.h>
#include <cooperative_groups/reduce.h>
#include <cooperative_groups/scan.h>
namespace cg = cooperative_groups;

#define N_INTRINSIC 16

// One warp-collective per output slot, with masks that split the warp into groups.
extern "C" __global__ void mask_intrinsics(const unsigned *in, unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned lane = threadIdx.x & 31;
    unsigned v = in[tid];
    unsigned *o = out + tid * N_INTRINSIC;
    unsigned half = lane < 16 ? 0x0000ffffu : 0xffff0000u;
    unsigned quarter = 0xffu << (lane & 0x18);
    unsigned odd = (lane & 1) ? 0xaaaaaaaau : 0x55555555u;
    unsigned label = __match_any_sync(0xffffffffu, v % 5);  // groups of equal v % 5
    o[0] = label;
    o[1] = __reduce_max_sync(label, v);
    o[2] = __reduce_add_sync(half, v);
    o[3] = __reduce_min_sync(quarter, v);
    o[4] = (unsigned)__reduce_max_sync(odd, (int)v);
    o[5] = __reduce_xor_sync(label, v) ^ __reduce_or_sync(half, v & 0xff) ^ __reduce_and_sync(odd, v | 0xf0f0);
    o[6] = __ballot_sync(half, v & 1);
    o[7] = __ballot_sync(label, v & 2);
    o[8] = (__all_sync(half, v & 1) ? 1u : 0u) | (__any_sync(quarter, (v & 7) == 0) ? 2u : 0u) |
           (__all_sync(label, v & 4) ? 4u : 0u) | (__any_sync(odd, (v & 15) == 3) ? 8u : 0u) |
           (__uni_sync(half, (v & 3) == 1) ? 16u : 0u);
    o[9] = __match_any_sync(half, v & 3);
    int pred = 0;
    o[10] = __match_all_sync(quarter, (v >> 30) & 1, &pred);
    o[11] = pred;
    o[12] = __match_any_sync(odd, (unsigned long long)(v & 1) << 40);
    __syncwarp(half);
    o[13] = __shfl_sync(half, v, (lane + 3) & 15, 16);
    o[14] = __shfl_xor_sync(quarter, v, 5, 8);
    o[15] = __reduce_add_sync(label, 1u);
}

#define N_CG 12

// Cooperative-groups partitions and their collectives, including a divergent coalesced group.
extern "C" __global__ void mask_groups(const unsigned *in, unsigned *out) {
    cg::thread_block block = cg::this_thread_block();
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    unsigned *o = out + tid * N_CG;
    auto warp = cg::tiled_partition<32>(block);
    auto lab = cg::labeled_partition(warp, (int)(v % 5));
    o[0] = cg::reduce(lab, v, cg::greater<unsigned>());
    o[1] = cg::reduce(lab, v, cg::plus<unsigned>());
    o[2] = cg::inclusive_scan(lab, v & 0xffff, cg::plus<unsigned>());
    o[3] = lab.thread_rank() | (lab.size() << 8) | (lab.meta_group_rank() << 16);
    auto tile8 = cg::tiled_partition<8>(block);
    o[4] = cg::reduce(tile8, v, cg::less<unsigned>());
    o[5] = cg::exclusive_scan(tile8, v, cg::bit_xor<unsigned>());
    auto bin = cg::binary_partition(warp, (v & 1) != 0);
    o[6] = cg::reduce(bin, v, cg::bit_or<unsigned>()) ^ bin.size();
    o[7] = bin.shfl(v, bin.size() - 1);
    o[8] = 0;
    o[9] = 0;
    if (v & 2) {
        auto co = cg::coalesced_threads();
        o[8] = cg::reduce(co, v, cg::plus<unsigned>());
        o[9] = co.thread_rank() | (co.size() << 8) | (co.shfl(v, 0) & 0xffff0000u);
    }
    o[10] = __activemask();
    auto tile4 = cg::tiled_partition<4>(tile8);
    o[11] = tile4.any(v & 8) | (tile4.all(v & 16) << 1) | (tile4.ballot(v & 32) << 2);
}

// A block whose last warp is partial: the full mask names lanes that do not exist, which the
// PTX ISA leaves out ("all non-exited threads in membermask").
extern "C" __global__ void mask_partial_warp(const unsigned *in, unsigned *out) {
    unsigned tid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned v = in[tid];
    out[tid * 3 + 0] = __reduce_add_sync(0xffffffffu, v);
    out[tid * 3 + 1] = __ballot_sync(0xffffffffu, v & 1);
    out[tid * 3 + 2] = __match_any_sync(0xffffffffu, v & 3);
}
