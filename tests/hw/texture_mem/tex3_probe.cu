// 3D texture probes for the H200 (issue 10, helper texw2): the requests, sectors, tag lookups and
// wavefronts of tex3D fetches, point and trilinear, and pairs of scattered tex1Dfetch fetches.
//
// 1. `tex3d_at<T>`: one warp; lane l (where bit l of `mask` is set) reads tex3D at the
//    unnormalized coordinate (c[3l], c[3l+1], c[3l+2]). Coordinates are texel + 0.5 (on a texel
//    centre: one texel on that axis) or texel + 1.0 (halfway: texels t and t+1), so every
//    lane's footprint is known exactly.
// 2. `tex3d_grid<T>`: 256 blocks of 256 threads; thread gid reads one point of the array by a
//    pattern (0 row: x fastest; 1 coly: y fastest; 2 colz: z fastest; 3 brick: each warp a
//    4x4x2 brick; 4 random: a hash), at texel + 0.5 + (ox, oy, oz).
// 3. `fetch_at`: one warp, the first n lanes tex1Dfetch elements idx[l] of 16 MiB of floats
//    (pairs at distances m x 2^j bytes, m = 3, 5, 7, 9; random pairs and eights within 64 KiB).
// Every launch is listed in OUTDIR/launches.txt, in launch order (Nsight Compute's ids):
//   "no tex3d_at NAME ARRAY FILTER MASK c0 ... c95", "no tex3d_grid NAME ARRAY FILTER PATTERN ox oy oz",
//   "no fetch_at NAME N idx..."; the arrays in OUTDIR/arrays.txt ("name type channels W H D").
// Usage: ./tex3_probe OUTDIR
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

__device__ __forceinline__ float fsum(float v) { return v; }
__device__ __forceinline__ float fsum(float2 v) { return v.x + v.y; }
__device__ __forceinline__ float fsum(float4 v) { return v.x + v.y + v.z + v.w; }

template <typename T>
__global__ void tex3d_at(cudaTextureObject_t t, float *out, const float *c, unsigned mask) {
    unsigned l = threadIdx.x;
    if (!(mask >> l & 1u)) return;
    out[l] = fsum(tex3D<T>(t, c[3 * l], c[3 * l + 1], c[3 * l + 2]));
}

template <typename T>
__global__ void tex3d_grid(cudaTextureObject_t t, float *out, int W, int H, int D, int pattern, float ox, float oy,
                           float oz) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned w = gid / 32, l = gid % 32;
    int x, y, z;
    switch (pattern) {
    case 0: x = gid % W; y = (gid / W) % H; z = (gid / W / H) % D; break;
    case 1: y = gid % H; x = (gid / H) % W; z = (gid / H / W) % D; break;
    case 2: z = gid % D; x = (gid / D) % W; y = (gid / D / W) % H; break;
    case 3: {
        unsigned bx = W / 4, by = H / 4;
        x = (w % bx) * 4 + l % 4; y = ((w / bx) % by) * 4 + (l / 4) % 4; z = ((w / bx / by) * 2 + l / 16) % D;
    } break;
    default: {
        unsigned h = gid * 2654435761u;
        h ^= h >> 15;
        h *= 2246822519u;
        h ^= h >> 13;
        x = h % W; y = (h / W) % H; z = (h / W / H) % D;
    }
    }
    out[gid] = fsum(tex3D<T>(t, x + 0.5f + ox, y + 0.5f + oy, z + 0.5f + oz));
}

__global__ void fetch_at(cudaTextureObject_t t, float *out, const int *idx, int n) {
    unsigned l = threadIdx.x;
    if (l >= (unsigned)n) return;
    out[l] = tex1Dfetch<float>(t, idx[l]);
}

static FILE *LIST;
static int launch_no = 0;
static unsigned rng = 424242u;
static unsigned lcg() {
    rng = rng * 1664525u + 1013904223u;
    return rng >> 8;
}

struct Arr {
    const char *name;
    int kind; // 0 f32, 1 u8, 2 u16, 3 f32x2, 4 f32x4
    int W, H, D;
    cudaTextureObject_t point, linear;
};

// 8- and 16-bit texels are read as normalized floats (point and linear alike), float texels as they are.
static cudaTextureObject_t tex_of(cudaArray_t a, cudaTextureFilterMode f, bool integer) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = cudaAddressModeClamp;
    td.filterMode = f;
    td.readMode = integer ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}

static Arr make(const char *name, int kind, int W, int H, int D) {
    static const int tb[] = {4, 1, 2, 8, 16};
    cudaChannelFormatDesc cd;
    switch (kind) {
    case 0: cd = cudaCreateChannelDesc<float>(); break;
    case 1: cd = cudaCreateChannelDesc<unsigned char>(); break;
    case 2: cd = cudaCreateChannelDesc<unsigned short>(); break;
    case 3: cd = cudaCreateChannelDesc<float2>(); break;
    default: cd = cudaCreateChannelDesc<float4>(); break;
    }
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, D)));
    size_t bytes = (size_t)W * H * D * tb[kind];
    std::vector<unsigned char> raw(bytes);
    for (size_t i = 0; i < bytes; i++) raw[i] = (unsigned char)(i * 7 + (i >> 8));
    if (tb[kind] >= 4) {
        float *p = (float *)raw.data();
        for (size_t i = 0; i < bytes / 4; i++) p[i] = (float)(i % 4099);
    }
    cudaMemcpy3DParms mp;
    memset(&mp, 0, sizeof mp);
    mp.srcPtr = make_cudaPitchedPtr(raw.data(), (size_t)W * tb[kind], W, H);
    mp.dstArray = a;
    mp.extent = make_cudaExtent(W, H, D);
    mp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&mp));
    return Arr{name, kind, W, H, D, tex_of(a, cudaFilterModePoint, kind == 1 || kind == 2),
               tex_of(a, cudaFilterModeLinear, kind == 1 || kind == 2)};
}

static float *d_out, *d_c;
static int *d_idx;

static void launch_at(const Arr &a, bool linear, const char *name, const std::vector<float> &c, unsigned mask) {
    std::vector<float> cc(96, 0.5f);
    for (size_t i = 0; i < c.size() && i < 96; i++) cc[i] = c[i];
    CK(cudaMemcpy(d_c, cc.data(), 96 * 4, cudaMemcpyHostToDevice));
    cudaTextureObject_t t = linear ? a.linear : a.point;
    switch (a.kind) {
    case 3: tex3d_at<float2><<<1, 32>>>(t, d_out, d_c, mask); break;
    case 4: tex3d_at<float4><<<1, 32>>>(t, d_out, d_c, mask); break;
    default: tex3d_at<float><<<1, 32>>>(t, d_out, d_c, mask); break;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    fprintf(LIST, "%d tex3d_at %s %s %s %08x", launch_no++, name, a.name, linear ? "linear" : "point", mask);
    for (float v : cc) fprintf(LIST, " %g", v);
    fprintf(LIST, "\n");
    fflush(LIST);
}

static void launch_grid(const Arr &a, bool linear, const char *name, int pattern, float ox, float oy, float oz) {
    cudaTextureObject_t t = linear ? a.linear : a.point;
    switch (a.kind) {
    case 3: tex3d_grid<float2><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz); break;
    case 4: tex3d_grid<float4><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz); break;
    default: tex3d_grid<float><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz); break;
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    fprintf(LIST, "%d tex3d_grid %s %s %s %d %g %g %g\n", launch_no++, name, a.name, linear ? "linear" : "point",
            pattern, ox, oy, oz);
    fflush(LIST);
}

// Lane coordinates: texel (x, y, z), halfway (+1.0) on the axes whose bit is set in h (1 x, 2 y, 4 z).
struct L {
    int x, y, z, h;
};
static std::vector<float> coords(const std::vector<L> &ls) {
    std::vector<float> c;
    for (const L &l : ls) {
        c.push_back(l.x + ((l.h & 1) ? 1.0f : 0.5f));
        c.push_back(l.y + ((l.h & 2) ? 1.0f : 0.5f));
        c.push_back(l.z + ((l.h & 4) ? 1.0f : 0.5f));
    }
    return c;
}
static unsigned first(size_t n) { return n >= 32 ? 0xffffffffu : (1u << n) - 1; }

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    CK(cudaMalloc(&d_out, 1 << 22));
    CK(cudaMalloc(&d_c, 96 * 4));
    CK(cudaMalloc(&d_idx, 4096));
    LIST = fopen((dir + "/launches.txt").c_str(), "w");
    FILE *AR = fopen((dir + "/arrays.txt").c_str(), "w");
    if (!LIST || !AR) return 1;
    std::vector<Arr> arrs = {
        make("f32_64", 0, 64, 64, 64),   make("u8_64", 1, 64, 64, 64),    make("u16_64", 2, 64, 64, 64),
        make("f32x2_64", 3, 64, 64, 64), make("f32x4_64", 4, 64, 64, 64), make("f32_100x60x24", 0, 100, 60, 24),
        make("f32_32x16x4", 0, 32, 16, 4),
    };
    static const char *kn[] = {"f32", "u8", "u16", "f32x2", "f32x4"};
    for (const Arr &a : arrs) fprintf(AR, "%s %s %d %d %d\n", a.name, kn[a.kind], a.W, a.H, a.D);
    fclose(AR);
    const Arr &F = arrs[0];
    char nm[160];

    // --- single warps, f32 64^3, trilinear (all axes halfway unless named)
    // Which lanes of a quad share a pass: A and B in different GOB columns (x 0 and x 32).
    launch_at(F, true, "pair_AABB", coords({{0, 0, 0, 7}, {1, 0, 0, 7}, {32, 0, 0, 7}, {33, 0, 0, 7}}), 0xf);
    launch_at(F, true, "pair_ABAB", coords({{0, 0, 0, 7}, {32, 0, 0, 7}, {1, 0, 0, 7}, {33, 0, 0, 7}}), 0xf);
    launch_at(F, true, "pair_ABBA", coords({{0, 0, 0, 7}, {32, 0, 0, 7}, {33, 0, 0, 7}, {1, 0, 0, 7}}), 0xf);
    launch_at(F, true, "pair_AAAB", coords({{0, 0, 0, 7}, {1, 0, 0, 7}, {2, 0, 0, 7}, {32, 0, 0, 7}}), 0xf);
    launch_at(F, true, "pair_ABCD", coords({{0, 0, 0, 7}, {16, 0, 0, 7}, {32, 0, 0, 7}, {48, 0, 0, 7}}), 0xf);
    launch_at(F, true, "pair_ABCD_z", coords({{0, 0, 0, 7}, {0, 0, 8, 7}, {0, 0, 16, 7}, {0, 0, 24, 7}}), 0xf);
    // Active lanes of one quad.
    {
        std::vector<L> q = {{0, 0, 0, 7}, {16, 0, 0, 7}, {32, 0, 0, 7}, {48, 0, 0, 7}};
        for (unsigned m : {0x1u, 0x2u, 0x3u, 0x5u, 0x9u, 0x6u, 0x7u, 0xeu}) {
            snprintf(nm, sizeof nm, "mask_ABCD_%x", m);
            launch_at(F, true, nm, coords(q), m);
        }
    }
    // Tag blocks in one pass (lane 0, or lanes 0 and 1 far apart).
    launch_at(F, true, "one_centre", coords({{0, 0, 0, 0}}), 1);
    launch_at(F, true, "one_z", coords({{0, 0, 0, 4}}), 1);
    launch_at(F, true, "one_x", coords({{0, 0, 0, 1}}), 1);
    launch_at(F, true, "one_xz", coords({{0, 0, 0, 5}}), 1);
    launch_at(F, true, "one_xyz", coords({{0, 0, 0, 7}}), 1);
    launch_at(F, true, "one_xcross_z", coords({{7, 0, 0, 5}}), 1);
    launch_at(F, true, "one_ycross_z", coords({{0, 3, 0, 6}}), 1);
    launch_at(F, true, "one_xycross", coords({{7, 3, 0, 3}}), 1);
    launch_at(F, true, "one_xycross_z", coords({{7, 3, 0, 7}}), 1);
    launch_at(F, true, "one_xgob_z", coords({{15, 0, 0, 5}}), 1);
    launch_at(F, true, "one_ygob_z", coords({{0, 7, 0, 6}}), 1);
    launch_at(F, true, "one_zblock", coords({{0, 0, 15, 4}}), 1);
    launch_at(F, true, "one_xygob_z", coords({{15, 7, 0, 7}}), 1);
    launch_at(F, true, "two_z_z", coords({{0, 0, 0, 4}, {32, 0, 0, 4}}), 3);
    launch_at(F, true, "two_xz_xz", coords({{7, 0, 0, 5}, {39, 0, 0, 5}}), 3);
    launch_at(F, true, "two_xyz_z", coords({{7, 3, 0, 7}, {32, 0, 0, 4}}), 3);
    launch_at(F, true, "two_xyz_xyz", coords({{7, 3, 0, 7}, {39, 3, 0, 7}}), 3);
    launch_at(F, true, "two_xy_xy", coords({{7, 3, 0, 3}, {39, 3, 0, 3}}), 3);
    launch_at(F, true, "two_xy_xy_2slice", coords({{7, 3, 0, 3}, {39, 3, 1, 3}}), 3);
    launch_at(F, true, "two_z_z_4slice", coords({{0, 0, 0, 4}, {0, 0, 2, 4}}), 3);
    launch_at(F, true, "two_z_z_3slice", coords({{0, 0, 0, 4}, {0, 0, 1, 4}}), 3);
    launch_at(F, true, "two_near_xyz", coords({{0, 0, 0, 7}, {2, 0, 0, 7}}), 3);
    launch_at(F, true, "two_near_xyz_y", coords({{0, 0, 0, 7}, {0, 2, 0, 7}}), 3);
    // Quads of the full launches' row pattern at chosen positions, all lanes of a warp.
    for (int y0 : {0, 1, 3, 7}) {
        std::vector<L> w; // a row of 32 texels
        for (int l = 0; l < 32; l++) w.push_back({l, y0, 0, 7});
        snprintf(nm, sizeof nm, "row32_y%d", y0);
        launch_at(F, true, nm, coords(w), 0xffffffffu);
        snprintf(nm, sizeof nm, "row32_y%d_zc", y0);
        for (auto &l : w) l.h = 3;
        launch_at(F, true, nm, coords(w), 0xffffffffu);
    }
    // --- single warps, f32 64^3, point: slices per wavefront
    {
        const std::vector<std::vector<int>> zs = {
            {0, 1}, {1, 2}, {0, 2}, {0, 3}, {0, 1, 2, 3}, {1, 2, 3, 4}, {2, 3, 4, 5}, {0, 4}, {0, 8}, {0, 16},
            {15, 16}, {0, 2, 4, 6}, {0, 1, 2}, {0, 0, 1, 1}, {3, 2, 1, 0}, {0, 1, 4, 5}};
        for (const auto &z : zs) {
            std::vector<L> q;
            std::string n = "pz";
            for (int v : z) { q.push_back({0, 0, v, 0}); n += "_" + std::to_string(v); }
            launch_at(F, false, n.c_str(), coords(q), first(q.size()));
        }
        launch_at(F, false, "pz_x8_01", coords({{0, 0, 0, 0}, {8, 0, 1, 0}}), 3);
        launch_at(F, false, "pz_x16_01", coords({{0, 0, 0, 0}, {16, 0, 1, 0}}), 3);
        launch_at(F, false, "pz_y4_01", coords({{0, 0, 0, 0}, {0, 4, 1, 0}}), 3);
        launch_at(F, false, "pz_y8_01", coords({{0, 0, 0, 0}, {0, 8, 1, 0}}), 3);
        launch_at(F, false, "pz_x8_00", coords({{0, 0, 0, 0}, {8, 0, 0, 0}}), 3);
        launch_at(F, false, "pz_y4_00", coords({{0, 0, 0, 0}, {0, 4, 0, 0}}), 3);
        launch_at(F, false, "pz_mask_02_01", coords({{0, 0, 0, 0}, {0, 0, 5, 0}, {0, 0, 1, 0}}), 5);
        std::vector<L> w;
        for (int l = 0; l < 32; l++) w.push_back({0, 0, l, 0});
        launch_at(F, false, "pz_warp_0_31", coords(w), 0xffffffffu);
        for (int l = 0; l < 32; l++) w[l] = {l % 4 * 16, 0, l / 4, 0};
        launch_at(F, false, "pz_warp_gobx", coords(w), 0xffffffffu);
    }
    // --- single warps, other formats: one lane and a row quad, trilinear and point
    for (int k = 1; k <= 4; k++) {
        const Arr &a = arrs[k];
        snprintf(nm, sizeof nm, "%s_one_xyz", kn[k]);
        launch_at(a, true, nm, coords({{0, 0, 0, 7}}), 1);
        snprintf(nm, sizeof nm, "%s_quad_xyz", kn[k]);
        launch_at(a, true, nm, coords({{0, 0, 0, 7}, {1, 0, 0, 7}, {2, 0, 0, 7}, {3, 0, 0, 7}}), 0xf);
        snprintf(nm, sizeof nm, "%s_pair_ABAB", kn[k]);
        launch_at(a, true, nm, coords({{0, 0, 0, 7}, {32, 0, 0, 7}, {1, 0, 0, 7}, {33, 0, 0, 7}}), 0xf);
        snprintf(nm, sizeof nm, "%s_pz_0_1_2_3", kn[k]);
        launch_at(a, false, nm, coords({{0, 0, 0, 0}, {0, 0, 1, 0}, {0, 0, 2, 0}, {0, 0, 3, 0}}), 0xf);
    }

    // --- whole grids
    static const char *pn[] = {"row", "coly", "colz", "brick", "random"};
    for (const Arr &a : arrs) {
        for (int lin = 0; lin < 2; lin++)
            for (int p = 0; p < 5; p++) {
                float o = lin ? 0.5f : 0.0f;
                snprintf(nm, sizeof nm, "%s_%s_%s", a.name, lin ? "linear" : "point", pn[p]);
                launch_grid(a, lin, nm, p, o, o, o);
            }
    }
    launch_grid(F, true, "f32_64_linear_row_xy", 0, 0.5f, 0.5f, 0.0f);
    launch_grid(F, true, "f32_64_linear_row_z", 0, 0.0f, 0.0f, 0.5f);
    launch_grid(F, true, "f32_64_linear_row_x", 0, 0.5f, 0.0f, 0.0f);
    launch_grid(F, true, "f32_64_linear_colz_xy", 2, 0.5f, 0.5f, 0.0f);

    // --- tex1Dfetch pairs (16 MiB of floats)
    {
        const int NL = 4 << 20;
        float *lin;
        CK(cudaMalloc(&lin, (size_t)NL * 4));
        std::vector<float> h(NL);
        for (int i = 0; i < NL; i++) h[i] = (float)(i % 4099);
        CK(cudaMemcpy(lin, h.data(), (size_t)NL * 4, cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = lin;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        rd.res.linear.sizeInBytes = (size_t)NL * 4;
        cudaTextureDesc td;
        memset(&td, 0, sizeof td);
        td.filterMode = cudaFilterModePoint;
        td.readMode = cudaReadModeElementType;
        cudaTextureObject_t tf;
        CK(cudaCreateTextureObject(&tf, &rd, &td, nullptr));
        auto run1d = [&](const char *name, const std::vector<int> &idx) {
            CK(cudaMemcpy(d_idx, idx.data(), idx.size() * 4, cudaMemcpyHostToDevice));
            fetch_at<<<1, 32>>>(tf, d_out, d_idx, (int)idx.size());
            CK(cudaGetLastError());
            CK(cudaDeviceSynchronize());
            fprintf(LIST, "%d fetch_at %s %zu", launch_no++, name, idx.size());
            for (int v : idx) fprintf(LIST, " %d", v);
            fprintf(LIST, "\n");
        };
        for (int m : {3, 5, 7, 9})
            for (int j = 6; j <= 20; j++) {
                long long d = ((long long)m << j) / 4; // elements
                if (d >= NL) continue;
                snprintf(nm, sizeof nm, "pair_%dx%dB", m, 1 << j);
                run1d(nm, {0, (int)d});
            }
        for (int r = 0; r < 24; r++) {
            snprintf(nm, sizeof nm, "rpair64k_%d", r);
            run1d(nm, {(int)(lcg() % 1024) * 16, (int)(lcg() % 1024) * 16});
        }
        for (int r = 0; r < 8; r++) {
            std::vector<int> idx;
            for (int i = 0; i < 8; i++) idx.push_back((int)(lcg() % 1024) * 16);
            snprintf(nm, sizeof nm, "rand8_64k_%d", r);
            run1d(nm, idx);
        }
    }
    fclose(LIST);
    printf("launches=%d\n", launch_no);
    return 0;
}
