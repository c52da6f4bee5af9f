#!/usr/bin/env python3
# Writes tests/exec/ddiv_special.ptx (hand-written PTX, no CUDA source): run from anywhere.
import os
# cases: (op, a_spec, b_spec); spec = None (raw) or (fracmask, expmask, expoff)
FULL = 0x800FFFFFFFFFFFFF
SHORT = 0x800FF00000000000
cases = [
  ("div", None, None),
  ("div", (FULL, 63, 0), (FULL, 63, 991)),
  ("div", (FULL, 63, 991), (FULL, 63, 0)),
  ("div", (FULL, 127, 0), (FULL, 127, 960)),
  ("div", (FULL, 127, 1920), (FULL, 127, 960)),
  ("div", (FULL, 63, 0), (FULL, 63, 0)),
  ("div", (FULL, 127, 960), (FULL, 127, 1920)),
  ("div", (FULL, 127, 0), (0x8000000000000000, 63, 1023)),
  ("div", (FULL, 127, 0), (0x8008000000000000, 63, 1023)),
  ("div", (SHORT, 127, 0), (SHORT, 63, 991)),
  ("rcp", None, None),
  ("rcp", None, (FULL, 63, 0)),
  ("rcp", None, (FULL, 63, 1983)),
  ("sqrt", None, None),
  ("sqrt", (0x000FFFFFFFFFFFFF, 63, 0), None),
  ("div", None, (FULL, 127, 960)),
]
L = []
w = L.append
w("""// div.rn.f64, rcp.rn.f64 and sqrt.rn.f64 on operands built from raw random bits: the exponent
// fields are forced into narrow windows (subnormal and tiny operands, quotients around the
// subnormal boundary and the overflow limit, power-of-two and 3*2^j divisors for exact halfway
// cases, short significands for exact quotients). Hand written for the simulator diff test.
.version 9.0
.target sm_90
.address_size 64

.visible .entry ddiv_special(
	.param .u64 ddiv_special_param_0,
	.param .u64 ddiv_special_param_1,
	.param .u64 ddiv_special_param_2,
	.param .u32 ddiv_special_param_3
)
{
	.reg .pred 	%p<2>;
	.reg .b32 	%r<8>;
	.reg .b64 	%rd<%d>;
	.reg .f64 	%fd<%d>;

	ld.param.u64 	%rd1, [ddiv_special_param_0];
	ld.param.u64 	%rd2, [ddiv_special_param_1];
	ld.param.u64 	%rd3, [ddiv_special_param_2];
	ld.param.u32 	%r5, [ddiv_special_param_3];
	mov.u32 	%r1, %ctaid.x;
	mov.u32 	%r2, %ntid.x;
	mov.u32 	%r3, %tid.x;
	mad.lo.s32 	%r4, %r1, %r2, %r3;
	setp.ge.s32 	%p1, %r4, %r5;
	@%p1 bra 	$L__done;
	cvta.to.global.u64 	%rd1, %rd1;
	cvta.to.global.u64 	%rd2, %rd2;
	cvta.to.global.u64 	%rd3, %rd3;
	mul.wide.s32 	%rd4, %r4, 8;
	add.s64 	%rd5, %rd1, %rd4;
	ld.global.u64 	%rd6, [%rd5];
	add.s64 	%rd5, %rd2, %rd4;
	ld.global.u64 	%rd7, [%rd5];
	mul.wide.s32 	%rd4, %r4, 128;
	add.s64 	%rd8, %rd3, %rd4;
	shr.u64 	%rd9, %rd6, 52;
	shr.u64 	%rd10, %rd7, 52;""")
rd = [11]; fd = [1]
def nrd():
    rd[0] += 1; return f"%rd{rd[0]-1}"
def nfd():
    fd[0] += 1; return f"%fd{fd[0]-1}"
def operand(raw, ex, spec):
    if spec is None:
        f = nfd(); w(f"\tmov.b64 \t{f}, {raw};"); return f
    frac, em, off = spec
    m = nrd(); e = nrd(); x = nrd(); f = nfd()
    w(f"\tand.b64 \t{m}, {raw}, {frac};")
    w(f"\tand.b64 \t{e}, {ex}, {em};")
    w(f"\tadd.s64 \t{e}, {e}, {off};")
    w(f"\tshl.b64 \t{e}, {e}, 52;")
    w(f"\tor.b64 \t{x}, {m}, {e};")
    w(f"\tmov.b64 \t{f}, {x};")
    return f
for i, (op, sa, sb) in enumerate(cases):
    w(f"\t// case {i}: {op}")
    if op == "div":
        a = operand("%rd6", "%rd9", sa); b = operand("%rd7", "%rd10", sb); r = nfd()
        w(f"\tdiv.rn.f64 \t{r}, {a}, {b};")
    elif op == "rcp":
        b = operand("%rd7", "%rd10", sb); r = nfd()
        w(f"\trcp.rn.f64 \t{r}, {b};")
    else:
        a = operand("%rd6", "%rd9", sa); r = nfd()
        w(f"\tsqrt.rn.f64 \t{r}, {a};")
    w(f"\tst.global.f64 \t[%rd8+{8*i}], {r};")
w("$L__done:\n\tret;\n}")
s = "\n".join(L) + "\n"
s = s.replace("%rd<%d>", f"%rd<{rd[0]}>").replace("%fd<%d>", f"%fd<{fd[0]}>")
open(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "ddiv_special.ptx"), "w").write(s)
