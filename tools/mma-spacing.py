#!/usr/bin/env python3
"""Measures how far apart a compiler issues tensor-core instructions (docs/control-bits.md,
"Tensor cores per architecture"): generates probe loops with eight independent accumulate
chains per mma.sync/mma.sp form (A and B loop-invariant, so only the tensor pipe's issue rule
and the chains' own latency bind them) and loops alternating two forms, compiles them, and prints
per loop the smallest distance after each opcode to the next MMA and between two MMAs of one
opcode (static cycles: the sum of stalls in layout order).

  tools/mma-spacing.py --arch sm_90 [--compiler ptxas] [--forms f16_k16,f16_k8] [--keep DIR]
"""
import argparse
import collections
import os
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "tests", "codegen"))
import hazards  # noqa: E402

# name: (instruction, A regs, B regs, C/D regs, accumulator type, sparse, lowest sm)
FORMS = {
    "f16_k8": ("mma.sync.aligned.m16n8k8.row.col.f32.f16.f16.f32", 2, 1, 4, "f32", False, 80),
    "f16_k16": ("mma.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 4, 2, 4, "f32", False, 80),
    "f16acc_k16": ("mma.sync.aligned.m16n8k16.row.col.f16.f16.f16.f16", 4, 2, 2, "b32", False, 80),
    "bf16_k16": ("mma.sync.aligned.m16n8k16.row.col.f32.bf16.bf16.f32", 4, 2, 4, "f32", False, 80),
    "tf32_k4": ("mma.sync.aligned.m16n8k4.row.col.f32.tf32.tf32.f32", 2, 1, 4, "f32", False, 80),
    "tf32_k8": ("mma.sync.aligned.m16n8k8.row.col.f32.tf32.tf32.f32", 4, 2, 4, "f32", False, 80),
    "s8_m8n8k16": ("mma.sync.aligned.m8n8k16.row.col.s32.s8.s8.s32", 1, 1, 2, "s32", False, 80),
    "s8_k16": ("mma.sync.aligned.m16n8k16.row.col.s32.s8.s8.s32", 2, 1, 4, "s32", False, 80),
    "s8_k32": ("mma.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 4, 2, 4, "s32", False, 80),
    "u8_k32": ("mma.sync.aligned.m16n8k32.row.col.satfinite.s32.u8.u8.s32", 4, 2, 4, "s32", False, 80),
    "b1_k128": ("mma.sync.aligned.m16n8k128.row.col.s32.b1.b1.s32.xor.popc", 2, 1, 4, "s32", False, 80),
    "b1_k256": ("mma.sync.aligned.m16n8k256.row.col.s32.b1.b1.s32.and.popc", 4, 2, 4, "s32", False, 80),
    "f64_m8n8k4": ("mma.sync.aligned.m8n8k4.row.col.f64.f64.f64.f64", 1, 1, 2, "f64", False, 80),
    "sp_f16_k16": ("mma.sp.sync.aligned.m16n8k16.row.col.f32.f16.f16.f32", 2, 2, 4, "f32", True, 80),
    "sp_f16_k32": ("mma.sp.sync.aligned.m16n8k32.row.col.f32.f16.f16.f32", 4, 4, 4, "f32", True, 80),
    "sp_s8_k32": ("mma.sp.sync.aligned.m16n8k32.row.col.s32.s8.s8.s32", 2, 2, 4, "s32", True, 80),
}
PAIRS = [("f16_k16", "f16_k8"), ("f16_k16", "tf32_k8"), ("f16_k8", "tf32_k4"), ("f16_k16", "s8_k32"),
         ("f16_k8", "s8_m8n8k16"), ("s8_k32", "s8_k16"), ("s8_k32", "b1_k256"), ("f16_k16", "sp_f16_k16"),
         ("tf32_k8", "sp_f16_k32"), ("f16_k16", "f64_m8n8k4")]


def kernel(name, seq):
    """A loop running the forms of seq once each per iteration, each on its own accumulators."""
    decl, loads, body, stores, off = [], [], [], [], 0
    for k, form in enumerate(seq):
        ins, na, nb, nc, kind, sparse, _ = FORMS[form]
        ab = "f64" if kind == "f64" else "b32"
        sz = 8 if kind == "f64" else 4
        decl.append(f"  .reg .{ab} %a{k}_<{na}>; .reg .{ab} %b{k}_<{nb}>; .reg .{kind} %c{k}_<{nc}>;")
        for reg, n, ty in (("a", na, ab), ("b", nb, ab), ("c", nc, kind)):
            for i in range(n):
                loads.append(f"  ld.global.{'u32' if ty == 'b32' else ty} %{reg}{k}_{i}, [%rd2+{off}];")
                off += sz
        regs = lambda r, n: "{" + ",".join(f"%{r}{k}_{i}" for i in range(n)) + "}"
        meta = ", %r5, 0x0" if sparse else ""
        body.append(f"  {ins} {regs('c', nc)}, {regs('a', na)}, {regs('b', nb)}, {regs('c', nc)}{meta};")
        for i in range(nc):
            stores.append(f"  st.global.{'u32' if kind == 'b32' else kind} [%rd2+{off}], %c{k}_{i};")
            off += sz
    return "\n".join([f".visible .entry {name}(.param .u64 p, .param .u32 n)", "{",
                      "  .reg .b32 %r<8>; .reg .pred %p<2>; .reg .b64 %rd<4>;"] + decl + [
        "  ld.param.u64 %rd1, [p]; cvta.to.global.u64 %rd2, %rd1; ld.param.u32 %r1, [n];",
        "  mov.u32 %r0, %tid.x; mul.wide.u32 %rd3, %r0, 4096; add.s64 %rd2, %rd2, %rd3;",
        "  ld.global.u32 %r5, [%rd2+4000];"] + loads + ["  mov.u32 %r2, 0;", "LOOP:"] + body + [
        "  add.s32 %r2, %r2, 1; setp.lt.s32 %p1, %r2, %r1;", "  @%p1 bra LOOP;"] + stores + ["  ret;", "}", ""])


def loop_body(fn):
    for ins in fn["instrs"]:
        if ins.base == "BRA" and ins.guard and ins.target in fn["labels"]:
            start = fn["labels"][ins.target]
            if start < ins.pc:
                return [x for x in fn["instrs"] if start <= x.pc <= ins.pc]
    return []


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--arch", default="sm_90")
    ap.add_argument("--compiler", default="ptxas")
    ap.add_argument("--forms", help="comma-separated subset of the single-form loops (default: all)")
    ap.add_argument("--keep", help="directory to keep the probe PTX and cubin in")
    a = ap.parse_args()
    sm = int("".join(c for c in a.arch[3:] if c.isdigit()))
    forms = [f for f in (a.forms.split(",") if a.forms else FORMS) if FORMS[f][6] <= sm]
    kernels = [kernel(f"L_{f}", [f] * 8) for f in forms]
    kernels += [kernel(f"M_{x}__{y}", [x, y] * 4) for x, y in PAIRS if x in forms and y in forms]
    ptx = f".version 8.7\n.target {a.arch}\n.address_size 64\n\n" + "\n".join(kernels)
    tmp = a.keep or tempfile.mkdtemp()
    os.makedirs(tmp, exist_ok=True)
    src, out = os.path.join(tmp, "mma_spacing.ptx"), os.path.join(tmp, "mma_spacing.cubin")
    open(src, "w").write(ptx)
    r = subprocess.run([a.compiler, f"-arch={a.arch}", "-O3", src, "-o", out], capture_output=True, text=True)
    if r.returncode:
        sys.exit(f"{a.compiler} failed: {r.stderr.strip()[:2000]}")
    mma = hazards.MMA | {"DMMA"}
    for name, fn in sorted(hazards.disassemble(out).items()):
        t, seq = 0, []
        for ins in loop_body(fn):
            if ins.base in mma:
                seq.append((t, ins.opcode))
            t += ins.stall
        after = collections.defaultdict(lambda: 10 ** 9)
        same = collections.defaultdict(lambda: 10 ** 9)
        last = {}
        for (ta, oa), (tb, _) in zip(seq, seq[1:]):
            after[oa] = min(after[oa], tb - ta)
        for tt, o in seq:
            if o in last:
                same[o] = min(same[o], tt - last[o])
            last[o] = tt
        print(f"{name:28s} after: " + ", ".join(f"{o} {v}" for o, v in sorted(after.items())) +
              " | same opcode: " + ", ".join(f"{o} {v}" for o, v in sorted(same.items())))


if __name__ == "__main__":
    main()
