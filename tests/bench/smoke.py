#!/usr/bin/env python3
"""bench.smoke: runs tools/bench/bench.py on smoke.ptx (--repeat 1, no scaling) and checks that
its table has numeric ratios for a kernel both tools compile, at -O0 and -O3, and that
--update-status replaces only the text between the bench markers of a status file. Also checks
that the scaling criterion (tools/bench/scaling.py) fails quadratic growth.

usage: smoke.py --optxas build/bin/optxas
"""
import argparse
import math
import os
import re
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
BENCH = os.path.join(ROOT, "tools", "bench", "bench.py")
NUMBER = re.compile(r"^≤?\d+\.\d\d$")


def fail(msg):
    print("FAIL:", msg)
    sys.exit(1)


def table_rows(text):
    lines = [l for l in text.splitlines() if l.startswith("| ")]
    if not lines or not lines[0].startswith("| input |"):
        fail("no table in the output:\n" + text)
    header = [c.strip() for c in lines[0].strip("|").split("|")]
    return [dict(zip(header, (c.strip() for c in l.strip("|").split("|")))) for l in lines[2:]]


def check_scaling_criterion():
    """The n log n check must fail quadratic growth and pass n log n growth."""
    sys.path.insert(0, os.path.dirname(BENCH))
    import scaling
    nlogn = [(n, 0.01 * n * max(1.0, math.log(n))) for n in (1, 10, 100)]
    quadratic = [(n, 0.001 * n * n) for n in (1, 10, 100)]
    if not scaling.verdict(nlogn)[2] or scaling.verdict(quadratic)[2]:
        fail("the scaling criterion does not separate n log n from n^2 growth")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    a = ap.parse_args()
    check_scaling_criterion()
    with tempfile.TemporaryDirectory() as tmp:
        status = os.path.join(tmp, "status.md")
        before, after = "# Status\n\nkept above\n\n", "\n\nkept below\n"
        with open(status, "w") as f:
            f.write(before + "<!-- bench:begin -->\nold numbers\n<!-- bench:end -->" + after)
        r = subprocess.run([sys.executable, BENCH, "--optxas", a.optxas, "--input", os.path.join(HERE, "smoke.ptx"),
                            "--repeat", "1", "--no-scaling", "--cache-dir", os.path.join(tmp, "cache"),
                            "--update-status", status], capture_output=True, text=True, timeout=110)
        print(r.stdout)
        if r.returncode != 0:
            fail(f"bench.py exited {r.returncode}:\n{r.stderr}")
        rows = table_rows(r.stdout)
        if sorted(row["-O"] for row in rows) != ["O0", "O3"]:
            fail(f"expected one row per -O level, got {[row['-O'] for row in rows]}")
        for row in rows:
            if row["result"] != "ok":
                fail(f"smoke.ptx at -{row['-O']}: {row['result']}")
            for col in ("time min", "time med", "RSS med", "SASS", "regs", "cycles"):
                if not NUMBER.match(row[col]) or float(row[col].lstrip("≤")) <= 0:
                    fail(f"-{row['-O']} column '{col}' is not a positive ratio: {row[col]!r}")
            for col in ("ptxas ms", "ptxas MiB"):
                if not row[col].isdigit():
                    fail(f"-{row['-O']} column '{col}' is not a number: {row[col]!r}")
        if "Compiled by optxas: 2 of 2" not in r.stdout:
            fail("the summary does not count 2 of 2 compiled")
        text = open(status).read()
        if not (text.startswith(before) and text.endswith(after)) or "old numbers" in text:
            fail("--update-status touched text outside its markers or kept the old section:\n" + text)
        if "| file/smoke | O3 | ok |" not in text or "Machine: " not in text:
            fail("--update-status did not write the table and the machine:\n" + text)
    print("PASS: bench table has numeric ratios for smoke.ptx at -O0 and -O3")
    return 0


if __name__ == "__main__":
    sys.exit(main())
