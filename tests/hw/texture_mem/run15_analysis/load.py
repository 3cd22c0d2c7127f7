import subprocess, csv, io, math
TB = {"f32": 4, "u8": 1, "f32x2": 8, "f32x4": 16, "u16x4": 8, "u8x4": 4}
M = {"l1tex__data_pipe_tex_wavefronts_mem_texture.sum": "waves",
     "l1tex__t_set_conflicts_pipe_tex_mem_texture.sum": "conf",
     "l1tex__t_set_accesses_pipe_tex_mem_texture.sum": "tags",
     "l1tex__t_sectors_pipe_tex_mem_texture.sum": "sect",
     "l1tex__t_requests_pipe_tex_mem_texture.sum": "req"}
def load(d, csvname="tex13_probe.csv.zst"):
    arrs = {}
    for l in open(d + "/arrays.txt"):
        p = l.split()
        arrs[p[0]] = (p[1], int(p[2]), int(p[3]), int(p[4]))
    raw = subprocess.run(["zstd", "-dc", d + "/ncu/" + csvname], capture_output=True).stdout.decode()
    meas = {}
    for r in csv.reader(io.StringIO(raw)):
        if r[0] == "ID": continue
        if r[12] in M:
            meas.setdefault(int(r[0]), {})[M[r[12]]] = int(float(r[14].replace(",", "")))
    out = []
    for l in open(d + "/launches.txt"):
        p = l.split()
        idx, kern, name, arr, filt, mask = int(p[0]), p[1], p[2], p[3], p[4], int(p[5], 16)
        c = [float(v) for v in p[6:6 + 96]]
        if len(c) < 96: continue
        kind, W, H, D = arrs[arr]
        lanes = []
        for ln in range(32):
            if mask >> ln & 1:
                x, y, z = (math.floor(c[3 * ln]), math.floor(c[3 * ln + 1]), math.floor(c[3 * ln + 2]))
                x = min(max(x, 0), W - 1); y = min(max(y, 0), H - 1); z = min(max(z, 0), D - 1)
                lanes.append((ln, x, y, z))
        out.append(dict(name=name, kind=kind, bytes=TB[kind], dims=(W, H, D), vol=D > 1,
                        filt=filt, lanes=lanes, m=meas.get(idx, {})))
    return out
