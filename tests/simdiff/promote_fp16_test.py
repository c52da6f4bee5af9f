#!/usr/bin/env python3
"""Phase 2 PromoteFP16 under differential execution.

Compiles tests/exec/fp16_arith.ptx with optxas -knob OptxasForcePromoteFP16=1 (the promotion
that sm_50/52/61 get, forced on sm_90 so the SASS simulator can run it) and has tools/sim-diff
compare the simulated results with the PTX interpreter's on random f16 bit patterns (NaNs,
infinities, subnormals included). The same kernel compiled without the knob (native HADD2/
HFMA2/...) runs in simdiff.exec.optxas, so both agree with the interpreter bit for bit.
The listing must show the promotion happened: no FP16 arithmetic instruction left, DFMA for fma.

  promote_fp16_test.py --optxas BIN --sim-diff BIN --exec-dir tests/exec
"""
import argparse
import os
import re
import stat
import subprocess
import sys
import tempfile

HALF_OPS = ("HADD2", "HMUL2", "HFMA2", "HSETP2", "HMNMX2")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--sim-diff", required=True)
    ap.add_argument("--exec-dir", required=True)
    ap.add_argument("--seeds", default="4")
    args = ap.parse_args()
    ptx = os.path.join(args.exec_dir, "fp16_arith.ptx")
    spec = os.path.join(args.exec_dir, "fp16_arith.spec")
    with tempfile.TemporaryDirectory() as tmp:
        wrapper = os.path.join(tmp, "optxas-promote")
        with open(wrapper, "w") as f:
            f.write('#!/bin/sh\nexec "%s" -knob OptxasForcePromoteFP16=1 "$@"\n' % args.optxas)
        os.chmod(wrapper, os.stat(wrapper).st_mode | stat.S_IEXEC)
        run = subprocess.run([args.sim_diff, ptx, "--spec", spec, "--compiler", wrapper, "--seeds", args.seeds,
                              "--listing"], capture_output=True, text=True, timeout=300)
        out = run.stdout + run.stderr
        verdicts = [l for l in out.splitlines() if l.startswith("fp16_arith:")]
        listing = "\n".join(l for l in out.splitlines() if not l.startswith("fp16_arith:"))
        ok = True
        if run.returncode != 0 or not verdicts or "agree" not in verdicts[-1]:
            print("FAIL: promoted fp16_arith does not agree with the PTX interpreter")
            print(out[-4000:])
            ok = False
        left = [op for op in HALF_OPS if re.search(r"\b%s\b" % op, listing)]
        if left:
            print("FAIL: FP16 arithmetic left after PromoteFP16: " + ", ".join(left))
            ok = False
        dfma = len(re.findall(r"\bDFMA\b", listing))
        # 2 scalar fma + 2 packed fma x 2 lanes; GvnCse may merge the scalar fma with the packed
        # one's low lane (same operands), so at least five.
        if dfma < 5:
            print("FAIL: expected the fma lanes as DFMA, found %d" % dfma)
            ok = False
        if ok:
            print("PASS: " + verdicts[-1])
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
