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
  - the e_flags low byte is 0x02 (capmerc); sm_90 has none of them (0x04);
and that optxas writes none of them and marks every cubin SASS only (e_flags low byte 0x04).
And nvlink's use of them, on a small sm_100 -c object (two LOP3s, one with a capsule record, one
without): nvlink rebuilds the instruction that has a record from the capsule (a changed register
in its SASS is undone), takes the one without from the SASS (a changed truth table stays), and
does not link the object once its Mercury sections are removed, unless the e_flags low byte says
SASS only (0x04), which is what optxas writes on every target: nvlink links optxas's sm_100 -c
object, and the result is SASS only too.

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
    with open(cubin, "rb") as fh:
        if fh.read(0x31)[0x30] != 0x02:
            problems.append(f"{cubin}: e_flags low byte is not 0x02 (capmerc)")
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


XOR_PTX = """.version 9.0
.target sm_100
.address_size 64
.visible .entry k(.param .u64 p, .param .u32 a, .param .u32 b)
{
  .reg .u64 %rd<3>; .reg .u32 %r<6>;
  ld.param.u64 %rd1, [p];
  ld.param.u32 %r1, [a];
  ld.param.u32 %r2, [b];
  cvta.to.global.u64 %rd2, %rd1;
  xor.b32 %r3, %r2, %r1;
  xor.b32 %r4, %r3, %r2;
  xor.b32 %r5, %r4, %r3;
  st.global.u32 [%rd2], %r5;
  ret;
}
"""


def section_file_offset(d, idx):
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, = struct.unpack_from("<H", d, 0x3a)
    return struct.unpack_from("<IIQQQQIIQQ", d, shoff + idx * shentsize)[4]


def nvlink_text(obj_bytes, tmp):
    src, out = os.path.join(tmp, "link.o"), os.path.join(tmp, "link.cubin")
    with open(src, "wb") as fh:
        fh.write(obj_bytes)
    if os.path.exists(out):
        os.remove(out)
    r = subprocess.run(["nvlink", "-arch=sm_100", src, "-o", out], capture_output=True)
    if r.returncode != 0:
        return None
    return next(s.data for s in capmerc.read_sections(out) if s.name == ".text.k")


def check_nvlink(optxas, tmp, problems):
    src, obj = os.path.join(tmp, "xor.ptx"), os.path.join(tmp, "xor.o")
    with open(src, "w") as fh:
        fh.write(XOR_PTX)
    ok, err = run(["ptxas", "-arch=sm_100", "-c", src, "-o", obj])
    if not ok:
        problems.append(f"ptxas -c failed: {err.strip()[:200]}")
        return
    with open(obj, "rb") as fh:
        d = bytes(fh.read())
    secs = capmerc.read_sections(obj)
    text = next(s for s in secs if s.name == ".text.k")
    cap = next(s for s in secs if s.name == ".nv.capmerc.text.k")
    _hdr, bits, _items, _end, _err = capmerc.parse_capsule(cap.data)
    lop3 = [i for i in range(len(text.data) // 16)
            if int.from_bytes(text.data[i * 16:i * 16 + 2], "little") & 0xfff == 0x212]
    with_record = [i for i in lop3 if not bits >> i & 1]
    without = [i for i in lop3 if bits >> i & 1]
    if not with_record or not without:
        problems.append(f"xor.o: LOP3s {lop3}, bitmap {bits:b}: need one with and one without a record")
        return
    base = nvlink_text(d, tmp)
    if base != text.data:
        problems.append("nvlink changed (or failed on) the unchanged object's code")
        return
    toff = section_file_offset(d, text.idx)
    # A record's instruction: its destination register (bits 16-23) changed in the SASS only.
    i = with_record[0]
    e = bytearray(d)
    e[toff + i * 16 + 2] ^= 0x01
    t = nvlink_text(bytes(e), tmp)
    if t is None or t[i * 16:i * 16 + 16] != text.data[i * 16:i * 16 + 16]:
        problems.append(f"nvlink did not rebuild instruction {i} (it has a record) from the capsule")
    # An instruction without a record: its truth table (bits 72-79) changed in the SASS.
    j = without[0]
    e = bytearray(d)
    e[toff + j * 16 + 9] ^= 0xff
    t = nvlink_text(bytes(e), tmp)
    if t is None or t[j * 16:j * 16 + 16] != bytes(e[toff + j * 16:toff + j * 16 + 16]):
        problems.append(f"nvlink did not take instruction {j} (no record) from the SASS")
    # Without the Mercury sections (they are last: dropping them is lowering e_shnum).
    keep = min(s.idx for s in secs if capmerc.counterpart(s.name))
    e = bytearray(d)
    struct.pack_into("<H", e, 0x3c, keep)
    if e[0x30] != 0x02:
        problems.append(f"ptxas's sm_100 e_flags low byte is {e[0x30]:#x}, not 0x02")
    if nvlink_text(bytes(e), tmp) is not None:
        problems.append("nvlink linked an sm_100 capmerc object without Mercury sections")
    e[0x30] = 0x04
    if nvlink_text(bytes(e), tmp) != text.data:
        problems.append("nvlink did not link the same object marked SASS-only (e_flags 0x04)")
    # optxas's own object of the same kernel.
    ours = os.path.join(tmp, "xor.optxas.o")
    ok, err = run([optxas, "-arch=sm_100", "-c", src, "-o", ours])
    if not ok:
        problems.append(f"optxas -c failed: {err.strip()[:200]}")
        return
    with open(ours, "rb") as fh:
        od = fh.read()
    if od[0x30] != 0x04:
        problems.append(f"optxas's sm_100 e_flags low byte is {od[0x30]:#x}, not 0x04 (SASS only)")
    linked = os.path.join(tmp, "link.cubin")
    if nvlink_text(od, tmp) is None:
        problems.append("nvlink does not link optxas's sm_100 -c object")
    elif open(linked, "rb").read()[0x30] != 0x04 or has_mercury(linked):
        problems.append("nvlink's cubin from optxas's object is not SASS only")


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
                        if has_mercury(ref) or open(ref, "rb").read()[0x30] != 0x04:
                            problems.append(f"{tag}: ptxas's sm_90 cubin has Mercury sections or kind")
                    else:
                        caps += check_ptxas(ref, problems)
                    ok, err = run([a.optxas, f"-arch={arch}", *extra, src, "-o", ours])
                    if ok and has_mercury(ours):
                        problems.append(f"{tag}: optxas wrote a Mercury section")
                    if ok and open(ours, "rb").read()[0x30] != 0x04:
                        problems.append(f"{tag}: optxas's e_flags low byte is not 0x04 (SASS only)")
        check_nvlink(a.optxas, tmp, problems)
    for p in problems:
        print("FAIL:", p)
    print(f"{compiled} ptxas cubins, {caps} capsules checked, {len(problems)} problems")
    if caps == 0:
        print("FAIL: no capsule was checked")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
