#!/usr/bin/env python3
"""mma .b1 without BMMA (src/lower/BitMma.cpp, the Blackwell lowering) under differential execution.

The SASS simulator runs sm_90 cubins only, so tests/exec/mma_b1 (every shape, .and and .xor) is
compiled for sm_90 with the knob OptxasBmmaEmulation=1, which gives sm_90 code the Blackwell
lowering. At -O0 and -O3:
  * the cubin has no BMMA and has the SHFL/POPC of the lowering (the knob took effect)
  * the simulator agrees with the PTX interpreter
Exit status 0 when all hold.
"""
import os
import subprocess
import sys
import tempfile

from scriptlib import run, sim_agrees, tool_parser

NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))


def main():
    ap = tool_parser()
    a = ap.parse_args()
    failed = False
    base = os.path.join(a.exec_dir, "mma_b1")
    ptx, spec = base + ".ptx", base + ".spec"
    with tempfile.TemporaryDirectory() as tmp:
        for opt in ("-O0", "-O3"):
            cubin = os.path.join(tmp, f"mma_b1{opt}.cubin")
            c = run([a.optxas, "-arch=sm_90", opt, "-knob", "OptxasBmmaEmulation=1", ptx, "-o", cubin])
            if c.returncode != 0:
                print(f"FAIL mma_b1 {opt}: compile error\n{c.stdout}")
                failed = True
                continue
            if os.path.exists(NVDISASM):
                sass = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True).stdout
                if "BMMA" in sass or "POPC" not in sass or "SHFL.IDX" not in sass:
                    print(f"FAIL mma_b1 {opt}: the knob did not replace BMMA")
                    failed = True
            if not sim_agrees(a.sim_diff, cubin, spec, ptx, f"mma_b1 {opt}"):
                failed = True
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
