#!/usr/bin/env python3
"""Decode-print oracle: every instruction ptxas emits for tests/encoding/inputs/*.ptx must decode,
print exactly as nvdisasm prints it, and re-encode to the same 128 bits.

usage: decode_oracle.py --codec PATH/sass-codec [--ptxas ptxas] [--min-coverage 0.0]
                        [--show N] [--keep DIR] [--arch SM80|SM86|SM89|SM90|SM100|SM120]
                        [--inputs GLOB] [--input-dir DIR]

--arch SM100/SM120 compiles the inputs for sm_100a/sm_120a and decodes with the Blackwell
tables (--inputs restricts the files, e.g. atomics.ptx, to the families the tables model);
SM80/SM86/SM89 compile for sm_80/86/89 with the Ampere/Ada tables (the inputs' .target must allow
it: --input-dir picks another folder, e.g. tests/corpus/ptx for atomics.sm_80.ptx).

An instruction our table does not decode counts as unsupported (reported, lowers coverage);
one we decode but print or re-encode differently is a FAILURE. ptxas and nvdisasm are oracles:
if either is missing the test fails.
"""
import argparse, collections, glob, os, re, shutil, struct, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvdis

HERE = os.path.dirname(os.path.abspath(__file__))


def text_sections(path):
    d = open(path, 'rb').read()
    shoff, = struct.unpack_from('<Q', d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from('<HHH', d, 0x3A)
    hdrs = [struct.unpack_from('<IIQQQQIIQQ', d, shoff + i * shentsize) for i in range(shnum)]
    stro = hdrs[shstrndx][4]
    for h in hdrs:
        name = d[stro + h[0]: d.index(b'\0', stro + h[0])].decode()
        if name.startswith('.text.') and h[1] != 8:
            yield name, d[h[4]: h[4] + h[5]]


def mnemonic(text):
    t = re.sub(r'^@!?U?P[0-9T] ', '', text)
    return t.split()[0].rstrip(';')


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--codec', required=True)
    ap.add_argument('--ptxas', default=os.environ.get('PTXAS') or shutil.which('ptxas') or '/usr/local/cuda/bin/ptxas')
    ap.add_argument('--min-coverage', type=float, default=0.0)
    ap.add_argument('--show', type=int, default=10)
    ap.add_argument('--keep')
    ap.add_argument('--arch', default='SM90', choices=['SM80', 'SM86', 'SM89', 'SM90', 'SM100', 'SM120'])
    ap.add_argument('--inputs', default='*.ptx')
    ap.add_argument('--input-dir', default=os.path.join(HERE, 'inputs'))
    a = ap.parse_args()
    ptxas_arch = {'SM80': 'sm_80', 'SM86': 'sm_86', 'SM89': 'sm_89', 'SM90': 'sm_90',
                  'SM100': 'sm_100a', 'SM120': 'sm_120a'}[a.arch]
    if not os.access(a.ptxas, os.X_OK):
        sys.exit('FAIL: ptxas not found (set PTXAS)')
    nvd = nvdis.find_nvdisasm()

    tmpdir = None if a.keep else tempfile.TemporaryDirectory(prefix='decode-oracle-')
    tmp = a.keep or tmpdir.name
    os.makedirs(tmp, exist_ok=True)
    blob = bytearray()
    origin = []  # (offset, file, section)
    inputs = sorted(glob.glob(os.path.join(a.input_dir, a.inputs)))
    if not inputs:
        sys.exit('FAIL: no inputs')
    for ptx in inputs:
        cubin = os.path.join(tmp, os.path.basename(ptx)[:-4] + '.cubin')
        r = subprocess.run([a.ptxas, '-arch=' + ptxas_arch, ptx, '-o', cubin], capture_output=True, text=True)
        if r.returncode:
            sys.exit(f'FAIL: ptxas {ptx}: {r.stderr}')
        for name, body in text_sections(cubin):
            origin.append((len(blob), os.path.basename(ptx), name))
            blob += body
    raw = os.path.join(tmp, 'all.bin')
    open(raw, 'wb').write(blob)

    r = subprocess.run([nvd, '-b', a.arch, '-hex', raw], capture_output=True, text=True)
    if r.returncode:
        sys.exit('FAIL: nvdisasm: ' + r.stderr)
    theirs = dict(nvdis.parse_listing(r.stdout))
    r = subprocess.run([a.codec, '--arch', a.arch, 'roundtrip', raw], capture_output=True, text=True)
    if r.returncode:
        sys.exit('FAIL: sass-codec roundtrip: ' + r.stderr)
    ours = {}
    for line in r.stdout.splitlines():
        f = line.split('\t')
        ours[int(f[0], 16)] = f[1:]

    def where(addr):
        o = max(x for x in origin if x[0] <= addr)
        return f'{o[1]}:{o[2]}+{addr - o[0]:#x}'

    total = len(blob) // 16
    ok = 0
    failures, unsupported, parse_issues = [], collections.Counter(), []
    unsup_example = {}
    for i in range(total):
        addr = i * 16
        want = theirs.get(addr)
        got = ours.get(addr)
        if want is None:
            failures.append(f'{where(addr)}: nvdisasm printed nothing')
            continue
        status = got[0]
        if status == 'DECODE':
            m = mnemonic(want)
            unsupported[m] += 1
            unsup_example.setdefault(m, (want, got[1]))
            continue
        if status != 'OK':
            failures.append(f'{where(addr)}: {status}: want "{want}" got {got[1:]}')
            continue
        if got[1] != want:
            failures.append(f'{where(addr)}: text mismatch\n    nvdisasm: {want}\n    ours:     {got[1]}')
            continue
        if got[2] not in ('PARSE_OK', 'PARSE_AMBIG'):
            parse_issues.append(f'{where(addr)}: {got[2]}: {want}')
        ok += 1

    cov = ok / total if total else 0.0
    print(f'decode oracle ({a.arch}): {len(inputs)} PTX files, {total} instructions, '
          f'{ok} round-trip exactly ({100 * cov:.1f}%), {sum(unsupported.values())} unsupported, '
          f'{len(failures)} FAILURES, {len(parse_issues)} parse round-trip issues')
    if unsupported:
        print('unsupported (count, example):')
        for m, n in unsupported.most_common(a.show):
            w, e = unsup_example[m]
            print(f'  {n:5d} {w}    [{e[:150]}]')
    for f in failures[:a.show]:
        print('FAIL', f)
    for p in parse_issues[:a.show]:
        print('PARSE', p)
    if failures or parse_issues:
        return 1
    if cov < a.min_coverage:
        print(f'FAIL: coverage {cov:.3f} below the required {a.min_coverage}')
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
