#!/usr/bin/env python3
"""Regenerates docs/status.md: for every kernel of the PTX corpus (and examples/vecadd.ptx),
ours vs ptxas at -O3 for sm_90: SASS instructions, registers, stack frame, spill bytes and
compile time; and which corpus files go end to end.

usage: tools/status/status.py --optxas build/bin/optxas [--out docs/status.md] [--opt -O3]
                              [--sim-diff build/bin/sim-diff --ptx-fuzz build/bin/ptx-fuzz]
The numbers come from each tool's own -v report and from nvdisasm on the cubins.
"""
import argparse
import datetime
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
sys.path.insert(0, os.path.join(ROOT, "tests", "codegen"))
from run_codegen import arch_of, extra_flags  # noqa: E402
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import simulation  # noqa: E402
import sanitizer  # noqa: E402


def verbose_report(text):
    """Per function: stack, spill stores, spill loads, registers (from ptxas-style -v lines)."""
    funcs, cur = {}, None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = m.group(1)
            funcs.setdefault(cur, {})
            continue
        m = re.match(r"\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            funcs[cur].update(stack=int(m.group(1)), spill_st=int(m.group(2)), spill_ld=int(m.group(3)))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            funcs[cur]["regs"] = int(m.group(1))
        m = re.search(r"Compile time = ([\d.]+) ms", line)
        if m and cur:
            funcs[cur]["ms"] = float(m.group(1))
    return funcs


def instruction_counts(cubin):
    """SASS instructions per function, without ptxas's epilogue (BRA to itself, NOP padding)."""
    r = subprocess.run([NVDISASM, "-c", cubin], capture_output=True, text=True)
    counts, cur, instrs = {}, None, []

    def flush():
        if cur is None:
            return
        body = list(instrs)
        while body and body[-1].startswith("NOP"):
            body.pop()
        if body and re.match(r"BRA `\(\.L_x_\d+\)", body[-1]):
            body.pop()
        counts[cur] = len(body)

    for line in r.stdout.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+),", line)
        if m:
            flush()
            cur, instrs = m.group(1), []
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?(.*?)\s*;", line)
        if m and cur is not None:
            instrs.append(m.group(1))
    flush()
    return counts


def run(tool, args, path, out):
    t0 = time.monotonic()
    r = subprocess.run([tool, *args, "-v", path, "-o", out], capture_output=True, text=True, timeout=600)
    return r, (time.monotonic() - t0) * 1000


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--out", default=os.path.join(ROOT, "docs", "status.md"))
    ap.add_argument("--opt", default="-O3")
    ap.add_argument("--sim-diff", help="build/bin/sim-diff: adds the differential-execution section")
    ap.add_argument("--ptx-fuzz", help="build/bin/ptx-fuzz (with --sim-diff)")
    a = ap.parse_args()
    files = sorted(os.path.join(ROOT, "tests", "corpus", "ptx", f)
                   for f in os.listdir(os.path.join(ROOT, "tests", "corpus", "ptx")) if f.endswith(".ptx"))
    files.append(os.path.join(ROOT, "examples", "vecadd.ptx"))
    rows, filerows = [], []
    with tempfile.TemporaryDirectory() as tmp:
        for path in files:
            name = os.path.basename(path)[:-4]
            arch = arch_of(path)
            # -G PTX carries debug information, which ptxas compiles only unoptimized.
            opt = "-O0" if ".G." in name else a.opt
            flags = [f"-arch={arch}", opt] + extra_flags(name)
            theirs, ours = os.path.join(tmp, name + ".p.cubin"), os.path.join(tmp, name + ".o.cubin")
            rp, tp = run(PTXAS, flags, path, theirs)
            ro, to = run(a.optxas, flags, path, ours)
            status = "end to end" if ro.returncode == 0 and os.path.exists(ours) else "rejected"
            reason = ""
            if status == "rejected":
                first = (ro.stderr.strip().splitlines() or [""])[0]
                reason = re.sub(r"^ptxas (\S+, line \d+; )?", "", first)
                reason = re.sub(r" in '[^']*'", "", reason)[:110]
            if rp.returncode != 0:
                status, reason = "ptxas rejects", ""
            filerows.append((name, arch, status, reason, tp, to if status == "end to end" else None))
            if rp.returncode != 0:
                continue
            pv, ov = verbose_report(rp.stderr + rp.stdout), verbose_report(ro.stderr + ro.stdout) if status == "end to end" else {}
            pc = instruction_counts(theirs)
            oc = instruction_counts(ours) if status == "end to end" else {}
            for fn in sorted(pv):
                if "regs" not in pv[fn]:
                    continue  # device functions: ptxas reports no registers for them
                p, o = pv[fn], ov.get(fn, {})
                rows.append((name, fn, pc.get(fn), oc.get(fn), p.get("regs"), o.get("regs"), p.get("stack"),
                             o.get("stack"), p.get("spill_st", 0) + p.get("spill_ld", 0),
                             (o.get("spill_st", 0) + o.get("spill_ld", 0)) if o else None, p.get("ms"), o.get("ms")))

    def fmt(v, suffix=""):
        return "-" if v is None else (f"{v:.1f}{suffix}" if isinstance(v, float) else f"{v}{suffix}")

    def short(fn):
        return fn if len(fn) <= 48 else fn[:45] + "..."

    e2e = sum(1 for r in filerows if r[2] == "end to end")
    lines = [
        "# Status: optxas vs ptxas on the test corpus",
        "",
        f"Generated by `tools/status/status.py` ({datetime.date.today().isoformat()}, {a.opt} (-O0 for -G files),",
        "sm_90 code for every file whose `.target` is sm_90 or older). Numbers come from each tool's `-v` report and",
        "from nvdisasm (instructions exclude the BRA-to-itself and NOP padding). `-` = no cubin.",
        "",
        f"## Files: {e2e} of {len(filerows)} end to end",
        "",
        "| file | arch | optxas | ptxas ms | optxas ms | first diagnostic |",
        "| --- | --- | --- | --- | --- | --- |",
    ]
    for name, arch, status, reason, tp, to in filerows:
        lines.append(f"| {name} | {arch} | {status} | {tp:.0f} | {fmt(to)} | {reason.replace('|', '/')} |")
    lines += [
        "",
        "## Kernels",
        "",
        "| file | kernel | SASS ptxas | SASS ours | regs ptxas | regs ours | stack ptxas | stack ours | spill bytes ptxas | spill bytes ours | ms ptxas | ms ours |",
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for r in rows:
        lines.append(f"| {r[0]} | `{short(r[1])}` | " + " | ".join(fmt(v) for v in r[2:]) + " |")
    if a.sim_diff and a.ptx_fuzz:
        lines += simulation.section(a.sim_diff, a.ptx_fuzz, a.optxas)
    old = open(a.out).read() if os.path.exists(a.out) else ""
    if a.sim_diff:
        lines += [""] + sanitizer.section(a.sim_diff, a.optxas)
    else:
        # Without the simulator, keep the sanitizer section tools/status/sanitizer.py wrote.
        sb, se = old.find(sanitizer.BEGIN), old.find(sanitizer.END)
        if 0 <= sb < se:
            lines += ["", old[sb:se + len(sanitizer.END)]]
    lines.append("")
    text = "\n".join(lines)
    # tools/bench/bench.py --update-status owns the section between its markers: keep it.
    begin, end = old.find("<!-- bench:begin -->"), old.find("<!-- bench:end -->")
    if 0 <= begin < end:
        text += "\n" + old[begin:end + len("<!-- bench:end -->")] + "\n"
    with open(a.out, "w") as f:
        f.write(text)
    print(f"wrote {a.out}: {e2e}/{len(filerows)} files end to end, {len(rows)} kernels")
    return 0


if __name__ == "__main__":
    sys.exit(main())
