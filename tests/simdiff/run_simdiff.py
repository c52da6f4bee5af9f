#!/usr/bin/env python3
"""Differential check of kernels: PTX interpreter vs SASS simulator on a compiled cubin.

For every NAME[.variant].spec in the given directories (the PTX is NAME.ptx beside it), runs
tools/sim-diff with the given compiler (ptxas, or our optxas) and classifies the result:

  agree        outputs equal for every seed, no timing hazard
  differ / hazard / fault / error    FAIL
  unsupported  the simulator cannot run an instruction yet (reported as SKIPPED, by name)
  skipped      the compiler rejected the PTX (our back end cannot compile it yet; SKIPPED)

Kernels named in the --expect file must agree (so the check cannot silently shrink); every other
kernel must agree or be reported as skipped. Kernels in the --known file fail for a documented
reason outside the simulator (reported as XFAIL; one that starts passing is an error, so the list
stays true). Exit status 0 when nothing failed.
"""
import argparse
import os
import re
import shutil
import stat
import subprocess
import sys
import tempfile


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--sim-diff", required=True)
    ap.add_argument("--compiler", required=True, help="ptxas, or a path to optxas")
    ap.add_argument("--expect", help="file of kernel names that must agree")
    ap.add_argument("--known", help="file of 'NAME reason' lines: known failures")
    ap.add_argument("--arch", default="sm_90", help="target architecture (sim-diff --arch)")
    ap.add_argument("--seeds", default="3")
    ap.add_argument("--opt", help="optimization level given to the compiler (-O0..-O3); default: its own")
    ap.add_argument("--flags", default="", help="more compiler options, e.g. -maxrregcount=24")
    ap.add_argument("--only", help="file of kernel names: run just these")
    ap.add_argument("dirs", nargs="+")
    args = ap.parse_args()

    if args.compiler == "ptxas" and shutil.which("ptxas") is None:
        print("FAIL: ptxas (the oracle) is not on PATH")
        return 1

    expected = set()
    if args.expect:
        with open(args.expect) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    expected.add(line)

    known = {}
    if args.known:
        with open(args.known) as f:
            for line in f:
                line = line.split("#", 1)[0].strip()
                if line:
                    name, _, reason = line.partition(" ")
                    known[name] = reason.strip()

    only = None
    if args.only:
        with open(args.only) as f:
            only = {l.split("#", 1)[0].strip() for l in f} - {""}
        expected &= only

    compiler = args.compiler
    tmp = tempfile.TemporaryDirectory()
    if args.opt is not None or args.flags:
        # sim-diff runs "COMPILER -arch=ARCH FILE -o OUT"; a wrapper adds the level and flags.
        path = shutil.which(compiler) or compiler
        level = f"-O{args.opt} " if args.opt is not None else ""
        compiler = os.path.join(tmp.name, "compiler")
        with open(compiler, "w") as f:
            f.write(f'#!/bin/sh\nexec "{os.path.abspath(path)}" {level}{args.flags} "$@"\n')
        os.chmod(compiler, os.stat(compiler).st_mode | stat.S_IXUSR)

    results = {}
    for d in args.dirs:
        for spec in sorted(os.listdir(d)):
            if not spec.endswith(".spec"):
                continue
            name = spec[: -len(".spec")]
            if only is not None and name not in only:
                continue
            ptx = os.path.join(d, name.split(".")[0] + ".ptx")
            if not os.path.exists(ptx):
                continue
            cmd = [args.sim_diff, ptx, "--spec", os.path.join(d, spec), "--compiler",
                   compiler, "--arch", args.arch, "--seeds", args.seeds, "--quiet"]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
            line = (p.stdout.strip().splitlines() or [p.stderr.strip() or "no output"])[0]
            m = re.match(r"[^:]+: (\w+)", line)
            status = m.group(1) if m else "error"
            if p.returncode == 2:
                status = "error"
            results[name] = (status, line)

    failed, skipped, agreed = [], [], []
    for name, (status, line) in sorted(results.items()):
        if name in known:
            if status == "agree":
                failed.append(name)
                print(f"FAIL    {name}: listed as a known failure ({known[name]}) but agrees now")
            else:
                print(f"XFAIL   {line}  [known: {known[name]}]")
            continue
        if status == "agree":
            agreed.append(name)
            print(f"PASS    {line}")
        elif status in ("unsupported", "skipped") and name not in expected:
            skipped.append(name)
            print(f"SKIPPED {line}")
        else:
            failed.append(name)
            print(f"FAIL    {line}")
    for name in sorted(expected - set(results)):
        failed.append(name)
        print(f"FAIL    {name}: expected to agree but no such spec was found")
    level = (f" -O{args.opt}" if args.opt is not None else "") + (f" {args.flags}" if args.flags else "")
    print(f"\n{len(agreed)} agree, {len(skipped)} skipped, {len(failed)} failed "
          f"(compiler: {os.path.basename(args.compiler)}{level}, {args.arch})")
    if skipped:
        print("skipped: " + ", ".join(skipped))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
