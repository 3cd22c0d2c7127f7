// texw6 (issue 10): single-warp probes of f32x2 trilinear/bilinear column quads (coly) and f32x4/f32x2 one-lane footprints; otherwise tex3_probe.cu of run4.
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
    std::vector<Arr> arrs = {make("f32_64", 0, 64, 64, 64), make("f32x2_64", 3, 64, 64, 64),
                             make("f32x4_64", 4, 64, 64, 64)};
    static const char *kn[] = {"f32", "u8", "u16", "f32x2", "f32x4"};
    for (const Arr &a : arrs) fprintf(AR, "%s %s %d %d %d\n", a.name, kn[a.kind], a.W, a.H, a.D);
    fclose(AR);
    char nm[160];
    // Goal 1: column runs (coly: lane l at y0+l), varying y0, lane count, x, filter axes.
    for (int k : {1, 0, 2}) {
        const Arr &a = arrs[k];
        for (int h : {7, 3, 6, 2})
            for (int y0 : {0, 1, 2, 3, 4, 8, 16, 24, 32})
                for (int n : {1, 2, 4, 8, 16, 32}) {
                    if (k != 1 && !(h == 7 && (n == 32 || n == 4))) continue;
                    if (k == 1 && h != 7 && !(n == 32 || n == 8 || n == 4)) continue;
                    for (int x : {5, 7}) {
                        if (x == 7 && !(k == 1 && h == 7)) continue;
                        std::vector<L> w;
                        for (int l = 0; l < n; l++) w.push_back({x, (y0 + l) % 64, 3, h});
                        snprintf(nm, sizeof nm, "%s_col_h%d_x%d_y%d_n%d", kn[a.kind], h, x, y0, n);
                        launch_at(a, true, nm, coords(w), first(n));
                    }
                }
    }
    // Goal 2: one lane of each filtered-axis combination and 1..4 lanes, f32x4, f32x2, f32.
    for (int k : {2, 1, 0}) {
        const Arr &a = arrs[k];
        for (int h = 0; h < 8; h++) {
            snprintf(nm, sizeof nm, "%s_one_h%d", kn[a.kind], h);
            launch_at(a, true, nm, coords({{0, 0, 0, h}}), 1);
            snprintf(nm, sizeof nm, "%s_one_h%d_at5_3_3", kn[a.kind], h);
            launch_at(a, true, nm, coords({{5, 3, 3, h}}), 1);
        }
        for (int h : {7, 3, 1})
            for (int n = 1; n <= 4; n++) {
                std::vector<L> r, c, z, s;
                for (int l = 0; l < n; l++) {
                    r.push_back({l, 0, 0, h});
                    c.push_back({0, l, 0, h});
                    z.push_back({0, 0, l, h});
                    s.push_back({2 * l, 0, 0, h});
                }
                snprintf(nm, sizeof nm, "%s_row_h%d_n%d", kn[a.kind], h, n);
                launch_at(a, true, nm, coords(r), first(n));
                snprintf(nm, sizeof nm, "%s_coly_h%d_n%d", kn[a.kind], h, n);
                launch_at(a, true, nm, coords(c), first(n));
                snprintf(nm, sizeof nm, "%s_colz_h%d_n%d", kn[a.kind], h, n);
                launch_at(a, true, nm, coords(z), first(n));
                snprintf(nm, sizeof nm, "%s_row2_h%d_n%d", kn[a.kind], h, n);
                launch_at(a, true, nm, coords(s), first(n));
            }
        // same lane 0 alone but lanes 1..3 inactive vs lane 3 alone
        snprintf(nm, sizeof nm, "%s_lane3_h7", kn[a.kind]);
        launch_at(a, true, nm, coords({{0, 0, 0, 7}, {0, 0, 0, 7}, {0, 0, 0, 7}, {0, 0, 0, 7}}), 8);
        snprintf(nm, sizeof nm, "%s_same4_h7", kn[a.kind]);
        launch_at(a, true, nm, coords({{0, 0, 0, 7}, {0, 0, 0, 7}, {0, 0, 0, 7}, {0, 0, 0, 7}}), 0xf);
    }
    // Whole-grid references of run4 repeated (run-to-run check).
    launch_grid(arrs[1], true, "f32x2_64_linear_coly", 1, 0.5f, 0.5f, 0.5f);
    launch_grid(arrs[2], true, "f32x4_64_linear_coly", 1, 0.5f, 0.5f, 0.5f);
    launch_grid(arrs[1], true, "f32x2_64_linear_row", 0, 0.5f, 0.5f, 0.5f);
    fclose(LIST);
    printf("launches=%d\n", launch_no);
    return 0;
}
