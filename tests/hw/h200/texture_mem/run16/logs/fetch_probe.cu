// texw5 probe (issue 10): one warp of tex1Dfetch<float> on 16 MiB of floats; lane l reads element
// idx[l] (idx[l] < 0: lane l returns at once). The cases come from CASES ("NAME i0 .. i31" a line);
// every launch is listed in OUTDIR/launches.txt in launch order ("no NAME i0 .. i31").
// Usage: ./fetch_probe CASES OUTDIR
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>
#define CK(x) do { cudaError_t e_ = (x); if (e_ != cudaSuccess) { fprintf(stderr, "%s:%d %s -> %s\n", __FILE__, __LINE__, #x, cudaGetErrorString(e_)); exit(1);} } while (0)
__global__ void fetch_lanes(cudaTextureObject_t t, float *out, const int *idx) {
    unsigned l = threadIdx.x;
    int i = idx[l];
    if (i < 0) return;
    out[l] = tex1Dfetch<float>(t, i);
}
int main(int argc, char **argv) {
    if (argc < 3) { fprintf(stderr, "usage: %s CASES OUTDIR\n", argv[0]); return 2; }
    FILE *in = fopen(argv[1], "r");
    if (!in) { perror(argv[1]); return 1; }
    std::string lp = std::string(argv[2]) + "/launches.txt";
    FILE *list = fopen(lp.c_str(), "w");
    if (!list) { perror(lp.c_str()); return 1; }
    const int NL = 4 << 20;
    float *lin, *d_out; int *d_idx;
    CK(cudaMalloc(&lin, (size_t)NL * 4)); CK(cudaMalloc(&d_out, 32 * 4)); CK(cudaMalloc(&d_idx, 32 * 4));
    std::vector<float> h(NL);
    for (int i = 0; i < NL; i++) h[i] = (float)(i % 4099);
    CK(cudaMemcpy(lin, h.data(), (size_t)NL * 4, cudaMemcpyHostToDevice));
    cudaResourceDesc rd; memset(&rd, 0, sizeof rd);
    rd.resType = cudaResourceTypeLinear; rd.res.linear.devPtr = lin;
    rd.res.linear.desc = cudaCreateChannelDesc<float>(); rd.res.linear.sizeInBytes = (size_t)NL * 4;
    cudaTextureDesc td; memset(&td, 0, sizeof td);
    td.filterMode = cudaFilterModePoint; td.readMode = cudaReadModeElementType;
    cudaTextureObject_t tf; CK(cudaCreateTextureObject(&tf, &rd, &td, nullptr));
    char name[128]; int no = 0, bad = 0;
    while (fscanf(in, "%127s", name) == 1) {
        int idx[32];
        for (int l = 0; l < 32; l++) if (fscanf(in, "%d", &idx[l]) != 1 || idx[l] >= NL) { fprintf(stderr, "bad case %s\n", name); return 1; }
        CK(cudaMemcpy(d_idx, idx, sizeof idx, cudaMemcpyHostToDevice));
        fetch_lanes<<<1, 32>>>(tf, d_out, d_idx);
        CK(cudaGetLastError()); CK(cudaDeviceSynchronize());
        float o[32]; CK(cudaMemcpy(o, d_out, sizeof o, cudaMemcpyDeviceToHost));
        for (int l = 0; l < 32; l++) if (idx[l] >= 0 && o[l] != (float)(idx[l] % 4099)) bad++;
        fprintf(list, "%d %s", no++, name);
        for (int l = 0; l < 32; l++) fprintf(list, " %d", idx[l]);
        fprintf(list, "\n");
    }
    fclose(list);
    printf("launches=%d wrong_values=%d\n", no, bad);
    return bad != 0;
}
