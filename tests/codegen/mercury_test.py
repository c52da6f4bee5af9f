#!/usr/bin/env python3
"""The Mercury sections of sm_100+ cubins (docs/elf.md, "Mercury sections"): checks on ptxas's own
output that the facts the documentation states still hold, with tools/capmerc.py as the reader,
and that optxas writes no Mercury section at all (a partial set would be worse than none).

For a few PTX files of the corpus, on sm_100 and sm_120, whole program and -c:
  - every .text.<fn> has one .nv.capmerc.text.<fn>, whose header names that .text section and
    counts at most its instructions before the NOP padding (exactly, where ptxas inserted no
    instruction of its own; see docs/elf.md);
  - the capsule frames exactly (header, bitmap, items end the section), its last item is a 2-byte
    one, and it has at most one record (16-64 bytes) per clear bit of the bitmap;
  - every Mercury section has flag 0x10000000; the capsules, .nv.merc.nv.info* and .nv.merc.rela*
    link .nv.merc.symtab;
  - sm_90 has none of them.

  mercury_test.py --optxas BIN
"""
import argparse
import importlib.util
import os
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
spec = importlib.util.spec_from_file_location("capmerc", os.path.join(ROOT, "tools", "capmerc.py"))
capmerc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(capmerc)

SOURCES = ["atomics.sm_90.ptx", "calls_and_printf.sm_80.ptx", "async_copy_pipeline.sm_80.ptx"]
NOP = bytes.fromhex("1879")   # the low two bytes of a NOP's encoding (opcode 0x918)


def instructions_before_padding(text):
    n = len(text) // 16
    while n > 0 and text[(n - 1) * 16:(n - 1) * 16 + 2] == NOP:
        n -= 1
    return n


def check_ptxas(cubin, problems):
    secs = capmerc.read_sections(cubin)
    by_name = {s.name: s for s in secs}
    msym = by_name.get(".nv.merc.symtab")
    texts = [s for s in secs if s.name.startswith(".text.")]
    caps = 0
    for t in texts:
        cap = by_name.get(".nv.capmerc" + t.name)
        if cap is None:
            problems.append(f"{cubin}: {t.name} has no capsule")
            continue
        caps += 1
        hdr, bits, items, end, err = capmerc.parse_capsule(cap.data)
        if err or end != len(cap.data):
            problems.append(f"{cubin}: {cap.name}: does not frame: {err or 'trailing bytes'}")
            continue
        if hdr["text_section"] != t.idx:
            problems.append(f"{cubin}: {cap.name}: header names section {hdr['text_section']}, "
                            f"not {t.idx}")
        want = instructions_before_padding(t.data)
        if hdr["count"] > want:
            problems.append(f"{cubin}: {cap.name}: count {hdr['count']}, .text has {want}")
        if bits >> hdr["count"]:
            problems.append(f"{cubin}: {cap.name}: bitmap bits beyond the count")
        records = sum(1 for _, b in items if len(b) >= 16)
        if records > hdr["count"] - bin(bits).count("1"):
            problems.append(f"{cubin}: {cap.name}: {records} records for "
                            f"{hdr['count'] - bin(bits).count('1')} clear bits")
        if not items or len(items[-1][1]) != 2:
            problems.append(f"{cubin}: {cap.name}: the last item is not a 2-byte one")
    for s in secs:
        if capmerc.counterpart(s.name) is None:
            continue
        if not s.flags & capmerc.MERC_FLAG:
            problems.append(f"{cubin}: {s.name}: no flag 0x10000000")
        if msym is None:
            problems.append(f"{cubin}: no .nv.merc.symtab")
        elif (s.name.startswith((".nv.capmerc.", ".nv.merc.nv.info", ".nv.merc.rela"))
              and s.link != msym.idx):
            problems.append(f"{cubin}: {s.name}: link {s.link}, not .nv.merc.symtab")
    return caps


def has_mercury(cubin):
    return any(capmerc.counterpart(s.name) for s in capmerc.read_sections(cubin))


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, r.stderr


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    a = ap.parse_args()
    problems, caps, compiled = [], 0, 0
    with tempfile.TemporaryDirectory() as tmp:
        for name in SOURCES:
            src = os.path.join(ROOT, "tests", "corpus", "ptx", name)
            for arch in ("sm_100", "sm_120", "sm_90"):
                for extra in ([], ["-c"]):
                    tag = f"{name}.{arch}{''.join(extra)}"
                    ref, ours = os.path.join(tmp, tag + ".ptxas"), os.path.join(tmp, tag + ".optxas")
                    ok, err = run(["ptxas", f"-arch={arch}", *extra, src, "-o", ref])
                    if not ok:
                        problems.append(f"ptxas failed on {tag}: {err.strip()[:200]}")
                        continue
                    compiled += 1
                    if arch == "sm_90":
                        if has_mercury(ref):
                            problems.append(f"{tag}: ptxas wrote Mercury sections for sm_90")
                    else:
                        caps += check_ptxas(ref, problems)
                    ok, err = run([a.optxas, f"-arch={arch}", *extra, src, "-o", ours])
                    if ok and has_mercury(ours):
                        problems.append(f"{tag}: optxas wrote a Mercury section")
    for p in problems:
        print("FAIL:", p)
    print(f"{compiled} ptxas cubins, {caps} capsules checked, {len(problems)} problems")
    if caps == 0:
        print("FAIL: no capsule was checked")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
