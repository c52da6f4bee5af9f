#!/usr/bin/env python3
"""Bit-probing helper: shows what nvdisasm makes of single-bit flips or field values.

usage: probe.py flip LO HI [--all]        flip each bit 0..104 (or 0..127) and print changed text
       probe.py field LO HI POS WIDTH     print the text for every value of bits [POS, POS+WIDTH)
       probe.py show LO HI [LO HI ...]    print the text of the given words
This is how the encoding tables' facts were found; see docs/sass-encoding.md.
"""
import sys, os
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvdis import disasm


def setbits(w, pos, width, val):
    v = (w[1] << 64) | w[0]
    m = ((1 << width) - 1) << pos
    v = (v & ~m) | ((val << pos) & m)
    return (v & (2**64 - 1), v >> 64)


def main(a):
    arch = "SM90"
    if "--arch" in a:
        i = a.index("--arch"); arch = a[i + 1]; del a[i:i + 2]
    cmd = a[0]
    lo, hi = int(a[1], 16), int(a[2], 16)
    w = (lo, hi)
    if cmd == 'flip':
        top = 128 if '--all' in a else 105
        words = [w] + [setbits(w, b, 1, ((((w[1] << 64) | w[0]) >> b) & 1) ^ 1) for b in range(top)]
        t = disasm(words, arch=arch)
        print('base:', t[0])
        for b in range(top):
            if t[b + 1] != t[0]:
                print(f'{b:3d}: {t[b + 1]}')
    elif cmd == 'field':
        pos, width = int(a[3]), int(a[4])
        words = [setbits(w, pos, width, v) for v in range(1 << width)]
        for v, t in enumerate(disasm(words, arch=arch)):
            print(f'{v:#x}: {t}')
    elif cmd == 'show':
        ws = [(int(a[i], 16), int(a[i + 1], 16)) for i in range(1, len(a), 2)]
        for x, t in zip(ws, disasm(ws, arch=arch)):
            print(f'{x[0]:#018x} {x[1]:#018x}: {t}')


if __name__ == '__main__':
    main(sys.argv[1:])
