#!/usr/bin/env python3
"""Regenerates the table of tests/corpus/MANIFEST.md (between the markers) from the specs, the
provenance lines of the .cu files, the committed PTX and what `gpumemsim run` says today.
Usage, from the repository root: python3 tests/corpus/tools/manifest.py [path/to/gpumemsim]"""
import glob, os, re, subprocess, sys, time, tomllib

GMS = sys.argv[1] if len(sys.argv) > 1 else 'target/release/gpumemsim'
ROOT = 'tests/corpus'
CAVEATS = {
    'BlackScholes': 'approximate math: `__expf`/`__logf` (ex2/lg2.approx), `rsqrtf`, `__fdividef` (div.approx)',
    'binomialOptions': 'approximate math: `__expf` (ex2.approx); plain `mul.f32` then `sub.f32` (`S * __expf(..) - X`): ptxas may contract them into FFMA',
    'blog_finite_difference': 'plain `mul.f32` and `add.f32` in the same kernels: ptxas may contract them into FFMA',
    'dct8x8': 'plain `mul.f32` and `add.f32` in CUDAkernel2DCT/2IDCT: ptxas contracts them into FFMA (32 `fma.rn` in the PTX, 73 `FFMA` in the SASS; the PTX and SASS runs differ in `dct8x8_src.bin`)',
    'llmc_layernorm_forward': '`rsqrtf` (rsqrt.approx); `sum2 - sum * sum` as plain `mul.f32` and `sub.f32`: ptxas contracts them (versions 4 and 5 differ between the PTX and SASS runs)',
    'llmc_softmax_forward': "`expf`'s `ex2.approx.ftz.f32` (exact under both ISAs); `out4`: a data race in softmax_forward_kernel4 (`max_or_sum_storage[0]` rewritten, line 229, while other warps may still read it, line 209; racecheck reports it), its H200 value depends on warp timing and is not compared",
}
ORDER = {
    'warpAggregatedAtomicsCG': 'filtered and indicesBuckets: order of atomics (compared sorted)',
    'simpleAtomicIntrinsics': 'words 2 (atomicExch) and 7 (atomicCAS chain) depend on atomic order (skipped)',
}

def provenance(cu):
    srcs = []
    for line in open(cu, encoding='utf-8', errors='replace'):
        m = re.match(r'// gpumemsim corpus \(.*\): copied from https://github.com/(\S+)', line)
        if m:
            repo = m.group(1)
        m = re.match(r'//   file (\S+), lines (.*), commit ([0-9a-f]{40}) \(([^;]+);', line)
        if m:
            srcs.append((repo, m.group(1), m.group(3), m.group(4)))
    return srcs

rows = []
nprog = nkern = nlaunch = 0
ok_prog = ok_kern = 0
errors = {}
for spec in sorted(glob.glob(f'{ROOT}/*/*.toml')):
    name = os.path.splitext(os.path.basename(spec))[0]
    d = os.path.dirname(spec)
    t = tomllib.load(open(spec, 'rb'))
    cu = os.path.normpath(os.path.join(d, t['source']))
    kernels = []
    def step_launches(steps, times=1):
        # [[step]] tables: launches, repeats expanded
        n = 0
        for st in steps:
            if st.get('kind') == 'launch':
                if st['kernel'] not in kernels:
                    kernels.append(st['kernel'])
                n += 1
            elif st.get('kind') == 'repeat':
                n += st['times'] * step_launches(st.get('steps', []))
        return n
    for l in t.get('launch', []):
        if l['kernel'] not in kernels:
            kernels.append(l['kernel'])
    launches = len(t.get('launch', [])) + step_launches(t.get('step', []))
    srcs = provenance(cu)
    main = [s for s in srcs if s[1].endswith(('.cu', '.cuh'))] or srcs
    repo, path, commit, lic = main[-1]
    t0 = time.time()
    r = subprocess.run([GMS, 'run', spec], capture_output=True, text=True)
    dt = time.time() - t0
    if r.returncode == 0:
        status = f'runs ({dt:.2f} s)'
        ok_prog += 1
        ok_kern += len(kernels)
    else:
        msg = (r.stderr.strip().splitlines() or ['?'])[0]
        msg = re.sub(r'/\S*/tests/corpus/', '', msg.replace('error: ', '', 1))
        status = f'fails: `{msg}`'
        key = re.sub(r'^(.*?: )?\S+:\d+:\d+: ', '', msg)
        errors.setdefault(key, []).append((name, len(kernels)))
    nprog += 1
    nkern += len(kernels)
    nlaunch += launches
    notes = '; '.join(x for x in [CAVEATS.get(name, ''), ORDER.get(name, '')] if x) or 'exact'
    src = f'[{repo}](https://github.com/{repo}) `{path}` @ {commit[:10]}, {lic}'
    if len(srcs) > 1:
        src += ' (+ ' + ', '.join(f'`{os.path.basename(s[1])}`' for s in srcs if s is not main[-1]) + ')'
    ks = ', '.join(f'`{k}`' for k in kernels)
    rows.append(f'| [{name}]({os.path.relpath(d, ROOT)}/) | {src} | {ks} ({len(kernels)} kernels, {launches} launches) | {status} | {notes} |')

table = ['| program | source (repo, path, commit, license) | kernels | gpumemsim today | float / order caveats |',
         '|---|---|---|---|---|'] + rows
summary = [f'{nprog} programs, {nkern} kernels ({nlaunch} launches). gpumemsim today: {ok_prog} programs '
           f'({ok_kern} kernels) run, {nprog - ok_prog} fail:']
for e, who in errors.items():
    summary.append(f'- `{e}`: ' + ', '.join(f'{n} ({k} kernels)' for n, k in who))
text = open(f'{ROOT}/MANIFEST.md').read()
new = '\n'.join(summary) + '\n\n' + '\n'.join(table)
text = re.sub(r'(<!-- table:begin -->\n).*?(<!-- table:end -->)', lambda m: m.group(1) + new + '\n' + m.group(2), text, flags=re.S)
open(f'{ROOT}/MANIFEST.md', 'w').write(text)
print('\n'.join(summary))
