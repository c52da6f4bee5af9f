#!/usr/bin/env python3
"""Texture and surface instructions end to end (src/lower/TextureOps.cpp).

Compiles tests/codegen/texture/forms.ptx (every tex/tld4/suld/sust/sured form optxas lowers, with
bindless handles in kernel parameters) with optxas at -O0 and -O3 and with ptxas for sm_90, and
checks that
  - nvdisasm decodes every instruction of ours and the hazard checker finds no hazard;
  - the texture/surface instructions are the ones ptxas emits: the same multiset of shapes
    (mnemonic with modifiers, and the dimension operand of TEX/TLD/TLD4/TXD). Registers, write
    masks and order are free (ptxas narrows masks to the components used; optxas writes all four).

undefined.ptx (coordinates and data the program never writes; RZ has no encoding there) is
checked as forms.ptx is.

Then compiles tests/codegen/texture/texref.ptx (module-scope .texref/.surfref used by name),
independent.ptx (the independent texture mode: .texref with .samplerref) and queries.ptx
(txq/suq through TXQ and the descriptor table, istypep) the same way and also
compares the ELF with ptxas's (elfcompare.py: sections, symbols with their
STT_CUDA_TEXTURE/SURFACE types, the R_CUDA_*_HEADER_INDEX relocations on the bank-0 slots after
the parameters, .nv.info attributes; with --values their values, so SAMPLER_INIT's too).

The same files are also compiled for sm_80 and sm_86 (the .target rewritten): Ampere's bound
forms (the handle a bank-0 word index, TEX.SCR ..., 0x0, 0x58). There ptxas's .SCR, which
splits the coordinates over Ra and Rb, is ours only where that split is the plain layout, so
forms.ptx's shapes are compared without it; the others exactly, with the ELF.

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


def shapes(cubin, drop_scr=False):
    out = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True)
    if out.returncode:
        raise RuntimeError("nvdisasm: " + out.stderr.strip())
    found = collections.Counter()
    for m in SHAPE_RE.finditer(out.stdout):
        ops = [o.strip() for o in m.group(2).split(",")]
        mn = m.group(1).replace(".SCR", "") if drop_scr else m.group(1)
        found[" ".join([mn] + [o for o in ops if o in DIMS])] += 1
    return found


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    a = ap.parse_args()
    for tool in (PTXAS, NVDISASM):
        if not os.path.exists(tool):
            print(f"FAIL: {tool} (an oracle) is missing")
            return 1
    fails = 0
    for arch in ("sm_90", "sm_86", "sm_80"):
        for name, min_count, compare_elf in (("forms.ptx", 20, False), ("texref.ptx", 5, True),
                                             ("independent.ptx", 2, True), ("queries.ptx", 3, True),
                                             ("undefined.ptx", 6, False)):
            fails += check(a.optxas, os.path.join(HERE, "texture", name), min_count, compare_elf, arch)
    return 1 if fails else 0


def check(optxas, src, min_count, compare_elf, arch):
    name = os.path.basename(src) + ("" if arch == "sm_90" else f" ({arch})")
    drop_scr = arch != "sm_90" and os.path.basename(src) == "forms.ptx"
    fails = 0
    with tempfile.TemporaryDirectory(prefix="texture-test-") as tmp:
        if arch != "sm_90":
            text = re.sub(r"^\.target sm_90", ".target " + arch, open(src).read(), flags=re.M)
            src = os.path.join(tmp, os.path.basename(src))
            open(src, "w").write(text)
        ref = os.path.join(tmp, "ptxas.cubin")
        r = subprocess.run([PTXAS, f"-arch={arch}", src, "-o", ref], capture_output=True, text=True)
        if r.returncode:
            print(f"FAIL: ptxas rejected {name}:\n" + r.stderr)
            return 1
        want = shapes(ref, drop_scr)
        if sum(want.values()) < min_count:
            print(f"FAIL: ptxas kept only {sum(want.values())} texture/surface instructions")
            return 1
        for opt in ("-O0", "-O3"):
            before = fails
            ours = os.path.join(tmp, f"ours{opt}.cubin")
            r = subprocess.run([optxas, f"-arch={arch}", opt, src, "-o", ours], capture_output=True, text=True)
            if r.returncode:
                print(f"FAIL {name} {opt}: optxas:\n{r.stdout}{r.stderr}")
                fails += 1
                continue
            # hazards.py decodes through nvdisasm and exits non-zero on any hazard.
            h = subprocess.run([sys.executable, os.path.join(HERE, "hazards.py"), ours],
                               capture_output=True, text=True)
            if h.returncode:
                print(f"FAIL {name} {opt}: hazards:\n{h.stdout}{h.stderr}")
                fails += 1
            got = shapes(ours, drop_scr)
            if got != want:
                print(f"FAIL {name} {opt}: texture/surface instructions differ from ptxas's")
                print("  only ptxas:", sorted((want - got).elements()))
                print("  only ours: ", sorted((got - want).elements()))
                fails += 1
            if compare_elf:
                e = subprocess.run([sys.executable, os.path.join(HERE, "elfcompare.py"), ours, ref, "--values"],
                                   capture_output=True, text=True)
                if e.returncode:
                    print(f"FAIL {name} {opt}: ELF differs from ptxas's:\n{e.stdout}{e.stderr}")
                    fails += 1
            if fails == before:
                print(f"ok   {name} {opt}: {sum(got.values())} texture/surface instructions as ptxas, hazard-free"
                      + (", ELF as ptxas's" if compare_elf else ""))
    return fails


if __name__ == "__main__":
    sys.exit(main())
