// Texture and surface sweeps for the H200 (issue 10). Build and run:
//   nvcc -O3 -arch=sm_90 -o sweep tests/hw/texture/sweep.cu && ./sweep OUT.bin [surf|risky|targeted|trilinear|triprobe|unnorm|refuse]
// Every case: a texture (or surface) object of one configuration, a list of coordinate records
// and what the GPU returned for each; the file format is described in tests/hw/texture/README.md
// and read by tests/memory/texture_words.rs, which runs the same kernels (sweep_kernels.cu, via its
// committed PTX) in gpumemsim on the same texels and coordinates and compares every word.
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <cmath>
#include <vector>
#include <string>
#include "sweep_kernels.cu"

#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { \
  fprintf(stderr, "%s:%d %s: %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)

static FILE* g_out;
static uint64_t g_state = 0x5eed;
static uint64_t next_rand() {  // splitmix64
  uint64_t z = (g_state += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
static uint32_t fbits(float f) { uint32_t u; memcpy(&u, &f, 4); return u; }

enum { U8, I8, U16, I16, U32, I32, F16, F32 };
static const int kBits[8] = {8, 8, 16, 16, 32, 32, 16, 32};
static const char* kName[8] = {"u8", "i8", "u16", "i16", "u32", "i32", "f16", "f32"};
static cudaChannelFormatKind kind_of(int t) {
  return t == F16 || t == F32 ? cudaChannelFormatKindFloat
         : (t == I8 || t == I16 || t == I32) ? cudaChannelFormatKindSigned
                                              : cudaChannelFormatKindUnsigned;
}
static cudaChannelFormatDesc desc_of(int t, int ch) {
  int b = kBits[t];
  return cudaCreateChannelDesc(b, ch > 1 ? b : 0, ch > 2 ? b : 0, ch > 2 ? b : 0, kind_of(t));
}

struct Case {
  char kernel[32];
  uint32_t f[32];
};
enum { RES, CHT, CHN, READ, FILT, AD0, AD1, AD2, NORM, BO0, BO1, BO2, BO3, W, H, D, PITCH, N,
       DATA, OUTW, SURF, AFTER };

// Random texels of one channel type (floats finite; f32 from a modest range with random bits).
static void fill_random(std::vector<uint8_t>& v, int t) {
  int cb = kBits[t] / 8;
  for (size_t i = 0; i + cb <= v.size(); i += cb) {
    uint64_t d = next_rand();
    if (t == F32) {
      uint32_t u = (uint32_t)d;
      int e = 127 - 6 + (int)((d >> 32) % 16);  // 2^-6 .. 2^9
      u = (u & 0x807fffffu) | ((uint32_t)e << 23);
      memcpy(&v[i], &u, 4);
    } else if (t == F16) {
      uint16_t h = (uint16_t)d;
      if (((h >> 10) & 31) == 31) h ^= 0x4000;
      memcpy(&v[i], &h, 2);
    } else {
      memcpy(&v[i], &d, cb);
    }
  }
}

static void write_case(Case& c, const std::vector<uint8_t>& data, const std::vector<uint32_t>& coords,
                       const std::vector<uint32_t>& out, const std::vector<uint8_t>* after) {
  c.f[DATA] = data.size();
  fwrite(&c, sizeof c, 1, g_out);
  fwrite(data.data(), 1, data.size(), g_out);
  fwrite(coords.data(), 4, coords.size(), g_out);
  fwrite(out.data(), 4, out.size(), g_out);
  if (after) fwrite(after->data(), 1, after->size(), g_out);
}

static bool g_unnorm = false;  // `unnorm` mode (issue 32): more far coordinates per axis
// Coordinates for one axis of extent n, unnormalized (texel units).
static std::vector<float> axis_values(int n, bool fine) {
  std::vector<float> v = {-INFINITY, -1e30f, -10.3f, -5.0f, -1.0f, -0.75f, -0.5f, -0.25f,
                          -1e-30f, -0.0f, 0.0f, 1e-30f, 1e-7f, (float)n - 1e-6f,
                          nextafterf((float)n, 0.0f), (float)n, nextafterf((float)n, 1e9f),
                          2.0f * n - 0.5f, 2.0f * n + 0.25f, 3.0f * n + 0.7f, 1e30f, INFINITY, NAN};
  for (int k = -8; k <= 4 * n + 8; ++k) v.push_back(k / 4.0f);
  for (int k = 0; k < 16; ++k) v.push_back(nextafterf(k * 0.5f, -1e9f));
  for (int k = 0; k < 16; ++k) v.push_back(nextafterf(k * 0.5f, 1e9f));
  if (fine)
    for (int k = 0; k <= 2048; ++k) v.push_back(1.0f + k / 2048.0f);
  if (g_unnorm)
    for (float f : {-2.0f * n - 0.25f, -3.0f * n + 0.6f, -(float)n - 0.5f, 100.25f, -100.75f,
                    1000.5f, 65536.5f, -65537.25f, 1048576.75f, 16777216.0f, -16777216.0f,
                    1e10f, -1e10f, 5.0f * n + 0.5f, -5.0f * n - 0.5f})
      v.push_back(f);
  for (int k = 0; k < 48; ++k) {
    uint64_t d = next_rand();
    v.push_back((float)((double)(d >> 11) / 9007199254740992.0 * 4.0 * n - 1.5 * n));
  }
  return v;
}

// (x, y, z, lod) records for a texture of dims 1-3, unnormalized or normalized.
static std::vector<uint32_t> coord_records(int dims, int w, int h, int d, bool norm, bool fine) {
  std::vector<uint32_t> r;
  auto push = [&](float x, float y, float z, float l) {
    if (norm) { x /= w; y /= h; z /= d; }
    r.push_back(fbits(x)); r.push_back(fbits(y)); r.push_back(fbits(z)); r.push_back(fbits(l));
  };
  std::vector<float> xs = axis_values(w, fine);
  float cy = h > 1 ? 1.5f : 0.5f, cz = d > 1 ? 1.5f : 0.5f;
  for (float x : xs) push(x, cy, cz, 0.0f);
  if (dims >= 2)
    for (float y : axis_values(h, false)) push(2.5f, y, cz, 0.0f);
  if (dims >= 3)
    for (float z : axis_values(d, false)) push(1.5f, cy, z, 0.0f);
  for (int k = 0; k < 96; ++k) {  // random points around the texture
    float c[3];
    int ext[3] = {w, h, d};
    for (int a = 0; a < 3; ++a) {
      uint64_t q = next_rand();
      c[a] = (float)((double)(q >> 11) / 9007199254740992.0 * 3.0 * ext[a] - ext[a]);
    }
    push(c[0], c[1], c[2], 0.0f);
  }
  if (dims >= 2)  // a grid over the texel edges and centres
    for (int j = -2; j <= 2 * h + 2; ++j)
      for (int i = -2; i <= 2 * w + 2; ++i) push(i * 0.5f, j * 0.5f, cz, 0.0f);
  return r;
}

static const char* sfx(int t, int read) {
  if (read == 1 || t == F16 || t == F32) return "f";
  return (t == I8 || t == I16 || t == I32) ? "i" : "u";
}

static void run_fetch(const char* kname, cudaTextureObject_t tex, const std::vector<uint32_t>& coords,
                      std::vector<uint32_t>& out, int outw) {
  int n = coords.size() / 4;
  void *dc, *dout;
  CK(cudaMalloc(&dc, coords.size() * 4));
  CK(cudaMalloc(&dout, (size_t)n * outw * 4));
  CK(cudaMemcpy(dc, coords.data(), coords.size() * 4, cudaMemcpyHostToDevice));
  CK(cudaMemset(dout, 0xee, (size_t)n * outw * 4));
  struct K { const char* name; void* fn; };
#define KS(S) {"tex1d_" #S, (void*)tex1d_##S}, {"tex2d_" #S, (void*)tex2d_##S}, \
  {"tex3d_" #S, (void*)tex3d_##S}, {"tex2dlod_" #S, (void*)tex2dlod_##S},        \
  {"tex1dfetch_" #S, (void*)tex1dfetch_##S}, {"tld4r_" #S, (void*)tld4r_##S},    \
  {"tld4g_" #S, (void*)tld4g_##S}, {"tld4b_" #S, (void*)tld4b_##S}, {"tld4a_" #S, (void*)tld4a_##S}
  static const K ks[] = {KS(f), KS(i), KS(u)};
  void* fn = nullptr;
  for (auto& k : ks) if (!strcmp(k.name, kname)) fn = k.fn;
  if (!fn) { fprintf(stderr, "no kernel %s\n", kname); exit(1); }
  void* args[] = {&tex, &dc, &dout, &n};
  CK(cudaLaunchKernel(fn, dim3((n + 127) / 128), dim3(128), args, 0, 0));
  CK(cudaDeviceSynchronize());
  out.resize((size_t)n * outw);
  CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
  CK(cudaFree(dc));
  CK(cudaFree(dout));
}

// The CUDA array (or linear / pitch-2D memory) of case `c` holding `data`, and a texture object
// over it with the case's modes; false (and a message) when the runtime refuses the configuration.
static bool make_texture(const Case& c, int dims, const std::vector<uint8_t>& data,
                         const float border[4], cudaTextureObject_t* tex_out, cudaArray_t* arr_out,
                         void** lin_out) {
  int res = c.f[RES], t = c.f[CHT], ch = c.f[CHN], w = c.f[W], h = c.f[H];
  int tb = kBits[t] / 8 * ch;
  size_t pitch = c.f[PITCH];
  size_t hh = dims >= 2 ? h : 1, dd = dims >= 3 ? c.f[D] : 1;
  int d = c.f[D];
  int am = c.f[AD0];
  cudaArray_t arr = nullptr;
  void* lin = nullptr;
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  cudaChannelFormatDesc cd = desc_of(t, ch);
  if (res == 0) {
    cudaExtent ext = make_cudaExtent(w, dims >= 2 ? h : 0, dims >= 3 ? d : 0);
    CK(cudaMalloc3DArray(&arr, &cd, ext, 0));
    cudaMemcpy3DParms p;
    memset(&p, 0, sizeof p);
    p.srcPtr = make_cudaPitchedPtr(const_cast<uint8_t*>(data.data()), (size_t)w * tb, w, hh);
    p.dstArray = arr;
    p.extent = make_cudaExtent(w, hh, dd);
    p.kind = cudaMemcpyHostToDevice;
    CK(cudaMemcpy3D(&p));
    rd.resType = cudaResourceTypeArray;
    rd.res.array.array = arr;
  } else {
    CK(cudaMalloc(&lin, data.size()));
    CK(cudaMemcpy(lin, data.data(), data.size(), cudaMemcpyHostToDevice));
    if (res == 1) {
      rd.resType = cudaResourceTypeLinear;
      rd.res.linear.devPtr = lin;
      rd.res.linear.desc = cd;
      rd.res.linear.sizeInBytes = data.size();
    } else {
      rd.resType = cudaResourceTypePitch2D;
      rd.res.pitch2D.devPtr = lin;
      rd.res.pitch2D.desc = cd;
      rd.res.pitch2D.width = w;
      rd.res.pitch2D.height = h;
      rd.res.pitch2D.pitchInBytes = pitch;
    }
  }
  cudaTextureDesc td;
  memset(&td, 0, sizeof td);
  static const cudaTextureAddressMode am_of[4] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                                  cudaAddressModeMirror, cudaAddressModeBorder};
  for (int k = 0; k < 3; ++k) td.addressMode[k] = am_of[am];
  td.filterMode = c.f[FILT] ? cudaFilterModeLinear : cudaFilterModePoint;
  td.readMode = c.f[READ] ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
  td.normalizedCoords = c.f[NORM];
  for (int k = 0; k < 4; ++k) td.borderColor[k] = border[k];
  cudaTextureObject_t tex = 0;
  cudaError_t e = cudaCreateTextureObject(&tex, &rd, &td, nullptr);
  if (e != cudaSuccess) {
    fprintf(stderr, "cudaCreateTextureObject: %s\n", cudaGetErrorString(e));
    cudaGetLastError();
    if (arr) cudaFreeArray(arr);
    if (lin) cudaFree(lin);
    *arr_out = nullptr;
    *lin_out = nullptr;
    return false;
  }
  *tex_out = tex;
  *arr_out = arr;
  *lin_out = lin;
  return true;
}

static int g_cases = 0;

// One texture case over a CUDA array (dims 1-3) or linear/pitch memory; also its txq case.
static void tex_case(const char* op, int res, int t, int ch, int read, int filt, int am, int norm,
                     int dims, int w, int h, int d, bool fine, bool do_txq) {
  Case c;
  memset(&c, 0, sizeof c);
  c.f[RES] = res; c.f[CHT] = t; c.f[CHN] = ch; c.f[READ] = read; c.f[FILT] = filt;
  c.f[AD0] = c.f[AD1] = c.f[AD2] = am; c.f[NORM] = norm;
  float border[4] = {0.25f, -0.5f, 2.0f, 0.75f};
  for (int k = 0; k < 4; ++k) c.f[BO0 + k] = fbits(border[k]);
  c.f[W] = w; c.f[H] = dims >= 2 ? h : 0; c.f[D] = dims >= 3 ? d : 0;
  int tb = kBits[t] / 8 * ch;
  size_t pitch = (size_t)w * tb;
  if (res == 2) pitch = (pitch + 63) / 64 * 64 + 64;  // a padded pitch
  c.f[PITCH] = res == 0 ? 0 : pitch;
  size_t hh = dims >= 2 ? h : 1, dd = dims >= 3 ? d : 1;
  std::vector<uint8_t> data(res == 2 ? pitch * hh : (size_t)w * hh * dd * tb);
  fill_random(data, t);
  if (t == F32 && fine) {  // 0, 1, 0, 1 ... shows the filter weights themselves
    for (size_t i = 0; i < data.size() / 4; ++i) { float v = (i / ch) % 2; memcpy(&data[i * 4], &v, 4); }
  }
  if (w == 256 && (t == U8 || t == I8))
    for (int i = 0; i < 256 * ch; ++i) data[i] = (uint8_t)(i / ch);
  if (w == 65536 && (t == U16 || t == I16 || t == F16))
    for (int i = 0; i < 65536 * ch; ++i) { uint16_t v = i / ch; memcpy(&data[2 * i], &v, 2); }
  cudaArray_t arr = nullptr;
  void* lin = nullptr;
  cudaTextureObject_t tex = 0;
  if (!make_texture(c, dims, data, border, &tex, &arr, &lin)) {
    fprintf(stderr, "skip %s %s ch%d read%d filt%d am%d norm%d\n", op, kName[t], ch, read, filt,
            am, norm);
    return;
  }
  std::vector<uint32_t> coords;
  if (res == 1) {  // integer texel indices
    int n = w;
    std::vector<int> xs = {INT32_MIN, -1000000, -65536, -100, -5, -2, -1};
    for (int k = 0; k <= n + 3; ++k) xs.push_back(k);
    for (int v : {2 * n, 5 * n, 65535, 65536, 1 << 20, 1 << 27, 1 << 28, INT32_MAX}) xs.push_back(v);
    for (int x : xs) { coords.push_back((uint32_t)x); coords.push_back(0); coords.push_back(0); coords.push_back(0); }
  } else if (w == 256 || w == 65536) {  // decode tables: every texel centre
    for (int i = 0; i < w; ++i) {
      float x = i + 0.5f;
      if (norm) x /= w;
      coords.push_back(fbits(x)); coords.push_back(fbits(0.5f)); coords.push_back(fbits(0.5f)); coords.push_back(0);
    }
  } else {
    coords = coord_records(dims, w, h, d, norm, fine);
    if (!strncmp(op, "tex2dlod", 8)) {
      float lods[] = {0.0f, 0.5f, 1.0f, 3.0f, -1.0f, -INFINITY, NAN};
      size_t n0 = coords.size() / 4;
      std::vector<uint32_t> more;
      for (size_t i = 0; i < n0; ++i) {
        for (int k = 0; k < 3; ++k) more.push_back(coords[4 * i + k]);
        more.push_back(fbits(lods[i % 7]));
      }
      coords = more;
    }
  }
  char kname[32];
  snprintf(kname, sizeof kname, "%s_%s", op, sfx(t, read));
  std::vector<uint32_t> out;
  run_fetch(kname, tex, coords, out, 4);
  strncpy(c.kernel, kname, 31);
  c.f[N] = coords.size() / 4;
  c.f[OUTW] = 4;
  write_case(c, data, coords, out, nullptr);
  ++g_cases;
  if (do_txq) {
    unsigned* dq;
    CK(cudaMalloc(&dq, 40));
    txq_all<<<1, 1>>>(tex, dq);
    CK(cudaDeviceSynchronize());
    std::vector<uint32_t> q(10);
    CK(cudaMemcpy(q.data(), dq, 40, cudaMemcpyDeviceToHost));
    CK(cudaFree(dq));
    Case cq = c;
    memset(cq.kernel, 0, 32);
    strcpy(cq.kernel, "txq_all");
    cq.f[N] = 1;
    cq.f[OUTW] = 10;
    std::vector<uint32_t> zc(4, 0);
    write_case(cq, data, zc, q, nullptr);
    ++g_cases;
  }
  CK(cudaDestroyTextureObject(tex));
  if (arr) CK(cudaFreeArray(arr));
  if (lin) CK(cudaFree(lin));
}

// One case of the targeted sweeps (issue 10, branch texx): a CUDA array of `dims` dimensions
// holding `data`, clamp or border addressing, unnormalized coordinates, the given coordinates.
static bool g_tri = false;  // `trilinear` mode (issue 10, branch texf3): see targeted_case
static void targeted_case(const char* op, int t, int ch, int read, int filt, int am, int dims,
                          int w, int h, int d, const std::vector<uint8_t>& data,
                          const std::vector<uint32_t>& coords);
// `trilinear` mode: the 4x4x4 random f32 and f16 cubes of the targeted sweep (the same texels and
// points: the generator runs as in `targeted`, writing only these cases), each also fetched with
// its records in three other orders (reversed, rotated by one lane, rotated by 4,096), so that
// every point runs in another lane, warp and block: whether a trilinear result depends on where
// (or when) the point is fetched.
static void tri_replicas(const char* op, int t, int ch, int read, int filt, int am, int dims,
                         int w, int h, int d, const std::vector<uint8_t>& data,
                         const std::vector<uint32_t>& coords) {
  size_t n = coords.size() / 4;
  for (int v = 0; v < 4; ++v) {
    std::vector<uint32_t> c2(coords.size());
    for (size_t i = 0; i < n; ++i) {
      size_t j = v == 0 ? i : v == 1 ? n - 1 - i : v == 2 ? (i + 1) % n : (i + 4096) % n;
      for (int k = 0; k < 4; ++k) c2[4 * j + k] = coords[4 * i + k];
    }
    g_tri = false;
    targeted_case(op, t, ch, read, filt, am, dims, w, h, d, data, c2);
    g_tri = true;
  }
}
static void targeted_case(const char* op, int t, int ch, int read, int filt, int am, int dims,
                          int w, int h, int d, const std::vector<uint8_t>& data,
                          const std::vector<uint32_t>& coords) {
  if (g_tri) {
    if (dims == 3 && w == 4 && (t == F32 || t == F16))
      tri_replicas(op, t, ch, read, filt, am, dims, w, h, d, data, coords);
    return;
  }
  Case c;
  memset(&c, 0, sizeof c);
  c.f[CHT] = t; c.f[CHN] = ch; c.f[READ] = read; c.f[FILT] = filt;
  c.f[AD0] = c.f[AD1] = c.f[AD2] = am;
  float border[4] = {0.25f, -0.5f, 2.0f, 0.75f};
  for (int k = 0; k < 4; ++k) c.f[BO0 + k] = fbits(border[k]);
  c.f[W] = w; c.f[H] = dims >= 2 ? h : 0; c.f[D] = dims >= 3 ? d : 0;
  cudaArray_t arr = nullptr;
  void* lin = nullptr;
  cudaTextureObject_t tex = 0;
  if (!make_texture(c, dims, data, border, &tex, &arr, &lin)) exit(1);
  char kname[32];
  snprintf(kname, sizeof kname, "%s_%s", op, sfx(t, read));
  std::vector<uint32_t> out;
  run_fetch(kname, tex, coords, out, 4);
  strncpy(c.kernel, kname, 31);
  c.f[N] = coords.size() / 4;
  c.f[OUTW] = 4;
  write_case(c, data, coords, out, nullptr);
  ++g_cases;
  CK(cudaDestroyTextureObject(tex));
  CK(cudaFreeArray(arr));
}

static void push_rec(std::vector<uint32_t>& r, float x, float y, float z) {
  r.push_back(fbits(x)); r.push_back(fbits(y)); r.push_back(fbits(z)); r.push_back(0);
}

// Random points inside a w x h x d texture (texel units), n of them.
static std::vector<uint32_t> random_inside(int n, int w, int h, int d) {
  std::vector<uint32_t> r;
  for (int k = 0; k < n; ++k) {
    float c[3];
    int ext[3] = {w, h, d};
    for (int a = 0; a < 3; ++a) c[a] = (float)((double)(next_rand() >> 11) / 9007199254740992.0 * ext[a]);
    push_rec(r, c[0], c[1], c[2]);
  }
  return r;
}

// The targeted sweeps: signed 8-bit normalized filtering over every weight sum, trilinear
// weights one corner at a time, 3D filtering of random texels.
static void targeted() {
  // Signed 8-bit ramp: channel 0 holds -128 .. 127, channel 1 127 .. -128, channels 2 and 3
  // random; x = i + 0.5 + a/256 for every texel i and weight a: channel 0 reads
  // S = 256 * (i - 128) + a, every weight sum of two neighbours once.
  std::vector<uint8_t> ramp(256 * 4);
  fill_random(ramp, I8);
  for (int i = 0; i < 256; ++i) { ramp[4 * i] = (uint8_t)(i - 128); ramp[4 * i + 1] = (uint8_t)(127 - i); }
  std::vector<uint32_t> rc;
  for (int i = 0; i < 256; ++i)
    for (int a = 0; a < 256; ++a) push_rec(rc, i + 0.5f + a / 256.0f, 0.5f, 0.5f);
  targeted_case("tex2d", I8, 4, 1, 1, 1, 2, 256, 1, 1, ramp, rc);  // 2D, one row, clamp
  targeted_case("tex1d", I8, 4, 1, 1, 1, 1, 256, 1, 1, ramp, rc);  // 1D, clamp
  targeted_case("tex1d", I8, 4, 1, 1, 3, 1, 256, 1, 1, ramp, rc);  // 1D, border
  // Signed 8-bit, four taps: random texels, random points.
  std::vector<uint8_t> r16(16 * 16 * 4);
  fill_random(r16, I8);
  targeted_case("tex2d", I8, 4, 1, 1, 1, 2, 16, 16, 1, r16, random_inside(8192, 16, 16, 1));
  // Trilinear weights: a 2x2x2 f32 texture whose channel k is 1 at corner k (first texture) or
  // corner k + 4 (second), 0 elsewhere, read at x = 0.5 + ax/256 (likewise y, z): channel k
  // returns that corner's weight / 256. One axis takes every weight, the other two every pair
  // of 16 weights; then random triples.
  const int V[16] = {0, 1, 2, 3, 17, 64, 85, 127, 128, 129, 170, 191, 200, 253, 254, 255};
  std::vector<uint32_t> tc;
  for (int f = 0; f < 3; ++f)
    for (int a = 0; a < 256; ++a)
      for (int b : V) for (int e : V) {
        int q[3];
        q[f] = a; q[(f + 1) % 3] = b; q[(f + 2) % 3] = e;
        push_rec(tc, 0.5f + q[0] / 256.0f, 0.5f + q[1] / 256.0f, 0.5f + q[2] / 256.0f);
      }
  for (int k = 0; k < 4096; ++k) {
    uint64_t q = next_rand();
    push_rec(tc, 0.5f + (q & 255) / 256.0f, 0.5f + (q >> 8 & 255) / 256.0f, 0.5f + (q >> 16 & 255) / 256.0f);
  }
  for (int half = 0; half < 2; ++half) {
    std::vector<uint8_t> onehot(8 * 4 * 4, 0);
    for (int k = 0; k < 4; ++k) { float one = 1.0f; memcpy(&onehot[((k + 4 * half) * 4 + k) * 4], &one, 4); }
    targeted_case("tex3d", F32, 4, 0, 1, 1, 3, 2, 2, 2, onehot, tc);
  }
  // Trilinear filtering of random texels: every filtered type, random points.
  for (int t : {F32, F16, U8, I8, U16, I16}) {
    int read = (t == F32 || t == F16) ? 0 : 1;
    std::vector<uint8_t> cube(4 * 4 * 4 * kBits[t] / 8);
    fill_random(cube, t);
    targeted_case("tex3d", t, 1, read, 1, 1, 3, 4, 4, 4, cube, random_inside(8192, 4, 4, 4));
  }
}

// `trilinear` mode, second part: 2 x 2 x 64 f32 arrays of 4 channels whose slice z holds one
// value per channel (all four texels alike; random sign, exponent 2^-12 .. 2^11, random
// mantissa), read between two slices at x = y = 1 (all four weights alike) with a random z weight:
// a trilinear sum of two slices with known block exponents and values. In the second array texel
// (1, 1) of every slice holds a value 2^0 .. 2^12 times larger and the points take x and y
// weights of 1 to 31, so that a slice's block exponent exceeds its value's.
static void tri_slices() {
  for (int big = 0; big < 2; ++big) {
    const int D = 64;
    std::vector<uint8_t> data(2 * 2 * D * 4 * 4);
    for (int z = 0; z < D; ++z)
      for (int k = 0; k < 4; ++k) {
        uint64_t q = next_rand();
        uint32_t u = ((uint32_t)q & 0x807fffffu) | ((uint32_t)(127 - 12 + (int)((q >> 32) % 24)) << 23);
        uint32_t g = u;
        if (big) {
          int e = (int)((u >> 23) & 255) + (int)((q >> 40) % 13);
          g = ((uint32_t)(q >> 48) & 0x8000u) << 16 | (uint32_t)(e > 254 ? 254 : e) << 23 |
              ((uint32_t)next_rand() & 0x7fffffu);
        }
        for (int i = 0; i < 4; ++i) {
          uint32_t v = (big && i == 3) ? g : u;
          memcpy(&data[((z * 4 + i) * 4 + k) * 4], &v, 4);
        }
      }
    std::vector<uint32_t> r;
    for (int n = 0; n < 8192; ++n) {
      uint64_t q = next_rand();
      int z = (int)(q % (D - 1)), az = 1 + (int)((q >> 8) % 255);
      float x = 1.0f, y = 1.0f;
      if (big) { x = 0.5f + (1 + (int)((q >> 16) % 31)) / 256.0f; y = 0.5f + (1 + (int)((q >> 24) % 31)) / 256.0f; }
      push_rec(r, x, y, z + 0.5f + az / 256.0f);
    }
    targeted_case("tex3d", F32, 4, 0, 1, 1, 3, 2, 2, D, data, r);
  }
}

// `triprobe` mode (issue 10, branch texf4): 2 x 2 x 64 f32 arrays of 4 channels read at x = 1,
// y = 0.5 (row 0 only, both columns at weight T/2 for an even slice weight T) between two
// slices at an even z weight. Even slices hold +G at (0, 0) and -G at (1, 0) (first array: the
// slice sums to exactly 0 but keeps G's block exponent), or -G' with G' a few f32 steps below
// G (second array: a small residual at G's block exponent); odd slices hold B at both texels
// (sum T * B / 256, exact). G's exponent is random in 2^-8 .. 2^12, B's in 2^-24 .. 2^12, signs
// random; the point's lower slice is even or odd at random, so either slice is the larger.
// What the H200 returns is then the other slice's sum as the texture unit aligns it to G's
// accumulator.
static void tri_probe() {
  for (int resid = 0; resid < 2; ++resid) {
    const int D = 64;
    std::vector<uint8_t> data(2 * 2 * D * 4 * 4);
    for (int z = 0; z < D; ++z)
      for (int k = 0; k < 4; ++k) {
        uint64_t q = next_rand();
        uint32_t v0, v1;
        if (z % 2 == 0) {
          uint32_t g = ((uint32_t)q & 0x807fffffu) | ((uint32_t)(127 - 8 + (int)((q >> 32) % 21)) << 23);
          uint32_t m = g & 0x7fffffu;
          uint32_t steps = resid ? 1 + (uint32_t)((q >> 40) % (1u << ((q >> 60) % 16 + 1))) : 0;
          if (steps > m) steps = m;
          v0 = g;
          v1 = (g - steps) ^ 0x80000000u;
        } else {
          v0 = v1 = ((uint32_t)q & 0x807fffffu) | ((uint32_t)(127 - 24 + (int)((q >> 32) % 37)) << 23);
        }
        for (int i = 0; i < 4; ++i) {
          uint32_t v = (i % 2 == 0) ? v0 : v1;
          if (z % 2 == 1) v = v0;
          memcpy(&data[((z * 4 + i) * 4 + k) * 4], &v, 4);
        }
      }
    std::vector<uint32_t> r;
    for (int n = 0; n < 8192; ++n) {
      uint64_t q = next_rand();
      int z = (int)(q % (D - 1)), az = 2 * (1 + (int)((q >> 8) % 127));
      push_rec(r, 1.0f, 0.5f, z + 0.5f + az / 256.0f);
    }
    targeted_case("tex3d", F32, 4, 0, 1, 1, 3, 2, 2, D, data, r);
  }
}

static int outw_of(const char* kname) { return strstr(kname, "_v4_") ? 4 : 1; }

// Surface cases over a 32-bit array (dims 2 or 3; or 1): reads at byte coordinates, then writes.
static void surf_case(const char* kname, int dims, bool risky) {
  int w = 5, h = dims >= 2 ? 4 : 0, d = dims >= 3 ? 3 : 0;
  size_t hh = h ? h : 1, dd = d ? d : 1;
  Case c;
  memset(&c, 0, sizeof c);
  c.f[CHT] = U32; c.f[CHN] = 1; c.f[W] = w; c.f[H] = h; c.f[D] = d; c.f[SURF] = 1;
  std::vector<uint8_t> data((size_t)w * hh * dd * 4);
  fill_random(data, U32);
  cudaChannelFormatDesc cd = desc_of(U32, 1);
  cudaArray_t arr;
  CK(cudaMalloc3DArray(&arr, &cd, make_cudaExtent(w, h, d), cudaArraySurfaceLoadStore));
  cudaMemcpy3DParms p;
  memset(&p, 0, sizeof p);
  p.srcPtr = make_cudaPitchedPtr(data.data(), (size_t)w * 4, w, hh);
  p.dstArray = arr;
  p.extent = make_cudaExtent(w, hh, dd);
  p.kind = cudaMemcpyHostToDevice;
  CK(cudaMemcpy3D(&p));
  cudaResourceDesc rd;
  memset(&rd, 0, sizeof rd);
  rd.resType = cudaResourceTypeArray;
  rd.res.array.array = arr;
  cudaSurfaceObject_t s;
  CK(cudaCreateSurfaceObject(&s, &rd));
  std::vector<int> xs, ys, zs;
  bool trap = strstr(kname, "trap") != nullptr;
  if (trap) { xs = {0, 4, 8, 16}; ys = {0, 1, 3}; zs = {0}; }
  else if (risky) { xs = {1, 2, 3, 5, 6, 7, 17, 18, 19}; ys = {0, 1}; zs = {0}; }
  else if (outw_of(kname) == 4) {  // 16-byte accesses: x a multiple of 16
    xs = {INT32_MIN, -1024, -32, -16, 0, 16, 32, 48, 1 << 20};
    ys = {INT32_MIN, -1, 0, 1, 3, 4, 9, INT32_MAX};
    zs = {0};
  } else {
    xs = {INT32_MIN, -1000, -8, -4, 0, 4, 8, 12, 16, 20, 24, 40, 1 << 20, INT32_MAX - 3};
    ys = {INT32_MIN, -1, 0, 1, 3, 4, 9, INT32_MAX};
    zs = dims >= 3 ? std::vector<int>{-1, 0, 2, 3, 7} : std::vector<int>{0};
  }
  bool is_store = !strncmp(kname, "sust", 4);
  std::vector<uint32_t> coords;
  for (int z : zs) for (int y : (dims >= 2 ? ys : std::vector<int>{0})) for (int x : xs) {
    coords.push_back(x); coords.push_back(y); coords.push_back(z);
    coords.push_back(0xA0000000u | (uint32_t)(coords.size() / 4));
  }
  int n = coords.size() / 4;
  int outw = strstr(kname, "_v4_") ? 4 : 1;
  void *dc, *dout = nullptr;
  CK(cudaMalloc(&dc, coords.size() * 4));
  CK(cudaMemcpy(dc, coords.data(), coords.size() * 4, cudaMemcpyHostToDevice));
  std::vector<uint32_t> out;
  std::vector<uint8_t> after(data.size());
  if (is_store) {
    void* args[] = {&s, &dc, &n};
    void* fn = !strcmp(kname, "sust2d_zero") ? (void*)sust2d_zero
               : !strcmp(kname, "sust2d_clamp") ? (void*)sust2d_clamp : (void*)sust3d_clamp;
    CK(cudaLaunchKernel(fn, dim3(1), dim3(1), args, 0, 0));
    CK(cudaDeviceSynchronize());
    memset(&p, 0, sizeof p);
    p.srcArray = arr;
    p.dstPtr = make_cudaPitchedPtr(after.data(), (size_t)w * 4, w, hh);
    p.extent = make_cudaExtent(w, hh, dd);
    p.kind = cudaMemcpyDeviceToHost;
    CK(cudaMemcpy3D(&p));
  } else {
    CK(cudaMalloc(&dout, (size_t)n * outw * 4));
    CK(cudaMemset(dout, 0xee, (size_t)n * outw * 4));
    void* args[] = {&s, &dc, &dout, &n};
    struct K { const char* name; void* fn; } ks[] = {
        {"suld2d_zero", (void*)suld2d_zero}, {"suld2d_clamp", (void*)suld2d_clamp},
        {"suld2d_trap", (void*)suld2d_trap}, {"suld1d_clamp", (void*)suld1d_clamp},
        {"suld3d_clamp", (void*)suld3d_clamp}, {"suld2d_v4_zero", (void*)suld2d_v4_zero},
        {"suld2d_u8_clamp", (void*)suld2d_u8_clamp}};
    void* fn = nullptr;
    for (auto& k : ks) if (!strcmp(k.name, kname)) fn = k.fn;
    CK(cudaLaunchKernel(fn, dim3((n + 127) / 128), dim3(128), args, 0, 0));
    CK(cudaDeviceSynchronize());
    out.resize((size_t)n * outw);
    CK(cudaMemcpy(out.data(), dout, out.size() * 4, cudaMemcpyDeviceToHost));
    CK(cudaFree(dout));
  }
  strncpy(c.kernel, kname, 31);
  c.f[N] = n;
  c.f[OUTW] = is_store ? 0 : outw;
  c.f[AFTER] = is_store ? after.size() : 0;
  write_case(c, data, coords, out, is_store ? &after : nullptr);
  ++g_cases;
  CK(cudaFree(dc));
  CK(cudaDestroySurfaceObject(s));
  CK(cudaFreeArray(arr));
}

// `refuse` mode (issue 32): which texture descriptors cudaCreateTextureObject refuses. For every
// resource (1D, 2D, 3D array, linear, pitch-2D) x texel format x read mode x filter x address
// mode x normalization, one line "refuse res R dims D fmt F read M filt L am A norm N err E NAME".
// Then mixed address modes per axis on a 2D array (x, y in every pair), unnormalized and
// normalized, point and linear, f32.
static void refuse_probe() {
  struct Fmt { const char* name; int t, ch; };
  static const Fmt fmts[] = {{"f32", F32, 1}, {"u8", U8, 1}, {"f32x4", F32, 4}, {"i32", I32, 1}, {"f16", F16, 1}};
  static const cudaTextureAddressMode am_of[4] = {cudaAddressModeWrap, cudaAddressModeClamp,
                                                  cudaAddressModeMirror, cudaAddressModeBorder};
  auto try_one = [&](int res, int dims, const Fmt& f, int read, int filt, const int am[3], int norm) {
    cudaChannelFormatDesc cd = desc_of(f.t, f.ch);
    int tb = kBits[f.t] / 8 * f.ch;
    cudaArray_t arr = nullptr;
    void* lin = nullptr;
    cudaResourceDesc rd;
    memset(&rd, 0, sizeof rd);
    if (res == 0) {
      cudaExtent ext = make_cudaExtent(8, dims >= 2 ? 4 : 0, dims >= 3 ? 2 : 0);
      CK(cudaMalloc3DArray(&arr, &cd, ext, 0));
      rd.resType = cudaResourceTypeArray;
      rd.res.array.array = arr;
    } else {
      CK(cudaMalloc(&lin, 1 << 16));
      if (res == 1) {
        rd.resType = cudaResourceTypeLinear;
        rd.res.linear.devPtr = lin;
        rd.res.linear.desc = cd;
        rd.res.linear.sizeInBytes = 64 * tb;
      } else {
        rd.resType = cudaResourceTypePitch2D;
        rd.res.pitch2D.devPtr = lin;
        rd.res.pitch2D.desc = cd;
        rd.res.pitch2D.width = 8;
        rd.res.pitch2D.height = 4;
        rd.res.pitch2D.pitchInBytes = 512;
      }
    }
    cudaTextureDesc td;
    memset(&td, 0, sizeof td);
    for (int k = 0; k < 3; ++k) td.addressMode[k] = am_of[am[k]];
    td.filterMode = filt ? cudaFilterModeLinear : cudaFilterModePoint;
    td.readMode = read ? cudaReadModeNormalizedFloat : cudaReadModeElementType;
    td.normalizedCoords = norm;
    cudaTextureObject_t tex = 0;
    cudaError_t e = cudaCreateTextureObject(&tex, &rd, &td, nullptr);
    cudaGetLastError();
    printf("refuse res %d dims %d fmt %s read %d filt %d am %d %d %d norm %d err %d %s\n", res, dims,
           f.name, read, filt, am[0], am[1], am[2], norm, (int)e, cudaGetErrorName(e));
    if (e == cudaSuccess) CK(cudaDestroyTextureObject(tex));
    if (arr) CK(cudaFreeArray(arr));
    if (lin) CK(cudaFree(lin));
  };
  for (int res = 0; res < 3; ++res)
    for (int dims = 1; dims <= 3; ++dims) {
      if (res == 1 && dims != 1) continue;
      if (res == 2 && dims != 2) continue;
      for (const Fmt& f : fmts) for (int read : {0, 1}) for (int filt : {0, 1})
        for (int a = 0; a < 4; ++a) for (int norm : {0, 1}) {
          int am[3] = {a, a, a};
          try_one(res, dims, f, read, filt, am, norm);
        }
    }
  for (int ax = 0; ax < 4; ++ax) for (int ay = 0; ay < 4; ++ay) for (int norm : {0, 1}) for (int filt : {0, 1}) {
    int am[3] = {ax, ay, 1};
    try_one(0, 2, fmts[0], 0, filt, am, norm);
  }
}

// `unnorm` mode (issue 32): wrap and mirror (and clamp and border for reference) with
// unnormalized coordinates, point and linear, f32, u8 read as normalized float, u8 element, and
// 4-channel f32, on 1D, 2D and 3D arrays; tld4 and pitch-2D too. Cases the runtime refuses are
// skipped (stderr names them; `refuse` lists every refusal).
static void unnorm_sweep() {
  g_unnorm = true;
  for (int am = 0; am < 4; ++am) for (int filt : {0, 1})
    tex_case("tex1d", 0, F32, 1, 0, filt, am, 0, 1, 7, 1, 1, true, false);  // 0,1,0,1 texels
  struct Fmt { int t, ch, read; };
  static const Fmt fmts[] = {{F32, 1, 0}, {U8, 1, 1}, {U8, 1, 0}, {F32, 4, 0}};
  for (const Fmt& f : fmts) for (int filt : {0, 1}) for (int am = 0; am < 4; ++am) {
    if (filt && f.t == U8 && !f.read) continue;  // linear needs a float result
    tex_case("tex1d", 0, f.t, f.ch, f.read, filt, am, 0, 1, 7, 1, 1, false, false);
    tex_case("tex2d", 0, f.t, f.ch, f.read, filt, am, 0, 2, 5, 4, 1, false, false);
    tex_case("tex3d", 0, f.t, f.ch, f.read, filt, am, 0, 3, 3, 2, 4, false, false);
  }
  for (int am = 0; am < 4; ++am) {
    tex_case("tld4r", 0, F32, 4, 0, 0, am, 0, 2, 5, 4, 1, false, false);
    tex_case("tld4a", 0, U8, 4, 1, 0, am, 0, 2, 5, 4, 1, false, false);
    for (int filt : {0, 1}) tex_case("tex2d", 2, F32, 1, 0, filt, am, 0, 2, 5, 4, 1, false, false);
  }
  g_unnorm = false;
}

int main(int argc, char** argv) {
  if (argc < 2) { fprintf(stderr, "usage: sweep OUT.bin [surf|risky|targeted|trilinear|triprobe|unnorm|refuse]\n"); return 2; }
  g_out = fopen(argv[1], "wb");
  if (!g_out) { perror(argv[1]); return 1; }
  if (argc > 2 && !strcmp(argv[2], "unnorm")) {
    unnorm_sweep();
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "refuse")) {
    refuse_probe();
    fclose(g_out);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "trilinear")) {  // trilinear float sums (branch texf3)
    g_tri = true;
    targeted();
    g_tri = false;
    tri_slices();
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "triprobe")) {  // slice alignment probes (branch texf4)
    tri_probe();
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "targeted")) {  // the targeted sweeps alone
    targeted();
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  if (argc > 2 && !strcmp(argv[2], "surf")) {  // the surface cases alone
    for (const char* k : {"suld2d_zero", "suld2d_clamp", "suld2d_trap"}) surf_case(k, 2, false);
    surf_case("suld1d_clamp", 1, false);
    surf_case("suld3d_clamp", 3, false);
    surf_case("sust2d_zero", 2, false);
    surf_case("sust2d_clamp", 2, false);
    surf_case("sust3d_clamp", 3, false);
    fflush(g_out);
    surf_case("suld2d_v4_zero", 2, false);
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  if (argc > 2) {  // accesses that may fault: misaligned surface bytes, b8 reads of a b32 surface
    surf_case("suld2d_clamp", 2, true);
    fflush(g_out);
    surf_case("suld2d_u8_clamp", 2, false);
    fflush(g_out);
    surf_case("suld2d_u8_clamp", 2, true);
    fclose(g_out);
    printf("cases %d\n", g_cases);
    return 0;
  }
  // Decode tables: every value of the 8- and 16-bit types, element and normalized float.
  for (int t : {U8, I8}) for (int read : {0, 1})
    tex_case("tex1d", 0, t, 1, read, 0, 1, 0, 1, 256, 1, 1, false, false);
  for (int t : {U16, I16}) for (int read : {0, 1})
    tex_case("tex1d", 0, t, 1, read, 0, 1, 0, 1, 65536, 1, 1, false, false);
  tex_case("tex1d", 0, F16, 1, 0, 0, 1, 0, 1, 65536, 1, 1, false, false);
  // Filter weights: 0,1,0,1 texels, fine coordinate ramp, every address mode.
  for (int norm : {0, 1}) for (int am = 0; am < 4; ++am) for (int filt : {0, 1}) {
    if (!norm && (am == 0 || am == 2)) continue;
    tex_case("tex1d", 0, F32, 1, 0, filt, am, norm, 1, 7, 1, 1, true, false);
  }
  // The main 2D sweep: type x read x channels x filter x address x normalization.
  for (int t = 0; t < 8; ++t) for (int read : {0, 1}) for (int ch : {1, 2, 4})
  for (int filt : {0, 1}) for (int am = 0; am < 4; ++am) for (int norm : {0, 1}) {
    bool small = t == U8 || t == I8 || t == U16 || t == I16;
    if (read == 1 && !small) continue;
    bool floaty = read == 1 || t == F16 || t == F32;
    if (filt && !floaty) continue;
    if (!norm && (am == 0 || am == 2)) continue;
    if (ch == 2 && (am != 1 || norm)) continue;  // two channels: decode only
    tex_case("tex2d", 0, t, ch, read, filt, am, norm, 2, 5, 4, 1, false, ch == 1 && t == F32);
  }
  // Integer-coordinate fetches of every type on arrays? (tex1Dfetch is for linear memory.)
  // 1D and 3D arrays.
  for (int t : {F32, U8}) for (int filt : {0, 1}) for (int am = 0; am < 4; ++am) for (int norm : {0, 1}) {
    if (!norm && (am == 0 || am == 2)) continue;
    int read = t == U8 ? 1 : 0;
    tex_case("tex1d", 0, t, 1, read, filt, am, norm, 1, 7, 1, 1, false, false);
    tex_case("tex3d", 0, t, 1, read, filt, am, norm, 3, 3, 2, 4, false, true);
  }
  // tex1Dfetch on linear memory.
  for (int t = 0; t < 8; ++t) for (int ch : {1, 4}) for (int read : {0, 1}) {
    bool small = t == U8 || t == I8 || t == U16 || t == I16;
    if (read == 1 && !small) continue;
    tex_case("tex1dfetch", 1, t, ch, read, 0, 1, 0, 1, 37, 1, 1, false, t == F32 && ch == 1);
  }
  // Pitch-2D.
  for (int t : {F32, U8}) for (int filt : {0, 1}) for (int am = 0; am < 4; ++am) for (int norm : {0, 1}) {
    if (!norm && (am == 0 || am == 2)) continue;
    tex_case("tex2d", 2, t, 1, t == U8, filt, am, norm, 2, 5, 4, 1, false, filt == 0 && am == 1);
  }
  // tex2DLod on arrays (level 0 only exists).
  for (int filt : {0, 1})
    tex_case("tex2dlod", 0, F32, 1, 0, filt, 1, 1, 2, 5, 4, 1, false, false);
  // tld4 (tex2Dgather): every component of 4-channel textures, every address mode.
  for (const char* op : {"tld4r", "tld4g", "tld4b", "tld4a"})
    for (int t : {F32, U8}) for (int read : {0, 1}) for (int am = 0; am < 4; ++am) for (int norm : {0, 1}) {
      if (read == 1 && t != U8) continue;
      if (!norm && (am == 0 || am == 2)) continue;
      tex_case(op, 0, t, 4, read, 0, am, norm, 2, 5, 4, 1, false, false);
    }
  // Surfaces.
  for (const char* k : {"suld2d_zero", "suld2d_clamp", "suld2d_trap", "suld2d_v4_zero"}) surf_case(k, 2, false);
  surf_case("suld1d_clamp", 1, false);
  surf_case("suld3d_clamp", 3, false);
  surf_case("sust2d_zero", 2, false);
  surf_case("sust2d_clamp", 2, false);
  surf_case("sust3d_clamp", 3, false);
  fclose(g_out);
  printf("cases %d\n", g_cases);
  return 0;
}
