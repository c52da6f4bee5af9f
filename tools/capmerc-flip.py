#!/usr/bin/env python3
"""Decodes a capsule record with nvlink as the oracle (docs/elf.md, "Mercury sections"): nvlink
re-finalises an sm_100+ relocatable object's code from its .nv.capmerc.text.<fn>, so flipping one
bit of a record and linking shows which bits of the linked SASS that record bit drives.

  tools/capmerc-flip.py OBJ.o FUNCTION INDEX [--arch sm_100]

OBJ.o is ptxas -c output; INDEX is the instruction (as numbered by tools/capmerc.py --items) whose
record is flipped. For each record bit prints "-" (no change), "link fails", or per changed
instruction the SASS bit positions that changed (control bits 105-127 of neighbours change too:
nvlink schedules again).
"""
import argparse
import importlib.util
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
spec = importlib.util.spec_from_file_location("capmerc", os.path.join(HERE, "capmerc.py"))
capmerc = importlib.util.module_from_spec(spec)
spec.loader.exec_module(capmerc)


def section_offset(d, idx):
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, = struct.unpack_from("<H", d, 0x3a)
    return struct.unpack_from("<IIQQQQIIQQ", d, shoff + idx * shentsize)[4]


def record_of(cap, index):
    hdr, bits, items, _end, err = capmerc.parse_capsule(cap.data)
    if err:
        raise SystemExit(f"{cap.name}: {err}")
    it = iter(items)
    for i in range(hdr["count"]):
        if bits >> i & 1:
            if i == index:
                raise SystemExit(f"instruction {index} has no record (its bitmap bit is set)")
            continue
        item = next(it)
        if i == index:
            return item
    raise SystemExit(f"no instruction {index}")


def linked_text(nvlink, arch, obj_bytes, fn, tmp):
    src, out = os.path.join(tmp, "in.o"), os.path.join(tmp, "out.cubin")
    with open(src, "wb") as fh:
        fh.write(obj_bytes)
    r = subprocess.run([nvlink, f"-arch={arch}", src, "-o", out], capture_output=True)
    if r.returncode != 0:
        return None
    secs = [s for s in capmerc.read_sections(out) if s.name == ".text." + fn]
    return secs[0].data if secs else None


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("obj")
    ap.add_argument("function")
    ap.add_argument("index", type=int)
    ap.add_argument("--arch", default="sm_100")
    a = ap.parse_args()
    nvlink = shutil.which("nvlink")
    if not nvlink:
        raise SystemExit("nvlink not found on PATH")
    with open(a.obj, "rb") as fh:
        d = bytearray(fh.read())
    caps = [s for s in capmerc.read_sections(a.obj) if s.name == ".nv.capmerc.text." + a.function]
    if not caps:
        raise SystemExit(f"{a.obj}: no .nv.capmerc.text.{a.function}")
    off, rec = record_of(caps[0], a.index)
    base_off = section_offset(d, caps[0].idx) + off
    with tempfile.TemporaryDirectory() as tmp:
        base = linked_text(nvlink, a.arch, bytes(d), a.function, tmp)
        if base is None:
            raise SystemExit("nvlink fails on the unchanged object")
        print(f"record {rec.hex()}")
        print(f"sass   {base[a.index * 16:a.index * 16 + 16][::-1].hex()}")
        for bit in range(len(rec) * 8):
            e = bytearray(d)
            e[base_off + bit // 8] ^= 1 << (bit % 8)
            t = linked_text(nvlink, a.arch, bytes(e), a.function, tmp)
            if t is None:
                print(f"bit {bit:3}: link fails")
                continue
            if len(t) != len(base):
                print(f"bit {bit:3}: .text is 0x{len(t):x} bytes, was 0x{len(base):x}")
                continue
            changes = []
            for j in range(len(t) // 16):
                x = (int.from_bytes(t[j * 16:j * 16 + 16], "little")
                     ^ int.from_bytes(base[j * 16:j * 16 + 16], "little"))
                if x:
                    changes.append(f"i{j}:" + ",".join(str(p) for p in range(128) if x >> p & 1))
            print(f"bit {bit:3}: " + (" ".join(changes) if changes else "-"))
    return 0


if __name__ == "__main__":
    sys.exit(main())
