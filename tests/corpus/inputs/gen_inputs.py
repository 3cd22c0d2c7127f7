#!/usr/bin/env python3
"""Writes the corpus input files that the spec `init` kinds cannot express (values in a range,
the samples' test patterns). Deterministic: splitmix64 (the same stream as `random:SEED`), so
rerunning it rewrites the same bytes. Run from anywhere: python3 tests/corpus/inputs/gen_inputs.py"""
import os, struct

HERE = os.path.dirname(os.path.abspath(__file__))
M64 = (1 << 64) - 1

def splitmix64(seed):
    s = seed
    while True:
        s = (s + 0x9E3779B97F4A7C15) & M64
        z = s
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & M64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & M64
        yield z ^ (z >> 31)

def ints_mod(seed, n, m):
    g = splitmix64(seed)
    return [next(g) % m for _ in range(n)]

def floats_in(seed, n, lo, hi):
    # like the samples' RandFloat(lo, hi) = lo + (hi - lo) * t, t in [0, 1), computed in f32
    g = splitmix64(seed)
    out = []
    for _ in range(n):
        t = struct.unpack('<f', struct.pack('<f', (next(g) >> 40) / float(1 << 24)))[0]
        v = struct.unpack('<f', struct.pack('<f', (1.0 - t) * lo + t * hi))[0]
        out.append(v)
    return out

def write(name, fmt, values):
    with open(os.path.join(HERE, name), 'wb') as f:
        f.write(struct.pack('<%d%s' % (len(values), fmt), *values))

# warpAggregatedAtomicsCG: data_to_filter[i] = rand() % numOfBuckets (5)
write('buckets_16384_mod5.i32', 'i', ints_mod(1001, 16384, 5))
# binaryPartitionCG: initOddEvenArr: rand() % 50
write('oddeven_16384_mod50.i32', 'i', ints_mod(1002, 16384, 50))
# simpleVoteIntrinsics: genVoteTestPattern(VOTE_PATTERN, 128), as the sample writes it
size = 128
p = [0] * size
for i in range(size // 4): p[i] = 0
for i in range(2 * size // 8, 4 * size // 8): p[i] = i if (i & 1) else 0
for i in range(2 * size // 4, 3 * size // 4): p[i] = 0 if (i & 1) else i
for i in range(3 * size // 4, size): p[i] = 0xFFFFFFFF
write('vote_pattern_128.u32', 'I', p)
# BlackScholes: RandFloat(5, 30), RandFloat(1, 100), RandFloat(0.25, 10), 8192 options
write('bs_stock_8192.f32', 'f', floats_in(1003, 8192, 5.0, 30.0))
write('bs_strike_8192.f32', 'f', floats_in(1004, 8192, 1.0, 100.0))
write('bs_years_8192.f32', 'f', floats_in(1005, 8192, 0.25, 10.0))

# binomialOptions: the sample's main() draws S = randData(5, 30), X = randData(1, 100),
# T = randData(0.25, 10), R = 0.06, V = 0.10; binomialOptionsGPU() turns each option into the
# __TOptionData {S, X, vDt, puByDf, pdByDf} that it copies to d_OptionData (cudaMemcpyToSymbol).
# That preprocessing is done here in f32 (each operation rounded to f32, as the host's float code;
# exp and sqrt from the f64 result rounded to f32). 16 options (the sample has 1024; NUM_STEPS =
# 2048 makes each block long to simulate).
def f32(x):
    return struct.unpack('<f', struct.pack('<f', x))[0]

import math
BO_N, BO_STEPS = 16, 2048
bo = []
for S, X, T in zip(floats_in(1006, BO_N, 5.0, 30.0), floats_in(1007, BO_N, 1.0, 100.0),
                   floats_in(1008, BO_N, 0.25, 10.0)):
    R, V = f32(0.06), f32(0.10)
    dt = f32(T / BO_STEPS)
    vDt = f32(V * f32(math.sqrt(dt)))
    rDt = f32(R * dt)
    If, Df = f32(math.exp(rDt)), f32(math.exp(-rDt))
    u, d = f32(math.exp(vDt)), f32(math.exp(-vDt))
    pu = f32(f32(If - d) / f32(u - d))
    pd = f32(1.0 - pu)
    bo += [S, X, vDt, f32(pu * Df), f32(pd * Df)]
write('bo_optiondata_16.f32', 'f', bo)

# dct8x8: a 256 x 64 8-bit image (the sample reads barbara.bmp, 512 x 512), as the sample's
# wrappers turn it into planes: WrapperCUDA2 (CopyByte2Float, AddFloatPlane(-128)) a float
# plane, WrapperCUDAshort (short)ImgSrc[i] - 128 a short plane; the pitch is the width
# (256 floats = 1024 bytes, 256 shorts = 512 bytes: what cudaMallocPitch gives for these widths).
pix = ints_mod(1009, 256 * 64, 256)
write('dct_plane_256x64.f32', 'f', [float(p - 128) for p in pix])
write('dct_plane_256x64.i16', 'h', [p - 128 for p in pix])
# llm.c encoder_forward / crossentropy_forward: token ids (targets) in [0, V), V = 64, B*T = 64
write('tokens_64_mod64.i32', 'i', ints_mod(1010, 64, 64))
