#!/usr/bin/env python3
"""The register maps of -g builds (.nv_debug_info_reg_sass, .nv_debug_info_reg_type; docs/elf.md,
"Register maps"), decoded from optxas's cubin and ptxas's for the same PTX and checked:
  - e_flags bits 24-31 equal to ptxas's, and cuobjdump -elf accepts our cubin;
  - format: both sections parse to the end, with one record per .text section in section order
    (the same functions as ptxas, in the same order) and the same entry counts in both sections;
  - every entry: a register piece the PTX declares (piece < its 32-bit words), file R (5) or P (2),
    a range inside the function, and the type byte of the PTX register's declared type (the
    table below, learned from ptxas; ptxas's bytes for the same registers must agree with it);
  - against our code (nvdisasm): the register named is read or written by an instruction in the
    range, the instruction at the range's end reads it (or is a branch it is live across), and
    some instruction in the range comes from a PTX line (our .nv_debug_line_sass) that names the
    PTX register;
  - against ptxas: the same type bytes and register class (P or not) per PTX register, and at
    least 90% of the register pieces ptxas maps that our code uses are mapped by us too (ptxas's
    own names for its inlined runtime routines, %__cuda_*, excepted; a PTX register counts as
    used by our code when the PTX names it on a line that became an instruction reading or
    writing a register); the ones we miss are printed.
The exact ranges differ where our code differs (docs/elf.md).

  register_maps_test.py --optxas BIN
"""
import argparse
import os
import re
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import dwarfline    # noqa: E402
import elfcompare   # noqa: E402

CASES = [
    ("debug_build.G.sm_80", "sm_90"),
    ("local_memory_structs.G.sm_86", "sm_90"),
]

# The type byte ptxas writes per PTX register type (ptxas -g on a kernel with every type).
TYPE_BYTE = {"b8": 0, "b16": 1, "b32": 2, "b64": 3, "u8": 4, "u16": 5, "u32": 6, "u64": 7,
             "s8": 8, "s16": 9, "s32": 10, "s64": 11, "f16": 12, "f16x2": 13, "f32": 14,
             "f64": 15, "pred": 16, "b128": 17}
FILE_R, FILE_P = 5, 2
REG_DECL = re.compile(r"^\s*\.reg\s+(?:\.v(\d)\s+)?\.(\w+)\s+([%\w$]+?)(?:<(\d+)>)?\s*;")
BRANCH = re.compile(r"(BRA|BRX|JMP|JMX|CALL|RET|EXIT|BSYNC|BSSY|WARPSYNC|BREAK)\b")
SASS = re.compile(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;")


def cstr(b, i):
    j = b.index(0, i)
    return b[i:j].decode(), j + 1


def decode_reg_sass(b):
    """[(function, [(piece, name, reg, zero, file, start, end)])]"""
    out, i = [], 0
    while i < len(b):
        fn, i = cstr(b, i)
        n, = struct.unpack_from("<I", b, i)
        i += 4
        entries = []
        for _ in range(n):
            piece, = struct.unpack_from("<I", b, i)
            name, i = cstr(b, i + 4)
            reg, zero, file, start, end = struct.unpack_from("<BHBII", b, i)
            i += 12
            entries.append((piece, name, reg, zero, file, start, end))
        out.append((fn, entries))
    return out


def decode_reg_type(b):
    out, i = [], 0
    while i < len(b):
        fn, i = cstr(b, i)
        n, = struct.unpack_from("<I", b, i)
        out.append((fn, list(b[i + 4:i + 4 + n])))
        i += 4 + n
    return out


def maps(cubin):
    secs = elfcompare.read(cubin)
    data = {s["name"]: s["data"] for s in secs}
    texts = [s["name"][6:] for s in secs if s["name"].startswith(".text.")]
    sizes = {s["name"][6:]: s["size"] for s in secs if s["name"].startswith(".text.")}
    if ".nv_debug_info_reg_sass" not in data or ".nv_debug_info_reg_type" not in data:
        return None, None, texts, sizes
    return (decode_reg_sass(data[".nv_debug_info_reg_sass"]), decode_reg_type(data[".nv_debug_info_reg_type"]),
            texts, sizes)


def declared(ptx):
    """{function: {register name: (type, 32-bit words)}} from the .reg declarations."""
    out, cur = {}, None
    for line in open(ptx):
        m = re.search(r"\.(entry|func)\s+(?:\([^)]*\)\s*)?([\w$]+)", line)
        if m and not line.strip().startswith("//"):
            cur = out.setdefault(m.group(2), {})
        m = REG_DECL.match(line)
        if m and cur is not None:
            vec, ty, name, count = int(m.group(1) or 1), m.group(2), m.group(3), m.group(4)
            bits = {"pred": 32, "b128": 128}.get(ty, int(re.sub(r"\D", "", ty.split("x")[0]) or 32))
            words = max(1, bits * (2 if ty.endswith("x2") else 1) // 32) * vec
            for k in range(int(count) if count else 1):
                cur[name + (str(k) if count else "")] = (ty, words)
    return out


def disassemble(cubin):
    """{function: {address: instruction text}} from nvdisasm."""
    nvdisasm = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
    out = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+),", line)
        if m:
            cur = funcs.setdefault(m.group(1), {})
            continue
        m = SASS.match(line)
        if m and cur is not None:
            cur[int(m.group(1), 16)] = m.group(2)
    return funcs


def mentions(text, reg, file, reads_only=False):
    """Whether an instruction names register `reg` of `file`, also as part of a pair/quad that
    starts below it (64-bit operands name their first register only)."""
    if reads_only:
        # Sources: the operands after the first, except for instructions whose first operand is
        # read too (stores, branches, ...); a guard predicate is read.
        if file == FILE_P and re.search(r"@!?P%d\b" % reg, text):
            return True
        body = re.sub(r"^@!?U?P\w+\s+", "", text)
        op, _, rest = body.partition(" ")
        if not re.match(r"(ST|RED|BRA|BRX|BSYNC|CALL|RET|EXIT|WARPSYNC|BAR|ATOM|MEMBAR)", op):
            rest = rest.split(",", 1)[1] if "," in rest else ""
        text = rest
    if file == FILE_P:
        return re.search(r"(?<![\w.])!?P%d\b" % reg, text) is not None
    for m in re.finditer(r"(?<![\w.])R(\d+)(\.64|\.128)?\b", text):
        base = int(m.group(1))
        if base == reg or (base % 2 == 0 and reg == base + 1) or (base % 4 == 0 and base < reg < base + 4):
            return True
    return False


def ptx_rows(cubin):
    """{function: [(address, PTX line)]} of our .nv_debug_line_sass."""
    units, rows = dwarfline.read(cubin, ".nv_debug_line_sass")
    out = {}
    for r in rows:
        if not r["end"]:
            out.setdefault(r["address"][0], []).append((r["address"][1], r["line"]))
    return out


def line_at(rows, addr):
    best = None
    for a, line in rows:
        if a <= addr:
            best = line
    return best


def check(name, arch, optxas, tmp, problems, coverage):
    ptx = os.path.join(ROOT, "tests", "corpus", "ptx", name + ".ptx")
    ours, theirs = os.path.join(tmp, name + ".ours.cubin"), os.path.join(tmp, name + ".ptxas.cubin")
    for tool, out in ((optxas, ours), ("ptxas", theirs)):
        r = subprocess.run([tool, "-g", "-arch=" + arch, ptx, "-o", out], capture_output=True, text=True)
        if r.returncode:
            problems.append(f"{name}: {tool} failed: {r.stderr.strip()[:300]}")
            return 0
    # e_flags bits 24-31 count the debug sections (docs/elf.md): +2 with the register maps; and
    # cuobjdump accepts a debug cubin only when they agree with its contents.
    eo, et = open(ours, "rb").read()[0x33], open(theirs, "rb").read()[0x33]
    if eo != et:
        problems.append(f"{name}: e_flags bits 24-31 {eo:#x}, ptxas {et:#x}")
    cuobjdump = os.environ.get("CUOBJDUMP", os.path.expanduser("~/.cache/cuda-disasm/cuobjdump"))
    r = subprocess.run([cuobjdump, "-elf", ours], capture_output=True, text=True)
    if r.returncode:
        problems.append(f"{name}: cuobjdump rejects our cubin: {r.stderr.strip()[:200]}")
    decl = declared(ptx)
    source = {n: t.split("//")[0] for n, t in enumerate(open(ptx), 1)}
    osass, otype, otexts, osizes = maps(ours)
    psass, ptype, ptexts, _ = maps(theirs)
    if psass is None:
        problems.append(f"{name}: ptxas wrote no register maps (the oracle changed?)")
        return 0
    if osass is None:
        problems.append(f"{name}: optxas wrote no register maps")
        return 0
    # Structure: one record per function section, in section order, in both sections.
    for what, recs, texts in (("ours", osass, otexts), ("ptxas", psass, ptexts)):
        if [f for f, _ in recs] != texts:
            problems.append(f"{name}: {what}: reg_sass functions {[f for f, _ in recs]} != .text order {texts}")
    if [f for f, _ in osass] != [f for f, _ in psass]:
        problems.append(f"{name}: functions {[f for f, _ in osass]} != ptxas's {[f for f, _ in psass]}")
    for recs_s, recs_t, what in ((osass, otype, "ours"), (psass, ptype, "ptxas")):
        if [(f, len(e)) for f, e in recs_s] != [(f, len(t)) for f, t in recs_t]:
            problems.append(f"{name}: {what}: reg_sass and reg_type records differ in functions or counts")
    code = disassemble(ours)
    rows = ptx_rows(ours)
    checked = 0
    ptxas_of = dict(psass)
    ptxas_types = {f: t for f, t in ptype}
    for (fn, entries), (_, types) in zip(osass, otype):
        regs = decl.get(fn, {})
        size = osizes.get(fn, 0)
        insts = code.get(fn, {})
        # ptxas's file and type per PTX register of this function.
        theirs_by_name = {}
        for (e, t) in zip(ptxas_of.get(fn, []), ptxas_types.get(fn, [])):
            theirs_by_name.setdefault(e[1], set()).add((e[4], t))
        for (piece, reg_name, reg, zero, file, start, end), ty in zip(entries, types):
            where = f"{name}: {fn}: {reg_name}.{piece} in {'R' if file == FILE_R else 'P'}{reg} [{start:#x}, {end:#x}]"
            if reg_name not in regs:
                problems.append(f"{where}: not a register the PTX declares in {fn}")
                continue
            ptype_name, words = regs[reg_name]
            if piece >= words:
                problems.append(f"{where}: piece {piece} of a {words}-word register")
            if zero != 0 or file not in (FILE_R, FILE_P) or (file == FILE_P) != (ptype_name == "pred"):
                problems.append(f"{where}: file {file} (padding {zero}) for a .{ptype_name} register")
            if ty != TYPE_BYTE.get(ptype_name, -1):
                problems.append(f"{where}: type byte {ty}, .{ptype_name} is {TYPE_BYTE.get(ptype_name)}")
            # (ptxas also keeps 16-bit registers in file 4, halves of R registers.)
            for f_, t_ in theirs_by_name.get(reg_name, ()):
                if t_ != ty or (f_ == FILE_P) != (file == FILE_P):
                    problems.append(f"{where}: ptxas has file {f_} type {t_}")
            if not (0 <= start <= end < size) or start % 16 or end % 16:
                problems.append(f"{where}: not inside the function (0x{size:x} bytes)")
                continue
            inside = [a for a in range(start, end + 16, 16) if a in insts]
            if not any(mentions(insts[a], reg, file) for a in inside):
                problems.append(f"{where}: no instruction in the range reads or writes the register")
            # The range ends at the last read, or at a branch the value is live across.
            end_text = re.sub(r"^@!?U?P\w+\s+", "", insts.get(end, ""))
            if not mentions(insts.get(end, ""), reg, file, reads_only=True) and not BRANCH.match(end_text):
                problems.append(f"{where}: the instruction at the end ({insts.get(end)!r}) does not read it")
            word = re.compile(r"(?<![\w%$])" + re.escape(reg_name) + r"(?![\w$])")
            fr = rows.get(fn, [])
            if not any(word.search(source.get(line_at(fr, a), "") or "") for a in inside):
                problems.append(f"{where}: no instruction in the range comes from a PTX line naming it")
            checked += 1
        # Coverage against ptxas: the PTX registers ptxas maps that our code uses.
        used = set()
        for a, text in insts.items():
            line = line_at(rows.get(fn, []), a)
            if line is None or not re.search(r"\b[RP]\d+\b", text):
                continue
            for r in regs:
                if re.search(r"(?<![\w%$])" + re.escape(r) + r"(?![\w$])", source.get(line, "")):
                    used.add(r)
        ours_names = {(e[1], e[0]) for e in entries}
        missing = sorted({(e[1], e[0]) for e in ptxas_of.get(fn, []) if not e[1].startswith("%__cuda")
                          and e[1] in used and e[1] in regs} - ours_names)
        wanted = {(e[1], e[0]) for e in ptxas_of.get(fn, []) if not e[1].startswith("%__cuda")
                  and e[1] in used and e[1] in regs}
        coverage[0] += len(wanted) - len(missing)
        coverage[1] += len(wanted)
        if missing:
            print(f"note: {name}: {fn}: ptxas maps {len(missing)} register pieces we do not: {missing[:8]}")
    return checked


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    problems, checked = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for name, arch in CASES:
            coverage = [0, 0]
            checked += check(name, arch, args.optxas, tmp, problems, coverage)
            print(f"{name}: we map {coverage[0]} of the {coverage[1]} register pieces ptxas maps that our code uses")
            # Residuals (docs/elf.md): registers our code keeps only in uniform or argument
            # registers, or folds into others' ranges.
            if coverage[1] and coverage[0] < 0.9 * coverage[1]:
                problems.append(f"{name}: only {coverage[0]} of {coverage[1]} of ptxas's register pieces mapped")
    for p in problems:
        print("FAIL", p)
    print(f"register maps: {checked} entries checked, {len(problems)} problems")
    if checked == 0:
        print("FAIL no entries checked")
        return 1
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main())
