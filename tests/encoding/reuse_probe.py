#!/usr/bin/env python3
"""For one sample of every form, set each reuse bit (122..125) alone and report which operand
nvdisasm marks .reuse (or that the bit is rejected). Used to fill the tables' reuse slots.
usage: reuse_probe.py SASS_CODEC [OPCODE_FILTER]"""
import os, subprocess, sys, tempfile, re
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nvdis import disasm
from probe import setbits

codec = sys.argv[1]
filt = sys.argv[2] if len(sys.argv) > 2 else ''
with tempfile.TemporaryDirectory() as t:
    subprocess.run([codec, 'sample', '3', '1', t + '/s.bin', t + '/s.txt'], check=True,
                   capture_output=True)
    data = open(t + '/s.bin', 'rb').read()
    txt = [l.split('\t') for l in open(t + '/s.txt').read().splitlines()]
ws = [(int.from_bytes(data[i:i + 8], 'little'), int.from_bytes(data[i + 8:i + 16], 'little'))
      for i in range(0, len(data), 16)]
sel = [i for i, x in enumerate(txt) if x[1].startswith(filt)]
words = []
for i in sel:
    w = ws[i]
    w = setbits(w, 105, 4, 2); w = setbits(w, 109, 1, 1); w = setbits(w, 110, 6, 0x3f)
    w = setbits(w, 116, 6, 0); w = setbits(w, 122, 4, 0)
    words.append(w)
    for b in range(4):
        words.append(setbits(w, 122 + b, 1, 1))
res = disasm(words)
for k, i in enumerate(sel):
    base = res[5 * k]
    out = []
    for b in range(4):
        r = res[5 * k + 1 + b]
        if r is None:
            out.append(f'{b}:-')
            continue
        toks = [x.strip() for x in re.split(r'[ ,]+', r)]
        j = [n for n, x in enumerate(toks) if '.reuse' in x]
        out.append(f'{b}:{toks[j[0]] if j else "="}')
    print(f'{txt[i][1][:60]:60s} # {" ".join(out)} # {base}')
