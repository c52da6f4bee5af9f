#!/usr/bin/env python3
"""Like `probe.py flip`, but summarises: for each bit, the tokens that changed.

usage: flipdiff.py LO HI [LO HI ...]
"""
import sys, os, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvdis import disasm
from probe import setbits


def toks(t):
    return re.split(r'(?<=[ ,])', t) if t else []


def main(a):
    a = [x for x in a if x != '--all']
    for i in range(0, len(a), 2):
        w = (int(a[i], 16), int(a[i + 1], 16))
        words = [w] + [setbits(w, b, 1, (((w[1] << 64) | w[0]) >> b & 1) ^ 1) for b in range(105)]
        t = disasm(words)
        print('base:', t[0])
        for b in range(105):
            if t[b + 1] == t[0]:
                continue
            if t[b + 1] is None:
                print(f'  {b:3d}: <invalid>')
                continue
            norm = lambda x: re.sub(r'\b(U?R|U?P|B)[0-9]+', r'\1#', x)
            if norm(t[b + 1]) == norm(t[0]) and '--all' not in a:
                continue
            print(f'  {b:3d}: {t[b + 1]}')


if __name__ == '__main__':
    main(sys.argv[1:])
