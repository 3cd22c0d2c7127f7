#!/usr/bin/env python3
"""Runs the validation specs (*.toml in this folder) on a real GPU, for Nsight Compute.

Needs Python >= 3.11 (tomllib), libcuda and libnvrtc (CUDA 12/13). Every [[launch]] of every
spec given is compiled with NVRTC (-arch=sm_90, name expressions for template kernels),
launched once, synchronised, and listed in order in launches.csv, so that ncu's launch ID n is
row n. Outputs named in [outputs] are written after the spec's last launch, and each
source's CUBIN is kept as OUTDIR/<source>.cubin (read it with `cuobjdump -sass`).

    ncu --csv --log-file ncu.csv --metrics $(cat metrics.txt) python3 run_specs.py OUTDIR *.toml
"""
import csv, ctypes, ctypes.util, os, random, struct, sys, tomllib

def lib(names):
    for n in names:
        try:
            return ctypes.CDLL(n)
        except OSError:
            pass
    sys.exit(f"cannot load any of {names}")

cuda = lib(["libcuda.so.1", "libcuda.so"])
nvrtc = lib(["libnvrtc.so.13", "libnvrtc.so.12", "libnvrtc.so",
             "/usr/local/cuda/lib64/libnvrtc.so"])
INC = os.environ.get("CUDA_INCLUDE", "/usr/local/cuda/include")

def ck(r, what):
    if r != 0:
        sys.exit(f"{what} failed with {r}")

def compile_module(path, names, outdir):
    src = open(path, "rb").read()
    prog = ctypes.c_void_p()
    ck(nvrtc.nvrtcCreateProgram(ctypes.byref(prog), src, os.path.basename(path).encode(), 0, None, None), "nvrtcCreateProgram")
    for n in names:
        ck(nvrtc.nvrtcAddNameExpression(prog, n.encode()), "nvrtcAddNameExpression " + n)
    opts = [b"-arch=sm_90", b"-std=c++17", b"-I" + INC.encode()]
    r = nvrtc.nvrtcCompileProgram(prog, len(opts), (ctypes.c_char_p * len(opts))(*opts))
    size = ctypes.c_size_t()
    nvrtc.nvrtcGetProgramLogSize(prog, ctypes.byref(size))
    log = ctypes.create_string_buffer(size.value)
    nvrtc.nvrtcGetProgramLog(prog, log)
    ck(r, f"compiling {path}: {log.value.decode()}")
    ck(nvrtc.nvrtcGetCUBINSize(prog, ctypes.byref(size)), "nvrtcGetCUBINSize")
    cubin = ctypes.create_string_buffer(size.value)
    ck(nvrtc.nvrtcGetCUBIN(prog, cubin), "nvrtcGetCUBIN")
    with open(os.path.join(outdir, os.path.basename(path) + ".cubin"), "wb") as fh:
        fh.write(cubin.raw)  # for `cuobjdump -sass`
    lowered = {}
    for n in names:
        p = ctypes.c_char_p()
        ck(nvrtc.nvrtcGetLoweredName(prog, n.encode(), ctypes.byref(p)), "nvrtcGetLoweredName " + n)
        lowered[n] = p.value
    module = ctypes.c_void_p()
    ck(cuda.cuModuleLoadData(ctypes.byref(module), cubin), "cuModuleLoadData")
    return module, lowered

PACK = {"f32": "f", "i32": "i", "u32": "I", "f64": "d", "i64": "q", "u64": "Q", "u8": "B"}

def buffer_bytes(spec_dir, b):
    ty, n = b["type"], b["len"]
    fmt = PACK[ty]
    if "values" in b:
        vals = list(b["values"]) + [0] * (n - len(b["values"]))
        return struct.pack(f"<{n}{fmt}", *vals[:n])
    init = b.get("init", "zeros")
    if init == "zeros":
        return bytes(n * struct.calcsize(fmt))
    if init == "iota":
        return struct.pack(f"<{n}{fmt}", *[(float(i) if fmt in "fd" else i) for i in range(n)])
    if init.startswith("fill:"):
        v = float(init[5:]) if fmt in "fd" else int(init[5:])
        return struct.pack(f"<{n}{fmt}", *([v] * n))
    if init.startswith("file:"):
        return open(os.path.join(spec_dir, init[5:]), "rb").read()
    if init.startswith("random:"):
        rng = random.Random(int(init[7:]))
        return bytes(rng.getrandbits(8) for _ in range(n * struct.calcsize(fmt)))
    sys.exit(f"unknown init {init}")

def main():
    outdir, specs = sys.argv[1], sys.argv[2:]
    os.makedirs(outdir, exist_ok=True)
    ck(cuda.cuInit(0), "cuInit")
    dev, ctx = ctypes.c_int(), ctypes.c_void_p()
    ck(cuda.cuDeviceGet(ctypes.byref(dev), 0), "cuDeviceGet")
    ck(cuda.cuDevicePrimaryCtxRetain(ctypes.byref(ctx), dev), "cuDevicePrimaryCtxRetain")
    ck(cuda.cuCtxSetCurrent(ctx), "cuCtxSetCurrent")
    rows = []
    for spec_path in specs:
        spec_dir = os.path.dirname(os.path.abspath(spec_path))
        spec = tomllib.load(open(spec_path, "rb"))
        names = sorted({l["kernel"] for l in spec["launch"]})
        module, lowered = compile_module(os.path.join(spec_dir, spec["source"]), names, outdir)
        ptrs = {}
        for name, b in spec.get("buffers", {}).items():
            data = buffer_bytes(spec_dir, b)
            p = ctypes.c_uint64()
            ck(cuda.cuMemAlloc_v2(ctypes.byref(p), max(len(data), 1)), "cuMemAlloc")
            ck(cuda.cuMemcpyHtoD_v2(p, data, len(data)), "cuMemcpyHtoD")
            ptrs[name] = (p, len(data))
        for i, l in enumerate(spec["launch"]):
            f = ctypes.c_void_p()
            ck(cuda.cuModuleGetFunction(ctypes.byref(f), module, lowered[l["kernel"]]), "cuModuleGetFunction")
            vals = []
            for a in l["args"]:
                if isinstance(a, str):
                    vals.append(ctypes.c_uint64(ptrs[a][0].value))
                elif isinstance(a, float):
                    vals.append(ctypes.c_float(a))
                else:
                    vals.append(ctypes.c_int32(a))
            argv = (ctypes.c_void_p * len(vals))(*[ctypes.cast(ctypes.pointer(v), ctypes.c_void_p) for v in vals])
            g = list(l.get("grid", [1])) + [1, 1]
            bl = list(l.get("block", [32])) + [1, 1]
            ck(cuda.cuLaunchKernel(f, g[0], g[1], g[2], bl[0], bl[1], bl[2], l.get("shared", 0), None, argv, None), "cuLaunchKernel " + l["kernel"])
            ck(cuda.cuCtxSynchronize(), "cuCtxSynchronize after " + l["kernel"])
            rows.append([len(rows), os.path.basename(spec_path), i, l["kernel"], " ".join(map(str, l["args"])), g[:3], bl[:3]])
        for name, rel in spec.get("outputs", {}).items():
            p, n = ptrs[name]
            host = ctypes.create_string_buffer(n)
            ck(cuda.cuMemcpyDtoH_v2(host, p, n), "cuMemcpyDtoH")
            dst = os.path.join(outdir, os.path.basename(rel))
            open(dst, "wb").write(host.raw)
        for p, _ in ptrs.values():
            cuda.cuMemFree_v2(p)
    with open(os.path.join(outdir, "launches.csv"), "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["ncu_id", "spec", "launch_index", "kernel", "args", "grid", "block"])
        w.writerows(rows)

if __name__ == "__main__":
    main()
