#!/usr/bin/env python3
"""Counts the elements and non-zeros of every initializer and Constant tensor of an ONNX file, with a protobuf wire
reader of its own (no onnx package), as an independent check of sparseprof's ONNX reader.

Usage: scripts/onnx_weight_counts.py MODEL.onnx [--ops]
Prints one line per float initializer: name, dims, elements, non-zeros (|x| != 0); with --ops,
the op types of the graph (subgraphs included) and how often each occurs."""
import struct
import sys
from collections import Counter


def fields(buf, start=0, end=None):
    """Yields (field number, wire type, value) over one message; value is int or (start, end) span."""
    pos, end = start, len(buf) if end is None else end
    while pos < end:
        key, pos = varint(buf, pos)
        field, wire = key >> 3, key & 7
        if wire == 0:
            v, pos = varint(buf, pos)
        elif wire == 1:
            v, pos = buf[pos:pos + 8], pos + 8
        elif wire == 5:
            v, pos = buf[pos:pos + 4], pos + 4
        elif wire == 2:
            n, pos = varint(buf, pos)
            v, pos = (pos, pos + n), pos + n
        else:
            raise ValueError("wire type %d" % wire)
        yield field, wire, v


def varint(buf, pos):
    result = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        result |= (b & 0x7F) << shift
        if b < 0x80:
            return result, pos
        shift += 7


SIZES = {1: 4, 10: 2, 16: 2, 11: 8, 2: 1, 3: 1, 6: 4, 7: 8}


def tensor(buf, span):
    dims, dtype, name, raw, floats = [], 0, "", None, []
    for f, w, v in fields(buf, *span):
        if f == 1:
            if w == 2:
                p = v[0]
                while p < v[1]:
                    d, p = varint(buf, p)
                    dims.append(d)
            else:
                dims.append(v)
        elif f == 2:
            dtype = v
        elif f == 8:
            name = buf[v[0]:v[1]].decode()
        elif f == 9:
            raw = buf[v[0]:v[1]]
        elif f == 4:
            floats.append(buf[v[0]:v[1]] if w == 2 else v)
    n = 1
    for d in dims:
        n *= d
    nz = None
    if dtype in (1, 10, 16, 11) and raw is not None:
        size = SIZES[dtype]
        mask = {4: 0x7FFFFFFF, 2: 0x7FFF, 8: 0x7FFFFFFFFFFFFFFF}[size]
        fmt = {4: "<I", 2: "<H", 8: "<Q"}[size]
        nz = sum(1 for i in range(n) if struct.unpack_from(fmt, raw, i * size)[0] & mask)
    elif dtype == 1 and floats:
        data = b"".join(floats)
        nz = sum(1 for i in range(n) if struct.unpack_from("<I", data, 4 * i)[0] & 0x7FFFFFFF)
    return name, dims, dtype, n, nz


def graph(buf, span, out, ops):
    for f, w, v in fields(buf, *span):
        if f == 5:
            out.append(tensor(buf, v))
        elif f == 1:
            op, outputs, values = "", [], []
            for nf, nw, nv in fields(buf, *v):
                if nf == 4:
                    op = buf[nv[0]:nv[1]].decode()
                elif nf == 2:
                    outputs.append(buf[nv[0]:nv[1]].decode())
                elif nf == 5:
                    for af, aw, av in fields(buf, *nv):
                        if af in (6, 11):
                            graph(buf, av, out, ops)
                        elif af == 5:
                            values.append(tensor(buf, av))
            ops[op] += 1
            if op == "Constant" and values and outputs:
                # a Constant's tensor is known by the node's output name
                out.append((outputs[0],) + values[0][1:])


def main():
    buf = open(sys.argv[1], "rb").read()
    out, ops = [], Counter()
    for f, w, v in fields(buf):
        if f == 7:
            graph(buf, v, out, ops)
    for name, dims, dtype, n, nz in out:
        if dtype in (1, 10, 16, 11):
            print("%s\t%s\t%d\t%s" % (name, "x".join(map(str, dims)), n, "?" if nz is None else nz))
    if "--ops" in sys.argv:
        for op, c in sorted(ops.items()):
            print("op", op, c, file=sys.stderr)


if __name__ == "__main__":
    main()
