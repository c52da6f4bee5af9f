#!/usr/bin/env python3
"""Oracle test of the cubin reader and writer: ptxas -> cubin A; read A into the model, write the
model -> cubin B; require B == A byte for byte (so cuobjdump -elf and nvdisasm -c print the same
for both), and that cuobjdump -elf and nvdisasm -c accept B.

usage: roundtrip.py --tool BUILD/bin/cubin-roundtrip --inputs DIR --arch sm_90 [--extra FILE.ptx]

Every input PTX under DIR is assembled for the given arch in whole-program mode and with -c
(X.lineinfo.ptx with -lineinfo, X.g.ptx with -g). ptxas, cuobjdump and nvdisasm are oracles: a
missing one is a failure, not a skip.
"""
import argparse, os, shutil, subprocess, sys, tempfile

ONLY_RELOCATABLE = {'extern_fn'}  # references symbols defined elsewhere


def tool(name, env):
    path = os.environ.get(env) or shutil.which(name) or os.path.expanduser(f'~/.cache/cuda-disasm/{name}')
    if not path or not os.access(path, os.X_OK):
        sys.exit(f'FAIL: oracle tool {name} not found (set {env} or install it)')
    return path


def run(cmd):
    return subprocess.run(cmd, capture_output=True, text=True)


def sm_of(name):
    return int(''.join(c for c in name[3:] if c.isdigit()))


def ptx_target(path):
    for line in open(path):
        if line.startswith('.target'):
            return sm_of(line.split()[1].rstrip(','))
    return 0


def cases(inputs, arch, extra, quick):
    files = sorted(os.path.join(inputs, f) for f in os.listdir(inputs) if f.endswith('.ptx')) + extra
    for path in files:
        base = os.path.basename(path)[:-4]
        stem = base.split('.')[0]
        if sm_of(arch) < ptx_target(path):
            continue
        if quick and '.' in base:
            continue
        opts = ['-lineinfo'] if base.endswith('.lineinfo') else ['-g'] if base.endswith('.g') else []
        modes = [['-c']] if stem in ONLY_RELOCATABLE else [[], ['-c']]
        for m in modes:
            yield path, opts + m


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--tool', required=True)
    ap.add_argument('--inputs', required=True)
    ap.add_argument('--arch', required=True)
    ap.add_argument('--extra', action='append', default=[])
    ap.add_argument('--quick', action='store_true', help='skip the -lineinfo/-g variants')
    a = ap.parse_args()
    ptxas = shutil.which('ptxas')
    if not ptxas:
        sys.exit('FAIL: ptxas not found on PATH')
    cuobjdump = tool('cuobjdump', 'CUOBJDUMP')
    nvdisasm = tool('nvdisasm', 'NVDISASM')
    failures, passed = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for n, (path, opts) in enumerate(cases(a.inputs, a.arch, a.extra, a.quick)):
            label = f'{os.path.basename(path)} {a.arch} {" ".join(opts)}'.strip()
            A = os.path.join(tmp, f'a{n}.cubin')
            B = os.path.join(tmp, f'b{n}.cubin')
            r = run([ptxas, f'-arch={a.arch}', *opts, path, '-o', A])
            if r.returncode:
                failures.append(f'{label}: ptxas failed: {r.stderr.strip()}')
                continue
            r = run([a.tool, A, '-o', B])
            if r.returncode:
                failures.append(f'{label}: round trip differs:\n{r.stdout}{r.stderr}')
                continue
            with open(A, 'rb') as fa, open(B, 'rb') as fb:
                if fa.read() != fb.read():
                    failures.append(f'{label}: tool reported equality but files differ')
                    continue
            # B is A byte for byte, so the decoders print the same for both; what remains to show
            # is that they accept B and decode every section of it.
            for name, cmd in (('cuobjdump -elf', [cuobjdump, '-elf']), ('nvdisasm -c', [nvdisasm, '-c'])):
                rb = run(cmd + [B])
                if rb.returncode or not rb.stdout.strip() or rb.stderr.strip():
                    failures.append(f'{label}: {name} rejected the written cubin: {rb.stderr.strip()}')
            passed += 1
    for f in failures:
        print('FAIL', f)
    print(f'{a.arch}: {passed} cubins round-tripped byte for byte, {len(failures)} failures')
    return 1 if failures or passed == 0 else 0


if __name__ == '__main__':
    sys.exit(main())
