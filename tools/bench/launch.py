"""Minimal launcher: runs one command and prints "<returncode> <seconds> <peak KiB> <timed out>".

usage: python3 -S -I launch.py TIMEOUT STDOUT_FILE STDERR_FILE -- /ABSOLUTE/PATH/OF/CMD ARGS...

Why a separate, tiny process: a child's ru_maxrss (from wait4) also counts the pages it held
before exec, i.e. its parent's resident set at fork time (vfork: the parent's whole peak). Forked
from this interpreter, which imports nothing but builtins, that floor is ~5 MiB instead of the
bench process's size. measure.py measures the floor and reports readings at it as such.
"""
import os
import sys
import time


def main():
    timeout, out_path, err_path = float(sys.argv[1]), sys.argv[2], sys.argv[3]
    cmd = sys.argv[5:]
    out = os.open(out_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    err = os.open(err_path, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o644)
    t0 = time.perf_counter()
    pid = os.fork()
    if pid == 0:
        try:
            os.dup2(out, 1)
            os.dup2(err, 2)
            devnull = os.open(os.devnull, os.O_RDONLY)
            os.dup2(devnull, 0)
            os.execv(cmd[0], cmd)   # an absolute path: execvp's PATH search costs resident memory
        finally:
            os._exit(127)
    import signal  # after the fork: the child should inherit as little as possible

    timed_out = []

    def on_alarm(signum, frame):
        timed_out.append(1)
        os.kill(pid, signal.SIGKILL)

    signal.signal(signal.SIGALRM, on_alarm)
    signal.setitimer(signal.ITIMER_REAL, timeout)
    while True:
        try:
            _, status, usage = os.wait4(pid, 0)
            break
        except InterruptedError:
            continue
    seconds = time.perf_counter() - t0
    signal.setitimer(signal.ITIMER_REAL, 0)
    print(os.waitstatus_to_exitcode(status), f"{seconds:.6f}", usage.ru_maxrss, 1 if timed_out else 0)


if __name__ == "__main__":
    main()
