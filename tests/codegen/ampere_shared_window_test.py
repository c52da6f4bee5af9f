#!/usr/bin/env python3
"""Generic shared pointers and mbarrier on sm_80/86/89 (docs/lowering.md), against ptxas 13.0.

ptxas converts between shared and generic addresses there with a 64-bit add/subtract of the
driver's shared-window base c[0x0][0x18], not with SR_SWINHI / the low word as on sm_90, and
lowers mbarrier to STS.64 / ATOMS.ARRIVE.64 / LDS. For ampere/shared_window_mbarrier.ptx at -O0
and -O3 on each Ampere/Ada target, checks from nvdisasm's listings of both compilers' cubins:
every cvta reads c[0x0][0x18] (as many reads as ptxas's -O0 code has conversions), no SR_SWINHI
is read, the mbarrier kernel has one STS.64, one MEMBAR.ALL.CTA before one ATOMS.ARRIVE.64 and
reads the phase word [a+0x4], and its MBARRIER_INSTR_OFFSETS records (init 0, arrive 1,
test_wait 5, test_wait.parity 6) point at those instructions; and that the listing decodes.
The SASS simulator runs sm_90 code only, so these sequences are compared, not executed.

  ampere_shared_window_test.py --optxas BIN [--ptxas BIN]
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
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402  (the ELF section and .nv.info readers)

SOURCE = os.path.join(HERE, "ampere", "shared_window_mbarrier.ptx")
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
INSTR = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;")
FUNC = re.compile(r"\.text\.(\w+):")


def listings(cubin):
    r = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True)
    if r.returncode != 0 or "error" in r.stderr:
        raise RuntimeError(f"nvdisasm: {r.stderr.strip()}")
    out, cur = {}, None
    for line in r.stdout.splitlines():
        m = FUNC.search(line)
        if m:
            cur = m.group(1)
            out[cur] = []
        m = INSTR.search(line)
        if m and cur:
            out[cur].append(m.group(1))
    return out


def mbarrier_records(cubin):
    """EIATTR_MBARRIER_INSTR_OFFSETS (0x39) of .nv.info.mbarrier_phases: [(offset, kind)]."""
    for sec in elfcompare.read(cubin):
        if sec["name"] != ".nv.info.mbarrier_phases":
            continue
        for kind, fmt, _, payload in elfcompare.nvinfo(sec["data"]):
            if kind == 0x39 and fmt == 4:
                words = struct.unpack_from(f"<{len(payload) // 4}I", payload)
                return [(words[k], words[k + 3] & 0xff) for k in range(0, len(words), 4)]
    return []


KIND_OF = {0: "STS.64", 1: "ATOMS.ARRIVE.64", 5: "LDS", 6: "LDS"}


def facts(code):
    window = [t for t in code["shared_window"] if "c[0x0][0x18]" in t or "c[0x0][0x1c]" in t]
    mb = code["mbarrier_phases"]
    arrive = [k for k, t in enumerate(mb) if t.startswith("ATOMS.ARRIVE.64")]
    return {
        "window reads": len(window) > 0,
        "SR_SWINHI": any("SR_SWINHI" in t for c in code.values() for t in c),
        "STS.64": sum(t.startswith("STS.64") for t in mb),
        "ATOMS.ARRIVE.64": len(arrive),
        "MEMBAR.ALL.CTA before the arrive": bool(arrive) and any(t == "MEMBAR.ALL.CTA" for t in mb[:arrive[0]]),
        "phase word read": any(re.match(r"LDS R\d+, \[(R\d+)?\+?0x4\]", t) for t in mb),
    }


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "ptxas")
    a = ap.parse_args()
    text = open(SOURCE).read()
    bad = 0
    with tempfile.TemporaryDirectory() as tmp:
        for arch in ("sm_80", "sm_86", "sm_89"):
            ptx = os.path.join(tmp, f"{arch}.ptx")
            with open(ptx, "w") as f:
                f.write(text.replace(".target sm_80", f".target {arch}"))
            for level in (0, 3):
                got = {}
                for name, tool in (("ptxas", a.ptxas), ("optxas", a.optxas)):
                    cubin = os.path.join(tmp, f"{name}-{arch}-O{level}.cubin")
                    r = subprocess.run([tool, f"-arch={arch}", f"-O{level}", ptx, "-o", cubin],
                                       capture_output=True, text=True)
                    if r.returncode != 0:
                        print(f"FAIL {name} {arch} -O{level}: {r.stderr.strip()}")
                        bad += 1
                        continue
                    try:
                        code = listings(cubin)
                        got[name] = facts(code)
                        # mbarrier.inval's record (kind 8, at a NOP ptxas leaves) is not written
                        recs = [(pc, k) for pc, k in mbarrier_records(cubin) if k != 8]
                        got[name]["record kinds"] = [k for _, k in recs]
                        got[name]["records at their instructions"] = all(
                            code["mbarrier_phases"][pc // 16].startswith(KIND_OF.get(k, "?")) for pc, k in recs)
                    except (RuntimeError, KeyError) as e:
                        print(f"FAIL {name} {arch} -O{level}: {e}")
                        bad += 1
                if len(got) != 2:
                    continue
                want = {"window reads": True, "SR_SWINHI": False, "STS.64": 1, "ATOMS.ARRIVE.64": 1,
                        "MEMBAR.ALL.CTA before the arrive": True, "phase word read": True,
                        "record kinds": [0, 1, 5, 6], "records at their instructions": True}
                for name in ("ptxas", "optxas"):
                    for k, v in want.items():
                        if got[name][k] != v:
                            print(f"FAIL {name} {arch} -O{level}: {k}: {got[name][k]} (want {v})")
                            bad += 1
                if not bad:
                    print(f"ok {arch} -O{level}")
    print("PASS" if not bad else f"{bad} problem(s)")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
