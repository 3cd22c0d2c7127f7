// Packs the tables written by mufu.cu (residuals against mufu_ref.h) into the format the
// executor reads (src/exec/mufu/table.rs): "GMSMUFU1", u32 entries, u32 escapes, then one i8
// per entry (difference to the previous entry's bits, wrapping; -128 = escape), then the escaped
// entries' full u32 values in order. The result is compressed with `zstd -19` by pack.sh.
// Build: g++ -O2 -o pack tests/hw/mufu/pack.cpp; usage: pack KIND IN_PREFIX OUT [RAW_OUT]
//   KIND: r8 (IN.r8 + IN.x32 residuals, ref chosen by the table name), u16 / u32 (raw table),
//         d32 (first differences, u32). With a 4th argument, also writes the raw u32 table there.
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <algorithm>
#include <string>
#include <vector>
#include "mufu_ref.h"

extern "C" size_t ZSTD_compress(void*, size_t, const void*, size_t, int);
extern "C" size_t ZSTD_compressBound(size_t);
extern "C" unsigned ZSTD_isError(size_t);

static std::vector<unsigned char> rd(const std::string& p) {
  FILE* f = fopen(p.c_str(), "rb");
  if (!f) { perror(p.c_str()); exit(1); }
  std::vector<unsigned char> v;
  unsigned char b[1 << 16];
  size_t n;
  while ((n = fread(b, 1, sizeof b, f)) > 0) v.insert(v.end(), b, b + n);
  fclose(f);
  return v;
}
static uint32_t ref(const std::string& name, uint32_t i) {
  if (name == "rcp") return ref_rcp(i);
  if (name == "rsq0") return ref_rsq(i, 0);
  if (name == "rsq1") return ref_rsq(i, 1);
  if (name == "sqrt0") return ref_sqrt(i, 0);
  if (name == "sqrt1") return ref_sqrt(i, 1);
  if (name == "ex2p") return ref_ex2(i, 0);
  if (name == "ex2n") return ref_ex2(i, 1);
  if (name == "lg2u") return ref_lg2(i, 1);
  if (name == "lg2l") return ref_lg2(i, 0);
  if (name == "sin") return ref_bits(ref_sin_turn(i));
  if (name == "cos") return ref_bits(ref_cos_turn(i));
  if (name == "rcp64h") return ref_rcp64h(i);
  if (name == "rsq64h0") return ref_rsq64h(i, 0);
  if (name == "rsq64h1") return ref_rsq64h(i, 1);
  fprintf(stderr, "unknown table %s\n", name.c_str());
  exit(1);
}
int main(int argc, char** argv) {
  if (argc < 4) { fprintf(stderr, "usage: pack KIND IN OUT\n"); return 2; }
  std::string kind = argv[1], in = argv[2], out = argv[3];
  std::vector<uint32_t> t;
  if (kind == "r8") {
    std::vector<unsigned char> r = rd(in + ".r8"), x = rd(in + ".x32");
    std::string name = in.substr(in.find_last_of('/') + 1);
    t.resize(r.size());
    for (size_t i = 0; i < r.size(); i++) t[i] = ref(name, (uint32_t)i) + (uint32_t)(int32_t)(int8_t)r[i];
    for (size_t k = 0; k + 8 <= x.size(); k += 8) {
      uint32_t idx, v;
      memcpy(&idx, &x[k], 4); memcpy(&v, &x[k + 4], 4);
      if ((int8_t)r[idx] != -128) { fprintf(stderr, "escape list mismatch\n"); return 1; }
      t[idx] = v;
    }
  } else if (kind == "u16") {
    std::vector<unsigned char> r = rd(in);
    for (size_t i = 0; i + 2 <= r.size(); i += 2) t.push_back(r[i] | (r[i + 1] << 8));
  } else if (kind == "u32") {
    std::vector<unsigned char> r = rd(in);
    t.resize(r.size() / 4);
    memcpy(t.data(), r.data(), t.size() * 4);
  } else if (kind == "d32") {
    std::vector<unsigned char> r = rd(in);
    uint32_t acc = 0;
    for (size_t i = 0; i + 4 <= r.size(); i += 4) { uint32_t d; memcpy(&d, &r[i], 4); acc = i ? acc + d : d; t.push_back(acc); }
  } else { fprintf(stderr, "unknown kind\n"); return 2; }
  const uint32_t B = 65536;
  uint32_t n = (uint32_t)t.size(), nb = (n + B - 1) / B;
  std::vector<uint32_t> offs{0};
  std::vector<unsigned char> payload;
  size_t nesc = 0;
  for (uint32_t b = 0; b < nb; b++) {
    uint32_t lo = b * B, hi = std::min(n, lo + B);
    std::vector<unsigned char> blk;
    std::vector<uint32_t> esc;
    uint32_t prev = 0;
    for (uint32_t i = lo; i < hi; i++) {
      int64_t df = (int64_t)(int32_t)(t[i] - prev);
      if (df >= -127 && df <= 127) blk.push_back((unsigned char)(int8_t)df);
      else { blk.push_back(0x80); esc.push_back(t[i]); }
      prev = t[i];
    }
    nesc += esc.size();
    size_t at = blk.size();
    blk.resize(at + 4 * esc.size());
    memcpy(&blk[at], esc.data(), 4 * esc.size());
    std::vector<unsigned char> z(ZSTD_compressBound(blk.size()));
    size_t zn = ZSTD_compress(z.data(), z.size(), blk.data(), blk.size(), 19);
    if (ZSTD_isError(zn)) { fprintf(stderr, "zstd failed\n"); return 1; }
    payload.insert(payload.end(), z.begin(), z.begin() + zn);
    offs.push_back((uint32_t)payload.size());
  }
  FILE* f = fopen(out.c_str(), "wb");
  fwrite("GMSMUFU2", 1, 8, f); fwrite(&n, 4, 1, f); fwrite(&B, 4, 1, f); fwrite(&nb, 4, 1, f);
  fwrite(offs.data(), 4, offs.size(), f); fwrite(payload.data(), 1, payload.size(), f);
  fclose(f);
  uint32_t ne = (uint32_t)nesc;
  // also the raw table, for checks
  if (argc > 4) { FILE* g = fopen(argv[4], "wb"); fwrite(t.data(), 4, t.size(), g); fclose(g); }
  printf("%s: %u entries, %u escapes\n", out.c_str(), n, ne);
  return 0;
}
