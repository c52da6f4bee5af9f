#!/usr/bin/env python3
"""Command-line compatibility with ptxas, checked live: each argument list runs through ptxas
and optxas; exit codes must be equal and, for failures, the diagnostics must be identical.
Successful runs are compared on exit code only, except WARN_CASES, whose warnings must be identical.

usage: compare_cli.py --optxas BIN [--ptxas BIN]
"""
import argparse
import os
import shutil
import subprocess
import sys
import tempfile

PTX = """.version 8.0
.target sm_80
.address_size 64
.visible .entry k(.param .u64 p) {
.reg .b32 %r<3>; .reg .b64 %rd<3>;
ld.param.u64 %rd1, [p];
mov.u32 %r1, %tid.x;
st.global.u32 [%rd1], %r1;
ret; }
"""
BAD = PTX.replace("mov.u32 %r1, %tid.x;", "mov.u32 %r1, %q;")
# Register-limit directives ptxas warns about: .maxnreg below the floor, .minnctapersm alone.
REGS = PTX.replace(".visible .entry k(.param .u64 p) {",
                   ".visible .entry k(.param .u64 p)\n.maxnreg 13\n.minnctapersm 2\n{")

# {ok} is a valid PTX file, {bad} an invalid one, {opts} an options file, {out} an output path.
CASES = [
    ["-arch=sm_90", "{ok}", "-o", "{out}"],
    ["-arch", "sm_90", "{ok}", "-o", "{out}"],
    ["--gpu-name=sm_90", "{ok}", "-o", "{out}"],
    ["--gpu-name", "sm_90a", "{ok}", "-o", "{out}"],
    ["-arch=compute_90", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-O0", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-O", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "--opt-level=1", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-m64", "-lineinfo", "-c", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-maxrregcount=32", "--warn-on-spills", "-Werror", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "--fmad", "false", "-suppress-stack-size-warning", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-optf", "{opts}", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-dlcm=cg", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-e", "k", "{ok}", "-o", "{out}"],
    # failures: diagnostics must match exactly
    ["-foo", "{ok}"],
    ["--foo=1", "{ok}"],
    ["-archsm_90", "{ok}"],
    ["--arch=sm_90", "{ok}"],
    ["-gpu-name=sm_90", "{ok}"],
    ["-arch"],
    ["-arch=sm_99", "{ok}"],
    # sm_50 - sm_72, which ptxas 13.0 dropped, are an optxas extension (docs/options.md, tested in
    # CompilerTest.cpp); a name neither knows is rejected alike.
    ["-arch=sm_35", "{ok}"],
    ["-arch=sm_90", "-o"],
    ["-arch=sm_90", "-v=true", "{ok}"],
    ["-arch=sm_90", "--warning-as-error=true", "{ok}"],
    ["-arch=sm_90", "-Ox", "{ok}"],
    ["-arch=sm_90", "-O3x", "{ok}"],
    ["-arch=sm_90", "-m32", "{ok}"],
    ["-arch=sm_90", "-m64x", "{ok}"],
    ["-arch=sm_90", "-maxrregcount=foo", "{ok}"],
    ["-arch=sm_90", "-maxrregcount32", "{ok}"],
    ["-arch=sm_90", "-fmad=0", "{ok}"],
    ["-arch=sm_90", "-Ofc=foo", "{ok}"],
    ["-arch=sm_90", "-split-compile=x", "{ok}"],
    ["-arch=sm_90", "-sanitize=foo", "{ok}"],
    ["-arch=sm_90", "-dlcm=foo", "{ok}"],
    ["-arch=sm_90", "-dscm=ca", "{ok}"],
    ["-arch=sm_90", "-optf", "/nonexistent/options.txt", "{ok}"],
    ["-arch=sm_90", "/nonexistent/input.ptx"],
    ["-arch=sm_90", "{bad}", "-o", "{out}"],
    ["-arch=sm_75", "{ok}"],
    ["{ok}"],
    ["-arch=sm_90", "-e", "nosuchentry", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-vc", "{ok}"],
    ["-arch=sm_90", "-v,-O3", "{ok}"],
]
# Successful runs whose warnings must be identical too.
WARN_CASES = [
    ["-arch=sm_90", "-maxrregcount=7", "{ok}", "-o", "{out}"],
    ["-arch=sm_90a", "-maxrregcount=0", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-maxrregcount=255", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-maxrregcount=256", "{ok}", "-o", "{out}"],
    ["-arch=sm_90", "-maxrregcount=300", "{regs}", "-o", "{out}"],
    ["-arch=sm_90", "{regs}", "-o", "{out}"],
    ["-arch=sm_90", "-maxrregcount=archmin", "{regs}", "-o", "{out}"],
]


def run(tool, args, cwd):
    r = subprocess.run([tool, *args], capture_output=True, text=True, cwd=cwd, timeout=120)
    return r.returncode, r.stderr.strip()


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    a = ap.parse_args()
    a.optxas = os.path.abspath(a.optxas)
    if not os.path.exists(a.ptxas):
        print(f"FAIL: the ptxas oracle was not found ({a.ptxas})")
        return 1
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        ok, bad, regs, opts = (os.path.join(tmp, n) for n in ("ok.ptx", "bad.ptx", "regs.ptx", "opts.txt"))
        open(ok, "w").write(PTX)
        open(bad, "w").write(BAD)
        open(regs, "w").write(REGS)
        open(opts, "w").write("-O2 -lineinfo\n")
        for case in CASES + WARN_CASES:
            results = []
            for tool in (a.ptxas, a.optxas):
                out = os.path.join(tmp, "out.o")
                args = [x.format(ok=ok, bad=bad, regs=regs, opts=opts, out=out) for x in case]
                results.append(run(tool, args, tmp))
                if tool == a.optxas and results[0][0] != 0 and os.path.exists(out):
                    print(f"FAIL {' '.join(case)}: optxas wrote {out} after an error")
                    failures += 1
                if os.path.exists(out):
                    os.remove(out)
            (rp, ep), (ro, eo) = results
            same = rp == ro and (rp == 0 or ep == eo) and (case not in WARN_CASES or ep == eo)
            if not same:
                failures += 1
                print(f"FAIL {' '.join(case)}\n  ptxas  rc={rp}: {ep[:300]}\n  optxas rc={ro}: {eo[:300]}")
    print(f"{len(CASES) + len(WARN_CASES)} command lines: {len(CASES) + len(WARN_CASES) - failures} behave as ptxas, {failures} differ")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
