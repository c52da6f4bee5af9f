#!/usr/bin/env python3
"""The line tables (.debug_line, .nv_debug_line_sass) optxas writes for PTX with .loc, decoded
(dwarfline.py) and checked:
  - against the code: every function's sequence covers its whole .text section; every PTX line
    of .nv_debug_line_sass is an instruction of that function (or its body's '{');
  - against the IR's source locations: at every instruction address, the .debug_line row in
    effect names the .loc in effect at that instruction's PTX line (the .loc of the instruction
    at that address), and an inlined row's inlined-at row is the place the PTX says; every
    global/shared memory access (nvdisasm's LDG, STG, LDS, STS, ATOMG, ATOMS, RED) comes from a PTX
    line that accesses memory (the locations survive lowering, expansion, optimization and
    scheduling);
  - against ptxas (same input): the same header and file table, a sequence for the same
    functions, and at -O0 the same source and PTX lines.

  line_tables_test.py --optxas BIN
"""
import argparse
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
import dwarfline    # noqa: E402
import elfcompare   # noqa: E402

# (corpus file, -arch, optimization levels, extra flags)
CASES = [
    ("lineinfo_build.sm_90", "sm_90", ("-O0", "-O3"), []),
    ("lineinfo_math.sm_86", "sm_90", ("-O0", "-O3"), []),
    ("debug_build.G.sm_80", "sm_90", ("-O0",), []),
    ("local_memory_structs.G.sm_86", "sm_90", ("-O0",), []),
    ("calls", "sm_90", ("-O0", "-O3"), []),
    # -lineinfo without .loc: .nv_debug_line_sass, the PTX text, a .debug_line header alone.
    ("vecadd", "sm_90", ("-O0", "-O3"), ["-lineinfo"]),
    ("lineinfo_build.sm_90", "sm_90", ("-O3",), ["-lineinfo"]),
    ("vecadd", "sm_90", ("-O0",), ["-g"]),
]

# A kernel calling a device function: whole programs place it in the kernel's section, and its
# rows are part of the kernel's sequences (as ptxas writes them).
CALLS_PTX = """\
.version 9.0
.target sm_90
.address_size 64

.func (.param .b32 r) twice(.param .b32 x)
{
	.reg .b32 %r<3>;
	.loc	1 3 0
	ld.param.b32 	%r1, [x];
	.loc	1 4 5
	add.s32 	%r2, %r1, %r1;
	st.param.b32 	[r], %r2;
	.loc	1 5 1
	ret;
}

.visible .entry k(.param .u64 out)
{
	.reg .b32 %r<4>;
	.reg .b64 %rd<3>;
	.loc	1 8 0
	ld.param.u64 	%rd1, [out];
	cvta.to.global.u64 	%rd2, %rd1;
	.loc	1 9 3
	mov.u32 	%r1, %tid.x;
	{
	.param .b32 a;
	.param .b32 b;
	st.param.b32 	[a], %r1;
	call.uni (b), twice, (a);
	ld.param.b32 	%r2, [b];
	}
	.loc	1 10 3
	st.global.u32 	[%rd2], %r2;
	.loc	1 11 1
	ret;
}
	.file	1 "/nonexistent/calls.cu"
"""

LOC = re.compile(r"^\s*\.loc\s+(\d+)\s+(\d+)\s+(\d+)(.*)$")
FUNC = re.compile(r"\.(entry|func)\b")


def ptx_lines(path):
    """{PTX line: (.loc (file, line, inlined_at (file, line) or None) in effect, or None)} for
    every line inside a function body, and the set of lines holding instructions."""
    active, instrs, loc, depth = {}, set(), None, 0
    for n, text in enumerate(open(path), 1):
        s = text.split("//")[0].strip()
        if FUNC.search(s) and depth == 0:
            loc = None
        m = LOC.match(s)
        if m:
            inl = re.search(r"inlined_at\s+(\d+)\s+(\d+)", m.group(4))
            loc = (int(m.group(1)), int(m.group(2)), (int(inl.group(1)), int(inl.group(2))) if inl else None)
        if depth > 0:
            active[n] = loc
            if s and not s.startswith((".", "{", "}", "$", "@@")) or s.startswith("@"):
                if not s.endswith(":"):
                    instrs.add(n)
        depth += s.count("{") - s.count("}")
    return active, instrs


MEMORY_SASS = re.compile(r"^(@!?U?P\w+\s+)?(LDG|STG|LDS|STS|ATOMG|ATOMS|RED)\b")
MEMORY_PTX = re.compile(r"^(@!?%\w+\s+)?(ld|st|atom|red|ldu|cp|prefetch|tex|suld|sust|mbarrier)\b")


def sass_memory(cubin):
    """{function: [addresses of global/shared memory instructions]} from nvdisasm."""
    nvdisasm = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
    out = subprocess.run([nvdisasm, "-c", cubin], capture_output=True, text=True, check=True).stdout
    funcs, cur = {}, None
    for line in out.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+),", line)
        if m:
            cur = funcs.setdefault(m.group(1), [])
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;", line)
        if m and cur is not None and MEMORY_SASS.match(m.group(2)):
            cur.append(int(m.group(1), 16))
    return funcs


def text_sizes(cubin):
    return {s["name"][6:]: s["size"] for s in elfcompare.read(cubin) if s["name"].startswith(".text.")}


def sequences(rows):
    """{function: [rows]} (the rows of each sequence, its end_sequence row last)."""
    out, cur = {}, None
    for r in rows:
        if cur is None:
            cur = out.setdefault(r["address"][0], [])
        cur.append(r)
        if r["end"]:
            cur = None
    return out


def check(name, cubin, ptx, problems):
    active, instrs = ptx_lines(ptx)
    source = {n: t.split("//")[0].strip() for n, t in enumerate(open(ptx), 1)}
    memory = sass_memory(cubin)
    sizes = text_sizes(cubin)
    units, rows = dwarfline.read(cubin, ".debug_line")
    _, prows = dwarfline.read(cubin, ".nv_debug_line_sass")
    # .debug_line file index -> .file number of the PTX (the table keeps .file order).
    numbers = {}
    for line in open(ptx):
        m = re.match(r'\s*\.file\s+(\d+)\s+"([^"]*)"', line)
        if m:
            numbers[os.path.basename(m.group(2))] = int(m.group(1))
    fileno = {k + 1: numbers.get(f[0]) for k, f in enumerate(units[0]["files"])}
    src, sass = sequences(rows), sequences(prows)
    checked = 0
    for fn, seq in sass.items():
        if fn not in sizes:
            problems.append(f"{name}: .nv_debug_line_sass sequence for {fn}, which has no .text section")
            continue
        if seq[-1]["address"][1] != sizes[fn]:
            problems.append(f"{name}: {fn}: .nv_debug_line_sass ends at {seq[-1]['address'][1]:#x}, "
                            f".text has {sizes[fn]:#x} bytes")
        for r in seq[:-1]:
            if r["line"] not in instrs and active.get(r["line"], 0) != 0 and r["line"] not in active:
                problems.append(f"{name}: {fn}+{r['address'][1]:#x}: PTX line {r['line']} is not in a function")
        # Address -> PTX line of the instruction there.
        body = [r for r in seq if not r["end"]]
        for addr in memory.get(fn, []):
            pl = max((r for r in body if r["address"][1] <= addr), key=lambda r: r["address"][1])["line"]
            if not MEMORY_PTX.match(source.get(pl, "")):
                problems.append(f"{name}: {fn}+{addr:#x}: a memory instruction from PTX line {pl} "
                                f"({source.get(pl, '')[:40]!r}), which accesses no memory")
            checked += 1
        rs = src.get(fn)
        if rs is None:
            continue
        if rs[-1]["address"][1] != sizes[fn]:
            problems.append(f"{name}: {fn}: .debug_line ends at {rs[-1]['address'][1]:#x}, .text has {sizes[fn]:#x}")
        # The rows in effect at each address: the last group of rows at or before it.
        groups = {}
        for k, r in enumerate(rs[:-1]):
            groups.setdefault(r["address"][1], []).append((k, r))
        starts = sorted(groups)
        all_rows = rows   # 0x90 refers to rows by their number in the whole section
        for addr in range(0, sizes[fn], 16):
            pl = max((r for r in body if r["address"][1] <= addr), key=lambda r: r["address"][1])["line"]
            loc = active.get(pl)
            if not loc or pl not in instrs:
                continue
            at = max(a for a in starts if a <= addr)
            r = groups[at][-1][1]
            got = (fileno.get(r["file"]), r["line"])
            if got != (loc[0], loc[1]):
                problems.append(f"{name}: {fn}+{addr:#x}: .debug_line row says {got}, "
                                f"the instruction's .loc (PTX line {pl}) is {loc[:2]}")
                continue
            if loc[2]:
                parent = all_rows[r["inlined_at"] - 1] if 0 < r["inlined_at"] <= len(all_rows) else None
                if not parent or (fileno.get(parent["file"]), parent["line"]) != loc[2]:
                    problems.append(f"{name}: {fn}+{addr:#x}: inlined row points at "
                                    f"{parent and (parent['file'], parent['line'])}, the PTX says {loc[2]}")
            checked += 1
    return checked


def lines_of(cubin, section):
    _, rows = dwarfline.read(cubin, section)
    return {(r["address"][0], r["file"], r["line"]) for r in rows if not r["end"]}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    problems, total = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for base, arch, opts, flags in CASES:
            ptx = os.path.join(ROOT, "tests", "corpus", "ptx", base + ".ptx")
            if base == "vecadd":
                ptx = os.path.join(ROOT, "examples", "vecadd.ptx")
            if base == "calls":
                ptx = os.path.join(tmp, "calls.ptx")
                open(ptx, "w").write(CALLS_PTX)
            for opt in opts:
                name = f"{base} {' '.join(flags + [opt])}"
                # ptxas at the same level (-g PTX: -O0 only).
                theirs = os.path.join(tmp, f"{base}{opt}.ptxas.cubin")
                subprocess.run(["ptxas", f"-arch={arch}", opt, *flags, ptx, "-o", theirs], check=True, capture_output=True)
                ours = os.path.join(tmp, f"{base}{opt}.cubin")
                r = subprocess.run([args.optxas, f"-arch={arch}", opt, *flags, ptx, "-o", ours],
                                   capture_output=True, text=True)
                if r.returncode != 0:
                    problems.append(f"{name}: optxas failed: {r.stderr.strip()[:200]}")
                    continue
                a = {x["name"]: x["data"] for x in elfcompare.read(ours)}
                b = {x["name"]: x["data"] for x in elfcompare.read(theirs)}
                for sec in [n for n in b if n.startswith(".nv_debug_ptx_txt") or n == ".debug_str"]:
                    if a.get(sec) != b[sec]:
                        problems.append(f"{name}: {sec} differs from ptxas's")
                if open(ours, "rb").read()[0x33] != open(theirs, "rb").read()[0x33]:
                    problems.append(f"{name}: e_flags bits 24-31 {open(ours, 'rb').read()[0x33]:#x}, ptxas {open(theirs, 'rb').read()[0x33]:#x}")
                for sec in (".debug_line", ".nv_debug_line_sass"):
                    if dwarfline.read(ours, sec) is None:
                        problems.append(f"{name}: no {sec}")
                        break
                    problems += [f"{name}: {d}" for d in elfcompare.line_table_diffs(sec, ours, theirs)]
                else:
                    n = check(name, ours, ptx, problems)
                    total += n
                    # -O0 keeps the PTX's order: the same source lines and PTX lines as ptxas -O0,
                    # except where the code differs (ptxas keeps PTX instructions optxas folds).
                    msg = ""
                    # (The call test is too small for shares: ptxas -O0 keeps its parameter moves.)
                    if opt == "-O0" and base != "calls":
                        for sec in (".debug_line", ".nv_debug_line_sass"):
                            a, b = lines_of(ours, sec), lines_of(theirs, sec)
                            missing = sorted(b - a)
                            share = 1 - len(missing) / max(1, len(b))
                            msg += f", {sec} {share:.0%} of ptxas's lines"
                            if share < MIN_SHARE[sec]:
                                problems.append(f"{name}: {sec}: ptxas's lines {missing[:8]} missing "
                                                f"({len(missing)} of {len(b)})")
                    print(f"{name}: {n} instructions checked against their .loc{msg}")
    for p in problems:
        print("FAIL", p)
    print(f"{total} instruction addresses checked, {len(problems)} problem(s)")
    return 1 if problems or total == 0 else 0


# The share of ptxas's (function, file, line) rows ours must have at -O0.
MIN_SHARE = {".debug_line": 0.9, ".nv_debug_line_sass": 0.8}

if __name__ == "__main__":
    sys.exit(main())
