#!/usr/bin/env python3
"""Corpus test: every PTX file of the corpus must parse and check clean with optxas (for the
file's virtual architecture, so no code is generated), and ptxas (the oracle) must accept it too
for the real architecture, so the corpus is known-valid PTX.

usage: run_corpus.py --optxas BIN [--ptxas BIN] [--regen DIR]
  --regen DIR   first regenerate the corpus with nvcc into DIR and test those files as well
                (skipped, and reported as skipped, when nvcc is not installed)
The ptxas oracle is required: the test fails when ptxas cannot be found.
"""
import argparse
import concurrent.futures
import glob
import os
import re
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
SKIPPED = 77  # ctest SKIP_RETURN_CODE
sys.path.insert(0, HERE)
import regen  # noqa: E402


def manifest():
    out = []
    with open(os.path.join(HERE, "manifest.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cols = [c.strip() for c in line.split("|")]
            out.append((cols[0], (cols[3] if len(cols) > 3 else "").split()))
    return out


def target_of(path):
    # NAME.ARCH.ptx names its -arch; otherwise the module's .target.
    parts = os.path.basename(path).split(".")
    if len(parts) >= 3 and re.match(r"(sm|compute)_[0-9]+[af]?$", parts[-2]):
        return parts[-2]
    with open(path, errors="replace") as f:
        for line in f:
            m = re.match(r"\s*\.target\s+([A-Za-z0-9_]+)", line)
            if m:
                return m.group(1)
    return None


def check(tool, name, path, extra, oracle):
    arch = target_of(path)
    if not arch:
        return name, False, "no .target"
    if not oracle:
        # The front end alone: like ptxas, optxas parses and checks for a virtual architecture and
        # generates no code (the back end's coverage of the corpus is codegen.corpus).
        arch = arch.replace("sm_", "compute_")
    cmd = [tool, f"-arch={arch}", *extra, path, "-o", os.devnull if oracle else "/nonexistent/none"]
    r = subprocess.run(cmd, capture_output=True, text=True, timeout=600)
    # ptxas may print advisory 'info' lines; optxas must print nothing at all for clean input.
    text = r.stdout + r.stderr
    if r.returncode != 0:
        return name, False, text.strip()
    if not oracle and text.strip():
        return name, False, "unexpected output: " + text.strip()
    return name, True, ""


def run_set(label, files, optxas, ptxas, jobs):
    failures = 0
    with concurrent.futures.ThreadPoolExecutor(jobs) as pool:
        futs = []
        for name, path, extra in files:
            futs.append(pool.submit(check, optxas, name, path, extra, False))
            futs.append(pool.submit(check, ptxas, name, path, extra, True))
        for i, fut in enumerate(futs):
            name, ok, msg = fut.result()
            tool = "optxas" if i % 2 == 0 else "ptxas"
            if not ok:
                failures += 1
                print(f"FAIL [{label}] {tool} {name}: {msg[:2000]}")
    print(f"[{label}] {len(files)} files: optxas and ptxas accept {len(files) - failures // 2 if failures else len(files)}"
          f", {failures} failure(s)")
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--regen")
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    if not os.path.exists(args.ptxas):
        print(f"FAIL: the ptxas oracle was not found ({args.ptxas})")
        return 1
    entries = manifest()
    committed = [(n, os.path.join(HERE, "ptx", n + ".ptx"), extra) for n, extra in entries]
    missing = [p for _, p, _ in committed if not os.path.exists(p)]
    if missing:
        print("FAIL: corpus files missing: " + ", ".join(missing))
        return 1
    failures = run_set("committed", committed, args.optxas, args.ptxas, args.jobs)
    # Hand-written PTX covering the ISA beyond what nvcc emits: NAME.ARCH.ptx
    hand = sorted(glob.glob(os.path.join(HERE, "handwritten", "*.ptx")))
    failures += run_set("handwritten", [(os.path.basename(p), p, []) for p in hand], args.optxas, args.ptxas, args.jobs)
    if args.regen:
        if not regen.nvcc_path():
            print("SKIPPED [regenerated]: nvcc not found, corpus not regenerated")
            return 1 if failures else SKIPPED
        else:
            r = subprocess.run([sys.executable, os.path.join(HERE, "regen.py"), "--out", args.regen,
                                "--jobs", str(args.jobs)], capture_output=True, text=True)
            if r.returncode != 0:
                print("FAIL: regenerating the corpus with nvcc failed\n" + r.stderr[-4000:])
                return 1
            fresh = [(n, os.path.join(args.regen, n + ".ptx"), extra) for n, extra in entries]
            failures += run_set("regenerated", fresh, args.optxas, args.ptxas, args.jobs)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
