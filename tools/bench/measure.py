"""Runs one compiler invocation and measures it: wall time and the child's peak resident set.

The measured process is forked by launch.py (a tiny interpreter) and reaped with os.wait4, whose
rusage belongs to that child alone (ru_maxrss, KiB on Linux). ru_maxrss cannot read below the
resident set the child inherited at fork (the "floor", ~5 MiB); rss_floor() measures it so that
the table can mark readings at the floor.
"""
import os
import shutil
import subprocess
import sys
import tempfile
from dataclasses import dataclass

LAUNCH = os.path.join(os.path.dirname(os.path.abspath(__file__)), "launch.py")


@dataclass
class Run:
    returncode: int
    seconds: float      # wall time from fork to exit
    peak_kib: int       # peak resident set of the child (ru_maxrss)
    output: str         # stdout then stderr
    timed_out: bool = False


def run_measured(cmd, timeout=600.0):
    """Runs cmd (a list) and returns a Run. A child past `timeout` seconds is killed."""
    exe = shutil.which(cmd[0])
    if exe is None:
        raise FileNotFoundError(cmd[0])
    cmd = [os.path.abspath(exe), *cmd[1:]]
    with tempfile.TemporaryDirectory(prefix="bench-run-") as tmp:
        out, err = os.path.join(tmp, "out"), os.path.join(tmp, "err")
        r = subprocess.run([sys.executable, "-S", "-I", LAUNCH, str(timeout), out, err, "--", *cmd],
                           capture_output=True, text=True)
        fields = r.stdout.split()
        if r.returncode != 0 or len(fields) != 4:
            raise RuntimeError(f"launch.py failed for {cmd[0]}: {r.stderr.strip()}")
        with open(out, errors="replace") as f, open(err, errors="replace") as e:
            text = f.read() + e.read()
    rc, seconds, peak, timed_out = int(fields[0]), float(fields[1]), int(fields[2]), fields[3] == "1"
    return Run(rc, seconds, peak, text, timed_out)


def rss_floor():
    """The ru_maxrss of a child that does nothing (/bin/true): readings at or below it only say
    that the real peak is no higher."""
    return max(run_measured(["true"]).peak_kib for _ in range(3))


def median(values):
    s = sorted(values)
    n = len(s)
    if n == 0:
        return None
    return s[n // 2] if n % 2 else (s[n // 2 - 1] + s[n // 2]) / 2
