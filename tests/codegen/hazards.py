#!/usr/bin/env python3
"""Static hazard checker for sm_90 SASS, independent of optxas's control-bit pass.

Reads a cubin through nvdisasm (`-hex -c`), decodes each instruction's control bits, and checks
along every path of each function's control-flow graph that
  * a register is read only after its fixed-latency producer's result is available (the producer
    issued at least the model's latency earlier, counting the stall cycles in between), or after
    a wait on the scoreboard its variable-latency producer releases;
  * a register is overwritten only after the scoreboards protecting earlier variable-latency
    reads or writes of it were waited on;
  * a scoreboard is waited on at least two cycles after the instruction that sets it.

Its latencies are the smallest distances ptxas 13.0 itself leaves on sm_90 (mined from the test
corpus; ptxas's own cubins must pass this checker, which tests/codegen runs as a self-test).
The instruction model (which operands are written, how wide they are, which opcodes are
variable-latency) is written here from the SASS text, not taken from optxas.

usage: hazards.py CUBIN... [--quiet]     exit 0 clean, 1 hazards found, 2 tool failure
"""
import os
import re
import subprocess
import sys

NVDISASM = os.environ.get("NVDISASM", os.path.expanduser("~/.cache/cuda-disasm/nvdisasm"))

# ---- instruction model -------------------------------------------------------------------------
VARIABLE = {"LDG", "LDS", "LDL", "LD", "LDC", "LDSM", "STG", "STS", "STL", "ST", "ATOMG", "ATOMS",
            "ATOM", "RED", "REDG", "REDUX", "S2R", "S2UR", "MUFU", "F2F", "F2I", "I2F",
            "FRND", "POPC", "FLO", "BREV", "SHFL", "MATCH", "BAR", "FCHK", "LDGSTS",
            "MEMBAR", "CCTL", "ATOMS", "UCGABAR_ARV", "SYNCS", "LDGDEPBAR", "ARRIVES", "UBLKCP",
            "UTMALDG", "UTMASTG", "MOVM", "LDTRAM", "DMMA", "LDCU", "STSM", "LDGMC",
            "TEX", "TLD", "TLD4", "TXD", "TXQ", "TMML", "SULD", "SUST", "SURED", "SUATOM"}
# Texture and surface unit instructions (their operands are read by _texture_roles).
TEXTURE = {"TEX", "TLD", "TLD4", "TXD", "TXQ", "TMML"}
SURFACE = {"SULD", "SUST", "SURED", "SUATOM"}
# Registers of the coordinate operand per dimensionality (array index first).
DIM_REGS = {"1D": 1, "1D_BUFFER": 1, "2D": 2, "ARRAY_1D": 2, "1D_ARRAY": 2, "3D": 3, "CUBE": 3,
            "ARRAY_2D": 3, "2D_ARRAY": 3, "ARRAY_CUBE": 4}
# Opcodes that are variable-latency only on some architectures (by the cubin's sm version):
# ptxas gives sm_120's and sm_80/86/89's FP64 arithmetic a scoreboard (sm_90 and sm_100 couple it).
_FP64 = {"DADD", "DMUL", "DFMA", "DSETP", "DMNMX"}
# R2UR likewise on sm_8x (ptxas 13.0 sets a write scoreboard; sm_90 couples it).
VARIABLE_ON = {120: _FP64, 80: _FP64 | {"R2UR"}, 86: _FP64 | {"R2UR"}, 89: _FP64 | {"R2UR"}}

# Tensor-core MMAs (fixed latency, no scoreboard). On sm_120 ptxas 13.0 issues two of them,
# whatever their shapes and operands, 16 cycles apart (stall 15 and a NOP), and reads an HMMA's
# (QMMA's) result 28 cycles after its issue, an IMMA's 26; a dependent MMA one cycle later
# (probe kernels: independent and accumulate chains of f16/bf16/tf32/s8/e4m3 mma.sync and
# mma.sp). sm_100: 8 cycles apart, readers 19 after, a dependent MMA 20. sm_90 and sm_8x space
# them by the earlier one's work (mma_interval; the readers keep min_latency's sm_90 distances).
MMA = {"HMMA", "IMMA", "BMMA", "QMMA", "OMMA"}
MMA_ISSUE_INTERVAL = {120: 16, 100: 8}
# sm_90 and sm_80/86/89 (ptxas 13.0, probe loops of independent accumulate chains of every
# mma.sync/mma.sp form, alone and in pairs of forms): the cycles after an MMA of each class
# before the next one. sm_90: whatever follows; sm_8x: only the next one of the same unit (HMMA;
# IMMA/BMMA) and class, others issue a cycle later. DMMA (scoreboarded) is left out: ptxas
# spaces it 16 (sm_8x: 10) cycles in straight code but 6 across a loop's back edge.
MMA_CLASS_INTERVAL = {90: {"small": 4, "large": 6, "sparse": 6, "sparse32": 8},
                      8: {"small": 4, "large": 8, "sparse": 6, "sparse32": 8}}


def mma_class(opcode):
    """The work class of an HMMA/IMMA/BMMA by its shape (and source type)."""
    m = opcode.split(".")
    base, mods = m[0], m[1:]
    if "SP" in mods:
        return "sparse32" if base == "HMMA" and "16832" in mods else "sparse"
    shape = next((x for x in mods if x.isdigit()), "")
    if base == "IMMA" and ("S4" in mods or "U4" in mods):
        return "large" if shape == "16864" else "small"   # 4-bit: half an 8-bit one's work
    if base == "HMMA":
        return "large" if shape == "16816" or (shape == "1688" and "TF32" in mods) else "small"
    if base == "IMMA":
        return "small" if shape in ("16816", "8816") else "large"
    if base == "BMMA":
        return "large" if shape == "168256" else "small"
    return "large"


def mma_interval(ins):
    """(resource, cycles) the MMA ins keeps from the next one on its resource, or None."""
    if ins.sm in MMA_ISSUE_INTERVAL:
        return ("all", MMA_ISSUE_INTERVAL[ins.sm]) if ins.base in MMA else None
    if ins.base not in MMA:
        return None
    if ins.sm == 90:
        return ("all", MMA_CLASS_INTERVAL[90][mma_class(ins.opcode)])
    if ins.sm in (80, 86, 89):
        n = MMA_CLASS_INTERVAL[8][mma_class(ins.opcode)]
        unit = "H" if ins.base == "HMMA" else "I"
        return ((unit, n), n)
    return None
MMA_LATENCY = {120: {"HMMA": 28, "QMMA": 28, "OMMA": 28, "IMMA": 26, "BMMA": 26},
               100: {"HMMA": 19, "QMMA": 19, "OMMA": 19, "IMMA": 19, "BMMA": 19}}

# Variable-latency instructions of one queue complete in order: a result released by no
# scoreboard is covered by the next scoreboard a later instruction of the same queue sets.
BOUNDED = {"MUFU": 32, "conv": 24, "SHFL": 28}


def queue_of(base):
    if base in ("LDS", "LDSM", "ATOMS", "STS", "MOVM", "STSM"):
        return "shared"
    if base in ("LDG", "LD", "LDL", "ATOMG", "ATOM", "STG", "ST", "STL", "RED", "REDG", "LDGMC"):
        return "global"
    if base in ("FLO", "POPC", "BREV"):
        return "bits"
    if base in TEXTURE or base in SURFACE:
        return "texture"
    if base in ("F2F", "F2I", "I2F", "I2I", "FRND"):
        return "conv"
    return base
NO_DEF = {"STG", "STS", "STL", "ST", "RED", "REDG", "BRA", "BRX", "JMP", "JMX", "EXIT", "RET",
          "CALL", "BAR", "BSSY", "BSYNC", "WARPSYNC", "NOP", "MEMBAR", "FENCE", "ERRBAR", "CCTL",
          "DEPBAR", "YIELD", "BREAK", "NANOSLEEP", "PMTRIG", "KILL", "BPT", "PREEXIT", "CGAERRBAR",
          "ENDCOLLECTIVE", "UCGABAR_ARV", "UCGABAR_WAIT", "ACQBULK", "LDGDEPBAR", "WARPGROUP",
          "SYNCS", "UTMACCTL", "UBLKCP", "UTMASTG", "UTMALDG", "SUST", "SURED", "UBLKPF",
          "UBLKRED", "UTMAPF", "STAS", "REDAS", "STSM"}
PRED_SECOND_DEF = {"ISETP", "FSETP", "DSETP", "HSETP2", "PLOP3", "UISETP", "UPLOP3", "IADD3",
                   "LEA", "LOP3", "UIADD3", "ULEA", "ULOP3", "VIADD", "SHF", "FSET", "HSET2",
                   "VOTE", "VOTEU", "PSETP", "R2P", "IMAD", "UIMAD", "VIADDMNMX", "IABS",
                   "MATCH", "SEL", "FSEL", "ISCADD", "USEL", "UFLO"}
FP64 = {"DADD", "DMUL", "DFMA", "DSETP", "DMNMX"}
UNIFORM_ALU = {"UIADD3", "UIMAD", "UISETP", "ULOP3", "USHF", "ULEA", "UPRMT", "USEL", "UFLO",
               "UPOPC", "UBREV", "UPLOP3", "USGXT", "UBMSK", "UP2UR", "UR2UP", "UMNMX", "UIABS"}
UNIFORM_MOVE = {"ULDC", "UMOV", "VOTEU", "UCLEA", "ULEPC"}
MEMORY_READERS = {"LDG", "LDS", "LDL", "LD", "STG", "STS", "STL", "ST", "ATOMG", "ATOMS", "ATOM",
                  "RED", "REDG", "LDGSTS"} | TEXTURE | SURFACE


def min_latency(producer, file, reader_kind):
    """Smallest issue distance ptxas leaves from a fixed-latency producer to a reader."""
    if producer == "R2UR":
        return 13
    if producer.startswith("BOUNDED:"):
        return BOUNDED[queue_of(producer[8:])]
    if producer in ("VARPRED", "QSPC"):
        return 2
    if producer in ("HMMA", "HGMMA", "IGMMA"):
        return 15
    if producer in ("IMMA", "BMMA"):
        return 12  # IMMA.8816 -> STG (ptxas, tests/encoding/inputs/tensor.ptx), BMMA.88128 -> STG
    if file in ("R",):
        if producer == "I2I":
            return 5   # fixed latency; ptxas's closest reader (the H200 showed it sets no scoreboard)
        if producer in FP64:
            return 8 if reader_kind == "fp64" else 6
        if reader_kind == "mem":
            return 5
        if reader_kind == "var":
            return 4
        # ptxas issues ALU readers of FMA-pipe moves three cycles after, and IMAD.WIDE reads
        # the high half of its addend two cycles late.
        return 2
    if file == "P":
        # Coupled FP64 (DSETP's combine predicate on sm_90/sm_100) reads another pipe's
        # predicate late like a guard; an FP64 producer's 6 cycles later.
        if reader_kind == "fp64" and producer not in FP64:
            return 13
        if reader_kind in ("guard", "var"):
            return 14 if producer in FP64 else 13
        return 6 if producer in FP64 else 4
    if file == "UR":
        if producer in UNIFORM_MOVE:
            return 2
        if reader_kind == "uniform":
            return 4
        if reader_kind == "var":
            return 9
        return 6
    if file == "UP":
        if producer in UNIFORM_MOVE:
            return 2
        if reader_kind == "guard":
            return 11
        return 4 if reader_kind == "uniform" else 6
    return 1


REG_RE = re.compile(r"(?<![\w.\[])(!?)(UR|UP|R|P)(\d+|Z|T)(\.64|\.reuse)*")


def split_operands(text):
    ops, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            ops.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        ops.append(cur.strip())
    return ops


def regs_in(op_text, width=1):
    """(file, number, count) for each register named in an operand."""
    out = []
    for m in REG_RE.finditer(op_text):
        f, n = m.group(2), m.group(3)
        if n in ("Z", "T"):
            continue
        w = 2 if (m.group(4) or "").startswith(".64") else width
        out.append((f, int(n), w))
    return out


class Instr:
    def __init__(self, pc, text, ctrl):
        self.pc, self.text = pc, text
        self.stall = ctrl & 15
        self.wbar = (ctrl >> 5) & 7
        self.rbar = (ctrl >> 8) & 7
        self.wait = (ctrl >> 11) & 63
        body = text
        self.guard = None
        m = re.match(r"@(!?)(U?P)(\d|T)\s+(.*)", body)
        if m:
            if m.group(3) != "T":
                self.guard = (m.group(2), int(m.group(3)), 1)
            body = m.group(4)
        parts = body.split(None, 1)
        self.opcode = parts[0] if parts else ""
        self.base = self.opcode.split(".")[0]
        self.mods = self.opcode.split(".")[1:]
        self.operands = split_operands(parts[1]) if len(parts) > 1 else []
        self.target = None
        m = re.search(r"`\((\.L_x_\d+|[^)]*)\)", body)
        if m:
            self.target = m.group(1)
        self.defs, self.uses = self._roles()

    def _width(self):
        if self.base in ("LDSM", "STSM"):
            return 4 if "4" in self.mods else 2 if "2" in self.mods else 1
        if "128" in self.mods:
            return 4
        if "64" in self.mods or self.base in FP64 or "WIDE" in self.mods or self.imnmx64():
            return 2
        return 1

    def imnmx64(self):
        """sm_120's IMNMX.U64/S64 PT, PT, Rd, Ra, b, Pmin, !PT: register pairs throughout."""
        return self.base in ("IMNMX", "UIMNMX") and ("U64" in self.mods or "S64" in self.mods)

    def _mma_widths(self):
        """(D and C, A, B) register counts of HMMA/IMMA/DMMA, from the shape and types."""
        m = self.mods
        if self.base == "DMMA":
            return 4, 2, 2
        if self.base == "IMMA":
            return {"8816": (2, 1, 1), "16816": (4, 2, 1), "16832": (4, 4, 2)}.get(m[0] if m else "", (4, 4, 2))
        if self.base == "BMMA":
            return {"168256": (4, 4, 2), "168128": (4, 2, 1), "88128": (2, 1, 1)}.get(m[0] if m else "", (4, 4, 2))
        d = 4 if "F32" in m else 2
        if "SP" in m:   # HMMA.SP: D, A, B, C, E (metadata, one register), selector
            return (d, 4, 4) if "16832" in m else (d, 2, 2)
        if "16816" in m or ("1688" in m and "TF32" in m):
            return d, 4, 2
        return d, 2, 1

    def _texture_roles(self):
        """TEX/TLD/TLD4/TXD: [Pd,] Rd2, Rd, Ra, [Rb,] UR, idx, DIM[, mask] (the mask's components
        packed into Rd, Rd+1, Rd2, Rd2+1); SULD [Pd,] Rd, [Ra], UR, idx; SUST/SURED [Ra], Rb, UR, idx."""
        ops = list(self.operands)
        defs, uses = [], []
        pd = []
        if ops and re.fullmatch(r"P(\d|T)", ops[0]):
            pd = regs_in(ops.pop(0))
        if self.base == "TXQ":
            # Rd2, Rd, Ra (mip level), QUERY, UR, idx[, mask]
            q = next(k for k, o in enumerate(ops) if o.startswith("TEX_HEADER") or o.startswith("INVALID"))
            mask = int(ops[q + 3], 16) if len(ops) > q + 3 else 0xF
            n = bin(mask).count("1")
            defs = pd + regs_in(ops[1], min(2, n)) + (regs_in(ops[0], n - 2) if n > 2 else [])
            return defs, regs_in(ops[2]) + regs_in(ops[q + 1], 2)
        if self.base in TEXTURE:
            dim = next((o for o in ops if o in DIM_REGS), "2D")
            i = ops.index(dim) if dim in ops else len(ops)
            mask = int(ops[i + 1], 16) if i + 1 < len(ops) else 0xF
            n = bin(mask).count("1")
            regs = [o for o in ops[:i] if re.fullmatch(r"U?R(\d+|Z)", o)]
            rd2, rd, src = regs[0], regs[1], regs[2:]
            defs = pd + regs_in(rd, min(2, n)) + (regs_in(rd2, n - 2) if n > 2 else [])
            for k, o in enumerate(src):
                if o.startswith("UR"):
                    uses += regs_in(o, 2)
                elif k == 0:
                    uses += regs_in(o, DIM_REGS[dim])
                else:
                    uses += regs_in(o, 4 if self.base == "TXD" else 1)
            return defs, uses
        dim = next((m for m in self.mods if m in DIM_REGS), "1D")
        w = self._width()
        if self.base == "SURED":
            w = 2 if ("U64" in self.mods or "S64" in self.mods) else 1
        for o in ops:
            if o.startswith("["):
                uses += regs_in(o, DIM_REGS[dim])
            elif self.base == "SULD" and not defs:
                defs += regs_in(o, w)
            else:
                uses += regs_in(o, w if o.startswith("R") else 1)
        return pd + defs, uses

    def _roles(self):
        ops = self.operands
        defs, uses = [], []
        b = self.base
        if b in TEXTURE or b in SURFACE:
            return self._texture_roles()
        w = self._width()
        if b in NO_DEF or not ops:
            for k, o in enumerate(ops):
                dw = w if (b in ("STG", "STS", "STL", "ST", "RED", "REDG") and "[" not in o) else 1
                uses += regs_in(o, dw)
            return defs, uses
        ndef = 1
        if b in PRED_SECOND_DEF and len(ops) > 1 and re.fullmatch(r"U?P(\d|T)", ops[1]):
            ndef = 2
        if b in ("VOTE", "VOTEU") and len(ops) == 2:
            ndef = 1   # VOTE.ALL Pd, Ps: the predicate form has no register result
        if b in ("SHFL", "ELECT"):
            ndef = 2   # (ELECT Pd, URd, Pmask)
        if self.imnmx64():
            ndef = 3   # (two predicate results, always PT, then the pair)
        if b in ("ATOMG", "ATOMS", "ATOM", "LDG", "LDS", "LDL", "LD", "LDGSTS", "QSPC"):
            ndef = next((k for k, o in enumerate(ops) if "[" in o), 1)
        for k, o in enumerate(ops):
            if k < ndef and "[" not in o:
                dw = w
                if b in ("IMAD",) and "WIDE" not in self.mods:
                    dw = 1
                if b in ("F2F", "I2F", "F2I", "I2I"):
                    dw = 2 if (len(self.mods) > 0 and self.mods[0] in ("F64", "S64", "U64")) else 1
                if b == "F2I":   # F2I.F64.TRUNC names only its source type: a 32-bit result
                    dw = 2 if ("S64" in self.mods or "U64" in self.mods) else 1
                if b in ("DSETP",):
                    dw = 1
                if b in ("CS2R",):
                    dw = 2 if ".32" not in self.opcode else 1
                if b in ("LEPC",):   # a 64-bit code address
                    dw = 2
                if b in ("HMMA", "IMMA", "DMMA", "BMMA"):
                    dw = self._mma_widths()[0]
                if re.fullmatch(r"U?P(\d|T)", o):
                    dw = 1
                defs += regs_in(o, dw)
            else:
                sw = 1
                # FP64 sources are register pairs; DSETP's combining predicate (P0 in
                # "DSETP.GT.OR P0, PT, R18, R4, P0") is a single predicate.
                if b in FP64 and "[" not in o and not re.fullmatch(r"!?U?P(\d|T)", o):
                    sw = 2
                if b in ("F2F", "F2I", "I2F", "I2I") and len(self.mods) > 1 and self.mods[1] in ("F64", "S64", "U64"):
                    sw = 2
                if b == "F2I" and "F64" in self.mods:
                    sw = 2
                if b in ("IMAD",) and "WIDE" in self.mods and k == 3:
                    sw = 2
                if self.imnmx64() and not re.fullmatch(r"!?U?P(\d|T)", o):
                    sw = 2
                if b in ("HMMA", "IMMA", "DMMA", "BMMA"):
                    dc, da, db = self._mma_widths()
                    sw = {1: da, 2: db, 4: 1}.get(k, dc)
                uses += regs_in(o, sw)
        return defs, uses

    arch_variable = frozenset()   # set per listing from VARIABLE_ON
    sm = 90                       # the listing's .target

    def variable(self):
        if self.base in ("ATOMS", "ATOMG", "ATOM") or self.base in VARIABLE or self.base in self.arch_variable:
            return True
        return False

    def reader_kind(self, file):
        if file == "P" and self.base == "VOTE":
            return "guard"   # VOTE reads its predicate late (an H200 showed it; ptxas leaves 13)
        if self.variable() or self.base in ("BRA", "BRX", "RET", "EXIT", "CALL", "JMP", "JMX"):
            if file == "P":
                return "guard"
            return "mem" if self.base in MEMORY_READERS else "var"
        if self.base in FP64 and self.base not in self.arch_variable:
            return "fp64"
        if self.base.startswith("U") and self.base not in ("UMOV",):
            return "uniform"
        return "fixed"


# ---- reading the listing -----------------------------------------------------------------------
def disassemble(cubin):
    out = subprocess.run([NVDISASM, "-hex", "-c", cubin], capture_output=True, text=True)
    if out.returncode != 0:
        raise RuntimeError(out.stderr.strip() or "nvdisasm failed")
    funcs, cur, labels, pending = {}, None, {}, None
    arch_variable = frozenset()
    sm = 90
    for line in out.stdout.splitlines():
        m = re.match(r"\s*\.target\s+sm_(\d+)", line)
        if m:
            arch_variable = frozenset(VARIABLE_ON.get(int(m.group(1)), ()))
            sm = int(m.group(1))
        m = re.match(r"\s*\.section\s+\.text\.([^,\s]+),", line)
        if m:
            cur = m.group(1)
            funcs[cur] = {"instrs": [], "labels": {}}
            pending = []
            continue
        if cur is None:
            continue
        m = re.match(r"^(\.L_x_\d+|\$?[\w$.]+):\s*$", line.strip())
        if m and not line.strip().startswith("/*"):
            pending.append(m.group(1))
            continue
        m = re.match(r"\s*/\*([0-9a-f]{4,})\*/\s+(.*?)\s*;\s*/\* (0x[0-9a-f]{16}) \*/", line)
        if m:
            pc = int(m.group(1), 16)
            for lab in pending:
                funcs[cur]["labels"][lab] = pc
            pending = []
            funcs[cur]["cur"] = (pc, m.group(2))
            continue
        m = re.match(r"\s*/\* (0x[0-9a-f]{16}) \*/", line)
        if m and "cur" in funcs[cur]:
            pc, text = funcs[cur].pop("cur")
            ctrl = int(m.group(1), 16) >> 41
            ins = Instr(pc, re.sub(r"\s+", " ", text), ctrl)
            ins.arch_variable = arch_variable
            ins.sm = sm
            funcs[cur]["instrs"].append(ins)
    return funcs


# ---- the check ---------------------------------------------------------------------------------
class State:
    """What is in flight at one point of a path."""

    def __init__(self):
        self.fixed = {}     # reg -> (cycles since a fixed-latency producer issued, producer, file)
        self.wguard = {}    # reg -> scoreboards (or "q:<queue>") guarding a pending write
        self.rguard = {}    # reg -> scoreboards guarding a pending variable-latency read
        self.wpred = {}     # reg -> (pred file, number, negated, version) of the pending write
        self.pver = {}      # predicate -> the definitions (pcs) that reach this point
        self.sbage = {}     # scoreboard -> cycles since it was set (capped at 2)
        self.mma = {}       # tensor resource -> (cycles since its last MMA, cycles it needs)

    def copy(self):
        s = State()
        s.fixed = dict(self.fixed)
        s.wguard = {k: set(v) for k, v in self.wguard.items()}
        s.rguard = {k: set(v) for k, v in self.rguard.items()}
        s.wpred = dict(self.wpred)
        s.pver = dict(self.pver)
        s.sbage = dict(self.sbage)
        s.mma = dict(self.mma)
        return s

    def merge(self, o):
        changed = False
        for k, v in o.fixed.items():
            if k not in self.fixed or self.fixed[k][0] > v[0]:
                self.fixed[k] = v
                changed = True
        for table_name in ("wguard", "rguard"):
            mine, theirs = getattr(self, table_name), getattr(o, table_name)
            for k, v in theirs.items():
                cur = mine.setdefault(k, set())
                if not v <= cur:
                    cur |= v
                    changed = True
        for k in list(self.wpred):
            if o.wpred.get(k) != self.wpred[k]:
                del self.wpred[k]
                changed = True
        for k in set(self.pver) | set(o.pver):
            u = self.pver.get(k, frozenset()) | o.pver.get(k, frozenset())
            if u != self.pver.get(k, frozenset()):
                self.pver[k] = u    # the definitions that may reach this point
                changed = True
        for k, v in o.sbage.items():
            if k not in self.sbage or self.sbage[k] > v:
                self.sbage[k] = v
                changed = True
        for k, (el, need) in o.mma.items():
            cur = self.mma.get(k)
            if cur is None or need - el > cur[1] - cur[0]:
                self.mma[k] = (el, need)
                changed = True
        return changed


def units(regs):
    for f, n, w in regs:
        for k in range(w):
            yield (f, n + k)


def complementary(state, ins, reg):
    """The pending write of reg happens under the opposite guard of ins (same predicate value)."""
    wp = state.wpred.get(reg)
    if not wp or not ins.guard:
        return False
    f, n, neg, ver = wp
    gneg = ins.text.startswith("@!")
    return ((ins.guard[0], ins.guard[1]) == (f, n) and gneg != neg and
            state.pver.get((f, n), frozenset()) == ver)


def step(state, ins, report):
    """Checks one instruction against the state, then applies its effects."""
    for sb in range(6):
        if ins.wait >> sb & 1:
            age = state.sbage.get(sb)
            if age is not None and age < 2:
                report(ins, f"waits on SB{sb} only {age} cycle(s) after it was set")
            for k in list(state.wguard):
                if sb in state.wguard[k]:
                    state.wguard[k].discard(sb)
                    fx = state.fixed.get(k)
                    if not state.wguard[k] and fx and fx[1].startswith("BOUNDED:"):
                        del state.fixed[k]
            for k in list(state.rguard):
                state.rguard[k] = {e for e in state.rguard[k] if e[0] != sb}
            state.sbage.pop(sb, None)
    reads = list(ins.uses) + ([ins.guard] if ins.guard else [])
    for f, n in units(reads):
        kind = "guard" if (ins.guard and (f, n) == (ins.guard[0], ins.guard[1])) else ins.reader_kind(f)
        g = state.wguard.get((f, n))
        fx = state.fixed.get((f, n))
        bounded = fx is not None and fx[1].startswith("BOUNDED:")
        if bounded and g and all(isinstance(e, str) for e in g):
            g = None   # no scoreboard: only the bounded latency remains to check
        elif bounded:
            fx = None  # a scoreboard covers it
        if g:
            report(ins, f"reads {f}{n} before waiting on {sorted(map(str, g))} of its producer")
        if fx:
            elapsed, producer, _ = fx
            need = min_latency(producer, f, kind)
            if producer in MMA and ins.sm in MMA_LATENCY:
                need = MMA_LATENCY[ins.sm][producer] + (1 if ins.base in MMA else 0)
            if elapsed < need:
                report(ins, f"reads {f}{n} {elapsed} cycle(s) after {producer} wrote it (needs {need})")
    busy = mma_interval(ins)
    if busy and busy[0] in state.mma:
        el, need = state.mma[busy[0]]
        if el < need:
            report(ins, f"issues {el} cycle(s) after the previous MMA (needs {need})")
    myq = queue_of(ins.base) if ins.variable() else None
    for f, n in units(ins.defs):
        # Instructions of one queue read their sources in order: no wait among themselves.
        g = {e[0] for e in (state.rguard.get((f, n)) or set()) if e[1] != myq}
        if not complementary(state, ins, (f, n)):
            wg = state.wguard.get((f, n)) or set()
            fx = state.fixed.get((f, n))
            if (wg and fx and fx[1].startswith("BOUNDED:") and all(isinstance(e, str) for e in wg)
                    and fx[0] >= min_latency(fx[1], f, "fixed")):
                wg = set()
            g |= wg
        if g:
            report(ins, f"overwrites {f}{n} before waiting on {sorted(map(str, g))}")
    # effects
    guard_rec = None
    if ins.guard:
        gf, gn = ins.guard[0], ins.guard[1]
        guard_rec = (gf, gn, ins.text.startswith("@!"), state.pver.get((gf, gn), frozenset()))
    if ins.variable():
        w = ins.wbar if ins.wbar < 6 else None
        r = ins.rbar if ins.rbar < 6 else None
        q = "q:" + queue_of(ins.base)
        if w is not None:
            for k, v in state.wguard.items():
                if q in v:
                    v.discard(q)
                    v.add(w)
            for k, v in state.rguard.items():
                if any(e[0] == q for e in v):
                    state.rguard[k] = {(w if e[0] == q else e[0], e[1]) for e in v}
        for f, n in units(ins.defs):
            if f in ("P", "UP") and ins.base not in ins.arch_variable:
                # Predicate results of memory/atomic instructions are ready within two cycles
                # (ptxas branches on QSPC/ATOM predicates without a wait). Not so DSETP's where
                # FP64 has a scoreboard (sm_120, sm_8x): ptxas waits on it before any reader.
                state.fixed[(f, n)] = (0, "VARPRED", f)
                state.wguard.pop((f, n), None)
                continue
            state.fixed.pop((f, n), None)
            if w is None and queue_of(ins.base) in BOUNDED:
                # ptxas reads MUFU/conversion/shuffle results without a scoreboard once their
                # worst-case latency has passed (or after a later one of the queue was waited).
                state.fixed[(f, n)] = (0, "BOUNDED:" + ins.base, f)
            state.wguard[(f, n)] = {w if w is not None else q}
            if guard_rec:
                state.wpred[(f, n)] = guard_rec
            else:
                state.wpred.pop((f, n), None)
        # Sources are read late only when the instruction says so with a read scoreboard (ptxas
        # overwrites the sources of loads and stores without one right after issue).
        prot = r
        if prot is not None:
            for f, n in units(ins.uses):
                state.rguard.setdefault((f, n), set()).add((prot, queue_of(ins.base)))
        for sb in (w, r):
            if sb is not None:
                state.sbage[sb] = 0
    else:
        for f, n in units(ins.defs):
            state.fixed[(f, n)] = (0, ins.base, f)
            state.wguard.pop((f, n), None)
            state.wpred.pop((f, n), None)
    for f, n in units(ins.defs):
        if f in ("P", "UP"):
            state.pver[(f, n)] = frozenset([ins.pc])
    adv = max(ins.stall, 1)
    if busy:
        state.mma[busy[0]] = (0, busy[1])
    for k, (el, need) in list(state.mma.items()):
        if el + adv >= need:
            del state.mma[k]
        else:
            state.mma[k] = (el + adv, need)
    for k, (el, p, f) in list(state.fixed.items()):
        el += adv
        if el >= 40:
            del state.fixed[k]
        else:
            state.fixed[k] = (el, p, f)
    for sb in list(state.sbage):
        state.sbage[sb] = min(state.sbage[sb] + adv, 2)


def check_function(name, fn, problems):
    instrs = fn["instrs"]
    labels = fn["labels"]
    by_pc = {ins.pc: k for k, ins in enumerate(instrs)}
    # basic blocks: leaders at label targets and after control transfers
    leaders = {0}
    for k, ins in enumerate(instrs):
        if ins.target in labels:
            leaders.add(by_pc.get(labels[ins.target], 0))
        if ins.base in ("BRA", "BRX", "JMP", "JMX", "RET", "EXIT", "CALL"):
            leaders.add(k + 1)
    leaders = sorted(l for l in leaders if l < len(instrs))
    starts = {l: i for i, l in enumerate(leaders)}
    blocks = []
    for i, l in enumerate(leaders):
        end = leaders[i + 1] if i + 1 < len(leaders) else len(instrs)
        blocks.append((l, end))

    def successors(bi):
        l, end = blocks[bi]
        last = instrs[end - 1]
        out = []
        if last.target in labels and last.base in ("BRA", "BRX", "JMP"):
            t = by_pc.get(labels[last.target])
            if t is not None and t in starts and not (t == end - 1):
                out.append(starts[t])
        unconditional = last.guard is None and not last.text.startswith("@")
        if last.base in ("EXIT", "RET") and unconditional:
            return out
        if last.base in ("BRA", "JMP", "BRX") and unconditional:
            return out
        if end in starts:
            out.append(starts[end])
        return out

    seen = set()

    def report_collect(ins, msg):
        key = (ins.pc, msg)
        if key not in seen:
            seen.add(key)
            problems.append(f"{name} {ins.pc:#06x} {ins.text}: {msg}")

    entry_states = [None] * len(blocks)
    entry_states[0] = State()
    work = [0]
    iterations = 0
    while work and iterations < 20000:
        iterations += 1
        bi = work.pop()
        st = entry_states[bi].copy()
        l, end = blocks[bi]
        for k in range(l, end):
            step(st, instrs[k], lambda ins, msg: None)
        for s in successors(bi):
            if entry_states[s] is None:
                entry_states[s] = st.copy()
                work.append(s)
            elif entry_states[s].merge(st):
                work.append(s)
    for bi, (l, end) in enumerate(blocks):
        if entry_states[bi] is None:
            continue
        st = entry_states[bi].copy()
        for k in range(l, end):
            step(st, instrs[k], report_collect)


def main(argv):
    quiet = "--quiet" in argv
    files = [a for a in argv if not a.startswith("--")]
    if not files:
        print(__doc__)
        return 2
    problems = []
    for f in files:
        try:
            funcs = disassemble(f)
        except Exception as e:  # noqa: BLE001 - report the tool failure
            print(f"{f}: {e}", file=sys.stderr)
            return 2
        for name, fn in funcs.items():
            # ptxas's -G code is hazard-free by construction (stall 15, waits everywhere).
            check_function(f"{os.path.basename(f)}:{name}", fn, problems)
    for p in problems:
        if not quiet:
            print(p)
    print(f"{len(problems)} hazard(s) in {len(files)} cubin(s)")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
