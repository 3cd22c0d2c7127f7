// tfoot (issue 10, run12): single-warp replays of the random grids whose tag lookups (run4's
// trilinear *_linear_random) or tag-set conflicts (tex_probe's 2D f32_point_random and
// f32_linear_half_random) the model did not match on whole grids, chosen quads and pairs, and two
// of run4's random grids again. Kernels, arrays and list formats are tex9_probe.cu's (run9), so
// tests/common/texture3d.rs runs it: the case list (gen_run12.py) names the arrays
// ("array NAME KIND W H D", D = 1: a 2D array) and the launches ("at NAME ARRAY FILTER MASK c0 ...
// c95", a 3D or 2D single-warp fetch by the array's depth; "grid NAME ARRAY FILTER PATTERN ox oy
// oz", tex3d_grid). Writes OUTDIR/launches.txt ("no tex3d_at|tex2d_at NAME ARRAY FILTER MASK c0
// ... c95", "no tex3d_grid NAME ARRAY FILTER PATTERN ox oy oz", Nsight Compute's ids),
// OUTDIR/arrays.txt ("name kind W H D") and OUTDIR/outputs.txt ("no w0 ... w31", the 32 output
// words of each single-warp launch, hex, d_out zeroed before each).
// Usage: ./tex12_probe CASES OUTDIR
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <fstream>
#include <map>
#include <sstream>
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
    std::string name;
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
static Arr make(const std::string &name, int kind, int W, int H, int D) {
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
    fprintf(LIST, "%d %s %s %s %s %08x", launch_no++, two ? "tex2d_at" : "tex3d_at", name, a.name.c_str(),
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
    fprintf(LIST, "%d tex3d_grid %s %s %s %d %g %g %g\n", launch_no++, name, a.name.c_str(), linear ? "linear" : "point",
            pattern, ox, oy, oz);
    fflush(LIST);
}


static const char *KN[] = {"f32", "u8", "u16", "f32x2", "f32x4", "u16x4", "u8x4"};

int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CASES OUTDIR\n", argv[0]); return 1; }
    std::string dir = argv[2];
    CK(cudaMalloc(&d_out, 1 << 22));
    CK(cudaMalloc(&d_c, 96 * 4));
    LIST = fopen((dir + "/launches.txt").c_str(), "w");
    OUTS = fopen((dir + "/outputs.txt").c_str(), "w");
    FILE *AR = fopen((dir + "/arrays.txt").c_str(), "w");
    std::ifstream in(argv[1]);
    if (!LIST || !AR || !OUTS || !in) return 1;
    std::map<std::string, Arr> arrs;
    std::string line;
    while (std::getline(in, line)) {
        std::istringstream ss(line);
        std::string what, name, arr, filt;
        ss >> what >> name;
        if (what == "array") {
            std::string kind;
            int W, H, D, k = -1;
            ss >> kind >> W >> H >> D;
            for (int i = 0; i < 7; i++)
                if (kind == KN[i]) k = i;
            if (k < 0) { fprintf(stderr, "kind %s\n", kind.c_str()); return 1; }
            arrs.emplace(name, make(name, k, W, H, D));
            fprintf(AR, "%s %s %d %d %d\n", name.c_str(), kind.c_str(), W, H, D);
            continue;
        }
        ss >> arr >> filt;
        auto it = arrs.find(arr);
        if (it == arrs.end()) { fprintf(stderr, "array %s\n", arr.c_str()); return 1; }
        bool linear = filt == "linear";
        if (what == "at") {
            std::string m;
            ss >> m;
            unsigned mask = (unsigned)strtoul(m.c_str(), nullptr, 16);
            std::vector<float> c;
            float v;
            while (ss >> v) c.push_back(v);
            if (c.size() != 96) { fprintf(stderr, "%s: %zu coordinates\n", name.c_str(), c.size()); return 1; }
            launch_at(it->second, linear, name.c_str(), c, mask);
        } else if (what == "grid") {
            int pattern;
            float ox, oy, oz;
            ss >> pattern >> ox >> oy >> oz;
            launch_grid(it->second, linear, name.c_str(), pattern, ox, oy, oz);
        } else {
            fprintf(stderr, "case %s\n", what.c_str());
            return 1;
        }
    }
    fclose(AR);
    fclose(LIST);
    fclose(OUTS);
    printf("launches=%d\n", launch_no);
    return 0;
}
