// Texture and surface fetch patterns for the H200's texture-path counters (Nsight Compute).
//
// Every launch is listed in launches.txt (index, kernel, pattern, texture) in launch order, which
// is the order of Nsight Compute's rows. The patterns are chosen so that the texels each warp
// touches follow from the index arithmetic alone (point sampling at texel centres with
// unnormalized coordinates; linear filtering exactly halfway between texel centres, a 2x2 or
// 2x2x2 footprint; the same at a whole-texel offset, where one weight is zero), so the sectors
// they need follow from the layout. Outputs: OUTDIR/NNN_<name>.bin, raw, one per launch.
// Usage: ./tex_probe OUTDIR
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
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

// Texel (x, y) of global thread `gid` for the 2D patterns.
__device__ __forceinline__ void pattern2d(int pattern, unsigned gid, int W, int H, int &x, int &y) {
    unsigned w = gid / 32, l = gid % 32;
    switch (pattern) {
    case 0: x = gid % W; y = (gid / W) % H; break;                                  // rows
    case 1: x = (gid / H) % W; y = gid % H; break;                                  // columns
    case 2: x = (w % (W / 8)) * 8 + l % 8; y = ((w / (W / 8)) * 4 + l / 8) % H; break; // 8x4 tiles
    case 3: x = (w % (W / 4)) * 4 + l % 4; y = ((w / (W / 4)) * 8 + l / 4) % H; break; // 4x8 tiles
    case 4: {                                                                        // random
        unsigned h = gid * 2654435761u;
        h ^= h >> 15; h *= 2246822519u; h ^= h >> 13;
        x = h % W; y = (h >> 16) % H; break;
    }
    case 5: x = w % W; y = (w / W) % H; break;                                      // one texel per warp
    case 6: x = (2 * gid) % W; y = (2 * gid / W) % H; break;                        // every other texel of a row
    default: x = 0; y = 0;
    }
}

template <typename T> __device__ __forceinline__ float sum4(T v);
template <> __device__ __forceinline__ float sum4(float v) { return v; }
template <> __device__ __forceinline__ float sum4(float2 v) { return v.x + v.y; }
template <> __device__ __forceinline__ float sum4(float4 v) { return v.x + v.y + v.z + v.w; }
template <> __device__ __forceinline__ float sum4(unsigned char v) { return v; }
template <> __device__ __forceinline__ float sum4(unsigned short v) { return v; }

// 2D texture fetch at texel (x, y) + 0.5 + off.
template <typename T>
__global__ void tex2d_pattern(cudaTextureObject_t t, float *out, int W, int H, int pattern, float off) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    out[gid] = sum4(tex2D<T>(t, x + 0.5f + off, y + 0.5f + off));
}

// The same texel twice: the second fetch should hit in L1.
__global__ void tex2d_twice(cudaTextureObject_t t, float *out, int W, int H, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    float a = tex2D<float>(t, x + 0.5f, y + 0.5f);
    float b = tex2D<float>(t, x + 0.5f + (a == -1.0f ? 1.0f : 0.0f), y + 0.5f);
    out[gid] = a + b;
}

__global__ void tex2d_gather(cudaTextureObject_t t, float *out, int W, int H, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    float4 v = tex2Dgather<float4>(t, x + 1.0f, y + 1.0f, 0);
    out[gid] = v.x + v.y + v.z + v.w;
}

// 3D: 0 rows (x fastest), 1 columns along y, 2 columns along z, 3 4x4x2 bricks.
__global__ void tex3d_pattern(cudaTextureObject_t t, float *out, int W, int H, int D, int pattern, float off) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned w = gid / 32, l = gid % 32;
    int x, y, z;
    switch (pattern) {
    case 0: x = gid % W; y = (gid / W) % H; z = (gid / W / H) % D; break;
    case 1: y = gid % H; x = (gid / H) % W; z = (gid / H / W) % D; break;
    case 2: z = gid % D; x = (gid / D) % W; y = (gid / D / W) % H; break;
    default: {
        unsigned bx = W / 4, by = H / 4;
        x = (w % bx) * 4 + l % 4; y = ((w / bx) % by) * 4 + (l / 4) % 4; z = ((w / bx / by) * 2 + l / 16) % D;
    }
    }
    out[gid] = tex3D<float>(t, x + 0.5f + off, y + 0.5f + off, z + 0.5f + off);
}

// 1D CUDA array: 0 consecutive, 1 every other, 2 stride 32.
__global__ void tex1d_pattern(cudaTextureObject_t t, float *out, int W, int pattern, float off) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x = pattern == 0 ? gid % W : pattern == 1 ? (2 * gid) % W : (gid * 32 + gid / (W / 32)) % W;
    out[gid] = tex1D<float>(t, x + 0.5f + off);
}

// tex1Dfetch on linear memory: 0 consecutive, 1 every other, 2 stride 32, 3 random.
__global__ void fetch1d_pattern(cudaTextureObject_t t, float *out, int W, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned h = gid * 2654435761u;
    h ^= h >> 15;
    int x = pattern == 0 ? gid % W : pattern == 1 ? (2 * gid) % W : pattern == 2 ? (gid * 32 + gid / (W / 32)) % W : h % W;
    out[gid] = tex1Dfetch<float>(t, x);
}

__global__ void surf2d_read(cudaSurfaceObject_t s, float *out, int W, int H, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    out[gid] = surf2Dread<float>(s, x * 4, y);
}

__global__ void surf2d_write(cudaSurfaceObject_t s, int W, int H, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    surf2Dwrite<float>((float)gid, s, x * 4, y);
}

// Only the lanes in `mask` fetch (rows pattern): how requests count partial quads.
__global__ void tex2d_masked(cudaTextureObject_t t, float *out, int W, int H, unsigned mask) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (((mask >> (threadIdx.x % 32)) & 1) == 0) return;
    int x, y;
    pattern2d(0, gid, W, H, x, y);
    out[gid] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}
__global__ void fetch1d_masked(cudaTextureObject_t t, float *out, int W, unsigned mask) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (((mask >> (threadIdx.x % 32)) & 1) == 0) return;
    out[gid] = tex1Dfetch<float>(t, gid % W);
}
__global__ void surf2d_read_masked(cudaSurfaceObject_t s, float *out, int W, int H, unsigned mask) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    if (((mask >> (threadIdx.x % 32)) & 1) == 0) return;
    int x, y;
    pattern2d(0, gid, W, H, x, y);
    out[gid] = surf2Dread<float>(s, x * 4, y);
}

// One warp; lane l of quad q reads texel (64 q + dx[l % 4], dy[l % 4]) of a 1024 x 1024 float
// array: every quad the same relative footprint, in its own GOB column (for the wavefront rule).
__global__ void tex2d_quadset(cudaTextureObject_t t, float *out, int4 dx, int4 dy) {
    unsigned l = threadIdx.x % 32, q = l / 4, i = l % 4;
    int x = 64 * q + (i == 0 ? dx.x : i == 1 ? dx.y : i == 2 ? dx.z : dx.w);
    int y = i == 0 ? dy.x : i == 1 ? dy.y : i == 2 ? dy.z : dy.w;
    out[threadIdx.x] = tex2D<float>(t, x + 0.5f, y + 0.5f);
}

// The same patterns as global loads of a row-major buffer (for the report's comparison).
__global__ void gld2d_pattern(const float *in, float *out, int W, int H, int pattern) {
    unsigned gid = blockIdx.x * blockDim.x + threadIdx.x;
    int x, y;
    pattern2d(pattern, gid, W, H, x, y);
    out[gid] = in[y * W + x];
}

// The seed's example: rotate an image by theta through a normalized, wrapped, linear texture.
__global__ void transformKernel(float *output, cudaTextureObject_t texObj, int width, int height, float theta) {
    unsigned int x = blockIdx.x * blockDim.x + threadIdx.x;
    unsigned int y = blockIdx.y * blockDim.y + threadIdx.y;
    float u = x / (float)width;
    float v = y / (float)height;
    u -= 0.5f;
    v -= 0.5f;
    float tu = u * cosf(theta) - v * sinf(theta) + 0.5f;
    float tv = v * cosf(theta) + u * sinf(theta) + 0.5f;
    output[y * width + x] = tex2D<float>(texObj, tu, tv);
}

static FILE *LIST;
static std::string DIR;
static int launch_no = 0;
static float *d_out;
static size_t out_bytes;

static void done(const char *kernel, const char *what, size_t bytes) {
    CK(cudaGetLastError());
    CK(cudaDeviceSynchronize());
    std::vector<char> h(bytes);
    CK(cudaMemcpy(h.data(), d_out, bytes, cudaMemcpyDeviceToHost));
    char name[512];
    snprintf(name, sizeof name, "%s/%03d_%s.bin", DIR.c_str(), launch_no, what);
    FILE *f = fopen(name, "wb");
    if (f) { fwrite(h.data(), 1, bytes, f); fclose(f); }
    fprintf(LIST, "%d %s %s\n", launch_no, kernel, what);
    fflush(LIST);
    launch_no++;
    CK(cudaMemset(d_out, 0, out_bytes));
}

template <typename T> static cudaArray_t make_array2d(int W, int H, unsigned flags = 0) {
    cudaChannelFormatDesc cd = cudaCreateChannelDesc<T>();
    cudaArray_t a;
    CK(cudaMallocArray(&a, &cd, W, H, flags));
    std::vector<T> h((size_t)W * H);
    std::vector<unsigned char> raw((size_t)W * H * sizeof(T));
    for (size_t i = 0; i < raw.size(); i++) raw[i] = (unsigned char)(i * 7 + (i >> 8));
    if (sizeof(T) >= 4) { // float data: small integers, exactly representable
        float *p = (float *)raw.data();
        for (size_t i = 0; i < raw.size() / 4; i++) p[i] = (float)(i % 4099);
    }
    CK(cudaMemcpy2DToArray(a, 0, 0, raw.data(), W * sizeof(T), W * sizeof(T), H, cudaMemcpyHostToDevice));
    return a;
}

static cudaTextureObject_t make_tex(const cudaResourceDesc &rd, cudaTextureFilterMode filter, bool normalized,
                                    cudaTextureAddressMode mode) {
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    td.addressMode[0] = td.addressMode[1] = td.addressMode[2] = mode;
    td.filterMode = filter;
    td.readMode = cudaReadModeElementType;
    td.normalizedCoords = normalized;
    cudaTextureObject_t t;
    CK(cudaCreateTextureObject(&t, &rd, &td, nullptr));
    return t;
}
static cudaTextureObject_t tex_of(cudaArray_t a, cudaTextureFilterMode filter) {
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = a;
    return make_tex(rd, filter, false, cudaAddressModeClamp);
}

int main(int argc, char **argv) {
    DIR = argc > 1 ? argv[1] : ".";
    LIST = fopen((DIR + "/launches.txt").c_str(), "w");
    if (!LIST) { fprintf(stderr, "cannot write %s\n", DIR.c_str()); return 1; }
    out_bytes = 1024 * 1024 * 4;
    CK(cudaMalloc(&d_out, out_bytes));
    CK(cudaMemset(d_out, 0, out_bytes));
    const int W = 256, H = 256, N = W * H, B = 256;
    const char *pname[] = {"row", "col", "tile8x4", "tile4x8", "random", "warp1", "stride2"};
    char what[128];

    // 2D float, point and linear
    cudaArray_t af = make_array2d<float>(W, H);
    cudaTextureObject_t tp = tex_of(af, cudaFilterModePoint), tl = tex_of(af, cudaFilterModeLinear);
    for (int p = 0; p < 7; p++) {
        tex2d_pattern<float><<<N / B, B>>>(tp, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "f32_point_%s", pname[p]);
        done("tex2d_pattern<float>", what, N * 4);
    }
    for (int p = 0; p < 5; p++) {
        tex2d_pattern<float><<<N / B, B>>>(tl, d_out, W, H, p, 0.5f);
        snprintf(what, sizeof what, "f32_linear_half_%s", pname[p]);
        done("tex2d_pattern<float>", what, N * 4);
    }
    for (int p = 0; p < 2; p++) {
        tex2d_pattern<float><<<N / B, B>>>(tl, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "f32_linear_centre_%s", pname[p]);
        done("tex2d_pattern<float>", what, N * 4);
    }
    for (int p = 0; p < 2; p++) {
        tex2d_twice<<<N / B, B>>>(tp, d_out, W, H, p);
        snprintf(what, sizeof what, "f32_point_twice_%s", pname[p]);
        done("tex2d_twice", what, N * 4);
    }
    for (int p = 0; p < 2; p++) {
        tex2d_gather<<<N / B, B>>>(tp, d_out, W, H, p);
        snprintf(what, sizeof what, "f32_gather_%s", pname[p]);
        done("tex2d_gather", what, N * 4);
    }
    // one warp only, one block of 32: the smallest case
    tex2d_pattern<float><<<1, 32>>>(tp, d_out, W, H, 0, 0.0f);
    done("tex2d_pattern<float>", "f32_point_row_1warp", 32 * 4);
    tex2d_pattern<float><<<1, 32>>>(tp, d_out, W, H, 1, 0.0f);
    done("tex2d_pattern<float>", "f32_point_col_1warp", 32 * 4);
    tex2d_pattern<float><<<1, 32>>>(tl, d_out, W, H, 0, 0.5f);
    done("tex2d_pattern<float>", "f32_linear_half_row_1warp", 32 * 4);
    if (getenv("TEX_PROBE_MASKS")) {
        const unsigned masks[] = {0xffffu, 0x55555555u, 0x11111111u, 0x1u, 0x80000001u, 0xf0f0f0f0u};
        for (unsigned m : masks) {
            tex2d_masked<<<1, 32>>>(tp, d_out, W, H, m);
            snprintf(what, sizeof what, "f32_point_row_1warp_mask%08x", m);
            done("tex2d_masked", what, 32 * 4);
        }
    }

    // element sizes 1, 2, 8, 16 bytes
    cudaArray_t a1 = make_array2d<unsigned char>(W, H), a2 = make_array2d<unsigned short>(W, H);
    cudaArray_t a8 = make_array2d<float2>(W, H), a16 = make_array2d<float4>(W, H);
    cudaTextureObject_t t1 = tex_of(a1, cudaFilterModePoint), t2 = tex_of(a2, cudaFilterModePoint);
    cudaTextureObject_t t8 = tex_of(a8, cudaFilterModePoint), t16 = tex_of(a16, cudaFilterModePoint);
    for (int p = 0; p < 3; p++) {
        tex2d_pattern<unsigned char><<<N / B, B>>>(t1, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "u8_point_%s", pname[p]);
        done("tex2d_pattern<uchar>", what, N * 4);
        tex2d_pattern<unsigned short><<<N / B, B>>>(t2, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "u16_point_%s", pname[p]);
        done("tex2d_pattern<ushort>", what, N * 4);
        tex2d_pattern<float2><<<N / B, B>>>(t8, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "f32x2_point_%s", pname[p]);
        done("tex2d_pattern<float2>", what, N * 4);
        tex2d_pattern<float4><<<N / B, B>>>(t16, d_out, W, H, p, 0.0f);
        snprintf(what, sizeof what, "f32x4_point_%s", pname[p]);
        done("tex2d_pattern<float4>", what, N * 4);
    }

    // 3D 64^3 float
    {
        const int X = 64, Y = 64, Z = 64;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t a3;
        CK(cudaMalloc3DArray(&a3, &cd, make_cudaExtent(X, Y, Z)));
        std::vector<float> h((size_t)X * Y * Z);
        for (size_t i = 0; i < h.size(); i++) h[i] = (float)(i % 4099);
        cudaMemcpy3DParms mp;
        memset(&mp, 0, sizeof mp);
        mp.srcPtr = make_cudaPitchedPtr(h.data(), X * 4, X, Y);
        mp.dstArray = a3;
        mp.extent = make_cudaExtent(X, Y, Z);
        mp.kind = cudaMemcpyHostToDevice;
        CK(cudaMemcpy3D(&mp));
        cudaTextureObject_t p3 = tex_of(a3, cudaFilterModePoint), l3 = tex_of(a3, cudaFilterModeLinear);
        const char *n3[] = {"row", "coly", "colz", "brick4x4x2"};
        for (int p = 0; p < 4; p++) {
            tex3d_pattern<<<X * Y * Z / 4 / B, B>>>(p3, d_out, X, Y, Z, p, 0.0f);
            snprintf(what, sizeof what, "f32_3d_point_%s", n3[p]);
            done("tex3d_pattern", what, X * Y * Z / 4 * 4);
        }
        for (int p = 0; p < 4; p += 3) {
            tex3d_pattern<<<X * Y * Z / 4 / B, B>>>(l3, d_out, X, Y, Z, p, 0.5f);
            snprintf(what, sizeof what, "f32_3d_linear_half_%s", n3[p]);
            done("tex3d_pattern", what, X * Y * Z / 4 * 4);
        }
    }

    // 1D array of 65536 floats
    {
        cudaChannelFormatDesc cd = cudaCreateChannelDesc<float>();
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, N, 0));
        std::vector<float> h(N);
        for (int i = 0; i < N; i++) h[i] = (float)(i % 4099);
        CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), N * 4, N * 4, 1, cudaMemcpyHostToDevice));
        cudaTextureObject_t p1 = tex_of(a, cudaFilterModePoint), l1 = tex_of(a, cudaFilterModeLinear);
        const char *n1[] = {"row", "stride2", "stride32"};
        for (int p = 0; p < 3; p++) {
            tex1d_pattern<<<N / B, B>>>(p1, d_out, N, p, 0.0f);
            snprintf(what, sizeof what, "f32_1d_point_%s", n1[p]);
            done("tex1d_pattern", what, N * 4);
        }
        tex1d_pattern<<<N / B, B>>>(l1, d_out, N, 0, 0.5f);
        done("tex1d_pattern", "f32_1d_linear_half_row", N * 4);
    }

    // tex1Dfetch on linear memory, and a pitch-2D texture
    float *lin;
    CK(cudaMalloc(&lin, N * 4));
    {
        std::vector<float> h(N);
        for (int i = 0; i < N; i++) h[i] = (float)(i % 4099);
        CK(cudaMemcpy(lin, h.data(), N * 4, cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = lin;
        rd.res.linear.desc = cudaCreateChannelDesc<float>();
        rd.res.linear.sizeInBytes = N * 4;
        cudaTextureObject_t tf = make_tex(rd, cudaFilterModePoint, false, cudaAddressModeClamp);
        const char *nf[] = {"row", "stride2", "stride32", "random"};
        if (getenv("TEX_PROBE_MASKS")) {
            const unsigned masks[] = {0xffffffffu, 0xffu, 0xffffu, 0x01010101u, 0x1u};
            for (unsigned m : masks) {
                fetch1d_masked<<<1, 32>>>(tf, d_out, N, m);
                snprintf(what, sizeof what, "fetch1d_1warp_mask%08x", m);
                done("fetch1d_masked", what, 32 * 4);
            }
        }
        for (int p = 0; p < 4; p++) {
            fetch1d_pattern<<<N / B, B>>>(tf, d_out, N, p);
            snprintf(what, sizeof what, "fetch1d_%s", nf[p]);
            done("fetch1d_pattern", what, N * 4);
        }
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = lin;
        rd.res.pitch2D.desc = cudaCreateChannelDesc<float>();
        rd.res.pitch2D.width = W;
        rd.res.pitch2D.height = H;
        rd.res.pitch2D.pitchInBytes = W * 4;
        cudaTextureObject_t pp = make_tex(rd, cudaFilterModePoint, false, cudaAddressModeClamp);
        cudaTextureObject_t pl = make_tex(rd, cudaFilterModeLinear, false, cudaAddressModeClamp);
        for (int p = 0; p < 3; p++) {
            tex2d_pattern<float><<<N / B, B>>>(pp, d_out, W, H, p, 0.0f);
            snprintf(what, sizeof what, "pitch2d_point_%s", pname[p]);
            done("tex2d_pattern<float>", what, N * 4);
        }
        tex2d_pattern<float><<<N / B, B>>>(pl, d_out, W, H, 0, 0.5f);
        done("tex2d_pattern<float>", "pitch2d_linear_half_row", N * 4);
        for (int p = 0; p < 7; p++) {
            gld2d_pattern<<<N / B, B>>>(lin, d_out, W, H, p);
            snprintf(what, sizeof what, "gld_%s", pname[p]);
            done("gld2d_pattern", what, N * 4);
        }
    }

    // surfaces on a 256x256 float array
    {
        cudaArray_t as = make_array2d<float>(W, H, cudaArraySurfaceLoadStore);
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = as;
        cudaSurfaceObject_t s;
        CK(cudaCreateSurfaceObject(&s, &rd));
        if (getenv("TEX_PROBE_MASKS")) {
            const unsigned masks[] = {0xffffffffu, 0xffu, 0xffffu, 0x01010101u, 0x1u};
            for (unsigned m : masks) {
                surf2d_read_masked<<<1, 32>>>(s, d_out, W, H, m);
                snprintf(what, sizeof what, "surf_read_1warp_mask%08x", m);
                done("surf2d_read_masked", what, 32 * 4);
            }
        }
        for (int p = 0; p < 5; p++) {
            if (p == 4) continue;
            surf2d_read<<<N / B, B>>>(s, d_out, W, H, p);
            snprintf(what, sizeof what, "surf_read_%s", pname[p]);
            done("surf2d_read", what, N * 4);
        }
        for (int p = 0; p < 3; p++) {
            surf2d_write<<<N / B, B>>>(s, W, H, p);
            snprintf(what, sizeof what, "surf_write_%s", pname[p]);
            done("surf2d_write", what, 4);
            // the array after the writes
            std::vector<float> h(N);
            CK(cudaMemcpy2DFromArray(h.data(), W * 4, as, 0, 0, W * 4, H, cudaMemcpyDeviceToHost));
            char name[512];
            snprintf(name, sizeof name, "%s/%03d_%s_array.bin", DIR.c_str(), launch_no - 1, what);
            FILE *f = fopen(name, "wb");
            if (f) { fwrite(h.data(), 4, N, f); fclose(f); }
        }
    }

    // the rotation example, 1024 x 1024
    {
        const int width = 1024, height = 1024;
        std::vector<float> h((size_t)width * height);
        for (int i = 0; i < width * height; ++i) h[i] = i;
        cudaChannelFormatDesc cd = cudaCreateChannelDesc(32, 0, 0, 0, cudaChannelFormatKindFloat);
        cudaArray_t a;
        CK(cudaMallocArray(&a, &cd, width, height));
        CK(cudaMemcpy2DToArray(a, 0, 0, h.data(), width * 4, width * 4, height, cudaMemcpyHostToDevice));
        cudaResourceDesc rd;
        memset(&rd, 0, sizeof rd);
        rd.resType = cudaResourceTypeArray;
        rd.res.array.array = a;
        cudaTextureObject_t t = make_tex(rd, cudaFilterModeLinear, true, cudaAddressModeWrap);
        dim3 tb(16, 16), nb(width / 16, height / 16);
        transformKernel<<<nb, tb>>>(d_out, t, width, height, 0.5f);
        done("transformKernel", "rotate_1024", (size_t)width * height * 4);
        if (getenv("TEX_PROBE_MASKS")) {
            cudaTextureObject_t tq = make_tex(rd, cudaFilterModePoint, false, cudaAddressModeClamp);
            struct Q { int4 dx, dy; const char *n; };
            const Q qs[] = {
                {{0, 0, 0, 0}, {0, 0, 0, 0}, "same"},        {{0, 4, 0, 4}, {0, 0, 0, 0}, "x0_4"},
                {{0, 0, 0, 0}, {0, 2, 0, 2}, "y0_2"},        {{0, 8, 0, 8}, {0, 0, 0, 0}, "x0_8"},
                {{0, 0, 0, 0}, {0, 4, 0, 4}, "y0_4"},        {{0, 0, 0, 0}, {0, 8, 0, 8}, "y0_8"},
                {{0, 4, 0, 4}, {0, 0, 2, 2}, "x0_4_y0_2"},   {{0, 8, 0, 8}, {0, 0, 4, 4}, "x0_8_y0_4"},
                {{0, 0, 0, 0}, {0, 8, 16, 24}, "y0_8_16_24"}, {{0, 16, 32, 48}, {0, 0, 0, 0}, "x0_16_32_48"},
                {{0, 16, 0, 16}, {0, 0, 0, 0}, "x0_16"},     {{0, 4, 8, 0}, {0, 0, 0, 2}, "x0_4_8_y2"},
                {{0, 4, 8, 12}, {0, 0, 0, 0}, "x0_4_8_12"},  {{0, 0, 0, 0}, {0, 2, 4, 6}, "y0_2_4_6"},
                {{0, 8, 16, 24}, {0, 0, 0, 0}, "x0_8_16_24"}, {{0, 0, 0, 0}, {0, 4, 8, 12}, "y0_4_8_12"},
            };
            for (const Q &q : qs) {
                tex2d_quadset<<<1, 32>>>(tq, d_out, q.dx, q.dy);
                snprintf(what, sizeof what, "quadset_%s", q.n);
                done("tex2d_quadset", what, 32 * 4);
            }
        }
    }
    fclose(LIST);
    printf("launches=%d\n", launch_no);
    return 0;
}
