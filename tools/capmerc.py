#!/usr/bin/env python3
"""Reads the Mercury sections ptxas 13.0 writes into sm_100+ cubins (docs/elf.md, "Mercury
sections"): what is known of their format, measured on ptxas's output, not a specification.

  tools/capmerc.py FILE.cubin...              # per file: each Mercury section vs its counterpart
  tools/capmerc.py --items FILE.cubin         # also each .nv.capmerc.text.<fn> item by item,
                                              # next to the SASS instruction it stands for
  tools/capmerc.py --check FILE.cubin...      # only check the framing rule; exit 1 if it fails

Framing of .nv.capmerc.text.<fn> (all little endian):
  u32 text_section   index of the function's .text.<fn> section
  u32 version        0xc0000001 in every capsule examined
  u32 count          instructions of the capsule: those of .text.<fn> before the NOP padding,
                     less the ones ptxas's finaliser inserted (e.g. the @!PT LDS RZ, [RZ]
                     before an LDGSTS)
  bitmap             one bit per instruction (LSB first), ceil(count/8) bytes padded to 4; a
                     set bit: the instruction has no record (it is taken from the SASS as is)
  items              first byte 0x01..0x04: a record of 16*b bytes, one per instruction with a
                       clear bit that needs one (driver constants, special registers, memory
                       descriptors, barriers, atomics, LDGSTS...)
                     first byte 0x40 or more, bit 4 clear (seen: 0x4x): 4 bytes
                     first byte 0x40 or more, bit 4 set (seen: 0x5x, 0xdx): 2 bytes; the last
                       item is always one of these
Where count equals the SASS count, items == count - bits set (docs/elf.md gives the numbers);
--check counts the capsules that frame exactly and those that also follow that rule.
"""
import argparse
import os
import re
import struct
import subprocess
import sys

MERC_FLAG = 0x10000000
CAP_PREFIX = ".nv.capmerc"
MERC_PREFIX = ".nv.merc"
NOBITS = (8, 0x70000015)   # SHT_NOBITS and the Mercury copy of .nv.shared.* (no file bytes)


class Section:
    def __init__(self, idx, name, fields, data):
        self.idx, self.name, self.data = idx, name, data
        (self.type, self.flags, self.size, self.link, self.info, self.align,
         self.entsize) = fields


def read_sections(path):
    with open(path, "rb") as fh:
        d = fh.read()
    if d[:4] != b"\x7fELF" or d[4] != 2:
        raise ValueError(f"{path}: not a 64-bit ELF file")
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x3a)
    raw = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + i * shentsize) for i in range(shnum)]
    stroff = raw[shstrndx][4]
    out = []
    for i, (name, typ, flags, _addr, off, size, link, info, align, entsize) in enumerate(raw):
        start = stroff + name
        nm = d[start:d.index(0, start)].decode()
        data = b"" if typ in NOBITS else d[off:off + size]
        out.append(Section(i, nm, (typ, flags, size, link, info, align, entsize), data))
    return out


def counterpart(name):
    """The non-Mercury section a Mercury section describes (.nv.merc.X -> X)."""
    if name.startswith(CAP_PREFIX + "."):
        return name[len(CAP_PREFIX):]
    if name.startswith(MERC_PREFIX + "."):
        return name[len(MERC_PREFIX):]
    return None


def item_size(b, o):
    c = b[o]
    if c >> 6 == 0:
        return 16 * c if 1 <= c <= 4 else None
    return 4 if not c & 0x10 else 2


def parse_capsule(b):
    """Returns (header dict, bitmap bits, [(offset, bytes)], end offset, error or None)."""
    if len(b) < 12:
        return None, 0, [], 0, "shorter than its header"
    text, version, count = struct.unpack_from("<3I", b, 0)
    bm = ((count + 7) // 8 + 3) // 4 * 4
    bits = int.from_bytes(b[12:12 + bm], "little")
    o, items, err = 12 + bm, [], None
    while o < len(b):
        sz = item_size(b, o)
        if sz is None or o + sz > len(b):
            err = f"item at 0x{o:x} starts with 0x{b[o]:02x}"
            break
        items.append((o, b[o:o + sz]))
        o += sz
    hdr = {"text_section": text, "version": version, "count": count, "bitmap_bytes": bm}
    return hdr, bits, items, o, err


def sass_lines(path, fn):
    """SASS of .text.<fn> as nvdisasm prints it, one string per instruction, or []."""
    nvdisasm = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
    try:
        out = subprocess.run([nvdisasm, "-c", path], capture_output=True, text=True,
                             timeout=300).stdout
    except (OSError, subprocess.TimeoutExpired):
        return []
    rx = re.compile(r"/\*[0-9a-f]{4,}\*/\s+(.*?)\s*;?\s*$")
    lines, inside = [], False
    for line in out.splitlines():
        if line.startswith("//----"):
            inside = len(line.split()) > 1 and line.split()[1] == ".text." + fn
        elif inside:
            m = rx.search(line)
            if m:
                lines.append(m.group(1).rstrip(" ;"))
    return lines


def report(path, show_items):
    secs = read_sections(path)
    by_name = {s.name: s for s in secs}
    print(f"{path}:")
    for s in secs:
        base = counterpart(s.name)
        if base is None:
            continue
        other = by_name.get(base)
        if other is None:
            rel = "no counterpart"
        elif other.type in NOBITS or s.type in NOBITS:
            rel = f"counterpart size 0x{other.size:x} (no file bytes)"
        elif other.data == s.data:
            rel = "same bytes as counterpart"
        else:
            rel = f"differs from counterpart (0x{other.size:x} bytes)"
        flag = "" if s.flags & MERC_FLAG else " (no 0x10000000 flag)"
        print(f"  [{s.idx:3}] {s.name:40} type 0x{s.type:08x} size 0x{s.size:<5x} link {s.link:3} "
              f"info {s.info:3}  {rel}{flag}")
        if s.name.startswith(CAP_PREFIX + ".text."):
            capsule(path, s, secs, show_items)


def capsule(path, s, secs, show_items):
    hdr, bits, items, end, err = parse_capsule(s.data)
    if hdr is None:
        print(f"        capsule: {err}")
        return
    nset = bin(bits).count("1")
    text = secs[hdr["text_section"]] if hdr["text_section"] < len(secs) else None
    tname = text.name if text else "?"
    print(f"        capsule: .text section {hdr['text_section']} ({tname}), version "
          f"0x{hdr['version']:08x}, {hdr['count']} instructions, {nset} bits set, "
          f"{len(items)} items" + (f", stops: {err}" if err else ""))
    if not show_items:
        return
    fn = s.name[len(CAP_PREFIX + ".text."):]
    sass = sass_lines(path, fn)
    it = iter(items)
    for i in range(hdr["count"]):
        ins = sass[i] if i < len(sass) else "?"
        if bits >> i & 1:
            print(f"        {i:5}  (bit set)                                   {ins}")
            continue
        o, b = next(it, (None, b""))
        hexs = b.hex()
        lines = [hexs[k:k + 32] for k in range(0, len(hexs), 32)] or [""]
        print(f"        {i:5}  {o if o is not None else -1:5x}: {lines[0]:32}  {ins}")
        for extra in lines[1:]:
            print(f"                      {extra}")
    for o, b in it:
        print(f"        extra  {o:5x}: {b.hex()}")


def check(paths):
    total = exact = ends = 0
    for p in paths:
        for s in read_sections(p):
            if not s.name.startswith(CAP_PREFIX + ".text."):
                continue
            total += 1
            hdr, bits, items, end, err = parse_capsule(s.data)
            if hdr is None or err or end != len(s.data):
                print(f"{p}: {s.name}: {err or 'items do not end the section'}")
                continue
            ends += 1
            if len(items) == hdr["count"] - bin(bits).count("1"):
                exact += 1
    print(f"{total} capsules: {ends} frame exactly, {exact} of them with one item per clear bit")
    return total == ends


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("files", nargs="+")
    ap.add_argument("--items", action="store_true", help="list each capsule item by item")
    ap.add_argument("--check", action="store_true", help="only check the framing rule")
    a = ap.parse_args()
    if a.check:
        return 0 if check(a.files) else 1
    for p in a.files:
        report(p, a.items)
    return 0


if __name__ == "__main__":
    sys.exit(main())
