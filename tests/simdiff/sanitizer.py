#!/usr/bin/env python3
"""Phase 13 OriSanitize (-knob OptxasSanitize=memcheck|threadsteer) in the SASS simulator.

The simulator plays the sanitizer's host runtime: it registers every allocation in the
instrumented module's allocation table and decodes the report (sim-diff --sanitizer).
  * correct kernels (tests/exec), both modes: agree with the PTX interpreter, no report
  * injected out-of-bounds accesses (tests/exec/sanitizer/*_oob):
      memcheck     the launch stops with a trap whose report names the access
      threadsteer  the launch completes; the report names the same access
      plain        no report (the check is the sanitizer's, not the simulator's)
--cost FILE writes the SASS instruction counts (plain, memcheck, threadsteer) of the correct
kernels as JSON for tools/status/status.py. Exit status 0 when everything holds.
"""
import json
import os
import re
import sys
import tempfile

from scriptlib import run, tool_parser

CORRECT = ["vecadd", "reduce_shared", "transpose", "local_array", "atomics_hist", "module_vars", "divergence"]
# kernel -> what the report must say (space, access, thread, block)
OOB = {
    "vecadd_oob": "invalid global store of 4 bytes at 0x[0-9a-f]+ by thread 88 of block 4 ",
    "shared_oob": "invalid shared store of 4 bytes at 0x500 by thread 63 of block 0 ",
}


def main():
    ap = tool_parser(exec_help="tests/exec")
    ap.add_argument("--cost", help="write instruction counts here (JSON)")
    a = ap.parse_args()
    failed = []
    cost = {}

    def check(name, ok, detail):
        print(f"{'ok  ' if ok else 'FAIL'} {name}: {detail}")
        if not ok:
            failed.append(name)

    with tempfile.TemporaryDirectory() as tmp:
        def compile_and_run(ptx, spec, mode):
            cubin = os.path.join(tmp, "k.cubin")
            knob = ["-knob", f"OptxasSanitize={mode}"] if mode else []
            c = run([a.optxas, "-arch=sm_90", *knob, ptx, "-o", cubin])
            if c.returncode != 0:
                return None, c.stdout, 0
            r = run([a.sim_diff, "--cubin", cubin, "--spec", spec, "--sanitizer", "--seeds", "1", "--listing", ptx])
            # The listing's instruction lines, without the NOP padding after the last EXIT.
            body = [l for l in r.stdout.splitlines() if re.match(r"\s*/\*[0-9a-f]{4,}\*/", l)]
            return r.stdout, "", len([l for l in body if not re.search(r"\bNOP\b", l)])

        for k in CORRECT:
            ptx, spec = os.path.join(a.exec_dir, k + ".ptx"), os.path.join(a.exec_dir, k + ".spec")
            cost[k] = {}
            for mode in ["", "memcheck", "threadsteer"]:
                out, err, n = compile_and_run(ptx, spec, mode)
                cost[k][mode or "plain"] = n
                if out is None:
                    check(f"{k} {mode or 'plain'}", False, "compile error: " + err.strip()[:200])
                    continue
                first = out.splitlines()[0] if out else "(no output)"
                if mode:
                    ok = f"{k}: agree" in out and "sanitizer: no invalid access; launch completed" in out
                    check(f"{k} {mode}", ok, first)
        for k, want in OOB.items():
            ptx = os.path.join(a.exec_dir, "sanitizer", k + ".ptx")
            spec = os.path.join(a.exec_dir, "sanitizer", k + ".spec")
            for mode in ["", "memcheck", "threadsteer"]:
                out, err, _ = compile_and_run(ptx, spec, mode)
                if out is None:
                    check(f"{k} {mode or 'plain'}", False, "compile error: " + err.strip()[:200])
                    continue
                line = next((l.strip() for l in out.splitlines() if l.strip().startswith("sanitizer:")), "")
                if mode == "memcheck":
                    ok = re.search("sanitizer: " + want, line) is not None and "launch faulted: trap" in line
                elif mode == "threadsteer":
                    ok = re.search("sanitizer: " + want, line) is not None and line.endswith("launch completed")
                else:
                    ok = "sanitizer: no invalid access" in line
                check(f"{k} {mode or 'plain'}", ok, line)
    if a.cost:
        with open(a.cost, "w") as f:
            json.dump(cost, f, indent=1, sort_keys=True)
    if failed:
        print(f"FAILED: {', '.join(failed)}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
