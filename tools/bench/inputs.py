"""The benchmark set: which PTX inputs the bench compiles, and the generators of the large ones.

Fixed inputs: the PTX corpus (tests/corpus/ptx, tests/corpus/handwritten), the execution-test
kernels (tests/exec) and examples/. Generated inputs (written to a cache folder, never committed):
CUB sort/scan/reduce instantiations and a -G debug build made with `nvcc -ptx` from the .cu files
in tools/bench/inputs, a ~10,000-instruction unrolled kernel, a module of 1,000 small kernels, and
the 1x/10x/100x modules of the scaling check.
"""
import glob
import hashlib
import os
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(ROOT, "tests", "codegen"))
from run_codegen import arch_of, extra_flags  # noqa: E402  (the corpus's arch and flag rules)

PTX_HEADER = ".version 9.0\n.target sm_90\n.address_size 64\n\n"


@dataclass
class Input:
    name: str                 # group/basename, unique
    path: str = None          # PTX file (None: could not be produced, see `missing`)
    arch: str = "sm_90"
    flags: list = field(default_factory=list)    # extra ptxas flags (e.g. -c)
    opts: tuple = ("-O0", "-O3")
    missing: str = None       # why the input is absent (e.g. nvcc not found)


def _is_debug(path):
    """PTX built with -G carries DWARF sections; ptxas compiles it only at -O0."""
    with open(path, errors="replace") as f:
        return re.search(r"\.section\s+\.debug_info", f.read()) is not None


def _fixed(group, path, manifest_flags=True):
    base = os.path.basename(path)[:-4]
    opts = ("-O0",) if _is_debug(path) else ("-O0", "-O3")
    return Input(f"{group}/{base}", path, arch_of(path), extra_flags(base) if manifest_flags else [], opts)


def fixed_inputs():
    out = []
    for group, pattern in (("corpus", "tests/corpus/ptx/*.ptx"), ("handwritten", "tests/corpus/handwritten/*.ptx"),
                           ("exec", "tests/exec/*.ptx"), ("example", "examples/*.ptx")):
        for path in sorted(glob.glob(os.path.join(ROOT, pattern))):
            out.append(_fixed(group, path, manifest_flags=(group == "corpus")))
    return out


# --- nvcc-made inputs -----------------------------------------------------------------------

NVCC_INPUTS = (  # name, source in tools/bench/inputs, nvcc flags
    ("cub_sort", "cub_sort.cu", ["-arch=sm_90"]),
    ("cub_scan", "cub_scan.cu", ["-arch=sm_90"]),
    ("cub_reduce", "cub_reduce.cu", ["-arch=sm_90"]),
    ("debug_G", "debug_kernels.cu", ["-arch=sm_90", "-G"]),
)


def _nvcc_version(nvcc):
    return subprocess.run([nvcc, "--version"], capture_output=True, text=True).stdout


def nvcc_inputs(cache, nvcc, log):
    out = []
    version = _nvcc_version(nvcc) if nvcc else ""
    for name, src, flags in NVCC_INPUTS:
        src_path = os.path.join(HERE, "inputs", src)
        if not nvcc:
            out.append(Input(f"nvcc/{name}", missing="nvcc not found"))
            continue
        key = hashlib.sha1((open(src_path).read() + " ".join(flags) + version).encode()).hexdigest()[:12]
        ptx = os.path.join(cache, f"{name}.{key}.ptx")
        if not os.path.exists(ptx):
            log(f"nvcc -ptx {' '.join(flags)} {src}")
            r = subprocess.run([nvcc, "-ptx", *flags, src_path, "-o", ptx + ".tmp"], capture_output=True, text=True)
            if r.returncode != 0:
                out.append(Input(f"nvcc/{name}", missing="nvcc failed: " + (r.stderr.strip().splitlines() or [""])[0][:80]))
                continue
            os.replace(ptx + ".tmp", ptx)
        opts = ("-O0",) if "-G" in flags else ("-O0", "-O3")
        out.append(Input(f"nvcc/{name}", ptx, "sm_90", [], opts))
    return out


# --- Python-generated inputs ----------------------------------------------------------------

def unrolled_kernel(name, n_ops, seed=1):
    """One straight-line kernel of about n_ops arithmetic instructions: 16 integer and 8 float
    accumulators, each op combining two of them, all folded into the stored results (so nothing
    is dead). SSA-style virtual registers, as nvcc writes them."""
    lines, r, f = [], [0], [0]

    def new(kind):
        c = r if kind == "r" else f
        c[0] += 1
        return f"%{kind}{c[0]}"

    lines += [f"\tld.param.u64 %rd1, [{name}_out];", f"\tld.param.u64 %rd2, [{name}_in];",
              "\tcvta.to.global.u64 %rd3, %rd1;", "\tcvta.to.global.u64 %rd4, %rd2;",
              "\tmov.u32 %r1, %tid.x;", "\tcvt.u64.u32 %rd8, %r1;", "\tshl.b64 %rd5, %rd8, 3;", "\tadd.s64 %rd6, %rd4, %rd5;",
              "\tadd.s64 %rd7, %rd3, %rd5;", "\tld.global.u32 %r2, [%rd6];", "\tld.global.f32 %f1, [%rd6+4];"]
    r[0], f[0] = 2, 1
    ints, floats = [], []
    for k in range(16):
        d = new("r")
        lines.append(f"\tadd.s32 {d}, %r2, {0x9E3779B1 * (k + seed) & 0x7FFFFFFF};")
        ints.append(d)
    for k in range(8):
        d = new("f")
        lines.append(f"\tadd.f32 {d}, %f1, 0f{0x3F800000 + (k + 1) * 0x10000:08X};")
        floats.append(d)
    int_ops = ("add.s32 {d}, {a}, {b}", "xor.b32 {d}, {a}, {b}", "mul.lo.s32 {d}, {a}, {b}",
               "shf.l.wrap.b32 {d}, {a}, {b}, {k};", "mad.lo.s32 {d}, {a}, {b}, {a}", "and.b32 {d}, {a}, {b}",
               "or.b32 {d}, {a}, {b}", "sub.s32 {d}, {a}, {b}")
    float_ops = ("fma.rn.f32 {d}, {a}, {b}, {a}", "add.f32 {d}, {a}, {b}", "mul.f32 {d}, {a}, {b}",
                 "max.f32 {d}, {a}, {b}", "sub.f32 {d}, {a}, {b}")
    state = seed * 2654435761 & 0xFFFFFFFF
    for i in range(n_ops):
        state = (state * 1103515245 + 12345) & 0x7FFFFFFF
        if state % 10 < 7:
            j, kk = i % 16, (i * 7 + 3 + state % 5) % 16
            op = int_ops[state % len(int_ops)]
            d = new("r")
            lines.append("\t" + op.format(d=d, a=ints[j], b=ints[kk], k=state % 31 + 1).rstrip(";") + ";")
            ints[j] = d
        else:
            j, kk = i % 8, (i * 3 + 1 + state % 3) % 8
            op = float_ops[state % len(float_ops)]
            d = new("f")
            lines.append("\t" + op.format(d=d, a=floats[j], b=floats[kk]) + ";")
            floats[j] = d
    acc = ints[0]
    for v in ints[1:]:
        d = new("r")
        lines.append(f"\txor.b32 {d}, {acc}, {v};")
        acc = d
    facc = floats[0]
    for v in floats[1:]:
        d = new("f")
        lines.append(f"\tadd.f32 {d}, {facc}, {v};")
        facc = d
    lines += [f"\tst.global.u32 [%rd7], {acc};", f"\tst.global.f32 [%rd7+4], {facc};", "\tret;"]
    head = (f".visible .entry {name}(\n\t.param .u64 {name}_out,\n\t.param .u64 {name}_in\n)\n{{\n"
            f"\t.reg .b32 %r<{r[0] + 1}>;\n\t.reg .f32 %f<{f[0] + 1}>;\n\t.reg .b64 %rd<9>;\n\n")
    return head + "\n".join(lines) + "\n}\n\n"


def small_kernel(name, k):
    """A few instructions: out[tid] = in[tid] * k + (k ^ tid)."""
    return (f".visible .entry {name}(\n\t.param .u64 {name}_p\n)\n{{\n"
            "\t.reg .b32 %r<6>;\n\t.reg .b64 %rd<6>;\n\n"
            f"\tld.param.u64 %rd1, [{name}_p];\n\tcvta.to.global.u64 %rd2, %rd1;\n"
            "\tmov.u32 %r1, %tid.x;\n\tcvt.u64.u32 %rd5, %r1;\n\tshl.b64 %rd3, %rd5, 2;\n\tadd.s64 %rd4, %rd2, %rd3;\n"
            f"\tld.global.u32 %r2, [%rd4];\n\tmul.lo.s32 %r3, %r2, {k};\n\txor.b32 %r4, %r1, {k};\n"
            "\tadd.s32 %r5, %r3, %r4;\n\tst.global.u32 [%rd4], %r5;\n\tret;\n}\n\n")


def _write(cache, name, text):
    path = os.path.join(cache, name + ".ptx")
    if not os.path.exists(path) or open(path).read() != text:
        with open(path + ".tmp", "w") as f:
            f.write(text)
        os.replace(path + ".tmp", path)
    return path


def generated_inputs(cache):
    unrolled = PTX_HEADER + unrolled_kernel("unrolled_10k", 10000)
    many = PTX_HEADER + "".join(small_kernel(f"small_{i}", 3 + 2 * i) for i in range(1000))
    return [Input("gen/unrolled_10k", _write(cache, "unrolled_10k", unrolled)),
            Input("gen/functions_1000", _write(cache, "functions_1000", many))]


SCALING_OPS = 150   # instructions per copy of the scaling kernel


def scaling_inputs(cache, copies=(1, 10, 100)):
    """Modules of 1x, 10x, 100x copies of one kernel (renamed per copy)."""
    out = []
    for n in copies:
        text = PTX_HEADER + "".join(unrolled_kernel(f"copy_{i}", SCALING_OPS, seed=1) for i in range(n))
        out.append((n, Input(f"scaling/x{n}", _write(cache, f"scaling_x{n}", text))))
    return out


def file_inputs(paths):
    """User-named PTX files, in place of the fixed set."""
    return [Input(f"file/{os.path.basename(p)[:-4] if p.endswith('.ptx') else os.path.basename(p)}",
                  os.path.abspath(p), arch_of(p), [], ("-O0",) if _is_debug(p) else ("-O0", "-O3")) for p in paths]


def benchmark_set(cache, nvcc, with_generated=True, files=None, log=print):
    os.makedirs(cache, exist_ok=True)
    if files:
        return file_inputs(files)
    inputs = fixed_inputs()
    if with_generated:
        inputs += nvcc_inputs(cache, nvcc, log) + generated_inputs(cache)
    return inputs


def find_nvcc():
    return os.environ.get("NVCC") or shutil.which("nvcc") or (
        "/usr/local/cuda/bin/nvcc" if os.access("/usr/local/cuda/bin/nvcc", os.X_OK) else None)
