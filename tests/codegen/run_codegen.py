#!/usr/bin/env python3
"""End-to-end checks of the code generator (tests/codegen, docs/status.md).

  run_codegen.py ori    --ori-cubin BIN          hand-written Ori kernels (tests/codegen/ori)
  run_codegen.py corpus --optxas BIN [--json F] [--only GLOB]...  every corpus PTX at -O0 and -O3
  run_codegen.py blackwell --optxas BIN [-j N] [--only GLOB]...  every corpus PTX for sm_100 and sm_120
  run_codegen.py selftest                        the hazard checker on ptxas's own output

For every cubin we produce: nvdisasm must decode every instruction, the hazard checker
(hazards.py) must find nothing, and the cubin's structure (sections, symbols, attributes) must
match ptxas's for the same input (elfcompare.py). A corpus file our tool rejects must be
rejected cleanly: a ptxas-style diagnostic, a non-zero exit, no crash and no output file.
Files listed in expected_e2e.txt must go end to end (a ratchet: the list only grows).
The blackwell mode compiles every corpus file again for sm_100 and sm_120 (the files whose
.target ptxas accepts there; the others are reported as skipped); expected_blackwell.txt is
its ratchet.
ELF differences listed in known_elf_diffs.txt (metadata the back end does not model yet) are
reported, not failed; an entry that explains nothing any more fails the test.
The oracles (ptxas, nvdisasm) are required: missing tools fail the test.
"""
import argparse
import fnmatch
import json
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402
import hazards     # noqa: E402


def require_tools():
    for t in (NVDISASM, PTXAS):
        if not (os.path.exists(t) and os.access(t, os.X_OK)):
            print(f"FAIL: oracle tool missing: {t}")
            sys.exit(1)


# sm_8x corpus files that go end to end for their own architecture (src/target/sm80): they are
# compiled for it; the other sm_8x files keep sm_90 code until the Ampere back end covers them
# (docs/codegen.md lists what is missing). A ratchet like expected_e2e.txt: it only grows.
OWN_ARCH_8X = {
    "async_copy_pipeline.sm_80", "atomics.sm_80", "calls_and_printf.sm_80", "cub_block_radix_sort.sm_80",
    "cub_block_reduce.sm_80", "cub_block_scan.sm_86", "cub_device_radix_sort.sm_80", "cub_warp_primitives.sm_89",
    "debug_build.G.sm_80", "fp8_conversions.sm_89", "math_half_bf16.sm_80",
    "globals_and_initializers.sm_80", "integer_intrinsics.sm_80", "lineinfo_math.sm_86",
    "local_memory_structs.G.sm_86", "local_memory_structs.sm_80", "math_float.sm_80",
    "math_float_fast.sm_89",
    "shared_memory.sm_86", "sm80_inline_ptx.sm_80", "tex_video_mma.sm_86",
    "texmode_independent.sm_80", "textures_surfaces.sm_86", "thrust_transform_reduce.sm_86",
    "warp_shuffle_vote.sm_80",
    "wmma_tensor_core.sm_80",
}


def arch_of(path):
    """The sm_90 back end compiles every corpus file whose .target it can run (sm_90 code for
    PTX written for sm_75..sm_90, sm_90a for sm_90a); later targets, and the sm_8x files of
    OWN_ARCH_8X, keep their own."""
    m = re.search(r"\.sm_(\d+)(a?)\.ptx$", path)
    if not m:
        return "sm_90"
    n, a = int(m.group(1)), m.group(2)
    if n == 90 and a:
        return "sm_90a"
    if os.path.basename(path)[:-4] in OWN_ARCH_8X:
        return f"sm_{n}"
    return "sm_90" if n <= 90 else f"sm_{n}{a}"


def extra_flags(name):
    """ptxas flags the corpus manifest gives a file (e.g. -c for relocatable code)."""
    flags = []
    manifest = os.path.join(ROOT, "tests", "corpus", "manifest.txt")
    if os.path.exists(manifest):
        for line in open(manifest):
            if line.startswith("#") or "|" not in line:
                continue
            cols = [c.strip() for c in line.split("|")]
            if cols[0] == name and len(cols) > 3 and cols[3]:
                flags = cols[3].split()
    return flags


def decodes(cubin):
    """Every instruction decodes: nvdisasm succeeds and prints no error."""
    r = subprocess.run([NVDISASM, "-c", "-hex", cubin], capture_output=True, text=True)
    bad = [l for l in (r.stderr + r.stdout).splitlines() if "error" in l.lower() or "??" in l]
    if r.returncode != 0 or bad:
        return False, (bad or [r.stderr.strip()])[0]
    n = len(re.findall(r"/\*[0-9a-f]{4,}\*/", r.stdout))
    return True, n


def check_cubin(ours, theirs):
    """Returns a list of problems with our cubin (empty = good)."""
    problems = []
    ok, info = decodes(ours)
    if not ok:
        problems.append(f"nvdisasm: {info}")
        return problems
    try:
        funcs = hazards.disassemble(ours)
        hz = []
        for name, fn in funcs.items():
            hazards.check_function(name, fn, hz)
        problems += [f"hazard: {h}" for h in hz[:5]]
    except Exception as e:  # noqa: BLE001
        problems.append(f"hazard checker: {e}")
    if theirs:
        problems += [f"elf: {d}" for d in elfcompare.compare(ours, theirs, values=True)]
    return problems


def run_ori(args):
    require_tools()
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        for f in sorted(os.listdir(os.path.join(HERE, "ori"))):
            if not f.endswith(".ori"):
                continue
            src = os.path.join(HERE, "ori", f)
            text = open(src).read()
            m = re.search(r"// params: ([\d,]+)", text)
            out = os.path.join(tmp, f + ".cubin")
            cmd = [args.ori_cubin, src, "-o", out] + (["-params", m.group(1)] if m else [])
            r = subprocess.run(cmd, capture_output=True, text=True)
            if r.returncode != 0:
                print(f"FAIL {f}: ori-cubin: {r.stderr.strip()[:300]}")
                failures += 1
                continue
            theirs = None
            ptx = src[:-4] + ".ptx"
            if os.path.exists(ptx):
                theirs = os.path.join(tmp, f + ".ptxas.cubin")
                subprocess.run([PTXAS, "-arch=sm_90", ptx, "-o", theirs], check=True)
            problems = check_cubin(out, theirs)
            print(("FAIL " if problems else "ok   ") + f + "".join("\n     " + p for p in problems))
            failures += bool(problems)
    return 1 if failures else 0


def known_elf_diffs():
    """(file, compiled regex, reason) entries of known_elf_diffs.txt."""
    out = []
    path = os.path.join(HERE, "known_elf_diffs.txt")
    for line in open(path):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        # The regex may contain '|': the name is before the first bar, the reason after the last.
        name, rest = line.split("|", 1)
        pattern, reason = rest.rsplit("|", 1)
        name, pattern, reason = name.strip(), pattern.strip(), reason.strip()
        out.append((name, re.compile(pattern), reason))
    return out


def split_known(name, problems, known, used, key=None):
    """Moves the ELF problems a known entry for `name` (or for `key`, "name -On") explains out of
    `problems`."""
    rest, explained = [], []
    for p in problems:
        hit = None
        if p.startswith("elf: "):
            for k, (n, rx, reason) in enumerate(known):
                if (fnmatch.fnmatchcase(name, n) or (key and fnmatch.fnmatchcase(key, n))) and rx.search(p[5:]):
                    hit = k
                    break
        if hit is None:
            rest.append(p)
        else:
            used.add(hit)
            explained.append(known[hit][2])
    return rest, sorted(set(explained))


def run_corpus(args):
    require_tools()
    known, used = known_elf_diffs(), set()
    compiled = set()
    files = sorted(os.path.join(ROOT, "tests", "corpus", "ptx", f)
                   for f in os.listdir(os.path.join(ROOT, "tests", "corpus", "ptx")) if f.endswith(".ptx"))
    files.append(os.path.join(ROOT, "examples", "vecadd.ptx"))
    # The hand-written benchmark inputs (tests/corpus/handwritten) go through the same checks.
    hand = os.path.join(ROOT, "tests", "corpus", "handwritten")
    files += sorted(os.path.join(hand, f) for f in os.listdir(hand) if f.endswith(".ptx"))
    if args.only:   # a developer's subset (ctest always runs the whole corpus)
        files = [f for f in files if any(fnmatch.fnmatchcase(os.path.basename(f)[:-4], g) for g in args.only)]
    expected = set()
    exp_file = os.path.join(HERE, "expected_e2e.txt")
    if os.path.exists(exp_file):
        expected = {l.split("#")[0].strip() for l in open(exp_file) if l.split("#")[0].strip()}
    results, failures = [], 0
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.basename(path)[:-4]
            arch = arch_of(path)
            flags = extra_flags(name)
            theirs = os.path.join(tmp, name + ".ptxas.cubin")
            t0 = time.monotonic()
            rp = subprocess.run([PTXAS, f"-arch={arch}", *(["-O0"] if ".G." in name else []), *flags, path,
                                 "-o", theirs], capture_output=True, text=True)
            ptxas_ms = (time.monotonic() - t0) * 1000
            # -G PTX carries debug information, which ptxas compiles only unoptimized.
            for opt in (("-O0",) if ".G." in name else ("-O0", "-O3")):
                key = f"{name} {opt}"
                out = os.path.join(tmp, f"{name}{opt}.cubin")
                t0 = time.monotonic()
                try:
                    r = subprocess.run([args.optxas, f"-arch={arch}", opt, *flags, path, "-o", out],
                                       capture_output=True, text=True, timeout=300)
                except subprocess.TimeoutExpired:
                    results.append({"file": name, "opt": opt, "status": "timeout"})
                    print(f"FAIL {key}: timeout")
                    failures += 1
                    continue
                ms = (time.monotonic() - t0) * 1000
                entry = {"file": name, "opt": opt, "ms": round(ms, 1), "ptxas_ms": round(ptxas_ms, 1)}
                if r.returncode < 0 or r.returncode > 128 + 0 and r.returncode in (134, 139):
                    entry["status"] = "crash"
                    print(f"FAIL {key}: crashed ({r.returncode})")
                    failures += 1
                elif r.returncode != 0:
                    first = (r.stderr.strip().splitlines() or [""])[0]
                    clean = re.match(r"^ptxas (\S+, line \d+; )?(error|fatal) *: ", first) is not None
                    entry["status"] = "rejected"
                    entry["reason"] = first[:200]
                    if os.path.exists(out) or not clean:
                        print(f"FAIL {key}: unclean rejection: {first[:200]}")
                        failures += 1
                    elif key in expected or name in expected:
                        print(f"FAIL {key}: expected to go end to end: {first[:200]}")
                        failures += 1
                    else:
                        print(f"rej  {key}: {first[:160]}")
                else:
                    compiled.add(name)
                    problems = check_cubin(out, theirs if rp.returncode == 0 else None)
                    problems, explained = split_known(name, problems, known, used, key)
                    entry["status"] = "fail" if problems else "ok"
                    entry["problems"] = problems[:5]
                    entry["known"] = explained
                    note = f"  (known ELF gaps: {'; '.join(explained)})" if explained else ""
                    print(("FAIL " if problems else "ok   ") + key + note + "".join("\n     " + p for p in problems[:5]))
                    failures += bool(problems)
                results.append(entry)
    for k, (n, rx, reason) in enumerate(known):
        if args.only:
            break   # a subset cannot tell which entries are stale
        if any(fnmatch.fnmatchcase(c, n) for c in compiled) and k not in used:
            print(f"FAIL known_elf_diffs.txt: '{n} | {rx.pattern}' explains nothing any more: delete it")
            failures += 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    ok = sum(1 for r in results if r.get("status") == "ok")
    print(f"{ok}/{len(results)} corpus compilations end to end, {failures} failure(s)")
    return 1 if failures else 0


BLACKWELL_ARCHS = ("sm_100", "sm_120")


def corpus_files(args):
    """Every corpus PTX (tests/corpus/ptx, examples/vecadd.ptx, tests/corpus/handwritten), or the
    developer's --only subset."""
    files = sorted(os.path.join(ROOT, "tests", "corpus", "ptx", f)
                   for f in os.listdir(os.path.join(ROOT, "tests", "corpus", "ptx")) if f.endswith(".ptx"))
    files.append(os.path.join(ROOT, "examples", "vecadd.ptx"))
    hand = os.path.join(ROOT, "tests", "corpus", "handwritten")
    files += sorted(os.path.join(hand, f) for f in os.listdir(hand) if f.endswith(".ptx"))
    if args.only:
        files = [f for f in files if any(fnmatch.fnmatchcase(os.path.basename(f)[:-4], g) for g in args.only)]
    return files


def blackwell_one(args, path, arch, expected, known, tmp):
    """Compiles one corpus file for one Blackwell arch at -O0 and -O3 (-O0 only for -G PTX);
    returns (lines to print, failures, results)."""
    name = os.path.basename(path)[:-4]
    flags = extra_flags(name)
    dbg = ".G." in name
    theirs = os.path.join(tmp, f"{name}.{arch}.ptxas.cubin")
    rp = subprocess.run([PTXAS, f"-arch={arch}", *(["-O0"] if dbg else []), *flags, path, "-o", theirs],
                        capture_output=True, text=True)
    if rp.returncode != 0:
        first = (rp.stderr.strip().splitlines() or [""])[0]
        return [f"skip {name} {arch}: ptxas rejects it: {first[:140]}"], 0, [
            {"file": name, "arch": arch, "status": "skipped"}]
    lines, failures, results, used = [], 0, [], set()
    for opt in (("-O0",) if dbg else ("-O0", "-O3")):
        key = f"{name} {arch} {opt}"
        out = os.path.join(tmp, f"{name}.{arch}{opt}.cubin")
        entry = {"file": name, "arch": arch, "opt": opt}
        try:
            r = subprocess.run([args.optxas, f"-arch={arch}", opt, *flags, path, "-o", out],
                               capture_output=True, text=True, timeout=300)
        except subprocess.TimeoutExpired:
            entry["status"] = "timeout"
            lines.append(f"FAIL {key}: timeout")
            failures += 1
            results.append(entry)
            continue
        must = key in expected or f"{name} {arch}" in expected
        if r.returncode < 0 or r.returncode in (134, 139):
            entry["status"] = "crash"
            lines.append(f"FAIL {key}: crashed ({r.returncode})")
            failures += 1
        elif r.returncode != 0:
            first = (r.stderr.strip().splitlines() or [""])[0]
            clean = re.match(r"^ptxas (\S+, line \d+; )?(error|fatal) *: ", first) is not None
            entry["status"], entry["reason"] = "rejected", first[:200]
            if os.path.exists(out) or not clean:
                lines.append(f"FAIL {key}: unclean rejection: {first[:200]}")
                failures += 1
            elif must:
                lines.append(f"FAIL {key}: expected to go end to end: {first[:200]}")
                failures += 1
            else:
                lines.append(f"rej  {key}: {first[:160]}")
        else:
            problems = check_cubin(out, theirs)
            # Known gaps match the file name, or "NAME.ARCH -On" (the Mercury entry names the arch).
            problems, explained = split_known(name, problems, known, used, f"{name}.{arch} {opt}")
            entry["status"] = "fail" if problems else "ok"
            entry["problems"] = problems[:5]
            note = f"  (known ELF gaps: {'; '.join(explained)})" if explained else ""
            if problems and not must:
                # Not in the ratchet yet: reported, not failed (it compiles, but not as ptxas does).
                lines.append(f"bad  {key}" + "".join("\n     " + p for p in problems[:5]))
            else:
                lines.append(("FAIL " if problems else "ok   ") + key + note
                             + "".join("\n     " + p for p in problems[:5]))
                failures += bool(problems)
        results.append(entry)
    return lines, failures, results


def run_blackwell(args):
    """The corpus for sm_100 and sm_120 (issue 4): every file whose .target ptxas accepts there,
    at -O0 and -O3; the ones in expected_blackwell.txt must go end to end."""
    require_tools()
    from concurrent.futures import ThreadPoolExecutor
    known = known_elf_diffs()
    expected = set()
    exp_file = os.path.join(HERE, "expected_blackwell.txt")
    for l in open(exp_file):
        l = " ".join(l.split("#")[0].split())
        if l:
            expected.add(l)
    tasks = [(p, a) for p in corpus_files(args) for a in BLACKWELL_ARCHS]
    failures, results = 0, []
    with tempfile.TemporaryDirectory() as tmp, ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futs = [pool.submit(blackwell_one, args, p, a, expected, known, tmp) for p, a in tasks]
        for f in futs:   # in order, so the log reads like codegen.corpus's
            lines, n, res = f.result()
            print("\n".join(lines), flush=True)
            failures += n
            results += res
    # A ratchet entry must name something that exists (a typo would pass silently).
    seen = {f"{r['file']} {r['arch']}" for r in results} | {f"{r['file']} {r['arch']} {r.get('opt')}" for r in results}
    if not args.only:
        for e in sorted(expected - seen):
            print(f"FAIL expected_blackwell.txt: '{e}' names no corpus compilation")
            failures += 1
        # A ratchet entry ptxas skips would never be checked.
        for r in results:
            if r["status"] == "skipped" and any(e.startswith(f"{r['file']} {r['arch']}") for e in expected):
                print(f"FAIL expected_blackwell.txt: ptxas rejects {r['file']} for {r['arch']}")
                failures += 1
    if args.json:
        with open(args.json, "w") as f:
            json.dump(results, f, indent=1)
    count = {s: sum(1 for r in results if r["status"] == s) for s in ("ok", "fail", "rejected", "skipped")}
    print(f"{count['ok']}/{len(results) - count['skipped']} Blackwell compilations end to end "
          f"({count['fail']} differ from ptxas, {count['rejected']} rejected; {count['skipped']} file/arch pairs "
          f"skipped: ptxas rejects them), {failures} failure(s)")
    return 1 if failures else 0


def ctrl_of(stall, wbar=7, rbar=7, wait=0):
    return stall | wbar << 5 | rbar << 8 | wait << 11


def fp64_predicate_selftest():
    """DSETP's predicates where FP64 has a scoreboard (sm_120, sm_8x), on a hand-made sequence
    shaped like math_double's sm_120 -O3 code: the combine operand is one predicate, and a
    DSETP's predicate result is read only after a wait on its scoreboard."""
    def run(seq):
        instrs = []
        for pc, (text, ctrl) in enumerate(seq):
            ins = hazards.Instr(pc * 16, text, ctrl)
            ins.arch_variable = frozenset(hazards.VARIABLE_ON[120])
            instrs.append(ins)
        hz = []
        hazards.check_function("k", {"instrs": instrs, "labels": {}}, hz)
        return hz
    head = [("DSETP.NAN.AND P0, PT, R4, R4, PT", ctrl_of(1, wbar=0)),
            ("DSETP.EQ.AND P1, PT, R18, R4, PT", ctrl_of(1, wbar=1)),
            ("DSETP.GT.OR P0, PT, R18, R4, P0", ctrl_of(2, wbar=2, wait=1))]
    failures = 0
    # (what, sequence, "" for no hazard, else a report it must contain)
    cases = [("waited", head + [("SEL R27, R3, R0, P1", ctrl_of(1, wait=2))], ""),
             ("P1 read unwaited", head + [("SEL R27, R3, R0, P1", ctrl_of(1))],
              "0x0030 SEL R27, R3, R0, P1: reads P1 before waiting"),
             ("P0 read unwaited", head[:2] + [("DSETP.GT.OR P0, PT, R18, R4, P0", ctrl_of(2, wbar=2))],
              "0x0020 DSETP.GT.OR P0, PT, R18, R4, P0: reads P0 before waiting")]
    for what, seq, want in cases:
        hz = run(seq)
        if (not want and hz) or (want and not any(want in h for h in hz)):
            print(f"FAIL DSETP predicates ({what}): " + ("; ".join(hz) if hz else "no hazard found"))
            failures += 1
        else:
            print(f"ok   DSETP predicates ({what})")
    return failures


def mma_issue_selftest():
    """The tensor-core rules of sm_120 (sm_100): two MMAs 16 (8) cycles apart, readers of an
    HMMA's result 28 (19) cycles after it, a dependent MMA 29 (20); of sm_90 and sm_8x: the
    distance set by the earlier MMA's shape; on hand-made sequences, then on ptxas's own code for
    the corpus's wmma and mma_issue kernels, which must pass, and with its stalls cleared, which
    must not."""
    def run(seq, sm):
        instrs = []
        for pc, (text, ctrl) in enumerate(seq):
            ins = hazards.Instr(pc * 16, text, ctrl)
            ins.sm = sm
            instrs.append(ins)
        hz = []
        hazards.check_function("k", {"instrs": instrs, "labels": {}}, hz)
        return hz
    def nops(n):   # n cycles of NOPs (stall 15 each, then the rest)
        out = []
        while n > 0:
            out.append(("NOP", ctrl_of(min(n, 15))))
            n -= min(n, 15)
        return out
    hmma = "HMMA.16816.F32 R8, R16, R2, R8"
    other = "HMMA.16816.F32 R20, R12, R4, R20"
    small = "HMMA.1688.F32 R24, R12, R4, R24"
    dep = "HMMA.16816.F32 R8, R16, R2, R8"
    failures = 0
    # (what, sm, sequence, "" for no hazard, else a report it must contain)
    cases = [
        ("sm_120 16 apart", 120, [(hmma, ctrl_of(15)), ("NOP", ctrl_of(1)), (other, ctrl_of(1))], ""),
        ("sm_120 15 apart", 120, [(hmma, ctrl_of(15)), (other, ctrl_of(1))],
         "issues 15 cycle(s) after the previous MMA (needs 16)"),
        ("sm_120 IMMA after HMMA", 120, [(hmma, ctrl_of(4)), ("IMMA.16832.S8.S8 R20, R12.ROW, R4.COL, R20", ctrl_of(1))],
         "issues 4 cycle(s) after the previous MMA"),
        ("sm_120 reader at 28", 120, [(hmma, ctrl_of(15))] + nops(13) + [("FADD R0, R8, R9", ctrl_of(1))], ""),
        ("sm_120 reader at 27", 120, [(hmma, ctrl_of(15))] + nops(12) + [("FADD R0, R8, R9", ctrl_of(1))],
         "reads R8 27 cycle(s) after HMMA wrote it (needs 28)"),
        ("sm_120 dependent MMA at 28", 120, [(hmma, ctrl_of(15))] + nops(13) + [(dep, ctrl_of(1))],
         "reads R8 28 cycle(s) after HMMA wrote it (needs 29)"),
        ("sm_100 8 apart", 100, [(hmma, ctrl_of(8)), (other, ctrl_of(1))], ""),
        ("sm_100 7 apart", 100, [(hmma, ctrl_of(7)), (other, ctrl_of(1))],
         "issues 7 cycle(s) after the previous MMA (needs 8)"),
        # sm_90: the earlier MMA's shape sets the distance (16816 6, 1688 4, SP.16832 8).
        ("sm_90 16816 6 apart", 90, [(hmma, ctrl_of(6)), (small, ctrl_of(1))], ""),
        ("sm_90 16816 5 apart", 90, [(hmma, ctrl_of(5)), (small, ctrl_of(1))],
         "issues 5 cycle(s) after the previous MMA (needs 6)"),
        ("sm_90 1688 4 apart", 90, [(small, ctrl_of(4)), (hmma, ctrl_of(1))], ""),
        ("sm_90 1688 3 apart", 90, [(small, ctrl_of(3)), (hmma, ctrl_of(1))],
         "issues 3 cycle(s) after the previous MMA (needs 4)"),
        ("sm_90 IMMA after HMMA", 90, [(hmma, ctrl_of(1)), ("IMMA.16832.S8.S8 R20, R12.ROW, R4.COL, R20", ctrl_of(1))],
         "issues 1 cycle(s) after the previous MMA (needs 6)"),
        ("sm_90 ALU in between", 90, [(hmma, ctrl_of(1)), ("IADD3 R0, R1, R2, RZ", ctrl_of(1)), (other, ctrl_of(1))],
         "issues 2 cycle(s) after the previous MMA (needs 6)"),
        # sm_8x: only MMAs of one unit and class are spaced (HMMA.16816 8, HMMA.1688 4).
        ("sm_80 16816 8 apart", 80, [(hmma, ctrl_of(8)), (other, ctrl_of(1))], ""),
        ("sm_80 16816 7 apart", 80, [(hmma, ctrl_of(7)), (other, ctrl_of(1))],
         "issues 7 cycle(s) after the previous MMA (needs 8)"),
        ("sm_86 1688 3 apart", 86, [(small, ctrl_of(3)), ("HMMA.1684.F32.TF32 R20, R12, R4, R20", ctrl_of(1))],
         "issues 3 cycle(s) after the previous MMA (needs 4)"),
        ("sm_89 16816 then 1688", 89, [(hmma, ctrl_of(1)), (small, ctrl_of(1))], ""),
        ("sm_80 HMMA then IMMA", 80, [(hmma, ctrl_of(1)), ("IMMA.16832.S8.S8 R20, R12.ROW, R4.COL, R20", ctrl_of(1))], ""),
    ]
    for what, sm, seq, want in cases:
        hz = run(seq, sm)
        if (not want and hz) or (want and not any(want in h for h in hz)):
            print(f"FAIL MMA rules ({what}): " + ("; ".join(hz) if hz else "no hazard found"))
            failures += 1
        else:
            print(f"ok   MMA rules ({what})")
    src = os.path.join(ROOT, "tests", "corpus", "ptx", "wmma_tensor_core.sm_90.ptx")
    mix = os.path.join(ROOT, "tests", "corpus", "handwritten", "mma_issue.sm_80.ptx")
    with tempfile.TemporaryDirectory() as tmp:
        for arch, src in (("sm_120", src), ("sm_100a", src), ("sm_90", src), ("sm_90", mix), ("sm_80", mix),
                          ("sm_89", mix)):
            out = os.path.join(tmp, arch + os.path.basename(src) + ".cubin")
            subprocess.run([PTXAS, f"-arch={arch}", src, "-o", out], check=True)
            hz = []
            for name, fn in hazards.disassemble(out).items():
                hazards.check_function(name, fn, hz)
            what = f"ptxas {arch} {os.path.basename(src).split('.')[0]}"
            print(("FAIL " if hz else "ok   ") + what + "".join("\n     " + h for h in hz[:5]))
            failures += bool(hz)
            mutated = os.path.join(tmp, arch + ".mutated.cubin")
            open(mutated, "wb").write(clear_stalls(out))
            hz = []
            for name, fn in hazards.disassemble(mutated).items():
                hazards.check_function(name, fn, hz)
            if not any("after the previous MMA" in h for h in hz):
                print(f"FAIL {what}: checker missed MMA issue hazards with stalls cleared")
                failures += 1
    return failures


def clear_stalls(cubin, waits=False):
    """The cubin's bytes with every instruction's stall set to 1 (and its wait mask cleared)."""
    import struct
    data = bytearray(open(cubin, "rb").read())
    secs = elfcompare.read(cubin)
    shoff, = struct.unpack_from("<Q", data, 0x28)
    for k, s in enumerate(secs):
        if s["name"].startswith(".text."):
            sec_off, = struct.unpack_from("<Q", data, shoff + 64 * k + 24)
            for p in range(sec_off, sec_off + s["size"], 16):
                hi, = struct.unpack_from("<Q", data, p + 8)
                ctrl = hi >> 41
                ctrl &= ~(((0x3f << 11) if waits else 0) | 0xf)
                ctrl |= 1
                hi = (hi & ((1 << 41) - 1)) | (ctrl << 41)
                struct.pack_into("<Q", data, p + 8, hi)
    return bytes(data)


def imnmx64_selftest():
    """sm_120's IMNMX.U64/S64 PT, PT, Rd, Ra, b, Pmin, !PT writes and reads register pairs (its
    first two operands are predicate results): a reader of the high half or a pair source two
    cycles early is a hazard, one at ptxas's distance (4) is not."""
    def run(seq):
        instrs = []
        for pc, (text, ctrl) in enumerate(seq):
            ins = hazards.Instr(pc * 16, text, ctrl)
            ins.sm = 120
            instrs.append(ins)
        hz = []
        hazards.check_function("k", {"instrs": instrs, "labels": {}}, hz)
        return hz
    mnmx = "IMNMX.U64 PT, PT, R8, R4, R6, PT, !PT"
    cases = [("high half at 4", [(mnmx, ctrl_of(4)), ("IADD3 R0, PT, PT, R9, R1, RZ", ctrl_of(1))], ""),
             ("high half at 1", [(mnmx, ctrl_of(1)), ("IADD3 R0, PT, PT, R9, R1, RZ", ctrl_of(1))], "reads R9"),
             ("pair source", [("IADD3 R7, PT, PT, R1, R1, RZ", ctrl_of(1)), (mnmx, ctrl_of(1))], "reads R7"),
             ("UR pair source", [("UIADD3 UR7, UPT, UPT, UR1, UR1, URZ", ctrl_of(1)),
                                 ("IMNMX.S64 PT, PT, R8, R4, UR6, PT, !PT", ctrl_of(1))], "reads UR7")]
    failures = 0
    for what, seq, want in cases:
        hz = run(seq)
        if (not want and hz) or (want and not any(want in h for h in hz)):
            print(f"FAIL IMNMX.64 ({what}): " + ("; ".join(hz) if hz else "no hazard found"))
            failures += 1
        else:
            print(f"ok   IMNMX.64 ({what})")
    return failures


def run_selftest(args):
    """The hazard checker passes ptxas's own sm_90 code and catches broken control bits."""
    require_tools()
    failures = fp64_predicate_selftest()
    failures += mma_issue_selftest()
    failures += imnmx64_selftest()
    sources = [os.path.join(ROOT, "examples", "vecadd.ptx")] + sorted(
        os.path.join(ROOT, "tests", "corpus", "ptx", f) for f in (
            "atomics.sm_90.ptx", "launch_bounds.sm_90.ptx", "math_double.sm_90.ptx",
            "cub_block_reduce.sm_90.ptx", "fp8_conversions.sm_90.ptx", "lineinfo_build.sm_90.ptx",
            "math_half_bf16.sm_90.ptx", "sm90_clusters.sm_90.ptx"))
    with tempfile.TemporaryDirectory() as tmp:
        for src in sources:
            out = os.path.join(tmp, os.path.basename(src) + ".cubin")
            subprocess.run([PTXAS, "-arch=sm_90", src, "-o", out], check=True)
            hz = []
            for name, fn in hazards.disassemble(out).items():
                hazards.check_function(name, fn, hz)
            print(("FAIL " if hz else "ok   ") + os.path.basename(src) + "".join("\n     " + h for h in hz[:5]))
            failures += bool(hz)
            # Mutation: clear every stall and wait mask; the checker must notice.
            mutated = os.path.join(tmp, "mutated.cubin")
            open(mutated, "wb").write(clear_stalls(out, waits=True))
            hz = []
            for name, fn in hazards.disassemble(mutated).items():
                hazards.check_function(name, fn, hz)
            if not hz:
                print(f"FAIL {os.path.basename(src)}: checker missed hazards with stalls and waits cleared")
                failures += 1
    return 1 if failures else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("mode", choices=["ori", "corpus", "blackwell", "selftest"])
    ap.add_argument("--optxas")
    ap.add_argument("--ori-cubin")
    ap.add_argument("--json")
    ap.add_argument("-j", "--jobs", type=int, default=2, help="blackwell mode: compilations in parallel")
    ap.add_argument("--only", action="append", help="corpus mode: only files whose name matches this glob")
    args = ap.parse_args()
    return {"ori": run_ori, "corpus": run_corpus, "blackwell": run_blackwell,
            "selftest": run_selftest}[args.mode](args)


if __name__ == "__main__":
    sys.exit(main())
