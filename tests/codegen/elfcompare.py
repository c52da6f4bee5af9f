#!/usr/bin/env python3
"""Compares the structure of two cubins, ignoring code: sections (name, type, flags, alignment,
and size for everything but code-dependent sections), symbols (name, type, binding, other,
section), module and per-function .nv.info attributes (kinds; values where they do not depend
on code or register allocation), the relocations of initialised global data (type, symbol,
addend and the place in the variable they patch), the relocations of the kernels' parameter
banks (texture/sampler/surface header indices: offset, type, symbol, in file order), the order of
the texture/sampler/surface symbols and, in relocatable objects, the (type, symbol) of each
function's code relocations. Prints one line per difference; exit 1 if any.

usage: elfcompare.py OURS.cubin THEIRS.cubin [--values]
"""
import struct
import sys

# Sections whose size or contents follow the code (and so legitimately differ).
CODE_DEPENDENT = (".text.", ".debug_frame", ".rela.debug_frame", ".nv.info", ".strtab",
                  ".shstrtab", ".symtab", ".note.nv.tkinfo", ".rela.text.", ".rel.text.",
                  # -g register maps: one entry per range a register lives in (their structure
                  # is checked by register_maps_test.py)
                  ".nv_debug_info_reg_")
# Line programs: their rows follow the code; header, file table and sequences must match.
LINE_TABLES = (".debug_line", ".nv_debug_line_sass")
# .nv.info attributes whose values depend on the code we generate.
CODE_VALUES = {0x2f, 0x11, 0x12, 0x23, 0x1c, 0x1d, 0x55, 0x28, 0x29, 0x31, 0x1e, 0x44, 0x2e, 0x27,
               0x25, 0x2d, 0x46,   # 0x46 SYSCALL_OFFSETS: where the calls out of the module are
               0x39}               # 0x39 MBARRIER_INSTR_OFFSETS: where the mbarrier instructions are


def read(path):
    d = open(path, "rb").read()
    if d[:4] != b"\x7fELF":
        raise ValueError(f"{path}: not an ELF file")
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
    secs = [struct.unpack_from("<IIQQQQIIQQ", d, shoff + 64 * i) for i in range(shnum)]
    names = secs[shstrndx]

    def cstr(off, base):
        end = d.index(b"\0", base + off)
        return d[base + off:end].decode()

    out = []
    for s in secs:
        out.append({"name": cstr(s[0], names[4]), "type": s[1], "flags": s[2], "size": s[5],
                    "link": s[6], "info": s[7], "align": s[8], "entsize": s[9],
                    "data": d[s[4]:s[4] + s[5]] if s[1] != 8 else b""})
    return out


def symbol_entries(secs):
    """(name, info, other, shndx, value, size) of each symbol, in symbol-table order."""
    st = next((s for s in secs if s["type"] == 2), None)
    if not st:
        return []
    strs = secs[st["link"]]["data"]
    out = []
    for k in range(0, len(st["data"]), 24):
        name, info, other, shndx, value, size = struct.unpack_from("<IBBHQQ", st["data"], k)
        out.append((strs[name:strs.index(b"\0", name)].decode(), info, other, shndx, value, size))
    return out


def symbols(secs):
    return [(n, info, other, secs[shndx]["name"] if 0 < shndx < len(secs) else shndx)
            for n, info, other, shndx, _, _ in symbol_entries(secs)]


def symbol_table(secs):
    """[(name, value, size, section name)] in symbol-table order."""
    return [(n, value, size, secs[shndx]["name"] if 0 < shndx < len(secs) else None)
            for n, _, _, shndx, value, size in symbol_entries(secs)]


def relocations(secs, target):
    """The relocations applied to section `target`: [(offset, type, symbol name, addend)]."""
    syms = symbol_table(secs)
    out = []
    for s in secs:
        if s["type"] not in (4, 9) or s["info"] >= len(secs) or secs[s["info"]]["name"] != target:
            continue
        step = 24 if s["type"] == 4 else 16
        for k in range(0, len(s["data"]), step):
            off, info = struct.unpack_from("<QQ", s["data"], k)
            addend = struct.unpack_from("<q", s["data"], k + 16)[0] if step == 24 else None
            sym = syms[info >> 32][0] if (info >> 32) < len(syms) else info >> 32
            out.append((off, info & 0xffffffff, sym, addend))
    return out


def data_relocations(secs):
    """Relocations of initialised global data, as (type, symbol, addend, variable, offset in it):
    independent of where each variable lies in .nv.global.init."""
    where = [(v, sz, n) for n, v, sz, sec in symbol_table(secs) if sec == ".nv.global.init" and sz]
    out = []
    for off, typ, sym, addend in relocations(secs, ".nv.global.init"):
        var = next(((n, off - v) for v, sz, n in where if v <= off < v + sz), (None, off))
        out.append((typ, sym, addend) + var)
    return sorted(out, key=str)


def code_relocations(secs, fn):
    """(type, symbol) of the relocations of .text.<fn>: addends and offsets follow the code."""
    return sorted(((typ, sym) for _, typ, sym, _ in relocations(secs, ".text." + fn)), key=str)


def multiset_diff(name, ours, theirs):
    extra = [x for x in set(ours) if ours.count(x) > theirs.count(x)]
    missing = [x for x in set(theirs) if theirs.count(x) > ours.count(x)]
    if not extra and not missing:
        return []
    return [f"{name}: relocations {sorted(extra, key=str)} extra, {sorted(missing, key=str)} missing"]


def nvinfo(data):
    recs, k = [], 0
    while k + 4 <= len(data):
        fmt, kind, val = struct.unpack_from("<BBH", data, k)
        k += 4
        payload = b""
        if fmt == 4:
            payload = data[k:k + val]
            k += val
            val = None
        recs.append((kind, fmt, val, payload))
    return recs


def line_table_diffs(name, ours, theirs):
    """A line program's header and file table, and which functions have a sequence, in order."""
    import dwarfline   # noqa: PLC0415 (dwarfline imports this module)
    diffs = []
    (ua, ra), (ub, rb) = dwarfline.read(ours, name), dwarfline.read(theirs, name)
    skip = ("offset", "length")
    ha = [{k: v for k, v in h.items() if k not in skip} for h in ua]
    hb = [{k: v for k, v in h.items() if k not in skip} for h in ub]
    if ha != hb:
        diffs.append(f"{name}: header differs: {ha} vs {hb}")

    def sequences(rows):
        out, start = [], True
        for r in rows:
            if start:
                out.append(r["address"][0])
            start = r["end"]
        return out
    # Functions with a sequence; ptxas's order in -c objects follows a rule not known yet.
    if sorted(sequences(ra)) != sorted(sequences(rb)):
        diffs.append(f"{name}: sequences of {sorted(set(sequences(ra)) ^ set(sequences(rb)))} differ")
    return diffs


def compare(ours, theirs, values):
    a, b = read(ours), read(theirs)
    diffs = []
    an = [s["name"] for s in a[1:]]
    bn = [s["name"] for s in b[1:]]
    for n in sorted(set(bn) - set(an)):
        diffs.append(f"section missing: {n}")
    for n in sorted(set(an) - set(bn)):
        diffs.append(f"extra section: {n}")
    amap = {s["name"]: s for s in a}
    bmap = {s["name"]: s for s in b}
    for n in bn:
        if n not in amap:
            continue
        x, y = amap[n], bmap[n]
        for f in ("type", "flags", "align", "entsize"):
            if x[f] != y[f]:
                diffs.append(f"{n}: {f} {x[f]:#x} vs {y[f]:#x}")
        if n in LINE_TABLES:
            diffs += line_table_diffs(n, ours, theirs)
        elif not n.startswith(CODE_DEPENDENT) and x["size"] != y["size"]:
            diffs.append(f"{n}: size {x['size']:#x} vs {y['size']:#x}")
        if n.startswith(".nv.info") or n == ".nv.compat":
            ka = [r[0] for r in nvinfo(x["data"])]
            kb = [r[0] for r in nvinfo(y["data"])]
            if sorted(set(ka)) != sorted(set(kb)):
                diffs.append(f"{n}: attributes {sorted(set(ka) - set(kb))} extra, {sorted(set(kb) - set(ka))} missing")
            if values:
                va = {(r[0], r[1], r[2], r[3]) for r in nvinfo(x["data"]) if r[0] not in CODE_VALUES}
                vb = {(r[0], r[1], r[2], r[3]) for r in nvinfo(y["data"]) if r[0] not in CODE_VALUES}
                for r in sorted(vb - va):
                    diffs.append(f"{n}: attribute {r[0]:#x} value differs")
    # Relocations whose meaning does not depend on the code: the addresses in initialised data;
    # in relocatable objects also which symbols each function's code refers to, and how.
    if any(s["name"] == ".nv.global.init" for s in b):
        diffs += multiset_diff(".nv.global.init", data_relocations(a), data_relocations(b))
    # Texture/sampler/surface references: the bank-0 slots and their symbols' order.
    for n in bn:
        if n.startswith(".nv.constant0.") and n in amap:
            ra, rb = relocations(a, n), relocations(b, n)
            if ra != rb:
                diffs.append(f"{n}: relocations {ra} vs {rb}")
    texture_symbols = lambda secs: [(s[0], s[1] & 0xf) for s in symbols(secs) if s[1] & 0xf in (10, 11, 12)]
    if texture_symbols(a) != texture_symbols(b):
        diffs.append(f"texture/sampler/surface symbols {texture_symbols(a)} vs {texture_symbols(b)}")
    with open(theirs, "rb") as f:
        relocatable = struct.unpack_from("<H", f.read(18), 16)[0] == 1
    if relocatable:
        for n in bn:
            if n.startswith(".text.") and n in amap:
                diffs += multiset_diff(n, code_relocations(a, n[6:]), code_relocations(b, n[6:]))
    sa = {(s[0], s[1], s[2], s[3]) for s in symbols(a)}
    sb = {(s[0], s[1], s[2], s[3]) for s in symbols(b)}
    for s in sorted(sb - sa, key=str):
        diffs.append(f"symbol differs or missing: {s}")
    return diffs


def main(argv):
    files = [x for x in argv if not x.startswith("--")]
    if len(files) != 2:
        print(__doc__)
        return 2
    diffs = compare(files[0], files[1], "--values" in argv)
    for d in diffs:
        print(d)
    return 1 if diffs else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
