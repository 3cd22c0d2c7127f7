// Texture wavefront probes and block-to-SM maps for the H200 (issue 10, helper texw).
//
// 1. Block-to-SM maps: `smid_of` records %smid per block, launched 5 times with each grid shape
//    tex_probe.cu uses (256 blocks of 256 threads; 64x64 blocks of 16x16; 256 blocks doing the
//    fetch1d stride-2 work), so that the reuse between blocks b and b+128 can be checked against
//    which SM each block ran on. Written to OUTDIR/smid.txt: "shape rep block sm" per line.
// 2. Scattered fetches, one warp, only the first n lanes active, each at a chosen place:
//    `fetch_at` (tex1Dfetch on 16 MiB of linear memory; lane l fetches element idx[l]) and
//    `tex2d_at` (tex2D point of a 1024x1024 f32 CUDA array; lane l fetches texel (x[l], y[l])).
//    Every launch is listed in OUTDIR/launches.txt as "no kernel name n coords...", in launch
//    order (Nsight Compute's row ids), so the wavefront, tag and sector counters of each can be
//    set against the exact addresses.
// Usage: ./texw_probe OUTDIR [smid]
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#define CK(x)                                                                                  \
    do {                                                                                       \
        cudaError_t e_ = (x);                                                                  \
        if (e_ != cudaSuccess) {                                                               \
            fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); \
            exit(1);                                                                           \
        }                                                                                      \
    } while (0)

__device__ __forceinline__ unsigned smid() {
    unsigned s;
    asm volatile("mov.u32 %0, %%smid;" : "=r"(s));
    return s;
}

__global__ void smid_of(unsigned *out) {
    if (threadIdx.x == 0 && threadIdx.y == 0) out[blockIdx.x + gridDim.x * blockIdx.y] = smid();
}

// fetch1d_pattern's stride-2 walk, recording the SM of each block.
__global__ void fetch1d_stride2_smid(cudaTextureObject_t t, float *out, int W, unsigned *sm) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    out[gid] = tex1Dfetch<float>(t, (2 * gid) % W);
    if (threadIdx.x == 0) sm[blockIdx.x] = smid();
}

__global__ void fetch_at(cudaTextureObject_t t, float *out, const int *idx, int n) {
    unsigned l = threadIdx.x;
    if (l >= (unsigned)n) return;
    out[l] = tex1Dfetch<float>(t, idx[l]);
}

__global__ void tex2d_at(cudaTextureObject_t t, float *out, const int *xy, int n) {
    unsigned l = threadIdx.x;
    if (l >= (unsigned)n) return;
    out[l] = tex2D<float>(t, xy[2 * l] + 0.5f, xy[2 * l + 1] + 0.5f);
}

static FILE *LIST;
static int launch_no = 0;

static unsigned rng = 12345u;
static unsigned lcg() {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    bool smid_only = argc > 2 && strcmp(argv[2], "smid") == 0;
    float *d_out;
    CK(cudaMalloc(&d_out, 1 << 22));
    int *d_idx;
    CK(cudaMalloc(&d_idx, 4096));
    unsigned *d_sm;
    CK(cudaMalloc(&d_sm, 4096 * 4));

    const int NL = 4 << 20; // 16 MiB of floats
    float *lin;
    CK(cudaMalloc(&lin, (size_t)NL * 4));
    {
        std::vector<float> h(NL);
        for (int i = 0; i < NL; i++) h[i] = (float)(i % 4099);
        CK(cudaMemcpy(lin, h.data(), (size_t)NL * 4, cudaMemcpyHostToDevice));
    }
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = cudaAddressModeClamp;
    td.filterMode = cudaFilterModePoint;
    td.readMode = cudaReadModeElementType;
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear;
    rd.res.linear.devPtr = lin;
    rd.res.linear.desc = cudaCreateChannelDesc<float>();
    rd.res.linear.sizeInBytes = (size_t)NL * 4;
    cudaTextureObject_t tf;
    CK(cudaCreateTextureObject(&tf, &rd, &td, nullptr));

    const int W = 1024, H = 1024;
    cudaArray_t a;
    {
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        CK(cudaMallocArray(&a, &cd, W, H));
        std::vector<float> h((size_t)W * H);
        for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i % 4099);
        CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), W * 4, W * 4, H, cudaMemcpyHostToDevice));
    }
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureObject_t t2;
    CK(cudaCreateTextureObject(&t2, &rd, &td, nullptr));

    if (smid_only) {
        FILE *f = fopen((dir + "/smid.txt").c_str(), "w");
        if (!f) return 1;
        for (int rep = 0; rep < 5; rep++) {
            std::vector<unsigned> h(4096);
            smid_of<<<256, 256>>>(d_sm);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), d_sm, 256 * 4, cudaMemcpyDeviceToHost));
            for (int b = 0; b < 256; b++) fprintf(f, "g256x256 %d %d %u\n", rep, b, h[b]);
            smid_of<<<dim3(64, 64), dim3(16, 16)>>>(d_sm);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), d_sm, 4096 * 4, cudaMemcpyDeviceToHost));
            for (int b = 0; b < 4096; b++) fprintf(f, "g64x64x16x16 %d %d %u\n", rep, b, h[b]);
            fetch1d_stride2_smid<<<256, 256>>>(tf, d_out, 65536, d_sm);
            CK(cudaDeviceSynchronize());
            CK(cudaMemcpy(h.data(), d_sm, 256 * 4, cudaMemcpyDeviceToHost));
            for (int b = 0; b < 256; b++) fprintf(f, "fetch1d_stride2 %d %d %u\n", rep, b, h[b]);
        }
        fclose(f);
        printf("smid done\n");
        return 0;
    }

    LIST = fopen((dir + "/launches.txt").c_str(), "w");
    if (!LIST) return 1;
    auto run1d = [&](const char *name, const std::vector<int> &idx) {
        CK(cudaMemcpy(d_idx, idx.data(), idx.size() * 4, cudaMemcpyHostToDevice));
        fetch_at<<<1, 32>>>(tf, d_out, d_idx, (int)idx.size());
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        fprintf(LIST, "%d fetch_at %s %zu", launch_no++, name, idx.size());
        for (int v : idx) fprintf(LIST, " %d", v);
        fprintf(LIST, "\n");
    };
    auto run2d = [&](const char *name, const std::vector<int> &xy) {
        CK(cudaMemcpy(d_idx, xy.data(), xy.size() * 4, cudaMemcpyHostToDevice));
        tex2d_at<<<1, 32>>>(t2, d_out, d_idx, (int)xy.size() / 2);
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        fprintf(LIST, "%d tex2d_at %s %zu", launch_no++, name, xy.size() / 2);
        for (int v : xy) fprintf(LIST, " %d", v);
        fprintf(LIST, "\n");
    };
    char nm[128];
    // 1D: k lanes at element offsets i * S (S = 16 << j floats: 64 B << j), k = 2, 4, 8.
    for (int k : {2, 4, 8})
        for (int j = 0; j <= 17; j++) {
            std::vector<int> idx;
            for (int i = 0; i < k; i++) idx.push_back((int)(((long long)i << j) * 16 % NL));
            snprintf(nm, sizeof nm, "k%d_stride%dB", k, 64 << j);
            run1d(nm, idx);
        }
    // 1D: within one 64-byte unit and neighbouring ones.
    run1d("same_elem", {0, 0, 0, 0, 0, 0, 0, 0});
    run1d("one_unit", {0, 2, 4, 6, 8, 10, 12, 14});
    run1d("k8_stride16B_x", {0, 4, 8, 12, 16, 20, 24, 28});
    // 1D: 8 lanes, each in its own random 64-byte unit; 2 to 8 of them.
    for (int r = 0; r < 24; r++) {
        std::vector<int> idx;
        for (int i = 0; i < 8; i++) idx.push_back((int)(lcg() % (NL / 16)) * 16);
        snprintf(nm, sizeof nm, "rand8_%d", r);
        run1d(nm, idx);
    }
    for (int r = 0; r < 12; r++) {
        std::vector<int> idx;
        for (int i = 0; i < 2 + r % 6; i++) idx.push_back((int)(lcg() % (NL / 16)) * 16);
        snprintf(nm, sizeof nm, "randk_%d", r);
        run1d(nm, idx);
    }
    // 2D: 2 and 4 lanes of one quad, at x steps (16 texels = one GOB's width) and y steps.
    for (int k : {2, 4}) {
        for (int dx : {1, 4, 8, 16, 32, 64, 128, 256}) {
            std::vector<int> xy;
            for (int i = 0; i < k; i++) { xy.push_back(i * dx % W); xy.push_back(0); }
            snprintf(nm, sizeof nm, "k%d_dx%d", k, dx);
            run2d(nm, xy);
        }
        for (int dy : {1, 2, 4, 8, 16, 32, 64, 128, 256}) {
            std::vector<int> xy;
            for (int i = 0; i < k; i++) { xy.push_back(0); xy.push_back(i * dy % H); }
            snprintf(nm, sizeof nm, "k%d_dy%d", k, dy);
            run2d(nm, xy);
        }
    }
    // 2D: one quad of 4 random texels, and a whole warp of 32 random texels.
    for (int r = 0; r < 24; r++) {
        std::vector<int> xy;
        for (int i = 0; i < 4; i++) { xy.push_back(lcg() % W); xy.push_back(lcg() % H); }
        snprintf(nm, sizeof nm, "rand4_%d", r);
        run2d(nm, xy);
    }
    for (int r = 0; r < 6; r++) {
        std::vector<int> xy;
        for (int i = 0; i < 32; i++) { xy.push_back(lcg() % W); xy.push_back(lcg() % H); }
        snprintf(nm, sizeof nm, "rand32_%d", r);
        run2d(nm, xy);
    }
    fclose(LIST);
    printf("launches=%d\n", launch_no);
    return 0;
}
