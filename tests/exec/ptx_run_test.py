#!/usr/bin/env python3
"""Checks the ptx-run tool: deterministic dumps per seed, the text output format, exit status 1
with a clear message for each kind of kernel fault, exit status 2 for bad specs."""
import os
import subprocess
import sys
import tempfile

ptx_run, here = sys.argv[1], sys.argv[2]
failures = []


def run(*args):
    return subprocess.run([ptx_run, *args], capture_output=True, text=False)


def check(cond, what):
    if not cond:
        failures.append(what)


with tempfile.TemporaryDirectory() as tmp:
    vec, spec = os.path.join(here, "vecadd.ptx"), os.path.join(here, "vecadd.spec")
    dumps = {}
    for name, seed in (("a", "7"), ("b", "7"), ("c", "8")):
        out = os.path.join(tmp, name + ".bin")
        p = run(vec, "--spec", spec, "--seed", seed, "--dump", out)
        check(p.returncode == 0, f"vecadd seed {seed}: exit {p.returncode}: {p.stderr.decode()}")
        dumps[name] = open(out, "rb").read() if os.path.exists(out) else b""
    check(len(dumps["a"]) == 640 * 4, f"dump size {len(dumps['a'])}, expected {640 * 4}")
    check(dumps["a"] == dumps["b"], "same seed gave different outputs")
    check(dumps["a"] != dumps["c"], "different seeds gave identical outputs")
    check(dumps["a"][600 * 4:] == bytes(160), "elements beyond n were written")

    p = run(vec, "--spec", spec)
    text = p.stdout.decode()
    check(p.returncode == 0 and text.startswith("# c: f32[640]\n"), f"text output: {text[:60]!r}")
    check(len(text.splitlines()) == 1 + 80, f"text output has {len(text.splitlines())} lines")

    faults = {
        "oob": ("out-of-bounds access", "thread (64,0,0)"),
        "trap": ("trap", "thread (5,0,0)"),
        "deadlock": ("deadlock", "never arrive"),
        "spin": ("instruction limit exceeded", ""),
    }
    for name, (kind, detail) in faults.items():
        base = os.path.join(here, "faults", name)
        p = run(base + ".ptx", "--spec", base + ".spec")
        err = p.stderr.decode()
        check(p.returncode == 1, f"{name}: exit {p.returncode}, expected 1 ({err.strip()})")
        check(kind in err and detail in err, f"{name}: message {err.strip()!r} lacks {kind!r}/{detail!r}")

    p = run(os.path.join(here, "assert_fail.ptx"), "--spec", os.path.join(here, "assert_fail.spec"))
    err = p.stderr.decode()
    check(p.returncode == 1 and "assertion 'in[i] != 42' failed" in err and "thread (3,0,0)" in err,
          f"assert: {p.returncode} {err!r}")

    p = run(os.path.join(here, "runtime_calls.ptx"), "--spec", os.path.join(here, "runtime_calls.spec"))
    lines = p.stdout.decode().splitlines()
    check(p.returncode == 0 and len([l for l in lines if l.startswith("thread ")]) == 4,
          f"printf: {p.returncode} {lines[:5]}")

    bad = os.path.join(tmp, "bad.spec")
    with open(bad, "w") as f:
        f.write("grid 1\nblock 32\nparam a buffer f33 4 zeros\n")
    p = run(vec, "--spec", bad)
    err = p.stderr.decode()
    check(p.returncode == 2 and "line 3" in err and "f33" in err, f"bad spec: {p.returncode} {err!r}")

    p = run(vec, "--spec", os.path.join(here, "reduce_shared.spec"))
    check(p.returncode == 2, f"spec for another kernel: exit {p.returncode}")

for f in failures:
    print("FAIL:", f)
sys.exit(1 if failures else 0)
