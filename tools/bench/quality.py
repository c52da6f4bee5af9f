"""Code-quality facts of one compiled module, read the same way for both tools.

- registers, stack frame and spill bytes per function from the tool's `-v` report (optxas prints
  ptxas's exact format);
- SASS instructions per function from nvdisasm on the cubin, without the padding after the last
  real instruction (NOPs and the BRA-to-itself that ends ptxas's functions);
- a static cycle estimate per function: the sum of the stall counts in the control bits of those
  instructions (bits 105..108 of each 128-bit word, at least 1 cycle per instruction). This is the
  quantity our control-bit pass reports as ControlBitsStats::cycles, recomputed here from the
  decoded cubin so that it applies to ptxas's code too. It ignores scoreboard waits (variable
  latencies) and assumes every instruction runs once: a straight-line issue-cost estimate.
"""
import os
import re
import shutil
import subprocess
from dataclasses import dataclass, field

NVDISASM = os.environ.get("NVDISASM") or shutil.which("nvdisasm") or os.path.expanduser(
    "~/.cache/cuda-disasm/nvdisasm")

STALL_SHIFT, STALL_MASK = 105 - 64, 0xF  # stall field, in the second 64-bit word


@dataclass
class Function:
    regs: int = None
    stack: int = 0
    spill_bytes: int = 0          # spill stores + spill loads
    instructions: int = None
    cycles: int = None
    ms: float = None              # "Compile time = N ms" where the tool reports it


@dataclass
class Module:
    functions: dict = field(default_factory=dict)   # name -> Function

    def kernels(self):
        """Functions with a register count (ptxas reports none for device functions)."""
        return {n: f for n, f in self.functions.items() if f.regs is not None}


def parse_verbose(text, module):
    """Fills regs/stack/spills from `-v` lines:
         ptxas info    : Function properties for F
             N bytes stack frame, N bytes spill stores, N bytes spill loads
         ptxas info    : Used N registers, ..."""
    cur = None
    for line in text.splitlines():
        m = re.search(r"Function properties for (\S+)", line)
        if m:
            cur = module.functions.setdefault(m.group(1), Function())
            continue
        m = re.match(r"\s+(\d+) bytes stack frame, (\d+) bytes spill stores, (\d+) bytes spill loads", line)
        if m and cur:
            cur.stack = int(m.group(1))
            cur.spill_bytes = int(m.group(2)) + int(m.group(3))
            continue
        m = re.search(r"Used (\d+) registers", line)
        if m and cur:
            cur.regs = int(m.group(1))
        m = re.search(r"Compile time = ([\d.]+) ms", line)
        if m and cur:
            cur.ms = float(m.group(1))


def parse_disassembly(text, module):
    """Fills instructions/cycles from `nvdisasm -c -hex` output: each instruction line carries the
    first 64-bit word, the next line the second (with the control bits)."""
    cur, body, pending = None, [], None

    def flush():
        if cur is None:
            return
        insts = list(body)
        # ptxas ends each function with a BRA to itself and NOPs up to the alignment.
        while insts and insts[-1][0].startswith("NOP"):
            insts.pop()
        if insts and re.match(r"BRA `\(\.L_x_\d+\)", insts[-1][0]):
            insts.pop()
        while insts and insts[-1][0].startswith("NOP"):
            insts.pop()
        f = module.functions.setdefault(cur, Function())
        f.instructions = len(insts)
        f.cycles = sum(max(1, stall) for _, stall in insts)

    for line in text.splitlines():
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+),", line)
        if m:
            flush()
            cur, body, pending = m.group(1), [], None
            continue
        if cur is None:
            continue
        m = re.match(r"\s*/\*[0-9a-f]{4,}\*/\s+(?:@!?U?P\w+\s+)?(.*?)\s*;\s*/\* 0x[0-9a-f]{16} \*/", line)
        if m:
            pending = m.group(1)
            continue
        m = re.match(r"\s*/\* (0x[0-9a-f]{16}) \*/\s*$", line)
        if m and pending is not None:
            hi = int(m.group(1), 16)
            body.append((pending, (hi >> STALL_SHIFT) & STALL_MASK))
            pending = None
    flush()


def analyse(verbose_text, cubin):
    """The Module facts of one compilation: its -v text and its cubin."""
    module = Module()
    parse_verbose(verbose_text, module)
    if cubin and os.path.exists(cubin):
        r = subprocess.run([NVDISASM, "-c", "-hex", cubin], capture_output=True, text=True)
        if r.returncode != 0:
            raise RuntimeError(f"nvdisasm failed on {cubin}: {r.stderr.strip()[:200]}")
        parse_disassembly(r.stdout, module)
    return module


def totals(module, names):
    """Sums over the given kernels: instructions, regs, stack, spill bytes, cycles."""
    fs = [module.functions[n] for n in names]
    return {
        "sass": sum(f.instructions or 0 for f in fs),
        "regs": sum(f.regs or 0 for f in fs),
        "stack": sum(f.stack for f in fs),
        "spills": sum(f.spill_bytes for f in fs),
        "cycles": sum(f.cycles or 0 for f in fs),
    }


def have_nvdisasm():
    return os.access(NVDISASM, os.X_OK)
