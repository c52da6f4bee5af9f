#!/usr/bin/env python3
"""A small decoder for the DWARF line programs in a cubin (.debug_line, .nv_debug_line_sass).

ptxas 13.0 writes version-2 line programs with one NVIDIA extended opcode, 0x90 (an inlined
location: ULEB index of the row it is inlined at, ULEB .debug_str offset of the function name),
and four zero bytes after the file table of .debug_line. Relocations (the DW_LNE_set_address of
each sequence) are applied from the .rela/.rel sections so that each row's address is its
function's symbol plus the offset.

  dwarfline.py CUBIN [SECTION]   prints the header and rows
"""
import struct
import sys

import elfcompare


def uleb(b, i):
    v, s = 0, 0
    while True:
        x = b[i]
        i += 1
        v |= (x & 0x7F) << s
        s += 7
        if not x & 0x80:
            return v, i


def sleb(b, i):
    v, j = uleb(b, i)
    if b[j - 1] & 0x40:   # the sign bit of the last byte
        v -= 1 << (7 * (j - i))
    return v, j


def cstr(b, i):
    j = b.index(0, i)
    return b[i:j].decode(), j + 1


def decode(data, relocs=None):
    """Returns (header dict, rows); a row is a dict: address (symbol, offset), file, line, column,
    inlined_at (row index, 1-based, or 0), function (.debug_str offset), end (end_sequence)."""
    relocs = relocs or {}
    rows = []
    units = []
    pos = 0
    while pos < len(data):
        length, version, hlen = struct.unpack_from("<IHI", data, pos)
        end = pos + 4 + length
        h = {"offset": pos, "length": length, "version": version, "header_length": hlen}
        i = pos + 10
        h["min_inst_length"], h["default_is_stmt"] = data[i], data[i + 1]
        h["line_base"] = struct.unpack_from("<b", data, i + 2)[0]
        h["line_range"], h["opcode_base"] = data[i + 3], data[i + 4]
        i += 5
        h["opcode_lengths"] = list(data[i:i + h["opcode_base"] - 1])
        i += h["opcode_base"] - 1
        h["dirs"] = []
        while data[i]:
            s, i = cstr(data, i)
            h["dirs"].append(s)
        i += 1
        h["files"] = []
        while data[i]:
            s, i = cstr(data, i)
            d, i = uleb(data, i)
            t, i = uleb(data, i)
            n, i = uleb(data, i)
            h["files"].append((s, d, t, n))
        i += 1
        h["header_padding"] = bytes(data[i:pos + 10 + hlen])
        i = pos + 10 + hlen
        units.append(h)
        lb, lr, ob = h["line_base"], h["line_range"], h["opcode_base"]

        def reset():
            return {"sym": None, "addr": 0, "file": 1, "line": 1, "column": 0, "inlined_at": 0, "function": 0}

        st = reset()

        def emit(end_seq=False):
            rows.append({"address": (st["sym"], st["addr"]), "file": st["file"], "line": st["line"],
                         "column": st["column"], "inlined_at": st["inlined_at"], "function": st["function"],
                         "end": end_seq})

        while i < end:
            op = data[i]
            i += 1
            if op >= ob:
                adj = op - ob
                st["addr"] += adj // lr
                st["line"] += lb + adj % lr
                emit()
            elif op == 0:
                n, i = uleb(data, i)
                sub, body = data[i], i + 1
                if sub == 1:
                    emit(True)
                    st = reset()
                elif sub == 2:
                    sym, add = relocs.get(body, (None, None))
                    value = struct.unpack_from("<Q", data, body)[0]
                    st["sym"], st["addr"] = sym, (add if add is not None else value)
                elif sub == 0x90:
                    st["inlined_at"], j = uleb(data, body)
                    st["function"], j = uleb(data, j)
                else:
                    raise ValueError(f"unknown extended opcode {sub:#x} at {i - 1:#x}")
                i += n
            elif op == 1:
                emit()
            elif op == 2:
                v, i = sleb(data, i)
                st["addr"] += v
            elif op == 3:
                v, i = sleb(data, i)
                st["line"] += v
            elif op == 4:
                st["file"], i = uleb(data, i)
            elif op == 5:
                st["column"], i = uleb(data, i)
            elif op in (6, 7):
                pass
            elif op == 8:
                st["addr"] += (255 - ob) // lr
            elif op == 9:
                st["addr"] += struct.unpack_from("<H", data, i)[0]
                i += 2
            else:
                raise ValueError(f"unknown opcode {op:#x} at {i - 1:#x}")
        pos = end
    return units, rows


def read(cubin, section):
    """(units, rows) of `section` in `cubin`, or None when the cubin has no such section."""
    secs = elfcompare.read(cubin)
    data = next((s["data"] for s in secs if s["name"] == section), None)
    if data is None:
        return None
    relocs = {off: (sym, add) for off, _, sym, add in elfcompare.relocations(secs, section)}
    return decode(data, relocs)


def main():
    cubin = sys.argv[1]
    for sec in sys.argv[2:] or [".debug_line", ".nv_debug_line_sass"]:
        r = read(cubin, sec)
        if r is None:
            print(f"{sec}: none")
            continue
        units, rows = r
        for h in units:
            print(sec, {k: v for k, v in h.items()})
        for n, row in enumerate(rows, 1):
            sym, addr = row["address"]
            extra = f" inlined_at={row['inlined_at']} fn={row['function']}" if row["inlined_at"] else ""
            print(f"  {n:4} {sym}+{addr:#06x} file {row['file']} line {row['line']} col {row['column']}{extra}"
                  f"{' end' if row['end'] else ''}")


if __name__ == "__main__":
    main()
