// tf32x4 (issue 10): partial four-channel quads. Single-warp 3D and 2D fetches of 16-byte
// (float4), 8-byte (ushort4, float2) and 4-byte (uchar4, float) texels where only some lanes of
// a quad are active: every subset of a quad's 4 lanes, single lanes in other quads, two quads,
// footprints inside one tag block and crossing blocks/slices, point and filtered (trilinear,
// bilinear-in-3D, linear on texel centres), 2D filtered float4; plus whole-grid 3D patterns of
// ushort4 and uchar4. Built from tex6_probe.cu / tex3_probe.cu (run4, run6).
// Every launch is listed in OUTDIR/launches.txt, in launch order (Nsight Compute's ids):
//   "no tex3d_at NAME ARRAY FILTER MASK c0 ... c95" (tex2d_at likewise, c[3l], c[3l+1] used),
//   "no tex3d_grid NAME ARRAY FILTER PATTERN ox oy oz"; arrays in OUTDIR/arrays.txt
//   ("name type W H D", D = 1 for a 2D array); the 32 output words of every single-warp launch
//   in OUTDIR/outputs.txt ("no w0 ... w31", hex bits, d_out zeroed before each launch).
// Usage: ./tex9_probe OUTDIR
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

template <typename T>
__global__ void tex2d_at(cudaTextureObject_t t, float *out, const float *c, unsigned mask) {
    unsigned l = threadIdx.x;
    if (!(mask >> l & 1u)) return;
    out[l] = fsum(tex2D<T>(t, c[3 * l], c[3 * l + 1]));
}

static FILE *LIST;
static int launch_no = 0;
static FILE *OUTS;

struct Arr {
    const char *name;
    int kind; // 0 f32, 1 u8, 2 u16, 3 f32x2, 4 f32x4, 5 u16x4, 6 u8x4
    int W, H, D;
    cudaTextureObject_t point, linear;
};

static bool is_int(int kind) { return kind == 1 || kind == 2 || kind == 5 || kind == 6; }
static bool is_float(int kind) { return kind == 0 || kind == 3 || kind == 4; }
static bool is4(int kind) { return kind >= 4; }

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

static const int TB[] = {4, 1, 2, 8, 16, 8, 4};

// D = 1: a 2D array (cudaMalloc3DArray with depth 0).
static Arr make(const char *name, int kind, int W, int H, int D) {
    cudaChannelFormatDesc cd;
    switch (kind) {
    case 0: cd = cudaCreateChannelDesc<float>(); break;
    case 1: cd = cudaCreateChannelDesc<unsigned char>(); break;
    case 2: cd = cudaCreateChannelDesc<unsigned short>(); break;
    case 3: cd = cudaCreateChannelDesc<float2>(); break;
    case 4: cd = cudaCreateChannelDesc<float4>(); break;
    case 5: cd = cudaCreateChannelDesc<ushort4>(); break;
    default: cd = cudaCreateChannelDesc<uchar4>(); break;
    }
    cudaArray_t a;
    CK(cudaMalloc3DArray(&a, &cd, make_cudaExtent(W, H, D == 1 ? 0 : D)));
    size_t bytes = (size_t)W * H * D * TB[kind];
    std::vector<unsigned char> raw(bytes);
    for (size_t i = 0; i < bytes; i++) raw[i] = (unsigned char)(i * 7 + (i >> 8));
    if (is_float(kind)) {
        float *p = (float *)raw.data();
        for (size_t i = 0; i < bytes / 4; i++) p[i] = (float)(i % 4099);
    }
    cudaMemcpy3DParms mp;
    memset(&mp, 0, sizeof mp);
    mp.srcPtr = make_cudaPitchedPtr(raw.data(), (size_t)W * TB[kind], W, H);
    mp.dstArray = a;
    mp.extent = make_cudaExtent(W, H, D);
    mp.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&mp));
    return Arr{name, kind, W, H, D, tex_of(a, cudaFilterModePoint, is_int(kind)),
               tex_of(a, cudaFilterModeLinear, is_int(kind))};
}

static float *d_out, *d_c;

static void launch_at(const Arr &a, bool linear, const char *name, const std::vector<float> &c, unsigned mask) {
    std::vector<float> cc(96, 0.5f);
    for (size_t i = 0; i < c.size() && i < 96; i++) cc[i] = c[i];
    CK(cudaMemcpy(d_c, cc.data(), 96 * 4, cudaMemcpyHostToDevice));
    CK(cudaMemset(d_out, 0, 32 * 4));
    CK(cudaDeviceSynchronize());
    cudaTextureObject_t t = linear ? a.linear : a.point;
    bool two = a.D == 1;
    if (two) {
        if (is4(a.kind)) tex2d_at<float4><<<1, 32>>>(t, d_out, d_c, mask);
        else if (a.kind == 3) tex2d_at<float2><<<1, 32>>>(t, d_out, d_c, mask);
        else tex2d_at<float><<<1, 32>>>(t, d_out, d_c, mask);
    } else {
        if (is4(a.kind)) tex3d_at<float4><<<1, 32>>>(t, d_out, d_c, mask);
        else if (a.kind == 3) tex3d_at<float2><<<1, 32>>>(t, d_out, d_c, mask);
        else tex3d_at<float><<<1, 32>>>(t, d_out, d_c, mask);
    }
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    unsigned w[32];
    CK(cudaMemcpy(w, d_out, 32 * 4, cudaMemcpyDeviceToHost));
    fprintf(OUTS, "%d", launch_no);
    for (unsigned v : w) fprintf(OUTS, " %08x", v);
    fprintf(OUTS, "\n");
    fprintf(LIST, "%d %s %s %s %s %08x", launch_no++, two ? "tex2d_at" : "tex3d_at", name, a.name,
            linear ? "linear" : "point", mask);
    for (float v : cc) fprintf(LIST, " %g", v);
    fprintf(LIST, "\n");
    fflush(LIST);
}

static void launch_grid(const Arr &a, bool linear, const char *name, int pattern, float ox, float oy, float oz) {
    cudaTextureObject_t t = linear ? a.linear : a.point;
    if (is4(a.kind)) tex3d_grid<float4><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz);
    else if (a.kind == 3) tex3d_grid<float2><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz);
    else tex3d_grid<float><<<256, 256>>>(t, d_out, a.W, a.H, a.D, pattern, ox, oy, oz);
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

// Footprint variants, for lane l: "same" every lane at (0, 0, 0); "row" lane l at x = 2l (its own
// 32-byte column for 16-byte texels); "cross" every lane at the last texel of the first 32-byte
// column, row 3, slice 3 (a filtered footprint crosses an x and a y tag block and two slices).
static std::vector<L> variant(const char *v, int kind, int h) {
    std::vector<L> w;
    int xc = 32 / TB[kind] - 1;
    for (int l = 0; l < 32; l++) {
        if (!strcmp(v, "same")) w.push_back({0, 0, 0, h});
        else if (!strcmp(v, "row")) w.push_back({(2 * l) % 64, 0, 0, h});
        else w.push_back({xc, 3, 3, h});
    }
    return w;
}

static const char *KN[] = {"f32", "u8", "u16", "f32x2", "f32x4", "u16x4", "u8x4"};

static void at(const Arr &a, bool linear, const char *v, int h, unsigned mask, const char *tag = "") {
    char nm[160];
    snprintf(nm, sizeof nm, "%s%s_%s_%s_h%d_m%08x%s", KN[a.kind], a.D == 1 ? "_2d" : "", linear ? "lin" : "pt", v,
             h, mask, tag);
    launch_at(a, linear, nm, coords(variant(v, a.kind, h)), mask);
}

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    CK(cudaMalloc(&d_out, 1 << 22));
    CK(cudaMalloc(&d_c, 96 * 4));
    LIST = fopen((dir + "/launches.txt").c_str(), "w");
    OUTS = fopen((dir + "/outputs.txt").c_str(), "w");
    FILE *AR = fopen((dir + "/arrays.txt").c_str(), "w");
    if (!LIST || !AR || !OUTS) return 1;
    std::vector<Arr> arrs = {make("f32x4_64", 4, 64, 64, 64), make("u16x4_64", 5, 64, 64, 64),
                             make("u8x4_64", 6, 64, 64, 64),  make("f32x2_64", 3, 64, 64, 64),
                             make("f32_64", 0, 64, 64, 64),   make("f32x4_2d", 4, 64, 64, 1)};
    for (const Arr &a : arrs) fprintf(AR, "%s %s %d %d %d\n", a.name, KN[a.kind], a.W, a.H, a.D);
    fclose(AR);
    const Arr &f4 = arrs[0];
    // 1. f32x4 trilinear: every subset of quad 0 in three footprints; quads 1 and 7 (same).
    for (const char *v : {"same", "row", "cross"})
        for (unsigned m = 1; m < 16; m++) at(f4, true, v, 7, m);
    for (int q : {1, 7})
        for (unsigned m = 1; m < 16; m++) at(f4, true, "same", 7, m << (4 * q));
    // 2. f32x4 trilinear, two or more quads.
    for (unsigned m : {0x11u, 0x22u, 0x44u, 0x88u, 0x33u, 0x17u, 0x41u, 0x14u, 0x66u, 0xffu, 0x1111u, 0x4444u,
                       0x8001u, 0x10000001u, 0x11111111u, 0x22222222u, 0x44444444u, 0x88888888u, 0x33333333u,
                       0xccccccccu, 0x55555555u, 0xaaaaaaaau, 0xffffffffu, 0x0000ff00u})
        at(f4, true, "same", 7, m);
    for (unsigned m : {0x11u, 0x44u, 0x33u, 0xffffffffu}) at(f4, true, "row", 7, m);
    // 3. f32x4 other filter axes (h0: linear exactly on texel centres; h1 x only; h3 xy) and point.
    for (int h : {0, 1, 3})
        for (unsigned m : {1u, 2u, 4u, 8u, 3u, 5u, 6u, 9u, 7u, 0xfu, 0x11u, 0x44u})
            at(f4, true, h == 0 ? "same" : "row", h, m);
    for (unsigned m : {1u, 2u, 4u, 8u, 3u, 6u, 0xfu, 0x11u, 0xffffffffu}) at(f4, false, "row", 0, m);
    // 4. 2D float4: bilinear every subset (same), some masks in a row, linear on centres, point.
    const Arr &f4b = arrs[5];
    for (unsigned m = 1; m < 16; m++) at(f4b, true, "same", 3, m);
    for (unsigned m : {1u, 2u, 3u, 8u, 0xfu, 0x11u, 0xffffffffu}) at(f4b, true, "row", 3, m);
    for (unsigned m : {1u, 2u, 3u, 0xfu}) at(f4b, true, "same", 0, m);
    for (unsigned m : {1u, 2u, 0xfu}) at(f4b, false, "row", 0, m);
    // 5. u16x4, u8x4, f32x2, f32 trilinear: every subset (same); row and cross masks; two quads.
    for (int k = 1; k <= 4; k++) {
        const Arr &a = arrs[k];
        for (unsigned m = 1; m < 16; m++) at(a, true, "same", 7, m);
        for (unsigned m : {1u, 2u, 3u, 8u, 0xfu, 0xffu}) at(a, true, "row", 7, m);
        for (unsigned m : {1u, 2u, 3u, 0xfu}) at(a, true, "cross", 7, m);
        if (k <= 2)
            for (unsigned m : {0x11u, 0x44u, 0x33u, 0xffffffffu}) at(a, true, "same", 7, m);
    }
    // 6. Whole grids of the four-channel integer formats (run4's patterns: row, coly, colz).
    for (int k : {1, 2}) {
        char nm[160];
        for (int p = 0; p < 3; p++) {
            static const char *pn[] = {"row", "coly", "colz"};
            snprintf(nm, sizeof nm, "%s_linear_%s", arrs[k].name, pn[p]);
            launch_grid(arrs[k], true, nm, p, 0.5f, 0.5f, 0.5f);
        }
        snprintf(nm, sizeof nm, "%s_point_row", arrs[k].name);
        launch_grid(arrs[k], false, nm, 0, 0.0f, 0.0f, 0.0f);
    }
    fclose(LIST);
    fclose(OUTS);
    printf("launches=%d\n", launch_no);
    return 0;
}
