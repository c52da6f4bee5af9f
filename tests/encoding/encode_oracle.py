#!/usr/bin/env python3
"""Encode oracle: random instances of every form in our table (every modifier value, random
registers/immediates/control bits) are encoded by us, disassembled by nvdisasm in one batch and
compared line by line with our printer. Also checks decode(encode(x)) == x and that our text
parses back to the same bits.

usage: encode_oracle.py --codec PATH/sass-codec [--arch SM90|SM100|SM120] [--seed S] [--per-form N] [--show K]
Fails (never skips) when nvdisasm is missing.
"""
import argparse, collections, os, subprocess, sys, tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import nvdis


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument('--codec', required=True)
    ap.add_argument('--arch', default='SM90', choices=['SM80', 'SM86', 'SM89', 'SM90', 'SM100', 'SM120'])
    ap.add_argument('--seed', type=int, default=1)
    ap.add_argument('--per-form', type=int, default=12)
    ap.add_argument('--show', type=int, default=20)
    a = ap.parse_args()
    nvd = nvdis.find_nvdisasm()
    with tempfile.TemporaryDirectory(prefix='encode-oracle-') as tmp:
        binf, txtf = os.path.join(tmp, 's.bin'), os.path.join(tmp, 's.txt')
        r = subprocess.run([a.codec, '--arch', a.arch, 'sample', str(a.seed), str(a.per_form), binf, txtf],
                           capture_output=True, text=True)
        if r.returncode:
            print('FAIL: sass-codec sample:\n' + r.stderr)
            return 1
        ours = [l.split('\t') for l in open(txtf).read().splitlines()]
        words = []
        data = open(binf, 'rb').read()
        for i in range(0, len(data), 16):
            words.append((int.from_bytes(data[i:i + 8], 'little'),
                          int.from_bytes(data[i + 8:i + 16], 'little')))
        theirs = nvdis.disasm(words, arch=a.arch, nvdisasm=nvd)
    bad = collections.defaultdict(list)
    rt_bad, parse_bad = collections.defaultdict(list), collections.defaultdict(list)
    forms = set()
    ambig = 0
    for (text, form, rt, pt), want, w in zip(ours, theirs, words):
        forms.add(form)
        if want != text:
            bad[form].append((w, want, text))
        if rt != 'RT_OK':
            rt_bad[form].append((rt, text))
        if pt == 'PARSE_AMBIG':
            ambig += 1
        elif pt != 'PARSE_OK':
            parse_bad[form].append((pt, text))
    print(f'encode oracle ({a.arch}): {len(forms)} forms, {len(ours)} instructions, '
          f'{sum(map(len, bad.values()))} nvdisasm mismatches in {len(bad)} forms, '
          f'{sum(map(len, rt_bad.values()))} decode round-trip failures, '
          f'{sum(map(len, parse_bad.values()))} parse round-trip failures, '
          f'{ambig} ambiguous spellings (same text, other bits)')
    shown = 0
    for form, items in bad.items():
        if shown >= a.show:
            break
        shown += 1
        w, want, text = items[0]
        print(f'MISMATCH {form}  ({len(items)}x)\n    words:    {w[0]:#018x} {w[1]:#018x}\n'
              f'    nvdisasm: {want}\n    ours:     {text}')
    for name, d in (('DECODE-RT', rt_bad), ('PARSE-RT', parse_bad)):
        for form, items in list(d.items())[:a.show]:
            print(f'{name} {form} ({len(items)}x): {items[0]}')
    return 1 if bad or rt_bad or parse_bad else 0


if __name__ == '__main__':
    sys.exit(main())
