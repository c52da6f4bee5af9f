#!/usr/bin/env python3
"""bench: optxas against ptxas on the same machine in the same run; prints one table.

usage: tools/bench/bench.py [--optxas build/bin/optxas] [--ptxas ptxas] [--repeat 3] [--opt -O0,-O3]
                            [--only REGEX] [--input PTX]... [--no-generated] [--no-scaling] [--cache-dir DIR]
                            [--update-status [docs/status.md]]

For every input of the benchmark set (inputs.py) and optimization level, both tools compile it
--repeat times, alternating which goes first. Ratios are ours / ptxas (below 1 = we use less):
wall time (min and median over the repetitions), peak resident set (median), and from the last
repetition the code-quality ratios (quality.py) summed over the kernels both tools report.
Inputs optxas rejects are listed with its error and left out of every ratio. See docs/bench.md.
"""
import argparse
import datetime
import math
import os
import platform
import re
import shutil
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)
import inputs  # noqa: E402
import measure  # noqa: E402
import quality  # noqa: E402
import scaling  # noqa: E402

ROOT = inputs.ROOT
BEGIN, END = "<!-- bench:begin -->", "<!-- bench:end -->"
TARGET_TIME, TARGET_RSS, TARGET_QUALITY = 0.5, 1.0, 1.10   # issue 6's targets
QUALITY_KEYS = ("sass", "regs", "stack", "spills", "cycles")


def log(msg):
    print(msg, file=sys.stderr, flush=True)


def first_error(output):
    """optxas's first diagnostic, shortened: 'unsupported: atom.f16 is not yet supported'."""
    lines = [l for l in output.splitlines() if re.search(r"\b(error|fatal)\s*:", l)] or output.strip().splitlines() or [""]
    msg = re.sub(r"^ptxas (\S+, line \d+; )?(error|fatal)\s*:\s*", "", lines[0].strip())
    # "internal: cannot encode 'R8 = IMAD.WIDE.S32 R8, 0x4, RZ {...}': IMAD: no form ..." names
    # the instruction; its operands and the encoder's candidate list are noise in a table cell.
    m = re.match(r"(internal: )?cannot encode '(?:[^'=]*= )?(?:@!?U?P\w+ )?([A-Z][A-Z0-9_]*(?:\.[A-Z0-9_]+)*)", msg)
    if m:
        msg = f"{m.group(1) or ''}cannot encode {m.group(2)}"
    msg = re.sub(r" (in|of) '[^']*'", "", msg).replace("|", "/")
    return msg[:80] + ("..." if len(msg) > 80 else "")


class Row:
    def __init__(self, inp, opt):
        self.inp, self.opt = inp, opt
        self.result = "ok"          # ok | unsupported: ... | ptxas rejects: ... | skipped: ...
        self.times = {"ptxas": [], "optxas": []}
        self.rss = {"ptxas": [], "optxas": []}
        self.quality = None         # {key: (ptxas, ours)}

    @property
    def ok(self):
        return self.result == "ok"

    def ratio(self, what, how):
        t = self.times if what == "time" else self.rss
        f = min if how == "min" else measure.median
        return f(t["optxas"]) / f(t["ptxas"])


def compile_cmd(tool, inp, opt, out):
    return [tool, f"-arch={inp.arch}", opt, *inp.flags, "-v", inp.path, "-o", out]


def bench_one(inp, opt, tools, repeat, tmp, timeout):
    row = Row(inp, opt)
    if inp.missing:
        row.result = "skipped: " + inp.missing
        return row
    outs = {name: os.path.join(tmp, f"{name}.cubin") for name in tools}
    texts = {}
    for rep in range(repeat):
        order = list(tools) if rep % 2 == 0 else list(reversed(tools))
        for name in order:
            if os.path.exists(outs[name]):
                os.remove(outs[name])
            r = measure.run_measured(compile_cmd(tools[name], inp, opt, outs[name]), timeout)
            failed = r.returncode != 0 or not os.path.exists(outs[name])
            if failed and name == "ptxas":
                row.result = "ptxas rejects: " + first_error(r.output)
                return row
            if failed:
                why = "timed out" if r.timed_out else (f"crashed (signal {-r.returncode})" if r.returncode < 0
                                                        else first_error(r.output))
                row.result = "unsupported: " + why
            row.times[name].append(r.seconds)
            row.rss[name].append(r.peak_kib)
            texts[name] = r.output
        if not row.ok:
            return row   # one ptxas reading is context enough for a row without ratios
    theirs = quality.analyse(texts["ptxas"], outs["ptxas"])
    try:
        ours = quality.analyse(texts["optxas"], outs["optxas"])
    except RuntimeError as e:   # our cubin does not disassemble: a compiler bug, not a result
        row.result = "invalid cubin: " + str(e).split(": ", 1)[-1][:60]
        return row
    names = sorted(set(theirs.kernels()) & set(ours.functions))
    if names:   # else the two reports share no kernel name: no quality ratios
        tp, to = quality.totals(theirs, names), quality.totals(ours, names)
        row.quality = {k: (tp[k], to[k]) for k in QUALITY_KEYS}
    return row


# --- formatting -----------------------------------------------------------------------------

def fmt_ratio(x):
    return "-" if x is None else f"{x:.2f}"


def fmt_quality(theirs, ours):
    if theirs == 0:
        return "=" if ours == 0 else f"+{ours}"
    return f"{ours / theirs:.2f}"


def fmt_rss(row, floor):
    """RSS ratio; a reading at the launcher's floor (measure.py) is only an upper bound."""
    ours = measure.median(row.rss["optxas"])
    r = ours / measure.median(row.rss["ptxas"])
    return f"≤{r:.2f}" if ours <= floor * 1.02 else f"{r:.2f}"


HEADER = ("| input | -O | result | ptxas ms | time min | time med | ptxas MiB | RSS med "
          "| SASS | regs | stack | spills | cycles |")


def table(rows, floor):
    lines = [HEADER, "|" + " --- |" * (HEADER.count("|") - 1)]
    for row in rows:
        pt = row.times["ptxas"]
        pms = f"{measure.median(pt) * 1000:.0f}" if pt else "-"
        pmb = f"{measure.median(row.rss['ptxas']) / 1024:.0f}" if pt else "-"
        if row.ok:
            q = row.quality
            cells = [fmt_ratio(row.ratio("time", "min")), fmt_ratio(row.ratio("time", "med")), pmb,
                     fmt_rss(row, floor)] + [fmt_quality(*q[k]) if q else "-" for k in QUALITY_KEYS]
        else:
            cells = ["-", "-", pmb, "-"] + ["-"] * len(QUALITY_KEYS)
        lines.append(f"| {row.inp.name} | {row.opt[1:]} | {row.result} | {pms} | " + " | ".join(cells) + " |")
    return lines


def geomean(xs):
    return math.exp(sum(math.log(x) for x in xs) / len(xs)) if xs else None


def summary(rows, opts):
    lines = []
    measured = [r for r in rows if not r.result.startswith(("skipped", "ptxas rejects"))]
    ok = [r for r in measured if r.ok]
    lines.append(f"Compiled by optxas: {len(ok)} of {len(measured)} (input, -O) pairs that ptxas compiles "
                 f"({len(rows) - len(measured)} skipped or rejected by ptxas); ratios below cover those {len(ok)}.")
    for opt in opts:
        sel = [r for r in ok if r.opt == opt]
        total = [r for r in measured if r.opt == opt]
        if not sel:
            lines.append(f"- {opt}: 0 of {len(total)} compiled; no ratios.")
            continue
        t = measure.median([r.ratio("time", "med") for r in sel])
        m = measure.median([r.ratio("rss", "med") for r in sel])
        q = {}
        for k in ("sass", "regs", "cycles"):
            vals = [r.quality[k][1] / r.quality[k][0] for r in sel if r.quality and r.quality[k][0] > 0]
            q[k] = measure.median(vals) if vals else None
        worst = max((v for v in q.values() if v is not None), default=None)
        lines.append(
            f"- {opt}: {len(sel)} of {len(total)} compiled. Median ratios: time {t:.2f} "
            f"(target ≤ {TARGET_TIME:.2f}: {'met' if t <= TARGET_TIME else 'not met'}), "
            f"peak RSS {m:.2f} (target ≤ {TARGET_RSS:.2f}: {'met' if m <= TARGET_RSS else 'not met'}), "
            f"SASS {fmt_ratio(q['sass'])}, regs {fmt_ratio(q['regs'])}, cycles {fmt_ratio(q['cycles'])} "
            + (f"(target ≤ {TARGET_QUALITY:.2f}: {'met' if worst is not None and worst <= TARGET_QUALITY else 'not met'})."
               if opt != "-O0" else "(no quality target at -O0, where ptxas does not optimize either)."))
    return lines


# --- scaling ----------------------------------------------------------------------------------

def run_scaling(tools, cache, repeat, tmp, timeout):
    lines = [f"Scaling (-O3, one {inputs.SCALING_OPS}-instruction kernel copied 1x/10x/100x into one module, "
             f"median of {repeat}; check: t(100x)/t(10x) ≤ {scaling.bound(10, 100):.0f}, n log n with "
             f"{scaling.SLACK}x slack):"]
    for name in ("optxas", "ptxas"):
        points, error = [], None
        for n, inp in inputs.scaling_inputs(cache):
            out = os.path.join(tmp, "scaling.cubin")
            runs = []
            for _ in range(repeat):
                r = measure.run_measured(compile_cmd(tools[name], inp, "-O3", out), timeout)
                if r.returncode != 0:
                    error = first_error(r.output)
                    break
                runs.append(r.seconds)
            if error:
                break
            points.append((n, measure.median(runs)))
        if error:
            lines.append(f"- {name}: not measured, it cannot compile the kernel ({error}): FAIL" if name == "optxas"
                         else f"- {name}: not measured ({error})")
            continue
        ratio, b, passed, k_fit, k_pair = scaling.verdict(points)
        ms = ", ".join(f"{n}x {t * 1000:.0f} ms" for n, t in points)
        verdict = f": {'PASS' if passed else 'FAIL'}" if name == "optxas" else " (reference)"
        lines.append(f"- {name}: {ms}; t(100x)/t(10x) = {ratio:.1f}, exponent k (t ~ n^k) {k_pair:.2f} "
                     f"over 10x..100x, {k_fit:.2f} fitted over all three{verdict}")
    return lines


# --- docs/status.md ---------------------------------------------------------------------------

def machine():
    cpu = "unknown CPU"
    try:
        for line in open("/proc/cpuinfo"):
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    u = platform.uname()
    return f"{u.system} {u.release} {u.machine}, {cpu}, {os.cpu_count()} CPUs"


def tool_version(tool):
    r = subprocess.run([tool, "--version"], capture_output=True, text=True)
    lines = [l.strip() for l in r.stdout.splitlines() if l.strip()]
    release = [l for l in lines if "release" in l]   # "Cuda compilation tools, release 13.0, V13.0.88"
    return (release or lines or ["unknown version"])[-1]


def update_status(path, section):
    text = open(path).read() if os.path.exists(path) else ""
    block = BEGIN + "\n" + "\n".join(section) + "\n" + END
    if BEGIN in text and END in text:
        text = text[:text.index(BEGIN)] + block + text[text.index(END) + len(END):]
    else:
        text = text.rstrip("\n") + "\n\n" + block + "\n"
    with open(path, "w") as f:
        f.write(text)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--optxas", default=os.path.join(ROOT, "build", "bin", "optxas"))
    ap.add_argument("--ptxas", default=shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--opt", default="-O0,-O3", help="comma-separated levels (default -O0,-O3)")
    ap.add_argument("--only", help="regex: bench only inputs whose name matches (e.g. 'example/')")
    ap.add_argument("--input", action="append", metavar="PTX", help="bench this file instead of the benchmark set (repeatable)")
    ap.add_argument("--no-generated", action="store_true", help="skip the nvcc-made and generated inputs")
    ap.add_argument("--no-scaling", action="store_true")
    ap.add_argument("--cache-dir", default=os.path.join(ROOT, "build", "bench-cache"))
    ap.add_argument("--timeout", type=float, default=600.0, help="seconds per compilation")
    ap.add_argument("--update-status", nargs="?", const=os.path.join(ROOT, "docs", "status.md"), metavar="FILE",
                    help="rewrite the bench section of docs/status.md with this run's table")
    a = ap.parse_args()
    if a.repeat < 1:
        ap.error("--repeat must be at least 1")
    for tool in (a.optxas, a.ptxas):
        if not (os.access(tool, os.X_OK) or shutil.which(tool)):
            ap.error(f"{tool} not found (build optxas first; ptxas 13.0 must be on PATH)")
    if not quality.have_nvdisasm():
        ap.error(f"nvdisasm not found at {quality.NVDISASM} (run tools/install-deps.sh or set NVDISASM)")
    opts = [o.strip() for o in a.opt.split(",") if o.strip()]
    tools = {"ptxas": a.ptxas, "optxas": a.optxas}

    started = datetime.datetime.now(datetime.timezone.utc)
    bench_set = inputs.benchmark_set(a.cache_dir, inputs.find_nvcc(), with_generated=not a.no_generated,
                                     files=a.input, log=log)
    if a.only:
        bench_set = [i for i in bench_set if re.search(a.only, i.name)]
    floor = measure.rss_floor()
    rows = []
    with tempfile.TemporaryDirectory(prefix="optxas-bench-") as tmp:
        for inp in bench_set:
            for opt in opts:
                if opt not in inp.opts:
                    continue   # -G PTX: ptxas compiles it only at -O0
                log(f"{inp.name} {opt}")
                rows.append(bench_one(inp, opt, tools, a.repeat, tmp, a.timeout))
        scale = [] if a.no_scaling else run_scaling(tools, a.cache_dir, a.repeat, tmp, a.timeout)

    out = table(rows, floor) + [""] + summary(rows, opts)
    if scale:
        out += [""] + scale
    out += ["", f"Ratios are optxas / ptxas (below 1: optxas uses less). ms and MiB: ptxas's median. "
                f"SASS, regs, stack, spills (bytes), cycles (sum of control-bit stalls): totals over the "
                f"kernels both report; '=' both zero, '+N' ptxas zero and ours N. "
                f"RSS '≤': ours at the {floor / 1024:.1f} MiB measuring floor (docs/bench.md)."]
    print("\n".join(out))
    if a.update_status:
        cmd = "tools/bench/bench.py " + " ".join(sys.argv[1:])
        section = ["## Benchmark: optxas vs ptxas", "",
                   f"Generated by `{cmd.strip()}` on {started:%Y-%m-%d %H:%M} UTC, repeat {a.repeat}.",
                   f"Machine: {machine()}. ptxas: {tool_version(a.ptxas)}.",
                   "Timings on a shared machine are noisy; see docs/bench.md for what each column means.",
                   ""] + out
        update_status(a.update_status, section)
        log(f"updated {a.update_status}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
