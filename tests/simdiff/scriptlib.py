"""What the simdiff test scripts (reconvergence, warpsync_routines, debug_calls, forward_progress,
sanitizer) share: running a tool with its output captured, and their common arguments."""
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
