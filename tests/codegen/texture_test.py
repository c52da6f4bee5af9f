#!/usr/bin/env python3
"""Texture and surface instructions end to end (src/lower/TextureOps.cpp).

Compiles tests/codegen/texture/forms.ptx (every tex/tld4/suld/sust/sured form optxas lowers, with
bindless handles in kernel parameters) with optxas at -O0 and -O3 and with ptxas for sm_90, and
checks that
  - nvdisasm decodes every instruction of ours and the hazard checker finds no hazard;
  - the texture/surface instructions are the ones ptxas emits: the same multiset of shapes
    (mnemonic with modifiers, and the dimension operand of TEX/TLD/TLD4/TXD). Registers, write
    masks and order are free (ptxas narrows masks to the components used; optxas writes all four).

  texture_test.py --optxas BIN
"""
import argparse
import collections
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"

SHAPE_RE = re.compile(r"\b((?:TEX|TLD4|TLD|TXD|TXQ|SULD|SUST|SURED)(?:\.[A-Z0-9_]+)*)\s+([^;]*);")
DIMS = {"1D", "2D", "3D", "CUBE", "ARRAY_1D", "ARRAY_2D", "ARRAY_CUBE", "TEX_HEADER_DIMENSION"}


def shapes(cubin):
    out = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError("nvdisasm: " + out.stderr.strip())
    found = collections.Counter()
    for m in SHAPE_RE.finditer(out.stdout):
        ops = [o.strip() for o in m.group(2).split(",")]
        found[" ".join([m.group(1)] + [o for o in ops if o in DIMS])] += 1
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    a = ap.parse_args()
    for tool in (PTXAS, NVDISASM):
        if not os.path.exists(tool):
            print(f"FAIL: {tool} (an oracle) is missing")
            return 1
    src = os.path.join(HERE, "texture", "forms.ptx")
    fails = 0
    with tempfile.TemporaryDirectory(prefix="texture-test-") as tmp:
        ref = os.path.join(tmp, "ptxas.cubin")
        r = subprocess.run([PTXAS, "-arch=sm_90", src, "-o", ref], capture_output=True, text=True)
        if r.returncode:
            print("FAIL: ptxas rejected forms.ptx:\n" + r.stderr)
            return 1
        want = shapes(ref)
        if sum(want.values()) < 20:
            print(f"FAIL: ptxas kept only {sum(want.values())} texture/surface instructions")
            return 1
        for opt in ("-O0", "-O3"):
            ours = os.path.join(tmp, f"ours{opt}.cubin")
            r = subprocess.run([a.optxas, "-arch=sm_90", opt, src, "-o", ours], capture_output=True, text=True)
            if r.returncode:
                print(f"FAIL {opt}: optxas:\n{r.stdout}{r.stderr}")
                fails += 1
                continue
            # hazards.py decodes through nvdisasm and exits non-zero on any hazard.
            h = subprocess.run([sys.executable, os.path.join(HERE, "hazards.py"), ours],
                               capture_output=True, text=True)
            if h.returncode:
                print(f"FAIL {opt}: hazards:\n{h.stdout}{h.stderr}")
                fails += 1
            got = shapes(ours)
            if got != want:
                print(f"FAIL {opt}: texture/surface instructions differ from ptxas's")
                print("  only ptxas:", sorted((want - got).elements()))
                print("  only ours: ", sorted((got - want).elements()))
                fails += 1
            else:
                print(f"ok   {opt}: {sum(got.values())} texture/surface instructions as ptxas, hazard-free")
    return 1 if fails else 0


if __name__ == "__main__":
    sys.exit(main())
