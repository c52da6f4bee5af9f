#!/usr/bin/env python3
"""Slow paths as runtime routines, against ptxas (docs/lowering-fp.md "Slow paths").

Compiles tests/codegen/slowpath/kernels.ptx with optxas and ptxas for sm_90 as a whole program
(-O0, -O3), with -g and with -c, and checks that our cubin has the same function symbols as
ptxas's (name, binding, type, section: `$__internal_<n>_$__cuda_...` WEAK in each kernel's
section, numbered across the module; plain `__cuda_...` functions of their own under -g/-c), the
same code relocations under -g/-c, and that every routine is reached by a CALL. With --sim-diff,
also runs slowpath/int64_divide.ptx (the 64-bit division routines) in the SASS simulator against
the PTX interpreter at -O0, -O3 and -g.

  slow_path_test.py --optxas BIN [--sim-diff BIN]
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402

STT_FUNC = 2


def functions(path):
    secs = elfcompare.read(path)
    return sorted((n, info, sec) for n, info, _, sec in elfcompare.symbols(secs) if info & 0xF == STT_FUNC)


def code_relocations(path):
    secs = elfcompare.read(path)
    return {s["name"]: elfcompare.code_relocations(secs, s["name"][6:]) for s in secs if s["name"].startswith(".text.")}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--sim-diff")
    args = ap.parse_args()
    src = os.path.join(HERE, "slowpath", "kernels.ptx")
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for mode in (["-O3"], ["-O0"], ["-g"], ["-c"]):
            label = " ".join(mode)
            ours, theirs = os.path.join(tmp, "ours.cubin"), os.path.join(tmp, "theirs.cubin")
            subprocess.run([PTXAS, "-arch=sm_90", *mode, src, "-o", theirs], check=True)
            subprocess.run([args.optxas, "-arch=sm_90", *mode, src, "-o", ours], check=True)
            problems = []
            fo, ft = functions(ours), functions(theirs)
            if fo != ft:
                problems.append(f"function symbols differ:\n  ours   {fo}\n  ptxas  {ft}")
            routines = [n for n, _, _ in ft if "__cuda_sm" in n]
            if len(routines) < 4:
                problems.append(f"expected ptxas to call at least 4 routines, found {routines}")
            if mode[0] in ("-g", "-c") and code_relocations(ours) != code_relocations(theirs):
                problems.append(f"code relocations differ:\n  ours   {code_relocations(ours)}\n"
                                f"  ptxas  {code_relocations(theirs)}")
            sass = subprocess.run([NVDISASM, "-c", ours], check=True, capture_output=True, text=True).stdout
            called = set(re.findall(r"CALL\.\w+\.NOINC `\(([^)]+)\)", sass))
            for n, _, _ in fo:
                if "__cuda_sm" in n and n not in called and mode[0] not in ("-g", "-c"):
                    problems.append(f"{n} is never called")
            if mode[0] in ("-g", "-c") and not re.search(r"CALL\.ABS\.NOINC", sass):
                problems.append("no CALL.ABS.NOINC")
            print(f"{'ok  ' if not problems else 'FAIL'} {label}: {len(routines)} routines")
            for p in problems:
                print("     " + p)
            failures += bool(problems)
        if args.sim_diff:
            for flag in ("-O0", "-O3", "-g"):
                wrapper = os.path.join(tmp, "optxas" + flag)
                with open(wrapper, "w") as f:
                    f.write(f'#!/bin/sh\nexec "{os.path.abspath(args.optxas)}" {flag} "$@"\n')
                os.chmod(wrapper, 0o755)
                r = subprocess.run([args.sim_diff, os.path.join(HERE, "slowpath", "int64_divide.ptx"), "--spec",
                                    os.path.join(HERE, "slowpath", "int64_divide.spec"), "--compiler", wrapper,
                                    "--seeds", "2"], capture_output=True, text=True)
                last = (r.stdout + r.stderr).strip().splitlines()[-1:] or ["(no output)"]
                ok = r.returncode == 0 and "agree" in last[0]
                print(f"{'ok  ' if ok else 'FAIL'} sim-diff {flag}: {last[0]}")
                failures += not ok
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
