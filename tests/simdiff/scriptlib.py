"""What the simdiff test scripts (reconvergence, warpsync_routines, debug_calls, forward_progress,
sanitizer, bmma_emulation) share: running a tool with its output captured, their common arguments,
and checking a cubin on the simulator against the PTX interpreter."""
import argparse
import subprocess


def run(cmd):
    """Runs cmd; stdout and stderr together in .stdout."""
    return subprocess.run(cmd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)


def tool_parser(exec_dir=True, exec_help=None):
    """An argument parser with --optxas and --sim-diff (the binaries under test) and, unless
    exec_dir is False, --exec-dir (tests/exec)."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--sim-diff", required=True)
    if exec_dir:
        ap.add_argument("--exec-dir", required=True, help=exec_help)
    return ap


def sim_agrees(sim_diff, cubin, spec, ptx, label, seeds="3"):
    """Runs sim-diff on cubin (inputs from spec) against the PTX interpreter's result for ptx;
    prints an ok/FAIL line for label (with sim-diff's output tail on failure); True if they agree."""
    r = run([sim_diff, "--cubin", cubin, "--spec", spec, "--seeds", seeds, ptx])
    last = r.stdout.strip().splitlines()[-1] if r.stdout.strip() else "(no output)"
    ok = r.returncode == 0 and "agree" in last
    print(f"{'ok  ' if ok else 'FAIL'} {label}: {last}")
    if not ok:
        print(r.stdout[-2000:])
    return ok
