#!/usr/bin/env python3
"""Relocatable device code (-c) against ptxas and nvlink (docs/abi.md "Relocatable output").

For tests/codegen/rdc/caller.ptx and tests/corpus/ptx/rdc_extern.sm_90.ptx, compiled with
`optxas -c` (-O0 and -O3) and with `ptxas -c` for sm_90, checks that our object has:
  - the same code relocations per function, as (type, symbol): CALL.ABS against each callee,
    the return-address and .global-address halves (R_CUDA_ABS32_LO_32 / _HI_32);
  - the same .nv.callgraph edges and .nv.prototype entries (by name) and EXTERNS (by name);
  - MAX_STACK_SIZE 0 exactly where ptxas writes 0 (functions that call);
and that nvlink links it with tests/codegen/rdc/provider.ptx (compiled by ptxas), leaving the
same relocations for the driver as when it links ptxas's object, and that nvdisasm decodes the
linked cubin.

  rdc_link_test.py --optxas BIN
"""
import argparse
import os
import shutil
import struct
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))
PTXAS = shutil.which("ptxas") or "/usr/local/cuda/bin/ptxas"
NVLINK = shutil.which("nvlink") or "/usr/local/cuda/bin/nvlink"
sys.path.insert(0, HERE)
import elfcompare  # noqa: E402

EXTERNS, MAX_STACK_SIZE = 0x0F, 0x23


def section(secs, name):
    return next((s for s in secs if s["name"] == name), None)


def summary(path):
    """What a relocatable object says about calls and addresses, by name."""
    secs = elfcompare.read(path)
    names = [s[0] for s in elfcompare.symbol_table(secs)]
    strtab = section(secs, ".strtab")["data"]
    out = {"relocs": {}, "externs": {}, "callgraph": [], "prototypes": set(), "stack": {}}
    for s in secs:
        if s["name"].startswith(".text."):
            fn = s["name"][6:]
            out["relocs"][fn] = elfcompare.code_relocations(secs, fn)
        if s["name"].startswith(".nv.info."):
            for kind, _, _, payload in elfcompare.nvinfo(s["data"]):
                if kind == EXTERNS:
                    idx = struct.unpack(f"<{len(payload) // 4}I", payload)
                    out["externs"][s["name"][9:]] = [names[i] for i in idx]
    info = section(secs, ".nv.info")
    for kind, _, _, payload in elfcompare.nvinfo(info["data"] if info else b""):
        if kind == MAX_STACK_SIZE:
            sym, size = struct.unpack("<II", payload)
            out["stack"][names[sym]] = size == 0
    cg = section(secs, ".nv.callgraph")
    if cg:
        pairs = [struct.unpack_from("<Ii", cg["data"], k) for k in range(0, len(cg["data"]), 8)]
        group = 0
        for a, b in pairs:
            if a == 0 and b < 0:
                group = -b
            else:
                out["callgraph"].append((group, names[a], names[b] if group in (1, 4) else b))
        out["callgraph"].sort(key=str)
    proto = section(secs, ".nv.prototype")
    if proto:
        for k in range(0, len(proto["data"]), 8):
            sym, off = struct.unpack_from("<II", proto["data"], k)
            out["prototypes"].add((names[sym], strtab[off:strtab.index(b"\0", off)].decode()))
    return out


def linked_relocations(path):
    secs = elfcompare.read(path)
    out = []
    for s in secs:
        if s["type"] in (4, 9) and s["info"] < len(secs):
            target = secs[s["info"]]["name"]
            if target.startswith(".debug"):
                continue
            out += [(target, typ, sym) for _, typ, sym, _ in elfcompare.relocations(secs, target)]
    return sorted(out, key=str)


def run(cmd):
    r = subprocess.run(cmd, capture_output=True, text=True)
    return r.returncode == 0, (r.stderr + r.stdout).strip()


# What -c output cannot express yet (function addresses and indirect calls need the unified
# function table) must be rejected cleanly: a ptxas-style error naming the line, no output file.
UNSUPPORTED = {
    "function address": """.version 9.0
.target sm_90
.address_size 64
.func f(.param .b32 a) { ret; }
.visible .entry k(.param .u64 o) { .reg .b64 %rd<2>; mov.u64 %rd1, f; st.global.u64 [%rd1], %rd1; ret; }
""",
    "indirect call": """.version 9.0
.target sm_90
.address_size 64
.visible .entry k(.param .u64 o) { .reg .b64 %rd<2>; ld.param.u64 %rd1, [o];
{ .param .b32 p0; st.param.b32 [p0], 1; pr : .callprototype _ (.param .b32 _); call %rd1, (p0), pr; }
ret; }
""",
}


def check_rejections(optxas, tmp):
    failures = 0
    for what, text in UNSUPPORTED.items():
        src, out = os.path.join(tmp, "unsupported.ptx"), os.path.join(tmp, "unsupported.cubin")
        with open(src, "w") as f:
            f.write(text)
        r = subprocess.run([optxas, "-arch=sm_90", "-c", src, "-o", out], capture_output=True, text=True)
        first = (r.stderr.strip().splitlines() or [""])[0]
        clean = r.returncode != 0 and not os.path.exists(out) and first.startswith(f"ptxas {src}, line 5; error")
        print(("ok   " if clean else "FAIL ") + f"-c {what} rejected: {first[:160]}")
        failures += not clean
    return failures


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    args = ap.parse_args()
    for t in (NVDISASM, PTXAS, NVLINK):
        if not os.access(t, os.X_OK):
            print(f"FAIL: oracle tool missing: {t}")
            return 1
    callers = [os.path.join(HERE, "rdc", "caller.ptx"), os.path.join(ROOT, "tests", "corpus", "ptx", "rdc_extern.sm_90.ptx")]
    failures = 0
    with tempfile.TemporaryDirectory() as tmp:
        provider = os.path.join(tmp, "provider.cubin")
        ok, msg = run([PTXAS, "-arch=sm_90", "-c", os.path.join(HERE, "rdc", "provider.ptx"), "-o", provider])
        if not ok:
            print(f"FAIL: ptxas rejected provider.ptx: {msg}")
            return 1
        for ptx in callers:
            name = os.path.basename(ptx)
            theirs, theirs_linked = os.path.join(tmp, name + ".ptxas.o"), os.path.join(tmp, name + ".ptxas.cubin")
            ok, msg = run([PTXAS, "-arch=sm_90", "-c", ptx, "-o", theirs])
            ok = ok and run([NVLINK, "-arch=sm_90", theirs, provider, "-o", theirs_linked])[0]
            if not ok:
                print(f"FAIL {name}: ptxas/nvlink: {msg}")
                failures += 1
                continue
            want, want_linked = summary(theirs), linked_relocations(theirs_linked)
            for opt in ("-O0", "-O3"):
                ours, linked = os.path.join(tmp, f"{name}{opt}.o"), os.path.join(tmp, f"{name}{opt}.cubin")
                problems = []
                ok, msg = run([args.optxas, "-arch=sm_90", opt, "-c", ptx, "-o", ours])
                if not ok:
                    print(f"FAIL {name} {opt}: optxas: {msg}")
                    failures += 1
                    continue
                got = summary(ours)
                for key in ("relocs", "externs", "callgraph", "prototypes", "stack"):
                    if got[key] != want[key]:
                        problems.append(f"{key}: ours {got[key]} vs ptxas {want[key]}")
                ok, msg = run([NVLINK, "-arch=sm_90", ours, provider, "-o", linked])
                if not ok:
                    problems.append(f"nvlink: {msg}")
                else:
                    if linked_relocations(linked) != want_linked:
                        problems.append(f"linked relocations: ours {linked_relocations(linked)} vs {want_linked}")
                    ok, msg = run([NVDISASM, "-c", linked])
                    if not ok or "error" in msg.lower():
                        problems.append(f"nvdisasm: {msg[:200]}")
                print(("FAIL " if problems else "ok   ") + f"{name} {opt}" + "".join("\n     " + p for p in problems))
                failures += bool(problems)
        failures += check_rejections(args.optxas, tmp)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
