#!/usr/bin/env python3
"""Phase 49 ForwardProgress on a spin-wait kernel (tests/exec/its/spin_wait.ptx).

The SASS simulator runs the diverged lanes of a warp lowest PC first and lets a lane that runs
YIELD give way to the others (docs/phases.md, ForwardProgress). The kernel's lane 0 spins on a
flag that lane 31 sets in a block laid out after the loop, so:
  * optxas (ForwardProgress on)                  -> agrees with the PTX interpreter
  * optxas -knob DisablePhases=ForwardProgress   -> the warp starves: instruction limit fault
  * ptxas (which puts a YIELD into the loop too) -> agrees
The second run proves the check can fail; the third that the simulator's YIELD model matches
NVIDIA's code. Exit status 0 when all three hold.
"""
import os
import shutil
import sys
import tempfile

from scriptlib import run, tool_parser


def main():
    ap = tool_parser(exec_dir=False)
    ap.add_argument("ptx")
    a = ap.parse_args()
    spec = os.path.splitext(a.ptx)[0] + ".spec"
    if shutil.which("ptxas") is None:
        print("FAIL: ptxas (the oracle) is not on PATH")
        return 1
    failed = False
    with tempfile.TemporaryDirectory() as tmp:
        cases = [("optxas", [a.optxas], "agree"),
                 ("optxas without ForwardProgress", [a.optxas, "-knob", "DisablePhases=ForwardProgress"],
                  "instruction limit exceeded"),
                 ("ptxas", ["ptxas"], "agree")]
        for i, (name, compiler, expect) in enumerate(cases):
            cubin = os.path.join(tmp, f"k{i}.cubin")
            c = run(compiler + ["-arch=sm_90", a.ptx, "-o", cubin])
            if c.returncode != 0:
                print(f"FAIL {name}: compile error\n{c.stdout}")
                failed = True
                continue
            listing = run([a.sim_diff, "--cubin", cubin, "--spec", spec, "--listing", "--seeds", "1", a.ptx]).stdout
            yields = listing.count("YIELD")
            r = run([a.sim_diff, "--cubin", cubin, "--spec", spec, "--seeds", "2", a.ptx])
            ok = expect in r.stdout
            print(f"{'ok  ' if ok else 'FAIL'} {name}: {yields} YIELD; {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else '(no output)'}")
            failed |= not ok
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
