#!/usr/bin/env python3
"""brx.idx end to end in the cubin (phase 94 ExpandJmxComputation, docs/phases.md).

Compiles tests/exec/brx_switch.ptx (two brx.idx, five and two targets) with optxas and with
ptxas for sm_90 and checks:
  - the cubin's structure matches ptxas's (elfcompare, with values): .nv.constant2.<fn> of the
    same size, EIATTR_INDIRECT_BRANCH_TARGETS (0x34) and CRS_STACK_SIZE present;
  - the jump table words are the target offsets that the 0x34 attribute lists, table after table
    (the layout ptxas uses), and each BRX's record names it at its own offset;
  - nvdisasm decodes every instruction; each BRX reads a register and jumps relative to the
    function start (`BRX Rn -(pc+16)`), and is annotated with its branch targets.
(That the jumps land right at run time is simdiff.exec.optxas on the same kernel.)

  jump_table_test.py --optxas BIN
"""
import argparse
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402

KIND_INDIRECT_BRANCH_TARGETS = 0x34


def section(secs, name):
    return next((s for s in secs if s["name"] == name), None)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    for t in (NVDISASM, PTXAS):
        if not os.access(t, os.X_OK):
            print(f"FAIL: oracle tool missing: {t}")
            return 1
    ptx = os.path.join(ROOT, "tests", "exec", "brx_switch.ptx")
    problems = []
    with tempfile.TemporaryDirectory() as tmp:
        ours, theirs = os.path.join(tmp, "ours.cubin"), os.path.join(tmp, "theirs.cubin")
        for tool, out in ((args.optxas, ours), (PTXAS, theirs)):
            r = subprocess.run([tool, "-arch=sm_90", ptx, "-o", out], capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL: {tool} rejected brx_switch.ptx: {r.stderr.strip()}")
                return 1
        # The 0x34 value follows the code; the structure and every other value must match.
        elfcompare.CODE_VALUES.add(KIND_INDIRECT_BRANCH_TARGETS)
        problems += ["elf: " + d for d in elfcompare.compare(ours, theirs, True)]

        secs = elfcompare.read(ours)
        table = section(secs, ".nv.constant2.brx_switch")
        info = section(secs, ".nv.info.brx_switch")
        if not table or not info:
            print("FAIL: no .nv.constant2.brx_switch / .nv.info.brx_switch section")
            return 1
        words = list(struct.unpack("<%dI" % (len(table["data"]) // 4), table["data"]))
        recs = [r for r in elfcompare.nvinfo(info["data"]) if r[0] == KIND_INDIRECT_BRANCH_TARGETS]
        if len(recs) != 1:
            problems.append(f"expected one INDIRECT_BRANCH_TARGETS attribute, found {len(recs)}")
            attr = []
        else:
            p = recs[0][3]
            attr = list(struct.unpack("<%dI" % (len(p) // 4), p))
        brx, targets, k = [], [], 0
        while k + 3 <= len(attr):
            pc, _, n = attr[k:k + 3]
            brx.append(pc)
            targets += attr[k + 3:k + 3 + n]
            k += 3 + n
        if [len(brx), len(targets)] != [2, 7]:
            problems.append(f"INDIRECT_BRANCH_TARGETS lists {len(brx)} BRX with {len(targets)} targets, not 2 with 7")
        if words != targets:
            problems.append(f"jump table {[hex(w) for w in words]} != targets {[hex(t) for t in targets]}")

        dis = subprocess.run([NVDISASM, "-c", ours], capture_output=True, text=True)
        if dis.returncode != 0:
            problems.append("nvdisasm: " + dis.stderr.strip()[:300])
        seen = []
        for line in dis.stdout.splitlines():
            m = re.search(r"/\*([0-9a-f]{4})\*/\s+BRX (R\d+) (-?0x[0-9a-f]+)", line)
            if not m:
                continue
            pc, off = int(m.group(1), 16), int(m.group(3), 16)
            seen.append(pc)
            if pc + 16 + off != 0:
                problems.append(f"BRX at {pc:#x} jumps relative to {pc + 16 + off:#x}, not the function start")
            if "BRANCH_TARGETS" not in line:
                problems.append(f"BRX at {pc:#x} has no branch-target annotation: {line.strip()}")
        if seen != brx:
            problems.append(f"BRX at {[hex(p) for p in seen]} but the attribute names {[hex(p) for p in brx]}")
        for t in targets:
            if t % 16 or t >= len(section(secs, ".text.brx_switch")["data"]):
                problems.append(f"target {t:#x} is not an instruction of the function")
    for p in problems:
        print("FAIL: " + p)
    if not problems:
        print(f"PASS: 2 BRX, 7 jump-table entries in .nv.constant2 agree with the attribute and nvdisasm; "
              f"structure as ptxas")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
