#!/usr/bin/env python3
"""Checks that a refactoring changes no output: compiles every PTX file with two optxas binaries
(e.g. a copy of the build before the change and the build after it) for each arch and -O level,
and compares the cubins byte for byte (a compile error counts as equal when both fail with the
same message).

  tools/same-cubins.py --before /tmp/optxas.before --after build/bin/optxas \\
      tests/corpus/ptx/*.ptx tests/corpus/handwritten/*.ptx tests/exec/*.ptx

Prints the differing (file, arch, level) and a count; exits 1 if any differ.
"""
import argparse
import concurrent.futures
import os
import re
import subprocess
import sys
import tempfile


def target_of(ptx):
    with open(ptx, errors="replace") as fh:
        m = re.search(r"^\s*\.target\s+(sm_\w+)", fh.read(), re.M)
    return m.group(1) if m else "sm_90"


def compile_one(compiler, ptx, arch, level, out):
    r = subprocess.run([compiler, f"-arch={arch}", f"-O{level}", ptx, "-o", out],
                       capture_output=True, text=True, timeout=600)
    if r.returncode != 0:
        return ("error", r.stderr.strip())
    with open(out, "rb") as fh:
        return ("ok", fh.read())


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--before", required=True)
    ap.add_argument("--after", required=True)
    ap.add_argument("--arch", default="sm_90,sm_100,sm_120,target",
                    help="comma-separated; 'target': the file's own .target")
    ap.add_argument("--levels", default="3,0")
    ap.add_argument("-j", type=int, default=2)
    ap.add_argument("ptx", nargs="+")
    a = ap.parse_args()
    jobs = sorted({(p, target_of(p) if arch == "target" else arch, lvl)
                   for p in a.ptx for arch in a.arch.split(",") for lvl in a.levels.split(",")})
    with tempfile.TemporaryDirectory() as tmp:
        def check(job):
            p, arch, lvl = job
            stem = os.path.join(tmp, f"{os.path.basename(p)}.{arch}.O{lvl}")
            b = compile_one(a.before, p, arch, lvl, stem + ".b")
            return job, b == compile_one(a.after, p, arch, lvl, stem + ".a"), b[0] == "error"

        with concurrent.futures.ThreadPoolExecutor(a.j) as ex:
            results = list(ex.map(check, jobs))
    differ = [job for job, same, _ in results if not same]
    errors = sum(1 for _, _, err in results if err)
    for p, arch, lvl in differ:
        print(f"DIFFERS {p} {arch} -O{lvl}")
    print(f"{len(results) - len(differ)} of {len(results)} compilations identical "
          f"({len(a.ptx)} files x {a.arch} x -O{a.levels}; {errors} of them fail to compile, the same way)")
    return 1 if differ else 0


if __name__ == "__main__":
    sys.exit(main())
