#!/usr/bin/env python3
"""Negative suite: every file in cases/ is invalid PTX. For each, run ptxas (the oracle, live)
and optxas with the same -arch and compare:
  - exit code (ptxas exits 255 on errors; optxas must too), and ptxas must reject the file,
  - the line of the first error/fatal message ("no line" when it has none),
  - optxas must not write the output file.
Also reports (without failing) how many first messages match ptxas's text exactly.

usage: run_negative.py --optxas BIN [--ptxas BIN] [-v]
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
MSG = re.compile(r"^ptxas (?:(?P<file>.*?), line (?P<line>\d+); )?(?P<sev>error|fatal) *: (?P<text>.*)$")


def first_error(output):
    for line in output.splitlines():
        m = MSG.match(line)
        if m:
            # The final "aborted due to errors" line is a summary, not the first error.
            if m.group("text") == "Ptx assembly aborted due to errors" and not m.group("line"):
                continue
            return (m.group("line") or "no line", m.group("text"))
    return None


def arch_of(path):
    with open(path, errors="replace") as f:
        first = f.readline()
    m = re.match(r"//\s*arch:\s*(\S+)", first)
    return m.group(1) if m else "sm_90"


def run(tool, path, arch, out):
    r = subprocess.run([tool, f"-arch={arch}", path, "-o", out], capture_output=True, text=True, timeout=120)
    return r.returncode, r.stdout + r.stderr


def check(case, optxas, ptxas, tmp):
    arch = arch_of(case)
    name = os.path.splitext(os.path.basename(case))[0]
    rc_p, out_p = run(ptxas, case, arch, os.path.join(tmp, name + ".ptxas.o"))
    out_file = os.path.join(tmp, name + ".optxas.o")
    rc_o, out_o = run(optxas, case, arch, out_file)
    fe_p, fe_o = first_error(out_p), first_error(out_o)
    problems = []
    if rc_p == 0:
        problems.append("ptxas accepts this file: not a negative case")
    if rc_o != rc_p:
        problems.append(f"exit code {rc_o}, ptxas {rc_p}")
    if fe_p and not fe_o:
        problems.append("optxas printed no error")
    elif fe_p and fe_o and fe_p[0] != fe_o[0]:
        problems.append(f"first error on line {fe_o[0]}, ptxas line {fe_p[0]}")
    if os.path.exists(out_file):
        problems.append("optxas wrote an output file")
    text_match = bool(fe_p and fe_o and fe_p[1] == fe_o[1])
    return name, problems, text_match, fe_p, fe_o


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("-v", "--verbose", action="store_true")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not os.path.exists(args.ptxas):
        print(f"FAIL: the ptxas oracle was not found ({args.ptxas})")
        return 1
    cases = sorted(glob.glob(os.path.join(HERE, "cases", "*.ptx")))
    if len(cases) < 100:
        print(f"FAIL: only {len(cases)} negative cases (need at least 100)")
        return 1
    failures, texts = 0, 0
    with tempfile.TemporaryDirectory() as tmp, concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        for name, problems, text_match, fe_p, fe_o in pool.map(lambda c: check(c, args.optxas, args.ptxas, tmp), cases):
            texts += text_match
            if problems:
                failures += 1
                print(f"FAIL {name}: {'; '.join(problems)}\n    ptxas : {fe_p}\n    optxas: {fe_o}")
            elif args.verbose and not text_match:
                print(f"text differs {name}:\n    ptxas : {fe_p}\n    optxas: {fe_o}")
    print(f"{len(cases)} negative cases: {len(cases) - failures} match ptxas's exit code and first-error line; "
          f"{texts} also match its first message text exactly; {failures} failure(s)")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
