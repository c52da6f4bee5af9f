#!/usr/bin/env python3
"""Code quality of optxas against ptxas 13.0: SASS instruction count and registers per kernel.

  opt-ratio.py --optxas BIN [-O3] [--json F] [--verbose] [PTX or directory ...]

Compiles every PTX file (default: tests/corpus/ptx, tests/corpus/handwritten, tests/exec,
examples) with ptxas and with optxas at the same -O level for sm_90 (files whose .target is
later than sm_90, or sm_90a, are left out), and for every function both compilers produce:

  instructions  SASS instructions of the function's .text section (nvdisasm), without the NOP
                padding and the BRA-to-self that end every function (tools/bench/quality.py)
  registers     "Used N registers" of -v

Prints one line per function and the median ratio ours/ptxas of each. A file optxas cannot
compile yet is counted and named, not measured. nvdisasm: $NVDISASM or
~/.cache/cuda-disasm/nvdisasm.
"""
import argparse
import json
import os
import re
import shutil
import statistics
import subprocess
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "tools", "bench"))
import quality  # noqa: E402  (the -v and nvdisasm readers bench.py and status.py use)
DEFAULT_INPUTS = ["tests/corpus/ptx", "tests/corpus/handwritten", "tests/exec", "examples"]


def target_ok(path):
    """sm_90 code can be made for PTX written for sm_90 or earlier (not sm_90a, not later)."""
    with open(path, errors="replace") as f:
        m = re.search(r"^\s*\.target\s+sm_(\d+)(\w*)", f.read(), re.M)
    return m is not None and int(m.group(1)) <= 90 and not m.group(2)


def compile_one(compiler, ptx, opt, outdir, tag, extra=()):
    cubin = os.path.join(outdir, tag + ".cubin")
    cmd = [compiler, "-arch=sm_90", opt, "-v", *extra, ptx, "-o", cubin]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
    if p.returncode != 0 or not os.path.exists(cubin):
        # relocatable code (extern functions) needs -c with both compilers
        cmd.insert(1, "-c")
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=300)
        if p.returncode != 0 or not os.path.exists(cubin):
            return None, (p.stdout + p.stderr).strip().splitlines()[:1]
    facts = quality.analyse(p.stdout + p.stderr, cubin).functions
    counts = {name: f.instructions for name, f in facts.items() if f.instructions is not None}
    regs = {name: f.regs for name, f in facts.items() if f.regs is not None}
    return (counts, regs), None


def gather(paths):
    files = []
    for p in paths:
        p = os.path.join(ROOT, p) if not os.path.isabs(p) and not os.path.exists(p) else p
        if os.path.isdir(p):
            files += [os.path.join(p, f) for f in sorted(os.listdir(p)) if f.endswith(".ptx")]
        elif p.endswith(".ptx"):
            files.append(p)
    return files


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("-O", dest="opt", default="3")
    ap.add_argument("--json")
    ap.add_argument("--knob", action="append", default=[], help="-knob NAME=VALUE for optxas (e.g. a baseline "
                    "with DisablePhases=...)")
    ap.add_argument("--verbose", action="store_true")
    ap.add_argument("inputs", nargs="*")
    a = ap.parse_args()
    for t in (quality.NVDISASM, a.ptxas):
        if not os.access(t, os.X_OK):
            sys.exit(f"missing tool: {t}")
    files = [f for f in gather(a.inputs or DEFAULT_INPUTS) if target_ok(f)]
    rows, rejected = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for i, ptx in enumerate(files):
            extra = [x for k in a.knob for x in ("-knob", k)]
            ours, err = compile_one(a.optxas, ptx, "-O" + a.opt, tmp, f"ours{i}", extra)
            if ours is None:
                rejected.append((os.path.relpath(ptx, ROOT), err[0] if err else "?"))
                continue
            theirs, err2 = compile_one(a.ptxas, ptx, "-O" + a.opt, tmp, f"ptxas{i}")
            if theirs is None:
                rejected.append((os.path.relpath(ptx, ROOT), "ptxas: " + (err2[0] if err2 else "?")))
                continue
            for fn, n in sorted(ours[0].items()):
                if fn not in theirs[0] or theirs[0][fn] == 0:
                    continue
                if n == 0:   # nvdisasm could not decode our section: nothing to compare
                    rejected.append((os.path.relpath(ptx, ROOT), f"{fn}: no decodable instructions"))
                    continue
                r_ours, r_theirs = ours[1].get(fn), theirs[1].get(fn)
                rows.append({"file": os.path.relpath(ptx, ROOT), "function": fn, "insts": n,
                             "ptxas_insts": theirs[0][fn], "regs": r_ours, "ptxas_regs": r_theirs})
    for r in rows:
        print(f"{r['file']:45} {r['function'][:40]:40} insts {r['insts']:5}/{r['ptxas_insts']:<5} "
              f"regs {r['regs']}/{r['ptxas_regs']}")
    if a.verbose:
        for f, e in rejected:
            print(f"not compiled: {f}: {e}")
    inst_ratios = [r["insts"] / r["ptxas_insts"] for r in rows]
    reg_ratios = [r["regs"] / r["ptxas_regs"] for r in rows if r["regs"] and r["ptxas_regs"]]
    summary = {
        "opt": a.opt,
        "files_measured": len({r["file"] for r in rows}),
        "files_not_compiled": len(rejected),
        "functions": len(rows),
        "median_inst_ratio": statistics.median(inst_ratios) if inst_ratios else None,
        "median_reg_ratio": statistics.median(reg_ratios) if reg_ratios else None,
        "total_insts": sum(r["insts"] for r in rows),
        "total_ptxas_insts": sum(r["ptxas_insts"] for r in rows),
    }
    print(f"\n-O{a.opt}: {summary['functions']} functions in {summary['files_measured']} files "
          f"({summary['files_not_compiled']} files not compiled by optxas)")
    if inst_ratios:
        print(f"median instruction ratio ours/ptxas: {summary['median_inst_ratio']:.3f} "
              f"(total {summary['total_insts']}/{summary['total_ptxas_insts']})")
    if reg_ratios:
        print(f"median register ratio ours/ptxas:    {summary['median_reg_ratio']:.3f}")
    if a.json:
        with open(a.json, "w") as f:
            json.dump({"summary": summary, "rows": rows, "not_compiled": rejected}, f, indent=1)
    return 0


if __name__ == "__main__":
    sys.exit(main())
