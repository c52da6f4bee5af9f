#!/usr/bin/env python3
"""nvcc substitution end to end (ctest toolchain.nvcc_shadow).

Builds a shadow CUDA bin/ folder whose ptxas is optxas (tools/nvcc-shim/make-shadow.sh), then
with the shadow nvcc:
  1. compiles the toolchain program (main.cu host code, scale.cu whole-program device code,
     add.cu with -rdc=true), links it (nvcc runs nvlink for the relocatable object) and
     runs it: "ok" on a GPU, "no usable GPU" (exit 2) elsewhere, unless --require-gpu;
  2. checks that the cubins nvcc embedded are optxas's: cuobjdump -xelf of each object and of
     the executable against `optxas` run on the PTX of `nvcc -ptx` with the same options
     (whole-program cubins byte for byte; the nvlink-linked cubin by its kernel code);
  3. -Xptxas pass-through (-v, -O3, an optxas-only option) and `nvcc -cubin`; every ptxas
     command line nvcc makes for a list of nvcc options (nvcc -dryrun) is accepted by optxas;
     nvcc -G end to end; a PTX error reaches the nvcc user in ptxas's format;
  4. a CMake project with CMAKE_CUDA_COMPILER=<shadow>/bin/nvcc (SKIP, reported, only when
     this CMake or nvcc cannot configure CUDA at all with the real toolkit).
Exit status 0 when every check passed.
"""
import argparse
import os
import shlex
import shutil
import struct
import subprocess
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
ARCH = "sm_90"
failures = []


def run(cmd, cwd=None, check=True, env=None):
    p = subprocess.run([str(c) for c in cmd], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                       text=True, env=env)
    if check and p.returncode != 0:
        print(f"FAIL: command failed ({p.returncode}): {' '.join(map(str, cmd))}\n{p.stdout}")
        sys.exit(1)
    return p


def check(ok, what):
    print(("ok   " if ok else "FAIL ") + what)
    if not ok:
        failures.append(what)


def find_tool(env_var, names):
    if os.environ.get(env_var):
        return os.environ[env_var]
    for n in names:
        p = shutil.which(n) if "/" not in n else (n if os.access(n, os.X_OK) else None)
        if p:
            return p
    return None


def find_cuda_home(nvcc):
    """The real toolkit behind NVCC: the folder whose bin/ holds nvcc and nvcc.profile.

    The nvcc on PATH may be a wrapper script or a copy outside the toolkit (/usr/local/bin/nvcc),
    so ask nvcc itself where it runs from (its -dryrun prints _HERE_), then try the usual places."""
    candidates = []
    p = subprocess.run([nvcc, "-dryrun", "-c", "-x", "cu", os.devnull, "-o", os.devnull],
                       stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True)
    for line in p.stdout.splitlines():
        if line.startswith("#$ _HERE_="):
            candidates.append(Path(line.split("=", 1)[1].strip()).parent)
    candidates.append(Path(os.path.realpath(nvcc)).parent.parent)
    candidates += [Path(os.environ[v]) for v in ("CUDA_HOME", "CUDA_PATH") if os.environ.get(v)]
    candidates += [Path("/usr/local/cuda"), Path("/usr/local/cuda-13.0")]
    for c in candidates:
        c = Path(os.path.realpath(c))
        if (c / "bin/nvcc").is_file() and (c / "bin/nvcc.profile").is_file():
            return c
    return None


def elf_sections(data):
    """name -> bytes of each section of a 64-bit little-endian ELF."""
    shoff, = struct.unpack_from("<Q", data, 0x28)
    shentsize, shnum, shstrndx = struct.unpack_from("<HHH", data, 0x3A)
    hdrs = [struct.unpack_from("<IIQQQQIIQQ", data, shoff + i * shentsize) for i in range(shnum)]
    stroff = hdrs[shstrndx][4]
    out = {}
    for h in hdrs:
        name = data[stroff + h[0]:data.index(b"\0", stroff + h[0])].decode()
        out[name] = data[h[4]:h[4] + h[5]] if h[1] != 8 else b""  # SHT_NOBITS has no bytes
    return out


def extract_cubins(cuobjdump, binary, dest):
    dest.mkdir(parents=True, exist_ok=True)
    for old in dest.glob("*.cubin"):
        old.unlink()
    run([cuobjdump, "-xelf", "all", binary.resolve()], cwd=dest)
    return {p.name: p.read_bytes() for p in sorted(dest.glob("*.cubin"))}


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--optxas", required=True)
    ap.add_argument("--work", required=True, help="scratch folder (recreated)")
    ap.add_argument("--require-gpu", action="store_true", help="the program must run and print ok")
    ap.add_argument("--no-cmake", action="store_true")
    args = ap.parse_args()

    nvcc = find_tool("NVCC", ["nvcc", "/usr/local/cuda/bin/nvcc"])
    cuobjdump = find_tool("CUOBJDUMP", ["cuobjdump", str(Path.home() / ".cache/cuda-disasm/cuobjdump"),
                                        "/usr/local/cuda/bin/cuobjdump"])
    if not nvcc:
        print("FAIL: nvcc not found (CUDA 13.0 is required)")
        return 1
    if not cuobjdump and not args.require_gpu:
        print("FAIL: cuobjdump not found (set CUOBJDUMP, or run tools/install-deps.sh)")
        return 1
    optxas = Path(args.optxas).resolve()
    work = Path(args.work).resolve()
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    cuda_home = find_cuda_home(nvcc)
    if cuda_home is None:
        print(f"FAIL: no CUDA installation (bin/nvcc with bin/nvcc.profile) found for {nvcc}")
        return 1

    # The shadow toolkit.
    shadow_nvcc = Path(run([ROOT / "tools/nvcc-shim/make-shadow.sh", optxas, work / "cuda", cuda_home])
                       .stdout.strip().splitlines()[-1])
    bin_dir = shadow_nvcc.parent
    check(shadow_nvcc.is_file() and not shadow_nvcc.is_symlink(), "shadow bin/nvcc is a copy of nvcc")
    check(os.path.realpath(bin_dir / "ptxas") == str(optxas), "shadow bin/ptxas is optxas")
    profile = (bin_dir / "nvcc.profile").read_text()
    check(f"TOP              = {cuda_home}" in profile, "nvcc.profile's TOP is the real toolkit")

    # Reference: optxas itself on nvcc's PTX, with the options nvcc passes to ptxas.
    ref = {}
    for src, rdc in (("main", False), ("scale", False), ("add", True), ("add", False)):
        tag = src + (".rdc" if rdc else "")
        ptx = work / f"{tag}.ptx"
        run([nvcc, f"-arch={ARCH}", "-ptx", *(["-rdc=true"] if rdc else []), "-I", HERE, HERE / f"{src}.cu", "-o", ptx])
        out = work / f"{tag}.optxas.cubin"
        run([optxas, f"-arch={ARCH}", "-m64", *(["--compile-only"] if rdc else []), ptx, "-o", out])
        ref[tag] = out.read_bytes()

    # 1. The program through the shadow nvcc.
    objs = []
    for src, flags in (("main", []), ("scale", []), ("add", ["-rdc=true"])):
        obj = work / f"{src}.o"
        run([shadow_nvcc, f"-arch={ARCH}", *flags, "-I", HERE, "-c", HERE / f"{src}.cu", "-o", obj])
        objs.append(obj)
    prog = work / "toolchain_prog"
    run([shadow_nvcc, f"-arch={ARCH}", *objs, "-o", prog])
    check(prog.is_file() and prog.read_bytes()[:4] == b"\x7fELF", "nvcc linked the program (nvlink on the -rdc object)")

    r = run([prog], check=False)
    print("     program says: " + r.stdout.strip())
    if args.require_gpu:
        check(r.returncode == 0 and "toolchain program: ok" in r.stdout, "the program runs on the GPU with right results")
    else:
        check(r.returncode in (0, 2), "the program loads and runs (right results, or no usable GPU here)")

    # 2. Its cubins are ours.
    if not cuobjdump:  # only with --require-gpu: the GPU run is the point there
        print("SKIP embedded-cubin, option and CMake checks: no cuobjdump (set CUOBJDUMP)")
        return 1 if failures else 0
    for src, tag in (("main", "main"), ("scale", "scale"), ("add", "add.rdc")):
        cubins = extract_cubins(cuobjdump, work / f"{src}.o", work / "x" / src)
        check(list(cubins.values()) == [ref[tag]],
              f"{src}.o embeds exactly optxas's cubin for {tag}.ptx ({len(ref[tag])} bytes)")
    linked = extract_cubins(cuobjdump, prog, work / "x" / "prog")
    whole = [c for c in linked.values() if c in (ref["main"], ref["scale"])]
    check(len(whole) == 2, f"the program embeds optxas's main and scale cubins ({len(linked)} cubins in all)")
    others = [c for c in linked.values() if c not in whole]
    kernel_text = ".text._Z7addIntsPiPKiS1_i"
    ours = elf_sections(ref["add.rdc"]).get(kernel_text)
    check(ours is not None and len(others) == 1 and elf_sections(others[0]).get(kernel_text) == ours,
          "the nvlink-linked cubin holds optxas's code for addInts")

    # 3. -Xptxas pass-through and -cubin.
    r = run([shadow_nvcc, f"-arch={ARCH}", "-I", HERE, "-Xptxas", "-v,-O3", "-c", HERE / "scale.cu", "-o", work / "v.o"])
    check("ptxas info    : Compiling entry function '_Z4axpyPfPKffi' for 'sm_90'" in r.stdout
          and "ptxas info    : Used " in r.stdout, "-Xptxas -v,-O3 reaches optxas (its -v report)")
    r = run([shadow_nvcc, f"-arch={ARCH}", "-I", HERE, "-Xptxas", "--stat=phase-wise", "-c", HERE / "scale.cu",
             "-o", work / "stat.o"], check=False)
    check(r.returncode == 0 and "Before AnalyzeControlFlow" in r.stdout,
          "-Xptxas --stat=phase-wise (an optxas-only option) reaches optxas")
    run([shadow_nvcc, f"-arch={ARCH}", "-I", HERE, "-cubin", HERE / "scale.cu", "-o", work / "scale.cubin"])
    check((work / "scale.cubin").read_bytes() == ref["scale"], "nvcc -cubin writes optxas's cubin")

    check_nvcc_options(work, shadow_nvcc, nvcc, optxas)

    # PTX errors reach the nvcc user in ptxas's format, and the build stops.
    bad = work / "bad_asm.cu"
    bad.write_text('__global__ void k() { asm volatile("bogus.instruction;"); }\n')
    r = run([shadow_nvcc, f"-arch={ARCH}", "-c", bad, "-o", work / "bad_asm.o"], check=False)
    check(r.returncode != 0 and "; error   : Not a name of any known instruction: 'bogus'" in r.stdout
          and not (work / "bad_asm.o").exists(), "a PTX error stops nvcc with optxas's ptxas-format message")

    # 4. CMake with CMAKE_CUDA_COMPILER pointing at the shadow nvcc.
    if not args.no_cmake:
        cmake_check(work, shadow_nvcc, nvcc, cuobjdump, ref)

    print(f"toolchain.nvcc_shadow: {len(failures)} check(s) failed" if failures else "toolchain.nvcc_shadow: all checks passed")
    return 1 if failures else 0


# nvcc options that change what nvcc passes to ptxas (nvcc -dryrun shows it).
NVCC_OPTION_SETS = [
    [], ["-rdc=true"], ["-G"], ["-G", "-lineinfo"], ["-G", "-rdc=true"], ["-lineinfo"],
    ["-maxrregcount=32"], ["--maxrregcount", "64"], ["-ewp"], ["-Xptxas", "-O1"], ["-O3", "-Xptxas", "-O2"],
    ["--fmad=false"], ["-res-usage"], ["--device-stack-protector=true"], ["-Xptxas", "-warn-spills"],
    ["-Xptxas", "--preserve-relocs"], ["--Werror", "all-warnings"], ["--disable-warnings"],
    ["-split-compile=2"], ["--Ofast-compile=max"], ["-arch=sm_90a"],
    ["-gencode", "arch=compute_90,code=sm_90"], ["-cubin", "--compile-as-tools-patch"],
    ["-Xptxas", "-pic=true"], ["-Xptxas", "--extensible-whole-program"],
]


def check_nvcc_options(work, shadow_nvcc, nvcc, optxas):
    """Each ptxas command line that nvcc makes for these options runs through optxas."""
    ptx = {}
    for debug in (False, True):
        ptx[debug] = work / f"scale{'.G' if debug else ''}.ptx"
        if not ptx[debug].exists():
            run([nvcc, f"-arch={ARCH}", *(["-G"] if debug else []), "-ptx", "-I", HERE, HERE / "scale.cu", "-o", ptx[debug]])
    bad = []
    lines = 0
    for opts in NVCC_OPTION_SETS:
        mode = [] if "-cubin" in opts else ["-c"]
        dry = run([shadow_nvcc, f"-arch={ARCH}", "-dryrun", *opts, *mode, "-I", HERE, HERE / "scale.cu",
                   "-o", work / "dry.o"]).stdout
        cmds = [shlex.split(l[3:]) for l in dry.splitlines() if l.startswith("#$ ptxas ")]
        if not cmds:
            bad.append(f"{' '.join(opts)}: nvcc runs no ptxas")
        for argv in cmds:
            lines += 1
            out = work / "opt.cubin"
            out.unlink(missing_ok=True)
            args = [str(ptx["-G" in opts]) if a.endswith(".ptx") else a for a in argv[1:]]
            if "-o" in args:
                args[args.index("-o") + 1] = str(out)
            r = run([optxas, *args], check=False)
            virtual = any(a.startswith("-arch=compute_") for a in args)
            if r.returncode != 0 or (not virtual and not out.exists()):
                bad.append(f"{' '.join(opts)}: optxas {' '.join(args)} -> {r.returncode}: {r.stdout.strip()[:300]}")
    for b in bad:
        print("     " + b)
    check(not bad, f"optxas accepts all {lines} ptxas command lines nvcc makes for {len(NVCC_OPTION_SETS)} option sets")
    r = run([shadow_nvcc, f"-arch={ARCH}", "-G", "-rdc=true", "-I", HERE, "-c", HERE / "add.cu", "-o", work / "g.o"],
            check=False)
    check(r.returncode == 0, "nvcc -G -rdc=true (PTX with DWARF sections) through optxas")


def cmake_check(work, shadow_nvcc, nvcc, cuobjdump, ref):
    cmake = shutil.which("cmake")
    if cmake is None:
        print("SKIP CMake part: no cmake on PATH")
        return
    gen = ["-G", "Ninja"] if shutil.which("ninja") else []
    # CMake identifies nvcc by compiling a test file with CMAKE_CUDA_FLAGS only (not with
    # CMAKE_CUDA_ARCHITECTURES), i.e. for nvcc's default sm_75, for which optxas generates no
    # code: the architecture must be in the flags.
    env = dict(os.environ, CUDAFLAGS=f"-arch={ARCH}")
    build = work / "cmake-build"
    r = run([cmake, *gen, "-S", HERE / "cmake", "-B", build, f"-DCMAKE_CUDA_COMPILER={shadow_nvcc}"],
            check=False, env=env)
    if r.returncode != 0:
        # Not the shadow toolkit's fault if this CMake cannot configure CUDA with the real nvcc.
        probe = work / "cmake-probe"
        probe.mkdir()
        (probe / "CMakeLists.txt").write_text("cmake_minimum_required(VERSION 3.20)\nproject(p LANGUAGES CUDA)\n")
        if run([cmake, *gen, "-S", probe, "-B", probe / "b", f"-DCMAKE_CUDA_COMPILER={nvcc}"],
               check=False, env=env).returncode != 0:
            print("SKIP CMake part: this machine's CMake cannot configure CUDA even with the real nvcc")
            return
    check(r.returncode == 0, "CMake configures a CUDA project with CMAKE_CUDA_COMPILER=<shadow>/bin/nvcc")
    if r.returncode != 0:
        print(r.stdout[-3000:])
        return
    r = run([cmake, "--build", build], check=False)
    check(r.returncode == 0, "CMake builds it")
    if r.returncode != 0:
        print(r.stdout[-3000:])
        return
    cubins = extract_cubins(cuobjdump, build / "toolchain_cmake", work / "x" / "cmake")
    want = sorted([ref["main"], ref["scale"], ref["add"]])
    check(sorted(cubins.values()) == want, "the CMake-built program embeds exactly optxas's three cubins")


if __name__ == "__main__":
    sys.exit(main())
