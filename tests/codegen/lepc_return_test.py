#!/usr/bin/env python3
"""Return addresses of calls out of the module on sm_80/86/89 (docs/abi.md): ptxas makes them
from LEPC, without relocations, and so does optxas:

    LEPC R20 ; IADD3 R20, Pc, R20, <distance>, RZ ; IADD3.X R21, RZ, R21, RZ, Pc, !PT ; CALL.ABS Ra

For every CALL.ABS through a register in tests/corpus/ptx/calls_and_printf.sm_80.ptx, at -O0 and
-O3, on each Ampere/Ada target, checks from nvdisasm's listing that the distance leads from the
LEPC to the instruction after the CALL, that nothing between the LEPC and the CALL writes R20,
R21 or the carry predicate, and that the cubin has no code relocations (no .rel[a].text section
with entries).

  lepc_return_test.py --optxas BIN
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402

SOURCE = os.path.join(ROOT, "tests", "corpus", "ptx", "calls_and_printf.sm_80.ptx")
INSTR = re.compile(r"/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def listing(cubin):
    r = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True, check=True)
    return [(int(m.group(1), 16), m.group(2)) for m in map(INSTR.search, r.stdout.splitlines()) if m]


def writes(text, regs):
    """Whether an instruction's destination operands (before the first source) name one of regs."""
    body = re.sub(r"^@!?U?P\w+\s+", "", text)
    parts = body.split(None, 1)
    if len(parts) < 2 or parts[0].startswith(("CALL", "ST", "BRA", "BSYNC", "BSSY", "RET", "EXIT")):
        return False
    ops = [o.strip() for o in parts[1].split(",")]
    ndef = 2 if parts[0].startswith(("IADD3", "ISETP", "FSETP", "DSETP", "LOP3", "PLOP3", "LEA")) else 1
    return any(o in regs for o in ops[:ndef])


def check(cubin):
    problems, calls = [], 0
    code = listing(cubin)
    for k, (pc, text) in enumerate(code):
        if not re.match(r"(@!?P\d\s+)?CALL\.ABS\.NOINC R\d+$", text):
            continue
        calls += 1
        add = next((j for j in range(k - 1, -1, -1) if re.search(r"IADD3 R20, P\d, R20, 0x", code[j][1])), None)
        if add is None:
            problems.append(f"0x{pc:x}: no IADD3 R20 before the CALL")
            continue
        m = re.search(r"IADD3 R20, (P\d), R20, (0x[0-9a-f]+), RZ", code[add][1])
        carry, dist = m.group(1), int(m.group(2), 16)
        lepc = next((j for j in range(add - 1, -1, -1) if re.search(r"LEPC R20$", code[j][1])), None)
        if lepc is None:
            problems.append(f"0x{pc:x}: no LEPC R20 before its IADD3")
            continue
        if code[lepc][0] + dist != pc + 0x10:
            problems.append(f"0x{pc:x}: LEPC at 0x{code[lepc][0]:x} + 0x{dist:x} is not the return address")
        hi = [j for j in range(add + 1, k) if re.search(rf"IADD3\.X R21, RZ, R21, RZ, {carry}, !PT", code[j][1])]
        if len(hi) != 1:
            problems.append(f"0x{pc:x}: no IADD3.X R21 with carry {carry} between the IADD3 and the CALL")
        for j in range(lepc + 1, k):
            if j == add or j in hi:
                continue
            if writes(code[j][1], {"R20", "R21"}) or (j > add and writes(code[j][1], {carry})):
                problems.append(f"0x{code[j][0]:x}: '{code[j][1]}' clobbers the return address")
    if calls == 0:
        problems.append("no CALL.ABS through a register")
    secs = elfcompare.read(cubin)
    for s in secs:
        if s["name"].startswith((".rela.text.", ".rel.text.")) and s["size"]:
            problems.append(f"{s['name']} has entries")
    return problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ("sm_80", "sm_86", "sm_89"):
            for opt in ("-O0", "-O3"):
                out = os.path.join(tmp, f"{arch}{opt}.cubin")
                r = subprocess.run([args.optxas, f"-arch={arch}", opt, SOURCE, "-o", out], capture_output=True, text=True)
                problems = [f"optxas: {r.stderr.strip()[:200]}"] if r.returncode else check(out)
                print(("FAIL " if problems else "ok   ") + f"{arch} {opt}" + "".join("\n     " + p for p in problems[:8]))
                failures += bool(problems)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
