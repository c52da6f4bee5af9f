#!/usr/bin/env python3
"""Lists the kernels of a PTX file for gpu-run --auto: one line per .entry,
`NAME BX BY BZ DYNAMIC_SHARED`.

The block is the kernel's .reqntid or .maxntid (else 128 threads); a module that declares an
.extern .shared array gets 16 KiB of dynamic shared memory (its kernels size it at run time).
"""
import re
import sys

ENTRY = re.compile(r"\.entry\s+([A-Za-z_$%][\w$%]*)\s*\(")
SHAPE = re.compile(r"\.(reqntid|maxntid)\s+(\d+)(?:\s*,\s*(\d+))?(?:\s*,\s*(\d+))?")


def kernels(text):
    dyn = 16384 if re.search(r"\.extern\s+\.shared", text) else 0
    out = []
    for m in ENTRY.finditer(text):
        # The performance directives sit between the parameter list and the body's '{'.
        close = text.find(")", m.end())
        body = text.find("{", close)
        header = text[close:body] if close >= 0 and body >= 0 else ""
        block = [128, 1, 1]
        shape = SHAPE.search(header)
        if shape:
            block = [int(shape.group(i) or 1) for i in (2, 3, 4)]
        out.append(f"{m.group(1)} {block[0]} {block[1]} {block[2]} {dyn}")
    return out


def main():
    if len(sys.argv) != 2:
        print("usage: corpus_kernels.py FILE.ptx", file=sys.stderr)
        return 2
    with open(sys.argv[1], encoding="utf-8", errors="replace") as f:
        print("\n".join(kernels(f.read())))
    return 0


if __name__ == "__main__":
    sys.exit(main())
