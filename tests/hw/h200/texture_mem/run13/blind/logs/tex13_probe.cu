// tpt16 (issue 10): point-sampled texels of every size in adjacent and distant 32-byte columns
// (tests/hw/texture_mem/gen_run13.py writes the cases). Single-warp 2D and 3D fetches whose
// lanes' coordinates are read from a cases file; the kernels are tex9_probe.cu's tex3d_at and
// tex2d_at unchanged (float, float2 and float4 instances), the arrays filled as tex9_probe.cu
// fills them.
// Cases file lines: "A NAME KIND W H D" (an array; KIND f32 u8 u16 f32x2 f32x4 u16x4 u8x4; D = 1
// a 2D array) and "L NAME ARRAY FILTER MASK c0 ... c95" (a launch; FILTER point or linear, MASK
// hex, lane l at c[3l], c[3l+1], c[3l+2]; 2D arrays use c[3l], c[3l+1]).
// Writes OUTDIR/launches.txt ("no tex3d_at|tex2d_at NAME ARRAY FILTER MASK c0 ... c95", launch
// order = Nsight Compute's ids), OUTDIR/arrays.txt ("name kind W H D") and OUTDIR/outputs.txt
// ("no w0 ... w31", hex bits, d_out zeroed before each launch), tex9_probe.cu's formats.
// Usage: ./tex13_probe CASES OUTDIR
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
__global__ void tex2d_at(cudaTextureObject_t t, float *out, const float *c, unsigned mask) {
    unsigned l = threadIdx.x;
    if (!(mask >> l & 1u)) return;
    out[l] = fsum(tex2D<T>(t, c[3 * l], c[3 * l + 1]));
}

static const char *KN[] = {"f32", "u8", "u16", "f32x2", "f32x4", "u16x4", "u8x4"};
static const int TB[] = {4, 1, 2, 8, 16, 8, 4};

struct Arr {
    std::string name;
    int kind;
    int W, H, D;
    cudaTextureObject_t point, linear;
};

static bool is_int(int kind) { return kind == 1 || kind == 2 || kind == 5 || kind == 6; }
static bool is_float(int kind) { return kind == 0 || kind == 3 || kind == 4; }
static bool is4(int kind) { return kind >= 4; }

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

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s CASES OUTDIR\n", argv[0]);
        return 2;
    }
    std::string dir = argv[2];
    FILE *in = fopen(argv[1], "r");
    FILE *LIST = fopen((dir + "/launches.txt").c_str(), "w");
    FILE *OUTS = fopen((dir + "/outputs.txt").c_str(), "w");
    FILE *AR = fopen((dir + "/arrays.txt").c_str(), "w");
    if (!in || !LIST || !AR || !OUTS) return 1;
    float *d_out, *d_c;
    CK(cudaMalloc(&d_out, 32 * 4));
    CK(cudaMalloc(&d_c, 96 * 4));
    std::vector<Arr> arrs;
    int no = 0;
    static char line[8192];
    while (fgets(line, sizeof line, in)) {
        char *save = nullptr;
        char *tok = strtok_r(line, " \t\n", &save);
        if (!tok || tok[0] == '#') continue;
        if (!strcmp(tok, "A")) {
            std::string name = strtok_r(nullptr, " \t\n", &save);
            std::string kn = strtok_r(nullptr, " \t\n", &save);
            int W = atoi(strtok_r(nullptr, " \t\n", &save));
            int H = atoi(strtok_r(nullptr, " \t\n", &save));
            int D = atoi(strtok_r(nullptr, " \t\n", &save));
            int kind = -1;
            for (int k = 0; k < 7; k++)
                if (kn == KN[k]) kind = k;
            if (kind < 0) { fprintf(stderr, "kind %s\n", kn.c_str()); return 1; }
            arrs.push_back(make(name, kind, W, H, D));
            fprintf(AR, "%s %s %d %d %d\n", name.c_str(), KN[kind], W, H, D);
            continue;
        }
        if (strcmp(tok, "L")) { fprintf(stderr, "bad line %s\n", tok); return 1; }
        std::string name = strtok_r(nullptr, " \t\n", &save);
        std::string an = strtok_r(nullptr, " \t\n", &save);
        bool linear = !strcmp(strtok_r(nullptr, " \t\n", &save), "linear");
        unsigned mask = (unsigned)strtoul(strtok_r(nullptr, " \t\n", &save), nullptr, 16);
        std::vector<float> cc(96, 0.5f);
        for (int i = 0; i < 96; i++) {
            char *v = strtok_r(nullptr, " \t\n", &save);
            if (!v) { fprintf(stderr, "%s: %d coordinates\n", name.c_str(), i); return 1; }
            cc[i] = strtof(v, nullptr);
        }
        const Arr *a = nullptr;
        for (const Arr &x : arrs)
            if (x.name == an) a = &x;
        if (!a) { fprintf(stderr, "%s: array %s\n", name.c_str(), an.c_str()); return 1; }
        CK(cudaMemcpy(d_c, cc.data(), 96 * 4, cudaMemcpyHostToDevice));
        CK(cudaMemset(d_out, 0, 32 * 4));
        CK(cudaDeviceSynchronize());
        cudaTextureObject_t t = linear ? a->linear : a->point;
        bool two = a->D == 1;
        if (two) {
            if (is4(a->kind)) tex2d_at<float4><<<1, 32>>>(t, d_out, d_c, mask);
            else if (a->kind == 3) tex2d_at<float2><<<1, 32>>>(t, d_out, d_c, mask);
            else tex2d_at<float><<<1, 32>>>(t, d_out, d_c, mask);
        } else {
            if (is4(a->kind)) tex3d_at<float4><<<1, 32>>>(t, d_out, d_c, mask);
            else if (a->kind == 3) tex3d_at<float2><<<1, 32>>>(t, d_out, d_c, mask);
            else tex3d_at<float><<<1, 32>>>(t, d_out, d_c, mask);
        }
        CK(cudaGetLastError());
        CK(cudaDeviceSynchronize());
        unsigned w[32];
        CK(cudaMemcpy(w, d_out, 32 * 4, cudaMemcpyDeviceToHost));
        fprintf(OUTS, "%d", no);
        for (unsigned v : w) fprintf(OUTS, " %08x", v);
        fprintf(OUTS, "\n");
        fprintf(LIST, "%d %s %s %s %s %08x", no++, two ? "tex2d_at" : "tex3d_at", name.c_str(), an.c_str(),
                linear ? "linear" : "point", mask);
        for (float v : cc) fprintf(LIST, " %g", v);
        fprintf(LIST, "\n");
        fflush(LIST);
    }
    fclose(LIST);
    fclose(OUTS);
    fclose(AR);
    printf("launches=%d\n", no);
    return 0;
}
