#!/usr/bin/env python3
"""Lowers every PTX file of the corpus with lower-ptx and checks that

  * nothing crashes (exit status 0 or 1 only; no sanitizer/abort output),
  * every diagnostic is a ptxas-format error ("ptxas FILE, line N; error   : ..."),
  * every file listed in the expectations file lowers completely (no regressions),

then prints which files lower completely and a histogram of what is not yet supported.
"""
import argparse
import collections
import os
import re
import subprocess
import sys

DIAG = re.compile(r"^ptxas (?P<file>[^,]+), line (?P<line>\d+); error   : (?P<msg>.*)$")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--lower-ptx", required=True)
    ap.add_argument("--corpus", required=True)
    ap.add_argument("--expect", required=True, help="files that must lower completely, one per line")
    args = ap.parse_args()

    expected = set()
    with open(args.expect) as f:
        for line in f:
            line = line.split("#", 1)[0].strip()
            if line:
                expected.add(line)

    files = sorted(p for p in os.listdir(args.corpus) if p.endswith(".ptx"))
    problems = []
    passed = []
    unsupported = collections.Counter()
    examples = {}
    for name in files:
        path = os.path.join(args.corpus, name)
        r = subprocess.run([args.lower_ptx, path], capture_output=True, text=True, timeout=120)
        if r.returncode not in (0, 1):
            problems.append(f"{name}: lower-ptx exited with status {r.returncode}\n{r.stderr[-2000:]}")
            continue
        for line in r.stderr.splitlines():
            m = DIAG.match(line)
            if not m:
                problems.append(f"{name}: diagnostic not in ptxas format: {line}")
                continue
            msg = m.group("msg")
            if "internal error" in msg or "ori verifier" in msg:
                problems.append(f"{name}: {line}")
            key = re.sub(r"'[^']*'", lambda q: q.group(0), msg)
            unsupported[key] += 1
            examples.setdefault(key, f"{name}:{m.group('line')}")
        if r.returncode == 0:
            if not r.stdout.startswith("OK "):
                problems.append(f"{name}: exit status 0 without an OK line")
            passed.append(name)
        elif name in expected:
            first = r.stderr.splitlines()[:3]
            problems.append(f"{name}: expected to lower completely, but:\n  " + "\n  ".join(first))

    print(f"{len(passed)}/{len(files)} corpus files lower completely:")
    for name in passed:
        mark = "" if name in expected else "   (new: add it to the expectations)"
        print(f"  {name}{mark}")
    missing = expected - set(files)
    for name in sorted(missing):
        problems.append(f"{name}: listed in the expectations but not in the corpus")
    print("\nNot yet supported (count, message, first occurrence):")
    for key, n in unsupported.most_common():
        print(f"  {n:5d}  {key}  [{examples[key]}]")
    if problems:
        print("\nFAILURES:")
        for p in problems:
            print("  " + p)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
