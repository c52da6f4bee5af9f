#!/usr/bin/env python3
"""The .nv.info attributes ptxas writes for the driver about convergence, warp-synchronous
instructions, partly used loads and thread-block clusters (docs/elf.md, "Attributes the code
decides"), against ptxas 13.0 on small targeted kernels (tests/codegen/attributes/*.ptx):

  - the cubin's structure matches ptxas's (elfcompare with values: which attributes each function
    has, and the values of those that do not follow the code, e.g. the cluster dimensions);
  - EIATTR_COOP_GROUP_INSTR_OFFSETS / _MASK_REGIDS: as many entries as ptxas, each mask of the
    same form (0xffffffff for all threads, 0x05000000 | R for a register), and each offset in our
    code is a warp-synchronous instruction (SHFL, VOTE, REDUX, MATCH, WARPSYNC or its NOP, BAR);
  - EIATTR_UNUSED_LOAD_BYTE_OFFSET: the same byte masks as ptxas, each at a wide load of ours;
  - EIATTR_CRS_STACK_SIZE: present where ptxas writes it, value 0;
  - EIATTR_MBARRIER_INSTR_OFFSETS' cp.async.mbarrier.arrive records (kind 7): as many as ptxas,
    each at a NOP that opens {SYNCS.ARRIVE.TRANS64.RED.A0T1;} ARRIVES.LDGSTSBAR (sm_8x: a NOP
    followed by an ARRIVES before any other NOP), and sm_8x's never-executed `@!PT LDS RZ, [RZ]`:
    as many as ptxas's, four right before each ARRIVES where ptxas has them;
  - EIATTR_ATOM16_EMUL_INSTR_REG_MAP: as many [offset, register] pairs as ptxas, a load then a CAS
    per f16/bf16 CAS loop with the same register, which no instruction from the load to the CAS
    writes;
  - (NAME.sm_100a.ptx, compiled for sm_100a) .nv.compat CAN_FASTPATH_FINALIZE as ptxas (elfcompare);
  - the module's MIN_STACK_SIZE: as many kernels as ptxas with an unknown stack size (0xffffffff).

  attributes_test.py --optxas BIN
"""
import argparse
import glob
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402

MIN_STACK_SIZE, UNKNOWN_STACK = 0x12, 0xffffffff
CRS_STACK_SIZE, COOP_OFFSETS, COOP_MASKS, UNUSED_LOAD_BYTES, ATOM16_MAP = 0x1e, 0x28, 0x29, 0x44, 0x2e
MBARRIER_OFFSETS, CP_ASYNC_ARRIVE = 0x39, 7
WARP_SYNC_OPS = ("SHFL", "VOTE", "REDUX", "MATCH", "WARPSYNC", "NOP", "BAR")


def words(payload):
    return list(struct.unpack(f"<{len(payload) // 4}I", payload))


def attributes(cubin):
    """{function: {kind: [words] or value}} of every per-function .nv.info section."""
    out = {}
    for s in elfcompare.read(cubin):
        if s["name"].startswith(".nv.info."):
            out[s["name"][9:]] = {k: (words(p) if fmt == 4 else v) for k, fmt, v, p in elfcompare.nvinfo(s["data"])}
    return out


def unknown_stacks(cubin):
    """How many MIN_STACK_SIZE records of the module .nv.info say the stack size is unknown."""
    return sum(1 for s in elfcompare.read(cubin) if s["name"] == ".nv.info"
               for k, fmt, v, p in elfcompare.nvinfo(s["data"]) if k == MIN_STACK_SIZE and words(p)[1:] == [UNKNOWN_STACK])


def code(cubin):
    """{function: {offset: instruction text}} from nvdisasm."""
    r = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True, check=True)
    out, cur = {}, None
    for line in r.stdout.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+)", line)
        if m:
            cur = out.setdefault(m.group(1), {})
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(?:@!?U?P\w+\s+)?([^;]*);", line)
        if m and cur is not None:
            cur[int(m.group(1), 16)] = m.group(2).strip()
    return out


def written_register(text):
    """The R register an instruction writes (its first operand, after a predicate result), or None."""
    ops = text.split(None, 1)[1].split(", ") if " " in text else []
    if ops and re.fullmatch(r"U?P(T|\d+)", ops[0]):
        ops = ops[1:]
    m = re.fullmatch(r"R(\d+)", ops[0]) if ops else None
    return int(m.group(1)) if m else None


def atom16_problems(fn, want, got, code):
    """ATOM16_EMUL_INSTR_REG_MAP: [load, reg, CAS, reg] per loop, the register untouched in between."""
    if len(got) != len(want) or len(got) % 4:
        return [f"{fn}: ATOM16_EMUL_INSTR_REG_MAP has {len(got) // 2} pairs, ptxas {len(want) // 2}"]
    problems = []
    for k in range(0, len(got), 4):
        load, reg, cas, reg2 = got[k:k + 4]
        if not re.match(r"LD[GS]?\b", code.get(load, "?")) or not re.match(r"ATOM[GS]?\b.*\.CAS\b", code.get(cas, "?")):
            problems.append(f"{fn}: ATOM16 pair {load:#x}/{cas:#x} is '{code.get(load)}' / '{code.get(cas)}', not a load and a CAS")
        elif reg != reg2 or any(written_register(code.get(o, "")) == reg for o in range(load, cas, 16)):
            problems.append(f"{fn}: ATOM16 register R{reg} (R{reg2} at the CAS) is written between {load:#x} and {cas:#x}")
    return problems


def check(name, ours, theirs):
    # sm_100+: the Mercury capsule sections are not written (docs/elf.md, known_elf_diffs.txt).
    problems = [f"elf: {d}" for d in elfcompare.compare(ours, theirs, True)
                if not re.match(r"section missing: \.nv\.(capmerc|merc)\.", d)]
    oa, ta, oc = attributes(ours), attributes(theirs), code(ours)
    if unknown_stacks(ours) != unknown_stacks(theirs):
        problems.append(f"MIN_STACK_SIZE unknown (0xffffffff) for {unknown_stacks(ours)} kernels, ptxas {unknown_stacks(theirs)}")
    for fn, want in ta.items():
        got = oa.get(fn, {})
        if CRS_STACK_SIZE in got and got[CRS_STACK_SIZE] != [0]:
            problems.append(f"{fn}: CRS_STACK_SIZE {got[CRS_STACK_SIZE]}, ptxas writes [0]")
        if COOP_OFFSETS in want or COOP_OFFSETS in got:
            w, g = want.get(COOP_MASKS, []), got.get(COOP_MASKS, [])
            form = lambda ms: ["all" if m == 0xffffffff else f"reg-form {m >> 24:#x}" for m in ms]  # noqa: E731
            if form(w) != form(g):
                problems.append(f"{fn}: COOP_GROUP masks {form(g)}, ptxas {form(w)}")
            for off in got.get(COOP_OFFSETS, []):
                text = oc.get(fn, {}).get(off, "?")
                if not text.startswith(WARP_SYNC_OPS):
                    problems.append(f"{fn}: COOP_GROUP offset {off:#x} is '{text}', not a warp-synchronous instruction")
        if UNUSED_LOAD_BYTES in want or UNUSED_LOAD_BYTES in got:
            w, g = want.get(UNUSED_LOAD_BYTES, []), got.get(UNUSED_LOAD_BYTES, [])
            if w[1::2] != g[1::2]:
                problems.append(f"{fn}: UNUSED_LOAD_BYTE_OFFSET masks {[hex(x) for x in g[1::2]]}, ptxas {[hex(x) for x in w[1::2]]}")
            for off in g[0::2]:
                text = oc.get(fn, {}).get(off, "?")
                if not re.match(r"LD[GS]?\b.*\.(64|128)\b", text):
                    problems.append(f"{fn}: UNUSED_LOAD_BYTE_OFFSET offset {off:#x} is '{text}', not a wide load")
        if MBARRIER_OFFSETS in want or MBARRIER_OFFSETS in got:
            arrives = lambda ws: [ws[k] for k in range(0, len(ws) - 3, 4) if ws[k + 3] & 0xff == CP_ASYNC_ARRIVE]  # noqa: E731
            w, g = arrives(want.get(MBARRIER_OFFSETS, [])), arrives(got.get(MBARRIER_OFFSETS, []))
            if len(w) != len(g):
                problems.append(f"{fn}: {len(g)} cp.async.mbarrier.arrive records, ptxas {len(w)}")
            ampere = re.search(r"\.sm_8\d$", name)
            for off in g:
                seq = [oc.get(fn, {}).get(off + 16 * k, "?") for k in range(3)]
                if ampere:
                    # sm_8x: NOP; {VOTE ... ATOMS;} {LDS x4;} ARRIVES: the NOP, then an ARRIVES
                    # before any other NOP.
                    after = [oc.get(fn, {}).get(off + 16 * k, "?") for k in range(1, 48)]
                    nxt = next((t for t in after if t == "NOP" or t.startswith("ARRIVES")), "?")
                    seq = [seq[0], nxt]
                elif seq[1].startswith("SYNCS.ARRIVE.TRANS64.RED.A0T1"):
                    seq = [seq[0], seq[2]]
                if seq[0] != "NOP" or not seq[1].startswith("ARRIVES.LDGSTSBAR"):
                    problems.append(f"{fn}: cp.async.mbarrier.arrive record at {off:#x} opens {seq}, not NOP; ARRIVES")
            # sm_8x's never-executed padding: as many as ptxas's, four right before each ARRIVES.
            pads = lambda c: sorted(o for o, t in c.items() if t == "LDS RZ, [RZ]")  # noqa: E731
            op, tp = pads(oc.get(fn, {})), pads(code(theirs).get(fn, {})) if ampere else []
            if ampere and len(op) != len(tp):
                problems.append(f"{fn}: {len(op)} LDS RZ, [RZ] paddings, ptxas {len(tp)}")
            for off, text in oc.get(fn, {}).items():
                if tp and text.startswith("ARRIVES") and any(off - 16 * k not in op for k in range(1, 5)):
                    problems.append(f"{fn}: ARRIVES at {off:#x} without four LDS RZ, [RZ] before it")
        if ATOM16_MAP in want or ATOM16_MAP in got:
            problems += atom16_problems(fn, want.get(ATOM16_MAP, []), got.get(ATOM16_MAP, []), oc.get(fn, {}))
    print(("FAIL " if problems else "ok   ") + name + "".join("\n     " + p for p in problems))
    return not problems


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    for t in (NVDISASM, PTXAS):
        if not os.access(t, os.X_OK):
            print(f"FAIL: oracle tool missing: {t}")
            return 1
    inputs = sorted(glob.glob(os.path.join(HERE, "attributes", "*.ptx")))
    if not inputs:
        print("FAIL: no inputs in tests/codegen/attributes")
        return 1
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for ptx in inputs:
            name = os.path.basename(ptx)[:-4]
            ours, theirs = os.path.join(tmp, name + ".cubin"), os.path.join(tmp, name + ".ptxas.cubin")
            # NAME.sm_XX.ptx compiles for sm_XX, the others for sm_90.
            m = re.search(r"\.(sm_\d+a?)$", name)
            arch = m.group(1) if m else "sm_90"
            # A first line "// flags: ..." gives both tools extra options (e.g. -c).
            first = open(ptx).readline()
            flags = first.split(":", 1)[1].split() if first.startswith("// flags:") else []
            bad = False
            for tool, out in ((args.optxas, ours), (PTXAS, theirs)):
                r = subprocess.run([tool, f"-arch={arch}", *flags, ptx, "-o", out], capture_output=True, text=True)
                if r.returncode != 0:
                    print(f"FAIL {name}: {os.path.basename(tool)} rejected it: {r.stderr.strip()[:300]}")
                    bad = True
            if bad or not check(name, ours, theirs):
                failures += 1
    print(f"{len(inputs) - failures}/{len(inputs)} attribute checks pass")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
