// Packs the tables written by mufu.cu (residuals against mufu_ref.h) into the format the
// executor reads (src/exec/mufu/table.rs): "GMSMUFU1", u32 entries, u32 escapes, then one i8
// per entry (difference to the previous entry's bits, wrapping; -128 = escape), then the escaped
// entries' full u32 values in order. The result is compressed with `zstd -19` by pack.sh.
// Build: g++ -O2 -o pack tests/hw/mufu/pack.cpp; usage: pack KIND IN_PREFIX OUT [ARG]
//   KIND: r8 (IN.r8 + IN.x32 residuals, ref chosen by the table name and ARG), u16 (raw table),
//         d32 (first differences, u32).
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#include "mufu_ref.h"

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
  } else if (kind == "d32") {
    std::vector<unsigned char> r = rd(in);
    uint32_t acc = 0;
    for (size_t i = 0; i + 4 <= r.size(); i += 4) { uint32_t d; memcpy(&d, &r[i], 4); acc = i ? acc + d : d; t.push_back(acc); }
  } else { fprintf(stderr, "unknown kind\n"); return 2; }
  std::vector<int8_t> d(t.size());
  std::vector<uint32_t> esc;
  uint32_t prev = 0;
  for (size_t i = 0; i < t.size(); i++) {
    int64_t df = (int64_t)(int32_t)(t[i] - prev);
    if (df >= -127 && df <= 127) d[i] = (int8_t)df;
    else { d[i] = -128; esc.push_back(t[i]); }
    prev = t[i];
  }
  FILE* f = fopen(out.c_str(), "wb");
  uint32_t n = (uint32_t)t.size(), ne = (uint32_t)esc.size();
  fwrite("GMSMUFU1", 1, 8, f); fwrite(&n, 4, 1, f); fwrite(&ne, 4, 1, f);
  fwrite(d.data(), 1, d.size(), f); fwrite(esc.data(), 4, esc.size(), f);
  fclose(f);
  // also the raw table, for checks
  if (argc > 4) { FILE* g = fopen(argv[4], "wb"); fwrite(t.data(), 4, t.size(), g); fclose(g); }
  printf("%s: %u entries, %u escapes\n", out.c_str(), n, ne);
  return 0;
}
