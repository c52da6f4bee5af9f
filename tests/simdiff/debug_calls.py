#!/usr/bin/env python3
"""Debug builds with calls (docs/abi.md, "Debug builds and relocatable objects").

Under -g every device function keeps its own section and calls, returns, return addresses and
.global addresses go through relocations (CALL.ABS.NOINC, RET.ABS.NODEC, R_CUDA_ABS32_LO/HI_32,
R_CUDA_ABS55_16_34). Each exec kernel below is compiled by optxas with -g and run by sim-diff
(the SASS simulator links the sections as the driver would) against the PTX interpreter: it must
agree. The same cubin with its call relocations dropped must not (the check can fail).
cuobjdump (CUDA 13.5, next to nvdisasm) must accept each cubin: it rejects a debug cubin whose
e_flags do not agree with its debug sections. nvlink must link each kernel's -g -c object.
Exit status 0 when all hold.
"""
import os
import shutil
import struct
import sys
import tempfile

from scriptlib import run, tool_parser

KERNELS = ["device_calls", "many_args", "recursion", "module_vars", "local_array"]


def drop_relocations(src, dst):
    """Rewrites every .rela.text.* entry to type R_CUDA_NONE (0): calls then go to address 0."""
    d = bytearray(open(src, "rb").read())
    shoff, = struct.unpack_from("<Q", d, 0x28)
    shnum, shstrndx = struct.unpack_from("<HH", d, 0x3c)
    names_off, = struct.unpack_from("<Q", d, shoff + 64 * shstrndx + 24)
    dropped = 0
    for i in range(shnum):
        name, typ = struct.unpack_from("<II", d, shoff + 64 * i)
        off, size = struct.unpack_from("<QQ", d, shoff + 64 * i + 24)
        sname = d[names_off + name:d.index(b"\0", names_off + name)].decode()
        if typ == 4 and sname.startswith(".rela.text."):
            for e in range(off, off + size, 24):
                info, = struct.unpack_from("<Q", d, e + 8)
                struct.pack_into("<Q", d, e + 8, info & ~0xffffffff)
                dropped += 1
    open(dst, "wb").write(bytes(d))
    return dropped


def main():
    ap = tool_parser()
    a = ap.parse_args()
    failed = False
    cuobjdump = os.environ.get("CUOBJDUMP", os.path.expanduser("~/.cache/cuda-disasm/cuobjdump"))
    if not os.access(cuobjdump, os.X_OK):
        cuobjdump = shutil.which("cuobjdump")
    nvlink = shutil.which("nvlink")
    for tool, name in ((cuobjdump, "cuobjdump"), (nvlink, "nvlink")):
        if not tool:
            print(f"SKIPPED: {name} not found; its check does not run")
    with tempfile.TemporaryDirectory() as tmp:
        for k in KERNELS:
            ptx = os.path.join(a.exec_dir, k + ".ptx")
            spec = os.path.join(a.exec_dir, k + ".spec")
            cubin = os.path.join(tmp, k + ".cubin")
            r = run([a.optxas, "-arch=sm_90", "-g", ptx, "-o", cubin])
            if r.returncode != 0:
                print(f"FAIL {k}: optxas -g: {r.stdout.strip()[:300]}")
                failed = True
                continue
            if cuobjdump:
                r = run([cuobjdump, "-elf", cubin])
                ok = r.returncode == 0 and "Invalid ELF" not in r.stdout
                print(("ok   " if ok else "FAIL ") + f"{k} -g: cuobjdump -elf {'accepts it' if ok else r.stdout.strip()[:200]}")
                failed |= not ok
            if nvlink:
                obj = os.path.join(tmp, k + ".o")
                r = run([a.optxas, "-arch=sm_90", "-g", "-c", ptx, "-o", obj])
                if r.returncode == 0:
                    r = run([nvlink, "-arch=sm_90", obj, "-o", os.path.join(tmp, k + ".linked.cubin")])
                ok = r.returncode == 0
                print(("ok   " if ok else "FAIL ") + f"{k} -g -c: nvlink {'links it' if ok else r.stdout.strip()[:200]}")
                failed |= not ok
            r = run([a.sim_diff, ptx, "--spec", spec, "--cubin", cubin, "--seeds", "2"])
            ok = r.returncode == 0 and "agree" in r.stdout
            print(("ok   " if ok else "FAIL ") + f"{k} -g: {r.stdout.strip().splitlines()[-1] if r.stdout.strip() else ''}")
            failed |= not ok
            if k == "device_calls":
                broken = os.path.join(tmp, k + ".broken.cubin")
                n = drop_relocations(cubin, broken)
                r = run([a.sim_diff, ptx, "--spec", spec, "--cubin", broken, "--seeds", "1"])
                caught = n > 0 and r.returncode != 0
                print(("ok   " if caught else "FAIL ") + f"{k} -g without its {n} code relocations: "
                      f"{'rejected' if caught else 'not caught'}")
                failed |= not caught
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
