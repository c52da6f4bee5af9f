#!/usr/bin/env python3
"""Tests of tools/cubin-diff on ptxas cubins whose differences are known from how they were made.

usage: diff_test.py --diff BUILD/bin/cubin-diff --inputs DIR
ptxas is the oracle that produces the cubins; a missing ptxas is a failure.
"""
import argparse, os, shutil, subprocess, sys, tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--diff', required=True)
    ap.add_argument('--inputs', required=True)
    a = ap.parse_args()
    ptxas = shutil.which('ptxas')
    if not ptxas:
        sys.exit('FAIL: ptxas not found on PATH')
    failures = []

    def check(label, cond, detail=''):
        if not cond:
            failures.append(f'{label} {detail}')

    with tempfile.TemporaryDirectory() as tmp:
        def cubin(name, ptx, *opts):
            out = os.path.join(tmp, name)
            r = subprocess.run([ptxas, *opts, os.path.join(a.inputs, ptx), '-o', out], capture_output=True, text=True)
            if r.returncode:
                sys.exit(f'FAIL: ptxas {opts} {ptx}: {r.stderr}')
            return out

        def diff(*args):
            return subprocess.run([a.diff, *args], capture_output=True, text=True)

        plain = cubin('plain.cubin', 'local.ptx', '-arch=sm_90')
        again = cubin('again.cubin', 'local.ptx', '-arch=sm_90')
        capped = cubin('capped.cubin', 'local.ptx', '-arch=sm_90', '-maxrregcount=24')
        reloc = cubin('reloc.cubin', 'local.ptx', '-arch=sm_90', '-c')
        globs = cubin('globals.cubin', 'globals.ptx', '-arch=sm_90')

        r = diff(plain, again)
        check('identical cubins:', r.returncode == 0 and r.stdout == '', r.stdout)

        # A register cap changes the code, the register count and EIATTR_MAXREG_COUNT (0x18 = 24).
        r = diff(plain, capped)
        out = r.stdout
        check('maxrregcount: exit status', r.returncode == 1, str(r.returncode))
        check('maxrregcount: MAXREG_COUNT reported by name', 'EIATTR_MAXREG_COUNT 0xff vs 0x18' in out, out)
        check('maxrregcount: REGCOUNT reported', 'EIATTR_REGCOUNT:' in out, out)
        check('maxrregcount: code reported', 'code bytes differ' in out, out)
        check('maxrregcount: command line reported', '.note.nv.tkinfo' in out, out)
        r = diff('--ignore-code', '--ignore-toolkit', '--ignore-resources', plain, capped)
        check('maxrregcount, ignoring code/toolkit/resources: only MAXREG_COUNT',
              r.stdout.strip().splitlines() == ['function _Z7k_localPiii: EIATTR_MAXREG_COUNT 0xff vs 0x18'], r.stdout)

        # Executable vs relocatable: type, stack attribute kind, sections only one of them has.
        r = diff('--ignore-toolkit', plain, reloc)
        out = r.stdout
        check('-c: ELF type', 'ELF type: EXEC vs REL' in out, out)
        check('-c: stack size attributes', 'EIATTR_MIN_STACK_SIZE' in out and 'EIATTR_MAX_STACK_SIZE' in out, out)
        check('-c: reserved shared section', 'section .nv.shared.reserved.0: missing in B' in out, out)
        check('-c: unified-table symbols', 'symbol __UFT_OFFSET: missing in A' in out, out)

        # Different modules: functions, sections and variables missing on either side.
        r = diff('--ignore-code', plain, globs)
        out = r.stdout
        check('modules: functions', 'function _Z7k_localPiii: missing in B' in out and
              'function _Z9k_globalsPii: missing in A' in out, out)
        check('modules: sections', 'section .nv.constant3: missing in A' in out, out)
        check('modules: variables', 'variable g_init: missing in A' in out, out)
        check('modules: relocations', 'relocation' in out, out)

        # Not a cubin: exit status 2 and a message.
        junk = os.path.join(tmp, 'junk.cubin')
        open(junk, 'wb').write(b'not an ELF file')
        r = diff(plain, junk)
        check('junk input:', r.returncode == 2 and 'not an ELF file' in r.stderr, r.stderr)

    for f in failures:
        print('FAIL', f)
    print(f'cubin-diff: {len(failures)} failures')
    return 1 if failures else 0


if __name__ == '__main__':
    sys.exit(main())
