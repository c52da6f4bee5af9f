#!/usr/bin/env python3
"""Regenerates the PTX corpus from its CUDA sources with nvcc (see manifest.txt).

usage: regen.py [--out DIR] [--jobs N] [NAME...]
Writes DIR/<name>.ptx for every manifest line (or the named ones). DIR defaults to the
committed corpus (tests/corpus/ptx). Exits non-zero if nvcc fails on any source.
"""
import argparse
import concurrent.futures
import os
import shutil
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def read_manifest():
    entries = []
    with open(os.path.join(HERE, "manifest.txt")) as f:
        for line in f:
            line = line.strip()
            if not line or line.startswith("#"):
                continue
            cols = [c.strip() for c in line.split("|")]
            name, src, flags = cols[:3]
            entries.append((name, src, flags.split()))
    return entries


def nvcc_path():
    return shutil.which("nvcc") or ("/usr/local/cuda/bin/nvcc" if os.path.exists("/usr/local/cuda/bin/nvcc") else None)


def generate(nvcc, name, src, flags, out_dir):
    out = os.path.join(out_dir, name + ".ptx")
    # Relative source path so that .file directives do not depend on the checkout location.
    cmd = [nvcc, "-ptx", "-std=c++17", *flags, os.path.join("src", src), "-o", out]
    r = subprocess.run(cmd, cwd=HERE, capture_output=True, text=True)
    return name, r.returncode, r.stderr, out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default=os.path.join(HERE, "ptx"))
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("names", nargs="*")
    args = ap.parse_args()
    nvcc = nvcc_path()
    if not nvcc:
        print("regen.py: nvcc not found", file=sys.stderr)
        return 2
    os.makedirs(args.out, exist_ok=True)
    entries = [e for e in read_manifest() if not args.names or e[0] in args.names]
    failed = 0
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        futs = [pool.submit(generate, nvcc, n, s, f, args.out) for n, s, f in entries]
        for fut in concurrent.futures.as_completed(futs):
            name, rc, err, out = fut.result()
            if rc != 0:
                failed += 1
                print(f"FAIL {name}\n{err}", file=sys.stderr)
            else:
                print(f"ok   {name}  {os.path.getsize(out)} bytes")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
