// Reads the raw bytes of CUDA arrays on the H200 to find their layout in device memory.
//
// A CUDA array's layout is opaque to the runtime API. Two documented ways give one physical
// allocation both an array view and a linear view:
//   A. an array created with CUDA_ARRAY3D_DEFERRED_MAPPING, backed by a tile-pool allocation
//      (cuMemMapArrayAsync), the same allocation also mapped linearly (cuMemMap);
//   B. an external-memory allocation (cuMemCreate with a POSIX fd, imported with
//      cudaImportExternalMemory) mapped both as a buffer and as a mipmapped array.
// For each configuration, byte i of the linear view is set to byte k of i (four passes, k = 0..3),
// the array is copied to the host with cuMemcpy3D (the copy engine detiles it), and so every byte
// of the array gets the raw offset it lives at. The map is fitted to the block-linear model (GOB of
// 64 bytes x 8 rows, blocks of 2^bh GOBs high and 2^bd deep); the fit and, for small arrays, the
// whole map (offset of each 16-byte chunk) are written out.
// Also: cuArrayGetMemoryRequirements over dense size sweeps, and the sparse tile extents.
//
// Usage: ./layout OUTDIR    (writes OUTDIR/layout.txt, OUTDIR/maps.bin, OUTDIR/req.txt)
#include <cuda.h>
#include <cuda_runtime.h>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <cstdint>
#include <vector>
#include <string>

static FILE *LOG;
static bool ck(CUresult r, const char *what, int line) {
    if (r == CUDA_SUCCESS) return true;
    const char *s = "?";
    cuGetErrorName(r, &s);
    fprintf(LOG, "  ERR line %d %s -> %s\n", line, what, s);
    return false;
}
static bool ckr(cudaError_t r, const char *what, int line) {
    if (r == cudaSuccess) return true;
    fprintf(LOG, "  ERR line %d %s -> %s\n", line, what, cudaGetErrorName(r));
    cudaGetLastError();
    return false;
}
#define CK(x) ck((x), #x, __LINE__)
#define CKR(x) ckr((x), #x, __LINE__)

__global__ void fill_bytes(unsigned char *p, size_t n, int k) {
    size_t i = blockIdx.x * (size_t)blockDim.x + threadIdx.x;
    for (; i < n; i += (size_t)gridDim.x * blockDim.x) p[i] = (unsigned char)(i >> (8 * k));
}

struct Fmt { CUarray_format f; int ch; int bytes; const char *name; };
static const Fmt FMTS[] = {
    {CU_AD_FORMAT_UNSIGNED_INT8, 1, 1, "u8x1"},   {CU_AD_FORMAT_UNSIGNED_INT16, 1, 2, "u16x1"},
    {CU_AD_FORMAT_FLOAT, 1, 4, "f32x1"},          {CU_AD_FORMAT_FLOAT, 2, 8, "f32x2"},
    {CU_AD_FORMAT_FLOAT, 4, 16, "f32x4"},         {CU_AD_FORMAT_UNSIGNED_INT8, 2, 2, "u8x2"},
    {CU_AD_FORMAT_UNSIGNED_INT8, 4, 4, "u8x4"},   {CU_AD_FORMAT_UNSIGNED_INT16, 4, 8, "u16x4"},
    {CU_AD_FORMAT_HALF, 1, 2, "f16x1"},
};

static uint64_t gob(uint64_t bx, uint64_t y) {
    // measured (first run, 2026-12-01 15:21 UTC): bits 0-3 x[0:3], 4-5 y[0:1], 6 x[4], 7 y[2], 8 x[5]
    return ((bx & 63) >> 5) << 8 | ((y & 7) >> 2) << 7 | ((bx & 31) >> 4) << 6 | (y & 3) << 4 | (bx & 15);
}
// Block-linear offset of byte bx of row y of slice z.
static uint64_t model(uint64_t bx, uint64_t y, uint64_t z, int bh, int bd, uint64_t gw, uint64_t brows) {
    uint64_t bxb = bx >> 6, byb = y >> (3 + bh), bzb = z >> bd;
    uint64_t blk = (bzb * brows + byb) * gw + bxb;
    uint64_t gy = (y >> 3) & ((1u << bh) - 1), gz = z & ((1u << bd) - 1);
    return blk * (512ull << (bh + bd)) + ((gz << bh) | gy) * 512 + gob(bx, y);
}

static FILE *MAPS;
static int64_t map_limit = -1; // sweep: keep maps of at most this many chunks
static int map_id = 0;

// Decode, fit and write one map. off[j] is the raw offset of host byte j (row-major, rows of wb bytes).
static void analyse(const char *tag, const Fmt &fm, int w, int h, int d, size_t reqsize, size_t reqalign,
                    const std::vector<uint32_t> &off) {
    int hh = h ? h : 1, dd = d ? d : 1;
    uint64_t wb = (uint64_t)w * fm.bytes;
    uint64_t chunks_per_row = (wb + 15) / 16;
    // contiguity within 16-byte chunks
    uint64_t noncontig = 0;
    for (uint64_t z = 0; z < (uint64_t)dd; z++)
        for (uint64_t y = 0; y < (uint64_t)hh; y++)
            for (uint64_t bx = 0; bx < wb; bx++) {
                uint64_t j = (z * hh + y) * wb + bx;
                uint64_t j0 = (z * hh + y) * wb + (bx & ~15ull);
                if (off[j] != off[j0] + (bx & 15)) noncontig++;
            }
    uint32_t maxoff = 0;
    for (auto o : off) maxoff = o > maxoff ? o : maxoff;
    // fit
    int best_bh = -1, best_bd = -1; uint64_t best_gw = 0, best_bad = ~0ull;
    uint64_t gw0 = (wb + 63) / 64;
    for (int pad = 1; pad <= 64; pad *= 2) {
        uint64_t gw = (gw0 + pad - 1) / pad * pad;
        for (int bh = 0; bh <= 5; bh++)
            for (int bd = 0; bd <= 5; bd++) {
                uint64_t brows = ((uint64_t)hh + (8ull << bh) - 1) / (8ull << bh);
                uint64_t bad = 0;
                for (uint64_t z = 0; z < (uint64_t)dd && bad < best_bad; z++)
                    for (uint64_t y = 0; y < (uint64_t)hh && bad < best_bad; y++)
                        for (uint64_t bx = 0; bx < wb; bx += 16) {
                            uint64_t j = (z * hh + y) * wb + bx;
                            if (off[j] != model(bx, y, z, bh, bd, gw, brows)) bad++;
                        }
                if (bad < best_bad) { best_bad = bad; best_bh = bh; best_bd = bd; best_gw = gw; }
            }
    }
    int id = -1;
    uint64_t nchunks = chunks_per_row * hh * dd;
    if (nchunks <= (1u << 16) && (map_limit < 0 || (int64_t)nchunks <= map_limit)) {
        id = map_id++;
        // record: header then the offset of each chunk's first byte
        uint32_t hdr[8] = {0x4d4c4247u, (uint32_t)id, (uint32_t)w, (uint32_t)h, (uint32_t)d,
                           (uint32_t)fm.bytes, (uint32_t)nchunks, 0};
        fwrite(hdr, 4, 8, MAPS);
        for (uint64_t z = 0; z < (uint64_t)dd; z++)
            for (uint64_t y = 0; y < (uint64_t)hh; y++)
                for (uint64_t c = 0; c < chunks_per_row; c++) {
                    uint32_t v = off[(z * hh + y) * wb + c * 16];
                    fwrite(&v, 4, 1, MAPS);
                }
    }
    fprintf(LOG,
            "MAP %s fmt=%s E=%d w=%d h=%d d=%d req_size=%zu req_align=%zu maxoff=%u noncontig=%llu "
            "fit_bh=%d fit_bd=%d fit_gw=%llu gw_ceil=%llu fit_bad_chunks=%llu of=%llu map_id=%d\n",
            tag, fm.name, fm.bytes, w, h, d, reqsize, reqalign, maxoff, (unsigned long long)noncontig,
            best_bh, best_bd, (unsigned long long)best_gw, (unsigned long long)gw0,
            (unsigned long long)best_bad, (unsigned long long)nchunks, id);
    fflush(LOG);
}

static bool read_map(CUarray arr, CUdeviceptr va, size_t vsize, const Fmt &fm, int w, int h, int d,
                     std::vector<uint32_t> &off) {
    int hh = h ? h : 1, dd = d ? d : 1;
    size_t wb = (size_t)w * fm.bytes, n = wb * hh * dd;
    off.assign(n, 0);
    std::vector<unsigned char> host(n);
    for (int k = 0; k < 4; k++) {
        fill_bytes<<<1024, 256>>>((unsigned char *)va, vsize, k);
        if (!CKR(cudaDeviceSynchronize())) return false;
        CUDA_MEMCPY3D c;
        memset(&c, 0, sizeof c);
        c.srcMemoryType = CU_MEMORYTYPE_ARRAY;
        c.srcArray = arr;
        c.dstMemoryType = CU_MEMORYTYPE_HOST;
        c.dstHost = host.data();
        c.dstPitch = wb;
        c.dstHeight = hh;
        c.WidthInBytes = wb;
        c.Height = hh;
        c.Depth = dd;
        if (!CK(cuMemcpy3D(&c))) return false;
        for (size_t j = 0; j < n; j++) off[j] |= (uint32_t)host[j] << (8 * k);
    }
    return true;
}

static size_t round_up(size_t a, size_t b) { return (a + b - 1) / b * b; }

// Method A: deferred mapping onto a tile pool that is also mapped linearly.
static void method_a(const Fmt &fm, int w, int h, int d, unsigned flags, const char *tag) {
    CUDA_ARRAY3D_DESCRIPTOR ad;
    memset(&ad, 0, sizeof ad);
    ad.Width = w; ad.Height = h; ad.Depth = d; ad.Format = fm.f; ad.NumChannels = fm.ch;
    ad.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING | flags;
    CUarray arr;
    if (!CK(cuArray3DCreate(&arr, &ad))) { fprintf(LOG, "FAIL %s %s %d %d %d create\n", tag, fm.name, w, h, d); return; }
    CUDA_ARRAY_MEMORY_REQUIREMENTS req;
    memset(&req, 0, sizeof req);
    bool ok = CK(cuArrayGetMemoryRequirements(&req, arr, 0));
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.allocFlags.usage = CU_MEM_CREATE_USAGE_TILE_POOL;
    size_t gran = 0;
    ok = ok && CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM));
    size_t size = ok ? round_up(req.size, gran > req.alignment ? gran : req.alignment) : 0;
    CUmemGenericAllocationHandle hnd = 0;
    ok = ok && CK(cuMemCreate(&hnd, size, &prop, 0));
    CUarrayMapInfo mi;
    memset(&mi, 0, sizeof mi);
    mi.resourceType = CU_RESOURCE_TYPE_ARRAY;
    mi.resource.array = arr;
    mi.subresourceType = CU_ARRAY_SPARSE_SUBRESOURCE_TYPE_MIPTAIL;
    mi.subresource.miptail.offset = 0;
    mi.subresource.miptail.size = req.size;
    mi.memOperationType = CU_MEM_OPERATION_TYPE_MAP;
    mi.memHandleType = CU_MEM_HANDLE_TYPE_GENERIC;
    mi.memHandle.memHandle = hnd;
    mi.offset = 0;
    mi.deviceBitMask = 1;
    bool mapped = ok && CK(cuMemMapArrayAsync(&mi, 1, 0)) && CK(cuStreamSynchronize(0));
    CUdeviceptr va = 0;
    bool lin = mapped && CK(cuMemAddressReserve(&va, size, 0, 0, 0));
    bool linmapped = lin && CK(cuMemMap(va, size, 0, hnd, 0));
    CUmemAccessDesc acc;
    memset(&acc, 0, sizeof acc);
    acc.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    acc.location.id = 0;
    acc.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
    bool access = linmapped && CK(cuMemSetAccess(va, size, &acc, 1));
    std::vector<uint32_t> off;
    if (access && read_map(arr, va, size, fm, w, h, d, off)) analyse(tag, fm, w, h, d, req.size, req.alignment, off);
    else fprintf(LOG, "FAIL %s %s w=%d h=%d d=%d req_size=%zu req_align=%zu mapped=%d lin=%d\n", tag, fm.name, w, h, d,
                 (size_t)req.size, (size_t)req.alignment, mapped, linmapped);
    if (linmapped) CK(cuMemUnmap(va, size));
    if (lin) CK(cuMemAddressFree(va, size));
    if (mapped) {
        mi.memOperationType = CU_MEM_OPERATION_TYPE_UNMAP;
        mi.memHandle.memHandle = 0;
        CK(cuMemMapArrayAsync(&mi, 1, 0));
        CK(cuStreamSynchronize(0));
    }
    CK(cuArrayDestroy(arr));
    if (hnd) CK(cuMemRelease(hnd));
}

// Method B: external memory seen as a buffer and as a mipmapped array.
static void method_b(const Fmt &fm, int w, int h, int d, unsigned flags, const char *tag) {
    CUmemAllocationProp prop;
    memset(&prop, 0, sizeof prop);
    prop.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    prop.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    prop.location.id = 0;
    prop.requestedHandleTypes = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
    size_t gran = 0;
    if (!CK(cuMemGetAllocationGranularity(&gran, &prop, CU_MEM_ALLOC_GRANULARITY_MINIMUM))) return;
    size_t need = round_up((size_t)w * fm.bytes, 64) * round_up(h ? h : 1, 128) * round_up(d ? d : 1, 32);
    size_t size = round_up(need + (2u << 20), gran);
    CUmemGenericAllocationHandle hnd;
    if (!CK(cuMemCreate(&hnd, size, &prop, 0))) return;
    int fd = -1;
    bool ok = CK(cuMemExportToShareableHandle(&fd, hnd, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    cudaExternalMemory_t ext = nullptr;
    cudaExternalMemoryHandleDesc md;
    memset(&md, 0, sizeof md);
    md.type = cudaExternalMemoryHandleTypeOpaqueFd;
    md.handle.fd = fd;
    md.size = size;
    ok = ok && CKR(cudaImportExternalMemory(&ext, &md));
    void *ptr = nullptr;
    cudaExternalMemoryBufferDesc bd;
    memset(&bd, 0, sizeof bd);
    bd.offset = 0; bd.size = size;
    ok = ok && CKR(cudaExternalMemoryGetMappedBuffer(&ptr, ext, &bd));
    cudaChannelFormatKind kind = fm.f == CU_AD_FORMAT_FLOAT || fm.f == CU_AD_FORMAT_HALF ? cudaChannelFormatKindFloat
                                                                                       : cudaChannelFormatKindUnsigned;
    int bits = fm.bytes / fm.ch * 8;
    cudaExternalMemoryMipmappedArrayDesc ad;
    memset(&ad, 0, sizeof ad);
    ad.offset = 0;
    ad.formatDesc = cudaCreateChannelDesc(bits, fm.ch > 1 ? bits : 0, fm.ch > 2 ? bits : 0, fm.ch > 3 ? bits : 0, kind);
    ad.extent = make_cudaExtent(w, h, d);
    ad.flags = flags;
    ad.numLevels = 1;
    cudaMipmappedArray_t mm = nullptr;
    ok = ok && CKR(cudaExternalMemoryGetMappedMipmappedArray(&mm, ext, &ad));
    cudaArray_t arr = nullptr;
    ok = ok && CKR(cudaGetMipmappedArrayLevel(&arr, mm, 0));
    std::vector<uint32_t> off;
    if (ok && read_map((CUarray)arr, (CUdeviceptr)ptr, size, fm, w, h, d, off)) analyse(tag, fm, w, h, d, 0, 0, off);
    else fprintf(LOG, "FAIL %s %s w=%d h=%d d=%d\n", tag, fm.name, w, h, d);
    if (mm) CKR(cudaFreeMipmappedArray(mm));
    if (ptr) CKR(cudaFree(ptr));
    if (ext) CKR(cudaDestroyExternalMemory(ext));
    CK(cuMemRelease(hnd));
}

int main(int argc, char **argv) {
    std::string dir = argc > 1 ? argv[1] : ".";
    LOG = fopen((dir + "/layout.txt").c_str(), "w");
    MAPS = fopen((dir + "/maps.bin").c_str(), "wb");
    FILE *REQ = fopen((dir + "/req.txt").c_str(), "w");
    if (!LOG || !MAPS || !REQ) { fprintf(stderr, "cannot write into %s\n", dir.c_str()); return 1; }
    cudaFree(0);
    CK(cuInit(0));
    int v = 0;
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_DEFERRED_MAPPING_CUDA_ARRAY_SUPPORTED, 0);
    fprintf(LOG, "deferred_mapping_supported=%d\n", v);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_SPARSE_CUDA_ARRAY_SUPPORTED, 0);
    fprintf(LOG, "sparse_supported=%d\n", v);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TEXTURE_ALIGNMENT, 0);
    fprintf(LOG, "texture_alignment=%d\n", v);
    cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_TEXTURE_PITCH_ALIGNMENT, 0);
    fprintf(LOG, "texture_pitch_alignment=%d\n", v);
    fflush(LOG);

    if (argc > 2 && std::string(argv[2]) == "sweep") {
        map_limit = 4096;
        // Second run: the block-height and block-depth choice, through imported arrays (method B;
        // method A's tile pool cannot be mapped linearly: cuMemMap gives CUDA_ERROR_INVALID_VALUE).
        const Fmt &f4 = FMTS[2];
        for (int h = 1; h <= 300; h++) method_b(f4, 16, h, 0, 0, "S2");
        for (int h : {383, 384, 385, 511, 512, 513, 1023, 1025, 2047, 2049, 4096}) method_b(f4, 16, h, 0, 0, "S2");
        for (int w : {1, 15, 17, 32, 33, 64, 65, 128, 1000}) method_b(f4, w, 100, 0, 0, "S2w");
        for (int fi = 0; fi < 9; fi++)
            for (int h : {8, 16, 17, 24, 32, 48, 64, 65, 96, 128, 256}) method_b(FMTS[fi], 64 / FMTS[fi].bytes, h, 0, 0, "S2e");
        for (int h : {1, 4, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129})
            for (int d = 1; d <= 40; d++) method_b(f4, 16, h, d, 0, "S3");
        for (int h : {1, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129})
            for (int d : {63, 64, 65, 128, 129}) method_b(f4, 16, h, d, 0, "S3");
        for (int fi = 0; fi < 5; fi++)
            for (int d : {2, 4, 8, 16, 32}) method_b(FMTS[fi], 64 / FMTS[fi].bytes, 16, d, 0, "S3e");
        for (int w : {1, 16, 17, 100, 1000, 65536}) method_b(f4, w, 0, 0, 0, "S1");
        method_b(f4, 100, 129, 0, cudaArraySurfaceLoadStore | cudaArrayTextureGather, "S2flags");
        method_b(f4, 16, 20, 9, cudaArraySurfaceLoadStore, "S3flags");
        fprintf(LOG, "DONE maps=%d\n", map_id);
        fclose(LOG);
        fclose(MAPS);
        fclose(REQ);
        return 0;
    }

    // 1. Memory requirements over dense sweeps (cheap: no memory is mapped).
    auto req = [&](const Fmt &fm, int w, int h, int d, unsigned flags) {
        CUDA_ARRAY3D_DESCRIPTOR ad;
        memset(&ad, 0, sizeof ad);
        ad.Width = w; ad.Height = h; ad.Depth = d; ad.Format = fm.f; ad.NumChannels = fm.ch;
        ad.Flags = CUDA_ARRAY3D_DEFERRED_MAPPING | flags;
        CUarray arr;
        CUresult r = cuArray3DCreate(&arr, &ad);
        if (r != CUDA_SUCCESS) { fprintf(REQ, "%s %d %d %d %u create_err=%d\n", fm.name, w, h, d, flags, (int)r); return; }
        CUDA_ARRAY_MEMORY_REQUIREMENTS m;
        memset(&m, 0, sizeof m);
        r = cuArrayGetMemoryRequirements(&m, arr, 0);
        fprintf(REQ, "%s %d %d %d %u %zu %zu %d\n", fm.name, w, h, d, flags, (size_t)m.size, (size_t)m.alignment, (int)r);
        cuArrayDestroy(arr);
    };
    fprintf(REQ, "# fmt w h d flags size alignment err  (cuArrayGetMemoryRequirements, deferred mapping)\n");
    const Fmt &f4 = FMTS[2];
    for (int h = 1; h <= 600; h++) req(f4, 16, h, 0, 0);
    for (int h : {700, 900, 1023, 1024, 1025, 2000, 2048, 4096, 8192, 16384}) req(f4, 16, h, 0, 0);
    for (int w = 1; w <= 300; w++) req(f4, w, 64, 0, 0);
    for (int w : {1000, 1023, 1024, 1025, 2048, 4096, 8192, 16384, 32768}) req(f4, w, 64, 0, 0);
    for (int d = 1; d <= 140; d++) req(f4, 16, 16, d, 0);
    for (int d = 1; d <= 140; d++) req(f4, 16, 128, d, 0);
    for (int d = 1; d <= 70; d++) req(f4, 64, 1, d, 0);
    for (int h = 1; h <= 140; h++) req(f4, 16, h, 16, 0);
    for (int h = 1; h <= 140; h++) req(f4, 16, h, 64, 0);
    for (const Fmt &fm : FMTS)
        for (int h : {1, 8, 9, 16, 17, 32, 33, 64, 65, 128, 129, 256, 1024})
            for (int w : {1, 7, 64, 100, 1024}) req(fm, w, h, 0, 0);
    for (int h : {1, 8, 9, 17, 33, 65, 129, 1024}) {
        req(f4, 100, h, 0, CUDA_ARRAY3D_SURFACE_LDST);
        req(f4, 100, h, 0, CUDA_ARRAY3D_TEXTURE_GATHER);
    }
    for (int w : {1, 100, 1024, 65536}) req(f4, w, 0, 0, 0);  // 1D
    fflush(REQ);
    // sparse tile extents
    for (const Fmt &fm : FMTS) {
        CUDA_ARRAY3D_DESCRIPTOR ad;
        memset(&ad, 0, sizeof ad);
        ad.Width = 1024; ad.Height = 1024; ad.Depth = 0; ad.Format = fm.f; ad.NumChannels = fm.ch;
        ad.Flags = CUDA_ARRAY3D_SPARSE;
        CUarray arr;
        if (cuArray3DCreate(&arr, &ad) != CUDA_SUCCESS) { fprintf(LOG, "SPARSE %s create failed\n", fm.name); continue; }
        CUDA_ARRAY_SPARSE_PROPERTIES sp;
        memset(&sp, 0, sizeof sp);
        if (cuArrayGetSparseProperties(&sp, arr) == CUDA_SUCCESS)
            fprintf(LOG, "SPARSE2D %s tile=%u x %u x %u miptail_first=%u miptail_size=%llu flags=%u\n", fm.name,
                    sp.tileExtent.width, sp.tileExtent.height, sp.tileExtent.depth, sp.miptailFirstLevel,
                    (unsigned long long)sp.miptailSize, sp.flags);
        cuArrayDestroy(arr);
        ad.Width = 128; ad.Height = 128; ad.Depth = 128;
        if (cuArray3DCreate(&arr, &ad) != CUDA_SUCCESS) { fprintf(LOG, "SPARSE3D %s create failed\n", fm.name); continue; }
        memset(&sp, 0, sizeof sp);
        if (cuArrayGetSparseProperties(&sp, arr) == CUDA_SUCCESS)
            fprintf(LOG, "SPARSE3D %s tile=%u x %u x %u\n", fm.name, sp.tileExtent.width, sp.tileExtent.height,
                    sp.tileExtent.depth);
        cuArrayDestroy(arr);
    }
    fflush(LOG);

    // 2. Raw maps.
    struct C { int fmt, w, h, d; };
    std::vector<C> cs;
    for (int fi = 0; fi < 5; fi++) {
        for (int h : {1, 2, 5, 8, 9, 16, 17, 24, 32, 33, 48, 64, 65, 100, 128, 129, 256, 257, 1024})
            cs.push_back({fi, 64 / FMTS[fi].bytes * 2 + 3, h, 0});  // odd width: two GOBs and a bit
        for (int w : {1, 3, 16, 17, 100, 255, 1000, 1024})
            cs.push_back({fi, w, 40, 0});
        for (int d : {2, 3, 4, 8, 9, 16, 17, 32, 33, 64})
            cs.push_back({fi, 64 / FMTS[fi].bytes + 1, 20, d});
        for (int d : {2, 16, 40}) cs.push_back({fi, 10, 3, d});
    }
    cs.push_back({2, 1024, 1024, 0});
    cs.push_back({2, 1000, 1000, 0});
    cs.push_back({2, 256, 256, 0});
    cs.push_back({2, 64, 64, 64});
    cs.push_back({2, 4096, 600, 0});
    cs.push_back({4, 512, 512, 0});
    cs.push_back({5, 100, 40, 0});
    cs.push_back({6, 100, 40, 0});
    cs.push_back({7, 100, 40, 0});
    cs.push_back({8, 100, 40, 0});
    bool a_works = true;
    for (auto &c : cs) {
        if (!a_works) break;
        method_a(FMTS[c.fmt], c.w, c.h, c.d, 0, "A");
    }
    // surface and gather flags, method A
    for (int h : {9, 65, 129}) {
        method_a(FMTS[2], 100, h, 0, CUDA_ARRAY3D_SURFACE_LDST, "A_surf");
        method_a(FMTS[2], 100, h, 0, CUDA_ARRAY3D_TEXTURE_GATHER, "A_gather");
    }
    // method B on a subset (cross-check of A and 1D arrays)
    for (int fi = 0; fi < 5; fi++)
        for (int h : {0, 9, 33, 129}) method_b(FMTS[fi], 64 / FMTS[fi].bytes * 2 + 3, h, 0, 0, "B");
    method_b(FMTS[2], 1024, 1024, 0, 0, "B");
    method_b(FMTS[2], 64, 64, 64, 0, "B");
    method_b(FMTS[2], 17, 20, 9, 0, "B");
    method_b(FMTS[2], 100, 129, 0, cudaArraySurfaceLoadStore, "B_surf");
    fprintf(LOG, "DONE maps=%d\n", map_id);
    fclose(LOG);
    fclose(MAPS);
    fclose(REQ);
    return 0;
}
